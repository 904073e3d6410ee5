"""Control groups for program seats: a group per program, where the arena may make one.

A cgroup holds a process and everything it starts (forked, double-forked, ``setsid``
or not), and the kernel keeps its figures: the CPU time of the whole tree
(``cpuacct.usage`` in cgroup v1, ``cpu.stat`` in v2) and, with the ``pids``
controller, a cap on its processes.  The arena makes one where it is allowed to
(Linux, a writable hierarchy: as root, or in a delegated subtree) and does without
elsewhere; every function here says so by returning None or False, never by raising.

Small functions only, so each user takes what it needs: the CPU clock
(:class:`runner.process.CpuMeter`) and the sandbox's process cap.  A group is made
under the arena's own group of that hierarchy (``arena/NAME-PID-N``); a group that
still holds processes cannot be removed yet, so :func:`remove` keeps it for a later
try (:func:`remove_pending`, also at exit).  Nothing here imports pygame.
"""
from __future__ import annotations

import atexit
import functools
import itertools
import os
import sys
import threading
from pathlib import Path

#: Where the hierarchies are mounted (v1: one folder per controller; v2: the unified one).
ROOT = Path("/sys/fs/cgroup")
_COUNTER = itertools.count(1)
_PENDING: list[Path] = []          # groups removed while they still held processes
_PENDING_LOCK = threading.Lock()


@functools.lru_cache(maxsize=8)
def hierarchy(controller: str) -> tuple[Path, str] | None:
    """The mount of the hierarchy with ``controller`` and this process's group in it
    (its path from the mount's root), or None when there is none.  ``controller`` is a
    v1 name (``cpuacct``, ``pids``); with v1 absent the unified (v2) hierarchy is used,
    where ``cpu.stat`` is always there and ``pids`` when enabled."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    unified = ""
    for line in lines:
        number, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            mount = ROOT / controllers if (ROOT / controllers).is_dir() else ROOT / controller
            if (mount / "cgroup.procs").exists():
                return mount, path
        if number == "0" and not controllers:
            unified = path
    for mount in (ROOT, ROOT / "unified"):
        if (mount / "cgroup.controllers").exists():
            return mount, unified
    return None


def create(controller: str, name: str = "") -> Path | None:
    """A new, empty group of ``controller``'s hierarchy under the arena's own group, or
    None when the arena may not make one here (no such hierarchy, not writable)."""
    found = hierarchy(controller)
    if found is None:
        return None
    remove_pending()
    mount, own = found
    parent = mount / own.lstrip("/") / "arena"           # shared by every arena, never removed
    group = parent / f"{name or 'program'}-{os.getpid()}-{next(_COUNTER)}"
    try:
        parent.mkdir(exist_ok=True)
        group.mkdir()
    except OSError:
        return None
    return group


def add_pid(group: Path, pid: int) -> bool:
    """Move process ``pid`` (with its threads) into ``group``; False when refused."""
    try:
        with open(group / "cgroup.procs", "w") as fh:
            fh.write(str(pid))
        return True
    except OSError:
        return False


def join(group: Path) -> None:
    """The calling process joins ``group`` (a program's first step, before it runs, so
    that every process it starts is in the group from the start)."""
    add_pid(group, os.getpid())


def cpu_seconds(group: Path) -> float | None:
    """CPU seconds (user and system) used by every process that ever was in ``group``,
    or None when the group says nothing (it was removed, or is of another controller)."""
    try:
        return int((group / "cpuacct.usage").read_text()) / 1e9          # v1: nanoseconds
    except (OSError, ValueError):
        pass
    try:
        for line in (group / "cpu.stat").read_text().splitlines():       # v2: microseconds
            key, _, value = line.partition(" ")
            if key == "usage_usec":
                return int(value) / 1e6
    except (OSError, ValueError):
        pass
    return None


def set_pids_max(group: Path, count: int) -> bool:
    """Cap the processes and threads of ``group`` (``pids`` controller); False when refused."""
    try:
        (group / "pids.max").write_text(str(int(count)))
        return True
    except OSError:
        return False


def remove(group: Path | None) -> bool:
    """Remove ``group``; one still holding processes (not yet reaped) is kept and removed
    at a later :func:`create` or at exit.  True when it is gone."""
    if group is None:
        return True
    try:
        group.rmdir()
        return True
    except FileNotFoundError:
        return True
    except OSError:
        with _PENDING_LOCK:
            _PENDING.append(group)
        return False


def remove_later(group: Path | None) -> None:
    """Remove ``group`` at the next :func:`create` (or at exit): an ``rmdir`` of a group
    takes a few hundredths of a ms, sometimes ms, which a judge between two turns
    should not wait for."""
    if group is not None:
        with _PENDING_LOCK:
            _PENDING.append(group)


def remove_pending() -> None:
    """Try again to remove the groups :func:`remove` had to keep."""
    with _PENDING_LOCK:
        waiting = list(_PENDING)
        _PENDING.clear()
    for group in waiting:
        remove(group)


atexit.register(remove_pending)
