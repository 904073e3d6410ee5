"""A run prepared ahead (GatedRun): the sandbox is set up before the turn, the program
starts only when the gate opens, and nothing is left running afterwards."""
import json
import os
import select
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from runner import process
from runner.process import GatedRun, _exiting, can_gate, run_once
from runner.program_seats import FileProtocol, RunEachTurnSeat
from runner.records import RecordWriter
from runner.sandbox import BASIC, STRICT, Sandbox, SandboxLimits, strict_problem
from runner.seats import SeatInfo

PY = sys.executable
pytestmark = pytest.mark.skipif(not can_gate(), reason="gated runs need a POSIX /bin/sh")

LEVELS = [BASIC] + ([] if strict_problem() else [STRICT])

STAMP = textwrap.dedent("""\
    import os, sys, time
    with open("STARTED", "w") as fh:
        fh.write(repr(time.time()))
    print("stdout ok"); print("stderr ok", file=sys.stderr)
    raise SystemExit(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
""")


def stamp_program(tmp_path):
    path = tmp_path / "stamp.py"
    path.write_text(STAMP)
    folder = tmp_path / "seat"
    folder.mkdir()
    return path, folder


@pytest.mark.parametrize("level", LEVELS)
def test_the_program_starts_only_when_the_gate_opens(tmp_path, level):
    path, folder = stamp_program(tmp_path)
    gated = GatedRun([PY, str(path), "3"], folder, Sandbox(SandboxLimits(), level_name=level))
    time.sleep(0.5)                          # ready and waiting, but not started
    assert gated.proc.poll() is None and not (folder / "STARTED").exists()
    opened = time.time()
    result = gated.run(10.0)
    assert (folder / "STARTED").exists() and float((folder / "STARTED").read_text()) >= opened - 0.05
    assert result.returncode == 3 and result.crashed and not result.timed_out
    assert result.stdout.strip() == "stdout ok" and result.stderr.strip() == "stderr ok"
    assert result.elapsed < 5.0
    assert gated.proc.pid not in process._LIVE


@pytest.mark.parametrize("level", LEVELS)
def test_the_time_limit_counts_from_the_gate_and_kills_the_program(tmp_path, level):
    gated = GatedRun([PY, "-c", "import time; time.sleep(30)"], tmp_path,
                     Sandbox(SandboxLimits(), level_name=level))
    time.sleep(0.5)
    result = gated.run(0.5)
    assert result.timed_out and 0.4 < result.elapsed < 3.0
    assert not psutil.pid_exists(gated.proc.pid) or psutil.Process(gated.proc.pid).status() == "zombie"


def test_a_cancelled_run_never_starts_and_leaves_nothing(tmp_path):
    path, folder = stamp_program(tmp_path)
    gated = GatedRun([PY, str(path)], folder, Sandbox(SandboxLimits(), level_name=BASIC))
    pid = gated.proc.pid
    gated.cancel()
    assert not (folder / "STARTED").exists() and pid not in process._LIVE
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == "zombie"


def test_a_missing_program_is_refused_before_the_gate(tmp_path):
    with pytest.raises(OSError):
        GatedRun([str(tmp_path / "no-such-program")], tmp_path,
                 Sandbox(SandboxLimits(), level_name=BASIC))


# The child waits for the test's RELEASE file, so that it writes "late" if and only if it
# is still alive when the test lets it.
LEAVES_A_WRITER = textwrap.dedent("""\
    import os, sys, time
    open("OUT.TXT", "w").write("early\\n")
    if sys.argv[1] == "child" and os.fork() == 0:
        while not os.path.exists("RELEASE"):
            time.sleep(0.01)
        open("OUT.TXT", "w").write("late\\n")
        os._exit(0)
""")


def pidfd_pid(fd: int) -> int:
    """The pid a pidfd refers to (Linux's fdinfo)."""
    info = Path(f"/proc/self/fdinfo/{fd}").read_text()
    return int(next(line.split()[1] for line in info.splitlines() if line.startswith("Pid:")))


@pytest.mark.skipif(STRICT not in LEVELS or not hasattr(os, "pidfd_open"),
                    reason="needs the strict sandbox (bubblewrap) and pidfds")
@pytest.mark.parametrize("leaves", ["nothing", "child"])
def test_a_strict_run_is_over_when_its_program_exits_and_nothing_it_left_runs(tmp_path, leaves):
    """Strict: the exit watched is the program's own, not bwrap's (which follows 0.35 ms
    later); its files count as final at once only when it left no process running;
    either way, a process it left never writes after its run has ended.

    A program that leaves a child is "alone" only once bwrap's init has exited, which
    kills the child with the namespace: on a loaded machine the check can come that
    late (it did in a CI run), so then the init must be gone or exiting (the kernel then
    kills every process of the namespace: the child can no longer write)."""
    program = tmp_path / "writer.py"
    program.write_text(LEAVES_A_WRITER)
    folder = tmp_path / "seat"
    folder.mkdir()
    gated = GatedRun([PY, str(program), leaves], folder, Sandbox(SandboxLimits(), level_name=STRICT))
    fd = gated.exit_pidfd()
    try:
        watched = pidfd_pid(fd)
        assert watched != gated.proc.pid and psutil.Process(watched).ppid() != gated.proc.pid
        gated.open()
        assert select.select([fd], [], [], 10)[0] == [fd]
        alone = gated.ended_alone()
        init_gone = _exiting(gated._sandbox_init)      # exited, or exiting: the namespace dies
    finally:
        os.close(fd)
        result = gated.end(time.perf_counter())     # also when a check failed: no run is left
    assert alone if leaves == "nothing" else (not alone or init_gone)
    assert result.returncode == 0 and not result.timed_out
    (folder / "RELEASE").write_text("")
    time.sleep(0.3)
    assert (folder / "OUT.TXT").read_text() == "early\n"     # the child died with the run
    with process._LIVE_LOCK:
        assert gated.proc.pid not in process._LIVE


FILES = FileProtocol(inputs=lambda state, seat: {"IN.TXT": f"{state}\n"}, output="OUT.TXT",
                     parse=lambda text: text.strip())
ECHO = textwrap.dedent("""\
    import os
    text = open("IN.TXT").read().strip()
    open("OUT.TXT", "w").write(f"{text} {os.getpid()}\\n")
""")


@pytest.mark.parametrize("level", LEVELS)
def test_a_seat_prepares_each_next_run_and_closes_clean(tmp_path, level):
    program = tmp_path / "echo.py"
    program.write_text(ECHO)
    seat = RunEachTurnSeat("ext:echo", f"{PY} {program}", FILES, {"sandbox": level})
    seat.start(SeatInfo(None, {}, 0, 1, 1, str(tmp_path / "seat")), "s0")
    answers = []
    for turn in range(4):
        time.sleep(0.2)                      # the next run is prepared meanwhile
        assert seat._preparing is not None
        answer = seat.ask(f"turn{turn}", 0, 5.0)
        assert answer.failure is None, answer.detail
        answers.append(answer.text.split())
    assert [a[0] for a in answers] == ["turn0", "turn1", "turn2", "turn3"]
    waiting = seat._take_prepared()
    assert waiting is not None and waiting.proc.poll() is None
    waiting.cancel()
    seat.close()
    with process._LIVE_LOCK:
        assert not process._LIVE


def test_a_seat_whose_program_is_missing_says_so(tmp_path):
    seat = RunEachTurnSeat("ext:x", str(tmp_path / "missing-program"), FILES)
    seat.start(SeatInfo(None, {}, 0, 1, 1, str(tmp_path / "seat")), "s0")
    answer = seat.ask("turn0", 0, 5.0)
    seat.close()
    assert answer.failure is not None and "could not start" in answer.detail


def test_own_children_are_found_both_ways():
    child = subprocess.Popen([PY, "-c", "import time; time.sleep(10)"])
    try:
        assert child.pid in {p.pid for p in process._own_children()}
        assert child.pid in process._children_from_stat()
    finally:
        child.kill()
        child.wait()


def test_the_record_is_readable_at_once_and_synced_at_close(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    writer = RecordWriter(tmp_path / "r.arena.jsonl", {"game": "toy"})
    for n in range(5):
        writer._write({"type": "turn", "n": n})
        lines = (tmp_path / "r.arena.jsonl").read_text().splitlines()
        assert json.loads(lines[-1]) == {"type": "turn", "n": n}
    writer.close()
    assert synced and len(synced) <= 7          # coalesced, never more than one a line
    writer.close()                              # twice is harmless
