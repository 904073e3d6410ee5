"""The level-5 Xiangqi search compiled to machine code with Numba: bot.py's search, faster.

``Searcher`` in bot.py is the reference: this module runs the same algorithm (iterative
deepening, principal-variation search, the Zobrist-keyed transposition table, null
move, late-move reductions, reverse futility, futility and late-move pruning, check
extension, quiescence with evasions, killers and history, the arena's repetition
rulings) with the same evaluation (material and piece-square values kept along the
search, the leaf terms of games/xiangqi/evaluation.py and the endings of
games/xiangqi/endgames.py), as compiled loops over flat arrays.  At a fixed depth it
returns the same move, score and node count as the reference
(tests/xiangqi/test_xiangqi_fast_search.py); ``python bench/xiangqi_fast_bench.py``
prints both speeds.

What differs, and why:

* The board is the rules' 90-square array and the move tables are the rules' tables
  copied into arrays; the rules module itself stays pure Python.
* The transposition table is an open-addressing hash table of fixed size keyed by the
  full 64-bit key, an entry packed in one 64-bit word: it keeps every entry, as the
  reference's dict does, until it holds ``bot.TT_LIMIT`` entries and is cleared, as
  the reference's is.
* The table's move is checked alone (``_pseudo_legal``) and searched before the other
  moves are generated, so a cut-off on it generates nothing; the reference sorts the
  rest at the same moment (after that move's search), so the tree is the same.
* The kernels are compiled without Numba's reference counting (``_nrt=False``): every
  call passing an array otherwise paid an atomic increment and decrement for it, 45%
  of the search's time.  So no kernel allocates: scratch arrays come from the
  searcher's workspace.
* The clock is read every 256 nodes (compiled code reaches Python's clock through
  Numba's object mode, a few microseconds a look).
* The leaf terms are computed afresh at each leaf rather than cached by key (the
  reference's cache changes no score: the terms are a function of the position).
* A line deeper than ``MAX_PLY`` - 2 plies (never reached in practice: the check
  extension is the only way past the depth) is scored by its material and tables.
* The tables (moves, piece values, evaluation weights) are frozen into the machine code
  as constants, and Numba's cache only notices changes to this file; so the kernels
  also freeze a digest of every table and constant (``TABLES_FINGERPRINT``), and a
  cache whose digest differs from this process's is thrown away and recompiled.
* Numba's disk cache cannot reload a recursive function whose recursive calls pass
  literal constants (the process crashes), so every argument of a recursive call here
  is computed from a parameter (``zero = ply - ply``); the cache-reload test in a fresh
  process guards this.

The compiled functions are cached on disk (``cache=True``); ``warm_up()`` compiles them
(about a minute the first time on a machine, a second or two after), so a match's
first move does not pay for it.
"""
from __future__ import annotations

import hashlib
import time

import numpy as np
from numba import njit, objmode
from numba.core.registry import CPUDispatcher

from games.xiangqi import bot as reference
from games.xiangqi import evaluation as terms
from games.xiangqi.endgames import DEAD_DRAW, DRAWISH, FEW_PIECES, MOP_UP
from games.xiangqi.evaluation import (CANNON_ENDING, CANNON_OPENING, CHARIOT_FREEDOM, CHARIOT_FREEDOM_BASE,
                                      HOLLOW_CANNON, HORSE_ENDING, HORSE_FREEDOM, HORSE_FREEDOM_BASE,
                                      HORSE_OPENING, MISSING_DEFENDER, PHASE_FULL, SCREENED_CANNON)
from games.xiangqi.rules import (ADVISOR_MOVES, CANNON, CHARIOT, ELEPHANT, ELEPHANT_MOVES, HORSE,
                                 HORSE_ATTACKERS, HORSE_MOVES, KING, KING_MOVES, LINES, RAYS, SENSITIVE,
                                 SOLDIER, SOLDIER_MOVES, SQUARES, ZOBRIST, ZOBRIST_BLACK_TO_MOVE,
                                 ADVISOR, Position)

MAX_PLY = 128                   # plies below the root the arrays hold
MAX_MOVES = 160                 # pseudo-legal moves of one position (at most 119 in Xiangqi)
TT_BITS = 20                    # 1M slots: the reference's 500,000-entry limit fills half
TT_SIZE = 1 << TT_BITS
NO_SCORE = 1 << 40              # "no repetition" from _repetition_score
SCORE_OFFSET = 1 << 21          # a table entry's score, stored as score + this (scores stay within 2**21)
SEARCH, QUIESCE = 0, 1

# st[] slots: the search's scalar state
SIDE, KING_RED, KING_BLACK, COUNT_RED, COUNT_BLACK, NODES, NODE_LIMIT, STOP, FLOOR, NKEYS, \
    TT_COUNT, KILLER_LEN, ROOT_SET, ROOT_MOVE, ROOT_SCORE, ROOT_INDEX, REPETITION_COUNT = range(17)
STATE_SLOTS = 17

MATE, MATE_BOUND, PERPETUAL_LOSS, INFINITY = (reference.MATE, reference.MATE_BOUND,
                                              reference.PERPETUAL_LOSS, reference.INFINITY)
EXACT, LOWER, UPPER = reference.EXACT, reference.LOWER, reference.UPPER
TT_LIMIT = reference.TT_LIMIT
LAZY_MARGIN, QUIESCENCE_PLIES = reference.LAZY_MARGIN, reference.QUIESCENCE_PLIES
UNGUIDED_REDUCTION_DEPTH = reference.UNGUIDED_REDUCTION_DEPTH
REVERSE_FUTILITY_DEPTH, REVERSE_FUTILITY_MARGIN = reference.REVERSE_FUTILITY_DEPTH, reference.REVERSE_FUTILITY_MARGIN
FUTILITY_DEPTH, FUTILITY_MARGINS = reference.FUTILITY_DEPTH, reference.FUTILITY_MARGINS
LATE_MOVE_LIMITS = reference.LATE_MOVE_LIMITS
ZONE_CHARIOT, ZONE_HORSE, ZONE_CANNON, ZONE_SOLDIER = (terms.ZONE_WEIGHTS[kind] for kind in (CHARIOT, HORSE, CANNON,
                                                                                          SOLDIER))
ATTACK_CHARIOT, ATTACK_HORSE, ATTACK_CANNON = (terms.PALACE_ATTACK[kind] for kind in (CHARIOT, HORSE, CANNON))


# --------------------------------------------------------------------------- tables


def _padded(rows, width, fill=-1):
    out = np.full((len(rows), width), fill, dtype=np.int64)
    for i, row in enumerate(rows):
        out[i, :len(row)] = row
    return out


def _tables():
    """The rules', evaluation's and bot's tables as arrays, in one tuple for the kernels."""
    rays = np.full((SQUARES, 4, 9), -1, dtype=np.int64)
    ray_len = np.zeros((SQUARES, 4), dtype=np.int64)
    for sq in range(SQUARES):
        for d, ray in enumerate(RAYS[sq]):
            rays[sq, d, :len(ray)] = ray
            ray_len[sq, d] = len(ray)
    horse = np.full((SQUARES, 8, 2), -1, dtype=np.int64)
    horse_n = np.zeros(SQUARES, dtype=np.int64)
    horse_att = np.full((SQUARES, 8, 2), -1, dtype=np.int64)
    horse_att_n = np.zeros(SQUARES, dtype=np.int64)
    for sq in range(SQUARES):
        for i, pair in enumerate(HORSE_MOVES[sq]):
            horse[sq, i] = pair
        horse_n[sq] = len(HORSE_MOVES[sq])
        for i, pair in enumerate(HORSE_ATTACKERS[sq]):
            horse_att[sq, i] = pair
        horse_att_n[sq] = len(HORSE_ATTACKERS[sq])
    steps = np.full((3, 2, SQUARES, 4), -1, dtype=np.int64)     # king, advisor, soldier
    steps_n = np.zeros((3, 2, SQUARES), dtype=np.int64)
    elephant = np.full((2, SQUARES, 4, 2), -1, dtype=np.int64)
    elephant_n = np.zeros((2, SQUARES), dtype=np.int64)
    for side in (0, 1):
        for sq in range(SQUARES):
            for k, table in enumerate((KING_MOVES, ADVISOR_MOVES, SOLDIER_MOVES)):
                targets = table[side][sq]
                steps[k, side, sq, :len(targets)] = targets
                steps_n[k, side, sq] = len(targets)
            for i, pair in enumerate(ELEPHANT_MOVES[side][sq]):
                elephant[side, sq, i] = pair
            elephant_n[side, sq] = len(ELEPHANT_MOVES[side][sq])
    lines = np.zeros((SQUARES, SQUARES), dtype=np.bool_)
    sensitive = np.zeros((SQUARES, SQUARES), dtype=np.bool_)
    checking = np.zeros((SQUARES, SQUARES), dtype=np.bool_)
    for sq in range(SQUARES):
        lines[sq, list(LINES[sq])] = True
        sensitive[sq, list(SENSITIVE[sq])] = True
        checking[sq, list(reference.CHECK_TARGETS[sq])] = True
    zobrist = np.array(ZOBRIST, dtype=np.uint64)
    zblack = np.array([ZOBRIST_BLACK_TO_MOVE], dtype=np.uint64)
    value = np.array(reference.VALUE, dtype=np.int64)
    order = np.zeros(8, dtype=np.int64)
    delta = np.zeros(8, dtype=np.int64)
    for kind, worth in reference.ORDER_VALUES.items():
        order[kind] = worth
    for kind, worth in reference.DELTA_VALUES.items():
        delta[kind] = worth
    reductions = np.array(reference.REDUCTIONS, dtype=np.int64)
    items = sorted(reference.MOVE_KEYS.items())
    move_keys = np.array([k for k, _ in items], dtype=np.uint64)
    move_info = np.array([v for _, v in items], dtype=np.int64)
    zone = np.zeros((2, SQUARES), dtype=np.bool_)
    palace = np.zeros((2, SQUARES), dtype=np.bool_)
    crossed = np.array(terms.CROSSED, dtype=np.bool_)
    palace_rays = np.full((2, SQUARES, 4, 9), -1, dtype=np.int64)
    palace_ray_len = np.zeros((2, SQUARES, 4), dtype=np.int64)
    palace_ray_n = np.zeros((2, SQUARES), dtype=np.int64)
    for side in (0, 1):
        zone[side, list(terms.PALACE_ZONE[side])] = True
        palace[side, list(terms.PALACE[side])] = True
        for sq in range(SQUARES):
            for d, ray in enumerate(terms.PALACE_RAYS[side][sq]):
                palace_rays[side, sq, d, :len(ray)] = ray
                palace_ray_len[side, sq, d] = len(ray)
            palace_ray_n[side, sq] = len(terms.PALACE_RAYS[side][sq])
    return (rays, ray_len, horse, horse_n, horse_att, horse_att_n, steps, steps_n, elephant, elephant_n,
            lines, sensitive, checking, zobrist, zblack, value, order, delta, reductions, move_keys,
            move_info, zone, palace, crossed, palace_rays, palace_ray_len, palace_ray_n)


#: The tables, frozen into the compiled code as constants (Numba copies global arrays
#: in): no argument to pass, bounds known.  See ``_fingerprint`` for when they change.
#: MOVE_KEYS_A and MOVE_INFO_A are too large to freeze (Numba would not cache the
#: kernels using them): they travel in the search's workspace.
(RAYS_A, RAY_LEN, HORSE_A, HORSE_N, HORSE_ATT,
 HORSE_ATT_N, STEPS, STEPS_N, ELEPHANT_A, ELEPHANT_N,
 LINES_A, SENSITIVE_A, CHECKING_A, ZOBRIST_A, ZBLACK_A,
 VALUE_A, ORDER_A, DELTA_A, REDUCTIONS_A, MOVE_KEYS_A,
 MOVE_INFO_A, ZONE_A, PALACE_A, CROSSED_A, PALACE_RAYS_A,
 PALACE_RAY_LEN_A, PALACE_RAY_N_A) = _tables()



def _fingerprint(arrays, constants) -> int:
    """A 56-bit digest of the tables and constants the kernels freeze."""
    digest = hashlib.sha256()
    for array in arrays:
        digest.update(str((array.dtype, array.shape)).encode())
        digest.update(np.ascontiguousarray(array).tobytes())
    digest.update(repr(constants).encode())
    return int.from_bytes(digest.digest()[:7], "little")


#: Numba's disk cache is keyed by this file's own source, not by the values the kernels
#: froze from rules.py, bot.py, evaluation.py and endgames.py: a cached kernel would keep
#: an old piece value.  So the kernels freeze this digest of everything frozen too,
#: and a cache whose digest differs is thrown away (``_ensure_fresh_cache``).
FROZEN_CONSTANTS = tuple(sorted((name, value) for name, value in globals().items()
                                if name.isupper() and (isinstance(value, int) or (
                                    isinstance(value, tuple) and all(isinstance(x, int) for x in value)))))
TABLES_FINGERPRINT = _fingerprint(
    (RAYS_A, RAY_LEN, HORSE_A, HORSE_N, HORSE_ATT, HORSE_ATT_N, STEPS, STEPS_N, ELEPHANT_A, ELEPHANT_N,
     LINES_A, SENSITIVE_A, CHECKING_A, ZOBRIST_A, ZBLACK_A, VALUE_A, ORDER_A, DELTA_A, REDUCTIONS_A,
     MOVE_KEYS_A, MOVE_INFO_A, ZONE_A, PALACE_A, CROSSED_A, PALACE_RAYS_A, PALACE_RAY_LEN_A,
     PALACE_RAY_N_A), FROZEN_CONSTANTS)


# --------------------------------------------------------------------------- compiled kernels


@njit(cache=True, _nrt=False)
def _compiled_fingerprint():
    return TABLES_FINGERPRINT


@njit(cache=True, _nrt=False)
def _now():
    with objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(cache=True, _nrt=False)
def _lines_attack(board, sq, slider, other, cannon):
    """The first piece along a line from ``sq`` is ``slider`` or ``other``, or the second
    is ``cannon`` (rules._attacked_along_lines)."""
    rays, ray_len = RAYS_A, RAY_LEN
    for d in range(4):
        screened = False
        for i in range(ray_len[sq, d]):
            piece = board[rays[sq, d, i]]
            if piece == 0:
                continue
            if screened:
                if piece == cannon:
                    return True
                break
            if piece == slider or piece == other:
                return True
            screened = True
    return False


@njit(cache=True, _nrt=False)
def _horse_attack(board, sq, horse):
    horse_att, horse_att_n = HORSE_ATT, HORSE_ATT_N
    for i in range(horse_att_n[sq]):
        if board[horse_att[sq, i, 0]] == horse and board[horse_att[sq, i, 1]] == 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def _in_check(board, st, side):
    """``side``'s general is attacked (rules.Position.in_check)."""
    king = st[KING_RED + side]
    enemy = (side ^ 1) << 3
    if _lines_attack(board, king, enemy | CHARIOT, enemy | KING, enemy | CANNON):
        return True
    if _horse_attack(board, king, enemy | HORSE):
        return True
    soldier = enemy | SOLDIER
    ahead = king + 9 if side == 0 else king - 9
    return board[ahead] == soldier or board[king - 1] == soldier or board[king + 1] == soldier


@njit(cache=True, _nrt=False)
def _is_attacked(board, sq, by):
    """A piece of ``by`` could take on ``sq`` (rules.Position.is_attacked)."""
    steps, steps_n, elephant, elephant_n = STEPS, STEPS_N, ELEPHANT_A, ELEPHANT_N
    own = by << 3
    if _lines_attack(board, sq, own | CHARIOT, own | CHARIOT, own | CANNON):
        return True
    if _horse_attack(board, sq, own | HORSE):
        return True
    soldier = own | SOLDIER
    behind = sq - 9 if by == 0 else sq + 9
    if 0 <= behind < SQUARES and board[behind] == soldier:
        return True
    rank = sq // 9
    own_half = rank <= 4 if by == 0 else rank >= 5
    if not own_half:
        file = sq % 9
        if (file > 0 and board[sq - 1] == soldier) or (file < 8 and board[sq + 1] == soldier):
            return True
    for i in range(steps_n[1, by, sq]):
        if board[steps[1, by, sq, i]] == own | ADVISOR:
            return True
    for i in range(elephant_n[by, sq]):
        if board[elephant[by, sq, i, 0]] == own | ELEPHANT and board[elephant[by, sq, i, 1]] == 0:
            return True
    for i in range(steps_n[0, by, sq]):
        if board[steps[0, by, sq, i]] == own | KING:
            return True
    return False


@njit(cache=True, _nrt=False)
def _generate(board, side, out, captures_only):
    """Pseudo-legal moves (or captures) of ``side`` into ``out``; returns their count."""
    rays, ray_len, horse, horse_n = RAYS_A, RAY_LEN, HORSE_A, HORSE_N
    steps, steps_n, elephant, elephant_n = STEPS, STEPS_N, ELEPHANT_A, ELEPHANT_N
    n = 0
    for origin in range(SQUARES):
        mine = board[origin]
        if mine == 0 or (mine >> 3) != side:
            continue
        kind = mine & 7
        base = origin << 7
        if kind == CHARIOT:
            for d in range(4):
                for i in range(ray_len[origin, d]):
                    target = rays[origin, d, i]
                    piece = board[target]
                    if piece == 0:
                        if not captures_only:
                            out[n] = base | target
                            n += 1
                    else:
                        if (piece >> 3) != side:
                            out[n] = base | target
                            n += 1
                        break
        elif kind == CANNON:
            for d in range(4):
                screened = False
                for i in range(ray_len[origin, d]):
                    target = rays[origin, d, i]
                    piece = board[target]
                    if not screened:
                        if piece == 0:
                            if not captures_only:
                                out[n] = base | target
                                n += 1
                        else:
                            screened = True
                    elif piece != 0:
                        if (piece >> 3) != side:
                            out[n] = base | target
                            n += 1
                        break
        elif kind == HORSE:
            for i in range(horse_n[origin]):
                if board[horse[origin, i, 1]] == 0:
                    target = horse[origin, i, 0]
                    piece = board[target]
                    if (piece == 0 and not captures_only) or (piece != 0 and (piece >> 3) != side):
                        out[n] = base | target
                        n += 1
        elif kind == ELEPHANT:
            for i in range(elephant_n[side, origin]):
                if board[elephant[side, origin, i, 1]] == 0:
                    target = elephant[side, origin, i, 0]
                    piece = board[target]
                    if (piece == 0 and not captures_only) or (piece != 0 and (piece >> 3) != side):
                        out[n] = base | target
                        n += 1
        else:
            k = 0 if kind == KING else 1 if kind == ADVISOR else 2
            for i in range(steps_n[k, side, origin]):
                target = steps[k, side, origin, i]
                piece = board[target]
                if (piece == 0 and not captures_only) or (piece != 0 and (piece >> 3) != side):
                    out[n] = base | target
                    n += 1
    return n


@njit(cache=True, _nrt=False)
def _pseudo_legal(board, side, move):
    """``move`` is among ``_generate(board, side, ...)``'s moves: checked alone, without
    generating (a table move may come from another position whose key collided)."""
    origin, target = move >> 7, move & 127
    if origin >= SQUARES or target >= SQUARES or origin == target:
        return False
    mine = board[origin]
    if mine == 0 or (mine >> 3) != side:
        return False
    there = board[target]
    if there != 0 and (there >> 3) == side:
        return False
    kind = mine & 7
    if kind == CHARIOT or kind == CANNON:
        rays, ray_len = RAYS_A, RAY_LEN
        for d in range(4):
            between = 0
            for i in range(ray_len[origin, d]):
                square = rays[origin, d, i]
                if square == target:
                    if kind == CHARIOT:
                        return between == 0
                    return between == (1 if there else 0)
                if board[square]:
                    between += 1
                    if between > 1:
                        break
        return False
    if kind == HORSE:
        horse, horse_n = HORSE_A, HORSE_N
        for i in range(horse_n[origin]):
            if horse[origin, i, 0] == target:
                return board[horse[origin, i, 1]] == 0
        return False
    if kind == ELEPHANT:
        elephant, elephant_n = ELEPHANT_A, ELEPHANT_N
        for i in range(elephant_n[side, origin]):
            if elephant[side, origin, i, 0] == target:
                return board[elephant[side, origin, i, 1]] == 0
        return False
    steps, steps_n = STEPS, STEPS_N
    k = 0 if kind == KING else 1 if kind == ADVISOR else 2
    for i in range(steps_n[k, side, origin]):
        if steps[k, side, origin, i] == target:
            return True
    return False


@njit(cache=True, _nrt=False)
def _make(board, st, key, move):
    """Play ``move`` (unchecked); returns the captured piece (rules.Position.make)."""
    zobrist, zblack = ZOBRIST_A, ZBLACK_A
    origin, target = move >> 7, move & 127
    piece, captured = board[origin], board[target]
    board[target] = piece
    board[origin] = 0
    side = st[SIDE]
    k = key[0] ^ zobrist[piece, origin] ^ zobrist[piece, target] ^ zblack[0]
    if captured:
        k ^= zobrist[captured, target]
        st[COUNT_RED + (side ^ 1)] -= 1
    key[0] = k
    if piece & 7 == KING:
        st[KING_RED + side] = target
    st[SIDE] = side ^ 1
    return captured


@njit(cache=True, _nrt=False)
def _unmake(board, st, key, move, captured):
    zobrist, zblack = ZOBRIST_A, ZBLACK_A
    origin, target = move >> 7, move & 127
    side = st[SIDE] ^ 1
    st[SIDE] = side
    piece = board[target]
    board[origin] = piece
    board[target] = captured
    k = key[0] ^ zobrist[piece, origin] ^ zobrist[piece, target] ^ zblack[0]
    if captured:
        k ^= zobrist[captured, target]
        st[COUNT_RED + (side ^ 1)] += 1
    key[0] = k
    if piece & 7 == KING:
        st[KING_RED + side] = origin


@njit(cache=True, _nrt=False)
def _perft(depth, board, st, key, moves):
    """Legal move sequences of ``depth`` plies (rules.Position.perft), make/unmake."""
    if depth <= 0:
        return 1
    side = st[SIDE]
    out = moves[depth]
    n = _generate(board, side, out, False)
    total = 0
    for i in range(n):
        move = out[i]
        captured = _make(board, st, key, move)
        if not _in_check(board, st, side):
            total += _perft(depth - 1, board, st, key, moves)
        _unmake(board, st, key, move, captured)
    return total


# ---- evaluation: games/xiangqi/evaluation.py and endgames.py


@njit(cache=True, _nrt=False)
def _reaches(board, side_palace, sq, screens):
    """A chariot (0 screens) or cannon (1) on ``sq`` attacks a point of the palace of
    ``side_palace`` (evaluation._reaches over PALACE_RAYS)."""
    palace, palace_rays, palace_ray_len, palace_ray_n = PALACE_A, PALACE_RAYS_A, PALACE_RAY_LEN_A, PALACE_RAY_N_A
    for d in range(palace_ray_n[side_palace, sq]):
        passed = 0
        for i in range(palace_ray_len[side_palace, sq, d]):
            target = palace_rays[side_palace, sq, d, i]
            if passed == screens and palace[side_palace, target]:
                return True
            if board[target]:
                if passed == screens:
                    break
                passed += 1
    return False


@njit(cache=True, _nrt=False)
def _side_terms(board, st, side):
    """(pressure, attackers, defenders, freedom, horses, cannons): evaluation.side_terms."""
    rays, ray_len, horse, horse_n = RAYS_A, RAY_LEN, HORSE_A, HORSE_N
    zone, palace, crossed = ZONE_A, PALACE_A, CROSSED_A
    enemy = side ^ 1
    enemy_king = st[KING_RED + enemy]
    king_file = enemy_king % 9
    pressure = attackers = defenders = freedom = horses = cannons = 0
    for sq in range(SQUARES):
        piece = board[sq]
        if piece == 0 or (piece >> 3) != side:
            continue
        kind = piece & 7
        reaches = False
        weight = 0
        attack = 0
        if kind == ADVISOR or kind == ELEPHANT:
            defenders += 1
            continue
        if kind == SOLDIER:
            if not crossed[side, sq]:
                continue
            weight = ZONE_SOLDIER
        elif kind == CHARIOT:
            attackers += 1
            empty = 0
            for d in range(4):
                for i in range(ray_len[sq, d]):
                    if board[rays[sq, d, i]]:
                        break
                    empty += 1
            freedom += CHARIOT_FREEDOM * (min(empty, 12) - CHARIOT_FREEDOM_BASE)
            reaches = _reaches(board, enemy, sq, 0)
            weight, attack = ZONE_CHARIOT, ATTACK_CHARIOT
        elif kind == HORSE:
            attackers += 1
            horses += 1
            jumps = 0
            for i in range(horse_n[sq]):
                if board[horse[sq, i, 1]] == 0:
                    target = horse[sq, i, 0]
                    if palace[enemy, target]:
                        reaches = True
                    if board[target] == 0 or (board[target] >> 3) != side:
                        jumps += 1
            freedom += HORSE_FREEDOM * (min(jumps, 6) - HORSE_FREEDOM_BASE)
            weight, attack = ZONE_HORSE, ATTACK_HORSE
        elif kind == CANNON:
            attackers += 1
            cannons += 1
            weight, attack = ZONE_CANNON, ATTACK_CANNON
            if sq % 9 == king_file:
                step = 9 if sq > enemy_king else -9
                between = 0
                for other in range(enemy_king + step, sq, step):
                    if board[other]:
                        between += 1
                if between == 0:
                    pressure += HOLLOW_CANNON
                elif between == 1:
                    pressure += SCREENED_CANNON
            else:
                reaches = _reaches(board, enemy, sq, 1)
        else:
            continue
        if zone[enemy, sq]:
            pressure += weight
        if reaches:
            pressure += attack
    return pressure, attackers, defenders, freedom, horses, cannons


@njit(cache=True, _nrt=False)
def _danger(pressure, attackers, defenders):
    danger = pressure + MISSING_DEFENDER * (4 - defenders) * attackers
    if danger and attackers >= 2:
        danger += danger // 2
    return danger


@njit(cache=True, _nrt=False)
def _leaf_terms(board, st):
    """Red-positive king safety, freedom and phase material: evaluation.leaf_terms."""
    rp, ra, rd, rf, rh, rc = _side_terms(board, st, 0)
    bp, ba, bd, bf, bh, bc = _side_terms(board, st, 1)
    safety = _danger(rp, ra, bd) - _danger(bp, ba, rd) + rf - bf
    weight = (2 * ra - rh - rc) + (2 * ba - bh - bc)
    opening = min(weight, PHASE_FULL)
    ending = PHASE_FULL - opening
    horse = (HORSE_OPENING * opening + HORSE_ENDING * ending) // PHASE_FULL
    cannon = (CANNON_OPENING * opening + CANNON_ENDING * ending) // PHASE_FULL
    return safety + horse * (rh - bh) + cannon * (rc - bc)


@njit(cache=True, _nrt=False)
def _material(board, side, counts):
    """counts[kind] of ``side``'s pieces; returns the square of its last soldier."""
    counts[:] = 0
    soldier_sq = -1
    for sq in range(SQUARES):
        piece = board[sq]
        if piece and (piece >> 3) == side and piece & 7 != KING:
            counts[piece & 7] += 1
            if piece & 7 == SOLDIER:
                soldier_sq = sq
    return soldier_sq


@njit(cache=True, _nrt=False)
def _attackers(c):
    return c[CHARIOT] + c[HORSE] + c[CANNON] + c[SOLDIER]


@njit(cache=True, _nrt=False)
def _on_last_rank(sq, side):
    return sq // 9 == (9 if side == 0 else 0)


@njit(cache=True, _nrt=False)
def _draw_divisor(board, strong, mine, theirs, soldier_sq):
    """endgames.draw_divisor."""
    if _attackers(mine) == 0:
        return DEAD_DRAW
    defenders = theirs[ADVISOR] + theirs[ELEPHANT]
    their_attackers = _attackers(theirs)
    chariots, horses, cannons, soldiers = mine[CHARIOT], mine[HORSE], mine[CANNON], mine[SOLDIER]
    own_defenders = mine[ADVISOR] + mine[ELEPHANT]
    if _attackers(mine) == 1:
        if horses and not their_attackers and defenders >= 2:
            return DRAWISH
        if cannons and (own_defenders == 0 or defenders >= 2) and not their_attackers:
            return DEAD_DRAW if own_defenders == 0 else DRAWISH
        if soldiers:
            if _on_last_rank(soldier_sq, strong) or (defenders >= 2 and not their_attackers):
                return DEAD_DRAW
        if chariots and not their_attackers and theirs[ADVISOR] == 2 and theirs[ELEPHANT] == 2:
            return DRAWISH
    if chariots == 1 and _attackers(mine) == 1 and their_attackers == 1:
        if theirs[CHARIOT] or (theirs[ADVISOR] == 2 and theirs[ELEPHANT] == 2):
            return DRAWISH
    if soldiers and not (chariots or horses or cannons) and not their_attackers:
        crossed = 0
        soldier = SOLDIER | (8 if strong == 1 else 0)
        for sq in range(SQUARES):
            if board[sq] == soldier:
                rank = sq // 9
                if (rank >= 5 if strong == 0 else rank <= 4) and not _on_last_rank(sq, strong):
                    crossed += 1
        if crossed <= defenders // 2:
            return DRAWISH
    return 1


@njit(cache=True, _nrt=False)
def _mop_up(board, st, strong):
    """endgames.mop_up."""
    weak = strong ^ 1
    king, own_king = st[KING_RED + weak], st[KING_RED + strong]
    file, rank = king % 9, king // 9
    home = 9 if weak == 1 else 0
    bonus = 2 * abs(file - 4) + abs(rank - home)
    if own_king % 9 != file:
        bonus += 1
    closeness = 0
    for sq in range(SQUARES):
        piece = board[sq]
        if piece and (piece >> 3) == strong:
            kind = piece & 7
            if kind == CHARIOT or kind == HORSE or kind == SOLDIER:
                closeness += 9 - abs(sq % 9 - file) - abs(sq // 9 - rank) // 2
    return MOP_UP * bonus + 3 * closeness


@njit(cache=True, _nrt=False)
def _endgame_adjust(board, st, score, counts):
    """endgames.adjust: the Red-positive ``score`` with endgame knowledge (``counts``:
    two rows of 8 to count each side's pieces in)."""
    if st[COUNT_RED] + st[COUNT_BLACK] > FEW_PIECES or score == 0:
        return score
    strong = 0 if score > 0 else 1
    mine, theirs = counts[0], counts[1]
    soldier_sq = _material(board, strong, mine)
    _material(board, strong ^ 1, theirs)
    divisor = _draw_divisor(board, strong, mine, theirs, soldier_sq)
    if divisor > 1:
        return score // divisor if score > 0 else -((-score) // divisor)
    if _attackers(theirs) == 0 and abs(score) >= 100:
        bonus = _mop_up(board, st, strong)
        return score + bonus if strong == 0 else score - bonus
    return score


# ---- search helpers


@njit(cache=True, _nrt=False)
def _tick(st, deadline):
    """Count a node; True when the node or time limit says stop (checked every 64 nodes,
    the clock every 256)."""
    st[NODES] += 1
    nodes = st[NODES]
    if nodes & 63 == 0:
        if nodes >= st[NODE_LIMIT]:
            st[STOP] = 1
            return True
        if nodes & 255 == 0 and _now() > deadline[0]:
            st[STOP] = 1
            return True
    return False


@njit(cache=True, _nrt=False)
def _clear_table(tt_key, st):
    tt_key[:] = 0
    st[TT_COUNT] = 0


@njit(cache=True, _nrt=False)
def _tt_slot(tt_key, key):
    """The slot holding ``key``, or the empty slot where it would go (linear probing)."""
    mask = np.uint64(TT_SIZE - 1)
    slot = np.int64(key & mask)
    while tt_key[slot] != 0 and tt_key[slot] != key:
        slot = (slot + 1) & (TT_SIZE - 1)
    return slot


@njit(cache=True, _nrt=False)
def _ruled_from(st, hkeys, earlier, floor):
    """bot.Searcher._ruled_from: where the ruled cycle starts; -1 when nothing is ruled yet."""
    if st[REPETITION_COUNT] <= 2 or earlier >= st[ROOT_INDEX]:
        return earlier
    for older in range(earlier - 2, floor - 1, -2):
        if hkeys[older] == hkeys[earlier]:
            return older
    return -1


@njit(cache=True, _nrt=False)
def _repetition_score(st, hkeys, hchecks):
    """bot.Searcher._repetition_score; NO_SCORE when the last move repeated nothing."""
    last = st[NKEYS] - 1
    key = hkeys[last]
    floor = max(st[FLOOR], last - 30)
    for earlier in range(last - 4, floor - 1, -2):
        if hkeys[earlier] == key:
            earlier = _ruled_from(st, hkeys, earlier, floor)
            if earlier < 0:
                return NO_SCORE
            mover_checks = True
            for p in range(last, earlier, -2):
                if not hchecks[p]:
                    mover_checks = False
                    break
            other_checks = True
            for p in range(last - 1, earlier, -2):
                if not hchecks[p]:
                    other_checks = False
                    break
            if mover_checks and not other_checks:
                return PERPETUAL_LOSS
            if other_checks and not mover_checks:
                return -PERPETUAL_LOSS
            return 0
    return NO_SCORE


@njit(cache=True, _nrt=False)
def _can_repeat(board, st, key, hkeys, hchecks, out, move_keys, move_info):
    """bot.Searcher._can_repeat: a quiet move back into the repetition window."""
    zblack = ZBLACK_A
    last = st[NKEYS] - 1
    floor = max(st[FLOOR], last + 1 - 30)
    base = key[0] ^ zblack[0]
    side = st[SIDE]
    for earlier in range(last - 3, floor - 1, -2):
        change = base ^ hkeys[earlier]
        index = np.searchsorted(move_keys, change)
        if index >= len(move_keys) or move_keys[index] != change:
            continue
        piece, a, b = move_info[index, 0], move_info[index, 1], move_info[index, 2]
        origin, target = (a, b) if board[a] == piece else (b, a)
        if board[origin] != piece or board[target] or (piece >> 3) != side:
            continue
        ruled_from = _ruled_from(st, hkeys, earlier, floor)
        if ruled_from < 0:
            continue
        checked_throughout = True
        for p in range(ruled_from + 2, last, 2):
            if not hchecks[p]:
                checked_throughout = False
                break
        if checked_throughout:
            continue
        wanted = origin << 7 | target
        n = _generate(board, side, out, False)
        for i in range(n):
            if out[i] == wanted:
                return True
    return False


@njit(cache=True, _nrt=False)
def _has_big_piece(board, side):
    for sq in range(SQUARES):
        piece = board[sq]
        if piece and (piece >> 3) == side:
            kind = piece & 7
            if kind == CHARIOT or kind == HORSE or kind == CANNON:
                return True
    return False


@njit(cache=True, _nrt=False)
def _pick(moves, keys, i, n):
    """Swap the move with the smallest key among i..n-1 into place i and return it (the
    order of a full sort by the same unique keys, paid for only as far as it is used)."""
    best = i
    for j in range(i + 1, n):
        if keys[j] < keys[best]:
            best = j
    if best != i:
        moves[i], moves[best] = moves[best], moves[i]
        keys[i], keys[best] = keys[best], keys[i]
    return moves[i]


@njit(cache=True, _nrt=False)
def _order_moves(board, side, out, out_keys, tt_best, k0, k1, history, order):
    """Generate ``side``'s moves into ``out`` with their sort keys (the table's move,
    captures by victim then attacker, the two killers, then history); their count."""
    n = _generate(board, side, out, False)
    for i in range(n):
        move = out[i]
        if move == tt_best:
            priority = -1000000000
        elif board[move & 127]:
            priority = -10000000 - 100 * order[board[move & 127] & 7] + order[board[move >> 7] & 7]
        elif move == k0:
            priority = -1000000
        elif move == k1:
            priority = -1000000 + 1
        else:
            priority = -history[move]
        out_keys[i] = priority * 16384 + move
    return n


@njit(cache=True, _nrt=False)
def _capture_key(board, move, order):
    """bot._capture_order with the move as the tie-break."""
    return (order[board[move >> 7] & 7] - 16 * order[board[move & 127] & 7]) * 16384 + move


# ---- the search: one self-recursive kernel for the main search and quiescence


@njit(cache=True, _nrt=False)
def _search(mode, depth, alpha, beta, ply, evaluation, allow_null, checked, w):
    """Score of the position for the side to move: bot.Searcher.search (``mode`` SEARCH)
    or .quiesce (QUIESCE, ``checked``: the side to move is in check).  Returns 0 with
    st[STOP] set when a limit was reached (the caller then drops everything)."""
    board, st, key, deadline, hkeys, hchecks, floors, killers, history, moves, keys = w[:11]
    tt_key, tt_data = w[11], w[12]
    lines, sensitive, checking = LINES_A, SENSITIVE_A, CHECKING_A
    value, order, delta_values, reductions = VALUE_A, ORDER_A, DELTA_A, REDUCTIONS_A
    zero = ply - ply                 # arguments of recursive calls must not be literals (see top)
    one = zero + 1
    quiesce_mode = zero + QUIESCE
    search_mode = zero + SEARCH
    in_check = False
    if _tick(st, deadline):
        return 0
    side = st[SIDE]
    out, out_keys = moves[ply], keys[ply]
    if mode == SEARCH:
        if st[NODES] & 63 == 0 and st[TT_COUNT] > TT_LIMIT:
            _clear_table(tt_key, st)
        repeated = _repetition_score(st, hkeys, hchecks)
        if repeated != NO_SCORE:
            return repeated
        in_check = hchecks[st[NKEYS] - 1] != 0
        if in_check:
            depth += 1
        if depth <= 0 or ply >= MAX_PLY - 2:
            mode = QUIESCE
            checked = in_check
            if _tick(st, deadline):
                return 0

    if mode == QUIESCE:
        if ply <= QUIESCENCE_PLIES and checked:
            # evasions: every legal reply, captures first; no legal reply loses
            n = _generate(board, side, out, False)
            for i in range(n):
                move = out[i]
                out_keys[i] = _capture_key(board, move, order) if board[move & 127] else move
            best = -MATE + ply
            their_king = st[KING_RED + (side ^ 1)]
            for i in range(n):
                move = _pick(out, out_keys, i, n)
                origin, target = move >> 7, move & 127
                piece = board[origin]
                delta = value[piece, target] - value[piece, origin] - value[board[target], target]
                captured = _make(board, st, key, move)
                if _in_check(board, st, side):
                    _unmake(board, st, key, move, captured)
                    continue
                gives_check = ((sensitive[their_king, origin] or checking[their_king, target])
                               and _in_check(board, st, side ^ 1))
                floor = alpha if alpha > best else best
                score = -_search(quiesce_mode, zero, -beta, -floor, ply + 1, evaluation + delta, zero,
                                 gives_check, w)
                _unmake(board, st, key, move, captured)
                if st[STOP]:
                    return 0
                if score > best:
                    best = score
                    if best >= beta:
                        return best
            return best
        static = evaluation
        few = st[COUNT_RED] + st[COUNT_BLACK] <= FEW_PIECES
        raw = evaluation if side == 0 else -evaluation
        if few or (alpha - LAZY_MARGIN < raw and raw < beta + LAZY_MARGIN):
            static += _leaf_terms(board, st)
        if few:
            static = _endgame_adjust(board, st, static, w[15])
        stand_pat = static if side == 0 else -static
        if ply > QUIESCENCE_PLIES:
            return stand_pat
        if stand_pat >= beta:
            return stand_pat
        if stand_pat > alpha:
            alpha = stand_pat
        n = _generate(board, side, out, True)
        for i in range(n):
            out_keys[i] = _capture_key(board, out[i], order)
        king, their_king = st[KING_RED + side], st[KING_RED + (side ^ 1)]
        for i in range(n):
            move = _pick(out, out_keys, i, n)
            origin, target = move >> 7, move & 127
            if stand_pat + delta_values[board[target] & 7] <= alpha:
                continue
            piece = board[origin]
            delta = value[piece, target] - value[piece, origin] - value[board[target], target]
            losing = order[piece & 7] > order[board[target] & 7]
            captured = _make(board, st, key, move)
            if (((sensitive[king, origin] or lines[king, target]) and _in_check(board, st, side))
                    or (losing and _is_attacked(board, target, side ^ 1))):
                _unmake(board, st, key, move, captured)
                continue
            gives_check = ((sensitive[their_king, origin] or checking[their_king, target])
                           and _in_check(board, st, side ^ 1))
            score = -_search(quiesce_mode, zero, -beta, -alpha, ply + 1, evaluation + delta, zero,
                             gives_check, w)
            _unmake(board, st, key, move, captured)
            if st[STOP]:
                return 0
            if score > alpha:
                if score >= beta:
                    return score
                alpha = score
        return alpha

    # ---- the main search (depth > 0)
    draw_floor = alpha < 0 and _can_repeat(board, st, key, hkeys, hchecks, out, w[13], w[14])
    if draw_floor:
        alpha = 0
        if alpha >= beta:
            return alpha
    original_alpha = alpha
    slot = _tt_slot(tt_key, key[0])
    tt_best = 0
    if tt_key[slot] != 0:
        data = tt_data[slot]
        tt_best = (data >> 16) & 0x3FFF
        if data & 0xFF >= depth:
            stored = (data >> 32) - SCORE_OFFSET
            score = stored - ply if stored > MATE_BOUND else stored + ply if stored < -MATE_BOUND else stored
            flag = (data >> 8) & 3
            if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                return max(score, 0) if draw_floor else score

    static = evaluation if side == 0 else -evaluation
    pv_node = beta - alpha > 1
    if tt_best == 0 and depth >= UNGUIDED_REDUCTION_DEPTH:
        depth -= 1
    prunable = not pv_node and not in_check
    if (prunable and depth <= REVERSE_FUTILITY_DEPTH and abs(beta) < MATE_BOUND
            and static - REVERSE_FUTILITY_MARGIN * depth >= beta):
        return static
    if (allow_null and not in_check and depth >= 3 and beta < MATE_BOUND
            and _has_big_piece(board, side) and static >= beta):
        st[SIDE] = side ^ 1
        key[0] ^= ZBLACK_A[0]
        hkeys[st[NKEYS]] = key[0]
        hchecks[st[NKEYS]] = 0
        st[NKEYS] += 1
        reduction = 3 if depth >= 6 else 2
        score = -_search(search_mode, depth - 1 - reduction, -beta, -beta + 1, ply + 1, evaluation, zero,
                         zero != 0, w)
        st[NKEYS] -= 1
        key[0] ^= ZBLACK_A[0]
        st[SIDE] = side
        if st[STOP]:
            return 0
        if score >= beta:
            return beta

    best_score, best_move = -INFINITY, 0
    king, their_king = st[KING_RED + side], st[KING_RED + (side ^ 1)]
    searched = 0
    krow = ply if ply < st[KILLER_LEN] else MAX_PLY
    if krow == MAX_PLY:
        killers[MAX_PLY, 0] = 0
        killers[MAX_PLY, 1] = 0
    futile = (prunable and depth <= FUTILITY_DEPTH and abs(alpha) < MATE_BOUND
              and static + FUTILITY_MARGINS[depth] <= alpha)
    k0, k1 = killers[krow, 0], killers[krow, 1]     # as they were before any move was searched
    late_limit = INFINITY
    if prunable and depth < len(LATE_MOVE_LIMITS):
        late_limit = LATE_MOVE_LIMITS[depth]
    # The table's move goes first, as in the reference's order; it is tried before the
    # others are generated, which a cut-off on it then spares (the same tree).
    table_move_first = tt_best != 0 and _pseudo_legal(board, side, tt_best)
    table_move_pending = table_move_first
    n, picked, generated = 0, 0, False
    while True:
        if table_move_pending:
            move = tt_best
            table_move_pending = False
        else:
            if not generated:
                generated = True
                n = _order_moves(board, side, out, out_keys, tt_best, k0, k1, history, order)
            if picked >= n:
                break
            move = _pick(out, out_keys, picked, n)
            picked += 1
            if table_move_first and move == tt_best:
                continue                 # searched already
        origin, target = move >> 7, move & 127
        is_capture = board[target] != 0
        skip_unless_check = (searched > 0 and not is_capture and (futile or searched >= late_limit)
                             and move != tt_best)
        if (skip_unless_check and not sensitive[king, origin] and not lines[king, target]
                and not sensitive[their_king, origin] and not checking[their_king, target]):
            searched += 1
            continue
        piece = board[origin]
        delta = value[piece, target] - value[piece, origin] - value[board[target], target]
        captured = _make(board, st, key, move)
        if (in_check or sensitive[king, origin] or lines[king, target]) and _in_check(board, st, side):
            _unmake(board, st, key, move, captured)
            continue
        gives_check = ((sensitive[their_king, origin] or checking[their_king, target])
                       and _in_check(board, st, side ^ 1))
        if skip_unless_check and not gives_check:
            _unmake(board, st, key, move, captured)
            searched += 1
            continue
        nk = st[NKEYS]
        hkeys[nk] = key[0]
        hchecks[nk] = 1 if gives_check else 0
        floors[nk] = st[FLOOR]
        st[NKEYS] = nk + 1
        if captured:
            st[FLOOR] = nk
        child_eval = evaluation + delta
        if searched == 0:
            score = -_search(search_mode, depth - 1, -beta, -alpha, ply + 1, child_eval, one, zero != 0, w)
        else:
            reduction = 0
            if depth >= 3 and searched >= 4 and not is_capture and not in_check and not gives_check:
                reduction = reductions[min(depth, 63), min(searched, 63)]
                if pv_node or move == killers[krow, 0] or move == killers[krow, 1]:
                    reduction = max(1, reduction - 1)
            score = -_search(search_mode, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, child_eval, one,
                             zero != 0, w)
            if not st[STOP] and score > alpha and (reduction or score < beta):
                score = -_search(search_mode, depth - 1, -beta, -alpha, ply + 1, child_eval, one, zero != 0,
                                 w)
        st[NKEYS] = nk
        st[FLOOR] = floors[nk]
        _unmake(board, st, key, move, captured)
        if st[STOP]:
            return 0
        searched += 1
        if score > best_score:
            best_score, best_move = score, move
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    if not is_capture:
                        if killers[krow, 0] != move:
                            killers[krow, 1] = killers[krow, 0]
                            killers[krow, 0] = move
                        history[move] += depth * depth
                    break
    if searched == 0:
        return -MATE + ply
    if draw_floor:
        best_score = max(best_score, 0)
    flag = LOWER if best_score >= beta else UPPER if best_score <= original_alpha else EXACT
    if best_score > MATE_BOUND:
        stored = best_score + ply
    elif best_score < -MATE_BOUND:
        stored = best_score - ply
    else:
        stored = best_score
    slot = _tt_slot(tt_key, key[0])
    if tt_key[slot] == 0:
        tt_key[slot] = key[0]
        st[TT_COUNT] += 1
    tt_data[slot] = (stored + SCORE_OFFSET) << 32 | best_move << 16 | flag << 8 | min(depth, 255)
    return best_score


@njit(cache=True, _nrt=False)
def _search_root(depth, evaluation, root_moves, w):
    """bot.Searcher.search_root without noise: PVS over the root moves in their order;
    the best so far goes to st[ROOT_MOVE], st[ROOT_SCORE] (st[ROOT_SET] once there is one)."""
    board, st, key, hkeys, hchecks, floors = w[0], w[1], w[2], w[4], w[5], w[6]
    value = VALUE_A
    zero = depth - depth
    one = zero + 1
    search_mode = zero + SEARCH
    ply = one
    alpha, beta = -INFINITY, INFINITY
    first = True
    for i in range(len(root_moves)):
        move = root_moves[i]
        origin, target = move >> 7, move & 127
        piece = board[origin]
        delta = value[piece, target] - value[piece, origin] - value[board[target], target]
        side = st[SIDE]
        captured = _make(board, st, key, move)
        nk = st[NKEYS]
        hkeys[nk] = key[0]
        hchecks[nk] = 1 if _in_check(board, st, side ^ 1) else 0
        floors[nk] = st[FLOOR]
        st[NKEYS] = nk + 1
        if captured:
            st[FLOOR] = nk
        if first:
            score = -_search(search_mode, depth - 1, -INFINITY + zero, INFINITY + zero, ply, evaluation + delta,
                             one, zero != 0, w)
        else:
            score = -_search(search_mode, depth - 1, -alpha - 1, -alpha, ply, evaluation + delta, one,
                             zero != 0, w)
            if not st[STOP] and score > alpha:
                score = -_search(search_mode, depth - 1, -beta, -alpha, ply, evaluation + delta, one,
                                 zero != 0, w)
        st[NKEYS] = nk
        st[FLOOR] = floors[nk]
        _unmake(board, st, key, move, captured)
        if st[STOP]:
            return alpha
        if first or score > alpha:
            alpha = score
            st[ROOT_SET] = 1
            st[ROOT_MOVE] = move
            st[ROOT_SCORE] = score
        first = False
    return alpha


# --------------------------------------------------------------------------- Python side


def _load(position: Position, board: np.ndarray, st: np.ndarray, key: np.ndarray) -> None:
    board[:] = position.board
    st[SIDE] = position.side
    st[KING_RED], st[KING_BLACK] = position.kings
    st[COUNT_RED], st[COUNT_BLACK] = len(position.squares[0]), len(position.squares[1])
    key[0] = position.key


_fresh = False


def kernels() -> list:
    """This module's compiled functions."""
    return [value for value in globals().values() if isinstance(value, CPUDispatcher)]


def _ensure_fresh_cache() -> None:
    """Recompile every kernel, once per process, when the disk cache froze other tables
    than this process built (see ``TABLES_FINGERPRINT``)."""
    global _fresh
    if not _fresh:
        if _compiled_fingerprint() != TABLES_FINGERPRINT:
            for kernel in kernels():
                kernel.recompile()          # drops the kernel's disk cache too
        _fresh = True


def perft(position: Position, depth: int) -> int:
    """Legal move sequences of ``depth`` plies from ``position``, counted by the compiled
    generator and make/unmake (tests compare it with rules.Position.perft)."""
    _ensure_fresh_cache()
    board = np.zeros(SQUARES, dtype=np.int64)
    st = np.zeros(STATE_SLOTS, dtype=np.int64)
    key = np.zeros(1, dtype=np.uint64)
    _load(position, board, st, key)
    moves = np.zeros((depth + 1, MAX_MOVES), dtype=np.int64)
    return int(_perft(depth, board, st, key, moves))


class FastSearcher:
    """bot.Searcher's interface (``choose``, ``nodes``, ``last_depth``, ``clear``) over the
    compiled search; level 5's settings only (knowledge, pruning, null move, no noise)."""

    # what bot.Searcher's settings are here (level 5's)
    knowledge = pruning = use_null_move = quiescence_enabled = True
    noise = 0

    def __init__(self, max_depth: int = 64):
        _ensure_fresh_cache()
        self.max_depth = max_depth
        self.nodes = 0
        self.last_depth = 0
        self.board = np.zeros(SQUARES, dtype=np.int64)
        self.st = np.zeros(STATE_SLOTS, dtype=np.int64)
        self.key = np.zeros(1, dtype=np.uint64)
        self.deadline = np.zeros(1, dtype=np.float64)
        self.killers = np.zeros((MAX_PLY + 1, 2), dtype=np.int64)
        self.history = np.zeros(1 << 14, dtype=np.int64)
        self.moves = np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64)
        self.move_keys = np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64)
        self.piece_counts = np.zeros((2, 8), dtype=np.int64)
        # Filled now, not merely allocated: the first touch of each page costs a page
        # fault, which would otherwise fall inside the first moves' clocks.
        self.tt = (np.full(TT_SIZE, 0, dtype=np.uint64), np.full(TT_SIZE, 0, dtype=np.int64))
        self._stacks(256)

    def _stacks(self, size: int) -> None:
        self.hkeys = np.zeros(size, dtype=np.uint64)
        self.hchecks = np.zeros(size, dtype=np.int64)
        self.floors = np.zeros(size, dtype=np.int64)

    def clear(self) -> None:
        """Forget the transposition table (a new game, an undo)."""
        _clear_table(self.tt[0], self.st)

    @property
    def table_entries(self) -> int:
        return int(self.st[TT_COUNT])

    def _start_at(self, position: Position, keys: list[int], checks: list[bool], quiet: int,
                  repetition_count: int) -> None:
        """bot.Searcher.start_at: the position, the game's keys and checks and repetition
        count, fresh killers and history."""
        _load(position, self.board, self.st, self.key)
        if len(keys) + MAX_PLY + 8 > len(self.hkeys):
            self._stacks(2 * (len(keys) + MAX_PLY + 8))
        count = len(keys)
        self.hkeys[:count] = keys
        self.hchecks[:count] = checks
        st = self.st
        st[NKEYS] = count
        st[FLOOR] = max(0, count - 1 - quiet)
        st[ROOT_INDEX] = count - 1
        st[REPETITION_COUNT] = repetition_count
        st[NODES] = 0
        st[STOP] = 0
        st[KILLER_LEN] = self.max_depth + 64
        self.killers[:] = 0
        self.history[:] = 0

    def _workspace(self) -> tuple:
        return (self.board, self.st, self.key, self.deadline, self.hkeys, self.hchecks, self.floors,
                self.killers, self.history, self.moves, self.move_keys) + self.tt + (MOVE_KEYS_A, MOVE_INFO_A, self.piece_counts)

    def choose(self, position: Position, keys: list[int], checks: list[bool], quiet: int,
               seconds: float | None, nodes: int | None = None,
               hard_limit: bool = False, repetition_count: int = reference.CONTEST_REPETITION_COUNT
               ) -> tuple[int | None, int]:
        """bot.Searcher.choose, compiled: best move and score within the limits."""
        self._start_at(position, keys, checks, quiet, repetition_count)
        start = time.perf_counter()
        self.deadline[0] = start + seconds if seconds is not None else np.inf
        self.st[NODE_LIMIT] = nodes if nodes else 1 << 62
        self.last_depth = 0
        self.nodes = 0
        if self.st[TT_COUNT] > TT_LIMIT:
            self.clear()
        root_moves = position.legal_moves()
        if not root_moves:
            return None, -MATE
        board = position.board
        root_moves.sort(key=lambda m: (-(10 ** 7) - 100 * reference.ORDER_VALUES[board[m & 127] & 7]
                                       + reference.ORDER_VALUES[board[m >> 7] & 7]
                                       if board[m & 127] else 0) * 16384 + m)
        best_move, best_score = root_moves[0], -INFINITY
        evaluation = reference.evaluate_from_scratch(position)
        work = self._workspace()
        st = self.st
        for depth in range(1, self.max_depth + 1):
            st[ROOT_SET] = 0
            score = int(_search_root(depth, evaluation, np.array(root_moves, dtype=np.int64), work))
            if st[STOP]:
                if st[ROOT_SET] and st[ROOT_SCORE] > best_score:
                    best_move, best_score = int(st[ROOT_MOVE]), int(st[ROOT_SCORE])
                break
            best_move, best_score = int(st[ROOT_MOVE]), int(st[ROOT_SCORE])
            self.last_depth = depth
            root_moves.remove(best_move)
            root_moves.insert(0, best_move)
            if abs(score) >= MATE_BOUND or (len(root_moves) == 1 and seconds is not None):
                break
            elapsed = time.perf_counter() - start
            if seconds is not None and not hard_limit and elapsed > seconds * 0.5:
                break
        self.nodes = int(st[NODES])
        return best_move, best_score


_warm = False


def warm_up() -> None:
    """Compile (or load from the disk cache) every kernel once per process: a depth-3
    search of a middle-game position with a check in it, an ending, and a perft, so
    every kernel and every argument type a move uses is compiled before the clock runs
    (tests/xiangqi/test_xiangqi_fast_search.py checks that moves compile nothing)."""
    global _warm
    if not _warm:
        searcher = FastSearcher(max_depth=3)
        for fen in ("r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
                    "3k5/4a4/9/9/9/9/9/9/4R4/4K4 w - - 0 1"):
            position, quiet, _ = Position.from_fen(fen)
            searcher.choose(position, [position.key], [position.in_check(position.side)], quiet, None)
        perft(Position.from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1")[0], 1)
        _warm = True
