"""What a bot developer meets with real engines: repetition count, reproducible bots,
engine clocks, records and the referee's cost per move (fake engines; real ones only
when ARENA_FAIRY_STOCKFISH / ARENA_ELEPHANTEYE name them)."""
import json
import os
from pathlib import Path

import pytest

from games.xiangqi import PLUGIN
from games.xiangqi.referee import build_referee_match, format_report

from seat_commands import fake_engine as engine
from seat_commands import python_command as command

PROGRAMS = Path(__file__).resolve().parent / "programs"
MOVER = PROGRAMS / "random_mover.py"


# --------------------------------------------------------------------------- 6. referee overhead

def test_report_grows_by_one_small_write_per_move_and_one_fsync(tmp_path, monkeypatch):
    """REPORT.TXT is appended (no fsync) and equals the whole file after every move;
    the record's fsync is the only one per half-move."""
    match = build_referee_match(command(MOVER, "--seed", "1"), command(MOVER, "--seed", "2"), tmp_path,
                                options={"no_capture_limit": "24"}, seed=1, poll=0.01)
    seen = []
    real_after_turn = match.after_turn

    def after_turn(info):
        real_after_turn(info)
        seen.append(((tmp_path / "REPORT.TXT").read_bytes().decode("ascii"),
                     format_report(match.report_authors, match.report_words, match.states[-1].moves)))

    syncs = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (syncs.append(fd), real_fsync(fd)))
    match.after_turn = after_turn
    match.run()
    played = len(match.states[-1].moves)
    assert played >= 10 and len(seen) == played
    assert all(on_disk == whole for on_disk, whole in seen)
    # One fsync per half-move (the record) plus a handful at the start and the end.
    assert len(syncs) <= played + 12, (len(syncs), played)
    result = json.loads((tmp_path / "REPORT.JSON").read_text())
    assert result["half_moves"] == played and result["result"] != "*"


# --------------------------------------------------------------------------- 2. repetition count

PERPETUAL = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1"              # A8A9+ E9E8 A9A8+ E8E9
SHUFFLE = "4k4/9/9/9/R8/9/9/9/9/3K5 w - - 0 1"                 # D0D1 E9E8 D1D0 E8E9: quiet


def xq_state(fen, **options):
    from games.xiangqi.rules import XiangqiGame
    return XiangqiGame().new_initial_state({"fen": fen, "no_capture_limit": 0, **options}, 0)


def play_moves(state, *moves):
    for move in moves:
        state.apply({state.side: move})
    return state


def test_third_occurrence_count_plays_on_after_the_first_repeat():
    from games.api import Termination
    cycle = ["D0D1", "E9E8", "D1D0", "E8E9"]
    first = play_moves(xq_state(SHUFFLE), *cycle)
    assert first.outcome().reason is Termination.REPETITION          # the contest's ruling
    third = play_moves(xq_state(SHUFFLE, repetition_count=3), *cycle)
    assert third.outcome() is None
    play_moves(third, *cycle[:-1])
    assert third.outcome() is None
    play_moves(third, cycle[-1])
    out = third.outcome()
    assert out.reason is Termination.REPETITION and out.is_draw and "third time" in out.detail
    # Perpetual check still loses, at the third occurrence.
    checks = ["A8A9", "E9E8", "A9A8", "E8E9"]
    state = play_moves(xq_state(PERPETUAL, repetition_count=3), *checks, *checks[:-1])
    assert state.outcome() is None
    play_moves(state, checks[-1])
    assert state.outcome().winners == (1,) and "perpetual" in state.outcome().detail


def test_bad_repetition_count_is_refused():
    from games.api import GameSetupError
    with pytest.raises(GameSetupError):
        PLUGIN.new_game().spec.resolve_options(None, {"repetition_count": "4"})


def test_engine_seats_play_the_third_occurrence_unless_told(tmp_path):
    match = build_referee_match(engine("uci"), "bot:1", tmp_path / "a", options={}, seed=1)
    assert match.options["repetition_count"] == 3
    assert "third occurrence" in match.header()["rules"]
    status = match.game.describe(match.state)
    assert status.startswith("Red to move") and "third occurrence ends the game" in status
    told = build_referee_match(engine("ucci", "--ucci"), "bot:1", tmp_path / "b",
                               options={"repetition_count": "2"}, seed=1)
    assert told.options["repetition_count"] == 2
    plain = build_referee_match("bot:1", "bot:1", tmp_path / "c", options={}, seed=1)
    assert plain.options["repetition_count"] == 2 and "first repeat" in plain.header()["rules"]


def test_match_command_gives_engine_games_the_third_occurrence(tmp_path):
    import main
    code = main.main(["match", "xiangqi", "--seat", engine("uci"), "--seat", "bot:1", "--headless",
                      "--seed", "1", "--option", "no_capture_limit=6", "--out", str(tmp_path)])
    assert code == 0
    record = next(tmp_path.glob("*.arena.jsonl"))
    header = json.loads(record.read_text().splitlines()[0])
    header = header.get("header", header)
    assert header["options"]["repetition_count"] == 3
    assert "third occurrence" in header["rules"]


# --------------------------------------------------------------------------- 3. reproducible bots

def test_bots_with_depth_or_nodes_play_the_same_game_under_any_load(tmp_path):
    """No wall clock decides: the same seed gives the same moves, and every bot move's
    depth, score and nodes are in the record."""
    games = []
    for run in ("a", "b"):
        match = build_referee_match("bot:3 depth=2", "bot:4 nodes=1500", tmp_path / run,
                                    options={"no_capture_limit": "10"}, seed=7)
        match.run()
        games.append(list(match.states[-1].moves))
        record = [json.loads(line) for line in match.record_path.read_text().splitlines()]
        answers = [a for line in record if line.get("type", "turn") == "turn"
                   for a in (line.get("answers") or {}).values()]
        assert answers and all(a["answered"].startswith("depth ") for a in answers)
        assert all(" score " in a["answered"] and " nodes " in a["answered"] for a in answers)
        nodes = [int(a["answered"].split(" nodes ")[1].split()[0]) for a in answers]
        assert max(nodes[1::2]) < 1500 + 64        # the node limit holds (checked every 64)
        seats = json.loads(match.record_path.read_text().splitlines()[0])
        seats = seats.get("header", seats)["seats"]
        assert seats[0]["settings"] == {"depth": "2"} and seats[1]["label"] == "Bot (level 4, nodes=1500)"
    assert games[0] == games[1] and len(games[0]) == 10


@pytest.mark.parametrize("spec, words", [("bot:3 speed=9", "not known"), ("bot:3 depth=x", "whole number"),
                                         ("bot:1 depth=3", "no settings"), ("bot:3 depth", "KEY=VALUE")])
def test_bad_bot_settings_are_refused(spec, words):
    from games.api import GameSetupError
    from runner.seats import make_seat
    with pytest.raises(GameSetupError, match=words):
        make_seat(spec, PLUGIN, 1)


def test_bot_movetime_is_the_time_it_thinks_within_the_clock():
    """``movetime`` is spent whole, like UCI's ``go movetime`` (not stopped at the point
    where the level's own pace would stop), and a short clock still caps it."""
    import time
    from runner.seats import make_seat
    from games.xiangqi.bot import OVERHEAD, SAFETY
    from games.xiangqi.rules import XiangqiGame
    bot = make_seat("bot:5 movetime=250 book=0", PLUGIN, 1).bot
    assert bot.time_cap(None) == bot.time_cap(100.0) == 0.25
    assert bot.time_cap(0.2) == pytest.approx(0.2 * SAFETY - OVERHEAD)
    state = XiangqiGame().new_initial_state({}, seed=1)
    started = time.perf_counter()
    bot.choose(state, 0, 100.0)
    assert 0.24 <= time.perf_counter() - started < 0.6
    assert bot.last_info["depth"] >= 3
    paced = make_seat("bot:5", PLUGIN, 1).bot              # no settings: the level's pace
    assert paced.time_cap(None) is None and paced.thinking_time(100.0) == 4.0   # 1/25 of a long clock


# --------------------------------------------------------------------------- 4. engine clocks

def test_a_timed_match_gives_engines_their_clocks(tmp_path):
    match = build_referee_match(engine("uci"), engine("ucci", "--ucci", "--seed", "2"), tmp_path,
                                seconds=60, options={"no_capture_limit": "4"}, seed=1, poll=0.01)
    match.run()
    red, black = match.turns[0].answers[0]["given"], match.turns[1].answers[1]["given"]
    assert "go wtime 60000 btime 60000 winc 0 binc 0" in red
    go = black.splitlines()[-1].split()
    assert go[:2] == ["go", "time"] and go[3:5] == ["increment", "0"] and go[5] == "opptime"
    assert 59000 <= int(go[2]) <= 60000 and 59000 <= int(go[6]) <= 60000
    # movetime given: a fixed time, as asked; clock=on with a movetime: the clocks.
    fixed = build_referee_match(engine("uci", "movetime=30"), engine("uci", "movetime=30", "clock=on"),
                                tmp_path / "b", seconds=60, options={"no_capture_limit": "2"}, seed=1)
    fixed.run()
    assert "go movetime 30" in fixed.turns[0].answers[0]["given"]
    assert "go wtime" in fixed.turns[1].answers[1]["given"]


def test_untimed_engines_get_a_movetime_like_the_top_bot(tmp_path):
    from games.xiangqi.engine_seats import DEFAULT_MOVETIME_MS
    from games.xiangqi.bot import LEVELS
    assert LEVELS[5][1] / 2 <= DEFAULT_MOVETIME_MS / 1000 <= LEVELS[5][1]
    match = build_referee_match(engine("uci"), "bot:1", tmp_path, options={"no_capture_limit": "2"}, seed=1)
    match.run()
    assert f"go movetime {DEFAULT_MOVETIME_MS}" in match.turns[0].answers[0]["given"]


def test_a_depth_search_that_never_ends_is_stopped_and_said_so(tmp_path):
    """Untimed match, depth=30: the arena waits maxtime seconds, stops, and notes it."""
    from runner.match import Match
    from runner.seats import make_seat
    log = tmp_path / "m" / "seat1" / "engine.log"       # in its own folder: the sandbox allows no other
    seats = [make_seat(engine("uci", "--hang", "--log", "engine.log", "depth=30", "maxtime=0.3"), PLUGIN, 1),
             make_seat("bot:1", PLUGIN, 2)]
    match = Match(PLUGIN, {"no_capture_limit": 2}, seats, seed=1, workdir=tmp_path / "m")
    match.run()
    first = match.turns[0].answers[0]
    assert first.get("failure") is None and first["text"]
    assert any("sent 'stop'" in note and "go depth 30" in note for note in first.get("notes", []))
    assert "stop" in log.read_text().split()


# --------------------------------------------------------------------------- 5. records

def test_report_names_engine_and_bot_seats_and_the_rules(tmp_path):
    import main
    code = main.main(["xiangqi", "referee", "--bottom", engine("uci"), "--top", "bot:2 depth=1",
                      "--option", "no_capture_limit=4", "--seed", "1", "--out", str(tmp_path)])
    assert code == 0
    lines = (tmp_path / "REPORT.TXT").read_text().splitlines()
    assert lines[0] == "Arena referee"
    assert lines[1] == "Fake engine (bottom) vs Bot (level 2, depth=1) (top)"
    assert "third occurrence" in lines[2] and lines[3] == "COMPUTER COMPUTER"
    pgn = (tmp_path / "game.pgn").read_text()
    assert '[Date "' in pgn and "????" not in pgn.split('[Date "')[1][:10]
    assert '[Termination "normal: move-limit"]' in pgn


def test_match_writes_report_json_and_says_why_a_fen_start_has_no_report(tmp_path):
    import main
    assert main.main(["match", "xiangqi", "--seat", "bot:2 depth=1", "--seat", "bot:1", "--headless",
                      "--seed", "3", "--option", "no_capture_limit=4", "--out", str(tmp_path / "a")]) == 0
    result = json.loads((tmp_path / "a" / "REPORT.JSON").read_text())
    assert result["report"] == "REPORT.TXT" and result["half_moves"] >= 4 and result["reason"] == "move-limit"
    lines = (tmp_path / "a" / "REPORT.TXT").read_text().splitlines()
    assert lines[0] == "Arena" and lines[1] == "Bot (level 2, depth=1) (bottom) vs Bot (level 1) (top)"
    fen = "4k4/9/9/9/R8/9/9/9/9/3K5 w - - 0 1"
    for folder, argv in (("b", ["match", "xiangqi", "--seat", "bot:1", "--seat", "bot:1", "--headless"]),
                         ("c", ["xiangqi", "referee", "--bottom", "bot:1", "--top", "bot:1"])):
        assert main.main(argv + ["--seed", "3", "--option", f"fen={fen}", "--option", "no_capture_limit=4",
                                 "--out", str(tmp_path / folder)]) == 0
        assert not (tmp_path / folder / "REPORT.TXT").exists()
        result = json.loads((tmp_path / folder / "REPORT.JSON").read_text())
        assert result["report"] is None and "another position" in result["no_report"]
        assert f'[FEN "{fen}"]' in (tmp_path / folder / "game.pgn").read_text()


# --------------------------------------------------------------------------- 1. relative --out

def test_referee_with_a_relative_out_gives_programs_absolute_move_files(tmp_path, monkeypatch):
    import main
    monkeypatch.chdir(tmp_path)
    code = main.main(["xiangqi", "referee", "--bottom", command(MOVER, "--seed", "1"),
                      "--top", command(MOVER, "--seed", "2"), "--option", "no_capture_limit=6",
                      "--poll", "0.01", "--seed", "1", "--out", "runs/x"])
    assert code == 0
    out = tmp_path / "runs" / "x"
    for seat in ("seat1", "seat2"):
        ini = (out / seat / "PLAY.INI").read_text().splitlines()
        assert Path(ini[4]).is_absolute() and Path(ini[5]).is_absolute()
        assert Path(ini[4]).parent == out / seat
    result = json.loads((out / "REPORT.JSON").read_text())
    assert result["reason"] == "move-limit" and result["half_moves"] == 6
    assert Path(result["record"]).is_absolute()


# --------------------------------------------------------------------------- 7. discoverability

def test_match_help_names_the_engine_kinds_and_every_setting(capsys):
    import main
    from games.xiangqi.bot import BOT_SETTINGS
    from games.xiangqi.engine_seats import SETTING_KEYS
    with pytest.raises(SystemExit):
        main.main(["match", "--help"])
    text = capsys.readouterr().out
    assert "uci:COMMAND" in text and "ucci:COMMAND" in text and "--poll" in text
    for key in (*SETTING_KEYS, *BOT_SETTINGS, "option.NAME"):
        assert f"{key}=" in text, key
    assert "repetition_count=2" in text


def test_a_fairy_stockfish_build_without_xiangqi_is_refused_by_name(tmp_path):
    """The standard Fairy-Stockfish build has no xiangqi: it would play chess moves."""
    from games.api import Termination
    match = build_referee_match(engine("uci", "--fairy", "--no-xiangqi"), "bot:1", tmp_path,
                                options={"no_capture_limit": "4"}, seed=1)
    outcome = match.run()
    assert outcome.winners == (1,) and outcome.reason is Termination.CRASH
    assert "largeboards" in outcome.detail


def test_match_takes_the_poll_setting_of_referee_and_cc(tmp_path, monkeypatch):
    import main
    from runner import match as runner_match
    made = []
    real_init = runner_match.Match.__init__

    def spy(self, plugin, options, seats, **kwargs):
        made.append(seats)
        real_init(self, plugin, options, seats, **kwargs)

    monkeypatch.setattr(runner_match.Match, "__init__", spy)
    assert main.main(["match", "xiangqi", "--seat", "ext:" + command(MOVER, "--seed", "1"),
                      "--seat", "ext:" + command(MOVER, "--seed", "2"), "--poll", "0.01", "--headless",
                      "--seed", "1", "--option", "no_capture_limit=4", "--out", str(tmp_path)]) == 0
    assert [seat.poll for seat in made[0]] == [0.01, 0.01]
    assert json.loads((tmp_path / "REPORT.JSON").read_text())["players"] == "OTHER OTHER"
