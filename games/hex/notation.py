"""Cell names as HexGui and Benzene (MoHex, Wolve) write them, in GTP and in SGF.

In Benzene and HexGui the first player is **black** and connects the **top and
bottom** edges (rows 1 and N, the numbers); white connects the left and right edges
(columns a..., the letters).  Cell ``c5`` is column c (3), row 5; the neighbours of a
cell follow the same rhombus as RULES.md's (each row shifted half a cell right).

Our player 1 also moves first but connects columns 1 and N.  So black = player 1 and
the board is **transposed**: our (row r, column c) is HexGui's column r, row c, i.e.
the name ``LETTERS[r-1] + str(c)``.  Transposition maps the neighbourhood onto itself,
so games translate exactly, winners included.  (Our own move text, ``HexMove.text()``,
is column letter + row number in *our* orientation, so the two names of a cell differ.)
"""
from __future__ import annotations

import re

from games.api import MoveSyntaxError
from games.hex.rules import LETTERS, HexMove

SWAP_NAMES = ("swap-pieces", "swap", "swap-sides")
_CELL_RE = re.compile(r"^([a-zA-Z])(\d{1,2})$")


def to_hexgui(move: HexMove) -> str:
    """Our move -> its HexGui/GTP name (``swap-pieces`` for the pie rule)."""
    if move.is_swap:
        return "swap-pieces"
    return f"{LETTERS[move.row - 1]}{move.col}"


def from_hexgui(text: str) -> HexMove:
    """A HexGui/GTP cell name (or swap) -> our move; raises MoveSyntaxError."""
    word = text.strip().lower()
    if word in SWAP_NAMES:
        return HexMove.SWAP
    match = _CELL_RE.match(word)
    if not match or match.group(1) not in LETTERS:
        raise MoveSyntaxError(f"{text!r} is not a HexGui cell name such as c5")
    return HexMove(LETTERS.index(match.group(1)) + 1, int(match.group(2)))


def colour_of_seat(seat: int) -> str:
    """GTP colour of a seat: black moves first (player 1)."""
    return "b" if seat == 0 else "w"
