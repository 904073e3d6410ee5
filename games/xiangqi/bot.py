"""The built-in Xiangqi engine: alpha-beta search in pure Python, five levels.

Search: iterative deepening, principal-variation search with a Zobrist-keyed
transposition table (a node it has no move for is searched a ply less: the next
iteration finds it one), null-move pruning, late-move reductions, and near the leaves of
the lines that are not the main one, static cut-offs (reverse futility), futility
and late-move pruning of quiet moves that give no check; check extension and a
quiescence search of captures (of every reply while in check: a checked side cannot
"stand pat" on its material, since it may be mated; a bigger piece taking a smaller
one on a defended square is not looked at, at levels 4-5).  Moves are ordered TT move
first, then captures by MVV-LVA, then killer moves, then the history heuristic.
Evaluation: material plus piece-square tables, kept incrementally along the search;
at level 5 the leaves add the terms of :mod:`games.xiangqi.evaluation` (the generals'
safety, the chariots' and horses' freedom, the horses' and cannons' worth by the game's
phase) and the endings of :mod:`games.xiangqi.endgames`.

The engine reads the clock (the rules never do): it checks it every few hundred nodes
and, when the budget is spent, abandons the iteration in progress and answers with the
best move of the last completed iteration (or a better root move already proven in the
unfinished one).  Repetitions inside the search follow the arena's ruling: a repeated
position is a draw, except that a side that gave check with every move of the cycle
(while the other did not) loses.  A repeat inside the tree is ruled on at once; a
repeat of a position played before the root is ruled on as the game's
``repetition_count`` says (2: at once; 3: only at its third occurrence, since the other
side may still leave the cycle).  A side that has a quiet move back to an earlier
position that would be ruled on scores at least a draw before the transposition table
is read, since the table's scores were found along other paths.

Level 5 runs the same search compiled with Numba where Numba is installed
(:mod:`games.xiangqi.fast_search`, some ten to fifteen times the nodes a second; it
gives the same move, score and node count as :class:`Searcher` at a fixed depth), with
:class:`Searcher` as the fallback and the reference it is tested against.
"""
from __future__ import annotations

import math
import random
import time
from typing import Any, Mapping

from games.api import GameSetupError
from games.bots import NO_SETTINGS_AT_LEVEL_1, Bot, whole_number_settings
from games.xiangqi.book import default_book
from games.xiangqi.endgames import FEW_PIECES
from games.xiangqi.endgames import adjust as endgame_adjust
from games.xiangqi.evaluation import leaf_terms
from games.xiangqi.rules import (ADVISOR, BLACK, CANNON, CHARIOT, CONTEST_REPETITION_COUNT, ELEPHANT, HORSE,
                                 HORSE_ATTACKERS, KING, LINES, RED, REPETITION_WINDOW, SENSITIVE, SOLDIER,
                                 SQUARES, ZOBRIST, ZOBRIST_BLACK_TO_MOVE, Position, XiangqiState, file_of,
                                 move_text, parse_move_text, rank_of)

MATE = 30000
MATE_BOUND = MATE - 1000            # scores beyond this are mates
PERPETUAL_LOSS = 20000              # losing by perpetual check: worse than any material
INFINITY = 10 ** 6
LAZY_MARGIN = 250                   # king safety is skipped at leaves this far outside the window
EXACT, LOWER, UPPER = 0, 1, 2
QUIESCENCE_PLIES = 40               # the quiescence search stops this deep (static score)
REVERSE_FUTILITY_DEPTH = 3          # static-score cut-off at this depth and below ...
REVERSE_FUTILITY_MARGIN = 120       # ... when the score beats beta by this much a ply
FUTILITY_DEPTH = 2                  # quiet moves skipped this near the leaves ...
FUTILITY_MARGINS = (0, 150, 320)    # ... when the score plus this cannot reach alpha
LATE_MOVE_LIMITS = (0, 8, 14, 22)   # quiet moves searched at depths 1-3 outside the main line
UNGUIDED_REDUCTION_DEPTH = 4        # from this depth a node with no table move is searched a ply less
TT_LIMIT = 500_000                  # entries (about 100 MB); the table is cleared beyond it

#: REDUCTIONS[depth][moves searched]: plies a late quiet move is searched less (at least 1),
#: growing with the logarithms of both.
REDUCTIONS = tuple(tuple(max(1, int(0.5 + math.log(depth) * math.log(count) / 2.25)) if depth and count else 0
                         for count in range(64)) for depth in range(64))

#: The key change of a piece going between two squares -> (piece, one square, the other):
#: tells, without generating moves, which quiet move could lead back to an earlier position.
MOVE_KEYS = {ZOBRIST[piece][a] ^ ZOBRIST[piece][b]: (piece, a, b)
             for piece in [kind | colour for kind in range(1, 8) for colour in (0, 8)]
             for a in range(SQUARES) for b in range(a + 1, SQUARES)}

#: CHECK_TARGETS[sq]: the squares a piece must move to in order to check a general on ``sq``
#: itself or as a cannon's screen (its file and rank; a horse's jump away).  A move that
#: neither goes there nor leaves a square of SENSITIVE[sq] (uncovering a line or a horse's
#: leg) cannot give check.
CHECK_TARGETS = tuple(LINES[sq] | {origin for origin, _ in HORSE_ATTACKERS[sq]} for sq in range(SQUARES))

PIECE_VALUES = {KING: 0, ADVISOR: 200, ELEPHANT: 170, HORSE: 400, CHARIOT: 900, CANNON: 450, SOLDIER: 100}
UNCROSSED_SOLDIER_DISCOUNT = 35     # a soldier on its own side of the river is worth this less
DELTA_VALUES = {kind: value * 2 + 200 for kind, value in PIECE_VALUES.items()}
ORDER_VALUES = {KING: 5000, ADVISOR: 2, ELEPHANT: 2, HORSE: 4, CHARIOT: 9, CANNON: 4, SOLDIER: 1}


def _red_square_bonus(kind: int, file: int, rank: int) -> int:
    """Positional bonus for a Red piece on (file, rank); Black uses the mirror."""
    centre = 4 - abs(file - 4)                 # 0 on the edge .. 4 in the middle
    if kind == SOLDIER:
        if rank <= 4:
            return 10 * (rank - 3) + (5 if file in (2, 4, 6) else 0) - UNCROSSED_SOLDIER_DISCOUNT
        if rank == 9:
            return 20 + 5 * centre
        return 70 + 10 * min(rank - 5, 2) + 8 * centre - (10 if rank == 8 else 0)
    if kind == HORSE:
        start_penalty = 20 if rank == 0 and file in (1, 7) else 0
        near_palace = 20 if 6 <= rank <= 8 and 2 <= file <= 6 else 0
        return 6 * centre + 8 * min(rank, 7) - start_penalty + near_palace - (25 if file in (0, 8) else 0)
    if kind == CHARIOT:
        start_penalty = 15 if rank == 0 and file in (0, 8) else 0
        return 3 * centre + (20 if rank in (6, 7) else 0) + (10 if file in (3, 5) else 0) - start_penalty
    if kind == CANNON:
        return (25 if file == 4 else 0) + (10 if rank in (2, 7) else 0) + 2 * centre
    if kind == KING:
        return -10 * (rank) - (8 if file != 4 else 0)
    if kind in (ADVISOR, ELEPHANT):
        return 10 if file == 4 else 0
    return 0


def _capture_order(board: list[int]):
    """The sort key of captures on ``board``: most valuable victim first, then least
    valuable attacker (MVV-LVA), the quiescence search's move order.  Every order key
    here ends with the move's own number, so that equal moves keep one order whatever
    order the rules generated them in (the compiled search, games/xiangqi/fast_search.py,
    must visit them in the same order to find the same scores)."""
    return lambda move: (ORDER_VALUES[board[move >> 7] & 7] - 16 * ORDER_VALUES[board[move & 127] & 7]) * 16384 + move


def _build_piece_square_values():
    """``VALUE[piece][sq]``: signed (Red positive) material plus position."""
    values = [[0] * SQUARES for _ in range(16)]
    for kind, worth in PIECE_VALUES.items():
        for sq in range(SQUARES):
            f, r = file_of(sq), rank_of(sq)
            values[kind][sq] = worth + _red_square_bonus(kind, f, r)
            values[kind | 8][sq] = -(worth + _red_square_bonus(kind, f, 9 - r))
    return tuple(tuple(v) for v in values)


VALUE = _build_piece_square_values()


def evaluate_from_scratch(position: Position) -> int:
    """Red-positive static score of a position."""
    board = position.board
    return sum(VALUE[board[sq]][sq] for side in (RED, BLACK) for sq in position.squares[side])


class SearchTimeout(Exception):
    """The time budget ran out in the middle of an iteration."""


class Searcher:
    """One search tree walker; keeps its transposition table between moves of a game."""

    def __init__(self, max_depth: int = 64, use_null_move: bool = True, quiescence: bool = True,
                 noise: int = 0, rng: random.Random | None = None, knowledge: bool = True,
                 pruning: bool = True):
        self.max_depth = max_depth
        self.use_null_move = use_null_move
        self.quiescence_enabled = quiescence
        self.noise = noise
        self.rng = rng or random.Random(0)
        self.table: dict[int, tuple] = {}
        self.safety_cache: dict[int, int] = {}
        self.knowledge = knowledge      # king safety and endgame knowledge at the leaves
        self.pruning = pruning          # near-leaf prunings; losing captures skipped in quiescence
        self.nodes = 0
        self.deadline = float("inf")
        self.node_limit = float("inf")
        self.last_depth = 0
        self.root_index = 0
        self.repetition_count = CONTEST_REPETITION_COUNT

    def clear(self) -> None:
        """Forget the transposition table (a new game, an undo)."""
        self.table.clear()

    # ---- entry point

    def start_at(self, position: Position, keys: list[int], checks: list[bool], quiet: int,
                 repetition_count: int = CONTEST_REPETITION_COUNT) -> None:
        """Place the walker at (a copy of) ``position`` with the game's history: the keys and
        checks of every position so far, the half-moves since the last capture, and the
        game's ``repetition_count`` (2: the first repeat is ruled on; 3: the third occurrence)."""
        self.position = position.copy()
        self.keys, self.checks = list(keys), list(checks)
        self.root_index = len(self.keys) - 1
        self.repetition_count = repetition_count
        self.capture_floor = max(0, len(self.keys) - 1 - quiet)
        self.killers = [[0, 0] for _ in range(self.max_depth + 64)]
        self.history: dict[int, int] = {}
        self._floors: list[int] = []
        self.nodes = 0

    def choose(self, position: Position, keys: list[int], checks: list[bool], quiet: int,
               seconds: float | None, nodes: int | None = None,
               hard_limit: bool = False, repetition_count: int = CONTEST_REPETITION_COUNT
               ) -> tuple[int | None, int]:
        """Best move and its score for the side to move, within ``seconds`` (None: depth only)
        and ``nodes`` (None: no limit), under the game's ``repetition_count``.  Without ``seconds`` the search never reads the clock's
        verdict, so the same position, depth and node limit give the same move on any machine.

        ``seconds`` is a budget the search manages (it starts no iteration it expects not to
        finish) unless ``hard_limit``: then it is only a cap, reached or not, so that a move
        the depth or node limit ends first is the same move under any load."""
        self.start_at(position, keys, checks, quiet, repetition_count)
        start = time.perf_counter()
        self.deadline = start + seconds if seconds is not None else float("inf")
        self.node_limit = nodes if nodes else float("inf")
        self.last_depth = 0
        if len(self.table) > TT_LIMIT:
            self.table.clear()
        root_moves = self.position.legal_moves()
        if not root_moves:
            return None, -MATE
        self._order(root_moves, 0, 0)         # the fallback answer is at least the best capture
        best_move, best_score = root_moves[0], -INFINITY
        evaluation = evaluate_from_scratch(self.position)
        for depth in range(1, self.max_depth + 1):
            self.root_best = None
            try:
                score = self.search_root(depth, evaluation, root_moves)
            except SearchTimeout:
                if self.root_best is not None and self.root_best[1] > best_score:
                    best_move, best_score = self.root_best
                break
            best_move, best_score = self.root_best
            self.last_depth = depth
            root_moves.remove(best_move)
            root_moves.insert(0, best_move)
            if abs(score) >= MATE_BOUND or (len(root_moves) == 1 and seconds is not None):
                break
            elapsed = time.perf_counter() - start
            if seconds is not None and not hard_limit and elapsed > seconds * 0.5:
                break                    # the next iteration would not finish in time
        return best_move, best_score

    # ---- search

    def search_root(self, depth: int, evaluation: int, moves: list[int]) -> int:
        alpha, beta = -INFINITY, INFINITY
        position = self.position
        first = True
        for move in moves:
            delta = self._delta(move)
            captured = position.make(move)
            self._push(position, captured)
            try:
                if first or self.noise:
                    # With noise every root score must be exact, so no null windows here.
                    score = -self.search(depth - 1, -INFINITY, INFINITY, 1, evaluation + delta, True)
                else:
                    score = -self.search(depth - 1, -alpha - 1, -alpha, 1, evaluation + delta, True)
                    if score > alpha:
                        score = -self.search(depth - 1, -beta, -alpha, 1, evaluation + delta, True)
            finally:
                self._pop(position, move, captured)
            if self.noise:
                score += self.rng.randint(-self.noise, self.noise)
            if first or score > alpha:
                alpha = score
                self.root_best = (move, score)
            first = False
        return alpha

    def _delta(self, move: int) -> int:
        board = self.position.board
        origin, target = move >> 7, move & 127
        piece = board[origin]
        return VALUE[piece][target] - VALUE[piece][origin] - VALUE[board[target]][target]

    def _push(self, position: Position, captured: int, gives_check: bool | None = None) -> None:
        self.keys.append(position.key)
        self.checks.append(position.in_check(position.side) if gives_check is None else gives_check)
        self._floors.append(self.capture_floor)
        if captured:
            self.capture_floor = len(self.keys) - 1

    def _pop(self, position: Position, move: int, captured: int) -> None:
        self.keys.pop()
        self.checks.pop()
        self.capture_floor = self._floors.pop()
        position.unmake(move, captured)

    def _repetition_score(self) -> int | None:
        """Score for the side to move when the last move repeated a position, else None.

        A repeat inside the tree is ruled on at once, a search's usual draw.  A repeat of a
        position played before the root is ruled on as the game rules it: at once with
        ``repetition_count`` 2, only on its third occurrence with 3 (the other side may
        still leave the cycle, and an engine that knows the rule does: a bot that took the
        second occurrence for a draw held "draws" it then lost)."""
        keys = self.keys
        last = len(keys) - 1
        key = keys[last]
        floor = max(self.capture_floor, last - REPETITION_WINDOW)
        for earlier in range(last - 4, floor - 1, -2):
            if keys[earlier] == key:
                earlier = self._ruled_from(earlier, floor)
                if earlier is None:
                    return None
                checks = self.checks
                mover_checks = all(checks[p] for p in range(last, earlier, -2))
                other_checks = all(checks[p] for p in range(last - 1, earlier, -2))
                if mover_checks and not other_checks:
                    return PERPETUAL_LOSS        # the side to move's opponent checked perpetually
                if other_checks and not mover_checks:
                    return -PERPETUAL_LOSS
                return 0
        return None

    def _ruled_from(self, earlier: int, floor: int) -> int | None:
        """Where the cycle the ruling looks at starts, for a repeat of the position at
        ``earlier``: that position itself when it is in the tree (or every repeat counts),
        else the occurrence before it (None: there is none, nothing is ruled yet)."""
        if self.repetition_count <= 2 or earlier >= self.root_index:
            return earlier
        keys = self.keys
        for older in range(earlier - 2, floor - 1, -2):
            if keys[older] == keys[earlier]:
                return older
        return None

    def _can_repeat(self) -> bool:
        """True when the side to move has a quiet move back to a position of the repetition
        window that :meth:`_repetition_score` rules on, in a cycle where not every one of
        its own moves gave check (so the repetition is a draw, or a win when the other side
        checked throughout)."""
        keys, checks, position = self.keys, self.checks, self.position
        last = len(keys) - 1
        floor = max(self.capture_floor, last + 1 - REPETITION_WINDOW)
        board, base = position.board, position.key ^ ZOBRIST_BLACK_TO_MOVE
        for earlier in range(last - 3, floor - 1, -2):
            found = MOVE_KEYS.get(base ^ keys[earlier])
            if found is None:
                continue
            piece, a, b = found
            origin, target = (a, b) if board[a] == piece else (b, a)
            if board[origin] != piece or board[target] or piece >> 3 != position.side:
                continue
            ruled_from = self._ruled_from(earlier, floor)
            if ruled_from is None or all(checks[p] for p in range(ruled_from + 2, last, 2)):
                continue
            if origin << 7 | target in position.pseudo_moves():
                return True
        return False

    def search(self, depth: int, alpha: int, beta: int, ply: int, evaluation: int,
               allow_null: bool) -> int:
        self.nodes += 1
        if self.nodes & 63 == 0:
            if self.nodes >= self.node_limit or time.perf_counter() > self.deadline:
                raise SearchTimeout
            if len(self.table) > TT_LIMIT:
                self.table.clear()
        position = self.position
        repeated = self._repetition_score()
        if repeated is not None:
            return repeated
        in_check = self.checks[-1]
        if in_check:
            depth += 1
        if depth <= 0:
            return self.quiesce(alpha, beta, ply, evaluation, in_check)

        # A move back to an earlier position is a draw at worst: the score cannot fall below
        # it, whatever the table says (its scores were found along other paths).
        draw_floor = alpha < 0 and self._can_repeat()
        if draw_floor:
            alpha = 0
            if alpha >= beta:
                return alpha
        original_alpha = alpha
        entry = self.table.get(position.key)
        tt_move = 0
        if entry is not None:
            entry_depth, flag, stored, tt_move = entry
            if entry_depth >= depth:
                score = stored - ply if stored > MATE_BOUND else stored + ply if stored < -MATE_BOUND else stored
                if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                    return max(score, 0) if draw_floor else score

        static = evaluation if position.side == RED else -evaluation
        pv_node = beta - alpha > 1
        if not tt_move and depth >= UNGUIDED_REDUCTION_DEPTH and self.pruning:
            depth -= 1          # no table move to try first: a shallower search finds one cheaply
        prunable = self.pruning and not pv_node and not in_check     # near the leaves, off the main line
        if (prunable and depth <= REVERSE_FUTILITY_DEPTH
                and abs(beta) < MATE_BOUND and static - REVERSE_FUTILITY_MARGIN * depth >= beta):
            return static                # far enough above beta that a quiet move will not drop it
        if (self.use_null_move and allow_null and not in_check and depth >= 3
                and beta < MATE_BOUND and self._has_big_piece(position)
                and static >= beta):
            position.make_null()
            self.keys.append(position.key)
            self.checks.append(False)
            try:
                reduction = 3 if depth >= 6 else 2
                score = -self.search(depth - 1 - reduction, -beta, -beta + 1, ply + 1, evaluation, False)
            finally:
                self.keys.pop()
                self.checks.pop()
                position.unmake_null()
            if score >= beta:
                return beta

        best_score, best_move = -INFINITY, 0
        board, side = position.board, position.side
        king = position.kings[side]
        lines, sensitive = LINES[king], SENSITIVE[king]
        searched = 0
        killers = self.killers[ply] if ply < len(self.killers) else [0, 0]
        futile = (prunable and depth <= FUTILITY_DEPTH
                  and abs(alpha) < MATE_BOUND and static + FUTILITY_MARGINS[depth] <= alpha)
        late_limit = LATE_MOVE_LIMITS[depth] if prunable and depth < len(LATE_MOVE_LIMITS) else INFINITY
        their_king = position.kings[side ^ 1]
        uncovering, checking = SENSITIVE[their_king], CHECK_TARGETS[their_king]
        for move in self._ordered(position.pseudo_moves(), tt_move, ply):
            origin, target = move >> 7, move & 127
            is_capture = board[target] != 0
            # A quiet move this late, or this far below alpha, is skipped unless it gives check;
            # most are seen not to (nor to risk the own general) without being made.
            skip_unless_check = (searched and not is_capture and (futile or searched >= late_limit)
                                 and move != tt_move)
            if (skip_unless_check and origin not in sensitive and target not in lines
                    and origin not in uncovering and target not in checking):
                searched += 1
                continue
            delta = self._delta(move)
            captured = position.make(move)
            if (in_check or origin in sensitive or target in lines) and position.in_check(side):
                position.unmake(move, captured)
                continue
            gives_check = (origin in uncovering or target in checking) and position.in_check(position.side)
            if skip_unless_check and not gives_check:
                position.unmake(move, captured)
                searched += 1
                continue
            self._push(position, captured, gives_check)
            try:
                child_eval = evaluation + delta
                if searched == 0:
                    score = -self.search(depth - 1, -beta, -alpha, ply + 1, child_eval, True)
                else:
                    reduction = 0
                    if depth >= 3 and searched >= 4 and not is_capture and not in_check and not gives_check:
                        reduction = REDUCTIONS[min(depth, 63)][min(searched, 63)]
                        if pv_node or move in killers:
                            reduction = max(1, reduction - 1)
                    score = -self.search(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, child_eval, True)
                    if score > alpha and (reduction or score < beta):
                        score = -self.search(depth - 1, -beta, -alpha, ply + 1, child_eval, True)
            finally:
                self._pop(position, move, captured)
            searched += 1
            if score > best_score:
                best_score, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if not is_capture:
                            if killers[0] != move:
                                killers[1], killers[0] = killers[0], move
                            self.history[move] = self.history.get(move, 0) + depth * depth
                        break
        if not searched:
            return -MATE + ply          # no legal move: mated or stalemated, a loss either way
        if draw_floor:
            best_score = max(best_score, 0)
        flag = LOWER if best_score >= beta else UPPER if best_score <= original_alpha else EXACT
        stored = best_score + ply if best_score > MATE_BOUND else best_score - ply if best_score < -MATE_BOUND else best_score
        self.table[position.key] = (depth, flag, stored, best_move)
        return best_score

    def quiesce(self, alpha: int, beta: int, ply: int, evaluation: int, checked: bool | None = None) -> int:
        """Captures-only search from a leaf; all replies when in check (``checked``, if
        the caller knows it; a move can only check from CHECK_TARGETS or by uncovering)."""
        self.nodes += 1
        if self.nodes & 63 == 0 and (self.nodes >= self.node_limit or time.perf_counter() > self.deadline):
            raise SearchTimeout
        position = self.position
        if checked is None:
            checked = position.in_check(position.side)
        if self.quiescence_enabled and ply <= QUIESCENCE_PLIES and checked:
            return self._evasions(alpha, beta, ply, evaluation)
        static = evaluation          # children add their deltas to the raw score, not this one
        if self.knowledge:
            few = len(position.squares[0]) + len(position.squares[1]) <= FEW_PIECES
            raw = evaluation if position.side == RED else -evaluation
            if few or alpha - LAZY_MARGIN < raw < beta + LAZY_MARGIN:
                static += self._king_safety(position)   # lazy: only where it can change the result
            if few:
                static = endgame_adjust(position, static)
        stand_pat = static if position.side == RED else -static
        if not self.quiescence_enabled or ply > QUIESCENCE_PLIES:
            return stand_pat
        if stand_pat >= beta:
            return stand_pat
        if stand_pat > alpha:
            alpha = stand_pat
        board = position.board
        moves = position.pseudo_captures()
        moves.sort(key=_capture_order(board))
        side = position.side
        king, their_king = position.kings[side], position.kings[side ^ 1]
        lines, sensitive = LINES[king], SENSITIVE[king]
        uncovering, checking = SENSITIVE[their_king], CHECK_TARGETS[their_king]
        for move in moves:
            origin, target = move >> 7, move & 127
            if stand_pat + DELTA_VALUES[board[target] & 7] <= alpha:
                continue                     # even winning this piece cannot lift the score to alpha
            delta = self._delta(move)
            losing = self.pruning and ORDER_VALUES[board[origin] & 7] > ORDER_VALUES[board[target] & 7]
            captured = position.make(move)
            if (((origin in sensitive or target in lines) and position.in_check(side))
                    or (losing and position.is_attacked(target, side ^ 1))):
                position.unmake(move, captured)     # illegal, or a bigger piece lost for a smaller one
                continue
            gives_check = (origin in uncovering or target in checking) and position.in_check(side ^ 1)
            score = -self.quiesce(-beta, -alpha, ply + 1, evaluation + delta, gives_check)
            position.unmake(move, captured)
            if score > alpha:
                if score >= beta:
                    return score
                alpha = score
        return alpha

    def _evasions(self, alpha: int, beta: int, ply: int, evaluation: int) -> int:
        """Quiescence in check: no standing pat (the checked side may be mated), every
        legal reply searched, captures first; no legal reply is a loss."""
        position = self.position
        board, side = position.board, position.side
        moves = position.pseudo_moves()
        capture_order = _capture_order(board)
        moves.sort(key=lambda m: capture_order(m) if board[m & 127] else m)   # captures first
        best = -MATE + ply
        their_king = position.kings[side ^ 1]
        uncovering, checking = SENSITIVE[their_king], CHECK_TARGETS[their_king]
        for move in moves:
            origin, target = move >> 7, move & 127
            delta = self._delta(move)
            captured = position.make(move)
            if position.in_check(side):
                position.unmake(move, captured)
                continue
            gives_check = (origin in uncovering or target in checking) and position.in_check(side ^ 1)
            score = -self.quiesce(-beta, -max(alpha, best), ply + 1, evaluation + delta, gives_check)
            position.unmake(move, captured)
            if score > best:
                best = score
                if best >= beta:
                    return best
        return best

    def _king_safety(self, position: Position) -> int:
        """The leaf terms of :mod:`games.xiangqi.evaluation`, cached by position key."""
        cache = self.safety_cache
        value = cache.get(position.key)
        if value is None:
            if len(cache) > TT_LIMIT:
                cache.clear()
            value = cache[position.key] = leaf_terms(position)
        return value

    def _ordered(self, moves: list[int], tt_move: int, ply: int):
        """The moves in the order they are searched: the table's move first, then the
        rest by :meth:`_order`, sorted only once the table's move has been searched
        (with the history its search added; a cut-off on it sorts nothing)."""
        if tt_move in moves:
            yield tt_move
            moves = [move for move in moves if move != tt_move]
        self._order(moves, tt_move, ply)
        yield from moves

    def _order(self, moves: list[int], tt_move: int, ply: int) -> None:
        board = self.position.board
        killers = self.killers[ply] if ply < len(self.killers) else (0, 0)
        history = self.history

        def priority(move: int) -> int:
            if move == tt_move:
                return -(10 ** 9)
            victim = board[move & 127]
            if victim:
                return -(10 ** 7) - 100 * ORDER_VALUES[victim & 7] + ORDER_VALUES[board[move >> 7] & 7]
            if move == killers[0]:
                return -(10 ** 6)
            if move == killers[1]:
                return -(10 ** 6) + 1
            return -history.get(move, 0)

        moves.sort(key=lambda move: priority(move) * 16384 + move)

    @staticmethod
    def _has_big_piece(position: Position) -> bool:
        board = position.board
        return any(board[sq] & 7 in (CHARIOT, HORSE, CANNON) for sq in position.squares[position.side])


# --------------------------------------------------------------------------- bots

#: level -> (max depth, default seconds a move, noise in centipawns, quiescence)
LEVELS = {
    2: (1, 0.5, 60, True),
    3: (2, 1.0, 15, True),
    4: (4, 2.0, 0, True),
    5: (64, 4.0, 0, True),
}
KNOWLEDGE_LEVEL = 5    # levels from this one up evaluate king safety and endgames
COMPILED_LEVEL = 5     # levels from this one up search compiled when Numba is there
BOOK_LEVEL = 5         # levels from this one up play from the opening book by default
SAFETY = 0.85          # share of the budget the search may use
OVERHEAD = 0.03        # seconds kept for copying, ordering and answering


class RandomishBot(Bot):
    """Level 1: a random legal move, taking a capture half of the time when there is one."""

    name = "xiangqi-beginner"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: XiangqiState, seat: int, time_budget: float | None) -> Any:
        moves = list(state.legal_moves(seat))
        board = state.position.board
        captures = [m for m in moves if board[parse_move_text(m) & 127]]
        if captures and self.rng.random() < 0.5:
            return self.rng.choice(captures)
        return self.rng.choice(moves)


class SearchBot(Bot):
    """Levels 2-5: the alpha-beta searcher with a depth cap, noise and a time budget.

    ``depth``, ``nodes`` and ``movetime`` (milliseconds) are the settings engines take
    (``bot:4 depth=5``, ``bot:5 nodes=200000``, ``bot:3 movetime=500``).  With ``depth``
    or ``nodes`` the bot does not read the clock to decide when to stop, so its moves
    and strength are the same on any machine under any load (a match's time limit is
    still kept as a safety net).  ``movetime`` alone is the time the bot thinks on every
    move, all of it, as a UCI engine told ``go movetime`` does (within a match's clock);
    with ``depth`` or ``nodes`` it is a cap instead (``bot:5 nodes=150000 movetime=2000``
    searches 150,000 nodes unless two seconds come first, as a UCI engine told
    ``go nodes 150000 movetime 2000`` does).  Without any of them the bot keeps its
    level's pace, and stops early when the next iteration would not finish.  While the
    position is in the opening book (level 5, or ``book=1``) the bot plays a book move
    chosen with its seed, and its info says ``book`` instead of depth, score and nodes.
    """

    def __init__(self, level: int, seed: int = 0, default_seconds: float | None = None,
                 depth: int | None = None, nodes: int | None = None, book: bool | None = None):
        max_depth, seconds, noise, quiescence = LEVELS[level]
        self.book = default_book() if (level >= BOOK_LEVEL if book is None else book) else None
        self.book_rng = random.Random(seed)
        self.level = level
        self.name = f"xiangqi-engine-{level}"
        self.default_seconds = seconds if default_seconds is None else default_seconds
        self.movetime = default_seconds     # the seat's own movetime, if it gave one
        self.depth, self.nodes = depth, nodes
        searcher_class = compiled_searcher() if level >= COMPILED_LEVEL else None
        if searcher_class is not None:
            self.searcher = searcher_class(max_depth=depth or max_depth)
        else:
            self.searcher = Searcher(max_depth=depth or max_depth, noise=noise, quiescence=quiescence,
                                     knowledge=level >= KNOWLEDGE_LEVEL,
                                     use_null_move=level >= 4, pruning=level >= 4, rng=random.Random(seed))
        self.last_info: dict[str, Any] = {}

    @property
    def compiled(self) -> bool:
        """True when this bot searches with the compiled search (games/xiangqi/fast_search.py)."""
        return not isinstance(self.searcher, Searcher)

    def prepare(self) -> None:
        """Compile the search (or load it from Numba's disk cache) before the clocks run."""
        if self.compiled:
            warm_up()

    @property
    def time_is_a_limit(self) -> bool:
        """True when the seat's settings bound the search (``depth``, ``nodes``, ``movetime``):
        the time is then a limit the search runs to (or ends before), not a budget it
        manages by stopping when the next iteration would not finish."""
        return bool(self.depth or self.nodes) or self.movetime is not None

    def choose(self, state: XiangqiState, seat: int, time_budget: float | None) -> Any:
        started = time.perf_counter()
        self.last_info = {}
        if self.book is not None:
            choice = self.book.pick(state.position, self.book_rng)
            if choice is not None:
                self.last_info = {"book": self.book.describe(choice)}
                return move_text(choice.move)
        limited = self.time_is_a_limit
        seconds = self.time_cap(time_budget) if limited else self.thinking_time(time_budget)
        move, score = self.searcher.choose(state.position, state.history, state.checks, state.quiet,
                                           seconds, self.nodes, hard_limit=limited,
                                           repetition_count=repetition_count(state))
        if move is None:
            moves = state.legal_moves(seat)
            return moves[0] if moves else None
        elapsed = time.perf_counter() - started
        self.last_info = {"depth": self.searcher.last_depth, "score": score, "nodes": self.searcher.nodes,
                          "seconds": round(elapsed, 3)}
        return move_text(move)

    def time_cap(self, time_budget: float | None) -> float | None:
        """With ``depth``, ``nodes`` or ``movetime``: the seconds the search may never pass,
        or None (depth or nodes alone, and no clock).

        ``movetime`` is such a cap (a UCI engine told ``go nodes N movetime T`` likewise
        stops at whichever limit comes first, and told ``go movetime T`` thinks T), and so
        is the match's time limit, less the safety share.
        """
        caps = []
        if self.movetime is not None:
            caps.append(self.movetime)
        if time_budget is not None:
            caps.append(max(0.0, time_budget * SAFETY - OVERHEAD))
        return min(caps) if caps else None

    def thinking_time(self, time_budget: float | None) -> float:
        """Seconds to search without settings: the level's own pace, never more than the
        budget allows.

        The budget may be a whole game's remaining time; the strongest level then
        spends a share of it (1/25) when that is more than its own pace.
        """
        if time_budget is None:
            return self.default_seconds
        pace = self.default_seconds
        if self.level >= 5:
            pace = max(pace, time_budget / 25)
        return max(0.0, min(pace, time_budget * SAFETY - OVERHEAD))

    def reset(self) -> None:
        self.searcher.clear()


def repetition_count(state: XiangqiState) -> int:
    """The game's repetition count (2 or 3), which the search's repetition rulings follow."""
    return int(state.options.get("repetition_count") or CONTEST_REPETITION_COUNT)


def compiled_searcher() -> type | None:
    """The compiled search's class (games/xiangqi/fast_search.py), or None where Numba is
    missing or unusable: level 5 then searches with :class:`Searcher`, the same search
    (the compiled one is tested against it) at about a thirtieth of the speed.

    The one-folder build leaves Numba out (its compiler alone is some 100 MB, and its
    disk cache needs the source files), so there level 5 searches in pure Python."""
    try:
        from games.xiangqi.fast_search import FastSearcher
    except (ImportError, RuntimeError):      # not installed; no cache it can use
        return None
    return FastSearcher


def warm_up() -> None:
    """Compile level 5's search if Numba is there: about a minute the first time on a
    machine, a second or two after (the shell runs it in the background at start)."""
    if compiled_searcher() is not None:
        from games.xiangqi.fast_search import warm_up as compile_search
        compile_search()


BOT_SETTINGS = ("depth", "nodes", "movetime")
BOOK_SETTING = "book"         # 1 or 0: play from the opening book (the level's default otherwise)


def make_bot(level: int = 3, seed: int = 0, settings: Mapping[str, str] | None = None) -> Bot:
    """The engine at ``level`` 1 (near random) to 5 (strongest), seeded for reproducibility.

    ``settings`` (from ``bot:N depth=6 nodes=100000 movetime=800``): ``depth`` plies,
    ``nodes`` searched, ``movetime`` milliseconds a move, ``book`` 1 or 0 to play from
    the opening book or not (default: level 5 does, the lower levels do not).  Level 1
    plays at random and takes none.
    """
    level = int(level)
    values = whole_number_settings(settings or {}, BOT_SETTINGS + (BOOK_SETTING,),
                                   {BOOK_SETTING: "play from the opening book"})
    if level <= 1:
        if values:
            raise GameSetupError(NO_SETTINGS_AT_LEVEL_1)
        return RandomishBot(seed)
    movetime = values.get("movetime")
    return SearchBot(min(level, 5), seed, default_seconds=movetime / 1000 if movetime else None,
                     depth=values.get("depth"), nodes=values.get("nodes"),
                     book=bool(values["book"]) if "book" in values else None)
