"""Output capture: a program's stdout and stderr read in chunks and kept bounded (the
first and last ``TAIL_BYTES`` of each stream, with a count of what was left out; lines
cut at ``MAX_LINE``), so a program that prints forever costs nothing.  Part of
:mod:`runner.process`; nothing here imports pygame.
"""
from __future__ import annotations

import array
import collections
import os
import queue
import select
import threading
import time
from typing import Sequence

#: Bytes kept of each output stream's start and of its end (what lies between is counted).
TAIL_BYTES = 4096
#: Bytes read from a program's output at a time.
CHUNK_BYTES = 65536
#: Longest line a line protocol takes; the rest of a longer line is dropped.
MAX_LINE = 16384
#: Lines waiting to be read; a program printing more waits (its pipe fills) until they are.
MAX_PENDING_LINES = 1000


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


class _KeptOutput:
    """What is kept of one output stream: its first and last ``TAIL_BYTES``, and a count
    of what was dropped between; read back with :meth:`since` and :meth:`text`.  The
    stream is drained by a thread of its own (:class:`_OutputReader`) or by the
    process's one :class:`OutputPump` (:class:`PumpedOutput`)."""

    def _init_kept(self, stream) -> None:
        self.stream = stream
        self.head = bytearray()
        self.tail: collections.deque[bytes] = collections.deque()
        self.tail_size = 0
        self.total = 0
        self.closing = threading.Event()
        self._taking = threading.Lock()      # held from a chunk's read until it is kept

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


class _OutputReader(_KeptOutput, threading.Thread):
    """Drains one stream in chunks on a thread of its own, keeping it as
    :class:`_KeptOutput` does; optionally cuts it into lines of at most ``MAX_LINE``
    bytes (the rest of a longer line is dropped, never buffered) for a line queue that
    holds at most ``MAX_PENDING_LINES``: when it is full the reader waits, the pipe
    fills, and the program waits too, so memory stays bounded."""

    def __init__(self, stream, lines: queue.Queue | None = None):
        threading.Thread.__init__(self, daemon=True)
        self._init_kept(stream)
        self.lines = lines
        self.dropped_lines = 0
        self.cut_lines = 0
        self._partial = bytearray()
        self._skipping = False

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

class PumpedOutput(_KeptOutput):
    """One stream of a run drained by the process's :class:`OutputPump` instead of a
    thread of its own: a run a turn then starts no thread (two thread starts and joins
    cost the judge about 0.1 ms of CPU a run).  Kept as :class:`_KeptOutput` keeps it;
    ``start``, ``join`` and ``is_alive`` behave as a reader thread's would (alive until
    the stream's end has been read)."""

    def __init__(self, stream):
        self._init_kept(stream)
        self._ended = threading.Event()

    def start(self) -> None:
        OutputPump.shared().add(self)

    def join(self, timeout: float | None = None) -> None:
        self._ended.wait(timeout)

    def is_alive(self) -> bool:
        return not self._ended.is_set()

    def _drain(self) -> bool:
        """Read one chunk (the pump saw the stream readable); False at its end."""
        with self._taking:
            try:
                chunk = os.read(self.stream.fileno(), CHUNK_BYTES)
            except (OSError, ValueError):
                chunk = b""
            if chunk:
                self.total += len(chunk)
                self._keep(chunk)
        return bool(chunk)

    def _end(self) -> None:
        try:
            self.stream.close()
        except OSError:
            pass
        self._ended.set()


class OutputPump:
    """One daemon thread that drains every :class:`PumpedOutput` of the process with one
    ``poll``; a stream is added through a wake-up pipe and leaves at its end."""

    _shared: "OutputPump | None" = None
    _making = threading.Lock()

    @classmethod
    def shared(cls) -> "OutputPump":
        """The process's pump, started the first time it is needed (and again in a
        forked child, where the parent's thread does not run)."""
        with cls._making:
            pump = cls._shared
            if pump is None or pump.pid != os.getpid():
                pump = cls._shared = cls()
            return pump

    def __init__(self):
        self.pid = os.getpid()
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_read, False)
        self._incoming: collections.deque[PumpedOutput] = collections.deque()
        self._streams: dict[int, PumpedOutput] = {}
        self._poller = select.poll()
        self._poller.register(self._wake_read, select.POLLIN)
        threading.Thread(target=self._serve, name="output-pump", daemon=True).start()

    def add(self, output: PumpedOutput) -> None:
        self._incoming.append(output)
        os.write(self._wake_write, b"+")

    def _serve(self) -> None:
        while True:
            for fd, _ in self._poller.poll():
                if fd == self._wake_read:
                    self._take_incoming()
                    continue
                output = self._streams.get(fd)
                if output is not None and not output._drain():
                    self._poller.unregister(fd)
                    del self._streams[fd]
                    output._end()

    def _take_incoming(self) -> None:
        try:
            while os.read(self._wake_read, 4096):
                pass
        except BlockingIOError:
            pass
        while self._incoming:
            output = self._incoming.popleft()
            try:
                fd = output.stream.fileno()
            except (OSError, ValueError):
                output._end()
                continue
            self._streams[fd] = output
            self._poller.register(fd, select.POLLIN)


#: Seconds :meth:`GatedRun.end` waits for a dead program's output to end before it
#: takes an orphan to be holding it open (the output of a dead tree ends at once).
OUTPUT_END_WAIT = 0.02


def _ended_within(readers: Sequence[threading.Thread], seconds: float) -> bool:
    """Whether every reader has finished within ``seconds`` (waited for together)."""
    deadline = time.perf_counter() + seconds
    for reader in readers:
        reader.join(max(0.0, deadline - time.perf_counter()))
    return not any(reader.is_alive() for reader in readers)
