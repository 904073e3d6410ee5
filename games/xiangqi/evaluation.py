"""The bot's evaluation terms that depend on where the pieces stand together, not one by one.

The search keeps material plus piece-square values incrementally (``bot.VALUE``); that
sum cannot see the dangers Xiangqi players count first.  :func:`king_safety` adds, for
each side's general:

* **the empty-headed cannon**: an enemy cannon on the general's file with nothing
  between them (the general can neither step aside freely nor be screened in time);
  a cannon with one screen between is a threat of check, worth less;
* **attackers at the palace**: enemy chariots, horses, cannons and soldiers that
  crossed the river, standing in or around the palace; each counts more when the
  defender has lost advisors or elephants, which is also why those pieces are worth
  more while the enemy still has attackers;
* **a chariot's freedom**: a chariot with few empty squares along its lines is
  worth less (a trapped chariot is a lost chariot).

Scores are Red-positive centipawns.  Pure functions on a Position; the search calls
them at the leaves only, and caches them by position key.
"""
from __future__ import annotations

from games.xiangqi.rules import (ADVISOR, BLACK, CANNON, CHARIOT, ELEPHANT, HORSE, RANK_OF, FILE_OF, RAYS,
                                 RED, SOLDIER, SQUARES, Position)

HOLLOW_CANNON = 90            # an enemy cannon faces the general with nothing between
SCREENED_CANNON = 20          # ... with one piece between: a check is one move away
#: Weight of an enemy piece of each kind standing near a palace.
ZONE_WEIGHTS = {CHARIOT: 35, HORSE: 30, CANNON: 15, SOLDIER: 20}
MISSING_DEFENDER = 6          # per missing advisor or elephant, per enemy attacker on the board
CHARIOT_FREEDOM = 3           # per empty square a chariot sees, above ...
CHARIOT_FREEDOM_BASE = 6      # ... this many (fewer is a penalty)


def _palace_zone(side: int) -> frozenset[int]:
    """Squares around ``side``'s palace: files C-G, the palace's three ranks and the next one."""
    ranks = range(0, 4) if side == RED else range(6, 10)
    return frozenset(r * 9 + f for r in ranks for f in range(2, 7))


PALACE_ZONE = (_palace_zone(RED), _palace_zone(BLACK))
CROSSED = tuple(tuple(RANK_OF[sq] >= 5 if side == RED else RANK_OF[sq] <= 4 for sq in range(SQUARES))
                for side in (RED, BLACK))


def _file_between(board: list[int], king: int, other: int) -> int:
    """Pieces strictly between two squares of one file."""
    step = 9 if other > king else -9
    return sum(1 for sq in range(king + step, other, step) if board[sq])


def side_danger(position: Position, side: int) -> int:
    """How much ``side``'s general is in danger (positive: bad for ``side``)."""
    board = position.board
    king = position.kings[side]
    king_file = FILE_OF[king]
    enemy = side ^ 1
    zone = PALACE_ZONE[side]
    crossed = CROSSED[enemy]
    danger, enemy_attackers = 0, 0
    for sq in position.squares[enemy]:
        kind = board[sq] & 7
        if kind == SOLDIER:
            if not crossed[sq]:
                continue
        elif kind not in ZONE_WEIGHTS:
            continue
        enemy_attackers += 1 if kind != SOLDIER else 0
        if sq in zone:
            danger += ZONE_WEIGHTS[kind]
        if kind == CANNON and FILE_OF[sq] == king_file:
            between = _file_between(board, king, sq)
            if between == 0:
                danger += HOLLOW_CANNON
            elif between == 1:
                danger += SCREENED_CANNON
    defenders = 0
    for sq in position.squares[side]:
        if board[sq] & 7 in (ADVISOR, ELEPHANT):
            defenders += 1
    danger += MISSING_DEFENDER * (4 - defenders) * enemy_attackers
    if danger and enemy_attackers >= 2:
        danger += danger // 2                      # attacks come in groups
    return danger


def chariot_freedom(position: Position, side: int) -> int:
    """Bonus for ``side``'s chariots by the empty squares they see (negative when hemmed in)."""
    board = position.board
    chariot = CHARIOT | (8 if side == BLACK else 0)
    total = 0
    for sq in position.squares[side]:
        if board[sq] != chariot:
            continue
        empty = 0
        for ray in RAYS[sq]:
            for target in ray:
                if board[target]:
                    break
                empty += 1
        total += CHARIOT_FREEDOM * (min(empty, 12) - CHARIOT_FREEDOM_BASE)
    return total


def king_safety(position: Position) -> int:
    """Red-positive sum of the general-danger and chariot-freedom terms."""
    return (side_danger(position, BLACK) - side_danger(position, RED)
            + chariot_freedom(position, RED) - chariot_freedom(position, BLACK))
