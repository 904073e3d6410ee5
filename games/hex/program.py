"""The seat that runs a Hex program through the HexLib line protocol (:mod:`games.hex.protocol`).

The program is started once, in its own folder, and kept running
(:class:`runner.line_seat.LineSeat`); the seat sends it the start, the opponent's moves
and ``your-turn``, and reads its HexLib calls until it places a stone or its time runs out.
"""
from __future__ import annotations

import collections
import time
from typing import Mapping

from games.api import Message, Outcome, Termination
from games.hex.protocol import (Command, format_board, format_end, format_error, format_ok,
                                format_opponent_move, format_start, format_your_turn,
                                RUNNING, parse_command, put_error, status_code, view_cell)
from games.hex.rules import EMPTY, HexMove, HexState
from games.annotations import parse_annotations
from runner.line_seat import LineSeat
from runner.process import resolve_command
from runner.sandbox import seat_sandbox
from runner.seats import Answer, SeatInfo

MAX_NOTES = 20
#: Lines of a turn's answer kept for the record: the first and the last this many.
MAX_ANSWER_LINES = 100
#: Seconds a program may take to leave after ``end`` before it is killed.
EXIT_GRACE = 0.5
#: Slack over the turn's limit before the seat itself gives up (the match judges exactly).
TIMEOUT_SLACK = 0.05
#: Bytes of stderr kept per turn in the record (the turn's last ones).
STDERR_PER_TURN = 4096


class HexLineSeat(LineSeat):
    """What Hex's two line protocols (HexLib, GTP) say alike: a command that cannot start
    is quoted, a turn's limit has a little slack, stderr is kept per turn."""

    stderr_per_turn = STDERR_PER_TURN
    deadline_slack = TIMEOUT_SLACK
    exit_grace = EXIT_GRACE
    quote_command = True


# ====================================================================== the seat
class ExternalHexSeat(HexLineSeat):
    """A program speaking the HexLib line protocol, for either side."""

    def __init__(self, spec: str, command: str, limits: Mapping | None = None):
        limits = dict(limits or {})
        super().__init__(spec, f"Program {command}", resolve_command(command), limits,
                         seat_sandbox(limits))
        self.player = 1
        self._given = _LineLog()
        self._stray: list[str] = []

    # ------------------------------------------------------------------ lifecycle
    def start(self, info: SeatInfo, state: HexState) -> None:
        super().start(info, state)
        self.player = info.seat + 1
        self.launch(info)
        self._send(*format_start(state, self.player))

    def observe(self, state: HexState, moves: Mapping[int, str]) -> None:
        opponent = 1 - self.info.seat
        if opponent not in moves:
            return
        move = self.info.game.parse_move(moves[opponent])
        if move.is_swap:
            move = _swapped_stone(state)
            self._send(*format_board(state, self.player))
        self._send(format_opponent_move(move, self.player))

    def finish(self, outcome: Outcome) -> None:
        self._send(format_end(status_code(outcome, self.info.seat), outcome.reason))

    def _send(self, *lines: str) -> None:
        for line in lines:
            self._given.append(line)
            self.send(line)

    # ------------------------------------------------------------------ a turn
    def ask(self, state: HexState, seat: int, time_limit: float | None) -> Answer:
        answer = Answer()
        answered = _LineLog()
        self._drain_out_of_turn(state, seat, answer, answered)
        start = time.perf_counter()
        deadline = self.turn_deadline(time_limit)
        cpu_start = self.cpu_seconds()
        self._send(format_your_turn(time_limit))
        placed: HexMove | None = None
        try:
            while True:
                line, why = self.read_line(deadline)
                if line is None:
                    self.failed(answer, why, "no 'done' within {seconds} s; the program was killed",
                                "the program {how} before ending its turn", time_limit)
                    return answer
                answered.append(line)
                command = parse_command(line)
                if command.kind == "done":
                    if placed is None:
                        answer.failure = Termination.ILLEGAL_MOVE
                        answer.detail = Message("ended its turn (done / MakeLibMove) without placing a stone")
                    else:
                        answer.move = placed
                    return answer
                if command.kind in ("put", "swap"):
                    placed, game_over = self._try_move(state, seat, command, placed, answer)
                    if game_over:
                        answer.move = placed
                        return answer
                elif command.kind == "junk":
                    self._note(answer, Message("ignored line {line}", line=repr(_short(command.text))))
        finally:
            self.charge_turn(answer, time.perf_counter() - start, cpu_start)
            answer.given = self._given.text()
            answer.answered = answered.text()
            answer.stderr = self.turn_stderr()
            if self.process is not None:        # its "# debug" lines (annotations)
                self._read_annotations(answer, self.turn_debug())
                for note in self.process.output_notes():
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
            self._note(answer, Message("{where} placed nothing: {error}", where=where, error=error))
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
        while self.process is not None:
            line = self.process.read_line(0)
            if line is None:
                return
            answered.append(line)
            command = parse_command(line)
            if command.kind in ("put", "swap"):
                self._note(answer, Message("{command} sent during the opponent's turn placed nothing",
                                           command=command.text))
                self._send(format_error("outofturn"))
            elif command.kind == "junk":
                self._note(answer, Message("ignored line {line}", line=repr(_short(command.text))))

    def _note(self, answer: Answer, text: str) -> None:
        if len(answer.notes) < MAX_NOTES:
            answer.notes.append(text)
        elif len(answer.notes) == MAX_NOTES:
            answer.notes.append(Message("(further notes left out)"))


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
