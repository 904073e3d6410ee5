"""GTP seats with a small Benzene-convention engine (tests/hex/gtp_engine.py)."""
import os
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

from bench import gtp_match as bench
from games.api import GameSetupError, MoveSyntaxError, Termination
from games.hex.gtp import (GTP_MEMORY_MB, clock_commands, engine_moves, identity_text,
                           mohex_memory_commands, parse_genmove, parse_response, search_stats,
                           setup_commands, split_seat_spec)
from games.hex.notation import from_hexgui, to_hexgui
from games.hex.rules import HexGame, HexMove
from games.registry import plugin
from runner.match import Match, TimeControl, time_control_from_options
from runner.records import open_replay
from runner.seats import make_seat

from seat_commands import GTP_ENGINE as ENGINE
from seat_commands import gtp_engine as engine

HEX = plugin("hex")


def play(specs, size=7, seed=1, per_move=None, options=None, tmp_path=None, clock=False,
         error=False):
    """A match; ``clock`` takes the time control from the options (the arena's way)."""
    seats = [make_seat(spec, HEX, seed) for spec in specs]
    options = {"size": size, **(options or {})}
    control = (time_control_from_options(HEX.new_game().spec.resolve_options(None, options))
               if clock else TimeControl(per_move=per_move, total=None))
    match = Match(HEX, options, seats, seed=seed, time_control=control, workdir=tmp_path)
    outcome = match.run()
    assert (match.error != "") if error else (match.error == ""), match.error
    return match, outcome


def answers_of(match, side):
    return [t.answers[side] for t in match.turns if side in t.answers]


def showboard_cells(text: str) -> dict:
    """The fake engine's showboard -> {our move: 1 or 2} (black = player 1)."""
    cells = {}
    for line in text.splitlines()[1:]:
        words = line.split()
        if not words or not words[0].isdigit():
            continue
        y = int(words[0])
        for x, mark in enumerate(words[1:], start=1):
            if mark in "BW":
                cells[from_hexgui(f"{'abcdefghijklmnopqrst'[x - 1]}{y}")] = 1 if mark == "B" else 2
    return cells


def board_cells(state) -> dict:
    return {state.move_at(i): v for i, v in enumerate(state.cells) if v}


def engine_verdict(size: int, moves: list[HexMove]) -> str:
    """Replay our moves into a fresh engine by hand and ask it who won (B+ / W+)."""
    script = [f"boardsize {size}"]
    for i, move in enumerate(moves):
        script.append(f"play {'bw'[i % 2]} {to_hexgui(move)}")
    script += ["final_score", "quit"]
    out = subprocess.run([sys.executable, str(ENGINE)], input="\n".join(script) + "\n",
                         capture_output=True, text=True, timeout=30).stdout
    responses = [r for r in out.split("\n\n") if r.strip()]
    assert all(r.startswith("=") for r in responses), out
    return responses[-2].lstrip("= ").strip()


# ====================================================================== pure functions
def test_hexgui_names_are_transposed():
    assert to_hexgui(HexMove(1, 1)) == "a1"
    assert to_hexgui(HexMove(3, 5)) == "c5"          # our row 3 -> HexGui column c
    assert HexMove(3, 5).text() == "e3"              # our own text: column letter, row number
    assert from_hexgui("C5") == HexMove(3, 5)
    assert from_hexgui("swap-pieces") == HexMove.SWAP
    for row in range(1, 21):
        for col in range(1, 21):
            assert from_hexgui(to_hexgui(HexMove(row, col))) == HexMove(row, col)
    with pytest.raises(MoveSyntaxError):
        from_hexgui("z99x")


def test_gtp_response_parsing():
    assert parse_response(["= c5"]) == (True, "c5")
    assert parse_response(["=12 d4"]) == (True, "d4")
    assert parse_response(["? unknown command"]) == (False, "unknown command")
    assert parse_response(["= ", "  a b", " 1 ."]) == (True, "a b\n 1 .")
    assert parse_genmove("resign") is None
    assert parse_genmove("b2") == HexMove(2, 2)


def test_setup_plays_the_start_position():
    state = HexGame().new_initial_state({"size": 3, "position": "1../..2/..."}, seed=0)
    assert setup_commands(state) == ["clear_board", "play b a1", "play w b3"]


# ====================================================================== matches
@pytest.mark.parametrize("side", [0, 1])
def test_engine_seat_plays_a_full_match(side, tmp_path):
    specs = [engine("--seed", "3"), "bot:1"] if side == 0 else ["bot:1", engine("--seed", "3")]
    match, outcome = play(specs, size=7, tmp_path=tmp_path)
    assert outcome.reason is Termination.WIN
    assert outcome.winners == (side,)               # greedy beats random
    verdict = engine_verdict(7, match.states[-1].history)
    assert verdict == ("B+" if outcome.winners == (0,) else "W+")
    answers = [t.answers[side] for t in match.turns if side in t.answers]
    assert "boardsize 7" in answers[0]["given"] and f"genmove {'bw'[side]}" in answers[0]["given"]
    assert answers[1]["given"].endswith(f"genmove {'bw'[side]}")
    assert "B" in answers[-1]["stdout"] or "W" in answers[-1]["stdout"]   # showboard


def test_engine_against_engine_and_the_engines_own_verdict(tmp_path):
    for seed in range(4):
        match, outcome = play([engine("--random", "--seed", str(seed)),
                               engine("--random", "--seed", str(seed + 10))], size=5, seed=seed,
                              tmp_path=tmp_path)
        assert outcome.reason is Termination.WIN
        expected = "B+" if outcome.winners == (0,) else "W+"
        assert engine_verdict(5, match.states[-1].history) == expected


def test_random_games_agree_with_the_engines_rules():
    """Our winner and the Benzene-convention engine's agree on random games (the mapping)."""
    import random
    rng = random.Random(5)
    for size in (3, 4, 6):
        for _ in range(5):
            state = HexGame().new_initial_state({"size": size}, seed=0)
            while not state.is_terminal():
                state.push(rng.choice(state.legal_moves(state.current)))
            expected = "B+" if state.outcome().winners == (0,) else "W+"
            assert engine_verdict(size, state.history) == expected


def test_start_position_is_sent_to_the_engine(tmp_path):
    match, outcome = play([engine(), "bot:1"], size=5,
                          options={"position": "1..../....2/...../...../....."}, tmp_path=tmp_path)
    assert outcome.reason is Termination.WIN
    given = match.turns[0].answers[0]["given"]
    assert "play b a1" in given and "play w b5" in given


def test_two_number_boardsize_fallback(tmp_path):
    match, outcome = play([engine("--one-number-boardsize-error"), "bot:1"], size=5, tmp_path=tmp_path)
    assert outcome.reason is Termination.WIN
    assert "boardsize 5 5" in match.turns[0].answers[0]["given"]


def test_engine_crash_and_hang(tmp_path):
    _, outcome = play([engine("--crash-after", "1"), "bot:1"], tmp_path=tmp_path)
    assert outcome.reason is Termination.CRASH and outcome.winners == (1,)
    match, outcome = play(["bot:1", engine("--hang-after", "1")], per_move=0.5, tmp_path=tmp_path)
    assert outcome.reason is Termination.TIMEOUT and outcome.winners == (0,)
    assert match.seats[1].process.proc.poll() is not None


# ====================================================================== refusals
def test_missing_engine_refuses_the_match(tmp_path):
    match, outcome = play(["gtp:/no/such/engine", "bot:1"], tmp_path=tmp_path, error=True)
    assert "could not start '/no/such/engine'" in match.error and "seat 1" in match.error
    assert match.turns == [] and outcome.reason is Termination.ABORTED


def test_engine_refusing_the_size_refuses_the_match_in_its_own_words(tmp_path):
    match, outcome = play(["bot:1", engine("--max-size", "5")], size=7, tmp_path=tmp_path, error=True)
    assert "seat 2" in match.error and "must be less or equal 5" in match.error
    assert match.turns == [] and outcome.reason is Termination.ABORTED


@pytest.mark.parametrize("spec", [engine("--max-size", "5"), "gtp:/no/such/engine"])
def test_arena_match_exits_non_zero_on_a_refused_set_up(spec, tmp_path, capsys):
    import main
    code = main.main(["match", "hex", "--option", "size=7", "--seat", spec, "--seat", "bot:1",
                      "--headless", "--out", str(tmp_path)])
    assert code == 2
    err = capsys.readouterr().err
    assert "must be less or equal 5" in err or "could not start" in err or "cannot start" in err


def test_a_refused_setting_refuses_the_match(tmp_path):
    match, _ = play([engine() + ' cmd="frobnicate 3"', "bot:1"], size=5, tmp_path=tmp_path, error=True)
    assert "frobnicate 3" in match.error and "unknown command" in match.error


# ====================================================================== replies
def test_blank_looking_reply_lines_stay_in_the_reply(tmp_path):
    match, _ = play([engine("--seed", "3"), "bot:1"], size=5, tmp_path=tmp_path)
    boards = [a.get("stdout", "") for a in answers_of(match, 0)]
    assert boards and all(len(b.splitlines()) >= 6 for b in boards), boards   # header + 5 rows
    assert parse_response(["= ", " ", "  a b"]) == (True, "a b")


# ====================================================================== settings, clock
def test_seat_spec_settings_are_split_from_the_command(tmp_path):
    config = tmp_path / "mohex.htp"
    config.write_text("# MoHex settings\nparam_mohex max_games 1000\n\nparam_game allow_swap 1  # on\n")
    argv, settings = split_seat_spec(f'./mohex --seed=3 time_per_move=1.5 cmd="param_mohex num_threads 1" '
                                     f'config={config}')
    assert argv == ["./mohex", "--seed=3"] and settings.time_per_move == 1.5
    assert settings.commands == ["param_mohex num_threads 1", "param_mohex max_games 1000",
                                 "param_game allow_swap 1"]
    for bad in ("./mohex time_per_move=soon", "./mohex config=/no/such/file", "cmd=x"):
        with pytest.raises(GameSetupError):
            split_seat_spec(bad)
    assert clock_commands(20.0, None) == ["time_settings 20 0 0"]
    assert clock_commands(None, 1.5) == ["time_settings 0 1.5 1"]
    assert clock_commands(None, None) == []


def test_settings_are_sent_after_the_arenas_own(tmp_path):
    config = tmp_path / "engine.cfg"
    config.write_text("param_mohex max_games 1000\n")
    match, outcome = play([engine("--mohex") + f' cmd="param_mohex max_games 50" config={config}', "bot:1"],
                          size=5, tmp_path=tmp_path)
    given = answers_of(match, 0)[0]["given"].splitlines()
    assert given.index("param_game allow_swap 0") < given.index("param_mohex max_games 50") \
        < given.index("param_mohex max_games 1000")
    assert outcome.reason is Termination.WIN


def test_the_clock_is_sent_so_a_mohex_like_engine_keeps_to_it(tmp_path):
    """MoHex thinks max_time (10 s) a move unless told the clock: the arena turns its
    time management on and sends time_left before each genmove."""
    specs = [engine("--mohex", "--max-time", "5", "--seed", "2"), engine("--mohex", "--max-time", "5")]
    match, outcome = play(specs, size=5, options={"time_total": 2.0}, clock=True, tmp_path=tmp_path)
    assert outcome.reason is Termination.WIN, outcome.detail
    first = answers_of(match, 0)[0]["given"]
    assert "param_mohex use_time_management 1" in first
    assert "time_left b 2 0" in first and "time_left b 2\n" in first      # GTP's form, then Benzene's
    later = answers_of(match, 1)[1]["given"]
    assert "time_left w " in later and "genmove w" in later
    # Without the clock (time management turned back off by the seat's setting) it loses on time.
    match, outcome = play([engine("--mohex", "--max-time", "5") + ' cmd="param_mohex use_time_management 0"',
                           "bot:1"], size=5, options={"time_total": 1.0}, clock=True, tmp_path=tmp_path)
    assert outcome.reason is Termination.TIMEOUT and outcome.winners == (1,)


def test_per_move_limits(tmp_path):
    assert HEX.new_game().spec.resolve_options(None, {"time_per_move": "1.5"})["time_per_move"] == 1.5
    # the game's per-move limit (the referee's), told to the engine as its time left
    match, outcome = play([engine("--mohex", "--max-time", "5"), "bot:1"], size=5,
                          options={"time_total": 0, "time_per_move": 1.0}, clock=True, tmp_path=tmp_path)
    assert outcome.reason is Termination.WIN, outcome.detail
    assert "time_left b 1 1" in answers_of(match, 0)[0]["given"]
    # the seat's own per-move thinking time: MoHex's max_time
    match, outcome = play([engine("--mohex", "--max-time", "5") + " time_per_move=0.05", "bot:1"], size=5,
                          options={"time_total": 3.0}, clock=True, tmp_path=tmp_path)
    assert outcome.reason is Termination.WIN, outcome.detail
    assert "param_mohex max_time 0.05" in answers_of(match, 0)[0]["given"]


# ====================================================================== swap
@pytest.mark.parametrize("seed", [5, 6])
def test_swap_keeps_the_engines_board_equal_to_ours(seed, tmp_path):
    """Player 2's engine plays swap-pieces the Benzene way (board kept); the arena then
    sets both engines' boards up again (HexGui's way), so all boards agree to the end."""
    specs = [engine("--seed", "4"), engine("--swap", "--seed", str(seed))]
    match, outcome = play(specs, size=5, options={"swap": True}, tmp_path=tmp_path)
    assert outcome.reason is Termination.WIN, outcome.detail
    assert match.turns[1].moves == {1: "swap"}
    assert "param_game allow_swap 1" in answers_of(match, 0)[0]["given"]
    first = HexGame().parse_move(match.turns[0].moves[0])
    mirrored = HexMove(first.col, first.row)
    for side in (0, 1):      # the opponent's swap, and the engine's own
        after_swap = answers_of(match, side)[1]["given"].splitlines()
        assert after_swap[:2] == ["clear_board", f"play w {to_hexgui(mirrored)}"], after_swap
    for side in (0, 1):
        for turn in match.turns:
            if side in turn.answers and turn.answers[side].get("stdout") and turn.moves[side] != "swap":
                shown = showboard_cells(turn.answers[side]["stdout"])
                assert shown == board_cells(match.states[turn.number]), turn.number


def test_engine_moves_restart_after_a_swap():
    start = HexGame().new_initial_state({"size": 3, "swap": True}, seed=0)
    assert engine_moves(start, [HexMove(1, 2), HexMove.SWAP, HexMove(3, 3)]) == \
        ["play w b1", "play b c3"]
    assert engine_moves(start, [HexMove(1, 2)]) == ["play b a2"]


# ====================================================================== records, undo
def test_each_turn_keeps_its_own_stderr(tmp_path):
    """Each turn keeps exactly what the engine printed on stderr before its answer: no
    turn repeats an earlier one's lines, and none comes a turn late (stderr is read on
    its own thread, which the seat waits for)."""
    match, _ = play([engine("--seed", "3"), "bot:1"], size=7, tmp_path=tmp_path)
    answers = answers_of(match, 0)
    printed = [line for a in answers for line in a.get("stderr", "").splitlines()]
    expected = [f"genmove {n} b: thinking 0.00 s" for n in range(1, len(answers) + 1)]
    assert printed == expected
    assert all(a.get("stderr") for a in answers)


@pytest.mark.parametrize("undo", [True, False])
def test_a_person_takes_back_moves_against_an_engine(undo, tmp_path):
    spec = engine("--seed", "1") + ("" if undo else " --no-undo")
    seats = [make_seat("human", HEX, 1), make_seat(spec, HEX, 1)]
    match = Match(HEX, {"size": 5, "time_total": 0}, seats, seed=1, workdir=tmp_path)
    match.start()

    def wait(condition):
        deadline = time.monotonic() + 20
        while not condition():
            assert time.monotonic() < deadline and not match.error, match.error
            time.sleep(0.02)

    try:
        wait(lambda: match.human_waiting() == (0,))
        assert match.can_undo()
        match.submit(0, "c3")
        wait(lambda: len(match.turns) == 2 and match.human_waiting() == (0,))
        match.submit(0, "a1")
        wait(lambda: len(match.turns) == 4 and match.human_waiting() == (0,))
        assert match.undo()
        wait(lambda: len(match.turns) == 2 and match.human_waiting() == (0,))
        engine_seat = match.seats[1]
        assert engine_seat._board == engine_moves(match.states[0], match.states[-1].history)
        sent = engine_seat._given
        assert (sent == ["undo", "undo"]) if undo else (sent[0] == "clear_board" and "undo" not in sent)
        match.submit(0, "e5")
        wait(lambda: len(match.turns) == 4)
        assert match.turns[3].answers[1].get("failure") is None
    finally:
        match.stop()
        match.join(10)


# ====================================================================== bench/gtp_match.py
def test_gtp_match_bench_alternates_colours_and_gives_an_interval(tmp_path, capsys):
    # The interval's arithmetic is tested in tests/benches/test_bench_stats.py.
    assert bench.main(["--a", "bot:1", "--b", engine("--seed", "2"), "--games", "2", "--size", "5",
                       "--time-total", "5", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "A as player 1" in out and "A as player 2" in out
    assert "player 1 (first, cols)      1" in out and "95% interval" in out
    assert (tmp_path / "game-001" / "hex.sgf").is_file() and (tmp_path / "game-002" / "HEX.OUT").is_file()
    assert ", opened " in out


def test_gtp_match_bench_can_fix_a_colour(capsys):
    """``--a-plays 2`` gives A player 2 in every game; the opening is named per game."""
    assert bench.main(["--a", "bot:1", "--b", engine("--seed", "2"), "--games", "2", "--size", "5",
                       "--time-total", "5", "--a-plays", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("A as player 2") == 2 and "A as player 1" not in out
    assert "player 2 (rows)             2" in out


def test_gtp_match_bench_plays_each_opening_with_both_colours(tmp_path, capsys):
    """``--openings``: games 1-2 start from the first opening, 3-4 from the second, A
    taking player 1 in one game of each pair; the GTP engine is given the stone."""
    args = SimpleNamespace(openings=["a2", "c3"], size=3)
    assert bench.opening_position(0, args) == ".1./.../..."       # a2: row 1, column 2 (transposed)
    assert bench.opening_position(1, args) == bench.opening_position(0, args)
    assert bench.opening_position(2, args) == ".../.../..1"
    assert bench.main(["--a", "bot:1", "--b", engine("--seed", "3"), "--games", "4", "--size", "5",
                       "--time-total", "5", "--openings", "a2,e4", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.count("opened set a2") == 2 and out.count("opened set e4") == 2
    assert out.count("A as player 1") == 2
    for game, cell in (("game-001", "a2"), ("game-004", "e4")):
        sgf = (tmp_path / game / "hex.sgf").read_text()
        assert f"AB[{cell}]" in sgf or f"B[{cell}]" in sgf
    with pytest.raises(SystemExit):
        bench.main(["--a", "bot:1", "--b", "bot:1", "--size", "5", "--openings", "f1"])
    with pytest.raises(SystemExit):
        bench.main(["--a", "bot:1", "--b", "bot:1", "--openings", "a2", "--a-plays", "1"])


# ====================================================================== identity and search
def test_search_stats_read_mohex_blocks():
    stderr = ("info: Best move cannot be determined, must search state.\n"
              "Count          900\nGamesPlayed    900\nNodes          3686\nScore          0.61\n"
              "Sequence       e5 e4 swap-pieces f3 zz9 g3\n"
              "Elapsed Time   1.3s\nGamesPlayed    353\nNodes          3402\nScore          0.33\n"
              "Sequence       c1 a2\n")
    # The last block wins; the PV is written in our own move texts (transposed).
    assert search_stats(stderr) == {"playouts": 353, "nodes": 3402, "winrate": 0.33, "pv": ["a3", "b1"]}
    first = search_stats(stderr.split("Elapsed")[0])
    assert first["pv"] == [from_hexgui("e5").text(), from_hexgui("e4").text(), "swap",
                           from_hexgui("f3").text()]           # stops at the first non-cell
    assert search_stats("Score 7\nGamesPlayed many\nSequence\n") == {}
    assert search_stats("") == {}


def test_identity_text_is_one_short_printable_line():
    assert identity_text("  MoHex \n more") == "MoHex"
    assert identity_text("A\x1b[31mB\x07") == "A[31mB"
    assert len(identity_text("x" * 500)) == 60
    assert identity_text("") == ""


def test_engine_name_version_and_search_reach_the_record(tmp_path):
    """The seat is labelled by GTP ``name``/``version``, the record keeps them (a seats
    line), and each engine move keeps the statistics it printed."""
    spec = engine("--name", "FakeHex", "--version", "3.1", "--stats")
    seats = [make_seat(spec, HEX, 1), make_seat("bot:1", HEX, 1)]
    match = Match(HEX, {"size": 7}, seats, seed=1, record_path=tmp_path / "game.arena.jsonl",
                  time_control=TimeControl(per_move=None, total=None))
    match.run()
    assert match.error == "", match.error
    seat = match.seats[0]
    assert seat.label == "FakeHex 3.1"
    assert seat.describe()["engine"] == "FakeHex" and seat.describe()["version"] == "3.1"
    answers = answers_of(match, 0)
    with_search = [a for a in answers if a.get("search")]
    assert len(with_search) == len(answers), answers
    first = answers[0]["search"]
    assert first["playouts"] == 100 and first["nodes"] == 300 and first["winrate"] == 0.26
    assert first["pv"][0] == match.turns[0].moves[0]         # its own move heads the line
    replay = open_replay(match.record_path)
    assert replay.header["seats"][0]["label"] == "FakeHex 3.1"
    assert replay.seat_names[0] == "FakeHex 3.1"
    assert replay.turns[0].answers[0]["search"] == first


def test_an_engine_without_name_keeps_its_command_label(tmp_path):
    match, _ = play([engine("--no-name"), "bot:1"], size=5, tmp_path=tmp_path / "m")
    seat = match.seats[0]
    assert seat.label.startswith("GTP ") and "engine" not in seat.describe()
    assert all(not a.get("search") for a in answers_of(match, 0))   # no statistics printed


def test_mohex_gets_trees_that_fit_its_memory_cap(tmp_path):
    """Sized from the machine, MoHex's trees overflow the sandbox and it dies of
    std::bad_alloc: a MoHex-like engine is told a max_memory under the seat's cap."""
    assert mohex_memory_commands(None) == []
    assert mohex_memory_commands(1000) == [f"param_mohex max_memory {400 << 20}"]
    match, _ = play([engine("--mohex"), "bot:1"], size=5, tmp_path=tmp_path / "a")
    given = answers_of(match, 0)[0]["given"]
    assert f"param_mohex max_memory {int(GTP_MEMORY_MB * 0.4) << 20}" in given
    assert match.seats[0].sandbox.limits.memory_mb == GTP_MEMORY_MB
    capped = make_seat(engine("--mohex"), HEX, 1, limits={"memory_mb": 500})
    assert capped.sandbox.limits.memory_mb == 500


def test_a_live_follower_takes_the_engines_names_from_the_seats_line(tmp_path):
    """A projector following a record shows the engine's own name once the record's
    "seats" line tells it, not the command from the header."""
    from runner.live import LiveMatch, TailReader
    seats = [make_seat(engine("--name", "FakeHex", "--version", "2"), HEX, 1), make_seat("bot:1", HEX, 1)]
    path = tmp_path / "game.arena.jsonl"
    match = Match(HEX, {"size": 5}, seats, seed=1, record_path=path,
                  time_control=TimeControl(per_move=None, total=None))
    match.run()
    follower = LiveMatch("m", path, TailReader(path))
    follower.poll(0.0)
    assert follower.error == "" and follower.names[0] == "FakeHex 2", (follower.error, follower.names)
