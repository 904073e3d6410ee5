"""A tournament leaves nothing in the temporary folder: not when it finishes, not when
its organizer is killed mid-match (its pool processes clean up as they go, and no
contestant's program is left running), and what a kill of the whole process group left
behind is removed by the next run."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil

from runner.tournament import remove_stale_scratch
from tournament_events import ROOT, leftovers, programs_of, slow_event, wait_for_match_folder

HEX = ROOT / "games" / "hex"


def start(event: Path, out: Path, temp: Path, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "TMPDIR": str(temp)}
    return subprocess.Popen([sys.executable, str(ROOT / "main.py"), "tournament", str(event),
                             "--out", str(out), "--quiet"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kwargs)


def test_a_finished_tournament_leaves_no_temporary_folders(tmp_path):
    temp = tmp_path / "tmp"
    temp.mkdir()
    process = start(slow_event(tmp_path, 0.5), tmp_path / "out", temp)
    assert process.wait(240) == 0, process.stderr.read().decode()[-2000:]
    assert leftovers(temp) == []


def test_a_killed_organizer_leaves_no_temporary_folders(tmp_path):
    temp = tmp_path / "tmp"
    temp.mkdir()
    process = start(slow_event(tmp_path), tmp_path / "out", temp, start_new_session=True)
    try:
        wait_for_match_folder(temp, process)
        deadline = time.monotonic() + 30
        while not programs_of(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert programs_of(tmp_path), "the silent program never ran"
        workers = psutil.Process(process.pid).children(recursive=True)
        process.send_signal(signal.SIGKILL)
        process.wait(30)
        psutil.wait_procs(workers, timeout=15)
        deadline = time.monotonic() + 10
        while leftovers(temp) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert leftovers(temp) == []
        assert not [w for w in workers if w.is_running() and w.status() != psutil.STATUS_ZOMBIE]
        assert not programs_of(tmp_path), "a contestant's program outlived the killed tournament"
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_the_next_run_removes_what_a_killed_process_group_left(tmp_path):
    temp = tmp_path / "tmp"
    temp.mkdir()
    process = start(slow_event(tmp_path), tmp_path / "out", temp, start_new_session=True)
    try:
        wait_for_match_folder(temp, process)
    finally:
        os.killpg(process.pid, signal.SIGKILL)       # everything at once: nobody cleans up
        process.wait(30)
    time.sleep(0.5)
    left = leftovers(temp)
    assert any(name.startswith("arena-w") for name in left), left
    assert any(name.startswith("pymp-") for name in left), left
    removed = remove_stale_scratch(temp)
    assert removed and leftovers(temp) == []
