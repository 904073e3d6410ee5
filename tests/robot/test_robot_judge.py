"""Headless matches through the Robot judge with external programs, good and bad."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games.robot import PLUGIN
from runner.match import Match, TimeControl
from runner.seats import make_seat

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "games" / "robot" / "examples"
BOTS = Path(__file__).resolve().parent / "bots"
MAP_9 = "9 9 2\n.........\n.#.....#.\n.........\n...#.#...\n.........\n...#.#...\n" \
        ".........\n.#.....#.\n.........\n"
PY = sys.executable


def run_match(tmp_path, specs, seed=5, per_move=None, options=None):
    seats = [make_seat(spec, PLUGIN, seed + i) for i, spec in enumerate(specs)]
    opts = {"map": MAP_9, "players": len(specs), "respawn": "off", "period": 0}
    opts.update(options or {})
    record = tmp_path / "match.arena.jsonl"
    match = Match(PLUGIN, opts, seats, seed=seed, record_path=record,
                  time_control=TimeControl(per_move=per_move), workdir=tmp_path)
    outcome = match.run()
    return match, outcome, [json.loads(line) for line in record.read_text().splitlines()]


@pytest.fixture(scope="module")
def cpp_bot(tmp_path_factory):
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed")
    exe = tmp_path_factory.mktemp("cpp") / "greedy_bot"
    subprocess.run(["g++", "-o", str(exe), str(EXAMPLES / "greedy_bot.cpp")], check=True)
    return exe


def failures(lines, seat):
    return [t["answers"][str(seat)].get("failure") for t in lines
            if t["type"] == "turn" and str(seat) in t["answers"]]


def test_match_with_python_cpp_crashing_and_garbage_programs(tmp_path, cpp_bot):
    specs = [f"ext:{PY} {EXAMPLES / 'greedy_bot.py'}", f"ext:{cpp_bot}",
             f"ext:{PY} {BOTS / 'crash_bot.py'}", f"ext:{PY} {BOTS / 'garbage_bot.py'}"]
    match, outcome, lines = run_match(tmp_path, specs)
    assert lines[-1]["type"] == "result" and outcome is not None
    turns = [t for t in lines if t["type"] == "turn"]
    assert turns[-1]["n"] == len(match.turns) and match.state.is_terminal()
    # The two good programs never failed and painted cells.
    assert set(failures(lines, 0)) == {None} and set(failures(lines, 1)) == {None}
    assert outcome.scores[0] > 0 and outcome.scores[1] > 0
    # The crashing one: fine on turn 0, then "crash" with the referee playing stay.
    crash = turns[1]["answers"]["2"]
    assert crash["failure"] == "crash" and "exited with code 3" in crash["detail"]
    assert any("the referee played" in note for note in crash["notes"])
    # The garbage writer: every answer is a bad file, and it was given MAP.INP each turn.
    assert set(failures(lines, 3)) == {"bad-file"}
    details = " ".join(t["answers"]["3"]["detail"] for t in turns if "3" in t["answers"])
    assert "binary" in details and "larger than" in details and "expected 'X Y'" in details
    first = turns[0]["answers"]["3"]
    assert first["given"].startswith("9 9 2 0\n-1 -1 D\n3\n")
    # Files: MOVE.OUT and STATE.DAT kept, the scratch file deleted (and noted).
    seat1 = tmp_path / "seat1"
    assert (seat1 / "STATE.DAT").read_text() == str(sum(1 for t in turns if "0" in t["answers"]))
    assert not (seat1 / "scratch.tmp").exists()
    assert any("scratch.tmp" in n for n in turns[0]["answers"]["0"].get("notes", []))


def test_a_program_that_hangs_is_cut_off_and_stays(tmp_path):
    specs = [f"ext:{PY} {EXAMPLES / 'greedy_bot.py'}", f"ext:{PY} {BOTS / 'hang_bot.py'}"]
    match, outcome, lines = run_match(tmp_path, specs, per_move=0.5,
                                      options={"map": MAP_9.replace("9 9 2", "9 9 1")})
    turns = [t for t in lines if t["type"] == "turn"]
    assert set(failures(lines, 1)) == {"timeout"}
    assert all(t["answers"]["1"]["elapsed"] < 1.5 for t in turns if "1" in t["answers"])
    # A bad placement gets a random cell; then "stay" every turn.
    assert turns[0]["moves"]["1"] == "-1 -1"
    assert not (tmp_path / "seat2" / "junk.bin").exists()
    assert outcome.scores[1] >= 1


def test_a_program_that_left_is_not_run_again(tmp_path):
    # K = 1: ring 0 is sealed after turn 1, and the edge bot sits on (0, 0).
    specs = [f"ext:{PY} {EXAMPLES / 'greedy_bot.py'}", f"ext:{PY} {BOTS / 'edge_bot.py'}"]
    match, outcome, lines = run_match(tmp_path, specs,
                                      options={"map": MAP_9.replace("9 9 2", "9 9 1")})
    turns = [t for t in lines if t["type"] == "turn"]
    assert not match.state.robots[1].in_game or match.state.is_terminal()
    assert any("B left the game: stood on a cell sealed" in e[1] for e in turns[1]["events"])
    assert all("1" not in t["answers"] for t in turns[2:]) and len(turns) > 2
    assert (tmp_path / "seat2" / "STATE.DAT").read_text() == "run\n" * 2


def test_missing_program_is_a_crash_not_an_arena_error(tmp_path):
    specs = [f"ext:{PY} {EXAMPLES / 'greedy_bot.py'}", "ext:/no/such/program"]
    match, outcome, lines = run_match(tmp_path, specs)
    assert set(failures(lines, 1)) == {"crash"}
    assert outcome is not None and lines[-1]["type"] == "result"


def run_intervals(tmp_path, sequential):
    limits = {"sequential": True} if sequential else {}
    seats = [make_seat(f"ext:{PY} {BOTS / 'slow_bot.py'}", PLUGIN, 1, limits=limits)
             for _ in range(2)]
    match = Match(PLUGIN, {"map": "5 5 1\n" + ".....\n" * 5, "players": 2}, seats,
                  seed=2, workdir=tmp_path)
    assert match.run() is not None and match.state.is_terminal()
    runs = []
    for seat in ("seat1", "seat2"):
        text = (tmp_path / seat / "STATE.DAT").read_text()
        runs.append([tuple(map(float, line.split())) for line in text.splitlines()])
    return list(zip(*runs))


def overlaps(a, b):
    return a[0] < b[1] and b[0] < a[1]


def test_programs_run_concurrently_by_default_and_one_at_a_time_on_request(tmp_path):
    together = run_intervals(tmp_path / "together", sequential=False)
    assert sum(overlaps(a, b) for a, b in together) >= len(together) - 1
    apart = run_intervals(tmp_path / "apart", sequential=True)
    assert len(apart) >= 3 and not any(overlaps(a, b) for a, b in apart)


def test_memory_cap_turns_a_greedy_program_into_a_crash(tmp_path):
    hog = tmp_path / "hog.py"
    hog.write_text("data = bytearray(2_000_000_000)\nopen('MOVE.OUT', 'w').write('1 1')\n")
    seats = [make_seat(f"ext:{PY} {EXAMPLES / 'greedy_bot.py'}", PLUGIN, 1),
             make_seat(f"ext:{PY} {hog}", PLUGIN, 2, limits={"memory_mb": 400})]
    match = Match(PLUGIN, {"map": "5 5 1\n" + ".....\n" * 5, "players": 2}, seats, seed=2,
                  workdir=tmp_path / "m")
    match.run()
    first = match.turns[0].answers[1]
    assert first["failure"] == "crash" and "MemoryError" in first["stderr"]


@pytest.mark.parametrize("style", ["comma", "spaces", "lead", "bare"])
def test_a_move_their_referee_reads_as_stay_is_warned_or_read_their_way(tmp_path, style):
    """The arena reads '3,4', '3  4', ' 3 4' and a line with no newline; the organizers'
    referee reads them as no move.  A warning in the answer's notes; with
    compat=organizers, a bad file: the robot stays."""
    specs = [f"ext:{PY} {BOTS / 'sloppy_bot.py'} {style}", f"ext:{PY} {BOTS / 'edge_bot.py'}"]
    match, outcome, lines = run_match(tmp_path / "arena", specs, options={"map": MAP_9.replace("9 9 2", "9 9 3")})
    turns = [t for t in lines if t["type"] == "turn"]
    first = turns[1]["answers"]["0"]
    assert first.get("failure") is None and turns[1]["moves"]["0"] == "4 5"
    assert any("organizers' referee reads this as no move" in n for n in first["notes"])
    match, outcome, lines = run_match(tmp_path / "theirs", specs,
                                      options={"map": MAP_9.replace("9 9 2", "9 9 3"),
                                               "compat": "organizers"})
    turns = [t for t in lines if t["type"] == "turn"]
    assert turns[0]["moves"]["0"] == "-1 -1"                  # a random placement
    start = match.states[1].position(0)
    assert turns[1]["answers"]["0"]["failure"] == "bad-file"
    assert "organizers' referee reads this as no move" in turns[1]["answers"]["0"]["detail"]
    assert turns[1]["moves"]["0"] == f"{start[0]} {start[1]}"   # stays
