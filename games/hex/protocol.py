"""The HexLib line protocol (see PROTOCOL.md) and the seat that runs a program with it.

The IOI 1997 contestant linked a library (HexLib) whose calls were its only contact
with the evaluator.  Here the program runs as its own process and the library's calls
become lines on standard input/output; the drop-in libraries in ``lib/`` turn the lines
back into ``GetMax``, ``LookAtBoard``, ``PutHex``, ``GameIsOver``, ``MakeLibMove``,
``GetRow`` and ``GetColumn``.

Everything the program sees is in its own *view*: it is always player 1, its stones are
``1`` and it connects column 1 with column N, as in the contest.  When the arena seats
it as player 2 the view is the real board transposed (row <-> column) with the colours
swapped; transposition maps the Hex neighbourhood onto itself, so the view is an exact
copy of the real game.  ``start N PLAYER`` tells the program its real side.

The first half of this module is pure string functions (formatting and parsing); the
second is :class:`ExternalHexSeat`, which does the I/O through :mod:`runner.process`.
"""
from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from games.api import Outcome, Termination
from games.hex.rules import EMPTY, HexMove, HexState
from runner.process import LineProcess, split_command
from runner.seats import Answer, Seat, SeatInfo

PROTOCOL_VERSION = 1
MAX_NOTES = 20
#: Seconds a program may take to leave after ``end`` before it is killed.
EXIT_GRACE = 0.5
#: Slack over the turn's limit before the seat itself gives up (the match judges exactly).
TIMEOUT_SLACK = 0.05

# GameIsOver codes, always from the program's point of view.
RUNNING, BOARD_FULL, YOU_WON, OPPONENT_WON = 0, 1, 2, 3


# ====================================================================== the view
def view_cell(row: int, col: int, player: int) -> tuple[int, int]:
    """Real cell -> the program's view (and back: the map is its own inverse)."""
    return (row, col) if player == 1 else (col, row)


def view_stone(value: int, player: int) -> int:
    """A real cell value (0, 1, 2) as the program sees it: its own stones are 1."""
    if value == EMPTY or player == 1:
        return value
    return 3 - value


def view_rows(state: HexState, player: int) -> list[str]:
    """The board in the program's view, one string of ``.12`` per row."""
    n = state.size
    rows = []
    for r in range(1, n + 1):
        cells = []
        for c in range(1, n + 1):
            real_r, real_c = view_cell(r, c, player)
            cells.append(".12"[view_stone(state.look(real_r, real_c), player)])
        rows.append("".join(cells))
    return rows


def status_code(outcome: Outcome | None, seat: int) -> int:
    """GameIsOver's number for the program in ``seat``: 0 running, 1 full/draw, 2 won, 3 lost."""
    if outcome is None:
        return RUNNING
    if outcome.reason is Termination.BOARD_FULL or not outcome.winners:
        return BOARD_FULL
    return YOU_WON if seat in outcome.winners else OPPONENT_WON


# ====================================================================== arena -> program
def format_start(state: HexState, player: int) -> list[str]:
    """``hexlib 1``, ``start N PLAYER`` and the N rows of the start position."""
    return [f"hexlib {PROTOCOL_VERSION}", f"start {state.size} {player}", *view_rows(state, player)]


def format_board(state: HexState, player: int) -> list[str]:
    """A full board refresh (sent after a swap changed a stone the program had)."""
    return ["board", *view_rows(state, player)]


def format_opponent_move(move: HexMove, player: int) -> str:
    r, c = view_cell(move.row, move.col, player)
    return f"move {r} {c}"


def format_your_turn(seconds_left: float | None) -> str:
    return "yourturn -1" if seconds_left is None else f"yourturn {max(0.0, seconds_left):.3f}"


def format_ok(status: int) -> str:
    return f"ok {status}"


def format_error(reason: str) -> str:
    return f"error {reason}"


def format_end(status: int, reason: Termination) -> str:
    return f"end {status} {reason.value}"


# ====================================================================== program -> arena
@dataclass(frozen=True)
class Command:
    """One line from the program: ``put`` (row, col in its view), ``swap``, ``done``, or junk."""

    kind: str              # "put", "swap", "done", "blank", "junk"
    row: int = 0
    col: int = 0
    text: str = ""


_PUT_RE = re.compile(r"^put\s+(-?\d{1,9})\s+(-?\d{1,9})$")


def parse_command(line: str) -> Command:
    """Read one program line; anything unknown is ``junk`` (recorded, otherwise ignored)."""
    text = line.strip()
    if not text:
        return Command("blank", text=line)
    lowered = text.lower()
    if lowered in ("done", "swap"):
        return Command(lowered, text=text)
    match = _PUT_RE.match(lowered)
    if match:
        return Command("put", int(match.group(1)), int(match.group(2)), text)
    return Command("junk", text=text)


def put_error(state: HexState, seat: int, row: int, col: int, placed: bool) -> str | None:
    """Why a PutHex at real (row, col) places nothing, or None when it is the move."""
    if placed or state.is_terminal() or state.current != seat:
        return "outofturn"
    if not state.on_board(row, col):
        return "offboard"
    if state.look(row, col) != EMPTY:
        return "occupied"
    return None


# ====================================================================== running programs
class ProgramChannel:
    """A running program spoken to in lines, with the failures told apart.

    Wraps :class:`runner.process.LineProcess`: relative program paths are made absolute
    (the program runs in its seat folder), a program that cannot start is reported
    rather than raised, and end of output is distinguished from a slow answer.
    """

    def __init__(self, command: str, cwd: str | None, memory_mb: int | None):
        self.error = ""
        self.process: LineProcess | None = None
        try:
            argv = absolute_argv(command)
            self.process = LineProcess(argv, cwd=cwd, memory_mb=memory_mb)
        except (OSError, ValueError) as exc:
            self.error = f"could not start {command!r}: {getattr(exc, 'strerror', None) or exc}"

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
        while True:
            if cancelled():
                return None, "cancelled"
            if self.at_eof:
                return None, "eof"
            wait = 0.2 if deadline is None else min(0.2, deadline - time.perf_counter())
            if wait <= 0:
                return None, "timeout"
            line = self.process.read_line(wait)
            if line is not None:
                return line, ""

    def exit_description(self) -> str:
        if self.process is None:
            return self.error
        try:
            code = self.process.proc.wait(timeout=1.0)
        except Exception:
            return "closed its output but kept running"
        if code < 0:
            return f"was killed by signal {-code}"
        return f"exited with code {code}"

    def stderr(self) -> str:
        return self.process.stderr_tail() if self.process else ""

    def close(self, grace: float = EXIT_GRACE) -> None:
        if self.process is not None:
            self.process.close(grace)


def absolute_argv(command: str) -> list[str]:
    """The command's words, with those naming existing files made absolute."""
    argv = split_command(command)
    for i, word in enumerate(argv):
        if not os.path.isabs(word) and (os.sep in word or "/" in word or i > 0):
            candidate = Path(word)
            if candidate.is_file():
                argv[i] = str(candidate.resolve())
    return argv


# ====================================================================== the seat
class ExternalHexSeat(Seat):
    """A program speaking the HexLib line protocol, for either side."""

    kind = "ext"

    def __init__(self, spec: str, command: str, workdir: str | None = None,
                 limits: Mapping | None = None):
        super().__init__(spec, label=f"Program {command}")
        self.command, self.workdir = command, workdir
        self.limits = dict(limits or {})
        self.channel: ProgramChannel | None = None
        self.player = 1
        self._given: list[str] = []
        self._stray: list[str] = []
        self._cancelled = False

    # ------------------------------------------------------------------ lifecycle
    def start(self, info: SeatInfo, state: HexState) -> None:
        super().start(info, state)
        self.player = info.seat + 1
        self.channel = ProgramChannel(self.command, info.workdir or self.workdir,
                                      self.limits.get("memory_mb"))
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

    def _send(self, *lines: str) -> None:
        for line in lines:
            self._given.append(line)
            self.channel.send(line)

    # ------------------------------------------------------------------ a turn
    def ask(self, state: HexState, seat: int, time_limit: float | None) -> Answer:
        answer = Answer()
        answered: list[str] = []
        self._drain_out_of_turn(state, seat, answer, answered)
        start = time.perf_counter()
        deadline = None if time_limit is None else start + time_limit + TIMEOUT_SLACK
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
            answer.elapsed = time.perf_counter() - start
            answer.given = "\n".join(self._given)
            answer.answered = "\n".join(answered)
            answer.stderr = self.channel.stderr()
            answer.text = placed.text() if placed else None
            self._given = []

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
        after.play(move)
        status = status_code(after.outcome(), seat)
        if move.is_swap:
            self._send(*format_board(after, self.player))
        self._send(format_ok(status))
        return move, status != RUNNING

    def _drain_out_of_turn(self, state, seat, answer: Answer, answered: list[str]) -> None:
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


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def make_external_seat(spec: str, command: str, workdir: str | None = None,
                       limits: Mapping | None = None) -> ExternalHexSeat:
    """The plugin's ``external`` factory: ``ext:COMMAND`` seats for Hex."""
    return ExternalHexSeat(spec, command, workdir, limits)
