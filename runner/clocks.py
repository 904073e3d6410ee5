"""The clocks an answer is charged by: wall seconds (the contests' rule, the default),
or the CPU seconds of the program's whole process tree (:class:`CpuMeter`) with a wall
cap; and when one answer's time is up by its clock (:class:`TurnDeadline`).  Part of
:mod:`runner.process`; nothing here imports pygame.
"""
from __future__ import annotations

import os
from typing import Callable

import psutil

from runner import cgroups
from runner.process_tree import _proc_stat

#: The clocks an answer can be charged by: wall seconds (the contests' rule, the default),
#: or the CPU seconds of the program's whole process tree, with a wall cap.
WALL, CPU = "wall", "cpu"
CLOCKS = (WALL, CPU)
#: Least seconds between two looks at a CPU clock while a program runs.
CPU_LOOK = 0.01


def check_clock(name: str | None) -> str:
    """A clock's name as given (``wall``, ``cpu``; None or "" is ``wall``), or
    ValueError naming the choices."""
    name = (name or WALL).strip().lower()
    if name not in CLOCKS:
        raise ValueError(f"clock {name!r}: expected wall or cpu")
    return name


def wall_cap(limit: float) -> float:
    """The wall seconds an answer on the CPU clock may last: 3x its limit + 1 s, so a
    program that sleeps (or waits for a lock) still ends."""
    return 3 * limit + 1.0


class CpuMeter:
    """The CPU seconds (user and system) a program's whole process tree has used.

    From a cgroup of its own where the arena may make one (:mod:`runner.cgroups`): the
    program joins it before it runs, so every process it ever starts is counted, also
    one that left its session or has ended.  Elsewhere from its first process's own
    figures (``/proc/PID/stat``: its time and that of the children it has waited for,
    read once more while it is a zombie, before it is reaped), plus, on a CPU clock's
    looks (``deep``), its live descendants' (psutil); an orphan's time is missed.  The
    largest figure seen is kept, so it never goes back.  In the strict sandbox the
    first process is bubblewrap, whose figures never hold the program's: there a
    program kept running (``live``) is measured by its live tree at every reading, and
    a program run once is not measured (None: its CPU clock is a wall clock).
    """

    def __init__(self, strict: bool = False, live: bool = False):
        self.group = cgroups.create("cpuacct", "program")
        self.pid: int | None = None
        self._seen = 0.0
        self._blind = self.group is None and strict and not live
        self._always_deep = self.group is None and strict and live
        self._closed = False

    def preexec(self) -> Callable[[], None] | None:
        """What the program's process runs before exec: it joins the group."""
        group = self.group
        return None if group is None else (lambda: cgroups.join(group))

    @property
    def exact(self) -> bool:
        """Whether the figure covers the whole tree (a cgroup) or only its live part."""
        return self.group is not None

    def used(self, deep: bool = False) -> float | None:
        """CPU seconds used so far; None when nothing can be known.  Without a cgroup,
        ``deep`` adds the live descendants (a walk of the process table: for a CPU
        clock's looks, not for every reading)."""
        if self.group is not None:
            return cgroups.cpu_seconds(self.group)
        if self.pid is None or self._blind:
            return None
        deep = deep or self._always_deep
        try:
            fields = _proc_stat(self.pid)     # state ppid pgrp session tty tpgid flags
            ticks = sum(int(x) for x in fields[11:15])    # minflt ... utime stime cutime cstime
            total = ticks / _CLOCK_TICKS
        except (OSError, ValueError, IndexError):
            return self._seen or None
        if deep:
            try:
                for proc in psutil.Process(self.pid).children(recursive=True):
                    times = proc.cpu_times()
                    total += times.user + times.system
            except psutil.Error:
                pass
        self._seen = max(self._seen, total)
        return self._seen

    def note_exit(self) -> None:
        """The first process has exited and is not reaped yet: its final figures."""
        if self.group is None:
            self.used()

    def close(self) -> None:
        """Let the group go: it is removed when the next one is made (off the judge's
        path), or at exit.  The last figure stays readable (:meth:`used`) until then."""
        if not self._closed:
            self._closed = True
            cgroups.remove_later(self.group)


_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class TurnDeadline:
    """When one answer's time is up, by its clock.

    ``wall``: ``limit`` seconds after ``started`` (a ``time.perf_counter()`` value).
    ``cpu``: once the program's tree has used ``limit`` CPU seconds since ``cpu_start``
    (read from ``meter``), or at the wall cap (``cap``, by default :func:`wall_cap`); a CPU clock that cannot
    be read is a wall clock.  :meth:`next_look` says when to look again: no sooner than
    the tree could have used the rest of its time on every core, so a program on one
    core is looked at a few times a turn.
    """

    def __init__(self, started: float, limit: float | None, clock: str = WALL,
                 meter: CpuMeter | None = None, cpu_start: float | None = None,
                 cap: float | None = None):
        self.started, self.limit = started, limit
        #: Wall seconds a CPU-clock answer may last (default :func:`wall_cap` of the limit).
        self.cap = cap or (None if limit is None else wall_cap(limit))
        self.meter, self.cpu_start = meter, cpu_start
        self.clock = CPU if clock == CPU and meter is not None and cpu_start is not None else WALL
        self._cores = max(1, os.cpu_count() or 1)

    def cpu_used(self) -> float | None:
        if self.meter is None or self.cpu_start is None:
            return None
        now = self.meter.used(deep=self.clock == CPU)
        return None if now is None else max(0.0, now - self.cpu_start)

    def over(self, now: float) -> bool:
        if self.limit is None:
            return False
        if self.clock == WALL:
            return now >= self.started + self.limit
        used = self.cpu_used()
        return now >= self.started + self.cap or (used is not None and used >= self.limit)

    def next_look(self, now: float) -> float | None:
        """The ``perf_counter`` time to look again (None: never, untimed)."""
        if self.limit is None:
            return None
        if self.clock == WALL:
            return self.started + self.limit
        used = self.cpu_used() or 0.0
        return min(self.started + self.cap,
                   now + max(CPU_LOOK, (self.limit - used) / self._cores))


def _as_deadline(value) -> "TurnDeadline":
    """A deadline given as a ``perf_counter`` value (or None) as a wall TurnDeadline."""
    if value is None or isinstance(value, (int, float)):
        return TurnDeadline(0.0, value)
    return value


def _cpu_since(meter: CpuMeter | None, start: float | None) -> float | None:
    used = meter.used() if meter is not None and start is not None else None
    return None if used is None else max(0.0, used - start)
