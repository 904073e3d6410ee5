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
  worth less (a trapped chariot is a lost chariot);
* **a horse's freedom**: a horse counts the jumps it can make (leg free, landing square
  not its own side's); a horse with its legs hobbled is worth less, one in the open more.

Scores are Red-positive centipawns.  Pure functions on a Position; the search calls
them at the leaves only, and caches them by position key.
"""
from __future__ import annotations

from games.xiangqi.rules import (ADVISOR, BLACK, CANNON, CHARIOT, ELEPHANT, FILE_OF, HORSE, HORSE_MOVES,
                                 RANK_OF, RAYS, RED, SOLDIER, SQUARES, Position)

HOLLOW_CANNON = 90            # an enemy cannon faces the general with nothing between
SCREENED_CANNON = 20          # ... with one piece between: a check is one move away
#: Weight of an enemy piece of each kind standing near a palace.
ZONE_WEIGHTS = {CHARIOT: 35, HORSE: 30, CANNON: 15, SOLDIER: 20}
MISSING_DEFENDER = 6          # per missing advisor or elephant, per enemy attacker on the board
CHARIOT_FREEDOM = 3           # per empty square a chariot sees, above ...
CHARIOT_FREEDOM_BASE = 6      # ... this many (fewer is a penalty)
HORSE_FREEDOM = 6             # per jump a horse can make, above ...
HORSE_FREEDOM_BASE = 3        # ... this many (fewer is a penalty), counted up to 6


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


def side_terms(position: Position, side: int) -> tuple[int, int, int, int]:
    """One pass over ``side``'s pieces: (pressure on the enemy general, ``side``'s
    attackers, ``side``'s advisors and elephants, its chariots' and horses' freedom bonus)."""
    board = position.board
    enemy_king = position.kings[side ^ 1]
    king_file = FILE_OF[enemy_king]
    zone = PALACE_ZONE[side ^ 1]
    crossed = CROSSED[side]
    pressure = attackers = defenders = freedom = 0
    for sq in position.squares[side]:
        kind = board[sq] & 7
        if kind == ADVISOR or kind == ELEPHANT:
            defenders += 1
            continue
        if kind == SOLDIER:
            if not crossed[sq]:
                continue
        elif kind == CHARIOT:
            attackers += 1
            empty = 0
            for ray in RAYS[sq]:
                for target in ray:
                    if board[target]:
                        break
                    empty += 1
            freedom += CHARIOT_FREEDOM * (min(empty, 12) - CHARIOT_FREEDOM_BASE)
        elif kind == HORSE:
            attackers += 1
            jumps = 0
            for target, leg in HORSE_MOVES[sq]:
                if not board[leg] and (not board[target] or (board[target] >> 3) != side):
                    jumps += 1
            freedom += HORSE_FREEDOM * (min(jumps, 6) - HORSE_FREEDOM_BASE)
        elif kind == CANNON:
            attackers += 1
            if FILE_OF[sq] == king_file:
                between = _file_between(board, enemy_king, sq)
                if between == 0:
                    pressure += HOLLOW_CANNON
                elif between == 1:
                    pressure += SCREENED_CANNON
        else:
            continue                                # the general
        if sq in zone:
            pressure += ZONE_WEIGHTS[kind]
    return pressure, attackers, defenders, freedom


def _danger(pressure: int, attackers: int, defenders: int) -> int:
    """A general's danger from the enemy's pressure and attackers and its own defenders."""
    danger = pressure + MISSING_DEFENDER * (4 - defenders) * attackers
    if danger and attackers >= 2:
        danger += danger // 2                      # attacks come in groups
    return danger


def side_danger(position: Position, side: int) -> int:
    """How much ``side``'s general is in danger (positive: bad for ``side``)."""
    pressure, attackers, _, _ = side_terms(position, side ^ 1)
    defenders = side_terms(position, side)[2]
    return _danger(pressure, attackers, defenders)


def freedom(position: Position, side: int) -> int:
    """Bonus for ``side``'s chariots by the empty squares they see and for its horses by
    the jumps they can make (negative when hemmed in)."""
    return side_terms(position, side)[3]


def king_safety(position: Position) -> int:
    """Red-positive sum of the general-danger and freedom terms."""
    red_pressure, red_attackers, red_defenders, red_freedom = side_terms(position, RED)
    black_pressure, black_attackers, black_defenders, black_freedom = side_terms(position, BLACK)
    return (_danger(red_pressure, red_attackers, black_defenders)
            - _danger(black_pressure, black_attackers, red_defenders)
            + red_freedom - black_freedom)
