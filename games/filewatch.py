"""Noticing at once that another program has finished writing a file.

A referee waiting for a contest program's move file used to look at it every 0.05 s,
so a move waited tens of milliseconds before the arena even saw it.  A
:class:`FileWatch` wakes its reader as soon as the file changes instead: on Linux
through inotify (the ``inotify_simple`` library), elsewhere by looking again after a
short sleep (the fast poll fallback).

It never decides what a file holds; it only tells the reader *when* to look and
whether the writer still has the file open:

* ``complete`` -- the writer closed the file after writing it, or renamed a finished
  file into place (inotify's ``IN_CLOSE_WRITE``/``IN_MOVED_TO``);
* ``writing`` -- the file was created or modified and not yet closed: whatever the
  reader sees now may be half a file.

The watch is on the file's folder (a file replaced by a rename is a new file), made
with ``IN_DONT_FOLLOW | IN_ONLYDIR`` so a link in the folder's place is refused and the
watch falls back to polling.  Events for other names are ignored; an overflowing event
queue (a program flooding its folder) only means "look again".  Reading the file
itself stays :mod:`games.fileio`'s business (no links followed, no blocking, size caps).
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Iterable

try:                                    # Linux only; elsewhere the poll fallback
    import inotify_simple
except ImportError:                     # pragma: no cover - depends on the platform
    inotify_simple = None

#: Seconds between looks when the operating system gives no notifications.
FALLBACK_POLL = 0.005


class FileWatch:
    """Wakes :meth:`wait` when one of ``names`` in ``folder`` changes (see the module's doc).

    ``use_notifications=False`` forces the poll fallback (for tests and the bench).
    """

    def __init__(self, folder: str | Path, names: Iterable[str], use_notifications: bool = True):
        self.folder = Path(folder)
        self.names = {str(name) for name in names}
        #: True while a watched file was modified and not yet closed by its writer.
        self.writing = False
        self._inotify = None
        if use_notifications and inotify_simple is not None and sys.platform.startswith("linux"):
            self._inotify = _open_inotify(self.folder)

    @property
    def notifies(self) -> bool:
        """True when the operating system tells us about changes (no polling needed)."""
        return self._inotify is not None

    def wait(self, timeout: float) -> bool:
        """Sleep until a watched file changes or ``timeout`` seconds pass.

        True when something happened to a watched file (look at it now).  Without
        notifications this sleeps ``timeout`` (capped by the caller) and returns True.
        """
        timeout = max(0.0, timeout)
        if self._inotify is None:
            time.sleep(timeout)
            return True
        try:
            events = self._inotify.read(timeout=int(timeout * 1000 + 0.999))
        except OSError:              # the descriptor broke: poll from now on
            self.close()
            return True
        return self._take(events)

    def drain(self) -> bool:
        """Take the events already queued, without waiting; True when one was ours."""
        return self.wait(0.0) if self._inotify is not None else False

    def _take(self, events) -> bool:
        flags = inotify_simple.flags
        touched = False
        for event in events:
            if event.mask & flags.Q_OVERFLOW:
                touched = True        # some were lost: we cannot say whether it is writing
                self.writing = False
                continue
            if event.mask & (flags.IGNORED | flags.DELETE_SELF | flags.MOVE_SELF):
                self.close()          # the folder went away: polling from now on
                return True
            if event.name not in self.names:
                continue
            touched = True
            if event.mask & (flags.CLOSE_WRITE | flags.MOVED_TO | flags.DELETE | flags.MOVED_FROM):
                self.writing = False
            elif event.mask & (flags.MODIFY | flags.CREATE):
                self.writing = True
        return touched

    def close(self) -> None:
        """Release the inotify descriptor (safe to call twice)."""
        if self._inotify is not None:
            try:
                self._inotify.close()
            except OSError:
                pass
            self._inotify = None

    def __enter__(self) -> "FileWatch":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _open_inotify(folder: Path):
    """An inotify descriptor watching ``folder``, or None when the system refuses."""
    flags = inotify_simple.flags
    mask = (flags.CREATE | flags.MODIFY | flags.CLOSE_WRITE | flags.MOVED_TO | flags.MOVED_FROM
            | flags.DELETE | flags.DELETE_SELF | flags.MOVE_SELF | flags.DONT_FOLLOW | flags.ONLYDIR)
    try:
        watcher = inotify_simple.INotify()
    except OSError:                  # too many inotify instances, or no inotify at all
        return None
    try:
        watcher.add_watch(os.fspath(folder), mask)
    except OSError:                  # missing folder, a link in its place, no more watches
        watcher.close()
        return None
    return watcher
