"""The seat of a program started once and kept running for the whole game.

HexLib (``games/hex/program.py``), GTP (``games/hex/gtp.py``), UCI and UCCI
(``games/xiangqi/engine_seats.py``) are one shape, a long-lived line protocol, with
different words, as python-chess has one engine ``Protocol`` with UCI and XBoard on it;
the Xiangqi contest program (``games/xiangqi/program.py``) is started and ended the same
way but answers in move files (which it times itself, as the other side it relays to).  :class:`LineSeat` is what they share; each
protocol adds only its own words:

* start: :meth:`launch` starts the program in the seat's folder and sandbox; one that
  cannot start is named in :attr:`start_error` (in the program's own failure words at
  its first turn, or the match refused), never raised;
* the handshake: :meth:`missed_handshake` says whether a first answer that did not come
  within ``handshake=`` seconds came from a program still running (then
  :attr:`handshake_failure` is set and the match is not played: load on the machine
  must not decide a match) or from one that ended (a crash, the protocol's to judge);
* a line before a deadline: :meth:`read_line` gives the next line, or ``(None, why)``
  with why ``"eof"``, ``"timeout"`` or ``"cancelled"`` (after :meth:`cancel`), and
  :meth:`turn_deadline` is a turn's deadline by the seat's clock (wall, or the CPU time
  of the program's whole tree within a wall cap);
* the verdict: :meth:`failed` puts the :class:`~games.api.Termination` for ``why`` on an
  answer with the protocol's words (a program that timed out is killed at once);
* a turn's figures: :meth:`charge_turn` (wall and CPU seconds, charged by the seat's
  clock), :meth:`turn_stderr` (what it wrote on stderr since the last turn) and
  :meth:`turn_debug` (its ``# debug`` lines);
* the end: :meth:`close` sends the protocol's last line, if any, and ends the program's
  tree after a grace.

The runner names no game here and never imports pygame.
"""
from __future__ import annotations

import threading
import time
from typing import Any, Mapping, Sequence

from games.api import Message, Termination
from runner.process import TAIL_BYTES, LineProcess, TurnDeadline
from runner.sandbox import Sandbox
from runner.seats import Answer, Seat, SeatInfo, charge, seat_clock, seat_folder

#: Seconds a program has, by default, to answer its first command (``handshake=S``): an
#: engine still loading on a busy machine is not refused.
HANDSHAKE_SECONDS = 60.0
#: The words of a read that ended without a line.
EOF, TIMEOUT, CANCELLED = "eof", "timeout", "cancelled"


def _never() -> bool:
    return False


class LineSeat(Seat):
    """A program started once, in its own folder, and kept running; see the module.

    ``argv`` is the resolved command; ``limits`` the seat's limits (``clock``: how its
    answers are charged; ``folder``: where it runs instead of the match's folder).
    """

    kind = "ext"
    needs_folder = True
    #: Bytes of stderr kept per turn in the record (the turn's last ones).
    stderr_per_turn = TAIL_BYTES
    #: Seconds over a turn's limit before the seat itself gives up (the match judges exactly).
    deadline_slack = 0.0
    #: Seconds the program may take to leave at :meth:`close` before its tree is killed.
    exit_grace = 0.5
    #: A line sent at :meth:`close` asking the program to leave (UCI's ``quit``), or None.
    quit_line: str | None = None
    #: "could not start 'cmd'" (True) or "could not start cmd": each protocol's own words.
    quote_command = False

    def __init__(self, spec: str, label: str = "", argv: Sequence[str] = (),
                 limits: Mapping[str, Any] | None = None, sandbox: Sandbox | None = None):
        super().__init__(spec, label)
        self.argv = list(argv)
        self.limits = dict(limits or {})
        self.sandbox = sandbox
        #: "wall" or "cpu": how each answer is charged (see :func:`runner.seats.seat_clock`).
        self.charge_clock = seat_clock(self.limits)
        self.handshake_seconds = HANDSHAKE_SECONDS
        self.process: LineProcess | None = None
        self.start_error = ""
        self._cancelled = threading.Event()

    # ------------------------------------------------------------------ start
    def launch(self, info: SeatInfo, stdout_lines: bool = True) -> bool:
        """Start the program in the seat's folder; False (and :attr:`start_error` saying
        why) when it cannot start.  ``stdout_lines=False``: its output is not a protocol
        (a program answering in files), only kept for the record."""
        folder = seat_folder(info, self.limits)
        try:
            self.process = LineProcess(self.argv, cwd=folder, stdout_lines=stdout_lines,
                                       sandbox=self.sandbox)
        except (OSError, ValueError) as exc:
            self.process = None
            shown = repr(self.argv[0]) if self.quote_command else self.argv[0]
            self.start_error = Message("could not start {program}: {error}", program=shown,
                                       error=getattr(exc, "strerror", None) or str(exc))
            return False
        return True

    @property
    def running(self) -> bool:
        """The program runs and its output has not ended."""
        return self.process is not None and not self.process.exited and not self.process.at_eof

    def missed_handshake(self, what: str, why: str = TIMEOUT) -> bool:
        """The handshake's ``what`` did not come (the read ended by ``why``).  True when
        the program was silent, still running: :attr:`handshake_failure` then says so
        ("no uciok within 60 s") and the match is not played.  False when it ended or
        the read was stopped: the protocol judges that."""
        if why != TIMEOUT or not self.running:
            return False
        self.handshake_failure = Message("no {what} within {seconds} s", what=what,
                                         seconds=f"{self.handshake_seconds:g}")
        return True

    # ------------------------------------------------------------------ talking
    def send(self, line: str) -> bool:
        """One line to the program; False when it no longer reads (or never started)."""
        return self.process is not None and self.process.send(line)

    def read_line(self, deadline: "float | TurnDeadline | None",
                  cancellable: bool = True) -> tuple[str | None, str]:
        """The next line before ``deadline`` (a ``perf_counter`` value, a turn's
        :class:`TurnDeadline`, None: none), or ``(None, why)``: ``"eof"`` (ended, or
        never started), ``"timeout"``, or ``"cancelled"`` after :meth:`cancel`."""
        if self.process is None:
            return None, EOF
        return self.process.read_line_by(deadline, self._cancelled.is_set if cancellable else _never)

    def cancel(self) -> None:
        """Stop a pending read from another thread (the match is being stopped)."""
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    # ------------------------------------------------------------------ a turn
    def cpu_seconds(self) -> float | None:
        """CPU seconds the program's whole tree has used so far (None: not known)."""
        return None if self.process is None else self.process.cpu_seconds()

    def turn_deadline(self, limit: float | None, cpu_start: float | None = None) -> TurnDeadline | None:
        """When a turn starting now is over: ``limit`` seconds (plus
        :attr:`deadline_slack`) by the seat's clock; None when untimed."""
        if limit is None:
            return None
        if self.process is None:
            return TurnDeadline(time.perf_counter(), limit + self.deadline_slack)
        return self.process.turn_deadline(limit + self.deadline_slack, self.charge_clock, cpu_start)

    def charge_turn(self, answer: Answer, wall: float, cpu_start: float | None) -> None:
        """Both figures of the turn on ``answer`` (``wall`` seconds; the tree's CPU seconds
        since ``cpu_start``) and ``elapsed`` by the seat's clock."""
        cpu_end = self.cpu_seconds()
        charge(answer, self.charge_clock, wall,
               None if cpu_start is None or cpu_end is None else max(0.0, cpu_end - cpu_start))

    def failed(self, answer: Answer, why: str, timeout: str, ended: str,
               limit: float | None = None) -> Answer:
        """``answer`` lost for a read that ended without a line: ``"cancelled"`` is the
        match stopped; ``"timeout"`` a time-out in the protocol's words ``timeout``
        (``{limit}``: the turn's seconds), and the program is killed at once (it may be
        computing still); the end of its output a crash in the words ``ended``
        (``{how}``: how it ended), or why it could not start.  Both words are catalog
        templates: the detail is a :class:`~games.api.Message` (``{seconds}``: the limit
        to two places)."""
        if why == CANCELLED:
            answer.failure, answer.detail = Termination.ABORTED, Message("match stopped")
        elif why == TIMEOUT:
            answer.failure = Termination.TIMEOUT
            answer.detail = Message(timeout, seconds=f"{limit:.2f}")
            self.kill()
        else:
            answer.failure = Termination.CRASH
            answer.detail = (Message(ended, how=self.process.exit_description())
                             if self.process is not None else self.start_error)
        return answer

    def exit_description(self) -> str:
        """How the program ended, in words ("exited with code 3"), or why it never ran."""
        return self.start_error if self.process is None else self.process.exit_description()

    def turn_stderr(self) -> str:
        """What the program wrote on stderr since the last call (at most
        :attr:`stderr_per_turn` bytes): one turn's own, not the running tail."""
        return self.process.take_stderr(self.stderr_per_turn) if self.process else ""

    def turn_debug(self) -> str:
        """The turn's ``# debug`` lines (bot annotations; no protocol sees them)."""
        return self.process.take_debug() if self.process else ""

    def stderr_tail(self) -> str:
        return self.process.stderr_tail() if self.process else ""

    # ------------------------------------------------------------------ the end
    def kill(self) -> None:
        """End the program's tree now (a time-out: it may still be computing)."""
        if self.process is not None:
            self.process.close(grace=0)

    def close(self) -> None:
        if self.process is not None:
            if self.quit_line:
                self.process.send(self.quit_line)
            self.process.close(grace=self.exit_grace)

    def describe(self) -> dict:
        data = super().describe()
        data["command"] = self.argv
        if self.sandbox is not None:
            data["sandbox"] = self.sandbox.describe()
        return data

