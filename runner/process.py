"""Running external programs: no shell, own folder, time and size limits, whole-tree kill.

Two shapes cover every contest protocol:

* :func:`run_once` runs a program to completion (Robot, Tam Quan: once per turn;
  Crossed Words: once per game) and reports how it ended;
* :class:`LineProcess` keeps a program running and exchanges lines with it (Hex's line
  protocol, GTP, UCI) or simply keeps it alive while it polls files (Xiangqi).

Every program runs in a :class:`runner.sandbox.Sandbox`, and the CPU time of its whole
process tree is measured (:class:`CpuMeter`), so an answer can be charged by either
clock (:data:`CLOCKS`, see :class:`TurnDeadline`).  Output is read in chunks and
kept bounded (the first and last ``TAIL_BYTES`` of each stream, with a count of what was
left out; lines cut at ``MAX_LINE``) so a program that prints forever costs nothing.  Nothing here imports pygame.
"""
from __future__ import annotations

import array
import atexit
import collections
import json
import os
import queue
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

import psutil

from games.annotations import MAX_BYTES as MAX_DEBUG_BYTES, is_debug_line
from runner import cgroups
from runner import seat_limits
from runner.sandbox import STRICT, Sandbox, SandboxLimits, lifeline

#: Bytes kept of each output stream's start and of its end (what lies between is counted).
TAIL_BYTES = 4096
#: Bytes read from a program's output at a time.
CHUNK_BYTES = 65536
#: Longest line a line protocol takes; the rest of a longer line is dropped.
MAX_LINE = 16384
#: Lines waiting to be read; a program printing more waits (its pipe fills) until they are.
MAX_PENDING_LINES = 1000
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


def split_command(command: str | Sequence[str]) -> list[str]:
    """A command line as an argument list (POSIX quoting); lists pass through."""
    if isinstance(command, str):
        argv = shlex.split(command, posix=os.name != "nt")
    else:
        argv = list(command)
    if not argv:
        raise ValueError("empty command")
    return argv

def resolve_command(command: str | Sequence[str], base: str | Path | None = None) -> list[str]:
    """The command as an argument list, with the words naming existing files made absolute.

    A program runs in its own folder, so ``./bot`` or ``python3 bot.py`` given relative
    to where the arena started (``base``, default the current folder) must still find
    their files.  The first word is made absolute only when it is a path (``./bot``,
    ``bin/bot``), so ``python3`` still comes from ``PATH``.  The one resolver every
    program seat uses.
    """
    base = Path(base) if base is not None else Path.cwd()
    fixed = []
    for index, arg in enumerate(split_command(command)):
        candidate = base / arg
        if os.path.isabs(arg):
            fixed.append(arg)
        elif index == 0 and ("/" in arg or os.sep in arg) and candidate.exists():
            fixed.append(str(candidate.resolve()))
        elif index > 0 and candidate.is_file():
            fixed.append(str(candidate.resolve()))
        else:
            fixed.append(arg)
    return fixed


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


#: The guard: a small process that outlives a killed arena just long enough to kill the
#: programs it left.  Its stdin is a pipe only the arena holds; end of file means the
#: arena is gone (``kill -9`` included), whatever the level.  While programs run it
#: notes the arena's direct children (its programs and, the arena being their subreaper,
#: every orphan they left: a double-forked ``setsid`` child included) with their start
#: times, twenty times a second, and at the end kills those and everything below them,
#: and only those (a process orphaned in the last 50 ms before the arena died can be
#: missed).  The arena tells it when programs start
#: (``+PID``) and end (``-PID``).  It guards only its parent (the arena that started it)
#: and notes only processes younger than the arena: nothing else is ever killed.
GUARD_SOURCE = r"""
import os, select, signal, sys
import psutil
arena, me, fd = int(sys.argv[1]), os.getpid(), sys.stdin.fileno()
if arena <= 1 or os.getppid() != arena:
    sys.exit(0)          # only the arena that started it may be guarded
born = psutil.Process(arena).create_time()
live, known, pending = set(), {}, b""
def children():
    # The arena's direct children: its programs, and (the arena being their subreaper)
    # every orphan a program left, a double fork included.  Read from /proc, cheaply.
    found = set()
    try:
        for tid in os.listdir(f"/proc/{arena}/task"):
            with open(f"/proc/{arena}/task/{tid}/children") as fh:
                found.update(int(word) for word in fh.read().split())
        return found
    except (OSError, ValueError):
        try:
            return {proc.pid for proc in psutil.Process(arena).children()}
        except psutil.Error:
            return set()
def note():
    for pid in children() - known.keys() - {me}:
        try:
            started = psutil.Process(pid).create_time()
        except psutil.Error:
            continue
        if started >= born:          # the arena's own descendants only
            known[pid] = started
    for pid in [p for p in known if not psutil.pid_exists(p)]:
        del known[pid]
while True:
    ready = select.select([fd], [], [], 0.05 if live else None)[0]
    if ready:
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        *lines, pending = (pending + chunk).split(b"\n")
        for line in lines:
            if line[:1] == b"+":
                live.add(int(line[1:]))
            elif line[:1] == b"-":
                live.discard(int(line[1:]))
        if not live:
            known.clear()
    if live:
        note()
doomed = []
for pid, started in known.items():
    try:
        proc = psutil.Process(pid)
        if proc.create_time() == started:
            doomed += [proc, *proc.children(recursive=True)]
    except psutil.Error:
        pass
for proc in doomed:
    try:
        proc.kill()
    except psutil.Error:
        pass
for pid in live:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
"""
_GUARD: subprocess.Popen | None = None


def _guard_note(line: str) -> None:
    """Tell the guard about a program (starting it first when needed; POSIX only)."""
    global _GUARD
    if os.name != "posix":
        return
    try:
        if _GUARD is None or _GUARD.poll() is not None:
            _GUARD = subprocess.Popen(
                [sys.executable, "-c", GUARD_SOURCE, str(os.getpid())], stdin=subprocess.PIPE,
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


try:
    from fcntl import ioctl as _ioctl
    from termios import FIONREAD as _FIONREAD
except ImportError:          # Windows: no way to ask a pipe what it holds
    _ioctl, _FIONREAD = None, None

SETTLE_SECONDS = 0.2


def _pipe_bytes(fd: int) -> int:
    """How many bytes wait unread in the pipe ``fd``."""
    count = array.array("i", [0])
    _ioctl(fd, _FIONREAD, count, True)
    return count[0]


def _wait_readable(fd: int) -> None:
    """Block until ``fd`` has data or is closed, so that the read after it returns at
    once (and can be done under the reader's lock)."""
    if _FIONREAD is not None:
        poller = select.poll()       # not select(): descriptors may pass 1024
        poller.register(fd, select.POLLIN)
        poller.poll()


class _OutputReader(threading.Thread):
    """Drains one stream in chunks: keeps its first and last ``TAIL_BYTES`` and counts
    what was dropped between; optionally cuts it into lines of at most ``MAX_LINE``
    bytes (the rest of a longer line is dropped, never buffered) for a line queue that
    holds at most ``MAX_PENDING_LINES``: when it is full the reader waits, the pipe
    fills, and the program waits too, so memory stays bounded."""

    def __init__(self, stream, lines: queue.Queue | None = None):
        super().__init__(daemon=True)
        self.stream, self.lines = stream, lines
        self.head = bytearray()
        self.tail: collections.deque[bytes] = collections.deque()
        self.tail_size = 0
        self.total = 0
        self.dropped_lines = 0
        self.cut_lines = 0
        self._partial = bytearray()
        self._skipping = False
        self.closing = threading.Event()
        self._taking = threading.Lock()      # held from a chunk's read until it is kept

    def run(self):
        fd = self.stream.fileno()
        try:
            while True:
                _wait_readable(fd)
                with self._taking:
                    chunk = os.read(fd, CHUNK_BYTES)
                    if not chunk:
                        break
                    self.total += len(chunk)
                    self._keep(chunk)
                if self.lines is not None:
                    self._split(chunk)
        except (OSError, ValueError):
            pass
        finally:
            if self.lines is not None:
                if self._partial and not self._skipping:
                    self._put(bytes(self._partial))
                self._put(None)

    def _split(self, chunk: bytes) -> None:
        start = 0
        while start < len(chunk):
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end + 1]
            start = len(chunk) if end < 0 else end + 1
            if self._skipping:
                if end >= 0:
                    self._skipping = False
                continue
            room = MAX_LINE - len(self._partial)
            if len(piece) > room:
                self._partial += piece[:room]
                self._put(bytes(self._partial))
                self._partial.clear()
                self.cut_lines += 1
                self._skipping = end < 0
                continue
            self._partial += piece
            if end >= 0:
                self._put(bytes(self._partial))
                self._partial.clear()

    def _put(self, line: bytes | None) -> None:
        item = None if line is None else line.decode("utf-8", "replace")
        while not self.closing.is_set():
            try:
                self.lines.put(item, timeout=0.2)
                return
            except queue.Full:
                pass
        self.dropped_lines += 1

    def _keep(self, chunk: bytes):
        if len(self.head) < TAIL_BYTES:
            room = TAIL_BYTES - len(self.head)
            self.head += chunk[:room]
            chunk = chunk[room:]
            if not chunk:
                return
        chunk = chunk[-TAIL_BYTES:]
        self.tail.append(chunk)
        self.tail_size += len(chunk)
        while self.tail_size - len(self.tail[0]) >= TAIL_BYTES:
            self.tail_size -= len(self.tail.popleft())

    def settle(self, timeout: float = SETTLE_SECONDS) -> None:
        """Wait (at most ``timeout``) until everything already in the pipe is kept.

        A program may print a line and then write its move file; the referee sees the
        file at once, and without this the line could still sit in the pipe when the
        turn is recorded.  Only where the pipe can say how much it holds (POSIX)."""
        if _FIONREAD is None:
            return
        deadline = time.monotonic() + timeout
        while self.is_alive():
            with self._taking:
                try:
                    waiting = _pipe_bytes(self.stream.fileno())
                except (OSError, ValueError):
                    return
            if waiting == 0 or time.monotonic() > deadline:
                return
            time.sleep(0.001)

    def since(self, mark: int, limit: int = TAIL_BYTES) -> tuple[str, int]:
        """What came after byte ``mark`` of the stream (at most its last ``limit`` bytes),
        and the mark to pass next time: the stream's length now.

        When some of it is no longer kept (it scrolled out of the tail) or passes
        ``limit``, the text starts with a count of the bytes left out."""
        with self._taking:
            total = self.total
            tail = b"".join(self.tail)
            head = bytes(self.head)
        tail_start = total - len(tail)
        if mark >= tail_start:
            fresh, left_out = tail[max(0, mark - tail_start):], 0
        elif tail_start == len(head):          # nothing dropped: head and tail are the stream
            fresh, left_out = head[mark:] + tail, 0
        else:
            fresh, left_out = tail, tail_start - mark
        if len(fresh) > limit:
            left_out += len(fresh) - limit
            fresh = fresh[-limit:]
        note = f"[... {left_out} bytes left out ...]\n" if left_out else ""
        return note + fresh.decode("utf-8", "replace"), total

    def text(self) -> str:
        """The stream as kept: all of it when short, else head, a count of the dropped
        bytes, and tail."""
        tail = b"".join(self.tail)[-TAIL_BYTES:]
        dropped = self.total - len(self.head) - len(tail)
        middle = f"\n[... {dropped} bytes left out ...]\n" if dropped > 0 else ""
        return (bytes(self.head).decode("utf-8", "replace") + middle
                + tail.decode("utf-8", "replace"))


@dataclass
class RunResult:
    """How one run of a program ended."""

    returncode: int | None
    elapsed: float           # wall seconds
    timed_out: bool
    stdout: str
    stderr: str
    error: str = ""          # could not start, or similar
    cpu: float | None = None     # CPU seconds of its whole tree (None: not known)
    clock: str = WALL            # the clock it was timed by
    limit: float | None = None

    @property
    def crashed(self) -> bool:
        return not self.timed_out and (bool(self.error) or self.returncode not in (0, None))

    @property
    def charged(self) -> float:
        """The seconds its clock charges: CPU seconds on the CPU clock (when known), else wall."""
        return self.cpu if self.clock == CPU and self.cpu is not None else self.elapsed

    def describe(self) -> str:
        if self.error:
            return self.error
        if self.timed_out and self.clock == CPU and self.cpu is not None and self.limit is not None:
            if self.cpu >= self.limit:
                return (f"killed after {self.cpu:.2f} s of CPU (time limit, CPU clock; "
                        f"{self.elapsed:.2f} s wall)")
            return (f"killed after {self.elapsed:.2f} s wall, the cap of a {self.limit:g} s "
                    f"CPU clock (it used {self.cpu:.2f} s of CPU)")
        if self.timed_out:
            return f"killed after {self.elapsed:.2f} s (time limit)"
        if self.returncode:
            return f"exited with code {self.returncode}"
        return f"finished in {self.elapsed:.3f} s"


def _popen(argv, cwd, sandbox: Sandbox, stdin, gate: bool = False, info_fd: int | None = None,
           meter: CpuMeter | None = None):
    """Start ``argv`` in ``cwd`` inside ``sandbox`` (``gate``: held until a line arrives
    on stdin, see :class:`GatedRun`; ``info_fd``: see :meth:`Sandbox.command`, passed to
    the sandbox; ``meter``: its process joins the meter's cgroup first); registered
    until killed."""
    command = sandbox.command(argv, cwd, gate, info_fd)
    fds = ([] if info_fd is None else [info_fd]) + (
        [lifeline()] if sandbox.level == STRICT else [])
    return _start(command, cwd, sandbox, stdin, fds, sandbox.env(cwd),
                  _joined(meter, sandbox.preexec()))


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


def _joined(meter: CpuMeter | None, preexec: Callable[[], None] | None) -> Callable[[], None] | None:
    """``preexec`` run after joining the meter's cgroup (either may be None)."""
    join = meter.preexec() if meter is not None else None
    if join is None:
        return preexec
    if preexec is None:
        return join

    def both() -> None:
        join()
        preexec()
    return both


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


def _sandbox_for(sandbox: Sandbox | None, memory_mb: int | None) -> Sandbox:
    if sandbox is not None:
        return sandbox
    return Sandbox(SandboxLimits.from_seat({"memory_mb": memory_mb}))


def _wait_for_exit(proc: subprocess.Popen, timeout: float | None,
                   before_reap: Callable[[], None] | None = None) -> bool:
    """Wait until ``proc`` exits (True) or ``timeout`` seconds pass (False), without
    polling: on Linux a pidfd (``os.pidfd_open``) turns readable the moment the process
    exits; elsewhere ``Popen.wait``, which polls with back-off (up to 50 ms late).
    ``before_reap`` is called once it has exited, before it is reaped (pidfd only)."""
    fd = None
    if hasattr(os, "pidfd_open"):
        try:
            fd = os.pidfd_open(proc.pid)
        except OSError:
            fd = None
    if fd is None:
        try:
            proc.wait(timeout=timeout)
            return True
        except subprocess.TimeoutExpired:
            return False
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        ready = poller.poll(None if timeout is None else max(0, int(timeout * 1000 + 0.999)))
    finally:
        os.close(fd)
    if not ready:
        return False
    if before_reap is not None:
        before_reap()
    proc.wait()
    return True


def run_once(command: str | Sequence[str], cwd: str | Path | None, timeout: float | None,
             memory_mb: int | None = None, stdin_text: str | None = None,
             sandbox: Sandbox | None = None, clock: str = WALL, cap: float | None = None) -> RunResult:
    """Run a program until it exits or its ``timeout`` is over by its ``clock`` (then kill
    its tree): ``timeout`` wall seconds, or on the CPU clock ``timeout`` CPU seconds of its
    tree within ``cap`` wall seconds (default :func:`wall_cap`; see :class:`TurnDeadline`).

    It runs in ``sandbox`` (default: this arena's level with the default limits and
    ``memory_mb``), with a CPU limit of about ``timeout`` unless the sandbox sets one.
    """
    argv = split_command(command)
    sandbox = _sandbox_for(sandbox, memory_mb)
    if timeout is not None:
        sandbox = sandbox.with_cpu(timeout)
    meter = CpuMeter(strict=sandbox.level == STRICT)
    start = time.perf_counter()
    try:
        proc = _popen(argv, cwd, sandbox,
                      subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL, meter=meter)
    except OSError as exc:
        meter.close()
        return RunResult(None, 0.0, False, "", "", f"could not start {argv[0]}: {exc.strerror or exc}")
    meter.pid = proc.pid
    out, err = _OutputReader(proc.stdout), _OutputReader(proc.stderr)
    out.start(), err.start()
    if stdin_text is not None:       # on a thread: a program that never reads must not block us
        def feed(data=stdin_text.encode()):
            try:
                proc.stdin.write(data)
                proc.stdin.close()
            except (OSError, ValueError):
                pass
        threading.Thread(target=feed, daemon=True, name="stdin").start()
    try:
        cpu_start = 0.0 if meter.exact else meter.used()
        return _finish(proc, out, err, TurnDeadline(start, timeout, clock, meter, cpu_start, cap),
                       meter=meter)
    finally:
        meter.close()


def _finish(proc: subprocess.Popen, out: _OutputReader, err: _OutputReader,
            deadline: TurnDeadline, sweep: bool = True, meter: CpuMeter | None = None) -> RunResult:
    """Wait for a started program until its ``deadline`` is over (then it is killed),
    kill what is left of its tree and say how it ended (its wall time counted from
    ``deadline.started``, its CPU time from ``deadline.cpu_start`` by ``meter``)."""
    timed_out = not _wait_by(proc, deadline, meter)
    elapsed = time.perf_counter() - deadline.started
    cpu = _cpu_since(meter, deadline.cpu_start)
    _reap(proc, sweep)
    out.join(1), err.join(1)
    return RunResult(None if timed_out else proc.returncode, elapsed, timed_out, out.text(),
                     err.text(), cpu=_cpu_since(meter, deadline.cpu_start) or cpu,
                     clock=deadline.clock, limit=deadline.limit)


def _cpu_since(meter: CpuMeter | None, start: float | None) -> float | None:
    used = meter.used() if meter is not None and start is not None else None
    return None if used is None else max(0.0, used - start)


def _wait_by(proc: subprocess.Popen, deadline: TurnDeadline, meter: CpuMeter | None = None) -> bool:
    """Wait until ``proc`` exits (True) or ``deadline`` is over (False); ``meter`` takes
    its final figures before it is reaped."""
    while True:
        now = time.perf_counter()
        if deadline.over(now):
            return proc.poll() is not None
        look = deadline.next_look(now)
        if _wait_for_exit(proc, None if look is None else max(0.0, look - now),
                          None if meter is None else meter.note_exit):
            return True


def wait_for_exits(runs: dict, deadlines: dict) -> Iterator[tuple[object, float | None]]:
    """Wait for several opened :class:`GatedRun` at once, on the caller's thread, without
    polling: one ``poll`` over their pidfds (Linux), so no thread is woken in between
    (on a CPU clock, also when it is time to look at a program's CPU time again).

    ``runs`` and ``deadlines`` (:class:`TurnDeadline`, ``time.perf_counter()`` values,
    or None) are keyed alike.
    Yields ``(key, exited_at)`` for each run as it exits (``exited_at``: when the exit
    was seen, taken once for all the runs seen in one wake-up, before any is handed
    back) or ``(key, None)`` once its deadline has passed.  A run whose pidfd cannot be
    had is waited for after the others with ``Popen.wait``."""
    deadlines = {key: _as_deadline(deadlines.get(key)) for key in runs}
    poller, by_fd, left = select.poll(), {}, {}
    for key, run in runs.items():
        try:
            fd = run.exit_pidfd()
        except (AttributeError, OSError):
            left[key] = run
            continue
        by_fd[fd] = key
        poller.register(fd, select.POLLIN)
    try:
        while by_fd:
            now = time.perf_counter()
            soonest = min((look for k in by_fd.values()
                           if (look := deadlines[k].next_look(now)) is not None), default=None)
            wait = None if soonest is None else max(0, int((soonest - now) * 1000 + 0.999))
            exited = {by_fd[fd] for fd, _ in poller.poll(wait)}
            seen = time.perf_counter()
            late = {key for key in by_fd.values() if key not in exited
                    and deadlines[key].over(seen)}
            for fd, key in list(by_fd.items()):
                if key in exited or key in late:
                    poller.unregister(fd)
                    os.close(fd)
                    del by_fd[fd]
            yield from ((key, seen) for key in exited)
            yield from ((key, None) for key in late)
    finally:
        for fd in by_fd:
            os.close(fd)
    for key, run in left.items():
        yield key, (time.perf_counter() if _wait_by(run.proc, deadlines[key], getattr(run, "meter", None))
                    else None)


#: Seconds :meth:`GatedRun.end` waits for a dead program's output to end before it
#: takes an orphan to be holding it open (the output of a dead tree ends at once).
OUTPUT_END_WAIT = 0.02


def _ended_within(readers: Sequence[threading.Thread], seconds: float) -> bool:
    """Whether every reader has finished within ``seconds`` (waited for together)."""
    deadline = time.perf_counter() + seconds
    for reader in readers:
        reader.join(max(0.0, deadline - time.perf_counter()))
    return not any(reader.is_alive() for reader in readers)


#: Seconds :meth:`GatedRun.reap` waits for bwrap to exit after the program it wraps (it
#: takes a few tenths of a ms) before it kills it.
WRAPPER_EXIT_WAIT = 1.0
#: Seconds a :class:`GatedRun` waits for bwrap to set up the sandbox and start the
#: program's process (tens of ms) before it watches bwrap instead (see :func:`_sandboxed`).
SANDBOX_START_WAIT = 10.0


def _sandboxed(info_fd: int, wrapper_pid: int) -> tuple[int, int, int] | None:
    """The program bwrap (``wrapper_pid``) started in its sandbox, held at its gate: a
    pidfd of it, its pid and the pid of its parent, bwrap's init in the sandbox (told
    on ``info_fd``, closed here).  None when bwrap said nothing in time (it failed) or
    the processes are not where they should be."""
    deadline = time.monotonic() + SANDBOX_START_WAIT
    init = _bwrap_child_pid(info_fd)
    if init is None:
        return None
    try:
        while not (children := _task_children(init, init)) and time.monotonic() < deadline:
            time.sleep(0.0005)                # bwrap's init forks the program right away
        if len(children) != 1 or int(_proc_stat(init)[1]) != wrapper_pid:
            return None
        program = children.pop()
        fd = os.pidfd_open(program)
    except (ValueError, IndexError, OSError):
        return None
    try:
        if int(_proc_stat(program)[1]) == init:    # the pidfd pins the process asked about
            return fd, program, init
    except (OSError, ValueError, IndexError):
        pass
    os.close(fd)
    return None


def _bwrap_child_pid(info_fd: int) -> int | None:
    """The ``child-pid`` of the JSON bwrap writes on its ``--info-fd`` (closed here) once
    its sandbox is set up, or None when it says nothing within SANDBOX_START_WAIT."""
    data = b""
    try:
        poller = select.poll()
        poller.register(info_fd, select.POLLIN)
        while b"}" not in data and poller.poll(int(SANDBOX_START_WAIT * 1000)):
            chunk = os.read(info_fd, 4096)
            if not chunk:
                break
            data += chunk
    finally:
        os.close(info_fd)
    try:
        return int(json.loads(data[:data.index(b"}") + 1])["child-pid"])
    except (ValueError, KeyError, TypeError):
        return None


def tree_dies_with_program(sandbox: Sandbox) -> bool:
    """Whether, once a program of ``sandbox`` has exited and its process group has been
    killed, every other process of its tree is dead or adopted by the arena: in the
    strict level its PID namespace died with it; in the basic level (Linux) the arena is
    the child subreaper, so a process that left the group was re-parented to the arena
    when its parent died, where :func:`sweep_orphans` finds it."""
    from runner.sandbox import is_subreaper
    return os.name == "posix" and (sandbox.level == STRICT or is_subreaper())


def can_gate() -> bool:
    """Whether programs can be started ahead of their turn (:class:`GatedRun`)."""
    from runner.sandbox import GATE_SHELL
    return os.name == "posix" and os.path.exists(GATE_SHELL)


class GatedRun:
    """One run of a program, started ahead of its turn and held at a gate.

    Everything that costs time before a program's first instruction (the fork of the
    arena, the sandbox's namespaces and mounts, the resource limits) is done here, while
    the judge waits for something else; the program itself starts only at :meth:`run`,
    which opens the gate (one line on the gate's stdin: see
    :data:`runner.sandbox.GATE_SCRIPT`) and then behaves as :func:`run_once`: the time
    limit counts from the gate's opening.  A gated run never used is :meth:`cancel`-led.
    The program's stdin is /dev/null (a program fed on stdin uses :func:`run_once`).
    """

    def __init__(self, command: str | Sequence[str], cwd: str | Path | None,
                 sandbox: Sandbox | None = None):
        self.sandbox = _sandbox_for(sandbox, None)
        strict = self.sandbox.level == STRICT and hasattr(os, "pidfd_open")
        info_read, info_write = os.pipe() if strict else (None, None)
        #: The CPU time of the run's tree (its cgroup holds the gate and the sandbox too:
        #: what they used before the gate opened is not the program's, see :meth:`open`).
        self.meter = CpuMeter(strict=self.sandbox.level == STRICT)
        try:
            self.proc = _popen(split_command(command), cwd, self.sandbox, subprocess.PIPE,
                               gate=True, info_fd=info_write, meter=self.meter)
        except BaseException:
            if info_read is not None:
                os.close(info_read)
            self.meter.close()
            raise
        finally:
            if info_write is not None:
                os.close(info_write)
        self._out, self._err = _OutputReader(self.proc.stdout), _OutputReader(self.proc.stderr)
        self._out.start(), self._err.start()
        # Strict: a pidfd of the program's own process in its sandbox, its pid and its
        # parent's (bwrap's init), so that its exit is seen as it happens, not when bwrap
        # has noticed it and exited too (0.35 ms later); None: its exit is bwrap's.
        found = None if info_read is None else _sandboxed(info_read, self.proc.pid)
        self._program_fd, self._program_pid, self._sandbox_init = found or (None, 0, 0)
        self.meter.pid = self.proc.pid
        #: ``time.perf_counter()`` when the gate opened (see :meth:`open`), and the
        #: tree's CPU seconds then.
        self.started = 0.0
        self.cpu_start: float | None = None
        self._cpu: float | None = None

    def run(self, timeout: float | None, sweep: bool = True, clock: str = WALL,
            cap: float | None = None) -> RunResult:
        """Open the gate and wait until the program exits or its ``timeout`` is over by
        its ``clock``; its tree is killed then (its adopted orphans too, unless ``sweep``
        is false: the caller then calls :func:`sweep_orphans` before the next run)."""
        self.open()
        self._close_program_fd()
        try:
            return _finish(self.proc, self._out, self._err, self.deadline(timeout, clock, cap), sweep,
                           self.meter)
        finally:
            self.meter.close()

    def deadline(self, timeout: float | None, clock: str = WALL, cap: float | None = None) -> TurnDeadline:
        """When this opened run's ``timeout`` is over by ``clock`` (``cap``: its wall cap)."""
        return TurnDeadline(self.started, timeout, clock, self.meter, self.cpu_start, cap)

    def exit_pidfd(self) -> int:
        """A new pidfd (the caller closes it) that turns readable when the run has ended:
        the program's own when known (strict), else its wrapper's (bwrap, or the
        program itself in the basic level)."""
        if self._program_fd is not None:
            return os.dup(self._program_fd)
        return os.pidfd_open(self.proc.pid)

    def ended_alone(self) -> bool:
        """After its exit was seen (:meth:`exit_pidfd`), before :meth:`reap`: whether the
        program has left no process running (strict: none but itself, dead, is left
        under bwrap's init), so its files are final though its sandbox is not yet torn
        down.  False when that is not known: the caller then reaps it first."""
        if self._program_fd is None:
            return False
        try:
            left = _task_children(self._sandbox_init, self._sandbox_init)
        except FileNotFoundError:
            return True          # bwrap has reaped its init: the namespace is dead
        except (OSError, ValueError):
            return False
        # The sandbox's lifeline watcher (runner.sandbox.LIFELINE_SCRIPT), forked before
        # the program, outlives it under the init (it alone holds the lifeline), or is
        # already dying with the namespace.
        return all(_holds_lifeline(pid) or _exiting(pid) for pid in left - {self._program_pid})

    def _close_program_fd(self) -> None:
        if self._program_fd is not None:
            os.close(self._program_fd)
            self._program_fd = None

    def open(self) -> None:
        """Open the gate: the program starts now (:attr:`started`).  Its exit can then
        be waited for with others, on the caller's thread (:func:`wait_for_exits`)."""
        self.cpu_start = self.meter.used()
        self.started = time.perf_counter()
        try:
            os.write(self.proc.stdin.fileno(), b"go\n")
            self.proc.stdin.close()
        except (OSError, ValueError):
            pass                    # the gate is gone: its exit code says how

    def end(self, exited_at: float | None, sweep: bool = True) -> RunResult:
        """After :meth:`open`: the program exited at ``exited_at`` (None: its time ran
        out, it is killed now); kill what is left of its tree (and the orphans, when
        one holds its output open) and say how it ended."""
        self.reap(exited_at, sweep)
        return self.result()

    def reap(self, exited_at: float | None, sweep: bool = True) -> None:
        """The first half of :meth:`end`: kill what is left of the program's tree and
        reap it (its output may still be on its way: :meth:`result` waits for it).

        A program that exited is a zombie until reaped, so its pid (its group's id:
        each program leads a session of its own) cannot be reused yet: its group is
        killed first, then it is reaped; no pid is ever signalled after its reaping.
        When every other process of its tree is then known to be dead or adopted by
        the arena (:func:`tree_dies_with_program`), the walk of the process table
        (psutil, a few tenths of a ms on the judge's path) is skipped: the adopted
        ones are the orphans :func:`sweep_orphans` kills (here with ``sweep``, else
        by the caller before the next run)."""
        self._timed_out = exited_at is None
        self._elapsed = (time.perf_counter() if self._timed_out else exited_at) - self.started
        self._cpu = _cpu_since(self.meter, self.cpu_start)     # a zombie's last figures too
        seen_in_sandbox = self._program_fd is not None
        self._close_program_fd()
        if self._timed_out or not tree_dies_with_program(self.sandbox):
            _reap(self.proc, sweep)           # kill_tree walks the tree while it is alive
            self._cpu = _cpu_since(self.meter, self.cpu_start)
            return
        # When the exit seen was the program's own (strict), bwrap exits on its own a few
        # tenths of a ms later with the program's exit status, which a kill would replace;
        # once it has been reaped, its pid is never signalled.
        if not (seen_in_sandbox and _wait_for_exit(self.proc, WRAPPER_EXIT_WAIT, self.meter.note_exit)):
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass                          # no process is left in its group
        self.proc.wait()
        _forget(self.proc)
        self._cpu = _cpu_since(self.meter, self.cpu_start)
        if sweep:
            sweep_orphans()

    def result(self) -> RunResult:
        """The second half of :meth:`end`, after :meth:`reap`: how the run ended, with
        its output (an orphan holding the output open is swept at once)."""
        if not _ended_within((self._out, self._err), OUTPUT_END_WAIT):
            # Its tree is dead, yet its output is still open: an orphan it left (basic
            # sandbox) holds it.  Swept now, not before the next turn: this runs on the
            # judge's thread, where the other programs' exits are seen (and timed).
            sweep_orphans()
        self._out.join(1), self._err.join(1)
        self.meter.close()
        return RunResult(None if self._timed_out else self.proc.returncode, self._elapsed,
                         self._timed_out, self._out.text(), self._err.text(), cpu=self._cpu)

    def cancel(self) -> None:
        """End the waiting run without starting the program: the gate reads the end of
        its stdin and exits (a kill would leave the sandbox's processes to be reaped by
        whoever adopts them, which can take seconds); killed if it does not."""
        self._out.closing.set()
        self._close_program_fd()
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=1.0)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass
        _reap(self.proc)
        self.meter.close()


class LineProcess:
    """A running program spoken to line by line on stdin/stdout.

    ``read_line(timeout)`` returns the next line without its newline, or None on
    time-out; :attr:`exited` tells whether the program has ended.
    """

    def __init__(self, command: str | Sequence[str], cwd: str | Path | None = None,
                 memory_mb: int | None = None, stdout_lines: bool = True,
                 sandbox: Sandbox | None = None):
        self.argv = split_command(command)
        self.sandbox = _sandbox_for(sandbox, memory_mb)
        #: The CPU time of the program's whole tree since it started (see :meth:`cpu_seconds`).
        self.meter = CpuMeter(strict=self.sandbox.level == STRICT, live=True)
        try:
            self.proc = _popen(self.argv, cwd, self.sandbox, subprocess.PIPE, meter=self.meter)
        except BaseException:
            self.meter.close()
            raise
        self.meter.pid = self.proc.pid
        self._lines: queue.Queue = queue.Queue(maxsize=MAX_PENDING_LINES)
        self._out = _OutputReader(self.proc.stdout, self._lines if stdout_lines else None)
        self._err = _OutputReader(self.proc.stderr)
        self._taken = {"stdout": 0, "stderr": 0}     # bytes already handed out by take_*()
        self._out.start(), self._err.start()
        self._to_send: queue.Queue = queue.Queue(maxsize=MAX_PENDING_LINES)
        self._stdin_broken = threading.Event()
        self._writer = threading.Thread(target=self._write_stdin, daemon=True, name="stdin")
        self._writer.start()
        self._eof = False
        self._debug: list[str] = []        # "# debug" lines read since take_debug()
        self._debug_size = 0

    @property
    def exited(self) -> bool:
        return self.proc.poll() is not None

    @property
    def at_eof(self) -> bool:
        """True once the program's output has ended (it closed stdout or exited)."""
        return self._eof

    def send(self, line: str) -> bool:
        """Hand one line to the writer; False when the program no longer reads (it
        ended, or it left ``MAX_PENDING_LINES`` unread: a full pipe never blocks the arena)."""
        if self._stdin_broken.is_set():
            return False
        try:
            self._to_send.put_nowait((line.rstrip("\n") + "\n").encode())
            return True
        except queue.Full:
            return False

    def _write_stdin(self) -> None:
        """The writer thread: lines to the program's stdin; stdin closed at the sentinel."""
        while True:
            data = self._to_send.get()
            try:
                if data is None:
                    self.proc.stdin.close()
                    return
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
            except (OSError, ValueError):
                self._stdin_broken.set()
                if data is None:
                    return

    def read_line(self, timeout: float | None) -> str | None:
        """The next line of output, or None if none came in time or the program ended.

        Bot annotation lines (``# debug ...``, or UCI's ``info string # debug ...``) are
        never returned: they are kept for :meth:`take_debug` (up to
        :data:`games.annotations.MAX_BYTES` a turn), so no protocol sees them."""
        deadline = None if timeout is None else time.perf_counter() + timeout
        while not self._eof:
            left = None if deadline is None else max(0.0, deadline - time.perf_counter())
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                self._eof = True
                return None
            line = line.rstrip("\r\n")
            if not is_debug_line(line):
                return line
            self._keep_debug(line)
        return None

    def _keep_debug(self, line: str) -> None:
        if self._debug_size <= MAX_DEBUG_BYTES:     # the line crossing the cap is kept, so
            self._debug.append(line)                # the parser sees the cut and notes it
            self._debug_size += len(line) + 1

    def take_debug(self) -> str:
        """The annotation lines read since the last call (one turn's), as text (longer
        than the cap when more was printed: the parser then notes the cut)."""
        lines = self._debug
        self._debug, self._debug_size = [], 0
        return "\n".join(lines)

    def read_line_by(self, deadline: "float | TurnDeadline | None",
                     cancelled: Callable[[], bool] = lambda: False) -> tuple[str | None, str]:
        """The next line before ``deadline`` (a ``time.perf_counter()`` value, a
        :class:`TurnDeadline` of a turn's clock; None: no deadline), or ``(None, why)``
        with why ``"eof"``, ``"timeout"`` or ``"cancelled"``.  The one "read a line
        before a deadline" of the line protocols (HexLib, GTP, UCI, UCCI); it looks at
        ``cancelled`` five times a second.
        """
        deadline = _as_deadline(deadline)
        while True:
            if cancelled():
                return None, "cancelled"
            if self._eof:
                return None, "eof"
            now = time.perf_counter()
            if deadline.over(now):
                return None, "timeout"
            look = deadline.next_look(now)
            line = self.read_line(0.2 if look is None else max(0.0, min(0.2, look - now)))
            if line is not None:
                return line, ""
            self._end_orphans_holding_output()

    def _end_orphans_holding_output(self) -> None:
        """Once the program's own process has ended and all it printed has been read,
        kill what it left running: processes it started may hold its output open, and
        the protocol would else wait for an end of file until its deadline (a fork bomb
        made a 60 s handshake last 60 s).  The strict level's namespace already ends
        with the program; this gives every level the same end."""
        if not self._eof and self.exited and self._lines.empty():
            _reap(self.proc)        # the output's end then comes through the reader

    def cpu_seconds(self) -> float | None:
        """CPU seconds the program's whole tree has used since it started (None: unknown)."""
        return self.meter.used()

    def turn_deadline(self, limit: float | None, clock: str = WALL,
                      cpu_start: float | None = None) -> TurnDeadline:
        """A turn starting now, timed by ``clock``: over after ``limit`` seconds of it.
        ``cpu_start``: the tree's CPU seconds the caller read as the turn began (saves
        reading them again: a file read per move in the strict sandbox)."""
        return TurnDeadline(time.perf_counter(), limit, clock, self.meter,
                            self.cpu_seconds() if cpu_start is None else cpu_start)

    def exit_description(self) -> str:
        """How the program ended, in words (it is given a second to finish)."""
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "closed its output but kept running"
        if code < 0:
            return f"was killed by signal {-code}"
        return f"exited with code {code}"

    def stdout_tail(self) -> str:
        """What the program printed (kept as ``_OutputReader`` keeps it), including
        every line it wrote before now."""
        self._out.settle()
        return self._out.text()

    def stderr_tail(self) -> str:
        self._err.settle()
        return self._err.text()

    def take_stdout(self, limit: int = TAIL_BYTES) -> str:
        """What the program printed on stdout since the last call (the first: since it
        started), at most its last ``limit`` bytes: a turn's own output, for its record,
        rather than the running tail."""
        return self._take("stdout", self._out, limit)

    def take_stderr(self, limit: int = TAIL_BYTES) -> str:
        """As :meth:`take_stdout`, for stderr."""
        return self._take("stderr", self._err, limit)

    def _take(self, stream: str, reader: _OutputReader, limit: int) -> str:
        reader.settle()
        text, self._taken[stream] = reader.since(self._taken[stream], limit)
        return text

    def close(self, grace: float = 0.5) -> None:
        """Let the program end by itself for ``grace`` seconds, then kill its tree."""
        try:
            self._to_send.put(None, timeout=max(grace, 0.01))     # stdin closes after the rest
        except queue.Full:
            pass
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        self._out.closing.set()
        _reap(self.proc)
        self.meter.close()

    def kill(self) -> None:
        """Kill the program's whole tree now."""
        self._out.closing.set()
        _reap(self.proc)
        self.meter.close()

    def output_notes(self) -> list[str]:
        """What the line reader dropped, in words (empty when nothing)."""
        notes = []
        if self._out.cut_lines:
            notes.append(f"{self._out.cut_lines} output lines longer than {MAX_LINE} bytes were cut")
        return notes


PYTHON = sys.executable
