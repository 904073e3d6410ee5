"""The warm sandbox (runner.warm): one strict sandbox per seat for the whole match, its
launcher as PID 1, a fresh process each turn, nothing left running between turns."""
import json
import os
import shutil
import signal
import sys
import textwrap
import time

import psutil
import pytest

from runner.sandbox import SEAT_MARKER, STRICT, Sandbox, SandboxLimits, strict_problem
from runner.warm import WarmSandbox, warm_possible

PY = sys.executable
SANDBOX = Sandbox(SandboxLimits(), level_name=STRICT)
pytestmark = pytest.mark.skipif(
    bool(strict_problem()) or not warm_possible(SANDBOX),
    reason="the warm sandbox needs the strict level and an arena run as root "
           f"({strict_problem() or 'not root'})")

#: A program that notes what it sees of its namespace and /tmp, then does what its
#: argument says: "leave" starts a process that outlives it (a double fork with setsid),
#: "kill-launcher" tries every way to end PID 1, "tmp" leaves a file in /tmp, "slow" starts another process and both sleep.
PROGRAM = textwrap.dedent("""\
    import json, os, signal, sys, time
    seen = {"pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
            "me": os.getpid(), "tmp": sorted(os.listdir("/tmp")), "uid": os.getuid()}
    with open("SEEN", "a") as fh:
        fh.write(json.dumps(seen) + "\\n")
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "leave" and os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(60)
        os._exit(0)
    if what == "slow":
        if os.fork() == 0:
            os.setsid()
        time.sleep(30)
    if what == "tmp":
        open("/tmp/left-behind", "w").write("state")
    if what == "kill-launcher":
        tried = []
        for how in ("SIGKILL", "SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGSTOP", "SIGSEGV"):
            try:
                os.kill(1, getattr(signal, how))
                tried.append(how + " sent")
            except OSError as exc:
                tried.append(how + " " + exc.strerror)
        for pid in (os.getppid(), -1):
            try:
                os.kill(pid, signal.SIGKILL) if pid != -1 else None
            except OSError:
                pass
        for path in ("/proc/1/mem", "/proc/1/fd/0"):
            try:
                open(path, "rb").close()
                tried.append(path + " opened")
            except OSError as exc:
                tried.append(path + " " + exc.strerror)
        try:
            os.kill(-1, signal.SIGKILL)      # everything it may signal (not itself)
        except OSError as exc:
            tried.append("kill(-1) " + exc.strerror)
        print(json.dumps(tried))
""")


@pytest.fixture
def seat(tmp_path):
    program = tmp_path / "program.py"
    program.write_text(PROGRAM)
    folder = tmp_path / "seat"
    folder.mkdir()
    (folder / SEAT_MARKER).write_text("")
    warm = WarmSandbox([PY, str(program)], folder, SANDBOX)
    yield warm, program, folder
    warm.close()


def turn(warm, program, *args, limit=10.0):
    warm.argv = [PY, str(program), *args]
    run = warm.prepare(SANDBOX.with_cpu(limit))
    return run.run(limit)


def seen(folder):
    return [json.loads(line) for line in (folder / "SEEN").read_text().splitlines()]


def seat_processes(uid):
    return [p for p in psutil.process_iter(["uids"]) if p.info["uids"] and p.info["uids"].real == uid]


def test_a_turns_leftover_processes_are_dead_before_the_next_turn_starts(seat):
    warm, program, folder = seat
    first = turn(warm, program, "leave")
    assert first.returncode == 0, first.stderr
    assert seat_processes(SANDBOX.uid) == []        # killed before the turn's end was told
    second = turn(warm, program)
    assert second.returncode == 0, second.stderr
    one, two = seen(folder)
    assert two["pids"] == [1, two["me"]]            # alone with the launcher
    assert two["me"] > one["me"] and two["uid"] == SANDBOX.uid != 0


def test_the_launcher_survives_a_programs_attempts_to_kill_it(seat):
    warm, program, folder = seat
    launcher = psutil.Process(warm.proc.pid).children()[0]
    result = turn(warm, program, "kill-launcher")
    assert result.returncode == 0, result.stderr
    tried = json.loads(result.stdout)
    assert not any(t.endswith(("opened",)) for t in tried), tried
    time.sleep(0.2)
    assert warm.alive and launcher.is_running() and launcher.status() != psutil.STATUS_STOPPED
    again = turn(warm, program)
    assert again.returncode == 0 and not again.timed_out, again.stderr
    assert seen(folder)[-1]["pids"] == [1, seen(folder)[-1]["me"]]


def test_a_program_that_exits_leaves_nothing(seat):
    warm, program, folder = seat
    assert turn(warm, program, "tmp").returncode == 0
    assert turn(warm, program, "leave").returncode == 0
    assert seat_processes(SANDBOX.uid) == []
    last = turn(warm, program)
    assert last.returncode == 0
    runs = seen(folder)
    assert runs[0]["tmp"] == runs[1]["tmp"] == runs[2]["tmp"]    # its /tmp file is gone
    assert runs[2]["pids"] == [1, runs[2]["me"]]


def test_a_turn_out_of_time_is_killed_with_all_it_started_and_the_sandbox_goes_on(seat):
    warm, program, folder = seat
    result = turn(warm, program, "slow", limit=0.5)
    assert result.timed_out and result.elapsed < 5
    assert seat_processes(SANDBOX.uid) == []
    assert turn(warm, program).returncode == 0


def test_a_cancelled_run_never_starts_and_the_next_one_does(seat):
    warm, program, folder = seat
    warm.argv = [PY, str(program)]
    warm.prepare(SANDBOX.with_cpu(2)).cancel()
    assert not (folder / "SEEN").exists()
    assert turn(warm, program).returncode == 0 and len(seen(folder)) == 1


def test_closing_the_seat_ends_its_sandbox(seat):
    warm, program, folder = seat
    launcher = psutil.Process(warm.proc.pid).children()[0]
    turn(warm, program)
    warm.close()
    assert not warm.alive
    psutil.wait_procs([launcher], timeout=5)
    assert not launcher.is_running()


COUNTER = textwrap.dedent("""\
    import os, sys, time
    count = int(open("STATE.DAT").read()) if os.path.exists("STATE.DAT") else 0
    open("STATE.DAT", "w").write(str(count + 1))
    open("OUT.TXT", "w").write(open("IN.TXT").read().strip() + f" {count + 1}\\n")
    if os.fork() == 0:                       # a leftover that would spoil the next turn
        os.setsid()
        time.sleep(0.3)
        open("STATE.DAT", "w").write("999")
        open("OUT.TXT", "w").write("stale\\n")
""")


def test_a_seat_keeps_one_warm_sandbox_and_its_state_file_as_before(tmp_path):
    from runner.program_seats import FileProtocol, ProgramsTurn, RunEachTurnSeat
    from runner.seats import SeatInfo
    files = FileProtocol(inputs=lambda state, seat: {"IN.TXT": f"{state}\n"}, output="OUT.TXT",
                         parse=lambda text: text.strip(), kept=("STATE.DAT",))
    program = tmp_path / "counter.py"
    program.write_text(COUNTER)
    (tmp_path / "seat").mkdir()
    (tmp_path / "seat" / SEAT_MARKER).write_text("")        # as a match makes it
    seat = RunEachTurnSeat("ext:counter", f"{PY} {program}", files)
    seat.start(SeatInfo(None, {}, 0, 1, 1, str(tmp_path / "seat")), "s0")
    try:
        answers, launchers = [], set()
        for number in range(4):
            if number % 2:
                answer = seat.ask(f"turn{number}", 0, 2.0)
            else:
                turn_ = ProgramsTurn({0: seat}, f"turn{number}", {0: 2.0})
                assert turn_.staged == {0}
                answer = turn_.run()[0]
            assert answer.failure is None, answer.detail
            answers.append(answer.text)
            launchers.add(seat._warm.proc.pid)
            time.sleep(0.5)                  # the leftover would have written by now
        assert answers == ["turn0 1", "turn1 2", "turn2 3", "turn3 4"]
        assert len(launchers) == 1 and seat._warm.alive
        assert (seat.folder / "STATE.DAT").read_text() == "4"
    finally:
        seat.close()


def test_a_program_starts_with_the_signals_a_shell_would_give_it(seat):
    """The launcher is Python, which ignores SIGPIPE and SIGXFSZ; its programs must not
    (a program past its file size limit is killed, as in a sandbox of its own)."""
    warm, program, folder = seat
    warm.close()
    shell = shutil.which("sh")
    warm = WarmSandbox([shell, "-c", "exec grep SigIgn /proc/self/status"], folder, SANDBOX)
    try:
        result = warm.prepare(SANDBOX.with_cpu(5)).run(5.0)
    finally:
        warm.close()
    assert result.returncode == 0, result.stderr
    ignored = int(result.stdout.split()[-1], 16)
    assert ignored & (1 << (signal.SIGPIPE - 1) | 1 << (signal.SIGXFSZ - 1)) == 0, result.stdout


def test_every_run_starts_with_its_limits_uid_and_no_capability_even_at_once(seat):
    """Each run's process is made ready (its limits, the seat's uid, no capability, no
    new privilege) before it may pass its gate: opened the moment it is asked for, a
    run of a shell that a program's own children would inherit from still has them
    all (the launcher once set the limits a moment after the program had started)."""
    warm, program, folder = seat
    warm.close()
    shell = shutil.which("sh")
    script = "cat /proc/self/limits; grep -E '^(Uid|CapEff|CapBnd|NoNewPrivs)' /proc/self/status"
    warm = WarmSandbox([shell, "-c", script], folder, SANDBOX)
    limits = SANDBOX.with_cpu(5)
    try:
        for _ in range(12):
            result = warm.prepare(limits).run(5.0)       # its gate opens at once
            assert result.returncode == 0, result.stderr
            said = result.stdout
            assert f"Uid:\t{SANDBOX.uid}\t{SANDBOX.uid}\t{SANDBOX.uid}\t{SANDBOX.uid}" in said, said
            assert "CapEff:\t0000000000000000" in said and "CapBnd:\t0000000000000000" in said
            assert "NoNewPrivs:\t1" in said, said
            processes = next(line for line in said.splitlines() if line.startswith("Max processes"))
            address = next(line for line in said.splitlines() if line.startswith("Max address space"))
            assert processes.split()[2:4] == [str(limits.limits.processes)] * 2, processes
            assert address.split()[3:5] == [str(limits.limits.memory_mb << 20)] * 2, address
    finally:
        warm.close()
