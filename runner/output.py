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


#: Seconds :meth:`GatedRun.end` waits for a dead program's output to end before it
#: takes an orphan to be holding it open (the output of a dead tree ends at once).
OUTPUT_END_WAIT = 0.02


def _ended_within(readers: Sequence[threading.Thread], seconds: float) -> bool:
    """Whether every reader has finished within ``seconds`` (waited for together)."""
    deadline = time.perf_counter() + seconds
    for reader in readers:
        reader.join(max(0.0, deadline - time.perf_counter()))
    return not any(reader.is_alive() for reader in readers)
