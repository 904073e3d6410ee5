"""Runs of a program: once to completion (:func:`run_once`), or prepared ahead and held
at a gate until its turn (:class:`GatedRun`), several waited for at once
(:func:`wait_for_exits`), and how each ended (:class:`RunResult`).  Part of
:mod:`runner.process`; nothing here imports pygame.
"""
from __future__ import annotations

import json
import os
import select
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

from games.api import Message
from runner.clocks import CPU, WALL, CpuMeter, TurnDeadline, _as_deadline, _cpu_since
from runner.output import OUTPUT_END_WAIT, _ended_within, _OutputReader
from runner.process_tree import (_exiting, _forget, _holds_lifeline, _proc_stat, _reap, _start,
                                 _task_children, sweep_orphans)
from runner.sandbox import STRICT, Sandbox, SandboxLimits, lifeline

def split_command(command: str | Sequence[str]) -> list[str]:
    """A command line as an argument list (POSIX quoting); lists pass through."""
    if isinstance(command, str):
        argv = shlex.split(command, posix=os.name != "nt")
    else:
        argv = list(command)
    if not argv:
        raise ValueError("empty command")
    return argv

def resolve_command(command: str | Sequence[str], base: str | Path | None = None) -> list[str]:
    """The command as an argument list, with the words naming existing files made absolute.

    A program runs in its own folder, so ``./bot`` or ``python3 bot.py`` given relative
    to where the arena started (``base``, default the current folder) must still find
    their files.  The first word is made absolute only when it is a path (``./bot``,
    ``bin/bot``), so ``python3`` still comes from ``PATH``.  The one resolver every
    program seat uses.
    """
    base = Path(base) if base is not None else Path.cwd()
    fixed = []
    for index, arg in enumerate(split_command(command)):
        candidate = base / arg
        if os.path.isabs(arg):
            fixed.append(arg)
        elif index == 0 and ("/" in arg or os.sep in arg) and candidate.exists():
            fixed.append(str(candidate.resolve()))
        elif index > 0 and candidate.is_file():
            fixed.append(str(candidate.resolve()))
        else:
            fixed.append(arg)
    return fixed


@dataclass
class RunResult:
    """How one run of a program ended."""

    returncode: int | None
    elapsed: float           # wall seconds
    timed_out: bool
    stdout: str
    stderr: str
    error: str = ""          # could not start, or similar
    cpu: float | None = None     # CPU seconds of its whole tree (None: not known)
    clock: str = WALL            # the clock it was timed by
    limit: float | None = None

    @property
    def crashed(self) -> bool:
        return not self.timed_out and (bool(self.error) or self.returncode not in (0, None))

    @property
    def charged(self) -> float:
        """The seconds its clock charges: CPU seconds on the CPU clock (when known), else wall."""
        return self.cpu if self.clock == CPU and self.cpu is not None else self.elapsed

    def describe(self) -> str:
        """How the run ended, in words: a :class:`~games.api.Message`."""
        if self.error:
            return self.error
        if self.timed_out and self.clock == CPU and self.cpu is not None and self.limit is not None:
            if self.cpu >= self.limit:
                return Message("killed after {cpu} s of CPU (time limit, CPU clock; {wall} s wall)",
                               cpu=f"{self.cpu:.2f}", wall=f"{self.elapsed:.2f}")
            return Message("killed after {wall} s wall, the cap of a {limit} s CPU clock "
                           "(it used {cpu} s of CPU)", wall=f"{self.elapsed:.2f}",
                           limit=f"{self.limit:g}", cpu=f"{self.cpu:.2f}")
        if self.timed_out:
            return Message("killed after {seconds} s (time limit)", seconds=f"{self.elapsed:.2f}")
        if self.returncode:
            return Message("exited with code {code}", code=self.returncode)
        return Message("finished in {seconds} s", seconds=f"{self.elapsed:.3f}")


def _popen(argv, cwd, sandbox: Sandbox, stdin, gate: bool = False, info_fd: int | None = None,
           meter: CpuMeter | None = None):
    """Start ``argv`` in ``cwd`` inside ``sandbox`` (``gate``: held until a line arrives
    on stdin, see :class:`GatedRun`; ``info_fd``: see :meth:`Sandbox.command`, passed to
    the sandbox; ``meter``: its process joins the meter's cgroup first); registered
    until killed."""
    command = sandbox.command(argv, cwd, gate, info_fd)
    fds = ([] if info_fd is None else [info_fd]) + (
        [lifeline()] if sandbox.level == STRICT else [])
    return _start(command, cwd, sandbox, stdin, fds, sandbox.env(cwd),
                  _joined(meter, sandbox.preexec()))


def _joined(meter: CpuMeter | None, preexec: Callable[[], None] | None) -> Callable[[], None] | None:
    """``preexec`` run after joining the meter's cgroup (either may be None)."""
    join = meter.preexec() if meter is not None else None
    if join is None:
        return preexec
    if preexec is None:
        return join

    def both() -> None:
        join()
        preexec()
    return both


def _sandbox_for(sandbox: Sandbox | None, memory_mb: int | None) -> Sandbox:
    if sandbox is not None:
        return sandbox
    return Sandbox(SandboxLimits.from_seat({"memory_mb": memory_mb}))


def _wait_for_exit(proc: subprocess.Popen, timeout: float | None,
                   before_reap: Callable[[], None] | None = None) -> bool:
    """Wait until ``proc`` exits (True) or ``timeout`` seconds pass (False), without
    polling: on Linux a pidfd (``os.pidfd_open``) turns readable the moment the process
    exits; elsewhere ``Popen.wait``, which polls with back-off (up to 50 ms late).
    ``before_reap`` is called once it has exited, before it is reaped (pidfd only)."""
    fd = None
    if hasattr(os, "pidfd_open"):
        try:
            fd = os.pidfd_open(proc.pid)
        except OSError:
            fd = None
    if fd is None:
        try:
            proc.wait(timeout=timeout)
            return True
        except subprocess.TimeoutExpired:
            return False
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        ready = poller.poll(None if timeout is None else max(0, int(timeout * 1000 + 0.999)))
    finally:
        os.close(fd)
    if not ready:
        return False
    if before_reap is not None:
        before_reap()
    proc.wait()
    return True


def run_once(command: str | Sequence[str], cwd: str | Path | None, timeout: float | None,
             memory_mb: int | None = None, stdin_text: str | None = None,
             sandbox: Sandbox | None = None, clock: str = WALL, cap: float | None = None) -> RunResult:
    """Run a program until it exits or its ``timeout`` is over by its ``clock`` (then kill
    its tree): ``timeout`` wall seconds, or on the CPU clock ``timeout`` CPU seconds of its
    tree within ``cap`` wall seconds (default :func:`wall_cap`; see :class:`TurnDeadline`).

    It runs in ``sandbox`` (default: this arena's level with the default limits and
    ``memory_mb``), with a CPU limit of about ``timeout`` unless the sandbox sets one.
    """
    argv = split_command(command)
    sandbox = _sandbox_for(sandbox, memory_mb)
    if timeout is not None:
        sandbox = sandbox.with_cpu(timeout)
    meter = CpuMeter(strict=sandbox.level == STRICT)
    start = time.perf_counter()
    try:
        proc = _popen(argv, cwd, sandbox,
                      subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL, meter=meter)
    except OSError as exc:
        meter.close()
        return RunResult(None, 0.0, False, "", "", Message("could not start {program}: {error}", program=argv[0],
                                                           error=exc.strerror or str(exc)))
    meter.pid = proc.pid
    out, err = _OutputReader(proc.stdout), _OutputReader(proc.stderr)
    out.start(), err.start()
    if stdin_text is not None:       # on a thread: a program that never reads must not block us
        def feed(data=stdin_text.encode()):
            try:
                proc.stdin.write(data)
                proc.stdin.close()
            except (OSError, ValueError):
                pass
        threading.Thread(target=feed, daemon=True, name="stdin").start()
    try:
        cpu_start = 0.0 if meter.exact else meter.used()
        return _finish(proc, out, err, TurnDeadline(start, timeout, clock, meter, cpu_start, cap),
                       meter=meter)
    finally:
        meter.close()


def _finish(proc: subprocess.Popen, out: _OutputReader, err: _OutputReader,
            deadline: TurnDeadline, sweep: bool = True, meter: CpuMeter | None = None) -> RunResult:
    """Wait for a started program until its ``deadline`` is over (then it is killed),
    kill what is left of its tree and say how it ended (its wall time counted from
    ``deadline.started``, its CPU time from ``deadline.cpu_start`` by ``meter``)."""
    timed_out = not _wait_by(proc, deadline, meter)
    elapsed = time.perf_counter() - deadline.started
    cpu = _cpu_since(meter, deadline.cpu_start)
    _reap(proc, sweep)
    out.join(1), err.join(1)
    return RunResult(None if timed_out else proc.returncode, elapsed, timed_out, out.text(),
                     err.text(), cpu=_cpu_since(meter, deadline.cpu_start) or cpu,
                     clock=deadline.clock, limit=deadline.limit)


def _wait_by(proc: subprocess.Popen, deadline: TurnDeadline, meter: CpuMeter | None = None) -> bool:
    """Wait until ``proc`` exits (True) or ``deadline`` is over (False); ``meter`` takes
    its final figures before it is reaped."""
    while True:
        now = time.perf_counter()
        if deadline.over(now):
            return proc.poll() is not None
        look = deadline.next_look(now)
        if _wait_for_exit(proc, None if look is None else max(0.0, look - now),
                          None if meter is None else meter.note_exit):
            return True


def wait_for_exits(runs: dict, deadlines: dict) -> Iterator[tuple[object, float | None]]:
    """Wait for several opened :class:`GatedRun` at once, on the caller's thread, without
    polling: one ``poll`` over their pidfds (Linux), so no thread is woken in between
    (on a CPU clock, also when it is time to look at a program's CPU time again).

    ``runs`` and ``deadlines`` (:class:`TurnDeadline`, ``time.perf_counter()`` values,
    or None) are keyed alike.
    Yields ``(key, exited_at)`` for each run as it exits (``exited_at``: when the exit
    was seen, taken once for all the runs seen in one wake-up, before any is handed
    back) or ``(key, None)`` once its deadline has passed.  A run whose pidfd cannot be
    had is waited for after the others with ``Popen.wait``."""
    deadlines = {key: _as_deadline(deadlines.get(key)) for key in runs}
    poller, by_fd, left = select.poll(), {}, {}
    for key, run in runs.items():
        try:
            fd = run.exit_pidfd()
        except (AttributeError, OSError):
            left[key] = run
            continue
        by_fd[fd] = key
        poller.register(fd, select.POLLIN)
    try:
        while by_fd:
            now = time.perf_counter()
            soonest = min((look for k in by_fd.values()
                           if (look := deadlines[k].next_look(now)) is not None), default=None)
            wait = None if soonest is None else max(0, int((soonest - now) * 1000 + 0.999))
            exited = {by_fd[fd] for fd, _ in poller.poll(wait)}
            seen = time.perf_counter()
            late = {key for key in by_fd.values() if key not in exited
                    and deadlines[key].over(seen)}
            for fd, key in list(by_fd.items()):
                if key in exited or key in late:
                    poller.unregister(fd)
                    os.close(fd)
                    del by_fd[fd]
            yield from ((key, seen) for key in exited)
            yield from ((key, None) for key in late)
    finally:
        for fd in by_fd:
            os.close(fd)
    for key, run in left.items():
        yield key, (time.perf_counter() if _wait_by(run.proc, deadlines[key], getattr(run, "meter", None))
                    else None)


#: Seconds :meth:`GatedRun.reap` waits for bwrap to exit after the program it wraps (it
#: takes a few tenths of a ms) before it kills it.
WRAPPER_EXIT_WAIT = 1.0
#: Seconds a :class:`GatedRun` waits for bwrap to set up the sandbox and start the
#: program's process (tens of ms) before it watches bwrap instead (see :func:`_sandboxed`).
SANDBOX_START_WAIT = 10.0


def _sandboxed(info_fd: int, wrapper_pid: int) -> tuple[int, int, int] | None:
    """The program bwrap (``wrapper_pid``) started in its sandbox, held at its gate: a
    pidfd of it, its pid and the pid of its parent, bwrap's init in the sandbox (told
    on ``info_fd``, closed here).  None when bwrap said nothing in time (it failed) or
    the processes are not where they should be."""
    deadline = time.monotonic() + SANDBOX_START_WAIT
    init = _bwrap_child_pid(info_fd)
    if init is None:
        return None
    try:
        while not (children := _task_children(init, init)) and time.monotonic() < deadline:
            time.sleep(0.0005)                # bwrap's init forks the program right away
        if len(children) != 1 or int(_proc_stat(init)[1]) != wrapper_pid:
            return None
        program = children.pop()
        fd = os.pidfd_open(program)
    except (ValueError, IndexError, OSError):
        return None
    try:
        if int(_proc_stat(program)[1]) == init:    # the pidfd pins the process asked about
            return fd, program, init
    except (OSError, ValueError, IndexError):
        pass
    os.close(fd)
    return None


def _bwrap_child_pid(info_fd: int) -> int | None:
    """The ``child-pid`` of the JSON bwrap writes on its ``--info-fd`` (closed here) once
    its sandbox is set up, or None when it says nothing within SANDBOX_START_WAIT."""
    data = b""
    try:
        poller = select.poll()
        poller.register(info_fd, select.POLLIN)
        while b"}" not in data and poller.poll(int(SANDBOX_START_WAIT * 1000)):
            chunk = os.read(info_fd, 4096)
            if not chunk:
                break
            data += chunk
    finally:
        os.close(info_fd)
    try:
        return int(json.loads(data[:data.index(b"}") + 1])["child-pid"])
    except (ValueError, KeyError, TypeError):
        return None


def tree_dies_with_program(sandbox: Sandbox) -> bool:
    """Whether, once a program of ``sandbox`` has exited and its process group has been
    killed, every other process of its tree is dead or adopted by the arena: in the
    strict level its PID namespace died with it; in the basic level (Linux) the arena is
    the child subreaper, so a process that left the group was re-parented to the arena
    when its parent died, where :func:`sweep_orphans` finds it."""
    from runner.sandbox import is_subreaper
    return os.name == "posix" and (sandbox.level == STRICT or is_subreaper())


def can_gate() -> bool:
    """Whether programs can be started ahead of their turn (:class:`GatedRun`)."""
    from runner.sandbox import GATE_SHELL
    return os.name == "posix" and os.path.exists(GATE_SHELL)


class GatedRun:
    """One run of a program, started ahead of its turn and held at a gate.

    Everything that costs time before a program's first instruction (the fork of the
    arena, the sandbox's namespaces and mounts, the resource limits) is done here, while
    the judge waits for something else; the program itself starts only at :meth:`run`,
    which opens the gate (one line on the gate's stdin: see
    :data:`runner.sandbox.GATE_SCRIPT`) and then behaves as :func:`run_once`: the time
    limit counts from the gate's opening.  A gated run never used is :meth:`cancel`-led.
    The program's stdin is /dev/null (a program fed on stdin uses :func:`run_once`).
    """

    def __init__(self, command: str | Sequence[str], cwd: str | Path | None,
                 sandbox: Sandbox | None = None):
        self.sandbox = _sandbox_for(sandbox, None)
        strict = self.sandbox.level == STRICT and hasattr(os, "pidfd_open")
        info_read, info_write = os.pipe() if strict else (None, None)
        #: The CPU time of the run's tree (its cgroup holds the gate and the sandbox too:
        #: what they used before the gate opened is not the program's, see :meth:`open`).
        self.meter = CpuMeter(strict=self.sandbox.level == STRICT)
        try:
            self.proc = _popen(split_command(command), cwd, self.sandbox, subprocess.PIPE,
                               gate=True, info_fd=info_write, meter=self.meter)
        except BaseException:
            if info_read is not None:
                os.close(info_read)
            self.meter.close()
            raise
        finally:
            if info_write is not None:
                os.close(info_write)
        self._out, self._err = _OutputReader(self.proc.stdout), _OutputReader(self.proc.stderr)
        self._out.start(), self._err.start()
        # Strict: a pidfd of the program's own process in its sandbox, its pid and its
        # parent's (bwrap's init), so that its exit is seen as it happens, not when bwrap
        # has noticed it and exited too (0.35 ms later); None: its exit is bwrap's.
        found = None if info_read is None else _sandboxed(info_read, self.proc.pid)
        self._program_fd, self._program_pid, self._sandbox_init = found or (None, 0, 0)
        self.meter.pid = self.proc.pid
        #: ``time.perf_counter()`` when the gate opened (see :meth:`open`), and the
        #: tree's CPU seconds then.
        self.started = 0.0
        self.cpu_start: float | None = None
        self._cpu: float | None = None

    def run(self, timeout: float | None, sweep: bool = True, clock: str = WALL,
            cap: float | None = None) -> RunResult:
        """Open the gate and wait until the program exits or its ``timeout`` is over by
        its ``clock``; its tree is killed then (its adopted orphans too, unless ``sweep``
        is false: the caller then calls :func:`sweep_orphans` before the next run)."""
        self.open()
        self._close_program_fd()
        try:
            return _finish(self.proc, self._out, self._err, self.deadline(timeout, clock, cap), sweep,
                           self.meter)
        finally:
            self.meter.close()

    def deadline(self, timeout: float | None, clock: str = WALL, cap: float | None = None) -> TurnDeadline:
        """When this opened run's ``timeout`` is over by ``clock`` (``cap``: its wall cap)."""
        return TurnDeadline(self.started, timeout, clock, self.meter, self.cpu_start, cap)

    def exit_pidfd(self) -> int:
        """A new pidfd (the caller closes it) that turns readable when the run has ended:
        the program's own when known (strict), else its wrapper's (bwrap, or the
        program itself in the basic level)."""
        if self._program_fd is not None:
            return os.dup(self._program_fd)
        return os.pidfd_open(self.proc.pid)

    def ended_alone(self) -> bool:
        """After its exit was seen (:meth:`exit_pidfd`), before :meth:`reap`: whether the
        program has left no process running (strict: none but itself, dead, is left
        under bwrap's init), so its files are final though its sandbox is not yet torn
        down.  False when that is not known: the caller then reaps it first."""
        if self._program_fd is None:
            return False
        try:
            left = _task_children(self._sandbox_init, self._sandbox_init)
        except FileNotFoundError:
            return True          # bwrap has reaped its init: the namespace is dead
        except (OSError, ValueError):
            return False
        # The sandbox's lifeline watcher (runner.sandbox.LIFELINE_SCRIPT), forked before
        # the program, outlives it under the init (it alone holds the lifeline), or is
        # already dying with the namespace.
        return all(_holds_lifeline(pid) or _exiting(pid) for pid in left - {self._program_pid})

    def _close_program_fd(self) -> None:
        if self._program_fd is not None:
            os.close(self._program_fd)
            self._program_fd = None

    def open(self) -> None:
        """Open the gate: the program starts now (:attr:`started`).  Its exit can then
        be waited for with others, on the caller's thread (:func:`wait_for_exits`)."""
        self.cpu_start = self.meter.used()
        self.started = time.perf_counter()
        try:
            os.write(self.proc.stdin.fileno(), b"go\n")
            self.proc.stdin.close()
        except (OSError, ValueError):
            pass                    # the gate is gone: its exit code says how

    def end(self, exited_at: float | None, sweep: bool = True) -> RunResult:
        """After :meth:`open`: the program exited at ``exited_at`` (None: its time ran
        out, it is killed now); kill what is left of its tree (and the orphans, when
        one holds its output open) and say how it ended."""
        self.reap(exited_at, sweep)
        return self.result()

    def reap(self, exited_at: float | None, sweep: bool = True) -> None:
        """The first half of :meth:`end`: kill what is left of the program's tree and
        reap it (its output may still be on its way: :meth:`result` waits for it).

        A program that exited is a zombie until reaped, so its pid (its group's id:
        each program leads a session of its own) cannot be reused yet: its group is
        killed first, then it is reaped; no pid is ever signalled after its reaping.
        When every other process of its tree is then known to be dead or adopted by
        the arena (:func:`tree_dies_with_program`), the walk of the process table
        (psutil, a few tenths of a ms on the judge's path) is skipped: the adopted
        ones are the orphans :func:`sweep_orphans` kills (here with ``sweep``, else
        by the caller before the next run)."""
        self._timed_out = exited_at is None
        self._elapsed = (time.perf_counter() if self._timed_out else exited_at) - self.started
        self._cpu = _cpu_since(self.meter, self.cpu_start)     # a zombie's last figures too
        seen_in_sandbox = self._program_fd is not None
        self._close_program_fd()
        if self._timed_out or not tree_dies_with_program(self.sandbox):
            _reap(self.proc, sweep)           # kill_tree walks the tree while it is alive
            self._cpu = _cpu_since(self.meter, self.cpu_start)
            return
        # When the exit seen was the program's own (strict), bwrap exits on its own a few
        # tenths of a ms later with the program's exit status, which a kill would replace;
        # once it has been reaped, its pid is never signalled.
        if not (seen_in_sandbox and _wait_for_exit(self.proc, WRAPPER_EXIT_WAIT, self.meter.note_exit)):
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass                          # no process is left in its group
        self.proc.wait()
        _forget(self.proc)
        self._cpu = _cpu_since(self.meter, self.cpu_start)
        if sweep:
            sweep_orphans()

    def result(self) -> RunResult:
        """The second half of :meth:`end`, after :meth:`reap`: how the run ended, with
        its output (an orphan holding the output open is swept at once)."""
        if not _ended_within((self._out, self._err), OUTPUT_END_WAIT):
            # Its tree is dead, yet its output is still open: an orphan it left (basic
            # sandbox) holds it.  Swept now, not before the next turn: this runs on the
            # judge's thread, where the other programs' exits are seen (and timed).
            sweep_orphans()
        self._out.join(1), self._err.join(1)
        self.meter.close()
        return RunResult(None if self._timed_out else self.proc.returncode, self._elapsed,
                         self._timed_out, self._out.text(), self._err.text(), cpu=self._cpu)

    def cancel(self) -> None:
        """End the waiting run without starting the program: the gate reads the end of
        its stdin and exits (a kill would leave the sandbox's processes to be reaped by
        whoever adopts them, which can take seconds); killed if it does not."""
        self._out.closing.set()
        self._close_program_fd()
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=1.0)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass
        _reap(self.proc)
        self.meter.close()
