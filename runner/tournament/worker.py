"""One match on a worker (a local pool process, a Dask worker on another machine): the task
that carries everything it needs (:func:`task_for`), playing it in a temporary folder
(:func:`play_match`), and the worker process's own life: ending with the organizer and a
stop signal stopping its match cleanly (:func:`_worker_start`, :func:`_stopper`)."""
from __future__ import annotations

import os
import shlex
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

from games.api import Termination
from runner.seats import Answer, Seat
from runner.tournament.event import Event, EventError
from runner.tournament.plan import Pairing, Plan
from runner.tournament.pool import (SCRATCH_PREFIX, TournamentStopped, _clean_after_exit, _running,
                                    remove_stale_scratch)


class BrokenSeat(Seat):
    """A contestant that cannot start: every answer is a crash with the reason, so the
    game's rules score it (a forfeit, or Robot's robot staying in place)."""

    kind = "ext"

    def __init__(self, spec: str, reason: str):
        super().__init__(spec, f"cannot start ({spec})")
        self.reason = reason

    def ask(self, state, seat, time_limit):
        return Answer(failure=Termination.CRASH, detail=f"cannot start: {self.reason}")


def task_for(event: Event, plan: Plan, pairing: Pairing, ship: bool,
             live: Path | None = None) -> dict:
    """Everything a worker needs to play one match (plain data, picklable)."""
    seats = []
    files: dict[str, tuple[bytes, int]] = {}
    for s in pairing.seats:
        c = event.contestants[s]
        seats.append({"name": c.name, "spec": c.seat, "error": c.error})
        if ship and not c.error:
            for path in c.files:
                try:
                    files[path] = (Path(path).read_bytes(), os.stat(path).st_mode & 0o777)
                except OSError as exc:
                    seats[-1]["error"] = f"{path}: {exc.strerror or exc}"
    return {"id": pairing.id, "game": event.game, "variant": event.variant,
            "options": plan.options(pairing.group), "seats": seats, "seed": pairing.seed,
            "per_move": event.per_move, "total": event.total, "limits": event.limits,
            "files": files, "live": str(live) if live else None}


def play_match(task: Mapping[str, Any]) -> dict:
    """Play one match in a temporary folder and hand back its outcome and files.

    Runs on any worker (a local process, a Dask worker on another machine): the
    programs' files come in the task and are written under the temporary folder, and
    the commands are pointed at those copies.
    """
    from runner.build import MatchPlan, build_match
    from runner.match import TimeControl
    from runner.process import split_command
    from runner.seats import parse_seat_spec

    started = time.perf_counter()
    _first_task_here()
    root = Path(tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-{task['id']}-"))
    root.chmod(0o711)       # the basic sandbox's own uids reach their seat folders (0700)
    _SCRATCH.add(root)
    try:
        _STATE[0] = _PLAYING     # a stop signal stops the match (see _stop_match)
        shipped = {}
        for path, (data, mode) in (task.get("files") or {}).items():
            if ".." in Path(path).parts:
                raise EventError(f"a shipped file's path must be plain: {path}")
            target = root / "ship" / path.lstrip("/\\").replace(":", "")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            os.chmod(target, mode or 0o644)
            shipped[path] = str(target)
        limits = dict(task.get("limits") or {})
        if shipped:                    # the sandbox shows a program its shipped files
            limits["read_only"] = [*limits.get("read_only", ()), str(root / "ship")]
        if task.get("per_move"):
            limits.setdefault("time", task["per_move"])
        names = [s["name"] for s in task["seats"]]
        specs = [s["spec"] for s in task["seats"]]
        if shipped:                    # the commands run the shipped copies
            for index, spec in enumerate(specs):
                kind, arg = parse_seat_spec(spec)
                if kind not in ("bot", "human") and arg:
                    specs[index] = f"{kind}:" + shlex.join(shipped.get(w, w) for w in split_command(arg))
        time_control = (TimeControl(task.get("per_move"), task.get("total"))
                        if task.get("per_move") or task.get("total") else None)
        out = root / "out"
        record = _live_record(task) or out / f"{task['id']}.arena.jsonl"
        plan = MatchPlan(task["game"], specs, task["seed"], task["options"], whole_options=True,
                         variant=task.get("variant"), limits=limits, labels=names,
                         broken=[s.get("error") or "" for s in task["seats"]], time_control=time_control)
        match = build_match(plan, record_path=record, workdir=root / "work", out_dir=out,
                            unstartable=BrokenSeat)
        _CURRENT[0] = match
        if _STOPPING.is_set():       # told to stop while the match was being set up
            raise TournamentStopped("SIGTERM")
        with _following_pace(match, task):
            outcome = match.run()
        failures = _failures(match, names, [s.get("error", "") for s in task["seats"]])
        files = {str(p.relative_to(out)): p.read_bytes()
                 for p in sorted(out.rglob("*")) if p.is_file()}
        if record.parent != out:
            files[record.name] = record.read_bytes()
        return {"id": task["id"], "outcome": outcome.to_json(),
                "result": outcome.result_text(names), "turns": len(match.turns),
                "failures": failures, "error": match.error, "files": files,
                "elapsed": round(time.perf_counter() - started, 3), "host": socket.gethostname()}
    finally:
        _STATE[0], _CURRENT[0] = _CLEANING, None     # a stop now waits for the folder's removal
        shutil.rmtree(root, ignore_errors=True)
        _SCRATCH.discard(root)
        _STATE[0] = _IDLE
        if _STOPPING.is_set():
            os._exit(0)      # a stopped pool process plays no more (its pool waits for it to end)


def _live_record(task: Mapping[str, Any]) -> Path | None:
    """``live/ID.arena.jsonl`` in the event folder when the event is followed live (the
    record is flushed per turn, so a projection can read it); None when not asked for
    or when the folder cannot be written from here."""
    if not task.get("live"):
        return None
    folder = Path(task["live"])
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder / f"{task['id']}.arena.jsonl" if os.access(folder, os.W_OK) else None


class _following_pace:
    """While a live match runs: play it at the pace in ``live/pace.json``, looked at a few
    times a second, so a projection (here or on another machine) can slow it down or
    speed it up.  Tournaments have no human seats, so every match is paced."""

    EVERY = 0.3

    def __init__(self, match, task: Mapping[str, Any]):
        self.match, self.folder = match, Path(task["live"]).parent if task.get("live") else None
        self.done = threading.Event()
        self.thread: threading.Thread | None = None

    def __enter__(self):
        if self.folder is not None:
            self._apply()
            self.thread = threading.Thread(target=self._watch, name="pace", daemon=True)
            self.thread.start()
        return self

    def _apply(self) -> None:
        from runner.live import read_pace
        pace = read_pace(self.folder)
        if pace is not None:
            self.match.set_pace(pace if pace > 0 else None)

    def _watch(self) -> None:
        while not self.done.wait(self.EVERY):
            self._apply()

    def __exit__(self, *exc):
        self.done.set()
        if self.thread is not None:
            self.thread.join(1.0)
        return False


def _failures(match, names: Sequence[str], errors: Sequence[str]) -> list[dict]:
    """Per seat that misbehaved: how often, the first reason (crash, time-out ...) with
    its turn and detail, and how often each reason came."""
    found: dict[int, dict] = {}
    for seat, error in enumerate(errors):
        if error:
            found[seat] = {"seat": seat, "name": names[seat], "count": 0, "turn": 0,
                           "reason": "crash", "detail": f"cannot start: {error}", "reasons": {}}
    for info in match.turns:
        for seat, answer in info.answers.items():
            seat = int(seat)
            reason = answer.get("failure")
            if reason:
                entry = found.setdefault(seat, {"seat": seat, "name": names[seat], "count": 0,
                                                "turn": info.number, "reason": reason,
                                                "detail": answer.get("detail", "")})
                entry["count"] += 1
                entry.setdefault("reasons", {})
                entry["reasons"][reason] = entry["reasons"].get(reason, 0) + 1
    return [found[s] for s in sorted(found)]


#: This process's temporary match folders still in use (removed if the organizer dies).
_SCRATCH: set[Path] = set()


#: What this process does now (a stop signal stops its match, waits for a cleanup, or
#: ends an idle process: see :func:`_stopper`), the match it plays, and whether it has
#: been told to stop.
_IDLE, _PLAYING, _CLEANING = "idle", "playing", "cleaning"
_STATE = [_IDLE]
_CURRENT: list = [None]
_STOPPING = threading.Event()
_TIDIED = False


def _first_task_here() -> None:
    """Once per process that plays matches (a pool process, a Dask worker): remove the
    temporary match folders of workers that no longer run (one killed with SIGKILL
    cleans nothing up)."""
    global _TIDIED
    if not _TIDIED:
        _TIDIED = True
        try:
            remove_stale_scratch()
        except OSError:
            pass
        _stop_signals_in_dask_worker()


def _stop_signals_in_dask_worker() -> None:
    """In a Dask worker process (its event loop on the main thread, as ``dask worker``
    runs it): a stop signal (SIGTERM, SIGINT) stops its match as a pool process's does
    (:func:`_listen_for_stop_signals`): aborted, programs killed, folder removed, then
    the process ends (its scheduler gives the match to another worker).  A worker whose
    loop runs on another thread (an in-process cluster) keeps Dask's own handling."""
    try:
        from distributed import get_worker
        worker = get_worker()
    except Exception:           # not in a Dask worker (or no Dask)
        return
    if threading.current_thread() is threading.main_thread():
        _listen_for_stop_signals()
        return
    installed = threading.Event()

    def install() -> None:
        if threading.current_thread() is threading.main_thread():
            _listen_for_stop_signals()
        installed.set()
    try:
        worker.loop.add_callback(install)
    except Exception:
        return
    installed.wait(5)


def _listen_for_stop_signals() -> None:
    """In the main thread: SIGTERM and SIGINT are written down on a pipe, which the
    :func:`_stopper` thread reads."""
    import signal
    read_fd, write_fd = os.pipe()

    def note_stop(signum, frame) -> None:
        try:
            os.write(write_fd, b"!")
        except OSError:
            pass
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, note_stop)
    threading.Thread(target=_stopper, args=(read_fd,), name="stopper", daemon=True).start()


def _stopper(read_fd: int) -> None:
    """A pool process's thread that acts on a stop signal (SIGTERM, or Ctrl-C's SIGINT to
    the process group), which the handler only writes down on ``read_fd``'s pipe (a
    signal handler may run anywhere, even inside a fork's bookkeeping).  While a match
    plays, it stops it (:meth:`runner.match.Match.stop`): the match ends as aborted,
    its record is closed, its programs are killed, its folder is removed, and the
    process then ends (:func:`play_match`).  While a match's folder is being removed,
    the process ends after it; idle, it ends at once (a pool that terminates its
    processes, as a broken one does, waits for them to end)."""
    try:
        os.read(read_fd, 1)
    except OSError:
        return
    _STOPPING.set()
    match = _CURRENT[0]
    if match is not None:
        match.stop()
    elif _STATE[0] == _IDLE:
        os._exit(0)


def _worker_start(organizer: int, pool_folder: str = "") -> None:
    """A pool process ends with the organizer (and takes its programs with it), so a
    killed arena leaves nothing running, and removes its temporary match folders and
    the organizer's pool folder, so it leaves nothing in the temporary folder either.
    As it starts it removes what killed workers left (:func:`_first_task_here`), and a
    stop signal (SIGTERM, or Ctrl-C's SIGINT to the process group) stops its match
    cleanly instead of killing it mid-turn (:func:`_stopper`)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    _listen_for_stop_signals()
    _first_task_here()

    def watch() -> None:
        import psutil
        while True:
            time.sleep(0.5)
            if not _running(organizer):
                for child in psutil.Process().children(recursive=True):
                    try:
                        child.kill()
                    except psutil.Error:
                        pass
                _clean_after_exit(list(_SCRATCH), pool_folder, organizer)
                os._exit(1)

    threading.Thread(target=watch, name="organizer-watch", daemon=True).start()
