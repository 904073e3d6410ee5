"""The guard kills the process groups of the programs the arena names, and never the
arena's own group (which may be its terminal's), whatever it is told."""
import os
import signal
import subprocess
import sys
import textwrap
import time

from runner.process_tree import GUARD_PROGRAM

ARENA = textwrap.dedent("""
    import subprocess, sys, time
    guard = subprocess.Popen([sys.executable, sys.argv[1], str(__import__("os").getpid())],
                             stdin=subprocess.PIPE)
    # In the arena's own process group but not its child (the guard takes the arena's
    # children along by design): a shell's background job, the shell gone.
    mate = subprocess.run(["sh", "-c", "sleep 60 >/dev/null 2>&1 & echo $!"],
                          capture_output=True, text=True).stdout.split()[0]
    program = subprocess.Popen(["sleep", "60"], start_new_session=True)
    print(mate, program.pid, flush=True)
    guard.stdin.write(f"+{__import__('os').getpgid(0)}\\n+{program.pid}\\n".encode())
    guard.stdin.flush()
    time.sleep(0.5)
    __import__("os")._exit(0)                          # the arena dies; the pipe closes
""")


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def test_the_guard_kills_a_named_programs_group_but_never_the_arenas_own():
    arena = subprocess.Popen([sys.executable, "-c", ARENA, str(GUARD_PROGRAM)],
                             stdout=subprocess.PIPE, text=True, start_new_session=True)
    mate, program = (int(word) for word in arena.stdout.readline().split())
    try:
        arena.wait(timeout=30)
        deadline = time.monotonic() + 20
        while alive(program) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(program), "the named program's group outlived the arena"
        time.sleep(0.3)
        assert alive(mate), "the guard killed the arena's own process group"
    finally:
        for pid in (mate, program):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
