"""A program kept running and spoken to line by line (Hex's line protocol, GTP, UCI),
or simply kept alive while it polls files (Xiangqi).  Part of :mod:`runner.process`;
nothing here imports pygame.
"""
from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Sequence

from games.annotations import MAX_BYTES as MAX_DEBUG_BYTES, is_debug_line
from games.api import Message
from runner.clocks import WALL, CpuMeter, TurnDeadline, _as_deadline
from runner.output import MAX_LINE, MAX_PENDING_LINES, TAIL_BYTES, _OutputReader
from runner.process_tree import _reap
from runner.runs import _popen, _sandbox_for, split_command
from runner.sandbox import STRICT, Sandbox

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
            return Message("closed its output but kept running")
        if code < 0:
            return Message("was killed by signal {signal}", signal=-code)
        return Message("exited with code {code}", code=code)

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
            notes.append(Message("{count} output lines longer than {limit} bytes were cut",
                                 count=self._out.cut_lines, limit=MAX_LINE))
        return notes


PYTHON = sys.executable
