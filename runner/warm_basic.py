"""The basic level's warm shape: one long-lived launcher per seat for the match.

The basic level (no bubblewrap) used to start a new chain of processes for each turn
of a program run once per turn (Robot, Tam Quan), and to sweep what it left from the
arena.  :class:`BasicWarmSandbox` starts the launcher of :mod:`runner.launcher_basic`
once per seat instead: the child subreaper of everything its runs start, it forks each
turn's process as the basic level makes it (its own session, the seat's folder, pids
group, uid, limits, nice and Landlock ruleset, all planned here by
:class:`runner.sandbox.Sandbox`), holds it at a gate, and when it ends kills and reaps
every process the run left before it reports the run's status and CPU seconds.  Its
runs are :class:`runner.warm.WarmRun`\\ s, as the strict level's.

:func:`warm_kind` says which warm sandbox a seat gets: the strict one
(:func:`runner.warm.warm_possible`), this one (:func:`basic_warm_possible`), or none
(each turn then has a sandbox of its own; ``ARENA_WARM=0`` asks for that).  Nothing here
imports pygame.
"""
from __future__ import annotations

import os
import socket
import sys
from pathlib import Path
from typing import Any, Sequence

from runner import seat_limits
from runner.process_tree import _start
from runner.sandbox import BASIC, Sandbox, _as_root, _user_tasks, lifeline, user_namespaces_possible
from runner.warm import WARM_SWITCH, WarmSandbox, _interpreter, warm_possible

#: The basic level's launcher (run with the arena's Python, outside any sandbox).
BASIC_LAUNCHER = Path(__file__).resolve().with_name("launcher_basic.py")


def basic_warm_possible(sandbox: Sandbox) -> bool:
    """Whether ``sandbox``'s runs can share one launcher: the basic level on Linux with
    pidfds and descriptor passing, a Python to run the launcher with (not a frozen
    build), not turned off by ``ARENA_WARM=0``, and not an ordinary user's arena that
    gives each run its own user and PID namespaces (that level's runs are made by
    ``unshare``, which the launcher does not do: they stay one chain per turn)."""
    return (sandbox.level == BASIC and sys.platform.startswith("linux")
            and hasattr(os, "pidfd_open") and hasattr(socket, "send_fds")
            and not getattr(sys, "frozen", False) and os.environ.get(WARM_SWITCH, "1") != "0"
            and (_as_root() or not user_namespaces_possible()))


def warm_kind(sandbox: Sandbox) -> type[WarmSandbox] | None:
    """The warm sandbox a seat with ``sandbox`` gets, or None (one sandbox a turn)."""
    if warm_possible(sandbox):
        return WarmSandbox
    if basic_warm_possible(sandbox):
        return BasicWarmSandbox
    return None


class BasicWarmSandbox(WarmSandbox):
    """One seat's basic-level launcher, kept for the match (:mod:`runner.launcher_basic`).
    The seat's confinement is planned once (:meth:`runner.sandbox.Sandbox.expect`'s plan:
    its uid, Landlock ruleset, pids group); each run adds the turn's limits.  Raises
    OSError when the launcher does not start."""

    def __init__(self, argv: Sequence[str], folder: str | Path, sandbox: Sandbox):
        self.landlock: seat_limits.Landlock | None = None
        self.pids: seat_limits.PidsGroup | None = None
        super().__init__(argv, folder, sandbox)

    def _start_launcher(self, control: int):
        """Plan the seat's confinement (its folder is handed to its uid, as root), make
        its Landlock ruleset and pids group, and start the launcher."""
        sandbox = self.sandbox
        sandbox.command(self.argv, self.folder, gate=True)    # the plan; checks the program
        plan = sandbox._plan
        if plan is None:
            raise OSError("the basic level has no plan for the program here")
        seat_limits.hide_arena_from_same_user()
        self.landlock = seat_limits.Landlock.make(plan.writable, plan.readable, plan.listable)
        if self.landlock is None and seat_limits.landlock_abi():
            raise OSError("the Landlock sandbox could not be made")
        processes = sandbox.limits.processes
        if plan.pids_group and processes:
            self.pids = seat_limits.PidsGroup.make(processes)
        launcher = [_interpreter(), "-I", "-S", str(BASIC_LAUNCHER), str(lifeline())]
        try:
            proc = _start(launcher, self.folder, sandbox, control, [lifeline()],
                          sandbox.env(self.folder), self.meter.preexec())
        except BaseException:
            self._let_go()
            raise
        seat_limits.hold(proc.pid, self.pids)          # removed when the launcher is reaped
        return proc

    def _run_settings(self, sandbox: Sandbox) -> tuple[dict[str, Any], list[int]]:
        """The turn's settings as the basic level's :meth:`~runner.sandbox.Sandbox.preexec`
        would apply them, and the Landlock ruleset's descriptor."""
        settings = sandbox.run_settings(self.argv, self.folder)
        plan = self.sandbox._plan
        settings["uid"] = plan.uid if plan is not None else None
        settings["drop_caps"] = settings["uid"] is None and _as_root()
        settings["pids"] = str(self.pids.path) if self.pids is not None else None
        processes = sandbox.limits.processes
        if processes and not _as_root():
            # RLIMIT_NPROC counts every task of the arena's user (as the basic level's).
            settings["limits"] = [[name, processes + _user_tasks(), processes + _user_tasks()]
                                  if name == "RLIMIT_NPROC" else [name, soft, hard]
                                  for name, soft, hard in settings["limits"]]
        return settings, [self.landlock.fd] if self.landlock is not None else []

    def close(self) -> None:
        super().close()
        self._let_go()

    def _let_go(self) -> None:
        if self.landlock is not None:
            self.landlock.close()
            self.landlock = None
        if self.pids is not None and getattr(self, "proc", None) is None:
            self.pids.remove()                          # else released with the launcher
        self.pids = None
