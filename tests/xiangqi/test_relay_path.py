"""The relay path (issue 13 point 1): a contest program's move reaches the other program
before the referee plays it, records it and rewrites REPORT.TXT; a move that will not be
played is never relayed; the programs run at a lower CPU priority, both the same."""
import os
import platform
import re
import shlex
import sys
from pathlib import Path

import pytest

import runner.match as match_module
from games.xiangqi import program as program_module
from games.xiangqi.movefiles import format_move_file
from games.xiangqi.program import PROGRAM_NICE
from games.xiangqi.referee import build_referee_match, format_report

PROGRAMS = Path(__file__).resolve().parent / "programs"
MOVER = PROGRAMS / "random_mover.py"
NICE_PROBE = PROGRAMS / "nice_probe.py"


def command(path: Path, *args: str) -> str:
    return " ".join(shlex.quote(x) for x in (sys.executable, str(path), *args))


def relay_files(match) -> dict:
    """Each seat's relay file (the one the arena writes the other side's moves to)."""
    return {seat.side: seat.relay_file for seat in match.seats}


def test_the_other_program_has_the_move_before_the_referee_plays_it(tmp_path, monkeypatch):
    match = build_referee_match(command(MOVER, "--seed", "3"), command(MOVER, "--seed", "4"), tmp_path,
                                seconds=600, options={"no_capture_limit": "16"}, seed=1, poll=0.01)
    real_step = match_module.referee_step
    at_step = []

    def watched_step(game, state, answers, number, ruling):
        (seat, answer), = answers.items()
        waiting = match.seats[seat ^ 1]
        # Charged before the relay: the file's clocks count this move's time.
        bottom, top = match.seconds_left()
        at_step.append((answer.text, waiting.relay_file.read_bytes().decode("ascii"),
                        format_move_file(answer.text, bottom, top)))
        return real_step(game, state, answers, number, ruling)

    monkeypatch.setattr(match_module, "referee_step", watched_step)
    match.run()
    played = match.states[-1].moves
    assert len(played) >= 10 and len(at_step) == len(played)
    for move, relayed, expected in at_step:
        assert relayed == expected, f"{move}: the other program had {relayed!r} when the referee played it"
    # ... and the record and REPORT.TXT still hold every move, the record fsynced at the end.
    lines = match.record_path.read_text().splitlines()
    assert sum('"type": "turn"' in line for line in lines) == len(played)
    assert (tmp_path / "REPORT.TXT").read_bytes().decode("ascii") == format_report(
        match.report_authors, match.report_words, played)


def test_the_record_and_report_hold_each_move_when_its_turn_ends(tmp_path):
    """The work moved after the relay still happens within the turn."""
    match = build_referee_match(command(MOVER, "--seed", "5"), command(MOVER, "--seed", "6"), tmp_path,
                                options={"no_capture_limit": "12"}, seed=1, poll=0.01)
    real_after_turn, seen = match.after_turn, []

    def after_turn(info):
        real_after_turn(info)
        turns = [line for line in match.record_path.read_text().splitlines() if '"type": "turn"' in line]
        report = (tmp_path / "REPORT.TXT").read_bytes().decode("ascii")
        seen.append((len(turns), len(match.turns), report,
                     format_report(match.report_authors, match.report_words, match.states[-1].moves)))

    match.after_turn = after_turn
    match.run()
    assert len(seen) >= 8
    assert all(on_disk == in_memory and report == whole for on_disk, in_memory, report, whole in seen)


@pytest.mark.parametrize("mode", ["illegal", "garbage", "win"])
def test_a_move_that_will_not_be_played_is_never_relayed(tmp_path, monkeypatch, mode):
    writes = []
    real_replace = program_module.replace_file

    def logged(root, name, data, *args, **kwargs):
        writes.append((Path(root) / name, data))
        return real_replace(root, name, data, *args, **kwargs)

    monkeypatch.setattr(program_module, "replace_file", logged)
    match = build_referee_match(command(MOVER, "--seed", "7", "--misbehave", mode, "--after", "3"),
                                command(MOVER, "--seed", "8"), tmp_path, seed=1, poll=0.01)
    match.run()
    played = match.states[-1].moves
    assert match.outcome is not None and match.outcome.winners == (1,), match.outcome
    top_relay = relay_files(match)[1]                       # the bottom's moves go here
    relayed = [data.splitlines()[0] for path, data in writes if path == top_relay]
    bottom_moves = [m for i, m in enumerate(played) if i % 2 == 0]
    assert relayed[:-1] == bottom_moves and relayed[-1] in ("WIN", "LOST"), relayed


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="nice and autogroups as Linux has them")
@pytest.mark.parametrize("level", ["basic", "strict"])
def test_contest_programs_run_at_the_same_lower_priority(tmp_path, monkeypatch, request, level):
    from runner import sandbox
    if level == "basic":
        monkeypatch.setenv("ARENA_SANDBOX", "basic")
    else:
        monkeypatch.delenv("ARENA_SANDBOX", raising=False)
    sandbox.strict_problem.cache_clear()                   # it reads ARENA_SANDBOX once
    request.addfinalizer(sandbox.strict_problem.cache_clear)
    if level == "strict" and sandbox.strict_problem():
        pytest.skip(f"no strict sandbox here: {sandbox.strict_problem()}")
    match = build_referee_match(command(NICE_PROBE), command(NICE_PROBE), tmp_path, seed=1, poll=0.01)
    assert all(seat.sandbox.level == level for seat in match.seats)
    match.run()
    autogroups = Path("/proc/self/autogroup").exists()
    for folder in ("seat1", "seat2"):
        nice, group = (tmp_path / folder / "NICE.TXT").read_text().split("|")
        assert int(nice) == max(PROGRAM_NICE, os.nice(0))
        if autogroups:
            assert group.strip().endswith(f"nice {PROGRAM_NICE}"), group
    assert f"nice {PROGRAM_NICE}" in match.seats[0].sandbox.header_text()


def test_the_nice_limit_can_be_turned_off_and_never_raises_priority():
    from runner.sandbox import SandboxLimits, seat_sandbox
    assert seat_sandbox({"nice": 0}, nice=PROGRAM_NICE).limits.niceness == 0
    assert seat_sandbox({}, nice=PROGRAM_NICE).limits.niceness == PROGRAM_NICE
    assert SandboxLimits(nice=-5).niceness == 1 and SandboxLimits(nice=40).niceness == 19


def test_the_relaying_thread_asks_for_short_time_slices(tmp_path):
    """Linux 6.12+: the thread that waits for move files is woken ahead of busy tasks."""
    import threading

    from runner import latency
    found = {}

    def in_a_fresh_thread():
        latency.set_slice(0)                 # not the slice inherited from a thread that asked
        found["before"] = latency.current_slice()
        match = build_referee_match(command(NICE_PROBE), command(NICE_PROBE), tmp_path, seed=1, poll=0.01)
        match.run()
        found["after"] = latency.current_slice()

    thread = threading.Thread(target=in_a_fresh_thread)
    thread.start()
    thread.join(60)
    release = tuple(int(x) for x in re.findall(r"\d+", platform.release())[:2])
    if found.get("before") is None or release < (6, 12):
        pytest.skip("no custom time slices here (Linux before 6.12, or not Linux)")
    assert found["before"] > latency.SHORT_SLICE
    assert found["after"] == pytest.approx(latency.SHORT_SLICE)
