"""The bot's evaluation terms that depend on where the pieces stand together, not one by one.

The search keeps material plus piece-square values incrementally (``bot.VALUE``); that
sum cannot see the dangers Xiangqi players count first.  :func:`king_safety` adds, for
each side's general:

* **the empty-headed cannon**: an enemy cannon on the general's file with nothing
  between them (the general can neither step aside freely nor be screened in time);
  a cannon with one screen between is a threat of check, worth less;
* **attackers at the palace**: enemy chariots, horses, cannons and soldiers that
  crossed the river, standing in or around the palace, and enemy chariots, horses and
  cannons that attack a point of the palace from wherever they stand (a chariot down a
  rank, a cannon over a screen); each counts more when the defender has lost advisors
  or elephants, which is also why those pieces are worth more while the enemy still
  has attackers;
* **a chariot's freedom**: a chariot with few empty squares along its lines is
  worth less (a trapped chariot is a lost chariot);
* **a horse's freedom**: a horse counts the jumps it can make (leg free, landing square
  not its own side's); a horse with its legs hobbled is worth less, one in the open more.

:func:`phase_material` moves worth between horses and cannons as the board empties;
:func:`leaf_terms` is the sum of both, the search's one call.

Scores are Red-positive centipawns.  Pure functions on a Position; the search calls
them at the leaves only, and caches them by position key.
"""
from __future__ import annotations

from typing import NamedTuple

from games.xiangqi.rules import (ADVISOR, BLACK, CANNON, CHARIOT, ELEPHANT, FILE_OF, HORSE, HORSE_MOVES,
                                 RANK_OF, RAYS, RED, SOLDIER, SQUARES, Position)

HOLLOW_CANNON = 90            # an enemy cannon faces the general with nothing between
SCREENED_CANNON = 20          # ... with one piece between: a check is one move away
#: Weight of an enemy piece of each kind standing near a palace.
ZONE_WEIGHTS = {CHARIOT: 35, HORSE: 30, CANNON: 15, SOLDIER: 20}
#: Weight of a chariot, horse or cannon attacking at least one point of the enemy palace.
PALACE_ATTACK = {CHARIOT: 16, HORSE: 25, CANNON: 40}
MISSING_DEFENDER = 9          # per missing advisor or elephant, per enemy attacker on the board
# The freedom weights were doubled when fitted to the engine's scores in the positions of
# the bot's own games against it (bench/xiangqi_eval_fit.py --series).
CHARIOT_FREEDOM = 8           # per empty square a chariot sees, above ...
CHARIOT_FREEDOM_BASE = 6      # ... this many (fewer is a penalty)
HORSE_FREEDOM = 22            # per jump a horse can make, above ...
HORSE_FREEDOM_BASE = 3        # ... this many (fewer is a penalty), counted up to 6
PHASE_FULL = 16               # 2 per chariot, 1 per horse and cannon, both sides at the start
HORSE_OPENING, HORSE_ENDING = -90, 0        # a horse's worth beyond the table's, full .. bare
CANNON_OPENING, CANNON_ENDING = 105, -20    # a cannon's


def _palace_zone(side: int) -> frozenset[int]:
    """Squares around ``side``'s palace: files C-G, the palace's three ranks and the next one."""
    ranks = range(0, 4) if side == RED else range(6, 10)
    return frozenset(r * 9 + f for r in ranks for f in range(2, 7))


PALACE_ZONE = (_palace_zone(RED), _palace_zone(BLACK))
PALACE = tuple(frozenset(r * 9 + f for r in ranks for f in range(3, 6))
               for ranks in (range(0, 3), range(7, 10)))


def _palace_rays(palace: frozenset[int]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per square, its rays that cross ``palace``, each cut after its last palace point:
    all a chariot or cannon there needs to look along to attack the palace."""
    def cut(ray):
        last = max(i for i, sq in enumerate(ray) if sq in palace)
        return tuple(ray[:last + 1])
    return tuple(tuple(cut(ray) for ray in RAYS[sq] if any(t in palace for t in ray))
                 for sq in range(SQUARES))


PALACE_RAYS = tuple(_palace_rays(palace) for palace in PALACE)
CROSSED = tuple(tuple(RANK_OF[sq] >= 5 if side == RED else RANK_OF[sq] <= 4 for sq in range(SQUARES))
                for side in (RED, BLACK))


def _file_between(board: list[int], king: int, other: int) -> int:
    """Pieces strictly between two squares of one file."""
    step = 9 if other > king else -9
    return sum(1 for sq in range(king + step, other, step) if board[sq])


def _reaches(board: list[int], rays, palace: frozenset[int], screens: int) -> bool:
    """Whether a chariot (``screens`` 0) or a cannon (1) attacks a point of ``palace``
    along ``rays``: the squares past that many pieces, up to and including the next one."""
    for ray in rays:
        passed = 0
        for target in ray:
            if passed == screens and target in palace:
                return True
            if board[target]:
                if passed == screens:
                    break
                passed += 1
    return False


class SideTerms(NamedTuple):
    """What one pass over a side's pieces finds."""
    pressure: int       # on the enemy general
    attackers: int      # chariots, horses and cannons
    defenders: int      # advisors and elephants
    freedom: int        # the chariots' and horses' freedom bonus
    horses: int
    cannons: int


def side_terms(position: Position, side: int) -> SideTerms:
    """One pass over ``side``'s pieces (see :class:`SideTerms`)."""
    board = position.board
    enemy_king = position.kings[side ^ 1]
    king_file = FILE_OF[enemy_king]
    zone = PALACE_ZONE[side ^ 1]
    palace, palace_rays = PALACE[side ^ 1], PALACE_RAYS[side ^ 1]
    crossed = CROSSED[side]
    pressure = attackers = defenders = freedom = horses = cannons = 0
    for sq in position.squares[side]:
        kind = board[sq] & 7
        reaches = False                             # attacks a point of the enemy palace
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
            reaches = _reaches(board, palace_rays[sq], palace, 0)
        elif kind == HORSE:
            attackers += 1
            horses += 1
            jumps = 0
            for target, leg in HORSE_MOVES[sq]:
                if not board[leg]:
                    if target in palace:
                        reaches = True
                    if not board[target] or (board[target] >> 3) != side:
                        jumps += 1
            freedom += HORSE_FREEDOM * (min(jumps, 6) - HORSE_FREEDOM_BASE)
        elif kind == CANNON:
            attackers += 1
            cannons += 1
            if FILE_OF[sq] == king_file:            # facing the general: these terms say it
                between = _file_between(board, enemy_king, sq)
                if between == 0:
                    pressure += HOLLOW_CANNON
                elif between == 1:
                    pressure += SCREENED_CANNON
            else:
                reaches = _reaches(board, palace_rays[sq], palace, 1)
        else:
            continue                                # the general
        if sq in zone:
            pressure += ZONE_WEIGHTS[kind]
        if reaches:
            pressure += PALACE_ATTACK[kind]
    return SideTerms(pressure, attackers, defenders, freedom, horses, cannons)


def _danger(pressure: int, attackers: int, defenders: int) -> int:
    """A general's danger from the enemy's pressure and attackers and its own defenders."""
    danger = pressure + MISSING_DEFENDER * (4 - defenders) * attackers
    if danger and attackers >= 2:
        danger += danger // 2                      # attacks come in groups
    return danger


def side_danger(position: Position, side: int) -> int:
    """How much ``side``'s general is in danger (positive: bad for ``side``)."""
    enemy = side_terms(position, side ^ 1)
    return _danger(enemy.pressure, enemy.attackers, side_terms(position, side).defenders)


def freedom(position: Position, side: int) -> int:
    """Bonus for ``side``'s chariots by the empty squares they see and for its horses by
    the jumps they can make (negative when hemmed in)."""
    return side_terms(position, side).freedom


def _phase_material(red: SideTerms, black: SideTerms) -> int:
    """The horses' and cannons' worth by the phase: the share of the attacking pieces left,
    chariots counting double (a side's chariots are its attackers but horses and cannons)."""
    weight = sum(2 * terms.attackers - terms.horses - terms.cannons for terms in (red, black))
    opening = min(weight, PHASE_FULL)
    ending = PHASE_FULL - opening
    horse = (HORSE_OPENING * opening + HORSE_ENDING * ending) // PHASE_FULL
    cannon = (CANNON_OPENING * opening + CANNON_ENDING * ending) // PHASE_FULL
    return horse * (red.horses - black.horses) + cannon * (red.cannons - black.cannons)


def phase_material(position: Position) -> int:
    """Red-positive correction of the horses' and cannons' worth by the game's phase.

    The search's piece values are fixed.  A cannon needs screens and a crowded board
    hobbles a horse, so on a full board the cannon is worth more and the horse less;
    the gap closes as pieces come off (a cannon still a little ahead on a bare board)."""
    return _phase_material(side_terms(position, RED), side_terms(position, BLACK))


def _king_safety(red: SideTerms, black: SideTerms) -> int:
    return (_danger(red.pressure, red.attackers, black.defenders)
            - _danger(black.pressure, black.attackers, red.defenders)
            + red.freedom - black.freedom)


def king_safety(position: Position) -> int:
    """Red-positive sum of the general-danger and freedom terms."""
    return _king_safety(side_terms(position, RED), side_terms(position, BLACK))


def leaf_terms(position: Position) -> int:
    """Red-positive sum of everything here, from one pass over each side's pieces."""
    red, black = side_terms(position, RED), side_terms(position, BLACK)
    return _king_safety(red, black) + _phase_material(red, black)
