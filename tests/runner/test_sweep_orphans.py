"""runner.process.sweep_orphans on Linux, the arena being the programs' child subreaper:
a live orphan is killed, a dead one (a zombie, as the strict level's bwrap leaves one or
two on every run) is reaped at once, without psutil's walk of the process table (which
once cost 16-20 ms of every Robot turn in the strict level after a basic-level match)."""
import os
import subprocess
import sys
import time

import psutil
import pytest

from runner import process
from runner.sandbox import become_subreaper, is_subreaper

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux subreaper")


def orphan(script: str) -> int:
    """The pid of a process in a session of its own whose parent has exited: adopted by
    the arena (its main thread; these tests run on it)."""
    become_subreaper()
    assert is_subreaper()
    out = subprocess.run(["sh", "-c", f"setsid sh -c '{script}' </dev/null >/dev/null 2>&1 & echo $!"],
                         capture_output=True, text=True, check=True).stdout
    pid, deadline = int(out.split()[0]), time.monotonic() + 5
    while time.monotonic() < deadline:      # until it runs in its own session
        try:
            if process._state_and_session(pid)[1] != os.getsid(0):
                break
        except ProcessLookupError:
            break
        time.sleep(0.005)
    return pid


def state_of(pid: int) -> str | None:
    try:
        return process._state_and_session(pid)[0]
    except ProcessLookupError:
        return None


def zombie_orphan() -> int:
    """An orphan that has exited and is not reaped yet.  Another sweep of this process
    (a seat's starter thread of an earlier test, finishing) may reap one first: then
    another is made, three times at most."""
    for _ in range(3):
        pid = orphan("exit 0")
        deadline = time.monotonic() + 5
        while state_of(pid) not in ("Z", None) and time.monotonic() < deadline:
            time.sleep(0.005)
        if state_of(pid) == "Z":
            return pid
    raise AssertionError("every orphan was reaped by someone else before the sweep")


def test_a_dead_orphan_is_reaped_without_walking_the_process_table(monkeypatch):
    pid = zombie_orphan()

    def no_walk(self, recursive=False):
        raise AssertionError("a zombie's tree was walked")
    monkeypatch.setattr(psutil.Process, "children", no_walk)
    process.sweep_orphans()
    assert state_of(pid) is None             # reaped: its pid entry is gone


def test_a_live_orphan_is_killed_and_reaped():
    pid = orphan("sleep 30")
    assert state_of(pid) not in (None, "Z")  # alive: sleeping, running, or in a disk wait ("D")
    assert process._state_and_session(pid)[1] != os.getsid(0)
    process.sweep_orphans()
    assert state_of(pid) is None


def test_a_child_of_the_arenas_own_session_is_left_alone():
    """Only processes in a session of their own are programs' orphans."""
    become_subreaper()
    child = subprocess.Popen(["sleep", "30"])
    try:
        process.sweep_orphans()
        assert child.poll() is None
    finally:
        child.kill()
        child.wait()
