"""Nothing left behind: a tournament stopped by SIGTERM or Ctrl-C (SIGINT to its
process group) stops at once and cleanly, and the next run resumes it; a pool worker
killed with SIGKILL takes its sandboxes with it (bwrap included) and its temporary
folder is removed when a worker next starts; a launcher killed with SIGKILL takes its
sandbox with it even without the arena's guard (the lifeline watcher inside the strict
sandbox), also when killed in the first milliseconds of bwrap's setup."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from runner.sandbox import strict_problem
from tournament_events import ROOT, leftovers, programs_of, slow_event, wait_for_match_folder
from waiting import wait_for as wait_until

LEVELS = [pytest.param("strict", marks=pytest.mark.skipif(
              bool(strict_problem()), reason=f"no strict sandbox here: {strict_problem()}")),
          "basic"]
#: Seconds a stopped tournament may take to end (its matches' programs are killed).
STOP_SECONDS = 20
#: Seconds after which a sandbox's setup is surely over (it takes milliseconds).
SETUP_SECONDS = 0.5


def start(event: Path, out: Path, temp: Path, level: str, window: bool = False) -> subprocess.Popen:
    env = {**os.environ, "TMPDIR": str(temp), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("ARENA_SANDBOX", None)
    if level == "basic":
        env["ARENA_SANDBOX"] = "basic"
    return subprocess.Popen([sys.executable, str(ROOT / "main.py"), "tournament", str(event),
                             "--out", str(out), "--quiet", "--window" if window else "--live"],
                            cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def _alive(proc: psutil.Process) -> bool:
    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _cmdline(proc) -> list[str]:
    try:
        return proc.cmdline() if proc.status() != psutil.STATUS_ZOMBIE else []
    except psutil.Error:
        return []


def kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def results(out: Path) -> list[dict]:
    path = out / "results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.mark.parametrize("how", ["sigterm", "ctrl-c", "window-sigterm"])
def test_a_stopped_tournament_stops_cleanly_and_resumes(tmp_path, how):
    """``window-sigterm``: ``arena tournament --window`` (the event on a thread, the
    window on the main one) stopped by SIGTERM."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    event, out = slow_event(tmp_path, matches_seconds=30), tmp_path / "out"
    process = start(event, out, temp, "basic", window=how.startswith("window"))
    try:
        wait_for_match_folder(temp, process)
        assert wait_until(lambda: programs_of(tmp_path), 30), "the silent program never ran"
        started = time.monotonic()
        if how in ("sigterm", "window-sigterm"):
            process.send_signal(signal.SIGTERM)
        else:
            os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=STOP_SECONDS + 10)
        took = time.monotonic() - started
    finally:
        kill_group(process)
    err = err.decode("utf-8", "replace")
    assert took < STOP_SECONDS, took
    assert process.returncode != 0
    assert "stopped" in err and "Traceback" not in err and "leaked" not in err, err[-3000:]
    assert wait_until(lambda: not programs_of(tmp_path), 5), "a program outlived the stop"
    assert wait_until(lambda: leftovers(temp) == [], 5), leftovers(temp)
    assert results(out) == []                # the unfinished matches are not counted
    assert_closed_and_resumable(tmp_path, out, temp)


def assert_closed_and_resumable(tmp_path: Path, out: Path, temp: Path) -> None:
    """The live records of the stopped matches end with an aborted result, and the next
    run plays the event to its end."""
    records = list((out / "live").glob("*.arena.jsonl"))
    assert records, list(out.rglob("*"))
    for record in records:
        last = json.loads(record.read_text().splitlines()[-1])
        assert last["type"] == "result" and last["reason"] == "aborted", last
    # The next run plays the event to its end.
    fast = slow_event(tmp_path, matches_seconds=0.5)
    again = subprocess.run([sys.executable, str(ROOT / "main.py"), "tournament", str(fast),
                            "--out", str(out), "--quiet"], cwd=ROOT, capture_output=True,
                           text=True, timeout=240, env={**os.environ, "TMPDIR": str(temp),
                                                        "ARENA_SANDBOX": "basic"})
    assert again.returncode == 0, again.stderr[-3000:]
    assert len(results(out)) == 3


def worker_of(program: psutil.Process, temp: Path) -> psutil.Process:
    """The pool process the program runs under: the first on its way up that has a
    temporary match folder (``arena-wPID-…``; pool processes are the forkserver's
    children, not the organizer's)."""
    proc = program
    while not list(temp.glob(f"arena-w{proc.pid}-*")):
        proc = psutil.Process(proc.ppid())
        assert proc.pid > 1, "no pool process above the program"
    return proc


@pytest.mark.parametrize("level", LEVELS)
def test_a_killed_worker_leaves_no_sandbox_and_its_folder_is_removed(tmp_path, level):
    temp = tmp_path / "tmp"
    temp.mkdir()
    event, out = slow_event(tmp_path, matches_seconds=60), tmp_path / "out"
    process = start(event, out, temp, level)
    try:
        wait_for_match_folder(temp, process)
        assert wait_until(lambda: programs_of(tmp_path), 30), "the silent program never ran"
        program = programs_of(tmp_path)[0]
        worker = worker_of(program, temp)
        folders = [p for p in temp.glob(f"arena-w{worker.pid}-*")]
        assert folders, leftovers(temp)
        below = worker.children(recursive=True)         # bwrap (strict), the program ...
        assert program in below
        worker.kill()
        assert wait_until(lambda: not [p for p in below if _alive(p)], 5), \
            [(p.pid, _cmdline(p)) for p in below if _alive(p)]
    finally:
        kill_group(process)
        process.wait(30)
    # A pool process (or a Dask worker) removes the killed one's folder as it starts:
    # the event's renewed pool may have done it already; if not, one started here does
    # (whether the pool notices a killed process at once is multiprocessing's business,
    # and it sometimes does not).
    started = subprocess.run([sys.executable, "-c", "from runner.tournament import _worker_start; "
                              "_worker_start(1)"], cwd=ROOT, env={**os.environ, "TMPDIR": str(temp)},
                             capture_output=True, text=True, timeout=60)
    assert started.returncode == 0, started.stderr
    assert not any(p.exists() for p in folders), leftovers(temp)


LAUNCHER = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {root!r})
    import runner.process_tree as process_tree
    process_tree._guard_note = lambda line: None        # no guard: the sandbox must die by itself
    from runner.process import LineProcess
    from runner.sandbox import seat_sandbox
    program = LineProcess([sys.executable, "-c", "import time; time.sleep(120)", {marker!r}],
                          cwd={folder!r}, sandbox=seat_sandbox({{"sandbox": {level!r}}}))
    print("started", flush=True)
    time.sleep(120)
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
@pytest.mark.parametrize("level", LEVELS)
def test_a_launcher_killed_with_sigkill_takes_its_sandbox_along(tmp_path, level):
    marker = f"launcher-{os.getpid()}-{level}"
    code = LAUNCHER.format(root=str(ROOT), marker=marker, folder=str(tmp_path), level=level)
    launcher = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)

    def marked() -> list:
        return [p for p in psutil.process_iter() if marker in " ".join(_cmdline(p))]

    def program_runs() -> bool:
        # The program itself, not only bwrap (whose command line names it too).
        return any(p.name() != "bwrap" for p in marked())
    try:
        assert launcher.stdout.readline().strip() == "started"
        assert wait_until(program_runs, 10)
        # bwrap's init in the sandbox binds itself to bwrap's life a moment after it has
        # forked the program (bubblewrap 0.8's own race, see runner.sandbox): a launcher
        # killed within that moment can leave it.  The test kills it once it is set up.
        time.sleep(SETUP_SECONDS)
    finally:
        launcher.kill()
        launcher.wait()
    left = marked()
    assert wait_until(lambda: not marked(), 5), [(p.pid, p.name()) for p in left]


RACE_LAUNCHER = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {root!r})
    import runner.process_tree as process_tree
    process_tree._guard_note = lambda line: None        # no guard: the sandbox must die by itself
    from runner.process import LineProcess
    from runner.sandbox import seat_sandbox
    sandbox = seat_sandbox({{"sandbox": "strict"}})
    print("launching", flush=True)
    program = LineProcess([sys.executable, "-c", "import time; time.sleep(120)", {marker!r}],
                          cwd={folder!r}, sandbox=sandbox)
    time.sleep(120)
""")
#: Launchers killed at these delays (ms) after they start their program.
RACE_DELAYS_MS = [i * 20 / 19 for i in range(20)]


@pytest.mark.skipif(bool(strict_problem()), reason=f"no strict sandbox here: {strict_problem()}")
def test_a_launcher_killed_in_the_first_milliseconds_leaves_no_sandbox(tmp_path):
    """bwrap binds its init in the sandbox to its own life only after its clone: a
    launcher killed right then must still take the sandbox along (the lifeline)."""
    marker = f"race-{os.getpid()}"
    code = RACE_LAUNCHER.format(root=str(ROOT), marker=marker, folder=str(tmp_path))

    def marked() -> list:
        return [p for p in psutil.process_iter() if marker in " ".join(_cmdline(p))]
    try:
        for delay in RACE_DELAYS_MS:
            launcher = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                                        text=True)
            assert launcher.stdout.readline().strip() == "launching"
            time.sleep(delay / 1000)
            launcher.kill()
            launcher.wait()
        assert wait_until(lambda: not marked(), 5), [(p.pid, p.name(), p.ppid()) for p in marked()]
    finally:
        for proc in marked():
            try:
                proc.kill()
            except psutil.Error:
                pass


def test_closing_the_tournament_window_stops_the_event_cleanly(tmp_path, monkeypatch):
    """``arena tournament --window``: closing the window (:meth:`ShowStandings.stop`, as
    main.py calls it) stops the event on its thread: the command ends with a stop, its
    programs are killed, the unfinished matches' records are closed, the next run resumes."""
    import argparse
    from runner import tournament
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setenv("ARENA_SANDBOX", "basic")
    stop_asked = tournament.pool._STOP_ASKED        # the note the organizer reads (one list)
    stop_asked[0] = ""
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)
    event, out = slow_event(tmp_path, matches_seconds=30), tmp_path / "out"
    args = argparse.Namespace(event=str(event), out=str(out), window=True, project=False,
                              quiet=True, workers=None, cluster=None, live=False)
    shown = tournament.cmd_tournament(args)
    try:
        assert wait_until(lambda: programs_of(tmp_path), 60), "the silent program never ran"
        started = time.monotonic()
        shown.stop("the window was closed")
        code = shown.finish()
        took = time.monotonic() - started
    finally:
        tournament.request_stop("test over")
        if shown.thread is not None:
            shown.thread.join(STOP_SECONDS + 10)
        stop_asked[0] = ""                          # no stop left over for a later event
    assert took < STOP_SECONDS, took
    assert code == 128 + signal.SIGINT and "stopped" in shown.outcome.get("error", ""), shown.outcome
    assert wait_until(lambda: not programs_of(tmp_path), 5), "a program outlived the stop"
    assert results(out) == []
    assert_closed_and_resumable(tmp_path, out, temp)


def test_a_dask_worker_stopped_by_sigterm_ends_its_match(tmp_path, monkeypatch):
    """A Dask worker process (its loop on its main thread) sent SIGTERM mid-match stops
    the match as a pool process does: its programs are killed, its temporary folder is
    removed, and the process ends."""
    distributed = pytest.importorskip("distributed")
    from runner.tournament import Plan, load_event, play_match, task_for
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setenv("ARENA_SANDBOX", "basic")
    event = load_event(slow_event(tmp_path, matches_seconds=60), tmp_path / "out")
    plan = Plan(event)
    pairing = next(p for p in plan.pairings({}) if not p.bye)
    task = task_for(event, plan, pairing, True, None)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        future = client.submit(play_match, task, pure=False)
        assert wait_until(lambda: programs_of(tmp_path), 60), "the silent program never ran"
        program = programs_of(tmp_path)[0]
        worker = worker_of(program, temp)
        folders = list(temp.glob(f"arena-w{worker.pid}-*"))
        worker.send_signal(signal.SIGTERM)
        assert wait_until(lambda: not _alive(worker), STOP_SECONDS), "the worker did not end"
        assert wait_until(lambda: not programs_of(tmp_path), 5), "a program outlived the stop"
        assert not any(p.exists() for p in folders), leftovers(temp)
        future.cancel()
