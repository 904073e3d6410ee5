"""run_once waits on the program's exit without polling (a pidfd on Linux)."""
import subprocess
import sys
import time

from runner.process import _wait_for_exit, run_once

PY = sys.executable


def test_wait_returns_when_the_program_exits_and_on_time_out():
    proc = subprocess.Popen([PY, "-c", "import time; time.sleep(0.3)"])
    start = time.perf_counter()
    assert _wait_for_exit(proc, 5.0)
    assert proc.returncode == 0 and time.perf_counter() - start < 3.0
    proc = subprocess.Popen([PY, "-c", "import time; time.sleep(30)"])
    start = time.perf_counter()
    assert not _wait_for_exit(proc, 0.2)
    assert 0.15 < time.perf_counter() - start < 2.0
    proc.kill()
    proc.wait()




def test_run_once_times_out_and_reports_the_exit():
    result = run_once([PY, "-c", "import time; time.sleep(30)"], None, 0.3)
    assert result.timed_out and result.elapsed < 2.0
    result = run_once([PY, "-c", "raise SystemExit(3)"], None, 5.0)
    assert not result.timed_out and result.returncode == 3
