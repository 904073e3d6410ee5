"""WXF move notation (``C2=5``, ``H8+7``, ``R+=4``) for the move list.

Pure functions of a position and an ICCS move (``H2E2``); standard library only.

The World Xiangqi Federation notation (AXF 1980/82, adopted by WXF 1997, tandem
pawns as in the World Xiangqi Rules 2018) writes four characters:

1. the piece: K A E H R C P;
2. the file it stands on, counted 1-9 from the *mover's* right (Red: I=1 .. A=9;
   Black: A=1 .. I=9);
3. ``+`` forward, ``-`` backward, ``=`` sideways (``.`` in some books);
4. for straight movers (K R C P) going forward or back, the number of ranks moved;
   otherwise the file it lands on.

Two pieces of one kind on one file ("tandem") replace the file digit by ``+`` for
the front one and ``-`` for the rear one (``R+=4``, ``C--1``).  Advisors and
elephants never need it: on one file, the rear one can only advance and the front
one only retreat.  Tandem pawns: with three on a file the middle one keeps its
file digit (``P+``, ``P3``, ``P-``); with four or five the outermost ones become
``++`` and ``--`` in place of the letter and digit; when two files hold tandem
pawns the letter is replaced by the file digit (``3+=4``, ``33=4``, ``7-=6``).
"""
from __future__ import annotations

from typing import Iterable

from games.xiangqi.rules import (ADVISOR, BLACK, CANNON, CHARIOT, ELEPHANT, FILES, HORSE,
                                 KING, RED, SOLDIER, START_FEN, Position, file_of,
                                 parse_move_text, rank_of)

WXF_LETTERS = {KING: "K", ADVISOR: "A", ELEPHANT: "E", HORSE: "H", CHARIOT: "R",
               CANNON: "C", SOLDIER: "P"}
STRAIGHT_MOVERS = (KING, CHARIOT, CANNON, SOLDIER)


def wxf_file(side: int, file: int) -> int:
    """File number 1-9 counted from ``side``'s right (file 0 = A, Red sits at the bottom)."""
    return FILES - file if side == RED else file + 1


def _forwardness(side: int, rank: int) -> int:
    """Larger means further towards the enemy for ``side``."""
    return rank if side == RED else -rank


def _as_position(position) -> Position:
    """A :class:`Position` from a Position, a state with ``.position``, or a FEN string."""
    if isinstance(position, Position):
        return position
    if isinstance(position, str):
        return Position.from_fen(position)[0]
    return position.position


def _tandem_order(pos: Position, side: int, piece: int, file: int) -> list[int]:
    """Squares of ``side``'s ``piece`` on ``file``, front (nearest the enemy) first."""
    squares = [sq for sq in pos.squares[side] if pos.board[sq] == piece and file_of(sq) == file]
    return sorted(squares, key=lambda sq: -_forwardness(side, rank_of(sq)))


def _piece_designator(pos: Position, side: int, origin: int) -> str:
    """The first two characters: piece letter and file, or their tandem replacements."""
    piece = pos.board[origin]
    kind, file = piece & 7, file_of(origin)
    letter, digit = WXF_LETTERS[kind], str(wxf_file(side, file))
    if kind in (KING, ADVISOR, ELEPHANT):
        return letter + digit
    column = _tandem_order(pos, side, piece, file)
    if len(column) < 2:
        return letter + digit
    index = column.index(origin)
    if kind != SOLDIER:
        return letter + ("+" if index == 0 else "-")
    marks = {2: ("+", "-"), 3: ("+", digit, "-"),
             4: ("++", "+", "-", "--"), 5: ("++", "+", digit, "-", "--")}[len(column)]
    mark = marks[index]
    tandem_files = {file_of(sq) for sq in pos.squares[side] if pos.board[sq] == piece
                    and len(_tandem_order(pos, side, piece, file_of(sq))) >= 2}
    if len(tandem_files) >= 2:
        return digit + mark                  # two tandem files: the file replaces the letter
    return mark if len(mark) == 2 else letter + mark


def wxf_move(position, move) -> str:
    """WXF text of ``move`` (ICCS text like ``"H2E2"`` or an integer move) in ``position``.

    ``position`` is a :class:`Position`, a state holding one, or a FEN string.  The
    move is not checked for legality, only that a piece stands on its origin.
    """
    pos = _as_position(position)
    code = parse_move_text(move) if isinstance(move, str) else int(move)
    origin, target = code >> 7, code & 127
    piece = pos.board[origin]
    if not piece:
        raise ValueError(f"no piece on the origin of {move!r}")
    side = BLACK if piece >> 3 else RED
    kind = piece & 7
    step = _forwardness(side, rank_of(target)) - _forwardness(side, rank_of(origin))
    operator = "+" if step > 0 else "-" if step < 0 else "="
    if kind in STRAIGHT_MOVERS and step != 0:
        amount = abs(step)
    else:
        amount = wxf_file(side, file_of(target))
    return f"{_piece_designator(pos, side, origin)}{operator}{amount}"


def wxf_line(start, moves: Iterable) -> list[str]:
    """WXF text of each move of a game played from ``start`` (FEN, Position or state)."""
    pos = _as_position(start).copy()
    line = []
    for move in moves:
        code = parse_move_text(move) if isinstance(move, str) else int(move)
        line.append(wxf_move(pos, code))
        pos.make(code)
    return line


def wxf_history(state) -> list[str]:
    """WXF text of every move played so far in a :class:`games.xiangqi.rules.XiangqiState`."""
    start = (getattr(state, "options", {}) or {}).get("fen") or START_FEN
    return wxf_line(start, state.moves)
