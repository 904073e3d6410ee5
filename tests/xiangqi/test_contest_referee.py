"""The Xiangqi referee: two contest programs, each in its own folder, relayed and judged."""
import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from games.api import Termination
from games.xiangqi import PLUGIN
from games.xiangqi.movefiles import parse_move_file, parse_play_ini
from games.xiangqi.referee import (XiangqiMatch, build_referee_match, compare_program_report,
                                   format_report, seat_spec)
from runner.match import Match
from runner.records import open_replay
from runner.seats import HumanSeat, make_seat

PROGRAMS = Path(__file__).resolve().parent / "programs"


def program(name: str, *args: str) -> str:
    return " ".join(shlex.quote(x) for x in (sys.executable, str(PROGRAMS / name), *args))


def referee(tmp_path, bottom, top, seconds=-1, limit=20, seed=1):
    match = build_referee_match(bottom, top, tmp_path, seconds,
                                {"no_capture_limit": str(limit)}, seed=seed, poll=0.01)
    outcome = match.run()
    return match, outcome


def read_final(folder: Path):
    return [parse_move_file((folder / name).read_text(), name) for name in ("M1.DAT", "M2.DAT")]


def test_two_random_movers_play_a_full_refereed_game(tmp_path):
    match, outcome = referee(tmp_path, program("random_mover.py", "--seed", "5"),
                             program("random_mover.py", "--seed", "6"))
    moves = match.states[-1].moves
    assert outcome.reason in (Termination.MOVE_LIMIT, Termination.WIN, Termination.STALEMATE,
                              Termination.REPETITION, Termination.NO_MATERIAL)
    assert len(moves) >= 20 and all(not t.forfeits for t in match.turns)

    # Each program got its own PLAY.INI with its own side and the two move files.
    for index, (words, side) in enumerate(((("COMPUTER", "OTHER"), 0), (("OTHER", "COMPUTER"), 1))):
        folder = tmp_path / f"seat{index + 1}"
        ini = parse_play_ini((folder / "PLAY.INI").read_text())
        assert ini.words == words and ini.seconds == -1
        assert Path(ini.bottom_file) == folder / "M1.DAT" and Path(ini.top_file) == folder / "M2.DAT"
        # The program kept its own REPORT.TXT, as contest programs must.
        assert (folder / "REPORT.TXT").read_text().splitlines()[3] == " ".join(words)

    # Every relayed file was a move file: the other side's move, upper case, clocks -1.
    assert match.turns[0].answers[0]["given"].startswith("PLAY.INI:\nCOMPUTER\r\nOTHER")
    assert match.turns[1].answers[1]["given"].startswith("PLAY.INI:\nOTHER\r\nCOMPUTER")
    for number, turn in enumerate(match.turns[1:], start=1):
        header, _, text = turn.answers[number % 2]["given"].rpartition(":\n")
        assert header.endswith("M1.DAT" if number % 2 else "M2.DAT")
        given = parse_move_file(text)
        assert given.word == moves[number - 1] and (given.bottom_seconds, given.top_seconds) == (-1, -1)

    # The final status words speak for each file's writer, in both folders.
    expected = {(): ("DRAW", "DRAW"), (0,): ("WIN", "LOST"), (1,): ("LOST", "WIN")}[outcome.winners]
    for folder in ("seat1", "seat2"):
        assert tuple(f.word for f in read_final(tmp_path / folder)) == expected

    # REPORT.TXT: three author lines, the players, then numbered move pairs.
    lines = (tmp_path / "REPORT.TXT").read_text().splitlines()
    assert lines[3] == "OTHER OTHER"
    pairs = [line.split() for line in lines[4:]]
    assert all(re.fullmatch(r"\d+( [A-I]\d[A-I]\d){1,2}", line) for line in lines[4:])
    assert [m for pair in pairs for m in pair[1:]] == moves
    assert [int(p[0]) for p in pairs] == list(range(1, len(pairs) + 1))

    result = json.loads((tmp_path / "REPORT.JSON").read_text())
    assert result["reason"] == outcome.reason.value and result["half_moves"] == len(moves)
    assert result["result"] == {(): "1/2-1/2", (0,): "1-0", (1,): "0-1"}[outcome.winners]
    assert set(result["program_reports"]) == {"bottom", "top"}
    assert all(v.startswith("agrees") for v in result["program_reports"].values()), result["program_reports"]

    replay = open_replay(match.record_path)
    assert replay.states[-1].moves == moves and replay.outcome == outcome
    report = open_replay(tmp_path / "REPORT.TXT")
    assert report.states[-1].moves == moves


def test_illegal_move_loses_and_both_sides_are_told(tmp_path):
    match, outcome = referee(tmp_path, program("random_mover.py", "--seed", "1"),
                             program("illegal_mover.py", "--after", "1"))
    assert outcome.winners == (0,) and outcome.reason is Termination.ILLEGAL_MOVE
    last = match.turns[-1]
    assert last.forfeits[1]["reason"] == "illegal-move"
    assert last.answers[1]["text"] == "E9E7" and "misbehaved" in last.answers[1]["stderr"]
    for folder in ("seat1", "seat2"):
        assert [f.word for f in read_final(tmp_path / folder)] == ["WIN", "LOST"]
    record = [json.loads(line) for line in match.record_path.read_text().splitlines()]
    assert record[-1]["reason"] == "illegal-move" and "E9E7" in record[-1]["detail"]
    assert json.loads((tmp_path / "REPORT.JSON").read_text())["reason"] == "illegal-move"
    assert open_replay(match.record_path).outcome.reason is Termination.ILLEGAL_MOVE


@pytest.mark.parametrize("mode, reason", [
    ("garbage", Termination.BAD_FILE),
    ("crash", Termination.CRASH),
    ("lost", Termination.RESIGNATION),
    ("win", Termination.ADJUDICATION),
])
def test_misbehaving_programs_lose(tmp_path, mode, reason):
    match, outcome = referee(tmp_path, program("random_mover.py", "--misbehave", mode),
                             program("random_mover.py"))
    assert outcome.winners == (1,) and outcome.reason is reason
    assert [f.word for f in read_final(tmp_path / "seat2")] == ["LOST", "WIN"]


def test_flag_fall_with_opponent_under_five_minutes_is_a_draw(tmp_path):
    match, outcome = referee(tmp_path, program("random_mover.py", "--misbehave", "hang"),
                             program("random_mover.py"), seconds=1)
    assert outcome.winners == () and outcome.reason is Termination.TIMEOUT
    assert "5 minutes or less" in outcome.detail
    assert [f.word for f in read_final(tmp_path / "seat1")] == ["DRAW", "DRAW"]
    result = json.loads((tmp_path / "REPORT.JSON").read_text())
    assert result["clocks"]["bottom"] == 0 and result["clocks"]["top"] == 1
    assert (tmp_path / "seat1" / "PLAY.INI").read_text().splitlines()[3] == "1"
    replay = open_replay(match.record_path)       # the record ends the way the referee ruled
    assert replay.turns[-1].ruling["winners"] == [] and not replay.turns[-1].forfeits
    assert replay.states[-1].outcome() == outcome


def clock_match(seconds):
    return XiangqiMatch(PLUGIN, {}, [HumanSeat(), HumanSeat()], seconds=seconds)


def test_clock_rulings():
    match = clock_match(600)
    assert match.time_control.per_move == 900 and match.time_control.total == 600
    match.time_used = {0: 599.0, 1: 250.0}          # Black still has 350 s > 5 minutes
    assert match._clock_verdict(0, 2.0).winners == (1,)
    match.time_used = {0: 599.0, 1: 400.0}          # Black has 200 s: a draw
    assert match._clock_verdict(0, 2.0).winners == ()
    assert match._clock_verdict(0, 0.5) is None     # still in time
    untimed = clock_match(-1)
    assert untimed.time_control.total is None
    assert untimed._clock_verdict(1, 901).winners == (0,)   # a move over 15 minutes
    assert untimed._clock_verdict(1, 900) is None


def test_plain_match_command_runs_contest_programs_too(tmp_path):
    seats = [make_seat(f"ext:{program('random_mover.py', '--seed', str(i))}", PLUGIN, i,
                       limits={"poll": 0.01}) for i in (1, 2)]
    options = PLUGIN.new_game().spec.resolve_options(None, {"no_capture_limit": "6"})
    match = Match(PLUGIN, options, seats, seed=1, record_path=tmp_path / "game.arena.jsonl")
    outcome = match.run()
    assert outcome.reason is Termination.MOVE_LIMIT and len(match.turns) == 6
    assert [f.word for f in read_final(tmp_path / "game" / "seat2")] == ["DRAW", "DRAW"]


def test_seat_specs_and_report_format():
    assert seat_spec("./cc.exe -q") == "ext:./cc.exe -q"
    assert seat_spec("C:\\CC\\CC.EXE") == "ext:C:\\CC\\CC.EXE"
    assert seat_spec("bot:3") == "bot:3" and seat_spec("human") == "human"
    assert seat_spec("uci:pikafish depth=5") == "uci:pikafish depth=5"
    text = format_report(["Chuong trinh Trang Co", "Pham Minh Tri", "x" * 300], ["OTHER", "COMPUTER"],
                         ["H2E2", "H9H7", "H0G2", "B9C7", "I0H0"])
    lines = text.split("\r\n")
    assert lines[3:8] == ["OTHER COMPUTER", "1 H2E2 H9H7", "2 H0G2 B9C7", "3 I0H0", ""]
    assert len(lines[2]) == 255
    assert format_report(["Nguyễn Văn Đức", "", "Hà Nội"], ["HUMAN", "COMPUTER"], []).split("\r\n")[:4] \
        == ["Nguyen Van Duc", "", "Ha Noi", "HUMAN COMPUTER"]


def test_program_report_comparison(tmp_path):
    path = tmp_path / "REPORT.TXT"
    assert compare_program_report(path, ["H2E2"]) == "missing"
    path.write_text("a\nb\nc\nCOMPUTER OTHER\n1 H2E2 H9H7\n2 h0g2\n")
    assert compare_program_report(path, ["H2E2", "H9H7", "H0G2"]) == "agrees"
    assert compare_program_report(path, ["H2E2", "H9H7"]).startswith("agrees (plus")
    assert compare_program_report(path, ["H2E2", "H9H7", "H0G2", "B9C7"]).startswith("agrees (without")
    assert compare_program_report(path, ["H2E2", "H9H7", "H0G2", "B9C7", "I0H0"]) == \
        "has 3 half-moves; the game had 5"
    assert compare_program_report(path, ["H2E2", "B9C7", "H0G2"]) == \
        "differs at half-move 2: H9H7 instead of B9C7"


def test_referee_command_through_main(tmp_path, capsys):
    import main
    code = main.main(["xiangqi", "referee", "--bottom", program("random_mover.py", "--seed", "3"),
                      "--top", program("random_mover.py", "--seed", "4"), "--out", str(tmp_path),
                      "--option", "no_capture_limit=4", "--poll", "0.01"])
    assert code == 0
    out = capsys.readouterr().out
    assert "REPORT.TXT" in out and "half-moves" in out
    assert (tmp_path / "REPORT.TXT").is_file() and (tmp_path / "seat2" / "PLAY.INI").is_file()


def test_a_relative_out_still_gives_contest_programs_absolute_move_files(tmp_path, monkeypatch):
    """PLAY.INI lines 5-6 name the move files in full: the program runs in its own folder."""
    monkeypatch.chdir(tmp_path)
    seats = [make_seat(f"ext:{program('random_mover.py', '--seed', str(i))}", PLUGIN, i,
                       limits={"poll": 0.01}) for i in (1, 2)]
    options = PLUGIN.new_game().spec.resolve_options(None, {"no_capture_limit": "4"})
    match = Match(PLUGIN, options, seats, seed=1, record_path=Path("runs/x/game.arena.jsonl"))
    outcome = match.run()
    assert outcome.reason is Termination.MOVE_LIMIT, outcome
    ini = (tmp_path / "runs" / "x" / "game" / "seat1" / "PLAY.INI").read_text().splitlines()
    assert Path(ini[4]).is_absolute() and Path(ini[5]).is_absolute()
