"""Running external programs: no shell, own folder, time and size limits, whole-tree kill.

Two shapes cover every contest protocol:

* :func:`run_once` runs a program to completion (Robot, Tam Quan: once per turn;
  Crossed Words: once per game) and reports how it ended;
* :class:`LineProcess` keeps a program running and exchanges lines with it (Hex's line
  protocol, GTP, UCI) or simply keeps it alive while it polls files (Xiangqi).

Every program runs in a :class:`runner.sandbox.Sandbox`, and the CPU time of its whole
process tree is measured (:class:`CpuMeter`), so an answer can be charged by either
clock (:data:`CLOCKS`, see :class:`TurnDeadline`).  Output is read in chunks and
kept bounded (the first and last ``TAIL_BYTES`` of each stream, with a count of what was
left out; lines cut at ``MAX_LINE``) so a program that prints forever costs nothing.  Nothing here imports pygame.

The code lives in one module per concept, and this module gives their names (callers
import from here): :mod:`runner.clocks` (the clocks, :class:`CpuMeter`,
:class:`TurnDeadline`), :mod:`runner.output` (output capture), :mod:`runner.process_tree`
(the live programs, whole-tree kills, the orphan sweep, the guard of :mod:`runner.guard`),
:mod:`runner.runs` (:func:`run_once`, :class:`GatedRun`, :func:`wait_for_exits`) and
:mod:`runner.line_process` (:class:`LineProcess`).
"""
from __future__ import annotations

from runner.clocks import (_as_deadline, check_clock, _CLOCK_TICKS, CLOCKS, CPU, CPU_LOOK,
                           _cpu_since, CpuMeter, TurnDeadline, WALL, wall_cap)  # noqa: F401
from runner.output import (CHUNK_BYTES, _ended_within, _FIONREAD, _ioctl, MAX_LINE,
                           MAX_PENDING_LINES, OUTPUT_END_WAIT, _OutputReader, _pipe_bytes,
                           SETTLE_SECONDS, TAIL_BYTES, _wait_readable)  # noqa: F401
from runner.process_tree import (_at_exit, _children_from_stat, _children_from_tasks,
                                 _children_of_main_thread, _exiting, _forget,
                                 _forget_guard_in_child, _guard_note, GUARD_PROGRAM,
                                 _holds_lifeline, kill_all, kill_tree, _LIVE, _LIVE_LOCK,
                                 _own_children, PF_EXITING, _proc_stat, _reap, _reaped, _start,
                                 _state_and_session, _still_running, stop_guard,
                                 _sweep_orphans, sweep_orphans, _task_children,
                                 wait_dead)  # noqa: F401
from runner.runs import (_bwrap_child_pid, can_gate, _finish, GatedRun, _joined, _popen,
                         resolve_command, run_once, RunResult, _sandbox_for,
                         SANDBOX_START_WAIT, _sandboxed, split_command, tree_dies_with_program,
                         _wait_by, _wait_for_exit, wait_for_exits,
                         WRAPPER_EXIT_WAIT)  # noqa: F401
from runner.line_process import (LineProcess, PYTHON)  # noqa: F401


def __getattr__(name: str):
    """``_GUARD``, the guard process now (rebound as it starts and stops), read where it
    lives."""
    if name == "_GUARD":
        from runner import process_tree
        return process_tree._GUARD
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
