"""The basic level's warm launcher: one seat's long-lived parent for a whole match.

    python -I -S launcher_basic.py LIFELINE_FD        (stdin: the control socket)

Where there is no bubblewrap (the basic level) a seat has no PID namespace whose PID 1
could kill everything a program left.  This launcher takes that place with what Linux
gives any process: it is the child subreaper (``PR_SET_CHILD_SUBREAPER``) of every
process its runs start, so a process that double-forks or calls ``setsid`` is still its
descendant, re-parented to it when its parent dies.  It speaks the protocol of
:mod:`runner.launcher` (``prep``, ``kill``, ``exit``; its loop is that module's
:class:`Launcher`), and differs in what a run is and how it is cleared:

* a run's process is made as the basic level makes each turn's process
  (:meth:`runner.sandbox.Sandbox.preexec`): its own session and process group, the
  seat's pids group (``"pids"``: its folder), the turn's resource limits, its nice and
  its session's scheduling group, the seat's uid (``"uid"``) or, as root, no
  capability (``"drop_caps"``), death with the launcher, and the Landlock ruleset the
  arena made (``"landlock"``: a fourth descriptor after the gate and the output's);
* when the run's process exits (or its time is over), every descendant of the launcher
  is killed (the tree under ``/proc/self/task/*/children``, walked again until none is
  left: a process forked during one pass is found in the next) and reaped before the
  report, so the files are final when the judge reads them and nothing a run started
  lives into the next turn;
* when the arena is gone (the lifeline or the control socket ends) it kills and reaps
  them all the same, then exits: there is no namespace to take them along.

It has no ``/tmp`` of its own to empty (a basic program's ``TMPDIR`` is its folder) and
makes no IPC namespace (the basic level has none).  Standard library only.
"""
from __future__ import annotations

import ctypes
import importlib.util
import os
import select
import signal
import sys

_spec = importlib.util.spec_from_file_location(
    "arena_launcher", os.path.join(os.path.dirname(os.path.abspath(__file__)), "launcher.py"))
launcher = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(launcher)

PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER = 1, 36
#: ``landlock_restrict_self``: the same number on every architecture.
SYS_LANDLOCK_RESTRICT_SELF = 446
#: The exit code of a run whose confinement could not be set up (as the basic level's).
NOT_CONFINED = 126
#: How many times, and how far apart (seconds), an unprivileged run tries to set its
#: session's nice (Linux takes one change every 0.1 s: see runner.sandbox_child).
AUTOGROUP_TRIES, AUTOGROUP_RETRY = 20, 0.03

_libc = ctypes.CDLL(None, use_errno=True)


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    _libc.prctl(launcher.PR_SET_DUMPABLE, 0, 0, 0, 0)    # not traceable, /proc/PID/fd closed
    if _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        os.write(2, b"arena: the launcher cannot be the child subreaper here\n")
        os._exit(1)                                       # the arena falls back to cold runs
    lifeline = int(sys.argv[1]) if len(sys.argv) > 1 else -1
    if lifeline >= 0:
        os.set_inheritable(lifeline, False)
    control = launcher.socket.socket(fileno=0)
    BasicLauncher(control, lifeline).serve()


class BasicLauncher(launcher.Launcher):
    """:class:`runner.launcher.Launcher`'s loop, with the basic level's runs and the
    subreaper's kill of every descendant."""

    def can_spawn(self, message: dict) -> bool:
        return False                             # its runs are forks that confine themselves

    def child(self, message: dict, gate: int, out: int, err: int, ruleset: int = -1) -> None:
        _child(message, gate, out, err, ruleset)

    def kill_all(self) -> None:
        for pid in descendants():
            _kill(pid)

    def clear(self) -> float:
        return clear()

    def tidy(self) -> None:
        pass                                     # no /tmp of its own

    def leave(self) -> None:
        clear()
        os._exit(0)


def descendants() -> list[int]:
    """Every process below this one (zombies included), parents before children: the
    ``children`` files of each task, walked down (Linux 3.5+ with
    ``CONFIG_PROC_CHILDREN``), else one pass over the process table's parent links."""
    me = os.getpid()
    try:
        found, queue = [], [me]
        while queue:
            pid = queue.pop()
            for task in _tasks(pid):
                try:
                    with open(f"/proc/{pid}/task/{task}/children", "rb") as fh:
                        kids = [int(word) for word in fh.read().split()]
                except FileNotFoundError:
                    if pid == me:
                        raise
                    kids = []                    # it died meanwhile: its children come up again
                found += kids
                queue += kids
        return found
    except FileNotFoundError:
        return _descendants_by_parent(me)


def _tasks(pid: int) -> list[str]:
    try:
        return os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return []


def _descendants_by_parent(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as fh:
                    data = fh.read()
                parent = int(data[data.rfind(b")") + 2:].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(name))
    found, queue = [], [root]
    while queue:
        kids = children.get(queue.pop(), [])
        found += kids
        queue += kids
    return found


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def clear() -> float:
    """Kill every descendant and reap them all until none is left (an orphan of a killed
    process is re-parented here, the subreaper, and found by the next pass): the CPU
    seconds they used.  No child left means no descendant is left."""
    cpu = 0.0
    while True:
        for pid in descendants():
            _kill(pid)
        reaped = False
        while True:
            try:
                pid, _, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return cpu
            if pid == 0:
                break
            reaped = True
            cpu += usage.ru_utime + usage.ru_stime
        if not reaped:
            select.select([], [], [], 0.0005)    # killed ones take a moment to die


def _child(message: dict, gate: int, out: int, err: int, ruleset: int) -> None:
    """In the forked process: make the run's process as the basic level does (in the
    order of :meth:`runner.sandbox.Sandbox.preexec`), wait at the gate, exec."""
    for name in ("SIGPIPE", "SIGXFSZ", "SIGXFZ"):    # Python ignores them; a program must not
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    os.setsid()                                      # its own session and process group
    _libc.prctl(launcher.PR_SET_DUMPABLE, 1, 0, 0, 0)    # as after exec: its /proc/self is its own
    if message.get("pids"):
        _enter_pids_group(message["pids"])
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out, 1)
    os.dup2(err, 2)
    for fd in (null, out, err):
        os.close(fd)
    os.chdir(message["cwd"])
    for name, soft, hard in message.get("limits", ()):
        kind = getattr(launcher.resource, name, None)
        if kind is not None:
            launcher._set_limit(kind, soft, hard)
    nice = message.get("nice") or 0
    if nice and os.geteuid() == 0:
        _yield_cpu(nice)                             # as root: never refused, set before the uid
    uid = message.get("uid")
    if uid is not None:
        launcher._become(uid)
    elif message.get("drop_caps"):
        _drop_capabilities()
    _die_with_launcher()
    if nice and os.geteuid() != 0:
        _yield_cpu(nice)
    if ruleset >= 0:
        _enter_landlock(ruleset)
    launcher._exec_at_gate(message, gate)


def _enter_pids_group(folder: str) -> None:
    try:
        with open(os.path.join(folder, "cgroup.procs"), "w") as fh:
            fh.write("0")
    except OSError as exc:
        os.write(2, f"arena: the pids group could not be entered: {exc}\n".encode())
        os._exit(NOT_CONFINED)


def _drop_capabilities() -> None:
    """As root without a uid of its own: no capability, none to get back."""
    try:
        last = int(open("/proc/sys/kernel/cap_last_cap").read())
    except (OSError, ValueError):
        last = 63
    for cap in range(last + 1):
        _libc.prctl(launcher.PR_CAPBSET_DROP, cap, 0, 0, 0)
    _libc.prctl(launcher.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


def _die_with_launcher() -> None:
    """Killed when the launcher dies (after the uid change, which clears it)."""
    parent = os.getppid()
    _libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _yield_cpu(nice: int) -> None:
    """Run at ``nice`` and give the run's session (its scheduling group) that nice too."""
    try:
        current = os.nice(0)
        if nice > current:
            os.nice(nice - current)
    except OSError:
        pass
    for _ in range(AUTOGROUP_TRIES):
        try:
            with open("/proc/self/autogroup", "w") as fh:
                fh.write(str(nice))
            return
        except BlockingIOError:                      # another change less than 0.1 s ago
            select.select([], [], [], AUTOGROUP_RETRY)
        except OSError:                              # no autogroups here
            return


def _enter_landlock(ruleset: int) -> None:
    """No new privileges, then the arena's Landlock ruleset (exit 126 when refused: the
    program never runs unconfined when the record says it is confined)."""
    if _libc.prctl(launcher.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or \
            _libc.syscall(SYS_LANDLOCK_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
        err = ctypes.get_errno()
        os.write(2, f"arena: the Landlock sandbox could not be entered: {os.strerror(err)}\n".encode())
        os._exit(NOT_CONFINED)
    os.close(ruleset)


if __name__ == "__main__":
    main()
