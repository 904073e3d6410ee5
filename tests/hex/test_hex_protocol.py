"""The HexLib line protocol: pure functions, then whole headless matches with real programs.

Programs: the shipped examples (C via gcc, Python), HexLib programs that print to
standard output, and a raw-protocol program that misbehaves on purpose
(tests/hex/programs/misbehave.py).  Every match must complete and the record must
say what happened.
"""
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games.api import Outcome, Termination
from games.hex.protocol import (Command, format_end, format_start, parse_command, put_error,
                                status_code, view_cell, view_rows, view_stone)
from games.hex.rules import HexGame, HexMove
from games.registry import plugin
from runner.match import Match, TimeControl
from runner.records import open_replay
from runner.seats import make_seat

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = Path(__file__).resolve().parent / "programs"
EXAMPLES = ROOT / "games" / "hex" / "examples"
LIB = ROOT / "games" / "hex" / "lib"
HEX = plugin("hex")


def python_command(script: Path, *args: str) -> str:
    return " ".join(shlex.quote(str(x)) for x in (sys.executable, script, *args))


def play(seat_specs, tmp_path, size=7, seed=1, per_move=None, total=20.0, options=None):
    seats = [make_seat(spec, HEX, seed) for spec in seat_specs]
    record = tmp_path / f"match-{seed}.arena.jsonl"
    match = Match(HEX, {"size": size, **(options or {})}, seats, seed=seed, record_path=record,
                  time_control=TimeControl(per_move=per_move, total=total), workdir=tmp_path / "work")
    outcome = match.run()
    assert match.error == ""
    return match, outcome, record


@pytest.fixture(scope="module")
def c_example(tmp_path_factory):
    """The C example built with gcc (the test is skipped when gcc is missing)."""
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is not installed")
    out = tmp_path_factory.mktemp("build") / "testhex"
    subprocess.run([gcc, "-O2", "-Wall", "-o", str(out), str(EXAMPLES / "testhex.c"),
                    str(LIB / "hexlib.c"), "-I", str(LIB)], check=True)
    return str(out)


# ====================================================================== pure functions
def test_view_is_a_transposition_for_player_two():
    assert view_cell(2, 5, 1) == (2, 5)
    assert view_cell(2, 5, 2) == (5, 2)
    assert view_cell(*view_cell(3, 7, 2), 2) == (3, 7)
    assert [view_stone(v, 2) for v in (0, 1, 2)] == [0, 2, 1]
    state = HexGame().new_initial_state({"size": 3, "position": "1../..2/..."}, seed=0)
    assert view_rows(state, 1) == ["1..", "..2", "..."]
    # Player 2's view: transposed and recoloured: its own stone (real (2,3)) shows as 1 at (3,2).
    assert view_rows(state, 2) == ["2..", "...", ".1."]


def test_start_lines():
    state = HexGame().new_initial_state({"size": 2}, seed=0)
    assert format_start(state, 2) == ["hexlib 1", "start 2 2", "..", ".."]
    assert format_end(3, Termination.TIMEOUT) == "end 3 timeout"


def test_parse_command():
    assert parse_command("put 3 4") == Command("put", 3, 4, "put 3 4")
    assert parse_command("  PUT   -1 22 \r\n").kind == "put"
    assert parse_command("done").kind == "done"
    assert parse_command("swap").kind == "swap"
    assert parse_command("").kind == "blank"
    for junk in ("put 3", "put a b", "put 1 2 3", "hello", "put 99999999999 1"):
        assert parse_command(junk).kind == "junk"


def test_put_error_reasons():
    state = HexGame().new_initial_state({"size": 3}, seed=0)
    assert put_error(state, 0, 2, 2, placed=False) is None
    assert put_error(state, 0, 0, 2, placed=False) == "offboard"
    assert put_error(state, 0, 2, 2, placed=True) == "outofturn"
    assert put_error(state, 1, 2, 2, placed=False) == "outofturn"
    state.push(HexMove(2, 2))
    assert put_error(state, 1, 2, 2, placed=False) == "occupied"


def test_status_codes_are_the_programs_view():
    win0 = Outcome((0,), (1.0, 0.0), Termination.WIN)
    assert status_code(None, 0) == 0
    assert status_code(win0, 0) == 2 and status_code(win0, 1) == 3
    assert status_code(Outcome((), (0.5, 0.5), Termination.BOARD_FULL), 1) == 1


# ====================================================================== matches
def turns_of(record: Path):
    lines = [json.loads(x) for x in record.read_text().splitlines()]
    return [x for x in lines if x["type"] == "turn"], lines[-1]


@pytest.mark.parametrize("side", [0, 1])
def test_python_example_beats_random_on_either_side(tmp_path, side):
    program = "ext:" + python_command(EXAMPLES / "shortest_path.py")
    specs = [program, "bot:1"] if side == 0 else ["bot:1", program]
    match, outcome, record = play(specs, tmp_path, size=7)
    assert outcome.reason is Termination.WIN and outcome.winners == (side,)
    turns, result = turns_of(record)
    assert result["type"] == "result" and result["winners"] == [side]
    first = next(t for t in turns if str(side) in t["answers"] and t["answers"][str(side)].get("given"))
    assert f"start 7 {side + 1}" in first["answers"][str(side)]["given"]
    assert "done" in first["answers"][str(side)]["answered"] or side == 0
    replay = open_replay(record)
    assert replay.states[-1].winner() == side


@pytest.mark.parametrize("side", [0, 1])
def test_c_example_beats_random_on_either_side(tmp_path, c_example, side):
    specs = [f"ext:{c_example}", "bot:1"] if side == 0 else ["bot:1", f"ext:{c_example}"]
    match, outcome, _ = play(specs, tmp_path, size=9)
    assert outcome.reason is Termination.WIN and outcome.winners == (side,)


def test_c_and_python_examples_play_each_other(tmp_path, c_example):
    python = "ext:" + python_command(EXAMPLES / "shortest_path.py")
    for seed, specs in enumerate(([f"ext:{c_example}", python], [python, f"ext:{c_example}"])):
        match, outcome, _ = play(specs, tmp_path, size=7, seed=seed)
        assert outcome.reason is Termination.WIN
        # The two implement the same strategy: same opening in both seats' views.
        assert match.turns[0].moves[0] == "d4"


def test_cpp_build_of_the_header(tmp_path):
    if shutil.which("g++") is None or shutil.which("gcc") is None:
        pytest.skip("g++ is not installed")
    subprocess.run(["gcc", "-c", "-o", str(tmp_path / "hexlib.o"), str(LIB / "hexlib.c")], check=True)
    subprocess.run(["g++", "-x", "c++", "-o", str(tmp_path / "cpp_hex"), str(EXAMPLES / "testhex.c"),
                    "-x", "none", str(tmp_path / "hexlib.o"), "-I", str(LIB)], check=True)
    _, outcome, _ = play([f"ext:{tmp_path / 'cpp_hex'}", "bot:1"], tmp_path, size=5)
    assert outcome.winners == (0,)


@pytest.mark.parametrize("side", [0, 1])
def test_python_hexlib_prints_go_to_stderr(tmp_path, side):
    program = "ext:" + python_command(PROGRAMS / "chatty.py")
    specs = [program, "bot:1"] if side == 0 else ["bot:1", program]
    match, outcome, record = play(specs, tmp_path, size=4)
    assert outcome.reason is Termination.WIN
    answers = [t.answers[side] for t in match.turns if side in t.answers]
    assert all("notes" not in a for a in answers)
    assert "thinking about" in answers[-1]["stderr"]


def test_c_hexlib_printf_goes_to_stderr_and_tracks_moves(tmp_path, c_example):
    exe = tmp_path / "chatty"
    subprocess.run(["gcc", "-o", str(exe), str(PROGRAMS / "chatty.c"), str(LIB / "hexlib.c"),
                    "-I", str(LIB)], check=True)
    for side in (0, 1):
        specs = [f"ext:{exe}", "bot:1"] if side == 0 else ["bot:1", f"ext:{exe}"]
        match, outcome, _ = play(specs, tmp_path, size=5, seed=side)
        assert outcome.reason is Termination.WIN, outcome
        answers = [t.answers[side] for t in match.turns if side in t.answers]
        assert all("notes" not in a for a in answers)
        # Each turn keeps only what the program printed during it: the greeting once,
        # then one "put" line a turn.
        assert f"plays side {side + 1}" in answers[0]["stderr"]
        assert not any("plays side" in a["stderr"] for a in answers[1:])
        assert all(a["stderr"].count("put ") == 1 for a in answers)


# ====================================================================== misbehaviour
def misbehave(mode):
    return "ext:" + python_command(PROGRAMS / "misbehave.py", mode)


def test_crash_loses_with_crash(tmp_path):
    match, outcome, record = play([misbehave("crash"), "bot:1"], tmp_path)
    assert outcome.reason is Termination.CRASH and outcome.winners == (1,)
    turns, _ = turns_of(record)
    assert turns[-1]["forfeits"]["0"]["reason"] == "crash"
    assert "exited with code 3" in turns[-1]["forfeits"]["0"]["detail"]
    assert "about to crash" in turns[-1]["answers"]["0"]["stderr"]


def test_early_exit_is_a_crash(tmp_path):
    _, outcome, _ = play(["bot:1", misbehave("early")], tmp_path)
    assert outcome.reason is Termination.CRASH and outcome.winners == (0,)


def test_hang_times_out_and_is_killed(tmp_path):
    match, outcome, record = play([misbehave("hang"), "bot:1"], tmp_path, per_move=0.5)
    assert outcome.reason is Termination.TIMEOUT and outcome.winners == (1,)
    process = match.seats[0].process.proc
    assert process.poll() is not None          # killed, not left running
    turns, _ = turns_of(record)
    assert turns[-1]["forfeits"]["0"]["reason"] == "timeout"


def test_garbage_lines_are_noted_and_ignored(tmp_path):
    match, outcome, record = play([misbehave("garbage"), "bot:1"], tmp_path, size=4)
    assert outcome.reason is Termination.WIN
    turns, _ = turns_of(record)
    notes = turns[0]["answers"]["0"]["notes"]
    assert any("hello arena" in n for n in notes) and any("PUT ME DOWN" in n for n in notes)


def test_occupied_cell_places_nothing_and_is_recorded(tmp_path):
    match, outcome, record = play([misbehave("occupied"), "bot:1"], tmp_path, size=4)
    assert outcome.reason is Termination.WIN       # the game went on after the bad put
    turns, _ = turns_of(record)
    answer = turns[2]["answers"]["0"]
    assert any("placed nothing: occupied" in n for n in answer["notes"])
    assert "error occupied" in answer["given"]
    assert turns[2]["moves"]["0"] != turns[0]["moves"]["0"]


def test_offboard_puts_are_recorded(tmp_path):
    _, outcome, record = play(["bot:1", misbehave("offboard")], tmp_path, size=4)
    turns, _ = turns_of(record)
    notes = turns[3]["answers"]["1"]["notes"]
    assert sum("offboard" in n for n in notes) == 2
    assert outcome.reason is Termination.WIN


def test_second_put_in_a_turn_is_out_of_turn(tmp_path):
    match, _, record = play([misbehave("twice"), "bot:1"], tmp_path, size=4)
    turns, _ = turns_of(record)
    assert any("outofturn" in n for n in turns[0]["answers"]["0"]["notes"])
    assert match.states[1].board_text().count("1") == 1    # one stone only


def test_done_without_a_stone_loses(tmp_path):
    _, outcome, record = play([misbehave("nostone"), "bot:1"], tmp_path)
    assert outcome.reason is Termination.ILLEGAL_MOVE and outcome.winners == (1,)
    turns, _ = turns_of(record)
    assert "without placing a stone" in turns[-1]["forfeits"]["0"]["detail"]


def test_flood_of_output_is_bounded(tmp_path):
    match, outcome, record = play([misbehave("flood"), "bot:1"], tmp_path, size=4)
    assert outcome.reason is Termination.WIN
    turns, _ = turns_of(record)
    assert len(turns[0]["answers"]["0"]["notes"]) <= 21


def test_missing_program_is_a_crash(tmp_path):
    _, outcome, record = play(["ext:/no/such/program", "bot:1"], tmp_path)
    assert outcome.reason is Termination.CRASH
    turns, _ = turns_of(record)
    assert "could not start" in turns[-1]["forfeits"]["0"]["detail"]


# ====================================================================== Pascal (when fpc exists)
def build_pascal(source: Path, out_dir: Path) -> str:
    fpc = shutil.which("fpc")
    if fpc is None:
        pytest.skip("fpc (Free Pascal) is not installed")
    exe = out_dir / source.stem
    subprocess.run([fpc, "-O2", f"-Fu{LIB}", f"-FU{out_dir}", f"-o{exe}", str(source)],
                   check=True, capture_output=True)
    return str(exe)


@pytest.mark.parametrize("side", [0, 1])
def test_pascal_example_beats_random_on_either_side(tmp_path, side):
    exe = build_pascal(EXAMPLES / "testhex.pas", tmp_path)
    specs = [f"ext:{exe}", "bot:1"] if side == 0 else ["bot:1", f"ext:{exe}"]
    _, outcome, _ = play(specs, tmp_path, size=9)
    assert outcome.reason is Termination.WIN and outcome.winners == (side,)


def test_pascal_hexlib_writeln_goes_to_stderr(tmp_path, c_example):
    exe = build_pascal(PROGRAMS / "chatty.pas", tmp_path)
    for side in (0, 1):
        specs = [f"ext:{exe}", f"ext:{c_example}"] if side == 0 else [f"ext:{c_example}", f"ext:{exe}"]
        match, outcome, _ = play(specs, tmp_path, size=5, seed=side)
        assert outcome.reason is Termination.WIN, outcome
        answers = [t.answers[side] for t in match.turns if side in t.answers]
        assert all("notes" not in a for a in answers)
        assert f"plays side {side + 1}" in answers[0]["stderr"]      # each turn keeps its own
        assert all(a["stderr"].count("put ") == 1 for a in answers)


def test_swap_by_a_program_and_the_board_refresh(tmp_path, c_example):
    match, outcome, record = play([f"ext:{c_example}", misbehave("swapper")], tmp_path, size=5,
                                  options={"swap": True})
    assert match.turns[1].moves == {1: "swap"}
    # The C example's centre stone (3,3) became player 2's stone at the mirrored cell (3,3).
    assert match.states[2].board_text() == "...../...../..2../...../....."
    assert "board\n.....\n.....\n..2..\n.....\n.....\nmove 3 3\nyourturn" in match.turns[2].answers[0]["given"]
    assert "board" in match.turns[1].answers[1]["given"]        # the swapper's own refresh
    assert outcome.reason is Termination.WIN
