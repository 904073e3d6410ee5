"""The arena itself killed with ``kill -9``: its programs die with it, double-forked
``setsid`` children included (strict: the whole PID namespace dies with bwrap; basic:
PR_SET_PDEATHSIG for the program, and the guard process of runner.process for what it
forked).  The tests look at the process table."""
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from tests.hostile.conftest import ARENA_PY, PY, ROOT, marked_processes
from waiting import wait_for

#: How long the guard (runner.process) may take to note a new orphan: it looks 20 times a second.
GUARD_LATENCY = 0.2
#: A program that double-forks a grandchild into its own session, then sleeps; every
#: process carries the marker (its first argument) so the process table shows them.
DOUBLE_FORK = ("import os, sys, time\n"
               "if os.fork() == 0:\n    os.setsid()\n"
               "    if os.fork() == 0:\n"
               "        os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(120)', sys.argv[1]])\n"
               "    os._exit(0)\n"
               "time.sleep(120)\n")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_programs_die_with_a_killed_arena(world):
    seat = world.match_dir / "seat1"
    seat.mkdir(parents=True)
    # The program and a double-forked grandchild in its own session (both levels).
    program = DOUBLE_FORK
    arena = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from runner.process import LineProcess
        from runner.sandbox import seat_sandbox
        box = seat_sandbox({{"sandbox": {world.level!r}}})
        p = LineProcess([{PY!r}, "-c", {program!r}, {world.marker!r}], cwd={str(seat)!r}, sandbox=box)
        print("started", flush=True)
        time.sleep(120)
    """)
    fake = subprocess.Popen([ARENA_PY, "-c", arena], stdout=subprocess.PIPE, text=True)
    try:
        assert fake.stdout.readline().strip() == "started"
        want = 2
        deadline = time.monotonic() + 10
        while len(marked_processes(world.marker)) < want and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(marked_processes(world.marker)) >= want
        time.sleep(GUARD_LATENCY)
    finally:
        fake.send_signal(signal.SIGKILL)
        fake.wait()
    deadline = time.monotonic() + 5
    while marked_processes(world.marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not marked_processes(world.marker)      # check_after also kills any leftover


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_kill_9_of_the_arena_mid_match_leaves_no_program(world):
    """``arena match`` (the command line, headless) killed with SIGKILL while a program
    and its double-forked ``setsid`` grandchild run: none of them is left."""
    import os
    program = world.tmp / "double_fork.py"
    program.write_text(DOUBLE_FORK)
    env = {**os.environ, "ARENA_SANDBOX": "basic"} if world.level == "basic" else dict(os.environ)
    env.pop("ARENA_SANDBOX", None) if world.level == "strict" else None
    arena = subprocess.Popen(
        [ARENA_PY, str(ROOT / "main.py"), "match", "hex", "--variant", "5x5", "--headless",
         "--option", "time_total=120", "--seat", f"ext:{PY} {program} {world.marker}",
         "--seat", "bot:1", "--out", str(world.match_dir)],
        cwd=world.tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert wait_for(lambda: len(marked_processes(world.marker)) >= 2, 30), \
            "the program and its grandchild never ran: " + arena.stderr.read1(4000).decode()
        time.sleep(GUARD_LATENCY)
    finally:
        arena.send_signal(signal.SIGKILL)
        arena.wait()
    assert wait_for(lambda: not marked_processes(world.marker), 5), \
        [p.info["cmdline"] for p in marked_processes(world.marker)]
    records = list(world.match_dir.glob("*.arena.jsonl"))
    assert records, "the partial record was not written"
    from runner.records import open_replay
    replay = open_replay(records[0])               # the cut record opens, as in the viewer
    assert replay.game == "hex"
