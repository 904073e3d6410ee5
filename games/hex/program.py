"""The seat that runs a Hex program through the HexLib line protocol (:mod:`games.hex.protocol`).

The program is started once, in its own folder, and kept running; the seat sends it
the start, the opponent's moves and ``your-turn``, and reads its HexLib calls until it
places a stone or its time runs out.  :class:`ProgramChannel` is the running program
as the GTP seat uses it too.
"""
from __future__ import annotations

import collections
import time
from typing import Mapping

from games.api import Outcome, Termination
from games.hex.protocol import (Command, format_board, format_end, format_error, format_ok,
                                format_opponent_move, format_start, format_your_turn,
                                RUNNING, parse_command, put_error, status_code, view_cell)
from games.hex.rules import EMPTY, HexMove, HexState
from games.annotations import parse_annotations
from runner.process import LineProcess, TurnDeadline, resolve_command
from runner.sandbox import Sandbox, seat_sandbox
from runner.seats import Answer, Seat, SeatInfo, charge, seat_clock, seat_folder

MAX_NOTES = 20
#: Lines of a turn's answer kept for the record: the first and the last this many.
MAX_ANSWER_LINES = 100
#: Seconds a program may take to leave after ``end`` before it is killed.
EXIT_GRACE = 0.5
#: Slack over the turn's limit before the seat itself gives up (the match judges exactly).
TIMEOUT_SLACK = 0.05
#: Bytes of stderr kept per turn in the record (the turn's last ones).
STDERR_PER_TURN = 4096


# ====================================================================== running programs
class ProgramChannel:
    """A running program spoken to in lines, with the failures told apart.

    Wraps :class:`runner.process.LineProcess`: a program that cannot start is reported
    rather than raised, and end of output is distinguished from a slow answer.
    """

    def __init__(self, argv: list[str], cwd: str | None, memory_mb: int | None = None,
                 sandbox: Sandbox | None = None):
        self.error = ""
        self.process: LineProcess | None = None
        try:
            self.process = LineProcess(argv, cwd=cwd, memory_mb=memory_mb, sandbox=sandbox)
        except (OSError, ValueError) as exc:
            self.error = f"could not start {argv[0]!r}: {getattr(exc, 'strerror', None) or exc}"

    @property
    def alive(self) -> bool:
        return self.process is not None and not self.process.exited and not self.at_eof

    @property
    def at_eof(self) -> bool:
        return self.process is None or self.process.at_eof

    def send(self, line: str) -> bool:
        return self.process is not None and self.process.send(line)

    def read(self, deadline: float | None, cancelled=lambda: False) -> tuple[str | None, str]:
        """The next line, or (None, why) with why in "eof", "timeout", "cancelled"."""
        if self.process is None:
            return None, "eof"
        return self.process.read_line_by(deadline, cancelled)

    def exit_description(self) -> str:
        return self.error if self.process is None else self.process.exit_description()

    def cpu_seconds(self) -> float | None:
        """CPU seconds the program's whole tree has used so far (None: not known)."""
        return None if self.process is None else self.process.cpu_seconds()

    def turn_deadline(self, time_limit: float | None, clock: str) -> "TurnDeadline | None":
        """When a turn starting now is over: ``time_limit`` (plus the slack) by ``clock``."""
        if time_limit is None:
            return None
        if self.process is None:
            return TurnDeadline(time.perf_counter(), time_limit + TIMEOUT_SLACK)
        return self.process.turn_deadline(time_limit + TIMEOUT_SLACK, clock)

    def stderr(self) -> str:
        return self.process.stderr_tail() if self.process else ""

    def take_stderr(self, limit: int = STDERR_PER_TURN) -> str:
        """What the program wrote on stderr since the last call (at most ``limit``
        bytes): one turn's own output (see LineProcess.take_stderr)."""
        return self.process.take_stderr(limit) if self.process else ""

    def output_notes(self) -> list[str]:
        return self.process.output_notes() if self.process else []

    def close(self, grace: float = EXIT_GRACE) -> None:
        if self.process is not None:
            self.process.close(grace)


# ====================================================================== the seat
class ExternalHexSeat(Seat):
    """A program speaking the HexLib line protocol, for either side."""

    kind = "ext"
    needs_folder = True

    def __init__(self, spec: str, command: str, limits: Mapping | None = None):
        super().__init__(spec, label=f"Program {command}")
        self.argv = resolve_command(command)
        self.limits = dict(limits or {})
        self.sandbox = seat_sandbox(self.limits)
        self.clock = seat_clock(self.limits)       # "wall" or "cpu": how answers are charged
        self.channel: ProgramChannel | None = None
        self.player = 1
        self._given = _LineLog()
        self._stray: list[str] = []
        self._cancelled = False

    # ------------------------------------------------------------------ lifecycle
    def start(self, info: SeatInfo, state: HexState) -> None:
        super().start(info, state)
        self.player = info.seat + 1
        self.channel = ProgramChannel(self.argv, str(seat_folder(info, self.limits)),
                                      sandbox=self.sandbox)
        self._send(*format_start(state, self.player))

    def observe(self, state: HexState, moves: Mapping[int, str]) -> None:
        opponent = 1 - self.info.seat
        if opponent not in moves or not self.channel:
            return
        move = self.info.game.parse_move(moves[opponent])
        if move.is_swap:
            move = _swapped_stone(state)
            self._send(*format_board(state, self.player))
        self._send(format_opponent_move(move, self.player))

    def finish(self, outcome: Outcome) -> None:
        if self.channel:
            self._send(format_end(status_code(outcome, self.info.seat), outcome.reason))

    def cancel(self) -> None:
        self._cancelled = True

    def close(self) -> None:
        if self.channel:
            self.channel.close()

    def describe(self) -> dict:
        data = super().describe()
        data["command"] = self.argv
        data["sandbox"] = self.sandbox.describe()
        return data

    def _send(self, *lines: str) -> None:
        for line in lines:
            self._given.append(line)
            self.channel.send(line)

    # ------------------------------------------------------------------ a turn
    def ask(self, state: HexState, seat: int, time_limit: float | None) -> Answer:
        answer = Answer()
        answered = _LineLog()
        self._drain_out_of_turn(state, seat, answer, answered)
        start = time.perf_counter()
        deadline = self.channel.turn_deadline(time_limit, self.clock)
        cpu_start = self.channel.cpu_seconds()
        self._send(format_your_turn(time_limit))
        placed: HexMove | None = None
        try:
            while True:
                line, why = self.channel.read(deadline, lambda: self._cancelled)
                if line is None:
                    self._fail(answer, why, time_limit)
                    if why == "timeout":
                        self.channel.close(grace=0)
                    return answer
                answered.append(line)
                command = parse_command(line)
                if command.kind == "done":
                    if placed is None:
                        answer.failure = Termination.ILLEGAL_MOVE
                        answer.detail = "ended its turn (done / MakeLibMove) without placing a stone"
                    else:
                        answer.move = placed
                    return answer
                if command.kind in ("put", "swap"):
                    placed, game_over = self._try_move(state, seat, command, placed, answer)
                    if game_over:
                        answer.move = placed
                        return answer
                elif command.kind == "junk":
                    self._note(answer, f"ignored line {_short(command.text)!r}")
        finally:
            cpu_end = self.channel.cpu_seconds()
            charge(answer, self.clock, time.perf_counter() - start,
                   None if cpu_start is None or cpu_end is None else max(0.0, cpu_end - cpu_start))
            answer.given = self._given.text()
            answer.answered = answered.text()
            answer.stderr = self.channel.take_stderr()
            if self.channel.process is not None:        # its "# debug" lines (annotations)
                self._read_annotations(answer, self.channel.process.take_debug())
            for note in self.channel.output_notes():
                if note not in answer.notes:
                    answer.notes.append(note)
            answer.text = placed.text() if placed else None
            self._given = _LineLog()

    def _read_annotations(self, answer: Answer, text: str) -> None:
        """The turn's ``# debug`` lines, their cells named in the program's view (as
        PutHex's) and turned round like PutHex's when it plays second."""
        if not text:
            return
        game = self.info.game

        def real_cell(word: str):
            cell = game.parse_cell(word)
            return view_cell(*cell, self.player) if cell else None
        parsed = parse_annotations(text, real_cell, "# debug lines")
        answer.annotations = parsed.to_json() if parsed else None

    def _try_move(self, state: HexState, seat: int, command: Command, placed: HexMove | None,
                  answer: Answer) -> tuple[HexMove | None, bool]:
        """Answer one put/swap; returns the turn's stone and whether the game just ended."""
        if command.kind == "swap":
            move = HexMove.SWAP
            error = "outofturn" if placed else None
            if error is None and HexMove.SWAP not in state.legal_moves(seat):
                error = "illegal"
            where = "swap"
        else:
            row, col = view_cell(command.row, command.col, self.player)
            move = HexMove(row, col)
            error = put_error(state, seat, row, col, placed is not None)
            where = f"PutHex({command.row}, {command.col})"
        if error:
            self._note(answer, f"{where} placed nothing: {error}")
            self._send(format_error(error))
            return placed, False
        after = state.clone()
        after.push(move)
        status = status_code(after.outcome(), seat)
        if move.is_swap:
            self._send(*format_board(after, self.player))
        self._send(format_ok(status))
        return move, status != RUNNING

    def _drain_out_of_turn(self, state, seat, answer: Answer, answered: _LineLog) -> None:
        """Lines sent while it was not this program's turn: puts are refused and noted."""
        while self.channel and self.channel.process:
            line = self.channel.process.read_line(0)
            if line is None:
                return
            answered.append(line)
            command = parse_command(line)
            if command.kind in ("put", "swap"):
                self._note(answer, f"{command.text} sent during the opponent's turn placed nothing")
                self._send(format_error("outofturn"))
            elif command.kind == "junk":
                self._note(answer, f"ignored line {_short(command.text)!r}")

    def _fail(self, answer: Answer, why: str, time_limit: float | None) -> None:
        if why == "cancelled":
            answer.failure, answer.detail = Termination.ABORTED, "match stopped"
        elif why == "timeout":
            answer.failure = Termination.TIMEOUT
            answer.detail = f"no 'done' within {time_limit:.2f} s; the program was killed"
        else:
            answer.failure = Termination.CRASH
            answer.detail = (f"the program {self.channel.exit_description()} before ending its turn"
                             if self.channel.process else self.channel.error)

    def _note(self, answer: Answer, text: str) -> None:
        if len(answer.notes) < MAX_NOTES:
            answer.notes.append(text)
        elif len(answer.notes) == MAX_NOTES:
            answer.notes.append("(further notes left out)")


def _swapped_stone(state: HexState) -> HexMove:
    """After a swap the board holds exactly one stone: player 2's."""
    for index, value in enumerate(state.cells):
        if value != EMPTY:
            return state.move_at(index)
    raise ValueError("no stone after a swap")


class _LineLog:
    """A turn's answer lines for the record: all of them, or the first and last
    ``keep`` with a count of those left out (a program may print millions of lines)."""

    def __init__(self, keep: int = MAX_ANSWER_LINES):
        self.keep, self.head, self.count = keep, [], 0
        self.tail: collections.deque[str] = collections.deque(maxlen=keep)

    def append(self, line: str) -> None:
        self.count += 1
        line = _short(line, 200)
        if len(self.head) < self.keep:
            self.head.append(line)
        else:
            self.tail.append(line)

    def text(self) -> str:
        left_out = self.count - len(self.head) - len(self.tail)
        middle = [f"[... {left_out} lines left out ...]"] if left_out else []
        return "\n".join([*self.head, *middle, *self.tail])


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def make_external_seat(spec: str, command: str, limits: Mapping | None = None) -> ExternalHexSeat:
    """The plugin's ``external`` factory: ``ext:COMMAND`` seats for Hex."""
    return ExternalHexSeat(spec, command, limits)
