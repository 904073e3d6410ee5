"""Running external programs: no shell, own folder, time and size limits, whole-tree kill.

Two shapes cover every contest protocol:

* :func:`run_once` runs a program to completion (Robot, Tam Quan: once per turn;
  Crossed Words: once per game) and reports how it ended;
* :class:`LineProcess` keeps a program running and exchanges lines with it (Hex's line
  protocol, GTP, UCI) or simply keeps it alive while it polls files (Xiangqi).

Output is kept bounded (the last ``TAIL_BYTES`` of each stream) so a program that
prints forever costs nothing.  Nothing here imports pygame.
"""
from __future__ import annotations

import collections
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
from typing import Callable, Sequence

import psutil

TAIL_BYTES = 4096


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


def _limit_memory(memory_mb: int | None):
    """A preexec function capping the child's address space (POSIX only)."""
    if not memory_mb or os.name != "posix":
        return None

    def apply_limit():
        import resource
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return apply_limit


def kill_tree(pid: int) -> None:
    """Kill a process and every descendant, including ones that left its group."""
    try:
        parent = psutil.Process(pid)
        family = parent.children(recursive=True) + [parent]
    except psutil.NoSuchProcess:
        family = []
    if os.name == "posix":
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    for proc in family:
        try:
            proc.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(family, timeout=2)


class _TailReader(threading.Thread):
    """Drains one stream into a bounded buffer (and optionally a line queue)."""

    def __init__(self, stream, lines: queue.Queue | None = None):
        super().__init__(daemon=True)
        self.stream, self.lines = stream, lines
        self.tail: collections.deque[bytes] = collections.deque()
        self.tail_size = 0
        self.total = 0

    def run(self):
        try:
            for chunk in iter(self.stream.readline, b""):
                self.total += len(chunk)
                self._keep(chunk)
                if self.lines is not None:
                    self.lines.put(chunk.decode("utf-8", "replace"))
        except (OSError, ValueError):
            pass
        finally:
            if self.lines is not None:
                self.lines.put(None)

    def _keep(self, chunk: bytes):
        chunk = chunk[-TAIL_BYTES:]
        self.tail.append(chunk)
        self.tail_size += len(chunk)
        while self.tail_size > TAIL_BYTES and len(self.tail) > 1:
            self.tail_size -= len(self.tail.popleft())

    def text(self) -> str:
        data = b"".join(self.tail)[-TAIL_BYTES:]
        prefix = "[...]\n" if self.total > len(data) else ""
        return prefix + data.decode("utf-8", "replace")


@dataclass
class RunResult:
    """How one run of a program ended."""

    returncode: int | None
    elapsed: float
    timed_out: bool
    stdout: str
    stderr: str
    error: str = ""          # could not start, or similar

    @property
    def crashed(self) -> bool:
        return not self.timed_out and (bool(self.error) or self.returncode not in (0, None))

    def describe(self) -> str:
        if self.error:
            return self.error
        if self.timed_out:
            return f"killed after {self.elapsed:.2f} s (time limit)"
        if self.returncode:
            return f"exited with code {self.returncode}"
        return f"finished in {self.elapsed:.3f} s"


def _popen(argv, cwd, memory_mb, stdin):
    return subprocess.Popen(
        argv, cwd=str(cwd) if cwd else None, stdin=stdin,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=(os.name == "posix"),
        preexec_fn=_limit_memory(memory_mb),
        creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0))


def _wait_for_exit(proc: subprocess.Popen, timeout: float | None) -> bool:
    """Wait until ``proc`` exits (True) or ``timeout`` seconds pass (False), without
    polling: on Linux a pidfd (``os.pidfd_open``) turns readable the moment the process
    exits; elsewhere ``Popen.wait``, which polls with back-off (up to 50 ms late)."""
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
    proc.wait()
    return True


def run_once(command: str | Sequence[str], cwd: str | Path | None, timeout: float | None,
             memory_mb: int | None = None, stdin_text: str | None = None) -> RunResult:
    """Run a program until it exits or ``timeout`` wall seconds pass (then kill its tree)."""
    argv = split_command(command)
    start = time.perf_counter()
    try:
        proc = _popen(argv, cwd, memory_mb,
                      subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL)
    except OSError as exc:
        return RunResult(None, 0.0, False, "", "", f"could not start {argv[0]}: {exc.strerror or exc}")
    out, err = _TailReader(proc.stdout), _TailReader(proc.stderr)
    out.start(), err.start()
    if stdin_text is not None:
        try:
            proc.stdin.write(stdin_text.encode())
            proc.stdin.close()
        except OSError:
            pass
    timed_out = not _wait_for_exit(proc, timeout)
    elapsed = time.perf_counter() - start
    kill_tree(proc.pid)
    proc.wait()
    out.join(1), err.join(1)
    return RunResult(None if timed_out else proc.returncode, elapsed, timed_out, out.text(), err.text())


class LineProcess:
    """A running program spoken to line by line on stdin/stdout.

    ``read_line(timeout)`` returns the next line without its newline, or None on
    time-out; :attr:`exited` tells whether the program has ended.
    """

    def __init__(self, command: str | Sequence[str], cwd: str | Path | None = None,
                 memory_mb: int | None = None, stdout_lines: bool = True):
        self.argv = split_command(command)
        self.proc = _popen(self.argv, cwd, memory_mb, subprocess.PIPE)
        self._lines: queue.Queue = queue.Queue()
        self._out = _TailReader(self.proc.stdout, self._lines if stdout_lines else None)
        self._err = _TailReader(self.proc.stderr)
        self._out.start(), self._err.start()
        self._eof = False

    @property
    def exited(self) -> bool:
        return self.proc.poll() is not None

    @property
    def at_eof(self) -> bool:
        """True once the program's output has ended (it closed stdout or exited)."""
        return self._eof

    def send(self, line: str) -> bool:
        """Write one line; False when the program no longer reads."""
        try:
            self.proc.stdin.write((line.rstrip("\n") + "\n").encode())
            self.proc.stdin.flush()
            return True
        except (OSError, ValueError):
            return False

    def read_line(self, timeout: float | None) -> str | None:
        """The next line of output, or None if none came in time or the program ended."""
        if self._eof:
            return None
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is None:
            self._eof = True
            return None
        return line.rstrip("\r\n")

    def read_line_by(self, deadline: float | None,
                     cancelled: Callable[[], bool] = lambda: False) -> tuple[str | None, str]:
        """The next line before ``deadline`` (a ``time.perf_counter()`` value; None:
        no deadline), or ``(None, why)`` with why ``"eof"``, ``"timeout"`` or
        ``"cancelled"``.  The one "read a line before a deadline" of the line protocols
        (HexLib, GTP, UCI, UCCI); it looks at ``cancelled`` five times a second.
        """
        while True:
            if cancelled():
                return None, "cancelled"
            if self._eof:
                return None, "eof"
            wait = 0.2 if deadline is None else min(0.2, deadline - time.perf_counter())
            if wait <= 0:
                return None, "timeout"
            line = self.read_line(wait)
            if line is not None:
                return line, ""

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
        return self._out.text()

    def stderr_tail(self) -> str:
        return self._err.text()

    def close(self, grace: float = 0.5) -> None:
        """Let the program end by itself for ``grace`` seconds, then kill its tree."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        kill_tree(self.proc.pid)
        self.proc.wait()


PYTHON = sys.executable
