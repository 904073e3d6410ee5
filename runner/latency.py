"""Asking the operating system to wake a waiting referee thread promptly.

A referee that relays moves (the Xiangqi move files) sleeps until a program has
written its move, then has well under a millisecond of work to do.  On a busy machine
what delays it is not that work but the wait for a CPU: Linux's scheduler (EEVDF, from
6.6) lets the task already running finish its time slice (about 1.4 ms on two cores)
before a task that just woke gets its turn, and with several busy tasks that adds up.

Since Linux 6.12 a thread may ask for shorter slices (``sched_setattr`` with
``sched_runtime`` under the usual policy; no privilege needed, 0.1 ms at least).  A
thread with short slices is woken ahead of tasks with longer ones, and gets no more CPU
over time than before: its share still follows its nice value.  Measured with
``bench/xiangqi_referee_bench.py`` beside two busy processes: relay p90 about 6-6.5 ms
with short slices against 7.7-8.7 ms without.

Python has no ``os.sched_setattr``, so the system call is made through ``ctypes``.
Where it is missing (another system, an older kernel ignores the request) nothing
changes; nothing here can fail the caller.
"""
from __future__ import annotations

import os
import platform
import sys
import threading

#: The slice the relaying thread asks for, in seconds (Linux's smallest).
SHORT_SLICE = 0.0001

#: ``sched_setattr`` and ``sched_getattr`` by processor (Linux system call numbers).
_SYSCALLS = {"x86_64": (314, 315), "amd64": (314, 315), "aarch64": (274, 275), "arm64": (274, 275)}
_done = threading.local()


def _sched_attr_type():
    import ctypes

    class SchedAttr(ctypes.Structure):
        """``struct sched_attr`` as far as version 0 of it (48 bytes)."""

        _fields_ = [("size", ctypes.c_uint32), ("sched_policy", ctypes.c_uint32),
                    ("sched_flags", ctypes.c_uint64), ("sched_nice", ctypes.c_int32),
                    ("sched_priority", ctypes.c_uint32), ("sched_runtime", ctypes.c_uint64),
                    ("sched_deadline", ctypes.c_uint64), ("sched_period", ctypes.c_uint64)]
    return SchedAttr


def ask_for_short_slices(seconds: float = SHORT_SLICE) -> bool:
    """Ask for time slices of ``seconds`` for the calling thread (once per thread).

    True when the system accepted the request.  Only threads under the usual policy
    (``SCHED_OTHER``) ask; the thread's nice value is kept.  Threads it starts later
    inherit the slice.
    """
    if getattr(_done, "asked", None) is None:
        _done.asked = set_slice(seconds)
    return _done.asked


def set_slice(seconds: float) -> bool:
    """Set the calling thread's time slice (0: the system's default); True when accepted."""
    calls = _SYSCALLS.get(platform.machine().lower())
    if not sys.platform.startswith("linux") or calls is None:
        return False
    try:
        import ctypes
        if os.sched_getscheduler(0) != os.SCHED_OTHER:
            return False
        attr = _sched_attr_type()(size=48, sched_policy=os.SCHED_OTHER,
                                  sched_nice=os.getpriority(os.PRIO_PROCESS, 0),
                                  sched_runtime=int(seconds * 1e9))
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.syscall(calls[0], 0, ctypes.byref(attr), 0) == 0
    except (OSError, AttributeError, ValueError):
        return False


def current_slice() -> float | None:
    """The calling thread's time slice in seconds as the system reports it (None where
    it cannot be read): for tests and the bench."""
    calls = _SYSCALLS.get(platform.machine().lower())
    if not sys.platform.startswith("linux") or calls is None:
        return None
    try:
        import ctypes
        attr = _sched_attr_type()()
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.syscall(calls[1], 0, ctypes.byref(attr), 48, 0) != 0:
            return None
    except (OSError, AttributeError):
        return None
    return attr.sched_runtime / 1e9
