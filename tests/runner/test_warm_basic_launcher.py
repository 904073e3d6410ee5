"""The basic level's warm shape (runner.warm_basic): one launcher per seat for the whole
match, the subreaper of all its runs start; a fresh process each turn; whatever a turn
left (double-forked, setsid) is killed and reaped before its end is told."""
import json
import os
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from runner import warm_basic
from runner.sandbox import BASIC, SEAT_MARKER, Sandbox, SandboxLimits
from runner.warm_basic import BasicWarmSandbox, basic_warm_possible, warm_kind

PY = sys.executable
SANDBOX = Sandbox(SandboxLimits(), level_name=BASIC)
pytestmark = pytest.mark.skipif(
    not basic_warm_possible(SANDBOX),
    reason="the basic level's launcher needs Linux with pidfds (and, for an ordinary "
           "user, no user namespaces), and ARENA_WARM not 0")

#: A program that notes its pid and which of the pids noted in LEFT (the last turn's
#: leftovers) are still alive, then does what its argument says: "leave" starts a
#: double-forked, setsid process and one that only calls setsid, and exits once both
#: have noted their pids in LEFT (so they are alive when it exits); "slow" does the
#: same, then sleeps past its time.
PROGRAM = textwrap.dedent("""\
    import json, os, sys, time

    def alive(pid):
        try:
            with open(f"/proc/{pid}/stat") as fh:
                return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False

    left = [int(p) for p in open("LEFT").read().split()] if os.path.exists("LEFT") else []
    with open("SEEN", "a") as fh:
        fh.write(json.dumps({"me": os.getpid(), "alive": [p for p in left if alive(p)]}) + "\\n")
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "confine":                       # what holds it: written to its folder
        try:
            open(os.path.join(os.path.dirname(os.getcwd()), "outside"), "w").close()
            wrote = True
        except OSError:
            wrote = False
        json.dump({"session": os.getsid(0) == os.getpid(), "uid": os.getuid(),
                   "wrote_outside": wrote}, open("CONFINED", "w"))
    if what in ("leave", "slow"):
        r, w = os.pipe()
        if os.fork() == 0:                      # a daemon: double fork with setsid
            os.setsid()
            if os.fork() == 0:
                os.write(w, f"{os.getpid()} ".encode())
                time.sleep(60)
            os._exit(0)
        if os.fork() == 0:                      # a process of its own session
            os.setsid()
            os.write(w, f"{os.getpid()} ".encode())
            time.sleep(60)
        pids = b""
        while pids.count(b" ") < 2:
            pids += os.read(r, 64)
        open("LEFT", "w").write(pids.decode())
        if what == "slow":
            time.sleep(60)
""")


@pytest.fixture
def seat(tmp_path):
    program = tmp_path / "program.py"
    program.write_text(PROGRAM)
    folder = tmp_path / "seat"
    folder.mkdir()
    (folder / SEAT_MARKER).write_text("")
    warm = BasicWarmSandbox([PY, str(program)], folder, SANDBOX)
    yield warm, program, folder
    warm.close()


def turn(warm, program, *args, limit=20.0):
    warm.argv = [PY, str(program), *args]
    return warm.prepare(SANDBOX.with_cpu(limit)).run(limit)


def seen(folder):
    return [json.loads(line) for line in (folder / "SEEN").read_text().splitlines()]


def leftovers(folder):
    return [int(p) for p in (folder / "LEFT").read_text().split()]


def running(pids):
    """The pids still running (a zombie is dead)."""
    out = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                out.append(pid)
        except psutil.NoSuchProcess:
            pass
    return out


def test_a_turns_leftovers_are_dead_before_its_end_is_told_and_the_next_turn_starts(seat):
    warm, program, folder = seat
    first = turn(warm, program, "leave")
    assert first.returncode == 0 and not first.timed_out, first.stderr
    left = leftovers(folder)
    assert len(left) == 2
    assert running(left) == []                      # dead (and reaped) when run() returned
    assert not any(psutil.pid_exists(p) and psutil.Process(p).ppid() == warm.proc.pid
                   for p in left)                   # not even zombies of the launcher
    second = turn(warm, program)
    assert second.returncode == 0, second.stderr
    assert seen(folder)[1]["alive"] == []           # the next turn saw none of them
    assert psutil.Process(warm.proc.pid).children() == []


def test_a_turn_out_of_time_is_killed_with_all_it_started_and_the_seat_goes_on(seat):
    warm, program, folder = seat
    launcher = warm.proc.pid
    started = time.perf_counter()
    result = turn(warm, program, "slow", limit=1.0)
    assert result.timed_out and time.perf_counter() - started < 10
    assert len(leftovers(folder)) == 2
    assert running(leftovers(folder)) == []
    again = turn(warm, program)
    assert again.returncode == 0 and not again.timed_out, again.stderr
    assert seen(folder)[-1]["alive"] == []
    assert warm.proc.pid == launcher and warm.alive


def test_each_turn_is_a_fresh_process_of_its_own_session_under_the_one_launcher(seat):
    warm, program, folder = seat
    for _ in range(3):
        assert turn(warm, program, "leave").returncode == 0
    pids = [run["me"] for run in seen(folder)]
    assert len(set(pids)) == 3 and warm.proc.pid not in pids
    assert all(run["alive"] == [] for run in seen(folder))


def test_closing_the_seat_ends_its_launcher_and_all_below_it(seat):
    warm, program, folder = seat
    launcher = psutil.Process(warm.proc.pid)
    warm.argv = [PY, str(program), "slow"]
    run = warm.prepare(SANDBOX.with_cpu(20))
    run.open()
    for _ in range(200):                              # until its leftovers are running
        if (folder / "LEFT").exists() and len(leftovers(folder)) == 2:
            break
        time.sleep(0.05)
    warm.close()
    psutil.wait_procs([launcher], timeout=5)
    assert not launcher.is_running()
    assert running(leftovers(folder)) == []


def test_each_turn_gets_the_basic_levels_confinement(tmp_path):
    """Its own session, the seat's own uid (an arena run as root, with a program other
    users can read: the system's Python in a public folder, as a contest folder is),
    Landlock where the kernel has it: as the basic level gives each run."""
    import shutil
    import tempfile
    from runner import seat_limits
    from runner.sandbox import _unreadable_by_others
    system = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
    python = str(system) if system.exists() and not _unreadable_by_others([system]) else PY
    public = Path(tempfile.mkdtemp(prefix="arena-warm-basic-"))
    try:
        public.chmod(0o711)
        program = public / "program.py"
        program.write_text(PROGRAM)
        program.chmod(0o644)
        folder = public / "seat"
        folder.mkdir()
        (folder / SEAT_MARKER).write_text("")
        sandbox = Sandbox(SandboxLimits(), level_name=BASIC)
        warm = BasicWarmSandbox([python, str(program), "confine"], folder, sandbox)
        try:
            result = warm.prepare(sandbox.with_cpu(20)).run(20.0)
        finally:
            warm.close()
        assert result.returncode == 0, result.stderr
        confined = json.loads((folder / "CONFINED").read_text())
        assert confined["session"]
        if os.geteuid() == 0 and python != PY:
            assert confined["uid"] == sandbox.uid != 0
        if seat_limits.landlock_abi():
            assert not confined["wrote_outside"] and not (public / "outside").exists()
    finally:
        shutil.rmtree(public, ignore_errors=True)


def test_arena_warm_0_turns_it_off(monkeypatch):
    assert warm_kind(SANDBOX) is BasicWarmSandbox
    monkeypatch.setenv("ARENA_WARM", "0")
    assert warm_kind(SANDBOX) is None


COUNTER = textwrap.dedent("""\
    import os, sys, time
    count = int(open("STATE.DAT").read()) if os.path.exists("STATE.DAT") else 0
    open("STATE.DAT", "w").write(str(count + 1))
    open("OUT.TXT", "w").write(open("IN.TXT").read().strip() + f" {count + 1}\\n")
    if os.fork() == 0:                       # a leftover that would spoil the next turn
        os.setsid()
        if os.fork() == 0:
            time.sleep(0.3)
            open("STATE.DAT", "w").write("999")
            open("OUT.TXT", "w").write("stale\\n")
        os._exit(0)
""")


def play_counter(tmp_path, turns=4):
    """A run-each-turn seat at the basic level playing ``turns`` turns, half of them
    through ProgramsTurn as a match does: its answers and its launchers' pids."""
    from runner.program_seats import FileProtocol, ProgramsTurn, RunEachTurnSeat
    from runner.seats import SeatInfo
    files = FileProtocol(inputs=lambda state, seat: {"IN.TXT": f"{state}\n"}, output="OUT.TXT",
                         parse=lambda text: text.strip(), kept=("STATE.DAT",))
    program = tmp_path / "counter.py"
    program.write_text(COUNTER)
    (tmp_path / "seat").mkdir()
    (tmp_path / "seat" / SEAT_MARKER).write_text("")        # as a match makes it
    seat = RunEachTurnSeat("ext:counter", f"{PY} {program}", files, {"sandbox": "basic"})
    seat.start(SeatInfo(None, {}, 0, 1, 1, str(tmp_path / "seat")), "s0")
    answers, launchers = [], set()
    try:
        for number in range(turns):
            if number % 2:
                answer = seat.ask(f"turn{number}", 0, 2.0)
            else:
                turn_ = ProgramsTurn({0: seat}, f"turn{number}", {0: 2.0})
                assert turn_.staged == {0}
                answer = turn_.run()[0]
            assert answer.failure is None, answer.detail
            answers.append(answer.text)
            if seat._warm is not None:
                launchers.add(seat._warm.proc.pid)
            time.sleep(0.5)                  # a leftover would have written by now
        state = (seat.folder / "STATE.DAT").read_text()
        warm = seat._warm
        return answers, launchers, state, warm
    finally:
        seat.close()


def test_a_seat_keeps_one_launcher_for_the_match_and_its_state_file_as_before(tmp_path):
    answers, launchers, state, warm = play_counter(tmp_path)
    assert answers == ["turn0 1", "turn1 2", "turn2 3", "turn3 4"]
    assert isinstance(warm, BasicWarmSandbox) and len(launchers) == 1
    assert state == "4"                       # the leftover writing STATE.DAT was dead


def test_a_launcher_that_cannot_start_leaves_the_seat_to_one_run_a_turn(tmp_path, monkeypatch):
    monkeypatch.setattr(warm_basic, "BASIC_LAUNCHER", tmp_path / "missing.py")
    answers, launchers, state, warm = play_counter(tmp_path, turns=2)
    assert answers == ["turn0 1", "turn1 2"] and warm is None and not launchers
