"""A warm sandbox per seat: the strict sandbox is started once per match, not per turn.

A program run once per turn (Robot, Tam Quan) in the strict sandbox used to cost a new
bubblewrap each turn (its namespaces, mounts and uid: about 10 ms of CPU on a machine
whose programs may need it).  :class:`WarmSandbox` starts the seat's sandbox once, with
the launcher of :mod:`runner.launcher` as its PID 1, and each turn asks the launcher
for a fresh process of the program (:class:`WarmRun`): the seat's folder, the turn's
resource limits, the seat's uid, an empty ``/tmp`` and IPC namespace of its own, held
at a gate as a :class:`runner.process.GatedRun` is.  When the program exits (or its
time is over) the launcher kills and reaps everything else in the namespace before it
reports, so the files are final when the judge reads them and nothing a program left
runs into the next turn.  A :class:`WarmRun` has a :class:`~runner.process.GatedRun`'s
interface: the seats and :class:`runner.program_seats.ProgramsTurn` use either.

Where the warm sandbox cannot be had (:func:`warm_possible`: the basic level, which
has its own in :mod:`runner.warm_basic`; an ordinary user's arena whose bubblewrap
refuses the launcher CAP_SYS_ADMIN in its user namespace), runs are prepared the cold
way, one sandbox per turn.  Nothing here imports pygame.
"""
from __future__ import annotations

import json
import os
import select
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any, Sequence

from runner.clocks import WALL, CpuMeter, TurnDeadline, _cpu_since
from runner.output import _ended_within, _OutputReader
from runner.process_tree import _reap, _start
from runner.runs import RunResult
from runner.sandbox import (SEAT_MARKER, STRICT, Sandbox, _as_root, lifeline,
                            unprivileged_warm_possible)

#: The launcher, shown read-only inside the sandbox (only this file of the arena's).
LAUNCHER = Path(__file__).resolve().with_name("launcher.py")
#: Seconds to wait for a new warm sandbox's launcher to say it is ready.
READY_WAIT = 20.0
#: Seconds to wait for the launcher's report once a run has exited or was killed (it
#: kills and reaps what the program left: milliseconds).
REPORT_WAIT = 5.0
#: ``ARENA_WARM=0`` turns the warm sandbox off (each turn then gets a new sandbox).
WARM_SWITCH = "ARENA_WARM"


def warm_possible(sandbox: Sandbox) -> bool:
    """Whether ``sandbox``'s runs can share one warm sandbox: the strict level on Linux
    with pidfds and descriptor passing, an arena run as root or a bubblewrap that lets
    an ordinary user's launcher keep CAP_SYS_ADMIN in its user namespace (it makes each
    run's IPC namespace: :func:`runner.sandbox.unprivileged_warm_possible`), a Python
    to run the launcher with (not a frozen build), not
    turned off by ``ARENA_WARM=0``."""
    return (sandbox.level == STRICT and hasattr(os, "pidfd_open") and hasattr(socket, "send_fds")
            and (_as_root() or unprivileged_warm_possible()) and not getattr(sys, "frozen", False)
            and os.environ.get(WARM_SWITCH, "1") != "0")


def _interpreter() -> str:
    """The Python the launcher runs with: the arena's own, outside any virtual
    environment (it needs the standard library only, and runs with ``-I -S``)."""
    return os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)


class WarmSandbox:
    """One seat's strict sandbox, kept for the match, with :mod:`runner.launcher` as its
    PID 1.  :meth:`prepare` makes a run; :meth:`close` ends the sandbox (every process
    in it dies with its PID 1).  Raises OSError when the sandbox does not start."""

    def __init__(self, argv: Sequence[str], folder: str | Path, sandbox: Sandbox):
        self.argv, self.folder, self.sandbox = list(argv), Path(folder).absolute(), sandbox
        if not (self.folder / SEAT_MARKER).is_file():
            # Only a folder the arena made is handed to the seat's own uid; a program
            # in another would run as the launcher's root.
            raise OSError(f"{self.folder} is not a folder the arena made for the seat")
        #: The CPU time of the whole sandbox (its cgroup), read as each turn starts and
        #: ends; a run's own figure is the launcher's (see :meth:`WarmRun.reap`).
        self.meter = CpuMeter(strict=True, live=True)
        self.control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.proc = self._start_launcher(theirs.fileno())
        except BaseException:
            self.control.close()
            self.meter.close()
            raise
        finally:
            theirs.close()
        self.meter.pid = self.proc.pid
        self._out, self._err = _OutputReader(self.proc.stdout), _OutputReader(self.proc.stderr)
        self._out.start(), self._err.start()
        self._next_id = 0
        self._ids = threading.Lock()
        ready = self.receive(READY_WAIT)
        if not ready or "ready" not in ready:
            self.close()
            said = self._err.text().strip().splitlines()
            raise OSError(f"the warm sandbox did not start: {said[-1] if said else 'no answer'}")

    def _start_launcher(self, control: int):
        """Start the sandbox with the launcher as its PID 1, ``control`` as its stdin."""
        launcher = [_interpreter(), "-I", "-S", str(LAUNCHER), str(lifeline())]
        command = self.sandbox.warm_command(self.argv, self.folder, launcher, [LAUNCHER])
        return _start(command, self.folder, self.sandbox, control, [lifeline()],
                      self.sandbox.env(self.folder), self.meter.preexec())

    def _run_settings(self, sandbox: Sandbox) -> tuple[dict[str, Any], list[int]]:
        """What the launcher sets for one run with ``sandbox``'s limits, and descriptors
        it gets after the gate and the output's (none here)."""
        return sandbox.run_settings(self.argv, self.folder), []

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def prepare(self, sandbox: Sandbox) -> "WarmRun":
        """A new run of the seat's program held at its gate, with ``sandbox``'s limits
        (the seat's with the turn's CPU limit).  Sent now; the launcher starts it as soon
        as the run before it has ended and been cleared."""
        settings, extra = self._run_settings(sandbox)
        with self._ids:
            self._next_id += 1
            run_id = self._next_id
        gate_r, gate_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        try:
            socket.send_fds(self.control, [json.dumps({"prep": run_id, **settings}).encode()],
                            [gate_r, out_w, err_w, *extra])
        except BaseException:
            for fd in (gate_w, out_r, err_r):
                os.close(fd)
            raise
        finally:
            for fd in (gate_r, out_w, err_w):
                os.close(fd)
        return WarmRun(self, sandbox, run_id, gate_w, out_r, err_r)

    def kill(self, run_id: int) -> None:
        """Ask the launcher to kill run ``run_id`` and everything in the namespace."""
        try:
            self.control.send(json.dumps({"kill": run_id}).encode())
        except OSError:
            pass

    def receive(self, timeout: float) -> dict[str, Any] | None:
        """The launcher's next message, or None when it said nothing in ``timeout``
        seconds or is gone (end of file)."""
        poller = select.poll()
        poller.register(self.control.fileno(), select.POLLIN)
        if not poller.poll(max(0, int(timeout * 1000))):
            return None
        try:
            data = self.control.recv(65536)
        except OSError:
            return None
        if not data:
            return None
        try:
            return json.loads(data)
        except ValueError:
            return None

    def report(self, run_id: int, timeout: float) -> dict[str, Any] | None:
        """The launcher's report of run ``run_id`` (reports of older runs, cancelled, are
        passed over), or None when none came in ``timeout`` seconds (the sandbox is then
        ended: nothing may outlive a turn)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.0, deadline - time.monotonic()))
            if message is None:
                self.close()
                return None
            if message.get("exit") == run_id:
                return message

    def close(self) -> None:
        """End the sandbox: the launcher sees the end of its control socket and exits,
        and every process of the namespace dies with it; bwrap then exits."""
        try:
            self.control.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=1.0)
        except Exception:         # noqa: BLE001 - killed below whatever went wrong
            pass
        _reap(self.proc)
        self.meter.close()


class WarmRun:
    """One run of a program in a :class:`WarmSandbox`, prepared ahead and held at its
    gate; the interface of :class:`runner.process.GatedRun`."""

    def __init__(self, warm: WarmSandbox, sandbox: Sandbox, run_id: int, gate: int,
                 out: int, err: int):
        self.warm, self.sandbox, self.meter, self.proc = warm, sandbox, warm.meter, warm.proc
        self._id, self._gate = run_id, gate
        self._out = _OutputReader(os.fdopen(out, "rb", buffering=0))
        self._err = _OutputReader(os.fdopen(err, "rb", buffering=0))
        self._out.start(), self._err.start()
        self.started = 0.0
        self.cpu_start: float | None = None
        self._report: dict[str, Any] | None = None
        self._reported = False
        self._timed_out = False
        self._elapsed = 0.0
        self._cpu: float | None = None

    def _close_gate(self, go: bool) -> None:
        if self._gate is None:
            return
        try:
            if go:
                os.write(self._gate, b"g")
        except OSError:
            pass                    # the launcher is gone: its report says so
        os.close(self._gate)
        self._gate = None

    def open(self) -> None:
        """Open the gate: the program starts now (:attr:`started`)."""
        self.cpu_start = self.meter.used()
        self.started = time.perf_counter()
        self._close_gate(True)

    def deadline(self, timeout: float | None, clock: str = WALL, cap: float | None = None) -> TurnDeadline:
        return TurnDeadline(self.started, timeout, clock, self.meter, self.cpu_start, cap)

    def exit_pidfd(self) -> int:
        """A descriptor (the caller closes it) that turns readable when the launcher has
        reported the run's end: the program exited and nothing it left runs."""
        return os.dup(self.warm.control.fileno())

    def run(self, timeout: float | None, sweep: bool = True, clock: str = WALL,
            cap: float | None = None) -> RunResult:
        """Open the gate and wait until the program exits or its ``timeout`` is over by
        its ``clock``; then say how it ended."""
        self.open()
        exited_at = self._wait(self.deadline(timeout, clock, cap))
        self.reap(exited_at, sweep)
        result = self.result()
        result.clock, result.limit = self.deadline(timeout, clock, cap).clock, timeout
        return result

    def _wait(self, deadline: TurnDeadline) -> float | None:
        poller = select.poll()
        poller.register(self.warm.control.fileno(), select.POLLIN)
        while True:
            now = time.perf_counter()
            if deadline.over(now):
                return time.perf_counter() if poller.poll(0) else None
            look = deadline.next_look(now)
            wait = None if look is None else max(0, int((look - now) * 1000 + 0.999))
            if poller.poll(wait):
                return time.perf_counter()

    def _take_report(self) -> dict[str, Any] | None:
        if not self._reported:
            self._report = self.warm.report(self._id, REPORT_WAIT)
            self._reported = True
        return self._report

    def ended_alone(self) -> bool:
        """After its end was seen: whether the launcher reported it (then nothing of the
        run is left running, so its files are final)."""
        return self._take_report() is not None

    def reap(self, exited_at: float | None, sweep: bool = True) -> None:
        """The run's end: the program exited at ``exited_at`` (None: its time ran out, it
        is killed now, with everything in the namespace).  Its CPU time is the
        launcher's sum over every process of the run (the cgroup's figure when the
        launcher did not report)."""
        self._timed_out = exited_at is None
        self._elapsed = (time.perf_counter() if self._timed_out else exited_at) - self.started
        if self._timed_out and not self._reported:
            self.warm.kill(self._id)
        report = self._take_report()
        cpu = report.get("cpu") if report else None
        self._cpu = float(cpu) if cpu is not None else _cpu_since(self.meter, self.cpu_start)

    def result(self) -> RunResult:
        """How the run ended, with its output (its writers are all dead by now)."""
        _ended_within((self._out, self._err), 1.0)
        self._out.closing.set(), self._err.closing.set()
        report = self._report
        if report is None:
            said = self.warm._err.text().strip().splitlines()
            return RunResult(None, self._elapsed, self._timed_out, self._out.text(), self._err.text(),
                             error="the sandbox ended during the run"
                             + (f" ({said[-1]})" if said else ""), cpu=self._cpu)
        return RunResult(None if self._timed_out else int(report["status"]), self._elapsed,
                         self._timed_out, self._out.text(), self._err.text(), cpu=self._cpu)

    def cancel(self) -> None:
        """End the waiting run without starting the program (it exits at its gate)."""
        self._close_gate(False)
        if not self._reported and self.warm.alive:
            self._report = self.warm.report(self._id, REPORT_WAIT)
            self._reported = True
        self._out.closing.set(), self._err.closing.set()
