"""What a program's process does before it becomes the program, in the basic level
(and the strict level's resource limits): its own user and PID namespaces (an ordinary
user), the seat's uid or no capabilities (root), its nice and scheduling group, death
with the arena, and the arena as child subreaper.  Part of :mod:`runner.sandbox`;
nothing here imports pygame.
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import time
from typing import Callable

from runner import seat_limits

#: How many times, and how far apart (seconds), the basic level tries that change.
AUTOGROUP_TRIES, AUTOGROUP_RETRY = 20, 0.03


def _as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


CLONE_NEWUSER, CLONE_NEWPID = 0x10000000, 0x20000000


def _namespace_spawner() -> list[str]:
    """What starts the program in the PID namespace :func:`_namespace_entry` prepared:
    util-linux's ``unshare`` forks its first process (PID 1), tied to its own life
    (``--kill-child``); that one, through util-linux's ``setsid`` twice, leads a session
    of its own (process group 1) and waits for the program, which runs in another
    session (PID 2).  So the program's parent is an init its namespace cannot signal:
    ``kill $PPID`` and a kill of its parent's group reach nothing, and the program's
    death ends the init, then the namespace.  Without ``setsid`` the program is PID 1
    (such a kill then hits its own group)."""
    spawner = [shutil.which("unshare") or "/usr/bin/unshare", "--fork", "--kill-child", "--"]
    setsid = shutil.which("setsid")
    if setsid:
        spawner += [setsid, "--", setsid, "--fork", "--wait", "--"]
    return spawner


def _namespace_entry() -> Callable[[], None]:
    """The function that, in the child before exec, makes a user namespace (the
    arena's uid and gid mapped to themselves: no root inside, no capability after
    exec) and a PID namespace for its next child (:func:`_namespace_spawner`).  In its
    own PID namespace a program cannot name (so signal) the arena or any process
    outside; in its own user namespace RLIMIT_NPROC counts its processes only (the
    limit is set after this: the namespace's parent level keeps the user's limit).
    A child that cannot enter them exits with 126 (the record says they hold)."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    uid, gid = os.getuid(), os.getgid()

    def enter() -> None:
        try:
            # A copy of an arena made not dumpable cannot write its own /proc/self maps.
            libc.prctl(seat_limits.PR_SET_DUMPABLE, 1, 0, 0, 0)
            if libc.unshare(CLONE_NEWUSER | CLONE_NEWPID) != 0:
                raise OSError(ctypes.get_errno(), "unshare")
            for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"),
                               ("gid_map", f"{gid} {gid} 1")):
                with open(f"/proc/self/{name}", "w") as fh:
                    fh.write(text)
        except OSError as exc:
            os.write(2, f"arena: the user and PID namespaces could not be made: {exc}\n".encode())
            os._exit(126)
    return enter


@functools.lru_cache(maxsize=1)
def user_namespaces_possible() -> bool:
    """Whether an arena run as an ordinary user can give the basic level's programs
    their own user and PID namespaces here (Linux, util-linux's ``unshare``, a kernel
    that allows unprivileged user namespaces): tried once."""
    if not sys.platform.startswith("linux") or _as_root() or not shutil.which("unshare"):
        return False
    try:
        probe = subprocess.run([*_namespace_spawner(), "true"], preexec_fn=_namespace_entry(),
                               capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return False
    return probe.returncode == 0


def _become(uid: int) -> None:
    """In the child: become ``uid`` (and group ``uid``, no other groups) for good."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


def _drop_capabilities() -> None:
    """In a child of an arena run as root that stays uid 0: empty its capability
    bounding set, so the program it executes has no capability (no CAP_KILL,
    CAP_DAC_OVERRIDE, CAP_SYS_PTRACE ...) and cannot get one back (no new privileges)."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        last = int(open("/proc/sys/kernel/cap_last_cap").read())
    except (OSError, ValueError):
        return
    for cap in range(last + 1):
        libc.prctl(24, cap, 0, 0, 0)            # PR_CAPBSET_DROP
    libc.prctl(38, 1, 0, 0, 0)                  # PR_SET_NO_NEW_PRIVS


def _yield_cpu(niceness: int, own_session: bool) -> None:
    """In the child before exec: run at ``niceness`` (inherited by the program and all it
    starts) and, when this child's new session is the program's (the basic level), give
    the session's scheduling group the same nice (see :data:`NICE_SCRIPT`; the strict
    level's program gets a session of its own inside the sandbox, set there)."""
    try:
        current = os.nice(0)
        if niceness > current:          # never raises the priority of an arena run at a nice
            os.nice(niceness - current)
    except OSError:
        pass
    if not (own_session and sys.platform.startswith("linux")):
        return
    for _ in range(AUTOGROUP_TRIES):
        try:
            with open("/proc/self/autogroup", "w") as fh:
                fh.write(str(niceness))
            return
        except BlockingIOError:     # another program's change less than 0.1 s ago
            time.sleep(AUTOGROUP_RETRY)
        except OSError:             # no autogroups here
            return


def _set_limit(resource, kind: int, soft: int, hard: int) -> None:
    try:
        old_soft, old_hard = resource.getrlimit(kind)
        if old_hard != resource.RLIM_INFINITY:
            hard = min(hard, old_hard)
            soft = min(soft, hard)
        resource.setrlimit(kind, (soft, hard))
    except (ValueError, OSError):
        pass


def _user_tasks() -> int:
    """How many tasks (processes and threads) this user runs now."""
    try:
        import psutil
        uid = os.getuid()
        total = 0
        for proc in psutil.process_iter(["uids", "num_threads"]):
            uids = proc.info.get("uids")
            if uids and uids.real == uid:
                total += proc.info.get("num_threads") or 1
        return total
    except Exception:
        return 4096


def _pdeathsig_function() -> Callable[[], None] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None
    import signal
    arena = os.getpid()

    def set_pdeathsig() -> None:
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)      # PR_SET_PDEATHSIG
        if os.getppid() != arena:       # the arena died before: no signal will come
            os._exit(1)
    return set_pdeathsig


_SUBREAPER = False


def become_subreaper() -> None:
    """Make the arena adopt its programs' orphans (Linux), so a double fork is still found."""
    global _SUBREAPER
    if _SUBREAPER or not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)   # PR_SET_CHILD_SUBREAPER
        _SUBREAPER = True
    except OSError:
        pass


def is_subreaper() -> bool:
    return _SUBREAPER
