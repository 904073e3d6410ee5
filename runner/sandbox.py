"""A sandbox for every program seat: what a contestant's program may see and use.

Two levels, chosen once per arena (:func:`strict_problem` says why strict is out):

* ``strict`` (Linux with bubblewrap, ``bwrap``): the program runs in its own user,
  mount, PID, network, IPC and UTS namespaces (an arena run by an ordinary user gets
  them through unprivileged user namespaces; as root, the program gets a uid of its own).  It sees its own folder (read-write),
  its own files and the arena's ``games`` package (read-only: contest libraries such
  as HexLib live there), the system's libraries (read-only), a private ``/tmp``,
  ``/proc`` of its own namespace and a minimal ``/dev``; no network; it cannot see or
  signal the arena or the other seats, and every process it starts (double-forked,
  ``setsid`` or not) dies with the namespace when the seat is closed or the arena
  dies (``--die-with-parent``, and the lifeline watcher of :data:`LIFELINE_SCRIPT`).
* ``basic`` (elsewhere, or where namespaces are refused; ``ARENA_SANDBOX=basic``
  forces it): its own session and process group, the same resource limits, a
  scrubbed environment, its own folder, ``PR_SET_PDEATHSIG`` on Linux so it dies with
  the arena, and the arena as child subreaper so double-forked processes can still be
  found and killed, also by the guard process of :mod:`runner.process` when the arena
  itself is killed.  On Linux it adds what it can have without bubblewrap
  (:meth:`Sandbox.protections` lists what held, the record's header shows it):

  - as root, the program runs as the seat's own unprivileged uid (the strict level's),
    its folder owned by that uid with permissions 0700 (no other seat can enter it), so
    RLIMIT_NPROC binds and it can neither signal the arena nor read root's files; when
    its files cannot be read by another user it runs as root with no capabilities;
  - Landlock (Linux 5.13+, :mod:`runner.seat_limits`): it reads only the system's
    folders and its program's files, writes only its folder, cannot ptrace (read the
    environment of) the arena, and from Linux 6.12 cannot signal it;
  - as an ordinary user where unprivileged user namespaces exist, its own user and PID
    namespaces (:func:`_namespace_entry`): it cannot signal the arena or any process
    outside, its processes die with the namespace, RLIMIT_NPROC counts only its own;
  - as root, a cgroup (v1 ``pids``) caps its whole tree's tasks, root's included;
  - the arena is made not dumpable, so a program of the same user cannot read its
    ``/proc/PID/environ``.

  It has no mount or network namespace: it sees every process in ``/proc`` and the
  network (TCP is closed by Landlock from Linux 6.7), which the record's warning says.

Both levels set resource limits (:class:`SandboxLimits`): address space (memory),
processes, CPU seconds, file size and open files.  What of a program's files is shown
lives in :mod:`runner.sandbox_paths`, what its process does before exec in
:mod:`runner.sandbox_child`, the strict level's warm sandbox in :mod:`runner.warm` and
the basic level's in :mod:`runner.warm_basic` (this module gives the names of the first
two).  Nothing here imports pygame.
"""
from __future__ import annotations

import errno
import functools
import random
import os
import shutil
import subprocess
import sys
import threading
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from runner import seat_limits
from runner.sandbox_child import (AUTOGROUP_RETRY, AUTOGROUP_TRIES, CLONE_NEWPID,  # noqa: F401
                                  CLONE_NEWUSER, _as_root, _become, _drop_capabilities,
                                  _namespace_entry, _namespace_spawner, _pdeathsig_function,
                                  _set_limit, _user_tasks, _yield_cpu, become_subreaper,
                                  is_subreaper, user_namespaces_possible)
from runner.sandbox_paths import (_BROAD, _hand_over, _inside, _program_paths,  # noqa: F401
                                  _unreadable_by_others, _unshim, _which)

STRICT, BASIC = "strict", "basic"

#: The environment a program gets (plus HOME and TMPDIR).
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
#: System folders bound read-only in the strict level (when present).
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt")
#: Files and folders of /etc a dynamically linked program may need; nothing else of /etc.
ETC_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
             "/etc/localtime", "/etc/fpc.cfg", "/etc/java-17-openjdk", "/etc/ssl/certs")
#: The file marking a folder the arena made for one program (runner.match.SEAT_MARKER).
SEAT_MARKER = ".arena-seat"
#: The arena's game packages (contest libraries such as HexLib), shown read-only.
GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
#: The shell that holds a gated program (see :meth:`Sandbox.command`).
GATE_SHELL = "/bin/sh"
#: What a gated program runs first: it waits for one line on stdin (the judge's "go"),
#: then becomes the program, whose stdin is /dev/null.
GATE_SCRIPT = 'read -r go && exec "$@" </dev/null'
#: What a program with a ``nice`` limit runs first inside the strict level (as the seat's
#: uid): its session's scheduling group gets that nice too, then it becomes the program.
#: Linux schedules each session (``setsid``; bwrap's ``--new-session`` makes one) as a
#: group ("autogroup") that shares the CPU evenly with the other groups whatever its
#: tasks' nice values, so the task's nice alone would not make the program yield to the
#: referee.  Linux takes one such change every 0.1 s from unprivileged programs (EAGAIN
#: otherwise): a program started together with another tries again for up to about 0.6 s.
#: A system without autogroups has no such file: nothing is written.
NICE_SCRIPT = ('tries=20; while [ -e /proc/self/autogroup ] && [ "$tries" -gt 0 ]; do '
               'echo "$0" 2>/dev/null >/proc/self/autogroup && break; '
               'tries=$((tries - 1)); sleep 0.03 2>/dev/null || break; done; exec "$@"')
#: What runs first inside the strict level (as the seat's uid), before the program: a
#: watcher in the background that waits on the lifeline (:func:`lifeline`, descriptor
#: ``{fd}``) and, when it ends (the arena is gone: its write end is closed, ``kill -9``
#: included), kills every process of the sandbox's PID namespace (``kill -1`` there
#: reaches only them); the program itself does not hold the lifeline.  bwrap's own
#: ``--die-with-parent`` binds its init in the sandbox to bwrap only after its clone:
#: an arena killed in those first milliseconds left the init and the program running
#: (in 20 launchers killed 0-20 ms after the start, most survived), and bwrap given
#: ``PR_SET_PDEATHSIG`` by the arena, killed before it let its init go on, left that
#: init waiting for ever.  So bwrap is not bound to the arena: the watcher ends the
#: sandbox, then its init and bwrap exit.  An arena run as root starts the watcher as
#: root, out of the program's reach (an ordinary user's program, the same uid, can kill
#: it: the guard of :mod:`runner.process` is then what remains).  While the program
#: runs normally the watcher only waits (it dies with the namespace).  A brace group, not
#: a subshell: one fork, so no short-lived intermediate process is left under the init.
LIFELINE_SCRIPT = ('{{ read -r _ <&{fd}; kill -KILL -1; }} </dev/null >/dev/null 2>&1 & '
                   'exec "$@" {fd}<&-')
#: The shell that runs it: a descriptor above 9 takes bash (POSIX sh takes 0-9 only);
#: without bash such a descriptor stays open in the program (a read end: harmless
#: unless it reopens it for writing through /proc, which keeps its sandbox alive).
LIFELINE_SHELLS = ("/bin/bash", "/usr/bin/bash")


@dataclass(frozen=True)
class SandboxLimits:
    """A seat's resource limits; None means no limit of that kind.

    Seat limits (``limits`` of ``make_seat``) override them by the same names:
    ``memory_mb`` (address space), ``processes`` (processes and threads),
    ``cpu_seconds``, ``file_mb`` (largest file it may write), ``open_files``, and
    ``nice`` (1-19: the program runs at that lower CPU priority, see :data:`NICE_SCRIPT`;
    None: the arena's own).
    """

    memory_mb: int | None = 1024
    processes: int | None = 64
    cpu_seconds: int | None = None
    file_mb: int | None = 64
    open_files: int | None = 256
    nice: int | None = None

    @classmethod
    def from_seat(cls, limits: Mapping[str, Any] | None = None, **defaults) -> "SandboxLimits":
        """The seat's limits over the given defaults over the class defaults (0: none)."""
        values = asdict(cls())
        values.update({k: v for k, v in defaults.items() if k in values})
        for key in values:
            if limits and limits.get(key) is not None:
                values[key] = limits[key]
        return cls(**{k: (None if v in (None, 0, "0", "") else int(float(v)))
                      for k, v in values.items()})

    def with_cpu(self, seconds: float | None) -> "SandboxLimits":
        """These limits with a CPU limit of about ``seconds`` (when none is set)."""
        if self.cpu_seconds is not None or seconds is None:
            return self
        return replace(self, cpu_seconds=int(seconds) + 2)

    @property
    def niceness(self) -> int:
        """The nice value a program is started with: ``nice`` kept within 1-19 (a seat can
        only be made to yield, never to take priority); 0 when not set."""
        return min(19, max(1, self.nice)) if self.nice else 0


@functools.lru_cache(maxsize=1)
def strict_problem() -> str:
    """Why the strict level cannot be used here ("" when it can)."""
    if os.environ.get("ARENA_SANDBOX", "").lower() == BASIC:
        return "ARENA_SANDBOX=basic asks for the basic level"
    if not sys.platform.startswith("linux"):
        return f"namespaces need Linux (this is {sys.platform})"
    bwrap = shutil.which("bwrap")
    if not bwrap:
        return "bubblewrap (bwrap) is not installed"
    try:
        probe = subprocess.run([bwrap, *_namespace_args(), *_system_args(), "--", "true"],
                               capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap could not run: {exc}"
    if probe.returncode != 0:
        why = probe.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"bwrap cannot create namespaces here: {why[-1] if why else probe.returncode}"
    return ""


def level() -> str:
    """The level every new sandbox gets in this arena."""
    return BASIC if strict_problem() else STRICT


def _namespace_args() -> list[str]:
    # An arena running as root makes no user namespace: the program's root would still be
    # the real root to the process limit (the kernel never applies RLIMIT_NPROC to uid 0).
    # It gets an unprivileged uid of its own instead (see Sandbox.command).
    user = [] if _as_root() else ["--unshare-user"]
    return [*user, "--unshare-pid", "--unshare-net", "--unshare-ipc",
            "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent", "--new-session"]


def _unprivileged_warm_args(folder: Path | None) -> list[str]:
    """What an ordinary user's warm sandbox adds to bwrap's arguments.  There every
    folder bubblewrap makes belongs to the user, so to the program too, and would keep
    what one run writes for the next: the sandbox's root, ``/dev`` and the folder that
    hides the other seats' are made read-only (the seat's folder and ``/tmp``, other
    mounts, stay writable), and ``/dev/shm`` is a tmpfs of its own, emptied after each
    run as ``/tmp`` is.  The launcher keeps CAP_SYS_ADMIN in the sandbox's user
    namespace to make each run's IPC namespace (each run drops it: see
    :mod:`runner.launcher`)."""
    args = ["--perms", "1777", "--size", str(64 << 20), "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
    parent = folder.parent if folder is not None else None
    if parent is not None and str(parent) != "/" and str(parent) not in SYSTEM_DIRS:
        args += ["--remount-ro", str(parent)]
    return args + ["--remount-ro", "/", "--cap-add", "CAP_SYS_ADMIN"]


@functools.lru_cache(maxsize=1)
def unprivileged_warm_possible() -> bool:
    """Whether an ordinary user's arena can have the warm strict sandbox here: the
    strict level, and a bubblewrap that lets its launcher keep CAP_SYS_ADMIN inside
    the user namespace (not a setuid bwrap, which refuses ``--cap-add`` to users).
    Tried once."""
    if _as_root() or strict_problem():
        return False
    try:
        probe = subprocess.run([shutil.which("bwrap") or "bwrap", *_namespace_args(), *_system_args(),
                                *_unprivileged_warm_args(None),
                                "--", "true"], capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


def _system_args() -> list[str]:
    args: list[str] = []
    for name in SYSTEM_DIRS:
        path = Path(name)
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), name]
        elif path.is_dir():
            args += ["--ro-bind", name, name]
    for name in ETC_FILES:
        args += ["--ro-bind-try", name, name]
    args += ["--proc", "/proc", "--dev", "/dev",
             "--perms", "1777", "--size", str(64 << 20), "--tmpfs", "/tmp"]
    return args


class Sandbox:
    """How one program seat's processes are started: wrapped command, environment,
    limits.  ``read_only``: extra files or folders the program may read."""

    def __init__(self, limits: SandboxLimits | None = None, read_only: Sequence[str | Path] = (),
                 level_name: str | None = None, environment: Mapping[str, str] | None = None):
        self.limits = limits or SandboxLimits()
        self.level = level_name or level()
        self.read_only = [Path(p) for p in read_only]
        #: Variables a game adds to the program's environment (never replacing the
        #: scrubbed ones), e.g. where a read-only shared file lies.
        self.environment = dict(environment or {})
        #: The unprivileged uid a program runs as when the arena runs as root.
        self.uid = random.SystemRandom().randrange(1_000_000, 2_000_000_000)
        #: How the basic level confines the program last started (see :meth:`_plan_basic`).
        self._plan: _BasicPlan | None = None
        self._group: seat_limits.PidsGroup | None = None

    @property
    def warning(self) -> str:
        """What the basic level leaves open here ("" in the strict level)."""
        if self.level != BASIC:
            return ""
        why = strict_problem() or "asked for"
        return (f"basic sandbox ({why}): " + "; ".join(self.protections()[1])
                + " (install bubblewrap for the strict sandbox)")

    def with_cpu(self, seconds: float | None) -> "Sandbox":
        """This sandbox (same uid, same level) with a CPU limit of about ``seconds``."""
        other = Sandbox(self.limits.with_cpu(seconds), self.read_only, self.level, self.environment)
        other.uid = self.uid
        other._plan = self._plan
        other._parent = self
        return other

    def describe(self) -> dict:
        data: dict[str, Any] = {"level": self.level,
                                "limits": {k: v for k, v in asdict(self.limits).items()}}
        if self.level == BASIC:
            held, missing = self.protections()
            data["protections"], data["missing"] = held, missing
            data["warning"] = self.warning
        return data

    def protections(self) -> tuple[list[str], list[str]]:
        """What confines this seat's programs at the basic level here, and what is
        missing, in words (the record's header and the match screen's warning).

        Whether a program runs as its own uid (as root) depends on its files (see
        :meth:`_plan_basic`): before its first start the plan for a program other
        users can read is shown; from its first start on, its own."""
        held = ["own session and process group, killed with its whole tree",
                "dies with the arena (PR_SET_PDEATHSIG and the arena's guard)",
                "resource limits (memory, processes, file size, open files)",
                "scrubbed environment, its own folder"]
        plan = self._current_plan() if sys.platform.startswith("linux") else None
        network = ("UDP and Unix sockets are open" if seat_limits.landlock_abi() >= 4
                   else "the network is open")
        if plan is not None and plan.namespaces:
            missing = ["no mount or network namespace: the system's /proc lists every "
                       "process (it cannot signal them); " + network]
        else:
            missing = ["no namespaces: it sees every process" + (
                "; UDP and Unix sockets are open" if seat_limits.landlock_abi() >= 4
                else " and the network")]
        if not sys.platform.startswith("linux"):
            same_user = ("it runs as the arena's user: it can read and write that user's "
                         "files and signal the arena")
            if os.name == "nt":
                return (["own process group", "scrubbed environment, its own folder"],
                        missing + ["no resource limits", "no death with the arena", same_user])
            return held[:1] + held[2:], missing + ["no death with the arena", same_user]
        landlock = seat_limits.landlock_abi()
        if plan.namespaces:
            held.append("own user and PID namespaces: it cannot signal the arena or the "
                        "other seats, its processes die with its namespace, the process "
                        "limit counts only its own")
        if plan.uid is not None:
            held.append(f"own unprivileged uid {plan.uid}: folder 0700, cannot signal the "
                        "arena or other seats, process limit binds")
        elif _as_root():
            held.append("runs as root without capabilities")
            missing.append(f"own uid: {plan.unreadable} cannot be reached by other users")
        else:
            held.append("the arena is not dumpable: its /proc/PID/environ is closed")
            missing.append("own uid: it runs as the arena's user")
        if landlock:
            held += [f"Landlock {landlock}: " + f for f in seat_limits.landlock_features(landlock)]
            if landlock < 4:
                missing.append("TCP is open (Landlock before version 4)")
            if landlock < 6 and plan.uid is None and not plan.namespaces:
                missing.append("it can signal the arena and other programs of the same user "
                               "(Landlock before version 6)")
        else:
            missing.append("Landlock (Linux 5.13+): it can read and write everything the "
                           "user it runs as can, the other seats' folders and the user's "
                           "files included")
            if plan.uid is None and not plan.namespaces:
                missing.append("it can signal the arena and the other seats")
        if self.limits.processes:
            if plan.pids_group:
                held.append(f"pids cgroup: at most {self.limits.processes} tasks, root's included")
            elif plan.uid is None and not plan.namespaces:
                missing.append("a process cap that binds " + (
                    "(no pids cgroup can be made here; root ignores RLIMIT_NPROC)" if _as_root()
                    else "(RLIMIT_NPROC counts all of the user's processes)"))
        return held, missing

    def _current_plan(self, predict: bool = True) -> "_BasicPlan | None":
        parent = getattr(self, "_parent", None)
        plan = self._plan or (parent._plan if parent is not None else None)
        if plan is not None or not predict:
            return plan
        return _BasicPlan(self.uid if _as_root() else None, "", seat_limits.pids_groups_possible(),
                          namespaces=not _as_root() and user_namespaces_possible())

    def header_text(self) -> str:
        """One line for a match header: the level and the limits."""
        lim = self.limits
        parts = [f"{lim.memory_mb} MB" if lim.memory_mb else "no memory cap",
                 f"{lim.processes} processes" if lim.processes else "no process cap"]
        if lim.cpu_seconds:
            parts.append(f"{lim.cpu_seconds} s CPU")
        if lim.niceness:
            parts.append(f"nice {lim.niceness}")
        return f"sandbox {self.level}: " + ", ".join(parts)

    # ------------------------------------------------------------------ starting
    def command(self, argv: Sequence[str], folder: str | Path | None,
                gate: bool = False, info_fd: int | None = None) -> list[str]:
        """The argument list that runs ``argv`` in this sandbox, in ``folder``.

        ``gate``: the sandbox is set up now but the program starts only when a line
        arrives on stdin (:data:`GATE_SCRIPT`), so a judge can pay the start-up cost
        (fork, namespaces, mounts) before the program's turn (POSIX only).
        ``info_fd`` (strict): a descriptor the caller passes, on which bwrap writes the
        pid of its init in the sandbox (the program's parent) as JSON
        (``{"child-pid": N, ...}``) once the sandbox is set up.
        """
        argv = [_which(argv[0]), *argv[1:]]
        if self.level != STRICT:
            self._plan_basic(argv, folder)
        plan = self._current_plan(predict=False) if self.level != STRICT else None
        spawner = _namespace_spawner() if plan is not None and plan.namespaces else []
        if self.level != STRICT and not gate and not spawner:
            return argv
        # Inside the sandbox or the gate a missing program would be their error: say it here.
        if not os.path.exists(argv[0]):
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", argv[0])
        if not os.access(argv[0], os.X_OK) or os.path.isdir(argv[0]):
            raise PermissionError(errno.EACCES, "Permission denied", argv[0])
        gate_args = [GATE_SHELL, "-c", GATE_SCRIPT, "arena-gate"] if gate else []
        if self.level != STRICT:
            return spawner + gate_args + argv
        args, as_root = self._bwrap_args(argv, folder, info_fd)
        return args + ["--", *self._inner(as_root), *gate_args, *argv]

    def warm_command(self, argv: Sequence[str], folder: str | Path,
                     launcher: Sequence[str], shown: Sequence[Path] = ()) -> list[str]:
        """The argument list that starts a strict sandbox for ``argv`` in ``folder`` (the
        same mounts and namespaces as :meth:`command`) with ``launcher`` as its PID 1
        (see :mod:`runner.launcher`) instead of the program; ``shown``: files the
        launcher needs, bound read-only.  The launcher runs each turn's program itself,
        as the seat's uid with the turn's limits (see :meth:`run_settings`)."""
        argv = [_which(argv[0]), *argv[1:]]
        if not os.path.exists(argv[0]):
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", argv[0])
        if not os.access(argv[0], os.X_OK) or os.path.isdir(argv[0]):
            raise PermissionError(errno.EACCES, "Permission denied", argv[0])
        args, _ = self._bwrap_args(argv, folder, None, [*shown, *_program_paths(launcher[:1])])
        if not _as_root():
            args += _unprivileged_warm_args(Path(folder).absolute())
        return args + ["--as-pid-1", "--", *launcher]

    def run_settings(self, argv: Sequence[str], folder: str | Path) -> dict[str, Any]:
        """What the warm sandbox's launcher sets for one run of ``argv`` (strict level,
        arena as root): the program resolved, its folder, environment, resource limits
        (``[name, soft, hard]``), nice and uid."""
        lim = self.limits
        limits = [[name, value, value] for name, value in (
            ("RLIMIT_AS", lim.memory_mb and lim.memory_mb << 20),
            ("RLIMIT_NPROC", lim.processes),
            ("RLIMIT_FSIZE", lim.file_mb and lim.file_mb << 20),
            ("RLIMIT_NOFILE", lim.open_files)) if value]
        if lim.cpu_seconds:
            limits.append(["RLIMIT_CPU", lim.cpu_seconds, lim.cpu_seconds + 1])
        folder = Path(folder).absolute()
        own = (folder / SEAT_MARKER).is_file()
        return {"argv": [_which(argv[0]), *argv[1:]], "cwd": str(folder), "env": self.env(folder),
                "limits": limits, "nice": lim.niceness if sys.platform.startswith("linux") else 0,
                "uid": self.uid if own and _as_root() else None}

    def _bwrap_args(self, argv: Sequence[str], folder: str | Path | None, info_fd: int | None,
                    extra: Sequence[Path] = ()) -> tuple[list[str], bool]:
        """bwrap's arguments up to the command (namespaces, system folders, the
        program's files, its folder), and whether the program runs as the seat's own
        uid (arena as root, a folder the arena made: the folder is handed to it)."""
        folder = Path(folder).absolute() if folder else None
        args = [shutil.which("bwrap") or "bwrap", *_namespace_args(), *_system_args()]
        if info_fd is not None:
            args += ["--info-fd", str(info_fd)]
        # As root, the program gets a uid of its own, and its folder is handed to that uid:
        # only a folder the arena made for it (a person's own folder is never re-owned).
        as_root = _as_root() and folder is not None and (folder / SEAT_MARKER).is_file()
        shown = _program_paths(argv, as_root) + [p.absolute() for p in self.read_only]
        if GAMES_DIR.is_dir():
            shown.append(GAMES_DIR)
        shown += [Path(p) for p in extra]
        made: set[str] = set()

        def parents(path: Path) -> list[str]:
            """Folders leading to ``path`` made readable by all (bwrap makes them 0700)."""
            out: list[str] = []
            for anc in reversed(path.parents):
                name = str(anc)
                if name == "/" or name in made or any(_inside(anc, Path(d)) for d in SYSTEM_DIRS):
                    continue
                made.add(name)
                out += ["--perms", "0755", "--dir", name]
            return out

        for path in shown:
            args += [*parents(path), "--ro-bind-try", str(path), str(path)]
        if folder is not None:
            parent = folder.parent
            if str(parent) not in ("/",) and str(parent) not in SYSTEM_DIRS:
                # Hide the other seats' folders beside this one, even under a bound folder.
                args += [*parents(parent), "--perms", "0755", "--tmpfs", str(parent)]
                made.difference_update({m for m in made if _inside(Path(m), parent)})
                for path in shown:
                    if _inside(path, parent) and not _inside(path, folder):
                        args += [*parents(path), "--ro-bind-try", str(path), str(path)]
            args += [*parents(folder), "--bind", str(folder), str(folder), "--chdir", str(folder)]
            if as_root:
                os.chown(folder, self.uid, self.uid)
        return args, as_root

    def _plan_basic(self, argv: Sequence[str], folder: str | Path | None) -> None:
        """How the basic level confines this start of ``argv`` in ``folder`` (Linux):
        as root, the seat's own uid when every file the program names can be read by
        another user (else root without capabilities), its folder handed to that uid
        with permissions 0700 (only a folder the arena made: it holds SEAT_MARKER); the
        Landlock ruleset (its folder read-write; the system's folders, its program's
        files, the games package and ``read_only`` read-only)."""
        if not sys.platform.startswith("linux"):
            return
        folder = Path(folder).absolute() if folder else None
        self._plan_for(argv, folder, folder is not None and (folder / SEAT_MARKER).is_file())

    def expect(self, argv: Sequence[str], folder: str | Path | None = None) -> None:
        """Plan for ``argv`` before its first start, in ``folder`` (a folder the arena
        makes, which may not exist yet), so that a record's header written before the
        program starts says what will hold (nothing is touched until it starts)."""
        if self.level == BASIC and self._current_plan(predict=False) is None \
                and sys.platform.startswith("linux") and argv:
            self._plan_for([_which(argv[0]), *argv[1:]],
                           Path(folder).absolute() if folder else None, True, touch=False)

    def _plan_for(self, argv: Sequence[str], folder: Path | None, own_folder: bool,
                  touch: bool = True) -> None:
        shown = _program_paths(argv) + [p.absolute() for p in self.read_only]
        if os.path.isabs(argv[0]):
            shown.append(Path(argv[0]).resolve())
        if folder is not None:
            # A program's folder that holds the seats' folders (a program kept in the
            # match folder) is not shown whole: only the files the command names.
            named = [Path(a) for a in argv if os.path.isabs(a) and os.path.isfile(a)]
            shown = [p for p in shown if not _inside(folder, p)] + \
                [p for p in named if _inside(folder.parent, p.parent) or folder.parent == p.parent]
        if GAMES_DIR.is_dir():
            shown.append(GAMES_DIR)
        uid, unreadable = None, ""
        if _as_root():
            # Its folder is reached by its absolute path too (HOME, TMPDIR, Xiangqi's
            # PLAY.INI): every folder on the way must be searchable by other users.
            unreadable = _unreadable_by_others(shown) or (
                folder is not None and _unreadable_by_others([folder.parent], search_only=True))
            if not own_folder:
                unreadable = unreadable or f"{folder} is not a folder the arena made"
            if not unreadable:
                uid = self.uid
                if touch and folder is not None:
                    _hand_over(folder, uid)
        readable = [*SYSTEM_DIRS, *ETC_FILES, *shown]
        # A program that puts the arena's folder on its import path (to import ``games``)
        # lists that folder: its names are listable, its files stay out of reach.
        listable = [str(GAMES_DIR.parent)] if GAMES_DIR.is_dir() else []
        plan = _BasicPlan(uid, unreadable, seat_limits.pids_groups_possible(),
                          [str(folder)] if folder is not None else [], [str(p) for p in readable],
                          listable, not _as_root() and user_namespaces_possible())
        self._plan = plan
        if getattr(self, "_parent", None) is not None:
            self._parent._plan = plan

    def _inner(self, as_root: bool) -> list[str]:
        """What runs inside the namespaces before the program: the process limit, set
        there so that it counts only the sandbox's processes, and (arena as root) the
        switch to the seat's own unprivileged uid."""
        inner: list[str] = []
        prlimit, setpriv = shutil.which("prlimit"), shutil.which("setpriv")
        if self.limits.processes and prlimit:
            inner += [prlimit, f"--nproc={self.limits.processes}:{self.limits.processes}", "--"]
        # The watcher runs before the change of uid: as root, the program cannot kill it.
        inner += _watcher()
        if as_root and setpriv:
            inner += [setpriv, "--reuid", str(self.uid), "--regid", str(self.uid),
                      "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--"]
        if self.limits.niceness and sys.platform.startswith("linux"):
            inner += [GATE_SHELL, "-c", NICE_SCRIPT, str(self.limits.niceness)]
        return inner

    def env(self, folder: str | Path | None) -> dict[str, str]:
        """A scrubbed environment: nothing of the arena's but what a program needs to run."""
        home = str(folder) if folder else "/"
        if os.name == "nt":
            keep = ("SYSTEMROOT", "WINDIR", "COMSPEC", "PATH", "PATHEXT", "TEMP", "TMP")
            env = {k: os.environ[k] for k in keep if k in os.environ}
            env["HOME"] = home
            return {**self.environment, **env}
        return {**self.environment, "PATH": SAFE_PATH, "HOME": home, "LANG": "C.UTF-8",
                "TMPDIR": "/tmp" if self.level == STRICT else home}

    def preexec(self) -> Callable[[], None] | None:
        """The function run in the child before exec: resource limits, death with the
        arena (``PR_SET_PDEATHSIG`` on the program in the basic level; the strict one
        has its lifeline, see :data:`LIFELINE_SCRIPT`), and in the basic
        level on Linux what :meth:`_plan_basic` chose: a pids group, the seat's uid (or
        no capabilities as root), Landlock.  Called once per start, after
        :meth:`command`, in the arena; the pids group it makes is the caller's to hand
        to :func:`runner.seat_limits.hold` (:meth:`take_group`)."""
        if os.name != "posix":
            return None
        limits = self.limits
        basic = self.level != STRICT
        plan = self._plan if basic else None
        if basic:
            become_subreaper()
            seat_limits.hide_arena_from_same_user()
        processes = limits.processes if basic else None      # strict: set inside (_inner)
        namespaces = plan is not None and plan.namespaces
        if namespaces and processes:
            processes += 2                      # unshare and the init are in the namespace
        elif basic and processes and os.getuid() != 0:
            processes += _user_tasks()          # the limit counts all this user's tasks
        enter_namespaces = _namespace_entry() if namespaces else None
        # Not bwrap: killed while it sets the sandbox up, it would leave its init there
        # waiting for it for ever; the lifeline watcher inside takes the sandbox along.
        pdeathsig = _pdeathsig_function() if basic else None
        niceness = limits.niceness
        group = landlock = None
        if plan is not None:
            if plan.pids_group and processes:
                group = self._group = seat_limits.PidsGroup.make(processes)
            landlock = seat_limits.Landlock.make(plan.writable, plan.readable, plan.listable)
            if landlock is None and seat_limits.landlock_abi():
                raise OSError(errno.EPERM, "the Landlock sandbox could not be made")
        uid = plan.uid if plan is not None else None
        drop_caps = plan is not None and uid is None and _as_root()

        def apply() -> None:
            import resource
            if group is not None:
                group.enter()                   # as root, before the uid changes
            if enter_namespaces is not None:
                enter_namespaces()              # before the process limit (see there)
            pairs = [(getattr(resource, "RLIMIT_AS", None), limits.memory_mb and limits.memory_mb << 20),
                     (getattr(resource, "RLIMIT_NPROC", None), processes),
                     (resource.RLIMIT_FSIZE, limits.file_mb and limits.file_mb << 20),
                     (resource.RLIMIT_NOFILE, limits.open_files)]
            for kind, value in pairs:
                if kind is not None and value:
                    _set_limit(resource, kind, value, value)
            if limits.cpu_seconds:
                _set_limit(resource, resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1)
            if uid is not None:
                _become(uid)
            elif drop_caps:
                _drop_capabilities()
            if pdeathsig is not None:
                pdeathsig()                     # after the uid change, which clears it
            if niceness:
                _yield_cpu(niceness, own_session=basic)
            if landlock is not None:
                landlock.enter()
        return apply

    def take_group(self) -> "seat_limits.PidsGroup | None":
        """The pids group the last :meth:`preexec` made (the caller removes it)."""
        group, self._group = self._group, None
        return group


@dataclass
class _BasicPlan:
    """How the basic level confines one start of a program (see :meth:`Sandbox._plan_basic`)."""

    uid: int | None                 # its own uid (as root), else None
    unreadable: str                 # why it cannot have its own uid, as root
    pids_group: bool                # a pids cgroup caps its tree
    writable: list[str] = field(default_factory=list)
    readable: list[str] = field(default_factory=list)
    listable: list[str] = field(default_factory=list)
    namespaces: bool = False        # its own user and PID namespaces (an ordinary user)


_LIFELINE: tuple[int, int] | None = None
_LIFELINE_LOCK = threading.Lock()


def lifeline() -> int:
    """The read end of this arena's lifeline: a pipe whose write end only this process
    holds (close-on-exec, closed in a forked copy), so that it reads end of file exactly
    when the arena is gone.  Passed to every strict sandbox (:data:`LIFELINE_SCRIPT`)."""
    global _LIFELINE
    with _LIFELINE_LOCK:
        if _LIFELINE is None:
            _LIFELINE = os.pipe()
        return _LIFELINE[0]


def _forget_lifeline_in_child() -> None:
    """A forked copy of the arena lets the lifeline's write end go (holding it would
    keep the arena's sandboxes alive after the arena's death) and makes its own."""
    global _LIFELINE
    pipe, _LIFELINE = _LIFELINE, None
    if pipe is not None:          # the read end stays: a Popen child passes it on
        try:
            os.close(pipe[1])
        except OSError:
            pass


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_lifeline_in_child)


def _watcher() -> list[str]:
    """The lifeline watcher that runs before the program in the strict level."""
    fd = lifeline()
    script = LIFELINE_SCRIPT.format(fd=fd)
    shell = GATE_SHELL
    if fd > 9:
        shell = next((s for s in LIFELINE_SHELLS if os.path.exists(s)), "")
        if not shell:
            shell, script = GATE_SHELL, script.replace(f" {fd}<&-", "")
    return [shell, "-c", script, "arena-lifeline"]


def seat_sandbox(limits: Mapping[str, Any] | None = None, read_only: Sequence[str | Path] = (),
                 **defaults) -> Sandbox:
    """The sandbox of a program seat from its limits (see :class:`SandboxLimits`);
    ``limits["sandbox"] = "basic"`` asks for the basic level even where strict works, and
    ``limits["read_only"]`` lists more folders the program may read (a tournament's
    shipped copies of the contestants' files)."""
    limits = limits or {}
    asked = str(limits.get("sandbox") or "").lower()
    chosen = BASIC if asked == BASIC else level()
    extra = [str(p) for p in limits.get("read_only") or ()]
    return Sandbox(SandboxLimits.from_seat(limits, **defaults), [*read_only, *extra], chosen)
