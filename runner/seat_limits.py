"""What the basic sandbox adds without bubblewrap: Landlock and a pids control group.

* :class:`Landlock` (Linux 5.13+, no root needed): a program's process confines itself,
  just before exec, to reading (and running) the system's folders and its own files and
  to reading and writing its seat folder; every other file is out of its reach, and
  the arena's and other seats' processes out of its ``ptrace`` (so their
  ``/proc/PID/environ``).  Newer kernels add more, each used when the kernel has it
  (its ABI version): renames inside the folder (2), truncation (3), no TCP (4),
  device ioctls (5), and no signal to, nor abstract Unix socket of, any process outside
  the program's own tree (6: the arena cannot be killed by it).
* :class:`PidsGroup` (cgroup v1 ``pids`` controller, where the arena may make a group:
  as root): a cap on the tasks a program's tree may hold, which binds root too, unlike
  RLIMIT_NPROC.  Removed when the program is reaped (:func:`release`).

Both are made in the arena (the parent) and entered in the child before exec (a
``preexec_fn``: :meth:`Landlock.enter`, :meth:`PidsGroup.enter`); each returns None
where it cannot be had, so callers degrade without raising.  Nothing here imports pygame.
"""
from __future__ import annotations

import ctypes
import itertools
import os
import platform
import sys
import threading
from pathlib import Path
from typing import Iterable

# ---------------------------------------------------------------------------- Landlock
#: The Landlock system calls (the same numbers on x86_64 and aarch64).
SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446
LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38
#: File access rights by the ABI version that brought them.
FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
FS_REMOVE_DIR, FS_REMOVE_FILE, FS_MAKE_CHAR, FS_MAKE_DIR = 1 << 4, 1 << 5, 1 << 6, 1 << 7
FS_MAKE_REG, FS_MAKE_SOCK, FS_MAKE_FIFO, FS_MAKE_BLOCK = 1 << 8, 1 << 9, 1 << 10, 1 << 11
FS_MAKE_SYM, FS_REFER, FS_TRUNCATE, FS_IOCTL_DEV = 1 << 12, 1 << 13, 1 << 14, 1 << 15
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1
_FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 4: (1 << 15) - 1,
              5: (1 << 16) - 1}
#: Rights that make sense on a file (a rule on a file with others is refused).
_FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV
READ = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR
#: Everything in the seat folder but making devices.
WRITE = (READ | FS_WRITE_FILE | FS_REMOVE_DIR | FS_REMOVE_FILE | FS_MAKE_DIR | FS_MAKE_REG
         | FS_MAKE_SOCK | FS_MAKE_FIFO | FS_MAKE_SYM | FS_REFER | FS_TRUNCATE)
#: Devices a program may read and write (everything else of /dev is out of reach).
DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _libc():
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


_ABI: int | None = None


def landlock_abi() -> int:
    """The kernel's Landlock ABI version (0: none here: not Linux, another machine
    type, an older kernel, or Landlock not enabled at boot)."""
    global _ABI
    if _ABI is None:
        _ABI = 0
        if sys.platform.startswith("linux") and platform.machine() in ("x86_64", "aarch64", "arm64"):
            libc = _libc()
            if libc is not None:
                version = libc.syscall(SYS_CREATE_RULESET, None, ctypes.c_size_t(0),
                                       ctypes.c_uint32(LANDLOCK_CREATE_RULESET_VERSION))
                _ABI = max(0, int(version))
    return _ABI


def landlock_features(abi: int | None = None) -> list[str]:
    """What Landlock confines at ``abi`` (default: this kernel's), in words."""
    abi = landlock_abi() if abi is None else abi
    if abi < 1:
        return []
    found = ["files: its own folder, its program's files and the system's, nothing else",
             "no ptrace of the arena or other seats (their /proc/PID/environ)"]
    if abi >= 4:
        found.append("no TCP (bind, connect)")
    if abi >= 6:
        found.append("no signal to the arena or other seats, no abstract Unix socket outside")
    return found


class Landlock:
    """A Landlock ruleset made in the arena for one program; :meth:`enter` applies it in
    the child before exec.  :meth:`make` returns None where Landlock is not there."""

    def __init__(self, fd: int, abi: int):
        self.fd, self.abi = fd, abi
        self._libc = _libc()

    @classmethod
    def make(cls, writable: Iterable[str | Path], readable: Iterable[str | Path],
             listable: Iterable[str | Path] = ()) -> "Landlock | None":
        """A ruleset: ``writable`` folders (the seat's: read, write, make, remove),
        ``readable`` files and folders (read and run), ``listable`` folders (their names
        and their subfolders' names only), plus :data:`DEVICES` and /proc
        (read: another process's sensitive files are behind ptrace, which Landlock
        keeps to the program's own tree).  None without Landlock, or when the kernel
        refuses it (the reason is then the caller's to say: nothing is half-applied)."""
        abi = landlock_abi()
        libc = _libc() if abi else None
        if libc is None:
            return None
        attr = _RulesetAttr(_FS_BY_ABI.get(abi, _FS_BY_ABI[5]), 0, 0)
        size = 8
        if abi >= 4:
            attr.handled_access_net, size = NET_BIND_TCP | NET_CONNECT_TCP, 16
        if abi >= 6:
            attr.scoped, size = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL, 24
        fd = libc.syscall(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size),
                          ctypes.c_uint32(0))
        if fd < 0:
            return None
        ruleset = cls(fd, abi)
        handled = attr.handled_access_fs
        try:
            for path in writable:
                ruleset._allow(path, WRITE & handled)
            for path in readable:
                ruleset._allow(path, READ & handled)
            for path in listable:
                ruleset._allow(path, FS_READ_DIR & handled)
            for path in DEVICES:
                ruleset._allow(path, (FS_READ_FILE | FS_WRITE_FILE | FS_TRUNCATE | FS_IOCTL_DEV) & handled)
            ruleset._allow("/proc", (FS_READ_FILE | FS_READ_DIR) & handled)
        except OSError:
            ruleset.close()
            return None
        return ruleset

    def _allow(self, path: str | Path, rights: int) -> None:
        """Add one rule; a path that does not exist is skipped (as bwrap's ``-try``)."""
        try:
            fd = os.open(str(path), os.O_PATH | os.O_CLOEXEC)
        except OSError:
            return
        try:
            if not os.path.isdir(str(path)):
                rights &= _FILE_RIGHTS
            rule = _PathBeneathAttr(rights, fd)
            if self._libc.syscall(SYS_ADD_RULE, ctypes.c_int(self.fd),
                                  ctypes.c_int(LANDLOCK_RULE_PATH_BENEATH), ctypes.byref(rule),
                                  ctypes.c_uint32(0)) != 0:
                err = ctypes.get_errno()
                raise OSError(err, f"landlock_add_rule {path}: {os.strerror(err)}")
        finally:
            os.close(fd)

    def enter(self) -> None:
        """In the child, just before exec: no new privileges, then the ruleset.  A
        child that cannot enter it says so on stderr and exits with 126 (the program
        never runs unconfined when the record says it is confined)."""
        libc = self._libc
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or \
                libc.syscall(SYS_RESTRICT_SELF, ctypes.c_int(self.fd), ctypes.c_uint32(0)) != 0:
            err = ctypes.get_errno()
            os.write(2, f"arena: the Landlock sandbox could not be entered: {os.strerror(err)}\n".encode())
            os._exit(126)

    def close(self) -> None:
        if self.fd >= 0:
            try:
                os.close(self.fd)
            except OSError:
                pass
            self.fd = -1

    def __del__(self):
        self.close()


# ---------------------------------------------------------------------- pids groups
#: The cgroup v1 ``pids`` hierarchy (the unified v2 hierarchy is not used here).
PIDS_ROOT = Path("/sys/fs/cgroup/pids")
#: How a program's pids group is named: the prefix, the arena's pid, a count.
PIDS_PREFIX = "arena-seat-"
_COUNT = itertools.count(1)
_GROUPS: dict[int, "PidsGroup"] = {}
_GROUPS_LOCK = threading.Lock()
_CLEANED = False


def pids_groups_possible() -> bool:
    """Whether the arena may make pids groups here (a writable v1 ``pids`` hierarchy)."""
    return sys.platform.startswith("linux") and (PIDS_ROOT / "cgroup.procs").is_file() \
        and os.access(PIDS_ROOT, os.W_OK)


class PidsGroup:
    """A cgroup of the ``pids`` controller capping one program's tree at ``limit`` tasks
    (processes and threads).  The child enters it before exec (:meth:`enter`), so
    everything the program starts is in it, double forks included."""

    def __init__(self, path: Path):
        self.path = path

    @classmethod
    def make(cls, limit: int) -> "PidsGroup | None":
        """A new group with ``pids.max`` = ``limit``, or None where none can be made."""
        if not pids_groups_possible():
            return None
        _remove_stale_groups()
        path = PIDS_ROOT / f"{PIDS_PREFIX}{os.getpid()}-{next(_COUNT)}"
        try:
            path.mkdir()
            (path / "pids.max").write_text(str(int(limit)))
        except OSError:
            _rmdir(path)
            return None
        return cls(path)

    def enter(self) -> None:
        """In the child before exec: move this process into the group (it exits with
        126 when it cannot: the cap would not hold)."""
        try:
            with open(self.path / "cgroup.procs", "w") as fh:
                fh.write("0")
        except OSError as exc:
            os.write(2, f"arena: the pids group could not be entered: {exc}\n".encode())
            os._exit(126)

    def tasks(self) -> list[int]:
        try:
            return [int(w) for w in (self.path / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return []

    def remove(self) -> bool:
        """Kill whatever is left in the group and remove it; False when it still holds a
        task (it is then removed by a later arena: :func:`_remove_stale_groups`)."""
        import signal
        import time
        for _ in range(50):
            left = self.tasks()
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            if _rmdir(self.path):
                return True
            time.sleep(0.01)
        return False


def _rmdir(path: Path) -> bool:
    try:
        path.rmdir()
        return True
    except FileNotFoundError:
        return True
    except OSError:
        return False


def _remove_stale_groups() -> None:
    """Once per arena: remove the empty groups arenas that no longer run left behind."""
    global _CLEANED
    if _CLEANED:
        return
    _CLEANED = True
    try:
        for path in PIDS_ROOT.glob(f"{PIDS_PREFIX}*"):
            pid = path.name[len(PIDS_PREFIX):].split("-", 1)[0]
            if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
                PidsGroup(path).remove()
    except OSError:
        pass


def hold(pid: int, group: "PidsGroup | None") -> None:
    """Note that program ``pid`` runs in ``group`` (removed at :func:`release`)."""
    if group is not None:
        with _GROUPS_LOCK:
            _GROUPS[pid] = group


def release(pid: int) -> None:
    """The program ``pid`` was reaped: remove its group (killing what is left in it)."""
    with _GROUPS_LOCK:
        group = _GROUPS.pop(pid, None)
    if group is not None:
        group.remove()


# ------------------------------------------------------------------------ the arena
PR_SET_DUMPABLE = 4
_HIDDEN = False


def hide_arena_from_same_user() -> bool:
    """Make the arena's process not dumpable (Linux), so that a process of the same user
    that is not its tracer cannot read its ``/proc/PID/environ``, ``mem`` or ``fd``.  It
    holds until the arena exits (programs get back the default at their exec)."""
    global _HIDDEN
    if _HIDDEN or not sys.platform.startswith("linux"):
        return _HIDDEN
    libc = _libc()
    if libc is not None and libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0:
        _HIDDEN = True
    return _HIDDEN
