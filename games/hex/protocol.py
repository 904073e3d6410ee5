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

This module is pure string functions (formatting and parsing); the seat that runs a
program with them is :class:`games.hex.program.ExternalHexSeat`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from games.api import Outcome, Termination
from games.hex.rules import EMPTY, HexMove, HexState

PROTOCOL_VERSION = 1

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
