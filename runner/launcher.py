"""The warm sandbox's launcher: PID 1 of one seat's strict sandbox for a whole match.

    python -I -S launcher.py LIFELINE_FD        (stdin: the control socket)

The arena starts a seat's sandbox once (bubblewrap's namespaces, mounts and uid, see
:mod:`runner.warm`) with this script as the PID namespace's first process (bwrap's
``--as-pid-1``).  Then, each turn, over the control socket (``SOCK_SEQPACKET``, one
JSON message a datagram, descriptors passed with ``SCM_RIGHTS``):

* ``{"prep": ID, "argv", "cwd", "env", "limits", "nice", "uid"}`` with the descriptors
  ``[gate, stdout, stderr]``: a fresh process is started and made ready (its own
  session, an IPC namespace of its own,
  the seat's folder, the turn's resource limits and nice, the seat's uid with no
  capability), then it waits at the gate: it runs the program as soon as one byte
  arrives there (the arena writes it), or exits quietly at the gate's end of file (a
  cancelled run).  A ``prep`` that arrives while a run is going is kept until it ends.
  The process is a small shell spawned (``vfork``: no copy of the launcher's
  memory) as the seat's uid, given its limits before it may read its gate
  (:func:`_spawn_at_gate`);
  a run with a ``nice`` is a fork of the launcher that sets it all itself (:func:`_child`).
* ``{"kill": ID}``: the run ID's time is over: everything in the namespace is killed.

When the run's process exits, everything else in the namespace is killed (PID 1 may
signal every process of its namespace with ``kill(-1)``; no process of the namespace
can signal PID 1, and a process of another uid cannot trace it) and reaped, then the
launcher answers ``{"exit": ID, "status": N, "cpu": S}``: the process's status as
``subprocess`` gives it (``-signal`` when killed) and the CPU seconds of every process
of the run (the program's and its descendants' rusage, orphans included); what the run
left in the sandbox's ``/tmp`` (and ``/dev/shm``, an ordinary user's) is removed.  So
nothing a program leaves survives its turn: no process, no file in ``/tmp``, no IPC
object (its folder is the seat's own).

In an arena run as root the runs get the seat's uid.  In an ordinary user's arena
(bubblewrap's unprivileged user namespace, where the program has the launcher's uid)
the launcher keeps CAP_SYS_ADMIN in the namespace (bwrap's ``--cap-add``) to make each
run's IPC namespace, and each run drops every capability before its program; what
bubblewrap made is read-only there (see :meth:`runner.sandbox.Sandbox.warm_command`).

When the control socket or the arena's lifeline (:func:`runner.sandbox.lifeline`) ends,
the launcher exits, and the kernel kills every process of its namespace with it.
Standard library only: it runs with ``-I -S`` inside the sandbox, which shows it only
this file.
"""
from __future__ import annotations

import ctypes
import gc
import json
import os
import resource
import select
import signal
import socket
import stat
import subprocess
import sys

CLONE_NEWIPC = 0x08000000
PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 4, 24, 38
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, _LINUX_CAPABILITY_VERSION_3 = 47, 4, 0x20080522
#: The sandbox's private ``/tmp`` and ``/dev/shm``, emptied after each run.
TMP = "/tmp"
SCRATCH = (TMP, "/dev/shm")
#: What bubblewrap made in them, with each folder's mode (see :func:`_scratch_skeleton`).
_SKELETON: dict[str, int] = {}
#: The exit code of a run whose program could not be executed (as a shell says).
CANNOT_RUN = 127
#: The most bytes a control message may take.
MESSAGE_BYTES = 1 << 16
#: The shell a spawned run waits at its gate in (:func:`_spawn_at_gate`), and its
#: script (``$1``, ``$2``: the descriptors of its socket to the launcher and of its
#: gate): it says it runs ("s"), waits until the launcher has given it its limits
#: ("l"; else it exits), only then reads the gate, and becomes the program on "g", or
#: exits quietly at the gate's end of file (a cancelled run).  Both descriptors are
#: closed before the program runs.
GATE_SHELL = "/bin/sh"
GATE_SCRIPT = ('talk=$1 gate=$2; shift 2; printf "s\\n" >&"$talk"; read -r ok <&"$talk"; '
               'eval "exec $talk<&-"; [ "$ok" = l ] || exit 1; read -r go <&"$gate"; '
               'eval "exec $gate<&-"; [ "$go" = g ] || exit 0; exec "$@"')

_libc = ctypes.CDLL(None, use_errno=True)


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)     # PID 1: no handler a program could reach
    _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)          # not traceable, /proc/1/fd closed
    _lock_down()
    gc.freeze()              # a fork (nice runs) then copies no page the collector would touch
    lifeline = int(sys.argv[1]) if len(sys.argv) > 1 else -1
    if lifeline >= 0:
        os.set_inheritable(lifeline, False)
    control = socket.socket(fileno=0)
    _SKELETON.update(_scratch_skeleton())
    Launcher(control, lifeline).serve()


class Launcher:
    """The launcher's loop: one run at a time, its process watched through a pidfd."""

    def __init__(self, control: socket.socket, lifeline: int):
        self.control, self.lifeline = control, lifeline
        self.run_id: int | None = None
        self.pid = 0
        self.pidfd = -1
        self.pending: tuple[dict, list[int]] | None = None

    def serve(self) -> None:
        self.send({"ready": os.getpid()})
        while True:
            poller = select.poll()
            for fd in (self.control.fileno(), self.lifeline, self.pidfd):
                if fd >= 0:
                    poller.register(fd, select.POLLIN)
            ready = {fd for fd, _ in poller.poll()}
            if self.lifeline in ready:
                self.leave()                     # the arena is gone: the namespace goes too
            if self.pidfd in ready:
                self.finish()
                if self.pending is not None:
                    message, fds = self.pending
                    self.pending = None
                    self.prepare(message, fds)
            if self.control.fileno() in ready:
                self.receive()

    def receive(self) -> None:
        try:
            data, fds, _, _ = socket.recv_fds(self.control, MESSAGE_BYTES, 8)
        except OSError:
            self.leave()
        if not data:
            self.leave()                         # the arena closed the seat
        for fd in fds:
            os.set_inheritable(fd, False)
        message = json.loads(data)
        if "prep" in message:
            if self.run_id is None:
                self.prepare(message, fds)
            else:
                self.pending = (message, fds)
        elif "kill" in message and message["kill"] == self.run_id:
            self.kill_all()                      # its end is seen through the pidfd
        else:
            for fd in fds:
                os.close(fd)

    def prepare(self, message: dict, fds: list[int]) -> None:
        """Start the run's process; it waits at its gate (see :func:`_spawn_at_gate`,
        else :func:`_child`)."""
        if self.can_spawn(message):
            try:
                pid = _spawn_at_gate(message, *fds)
            except (OSError, ValueError) as exc:
                _say(fds[2], f"arena: the run could not be prepared: {exc}\n")
                pid = _spawn_failed()
            finally:
                for fd in fds:
                    os.close(fd)
            self._watch(message["prep"], pid)
            return
        pid = os.fork()
        if pid == 0:
            try:
                self.child(message, *fds)
            except BaseException as exc:         # noqa: BLE001 - said on the run's stderr
                os.write(2, f"arena: the run could not be prepared: {exc}\n".encode())
            finally:
                os._exit(CANNOT_RUN)
        for fd in fds:
            os.close(fd)
        self._watch(message["prep"], pid)

    def _watch(self, run_id: int, pid: int) -> None:
        self.run_id, self.pid = run_id, pid
        self.pidfd = os.pidfd_open(pid)

    def finish(self) -> None:
        """The run's process has exited: reap it, kill and reap all else, report."""
        _, status, usage = os.wait4(self.pid, 0)
        cpu = usage.ru_utime + usage.ru_stime + self.clear()
        self.tidy()
        os.close(self.pidfd)
        run_id, self.run_id, self.pid, self.pidfd = self.run_id, None, 0, -1
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        self.send({"exit": run_id, "status": code, "cpu": cpu})

    def send(self, message: dict) -> None:
        try:
            self.control.send(json.dumps(message).encode())
        except OSError:
            self.leave()

    # How this level's runs are made, killed and cleared up: the strict level's PID 1
    # here; the basic level's launcher (runner.launcher_basic) has its own.
    def can_spawn(self, message: dict) -> bool:
        return _can_spawn(message)

    def child(self, message: dict, *fds: int) -> None:
        _child(message, *fds)

    def kill_all(self) -> None:
        _kill_all()

    def clear(self) -> float:
        return _clear()

    def tidy(self) -> None:
        _empty_tmp()

    def leave(self) -> None:
        os._exit(0)                              # every process of the namespace dies too


def _kill_all() -> None:
    try:
        os.kill(-1, signal.SIGKILL)              # every process of the namespace but PID 1
    except ProcessLookupError:
        pass


def _clear() -> float:
    """Kill every other process of the namespace and reap them all (orphans are PID 1's
    children): the CPU seconds they used.  No child left means none is left at all."""
    cpu = 0.0
    while True:
        _kill_all()
        try:
            _, _, usage = os.wait4(-1, 0)
        except ChildProcessError:
            return cpu
        cpu += usage.ru_utime + usage.ru_stime


def _lock_down() -> None:
    """What every run gets and the launcher can give once for all: no supplementary
    group, no new privilege at exec, an empty capability bounding set (the launcher
    keeps its own capabilities: it never executes anything)."""
    try:
        os.setgroups([])
    except OSError:
        pass
    _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    for cap in range(_last_cap() + 1):
        _libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)


def _last_cap() -> int:
    try:
        with open("/proc/sys/kernel/cap_last_cap") as fh:
            return int(fh.read())
    except (OSError, ValueError):
        return 63


def _can_spawn(message: dict) -> bool:
    """Whether the run can be a spawned shell at its gate: it has the seat's uid and no
    ``nice`` (the launcher cannot give a spawned process its nice before it runs)."""
    return message.get("uid") is not None and not message.get("nice") and os.path.exists(GATE_SHELL)


def _spawn_at_gate(message: dict, gate: int, out: int, err: int) -> int:
    """Start the run's process as a shell waiting at its gate (:data:`GATE_SCRIPT`), its
    pid.  It is spawned (``vfork`` and exec, as :mod:`subprocess` does: none of the
    launcher's memory is copied, where a fork costs about a ms of CPU a run) in a new
    session, in the seat's folder, with the signals Python ignores reset, stdin from
    /dev/null, only its output and gate open, in a fresh IPC namespace (the
    launcher's own, renewed: the last run's processes are all dead).  Its uid: the
    launcher takes the seat's ids as its real and effective ones for the spawn, root's
    kept only as its saved ones (its capabilities are then off), and an exec makes
    the saved ids the effective ones, so no id of the shell is root's and it has no
    capability.  While it waits at its gate the launcher, still of the seat's ids,
    sets its resource limits (``prlimit``) once the shell says it runs, and only then
    lets it read its gate: the program starts with them.  No new
    privilege and no capability bound are inherited (:func:`_lock_down`)."""
    _fresh_ipc()
    uid = message["uid"]
    ours, theirs = socket.socketpair()
    argv = [GATE_SHELL, "-c", GATE_SCRIPT, "arena", str(theirs.fileno()), str(gate), *message["argv"]]
    os.setresgid(uid, uid, 0)
    os.setresuid(uid, uid, 0)
    try:
        proc = subprocess.Popen(argv, executable=GATE_SHELL, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=err, pass_fds=(theirs.fileno(), gate),
                                cwd=message["cwd"], env=message["env"],
                                start_new_session=True, restore_signals=True)
        proc.returncode = 0          # reaped by the launcher (wait4), never by subprocess
        theirs.close()
        try:
            if ours.recv(2)[:1] != b"s":           # it runs the script: its ids are final
                raise OSError("the run's shell ended before its gate")
            _limit(proc.pid, message.get("limits", ()))
            ours.sendall(b"l\n")                  # only now may it read its gate
        except (OSError, ValueError):
            os.kill(proc.pid, signal.SIGKILL)      # never a run without its limits
            raise
    finally:
        os.setresuid(0, 0, 0)                      # the saved uid is root's
        os.setresgid(0, 0, 0)
        ours.close()
        theirs.close()
    return proc.pid


def _limit(pid: int, limits) -> None:
    """Give the spawned process ``pid`` its resource limits (``[name, soft, hard]``), and
    check that it has them.  Only once it runs its script: ``subprocess`` returns as
    soon as the exec has replaced the process's memory, and its ids become final a
    moment later in the same exec (until then it is not the launcher's to limit)."""
    wanted = []
    for name, soft, hard in limits:
        kind = getattr(resource, name, None)
        if kind is not None:
            wanted.append((kind, _within(kind, soft, hard)))
    for kind, values in wanted:
        resource.prlimit(pid, kind, values)
    for kind, values in wanted:
        if resource.prlimit(pid, kind) != values:
            raise OSError(f"the run's limit {kind} did not hold")


def _say(fd: int, text: str) -> None:
    try:
        os.write(fd, text.encode())
    except OSError:
        pass


def _spawn_failed() -> int:
    """A process that ends at once with :data:`CANNOT_RUN` (its run is reported so)."""
    pid = os.fork()
    if pid == 0:
        os._exit(CANNOT_RUN)
    return pid


def _within(kind: int, soft: int, hard: int) -> tuple[int, int]:
    """``(soft, hard)`` within the launcher's own hard limit of ``kind``."""
    _, old_hard = resource.getrlimit(kind)
    if old_hard != resource.RLIM_INFINITY:
        hard = min(hard, old_hard)
        soft = min(soft, hard)
    return soft, hard


def _child(message: dict, gate: int, out: int, err: int) -> None:
    """In the forked process: make the run's world, wait at the gate, exec."""
    for name in ("SIGPIPE", "SIGXFSZ", "SIGXFZ"):    # Python ignores them; a program must not
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    os.setsid()                                  # its own session and scheduling group
    _fresh_ipc()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out, 1)
    os.dup2(err, 2)
    for fd in (null, out, err):
        os.close(fd)
    os.chdir(message["cwd"])
    nice = message.get("nice") or 0
    if nice:
        _yield_cpu(nice)
    for name, soft, hard in message.get("limits", ()):
        kind = getattr(resource, name, None)
        if kind is not None:
            _set_limit(kind, soft, hard)
    uid = message.get("uid")
    if uid is not None:
        _become(uid)
    else:
        _drop_capabilities()                     # an ordinary user's launcher keeps one
    _exec_at_gate(message, gate)


def _exec_at_gate(message: dict, gate: int) -> None:
    """Wait at the gate, then become the run's program (never returns): a cancelled
    run ends without running it, one that cannot be executed ends with
    :data:`CANNOT_RUN`, saying why on its stderr."""
    if os.read(gate, 1) != b"g":
        os._exit(0)                              # cancelled: the program never runs
    os.close(gate)
    argv = message["argv"]
    try:
        os.execve(argv[0], argv, message["env"])
    except OSError as exc:
        os.write(2, f"arena: cannot run {argv[0]}: {exc.strerror}\n".encode())
    os._exit(CANNOT_RUN)


def _fresh_ipc() -> None:
    """An IPC namespace of the run's own (System V and POSIX message queues, shared
    memory, semaphores), so nothing a run leaves there reaches the next (needs the
    launcher's root)."""
    if _libc.unshare(CLONE_NEWIPC) != 0:
        raise OSError(ctypes.get_errno(), "unshare")


def _scratch_skeleton() -> dict[str, int]:
    """What bubblewrap made in the scratch folders (:data:`SCRATCH`) before any run: the
    folders leading to bound ones, and the bound ones themselves (other mounts, not
    entered), with their modes.  Noted once, as the launcher starts; :func:`_empty_tmp`
    keeps only them."""
    kept: dict[str, int] = {}
    for top in SCRATCH:
        try:
            info = os.lstat(top)
        except OSError:
            continue
        device, kept[top] = info.st_dev, stat.S_IMODE(info.st_mode)
        pending = [top]
        while pending:
            for path, info in _entries(pending.pop()):
                kept[path] = stat.S_IMODE(info.st_mode)
                if stat.S_ISDIR(info.st_mode) and info.st_dev == device:
                    pending.append(path)
    return kept


def _empty_tmp() -> None:
    """Remove what the last run left in the scratch folders (``/tmp``; ``/dev/shm``,
    where it is a tmpfs of the sandbox's own): every entry bubblewrap did not make
    (:func:`_scratch_skeleton`), never entering another mount (a seat's folder may be
    bound there), and give bubblewrap's folders back their mode (an ordinary user's
    program owns them).  Every process of the run is dead by now."""
    for top in SCRATCH:
        try:
            info = os.lstat(top)
        except OSError:
            continue
        device = info.st_dev
        if top in _SKELETON and stat.S_IMODE(info.st_mode) != _SKELETON[top]:
            _chmod(top, _SKELETON[top])
        pending = [top]
        while pending:
            for path, info in _entries(pending.pop()):
                if info.st_dev != device:
                    continue                     # a mount point: not the run's
                if path not in _SKELETON:
                    _remove(path, info)
                elif stat.S_ISDIR(info.st_mode):
                    if stat.S_IMODE(info.st_mode) != _SKELETON[path]:
                        _chmod(path, _SKELETON[path])
                    pending.append(path)


def _entries(folder: str):
    """The entries of ``folder`` with their ``lstat`` (none when it cannot be listed; an
    entry gone meanwhile is skipped)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        path = os.path.join(folder, name)
        try:
            yield path, os.lstat(path)
        except OSError:
            continue


def _remove(path: str, info: os.stat_result) -> None:
    """Remove a file or a whole folder a run left, also one it made unreadable (a
    folder of its own uid, which may be the launcher's)."""
    if not stat.S_ISDIR(info.st_mode):
        try:
            os.unlink(path)
        except OSError:
            pass
        return
    _chmod(path, 0o700)
    for inner, inner_info in _entries(path):
        _remove(inner, inner_info)
    try:
        os.rmdir(path)
    except OSError:
        pass


def _chmod(path: str, mode: int) -> None:
    try:
        os.chmod(path, mode)
    except OSError:
        pass


def _yield_cpu(nice: int) -> None:
    """Run at ``nice``, and give the run's session (its scheduling group) that nice too
    (see :data:`runner.sandbox.NICE_SCRIPT`; root is never refused the change)."""
    try:
        os.nice(nice)
    except OSError:
        pass
    try:
        with open("/proc/self/autogroup", "w") as fh:
            fh.write(str(nice))
    except OSError:
        pass


def _set_limit(kind: int, soft: int, hard: int) -> None:
    try:
        old_soft, old_hard = resource.getrlimit(kind)
        if old_hard != resource.RLIM_INFINITY:
            hard = min(hard, old_hard)
            soft = min(soft, hard)
        resource.setrlimit(kind, (soft, hard))
    except (ValueError, OSError):
        pass


def _drop_capabilities() -> None:
    """Run without any capability (an ordinary user's launcher keeps CAP_SYS_ADMIN in
    the sandbox's user namespace, to make each run's IPC namespace): none ambient, none
    inheritable, permitted or effective, and no new privileges."""
    _libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(_LINUX_CAPABILITY_VERSION_3, 0)
    if _libc.capset(header, (ctypes.c_uint32 * 6)()) != 0:
        raise OSError(ctypes.get_errno(), "capset")
    _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


def _become(uid: int) -> None:
    """Become ``uid`` for good, with no capability and no way to get one back."""
    try:
        last = int(open("/proc/sys/kernel/cap_last_cap").read())
    except (OSError, ValueError):
        last = 63
    for cap in range(last + 1):
        _libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)
    _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


if __name__ == "__main__":
    main()
