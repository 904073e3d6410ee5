"""Endgame knowledge for the built-in bot: which endings win, which are drawn, and how to mate.

The search's material-and-position score knows nothing of Xiangqi's endings: a lone
cannon "up 450" cannot win, a chariot against a full set of advisors and elephants is
a book draw, and a chariot against a bare general wins only if the search is told to
drive that general into a corner.  :func:`adjust` rewrites the score of positions with
few pieces left (:data:`FEW_PIECES` or fewer), from what each side has:

* **No attackers, no win.**  A side with no chariot, horse, cannon or soldier cannot
  win (it cannot give mate), so a
  score in its favour is scaled down to a tenth.
* **Drawn endings** (scaled toward 0): a lone horse against two or more defenders
  (advisors, elephants); a lone cannon without an own advisor or elephant as a screen,
  or against two or more defenders; a lone soldier against two or more defenders, or
  any lone soldier already on the last rank; a lone chariot against the full two
  advisors and two elephants; a chariot against a chariot, or against a horse or a
  cannon with the full four defenders; soldiers only, when the defender has as many
  defenders as the soldiers that crossed the river.
* **Won endings** (the defender has no attackers and the strong side can mate): a
  bonus that grows as the defending general is pushed off its file's centre and up
  out of its home rank, as the strong side's general takes a file next to it (the
  flying-general rule then forbids that file to the defender), and as the strong
  side's pieces close in.  The search then finds the mates it would not see by depth.

Pure functions on :class:`Position`; no clocks, no files.  Scores are Red-positive
centipawns, as the bot's evaluation.
"""
from __future__ import annotations

from games.xiangqi.rules import (ADVISOR, BLACK, CANNON, CHARIOT, ELEPHANT, HORSE, KING, RED, SOLDIER,
                                 FILE_OF, RANK_OF, Position)

#: Positions with at most this many pieces (generals included) get endgame knowledge.
FEW_PIECES = 12
#: Divisors applied to the strong side's score in a drawn ending.
DEAD_DRAW = 10
DRAWISH = 4
#: The winning bonus's scale (centipawns) when the defender has no attackers.
MOP_UP = 60


def material(position: Position, side: int) -> dict[int, int]:
    """Piece kind -> how many ``side`` has (generals left out)."""
    counts = dict.fromkeys((ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER), 0)
    board = position.board
    for sq in position.squares[side]:
        kind = board[sq] & 7
        if kind != KING:
            counts[kind] += 1
    return counts


def _crossed(position: Position, side: int) -> list[int]:
    """Squares of ``side``'s soldiers that have crossed the river (those that can attack)."""
    board = position.board
    soldier = SOLDIER | (8 if side == BLACK else 0)
    return [sq for sq in position.squares[side]
            if board[sq] == soldier and (RANK_OF[sq] >= 5 if side == RED else RANK_OF[sq] <= 4)]


def _on_last_rank(sq: int, side: int) -> bool:
    return RANK_OF[sq] == (9 if side == RED else 0)


def attackers(counts: dict[int, int]) -> int:
    return counts[CHARIOT] + counts[HORSE] + counts[CANNON] + counts[SOLDIER]


def draw_divisor(position: Position, strong: int, mine: dict[int, int], theirs: dict[int, int]) -> int:
    """How much the ``strong`` side's advantage shrinks (1: not at all) in this ending."""
    if not attackers(mine):
        return DEAD_DRAW
    defenders = theirs[ADVISOR] + theirs[ELEPHANT]
    their_attackers = attackers(theirs)
    chariots, horses, cannons, soldiers = mine[CHARIOT], mine[HORSE], mine[CANNON], mine[SOLDIER]
    if attackers(mine) == 1:
        if horses and not their_attackers and defenders >= 2:
            return DRAWISH
        if cannons and (mine[ADVISOR] + mine[ELEPHANT] == 0 or defenders >= 2) and not their_attackers:
            return DEAD_DRAW if mine[ADVISOR] + mine[ELEPHANT] == 0 else DRAWISH
        if soldiers:
            sq = next(s for s in position.squares[strong] if position.board[s] & 7 == SOLDIER)
            if _on_last_rank(sq, strong) or (defenders >= 2 and not their_attackers):
                return DEAD_DRAW
        if chariots and not their_attackers and theirs[ADVISOR] == 2 and theirs[ELEPHANT] == 2:
            return DRAWISH
    if chariots == 1 and attackers(mine) == 1 and their_attackers == 1:
        if theirs[CHARIOT] or (theirs[ADVISOR] == 2 and theirs[ELEPHANT] == 2):
            return DRAWISH                # chariot v chariot; v horse or cannon with full defence
    if soldiers and not (chariots or horses or cannons) and not their_attackers:
        crossed = [sq for sq in _crossed(position, strong) if not _on_last_rank(sq, strong)]
        if len(crossed) <= defenders // 2:
            return DRAWISH
    return 1


def mop_up(position: Position, strong: int) -> int:
    """Bonus for the strong side (positive) for cornering a general that has no attackers."""
    weak = strong ^ 1
    king, own_king = position.kings[weak], position.kings[strong]
    file, rank = FILE_OF[king], RANK_OF[king]
    home = 9 if weak == BLACK else 0
    bonus = 2 * abs(file - 4) + abs(rank - home)         # off the centre file, up from home
    if FILE_OF[own_king] != file:
        bonus += 1                                        # the flying general takes a file
    closeness = 0
    board = position.board
    for sq in position.squares[strong]:
        if board[sq] & 7 in (CHARIOT, HORSE, SOLDIER):
            closeness += 9 - abs(FILE_OF[sq] - file) - abs(RANK_OF[sq] - rank) // 2
    return MOP_UP * bonus + 3 * closeness


def adjust(position: Position, score: int) -> int:
    """The Red-positive ``score`` corrected by endgame knowledge (unchanged with many pieces)."""
    if len(position.squares[RED]) + len(position.squares[BLACK]) > FEW_PIECES or score == 0:
        return score
    strong = RED if score > 0 else BLACK
    mine, theirs = material(position, strong), material(position, strong ^ 1)
    divisor = draw_divisor(position, strong, mine, theirs)
    if divisor > 1:
        return score // divisor if score > 0 else -((-score) // divisor)
    if not attackers(theirs) and abs(score) >= 100:
        bonus = mop_up(position, strong)
        return score + bonus if strong == RED else score - bonus
    return score
