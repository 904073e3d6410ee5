"""The arena itself killed: its programs die with it (strict: the whole namespace,
double forks included; basic: the program, through PR_SET_PDEATHSIG)."""
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from tests.hostile.conftest import PY, ROOT, marked_processes


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_programs_die_with_a_killed_arena(world):
    seat = world.match_dir / "seat1"
    seat.mkdir(parents=True)
    # strict: a double-forked grandchild in its own session; basic: the program itself.
    program = ("import os, sys, time\n"
               "if os.fork() == 0:\n    os.setsid()\n"
               "    os.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(120)', sys.argv[1]])\n"
               "time.sleep(120)\n") if world.level == "strict" else "import time; time.sleep(120)"
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
    fake = subprocess.Popen([PY, "-c", arena], stdout=subprocess.PIPE, text=True)
    try:
        assert fake.stdout.readline().strip() == "started"
        want = 2 if world.level == "strict" else 1
        deadline = time.monotonic() + 10
        while len(marked_processes(world.marker)) < want and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(marked_processes(world.marker)) >= want
    finally:
        fake.send_signal(signal.SIGKILL)
        fake.wait()
    deadline = time.monotonic() + 5
    while marked_processes(world.marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not marked_processes(world.marker)      # check_after also kills any leftover
