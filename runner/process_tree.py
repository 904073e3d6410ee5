"""Process trees: the programs the arena started (registered while they live), the
kill of a program's whole tree, the sweep of the orphans it left (the arena being their
child subreaper), and the guard (:mod:`runner.guard`) that kills them if the arena
itself is killed.  Part of :mod:`runner.process`; nothing here imports pygame.
"""
from __future__ import annotations

import atexit
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Sequence

import psutil

from runner import seat_limits
from runner.sandbox import Sandbox, lifeline

#: Live programs the arena started (killed at exit, and told apart from adopted orphans).
_LIVE: dict[int, subprocess.Popen] = {}
_LIVE_LOCK = threading.Lock()


def kill_tree(pid: int, sweep: bool = True) -> None:
    """Kill a process and every descendant, including ones that left its group or session.

    In the strict sandbox the program is a PID namespace: killing its init kills every
    process in it.  Otherwise the tree is walked (psutil), its groups are signalled, and
    orphans the arena adopted as child subreaper (a double fork with ``setsid``) are swept
    (``sweep``; else the caller calls :func:`sweep_orphans` soon after).
    """
    try:
        parent = psutil.Process(pid)
        family = parent.children(recursive=True) + [parent]
    except psutil.NoSuchProcess:
        family = []
    groups = set()
    if os.name == "posix":
        for proc in family:
            try:
                groups.add(os.getpgid(proc.pid))
            except OSError:
                pass
        groups.add(pid)
        groups.discard(os.getpgid(0))
    for proc in family:
        try:
            proc.kill()
        except psutil.Error:
            pass
    for group in groups:
        try:
            os.killpg(group, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass
    if sweep:
        family += _sweep_orphans()
    wait_dead(family, timeout=2)


def wait_dead(procs: list, timeout: float) -> None:
    """Wait (up to ``timeout`` s) until each killed process has died, reaping the
    arena's own children.  A zombie that is not the arena's child is dead already and is
    not waited on: its parent reaps it when it will (the strict sandbox's killed programs
    are reparented to a PID 1 that may not reap for seconds; psutil.wait_procs waited
    out its whole time-out on each of them, about 2 s per killed program)."""
    deadline = time.monotonic() + timeout
    pending, pause = list(procs), 0.0005
    while pending:
        pending = [proc for proc in pending if _still_running(proc)]
        if not pending or time.monotonic() >= deadline:
            return
        time.sleep(pause)
        pause = min(pause * 2, 0.02)


def _still_running(proc: psutil.Process) -> bool:
    """Whether a killed process has not died yet; the arena's own child is reaped
    when it has."""
    try:
        if proc.ppid() == os.getpid():
            try:
                proc.wait(timeout=0)
                return False
            except psutil.TimeoutExpired:
                return True
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:                # gone (NoSuchProcess) or not ours to look at
        return False


def sweep_orphans() -> None:
    """Kill and reap the programs' adopted orphans (see :func:`kill_tree`)."""
    swept = _sweep_orphans()
    if swept:
        wait_dead(swept, timeout=2)


def _sweep_orphans() -> list:
    """Adopted orphans of programs (basic level, Linux): the arena's own children that it
    did not start as programs and that are in a session of their own.  The live ones
    are killed with everything below them and returned (the caller waits for them);
    the dead ones (zombies) are reaped here at once.

    A zombie needs no kill and no walk of its tree: when it died its children were
    adopted by the arena too, so they are among the children found here (or, when
    adopted later, at the next sweep).  Telling it apart costs one read of its
    ``/proc`` entry; psutil's walk of the process table costs milliseconds for each,
    and the strict level's ``bwrap`` leaves one or two per run when the arena became a
    subreaper for a basic-level match earlier."""
    from runner.sandbox import is_subreaper
    if not is_subreaper():
        return []
    swept = []
    try:
        my_session = os.getsid(0)
        with _LIVE_LOCK:
            known = set(_LIVE) | ({_GUARD.pid} if _GUARD is not None else set())
            for child in _own_children(known):
                try:
                    state, session = _state_and_session(child.pid)
                    if session == my_session:
                        continue
                    if state == "Z" and _reaped(child.pid):
                        continue
                    for proc in child.children(recursive=True) + [child]:
                        proc.kill()
                        swept.append(proc)
                except (psutil.Error, OSError):
                    pass
    except psutil.Error:
        pass
    return swept


def _state_and_session(pid: int) -> tuple[str, int]:
    """A process's state letter ("Z": a zombie) and session id, from ``/proc`` when it
    is there (one read), else from psutil and ``getsid``."""
    try:
        fields = _proc_stat(pid)
    except FileNotFoundError:
        if os.path.isdir("/proc/self"):
            raise ProcessLookupError(pid) from None
        status = psutil.Process(pid).status()
        return ("Z" if status == psutil.STATUS_ZOMBIE else "R"), os.getsid(pid)
    return fields[0].decode("ascii", "replace"), int(fields[3])


def _proc_stat(pid: int | str) -> list[bytes]:
    """The fields of ``/proc/PID/stat`` after the command's name: state, ppid, pgrp,
    session, ... (the name, in parentheses, may hold spaces)."""
    with open(f"/proc/{pid}/stat", "rb") as fh:
        data = fh.read()
    return data[data.rfind(b")") + 2:].split()


#: The kernel's flag for a process that has begun to exit (``PF_EXITING``): it never
#: runs its own code again.
PF_EXITING = 0x4


def _exiting(pid: int) -> bool:
    """Whether process ``pid`` is gone or has begun to exit (``/proc/PID/stat`` flags)."""
    try:
        return bool(int(_proc_stat(pid)[6]) & PF_EXITING)
    except FileNotFoundError:
        return True
    except (OSError, ValueError, IndexError):
        return False


def _holds_lifeline(pid: int) -> bool:
    """Whether process ``pid`` holds the arena's lifeline (:func:`runner.sandbox.lifeline`):
    the strict sandbox's watcher does; the program closed it before it started."""
    pipe = f"pipe:[{os.fstat(lifeline()).st_ino}]"
    try:
        return any(os.readlink(f"/proc/{pid}/fd/{fd}") == pipe for fd in os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return False


def _reaped(pid: int) -> bool:
    """Reap the arena's own dead child ``pid``; False when it is not dead yet."""
    try:
        return os.waitpid(pid, os.WNOHANG)[0] == pid
    except ChildProcessError:
        return True                       # someone else reaped it: nothing is left


def _own_children(skip: set[int] = frozenset()) -> list:
    """The arena's own child processes but those in ``skip``, found fast: it runs on
    every turn of a program.  Linux: the main thread's children file, where orphans
    are adopted (:func:`_children_of_main_thread`), or every thread's
    (``/proc/self/task/*/children``) when the main thread is gone, else one read of
    each ``/proc/N/stat`` (half of psutil's cost); elsewhere psutil.  Only the
    children not skipped are looked at with psutil (usually none)."""
    if not os.path.isdir("/proc/self/task"):
        return [child for child in psutil.Process().children() if child.pid not in skip]
    try:
        pids = _children_of_main_thread()
        if pids is None:
            pids = _children_from_tasks()
    except OSError:
        pids = _children_from_stat()
    children = []
    for pid in sorted(pids - skip):
        try:
            children.append(psutil.Process(pid))
        except psutil.Error:
            pass
    return children


def _children_of_main_thread() -> set[int] | None:
    """The children of the arena's main thread, or None when that thread is not alive.

    Linux re-parents an orphan to the first live thread of its child subreaper, which
    is the main thread while it lives (kernel ``find_new_reaper`` ->
    ``find_alive_thread``), so every orphan the sweep looks for is listed in that one
    thread's children file: one read instead of one per thread (a few dozen while
    programs run: 0.4 ms of the judge's path each turn).  The programs themselves,
    started on other threads, are listed in theirs and are never orphans."""
    main = threading.main_thread()
    if not main.is_alive() or main.native_id != os.getpid():
        return None
    return _task_children("self", main.native_id)


def _children_from_tasks() -> set[int]:
    pids: set[int] = set()
    for task in os.listdir("/proc/self/task"):
        pids |= _task_children("self", task)
    return pids


def _task_children(pid: int | str, task: int | str) -> set[int]:
    """The pids of the children a process's thread (``task``) started (Linux; a
    process's own children are its main thread's: ``task`` = ``pid``)."""
    with open(f"/proc/{pid}/task/{task}/children", "rb") as fh:
        return {int(word) for word in fh.read().split()}


def _children_from_stat() -> set[int]:
    me, pids = os.getpid(), set()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            if int(_proc_stat(name)[1]) == me:
                pids.add(int(name))
        except (OSError, ValueError, IndexError):
            pass
    return pids


def kill_all() -> None:
    """Kill every program the arena started that is still running (at exit)."""
    with _LIVE_LOCK:
        procs = list(_LIVE.values())
    for proc in procs:
        kill_tree(proc.pid)


#: The guard's program (see :mod:`runner.guard`), run with the arena's own Python.
GUARD_PROGRAM = Path(__file__).resolve().with_name("guard.py")
_GUARD: subprocess.Popen | None = None


def _guard_note(line: str) -> None:
    """Tell the guard about a program (starting it first when needed; POSIX only)."""
    global _GUARD
    if os.name != "posix":
        return
    try:
        if _GUARD is None or _GUARD.poll() is not None:
            _GUARD = subprocess.Popen(
                [sys.executable, str(GUARD_PROGRAM), str(os.getpid())], stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        _GUARD.stdin.write(line.encode() + b"\n")
        _GUARD.stdin.flush()
    except (OSError, ValueError):
        pass


def stop_guard() -> None:
    """End the guard (it kills nothing: every program has been reaped by then)."""
    global _GUARD
    guard, _GUARD = _GUARD, None
    if guard is not None:
        try:
            guard.stdin.close()
            guard.wait(timeout=5)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            guard.kill()


def _at_exit() -> None:
    kill_all()
    stop_guard()


def _forget_guard_in_child() -> None:
    """A forked copy of the arena lets go of the guard's pipe (else the guard would not
    see the arena die while the copy lives) and starts its own guard when it needs one."""
    global _GUARD
    guard, _GUARD = _GUARD, None
    if guard is not None:
        try:
            guard.stdin.close()
        except (OSError, ValueError):
            pass


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_guard_in_child)


atexit.register(_at_exit)


def _start(command: list[str], cwd, sandbox: Sandbox, stdin, fds: Sequence[int],
           env: dict[str, str], preexec: Callable[[], None] | None):
    """Start ``command`` (a program wrapped by its sandbox) and register it until it is
    killed (the guard knows it; its pids group is held)."""
    # Started and registered under the lock: the orphan sweep (which holds it too) must
    # never take a program just started for an orphan.
    with _LIVE_LOCK:
        try:
            proc = subprocess.Popen(
                command, cwd=str(cwd) if cwd else None, stdin=stdin,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                start_new_session=(os.name == "posix"), preexec_fn=preexec,
                pass_fds=tuple(fds),
                creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0))
        except BaseException:
            group = sandbox.take_group()
            if group is not None:
                group.remove()
            raise
        seat_limits.hold(proc.pid, sandbox.take_group())   # removed when it is reaped
        _LIVE[proc.pid] = proc
        _guard_note(f"+{proc.pid}")
    return proc


def _reap(proc: subprocess.Popen, sweep: bool = True) -> None:
    """Kill what is left of a program's tree, wait for it, forget it."""
    kill_tree(proc.pid, sweep)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    _forget(proc)


def _forget(proc: subprocess.Popen) -> None:
    """A reaped program is no longer live (nor the guard's to kill)."""
    with _LIVE_LOCK:
        if _LIVE.pop(proc.pid, None) is not None:
            _guard_note(f"-{proc.pid}")
    seat_limits.release(proc.pid)
