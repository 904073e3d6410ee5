"""The organizer's pool of worker processes: starting it (:func:`local_executor`), the
temporary folders killed runs left (:func:`remove_stale_scratch`), and stopping it whole
(:func:`request_stop`, :func:`_stop_pool`, SIGTERM as Ctrl-C: :func:`_stop_on_sigterm`)."""
from __future__ import annotations

import concurrent.futures as cf
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path


#: How a worker's temporary match folder is named: the prefix, the worker's pid, the match.
SCRATCH_PREFIX = "arena-w"
#: The marker naming the organizer's multiprocessing folder (``pymp-…``), by its pid.
POOL_MARKER_PREFIX = "arena-o"


def local_executor(workers: int) -> cf.Executor:
    """A pool of ``workers`` processes (each match's bots use a whole core)."""
    import multiprocessing

    from runner.tournament.worker import _worker_start     # the worker imports the pool's helpers
    context = multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn")
    pool_folder = _pool_folder()
    return cf.ProcessPoolExecutor(max_workers=workers, mp_context=context,
                                  initializer=_worker_start, initargs=(os.getpid(), pool_folder))


def _pool_folder() -> str:
    """The folder multiprocessing keeps this process's pool sockets in (``pymp-…``),
    named in a marker file so that a later run removes it if this process is killed."""
    from multiprocessing import util
    folder = util.get_temp_dir()
    try:
        marker = Path(tempfile.gettempdir()) / f"{POOL_MARKER_PREFIX}{os.getpid()}.pymp"
        marker.write_text(folder + "\n", encoding="utf-8")
        util.Finalize(None, marker.unlink, kwargs={"missing_ok": True}, exitpriority=-99)
    except OSError:
        pass
    return folder


def remove_stale_scratch(folder: str | Path | None = None) -> list[Path]:
    """Remove what killed tournaments left in the temporary folder: the match folders of
    workers that no longer run, and the pool folders of organizers that no longer run
    (a process killed with SIGKILL cleans nothing up).  Returns what was removed."""
    base = Path(folder or tempfile.gettempdir())
    removed: list[Path] = []
    for prefix, kind in ((SCRATCH_PREFIX, "match"), (POOL_MARKER_PREFIX, "pool")):
        for path in base.glob(f"{prefix}*"):
            pid = path.name[len(prefix):].split("-", 1)[0].split(".", 1)[0]
            if not pid.isdigit() or _running(int(pid)):
                continue
            if kind == "pool":
                try:
                    named = Path(path.read_text(encoding="utf-8").strip())
                except OSError:
                    continue
                if named.parent == base and named.name.startswith("pymp-"):
                    shutil.rmtree(named, ignore_errors=True)
                    removed.append(named)
                path.unlink(missing_ok=True)
            elif path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    import psutil
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _clean_after_exit(roots: list[Path], pool_folder: str, organizer: int) -> None:
    """Remove this worker's match folders and the organizer's pool folder once this
    process has ended: a forked cleaner waits for that, so the match still running on
    the main thread cannot write its folders again after they were removed."""
    me = os.getpid()
    try:
        if os.fork() != 0:
            return
    except OSError:
        return
    try:
        while os.getppid() == me:
            time.sleep(0.02)
        for root in roots:
            shutil.rmtree(root, ignore_errors=True)
        if pool_folder:
            shutil.rmtree(pool_folder, ignore_errors=True)
            marker = Path(tempfile.gettempdir()) / f"{POOL_MARKER_PREFIX}{organizer}.pymp"
            marker.unlink(missing_ok=True)
    finally:
        os._exit(0)


class TournamentStopped(KeyboardInterrupt):
    """A tournament (or one pool process's match) stopped by SIGTERM or SIGINT."""

    def __init__(self, signal_name: str = "SIGINT"):
        super().__init__(signal_name)
        self.signal_name = signal_name


#: Seconds a stopped pool's processes have to end their matches before they are killed.
STOP_GRACE = 10.0
#: How often (seconds) an event run off the main thread looks for a stop request.
STOP_POLL = 0.25
#: Why the event running in this process was asked to stop ("" while it was not): an
#: event run on a thread (``arena tournament --window``) cannot be interrupted by a
#: signal, so :func:`request_stop` leaves a note that :func:`run_event` reads.
_STOP_ASKED = [""]


def request_stop(why: str = "SIGTERM") -> None:
    """Ask the event running on another thread of this process to stop as Ctrl-C stops
    it: its matches end as aborted with their records closed, their programs killed,
    the pool shut down whole, and the next run resumes (``why``: a signal's name, or
    words said in the stop's message)."""
    _STOP_ASKED[0] = _STOP_ASKED[0] or why


def _stop_pool(executor: cf.Executor) -> None:
    """Stop a local pool's matches: each process is sent SIGTERM (its match ends as
    aborted, with its record closed and its programs killed: :func:`_stopper`), and
    one that has not ended within :data:`STOP_GRACE` seconds is killed (its programs
    die with it).  Further stop signals to this process are ignored meanwhile, so the
    pool is shut down whole (no process, pipe or semaphore is left)."""
    import signal
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, signal.SIG_IGN)
    processes = list((getattr(executor, "_processes", None) or {}).values())
    for proc in processes:
        try:
            os.kill(proc.pid, signal.SIGTERM)
        except (OSError, TypeError):
            pass

    def kill_late() -> None:
        deadline = time.monotonic() + STOP_GRACE
        for proc in processes:
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
    threading.Thread(target=kill_late, name="pool-stop", daemon=True).start()


def _stop_on_sigterm() -> None:
    """In the command line's main thread: SIGTERM stops the tournament as Ctrl-C does
    (:class:`TournamentStopped`), so that it ends cleanly rather than at once."""
    import signal
    if threading.current_thread() is not threading.main_thread():
        return

    def stop(signum, frame):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise TournamentStopped("SIGTERM")
    signal.signal(signal.SIGTERM, stop)
