"""The level-5 Hex search compiled to machine code with Numba: mcts.py's MCTS, and more.

``HexSearch`` in mcts.py is the reference: UCT with RAVE, shape priors seeded as
virtual RAVE results, and playouts that save the mover's bridges and edge templates.
In pure Python a playout costs 150-200 µs, so a second gives about 9,000 playouts on
9x9.  This module runs the same search as compiled loops over flat arrays, some twenty
times as many playouts in the same time (``python bench/hex_playout_rate.py``).

What differs from mcts.py, and why:

* Knowledge at the nodes, as MoHex has it: a node other than the root that reaches
  ``SearchConfig.knowledge_visits`` visits gets the compiled H-search
  (games/hex/fast_vcs.py).  A side to move with an edge-to-edge VC or semi-connection
  there has won, one facing the opponent's VC has lost; a playout that reaches such a
  proven node stops and counts its result, and a proven loss makes the move into it a
  proven win.  Otherwise the moves outside the opponent's must-play region are pruned.
  Proofs also climb the tree as in MCTS-solver: a move into a proven win for the
  opponent is tried only when every move is, and then the node itself is lost.
  Boards above 13x13 skip it (its tables grow with the square of the cells).
* Pattern priors (games/hex/patterns.py) with ``SearchConfig.pattern_bias`` above 0: a
  new node gives each move a probability from its fitted pattern gammas, and selection
  adds ``pattern_bias * probability / sqrt(visits + 1)`` to the move's value (MoHex 2.0's
  progressive bias).  The shape priors above still seed the RAVE counts.
* The tree lives in preallocated arrays (a row of per-cell statistics per node).  A
  child grows once its move has ``EXPAND_VISITS`` visits rather than at once, and the
  tree stops growing when the pool is full (about ``POOL_BYTES``): at a few hundred
  thousand playouts a move, a node a playout would need gigabytes.
* Between moves the tree is kept when the new position lies two plies below the old
  root, as in mcts.py: that subtree is copied to the front of the pool.
* The random numbers come from a xorshift generator whose state belongs to the search,
  so a seeded search with a playout cap plays the same moves every time.
* The clock is read between batches of playouts (a few milliseconds each), since
  compiled code cannot read it.
* The kernels (here and in fast_vcs.py) are compiled without Numba's reference
  counting (``_nrt=False``): every call passing an array paid an atomic increment and
  decrement for it, a third to a half of the playouts' time (they run 1.4-2.1 times
  as fast without it).  So no kernel allocates; the arrays they work in are the
  search's (``_scratch``, the H-search's workspace).

The compiled functions are cached on disk (Numba's ``cache=True``); ``warm_up()``
compiles them (about half a minute the first time on a machine, a second or two after)
so a match's first move does not pay for it.
"""
from __future__ import annotations

import time

import numpy as np
from numba import njit

from games.hex import patterns
from games.hex.fast_vcs import NONE, SEMI, WON, FastVcSearch, copy_row, edge_status, make_workspace
from games.hex.mcts import EMPTY, P1, P2, Board, HexSearch, SearchConfig

EXPAND_VISITS = 2               # visits of a move before its child node grows
PROVEN_WIN, PROVEN_LOSS = 1, 2  # a node's H-search result, for the side to move there
KNOWLEDGE_MAX_CELLS = 13 * 13   # larger boards get no H-search at the nodes
LOST_MOVE = -1e29               # a move's value in selection when its child is proven lost
POOL_BYTES = 160 * 1024 * 1024  # the tree's memory: per node, six numbers per cell
BATCH = 256                     # playouts between two looks at the clock
MAX_REPLIES = 16                # replies a cell's intrusion can call for (bridges, edges)


class FastHexSearch(HexSearch):
    """``HexSearch`` whose ``search`` runs compiled; every other method is inherited."""

    UNTIMED_SCALE = 16      # a level's playouts without a clock, times this: about as long

    def __init__(self, size: int, seed: int, config: SearchConfig | None = None):
        super().__init__(size, seed, config)
        cells = self.board.cells
        self.tables = _tables(self.board)
        self.pattern_tables = _pattern_tables(size, self.config.pattern_bias > 0)
        self.capacity = max(256, POOL_BYTES // (24 * cells + 8))
        self.pool = _Pool(self.capacity, cells)
        # The H-search's tables grow with the square of the cells (11 MB on 11x11, 33 MB
        # on 13x13); larger boards search without knowledge at the nodes.
        self.knows = cells <= KNOWLEDGE_MAX_CELLS
        self.vc_workspace = make_workspace(self.board if self.knows else Board(1))
        #: The same H-search for the caller's root questions, or None on larger boards.
        self.vc_search = FastVcSearch(self.board, workspace=self.vc_workspace) if self.knows else None
        self.rng_state = np.array([_seed_state(seed)], dtype=np.uint64)
        self.scratch = _scratch(cells)
        self.root_index = -1

    def search(self, cells: list[int], mover: int, deadline: float | None,
               max_playouts: int | None, candidates: list[int] | None = None,
               filled: list[int] | None = None, recent: tuple[int, int] = (-1, -1)) -> int:
        """Best cell for ``mover`` on ``cells`` (never mutated) within the limits.

        ``candidates`` restricts the root's moves; ``filled`` is ``cells`` with
        inferior cells filled in (games/hex/inferior.py): playouts start from it, so
        the tree never plays into those cells.  ``recent`` is (the mover's last cell,
        the opponent's last cell), -1 where there is none: the pattern priors weigh
        moves near them.
        """
        start = np.array(filled if filled is not None else cells, dtype=np.int8)
        allowed = np.zeros(self.board.cells, dtype=np.uint8)
        for c in (candidates if candidates is not None else range(self.board.cells)):
            if cells[c] == EMPTY:
                allowed[c] = 1
        if filled is not None and not any(start[c] == EMPTY for c in np.flatnonzero(allowed)):
            start = np.array(cells, dtype=np.int8)
        legal = [int(c) for c in np.flatnonzero(allowed) if start[c] == EMPTY]
        if len(legal) == 1:
            return legal[0]
        if not legal:
            return min(c for c in range(self.board.cells) if cells[c] == EMPTY)
        root = self._root_for(cells, mover, recent)
        self.playouts = 0
        limit = max_playouts if max_playouts is not None else 1 << 60
        config = self.config
        params = _params(config)
        flags = _flags(config)
        pool, tables = self.pool, self.tables
        recent_moves = np.array(recent, dtype=np.int64)
        while self.playouts < limit:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            batch = min(BATCH, limit - self.playouts)
            done = _run_playouts(batch, root, start, allowed, pool.arrays(), tables, params, flags,
                                 self.rng_state, EXPAND_VISITS, self.vc_workspace,
                                 config.knowledge_visits if self.knows else 0,
                                 self.pattern_tables, recent_moves, self.scratch)
            pool.count = int(pool.meta[0])
            self.playouts += done
            if done < batch:
                break                       # nothing left to search
            if deadline is None and _decided(pool.n[root], allowed, start, limit - self.playouts):
                break
        return int(_best_move(root, start, allowed, pool.n, pool.w, pool.rn, pool.rw, pool.child, pool.proven))

    def _root_for(self, cells: list[int], mover: int, recent: tuple[int, int]) -> int:
        """The root node's index: the old tree's grandchild when the game went there."""
        pool = self.pool
        old_cells, old_root = self.root_cells, self.root_index
        self.root_cells = list(cells)
        if self.config.reuse_tree and old_cells is not None and old_root >= 0:
            node = _descend(pool, old_root, old_cells, cells, mover)
            if node >= 0:
                pool.keep_subtree(node)
                self.root_index = 0
                return 0
        pool.clear()
        self.root_index = pool.new_root(mover, np.array(cells, dtype=np.int8), self, recent)
        return self.root_index


def _descend(pool: "_Pool", node: int, old: list[int], new: list[int], mover: int) -> int:
    """The node of ``new`` if it lies within two plies under ``node``'s tree, else -1."""
    added = [c for c in range(len(new)) if new[c] != old[c]]
    if not added or len(added) > 2 or any(old[c] != EMPTY for c in added):
        return -1
    pending = set(added)
    while pending:
        colour = int(pool.mover[node])
        step = next((c for c in pending if new[c] == colour), None)
        if step is None or pool.child[node, step] < 0:
            return -1
        pending.discard(step)
        node = int(pool.child[node, step])
    return node if int(pool.mover[node]) == mover else -1


class _Pool:
    """The tree: per node its mover and visits, and per cell n, w, rave n, rave w, child
    and the pattern prior (a probability over the node's moves)."""

    def __init__(self, capacity: int, cells: int):
        self.n = np.zeros((capacity, cells), dtype=np.int32)
        self.w = np.zeros((capacity, cells), dtype=np.float32)
        self.rn = np.zeros((capacity, cells), dtype=np.float32)
        self.rw = np.zeros((capacity, cells), dtype=np.float32)
        self.child = np.full((capacity, cells), -1, dtype=np.int32)
        self.mover = np.zeros(capacity, dtype=np.int8)
        self.visits = np.zeros(capacity, dtype=np.int32)
        self.meta = np.zeros(1, dtype=np.int64)      # [nodes in use], shared with the kernel
        self.proven = np.zeros(capacity, dtype=np.int8)    # PROVEN_WIN / PROVEN_LOSS for the mover
        self.known = np.zeros(capacity, dtype=np.uint8)    # the node's H-search has run
        self.prior = np.zeros((capacity, cells), dtype=np.float32)
        self.count = 0

    def arrays(self):
        return (self.n, self.w, self.rn, self.rw, self.child, self.mover, self.visits, self.meta,
                self.proven, self.known, self.prior)

    def clear(self) -> None:
        self.meta[0] = self.count = 0

    def new_root(self, mover: int, cells: np.ndarray, search: FastHexSearch,
                 recent: tuple[int, int] = (-1, -1)) -> int:
        """Append a node for ``cells`` with ``mover`` to move, as ``search`` makes them."""
        config = search.config
        index = _new_node(self.arrays(), cells, mover, search.tables, config.prior_weight, _flags(config),
                          search.pattern_tables, recent[1], recent[0], search.scratch[_BONUS])
        self.count = int(self.meta[0])
        return index

    def keep_subtree(self, node: int) -> None:
        """Move ``node``'s subtree to the front of the pool, breadth first (``node`` becomes 0)."""
        levels = [np.array([node], dtype=np.int64)]
        while levels[-1].size:
            below = self.child[levels[-1]]
            levels.append(below[below >= 0].astype(np.int64))
        order = np.concatenate(levels)          # a tree: every node is listed once
        kept = order.size
        new_index = np.full(int(self.meta[0]), -1, dtype=np.int32)
        new_index[order] = np.arange(kept, dtype=np.int32)
        for table in (self.n, self.w, self.rn, self.rw, self.mover, self.visits, self.proven, self.known,
                      self.prior):
            table[:kept] = table[order]
        children = self.child[order]
        self.child[:kept] = np.where(children >= 0, new_index[children], -1)
        self.meta[0] = self.count = kept


#: Where ``_scratch``'s row for a new node's shape bonus is.
_BONUS = 10


def _scratch(cells: int) -> tuple:
    """The arrays the playout kernel works in for a board of ``cells`` cells (the kernels
    allocate nothing: they are compiled without Numba's reference counting): the
    playout's board, its fill order, a flood fill's stack and marks, the path's nodes
    and moves, the moves before each node, an H-search region, each colour's cells and
    their count, and a new node's shape bonus."""
    return (np.empty(cells, dtype=np.int8), np.empty(cells, dtype=np.int32),
            np.empty(cells, dtype=np.int32), np.empty(cells, dtype=np.uint8),
            np.empty(cells + 1, dtype=np.int64), np.empty(cells + 1, dtype=np.int64),
            np.empty(cells + 3, dtype=np.int64), np.empty(cells, dtype=np.uint8),
            np.zeros(3, dtype=np.int64), np.empty((3, cells), dtype=np.int32),
            np.zeros(cells, dtype=np.float32))


def _tables(board) -> tuple:
    """The board's geometry as arrays the compiled code can read."""
    cells = board.cells
    replies = np.full((3, cells, MAX_REPLIES, 3), -1, dtype=np.int32)
    reply_count = np.zeros((3, cells), dtype=np.int32)
    for colour in (P1, P2):
        for x, entries in enumerate(board.replies[colour]):
            entries = entries[:MAX_REPLIES]
            reply_count[colour, x] = len(entries)
            for k, entry in enumerate(entries):
                replies[colour, x, k] = entry
    partners = np.full((cells, 12, 3), -1, dtype=np.int32)
    partner_count = np.zeros(cells, dtype=np.int32)
    for x, entries in enumerate(board.bridge_partners):
        partner_count[x] = len(entries)
        for k, entry in enumerate(entries):
            partners[x, k] = entry
    neighbours = np.full((cells, 6), -1, dtype=np.int32)
    for x, ring in enumerate(board.neighbours):
        neighbours[x, :len(ring)] = ring
    left = np.array(board.left, dtype=np.int32)
    is_right = np.frombuffer(bytes(board.is_right), dtype=np.uint8).copy()
    opening = np.array(board.opening_prior, dtype=np.float32)
    late = np.array(board.late_prior, dtype=np.float32)
    return (neighbours, replies, reply_count, partners, partner_count, left, is_right,
            opening, late, np.int64(board.size))


def _params(config: SearchConfig) -> np.ndarray:
    return np.array([config.rave_bias, config.exploration, config.prior_weight, config.pattern_bias],
                    dtype=np.float64)


def _flags(config: SearchConfig) -> np.ndarray:
    return np.array([config.use_rave, config.bridge_playouts, config.use_priors, config.pattern_bias > 0],
                    dtype=np.uint8)


def _pattern_tables(size: int, fitted: bool) -> tuple:
    """The pattern geometry of the board and the gammas (games/hex/patterns.py) as
    arrays the compiled code can read: the fitted table, or all 1 when not ``fitted``."""
    gammas = patterns.fitted_table() if fitted else patterns.GammaTable.neutral()
    return (patterns.slot_table(size), patterns.edge_classes(size), patterns.nearness(size),
            patterns.POWERS, patterns.TURNED_POWERS) + gammas.arrays()


def _seed_state(seed: int) -> int:
    """A non-zero 64-bit xorshift state from any integer seed (splitmix64)."""
    z = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (z ^ (z >> 31)) or 1


def _decided(counts: np.ndarray, allowed: np.ndarray, start: np.ndarray, remaining: int) -> bool:
    """Whether no remaining playouts could change the most-visited root move."""
    legal = counts[(allowed == 1) & (start == EMPTY)]
    if len(legal) < 2:
        return True
    top = np.partition(legal, len(legal) - 2)[-2:]
    return int(top[1] - top[0]) > remaining


_warm = False


def warm_up() -> None:
    """Compile (or load from the disk cache) every kernel once per process, on a 3x3 board.

    Both ways in are taken: the tree search, whose nodes call the H-search, and the
    root's H-search called from Python, whose argument types differ and so make a second
    compiled version.  A kernel first compiled during a move would spend that move's
    clock (tests/hex/test_hex_fast_mcts.py checks that moves compile nothing)."""
    global _warm
    if not _warm:
        FastHexSearch(3, 0).search([EMPTY] * 9, P1, None, 40)
        root_vcs = FastVcSearch(Board(3))
        for colour in (P1, P2):
            root_vcs.edge_connections([EMPTY] * 9, colour)
        _warm = True


# ---------------------------------------------------------------- compiled kernels
@njit(cache=True, _nrt=False)
def _random(state):
    """The next 64-bit xorshift64* number; ``state`` is a one-element uint64 array."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return x * np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True, _nrt=False)
def _below(state, bound):
    """A random integer in [0, bound)."""
    return np.int64((_random(state) >> np.uint64(33)) % np.uint64(bound))


@njit(cache=True, _nrt=False)
def _new_node(pool, cells, mover, tables, prior_weight, flags, pattern_tables, last, own_last, bonus):
    """Append a node for ``cells`` with ``mover`` to move; its index, or -1 if full
    (``bonus``: a float32 row of the cells' size to work in).

    Its RAVE counts start at the shape priors of mcts.HexSearch._seed_priors; with
    patterns on, its moves get their pattern priors (``_pattern_priors``).  ``last`` and
    ``own_last`` are the opponent's and the mover's last cells (-1: none).
    """
    n, w, rn, rw, child, movers, visits, meta, proven, known, prior = pool
    neighbours, replies, reply_count, partners, partner_count, left, is_right, opening, late, size = tables
    index = meta[0]
    if index >= n.shape[0]:
        return -1
    meta[0] = index + 1
    total = cells.shape[0]
    movers[index] = mover
    visits[index] = 0
    proven[index] = 0
    known[index] = 0
    n[index, :] = 0
    w[index, :] = 0.0
    child[index, :] = -1
    if flags[3]:
        _pattern_priors(prior[index], cells, mover, last, own_last, pattern_tables)
    if not flags[2]:
        rn[index, :] = 1.0
        rw[index, :] = 0.5
        return index
    stones = 0
    for c in range(total):
        if cells[c] != 0:
            stones += 1
    base = opening if stones < size else late
    bonus[:] = 0.0
    touch = 0.03 * prior_weight
    for s in range(total):
        colour = cells[s]
        if colour == 0:
            continue
        for k in range(6):
            x = neighbours[s, k]
            if x >= 0 and cells[x] == 0:
                bonus[x] += touch
        for k in range(partner_count[s]):
            y = partners[s, k, 0]
            a = partners[s, k, 1]
            b = partners[s, k, 2]
            if cells[a] == 0 and cells[b] == 0:
                if cells[y] == 0:
                    if colour == mover:
                        bonus[y] += 0.04 * prior_weight
                elif cells[y] == colour and colour != mover:
                    bonus[a] -= 0.08 * prior_weight
                    bonus[b] -= 0.08 * prior_weight
    cap = 0.06 * prior_weight
    for c in range(total):
        rn[index, c] = prior_weight
        rw[index, c] = base[c] + min(bonus[c], cap)
    return index


@njit(cache=True, _nrt=False)
def _pattern_priors(row, cells, mover, last, own_last, pattern_tables):
    """Fill ``row`` with each empty cell's pattern prior: its gamma (games/hex/patterns.py)
    over the sum of all empty cells' gammas."""
    slots, edge_class, near, powers, turned_powers, codes, code_gammas, ring6, near_gammas, \
        edge_gammas = pattern_tables
    total = 0.0
    for c in range(cells.shape[0]):
        row[c] = 0.0
        if cells[c] != 0:
            continue
        code = np.int64(0)
        turned = np.int64(0)
        for k in range(12):
            x = slots[mover, c, k]
            if x < 0:
                state = -x
            elif cells[x] == 0:
                state = 0
            elif cells[x] == mover:
                state = 1
            else:
                state = 2
            code += state * powers[k]
            turned += state * turned_powers[k]
            if k == 5:
                gamma = ring6[min(code, turned)]
        key = min(code, turned)
        at = np.searchsorted(codes, key)
        if at < codes.shape[0] and codes[at] == key:
            gamma *= code_gammas[at]
        nearby = 0
        if last >= 0:
            nearby += 3 * near[last, c]
        if own_last >= 0:
            nearby += near[own_last, c]
        gamma *= near_gammas[nearby] * edge_gammas[edge_class[mover, c]]
        row[c] = gamma
        total += gamma
    if total > 0.0:
        for c in range(cells.shape[0]):
            row[c] /= total


@njit(cache=True, _nrt=False)
def _select(node, cells, allowed, is_root, n, w, rn, rw, visits, child, proven, bias, explore, use_rave,
            prior, pattern_bias):
    """(the move UCT-RAVE picks at ``node``, an empty cell or -1 when none is left;
    whether every move there is lost: each one's child is a proven win for the opponent).

    With ``pattern_bias`` on, a move's value gains its pattern prior times the bias over
    the square root of its visits plus one (MoHex's progressive bias), a pull that fades
    as the move's own results come in.  A move into a proven win for the opponent is
    picked only when all of them are.
    """
    best = -1
    best_value = -1e30
    total = cells.shape[0]
    log_total = np.log(visits[node] + 1.0)
    for c in range(total):
        if cells[c] != 0 or (is_root and allowed[c] == 0):
            continue
        nc = n[node, c]
        if nc < 0:
            continue                        # pruned by the node's H-search
        r = rn[node, c]
        if use_rave:
            if nc > 0:
                beta = r / (r + nc + r * nc * bias)
                value = (1.0 - beta) * w[node, c] / nc + beta * rw[node, c] / r
            else:
                value = rw[node, c] / r
            if pattern_bias > 0.0:
                value += pattern_bias * prior[node, c] / np.sqrt(nc + 1.0)
        else:
            if nc > 0:
                value = w[node, c] / nc + explore * np.sqrt(log_total / nc)
            else:
                value = 1e6 + rw[node, c] / r
        below = child[node, c]
        if below >= 0 and proven[below] == PROVEN_WIN:
            value = LOST_MOVE
        if value > best_value:
            best = c
            best_value = value
    return best, best_value <= LOST_MOVE


@njit(cache=True, _nrt=False)
def _fill(cells, colour, last, order, rng, tables, bridge_playouts):
    """Play the empty cells out in a random order, saving bridges if configured."""
    neighbours, replies, reply_count, partners, partner_count, left, is_right, opening, late, size = tables
    total = 0
    for c in range(cells.shape[0]):
        if cells[c] == 0:
            order[total] = c
            total += 1
    for i in range(total - 1, 0, -1):        # Fisher-Yates
        j = _below(rng, i + 1)
        order[i], order[j] = order[j], order[i]
    i = 0
    while True:
        move = -1
        if bridge_playouts and last >= 0:
            for k in range(reply_count[colour, last]):
                y = replies[colour, last, k, 0]
                if cells[replies[colour, last, k, 1]] == colour and \
                        cells[replies[colour, last, k, 2]] == colour and cells[y] == 0:
                    move = y
                    break
        if move < 0:
            while i < total and cells[order[i]] != 0:
                i += 1
            if i == total:
                return
            move = order[i]
            i += 1
        cells[move] = colour
        last = move
        colour = 3 - colour


@njit(cache=True, _nrt=False)
def _winner(cells, tables, stack, seen):
    """The colour that wins a full board: player 1 if its stones join the columns."""
    neighbours, replies, reply_count, partners, partner_count, left, is_right, opening, late, size = tables
    seen[:] = 0
    top = 0
    for k in range(left.shape[0]):
        c = left[k]
        if cells[c] == 1:
            seen[c] = 1
            stack[top] = c
            top += 1
    while top > 0:
        top -= 1
        c = stack[top]
        if is_right[c]:
            return 1
        for k in range(6):
            x = neighbours[c, k]
            if x >= 0 and seen[x] == 0 and cells[x] == 1:
                seen[x] = 1
                stack[top] = x
                top += 1
    return 2


@njit(cache=True, _nrt=False)
def _run_playouts(count, root, start, allowed, pool, tables, params, flags, rng, expand_visits,
                  vc, knowledge_visits, pattern_tables, recent, scratch):
    """Run ``count`` playouts from ``root`` on ``start``; returns how many ran.

    A node other than the root that reaches ``knowledge_visits`` visits (0: never) gets
    its H-search (``_knowledge``).  A playout that reaches a proven node ends there with
    the proven winner, and updates no RAVE statistics (it has no full board).
    ``recent`` is (the root mover's last cell, the opponent's), for the pattern priors;
    ``scratch``: the arrays it works in (``_scratch``).
    """
    n, w, rn, rw, child, movers, visits, meta, proven, known, prior = pool
    bias, explore, prior_weight, pattern_bias = params[0], params[1], params[2], params[3]
    use_rave, bridge_playouts = flags[0], flags[1]
    total = start.shape[0]
    cells, order, stack, seen, path_nodes, path_moves, moves_before, region, owned, owned_cells, \
        bonus = scratch
    moves_before[0] = recent[0]
    moves_before[1] = recent[1]
    owned[:] = 0
    done = 0
    for _ in range(count):
        copy_row(cells, start)
        depth = 0
        node = root
        last = -1
        result = 0
        while True:
            if node != root:
                if knowledge_visits > 0 and known[node] == 0 and visits[node] >= knowledge_visits:
                    known[node] = 1
                    _knowledge(node, cells, pool, vc, region)
                if proven[node] != 0:
                    mover = movers[node]
                    result = mover if proven[node] == PROVEN_WIN else 3 - mover
                    parent = path_nodes[depth - 1]
                    if proven[node] == PROVEN_LOSS and parent != root:
                        proven[parent] = PROVEN_WIN      # the move into this node wins
                    break
            move, all_lost = _select(node, cells, allowed, node == root, n, w, rn, rw, visits,
                                     child, proven, bias, explore, use_rave, prior, pattern_bias)
            if move < 0:
                break
            if all_lost and node != root:        # MCTS-solver: every move loses
                proven[node] = PROVEN_LOSS
                continue                         # end the playout as at any proven node
            path_nodes[depth] = node
            path_moves[depth] = move
            moves_before[depth + 2] = move
            depth += 1
            cells[move] = movers[node]
            last = move
            nxt = child[node, move]
            if nxt < 0:
                if n[node, move] + 1 >= expand_visits:
                    made = _new_node(pool, cells, 3 - movers[node], tables, prior_weight, flags,
                                     pattern_tables, moves_before[depth + 1], moves_before[depth], bonus)
                    if made >= 0:
                        child[node, move] = made
                break
            node = nxt
        if depth == 0:
            break
        if result != 0:
            winner = result
        else:
            to_play = 3 - movers[path_nodes[depth - 1]]
            _fill(cells, to_play, last, order, rng, tables, bridge_playouts)
            winner = _winner(cells, tables, stack, seen)
            if use_rave:                     # each colour's cells, listed once a playout
                owned[1] = 0
                owned[2] = 0
                for c in range(total):
                    colour = cells[c]
                    owned_cells[colour, owned[colour]] = c
                    owned[colour] += 1
        for d in range(depth):
            node = path_nodes[d]
            move = path_moves[d]
            mover = movers[node]
            won = mover == winner
            visits[node] += 1
            n[node, move] += 1
            if won:
                w[node, move] += 1.0
            if use_rave and result == 0:
                for k in range(owned[mover]):
                    c = owned_cells[mover, k]
                    rn[node, c] += 1.0
                    if won:
                        rw[node, c] += 1.0
        done += 1
    return done


@njit(cache=True, _nrt=False)
def _knowledge(node, cells, pool, vc, region):
    """What the H-search says of ``node`` (position ``cells``), as MoHex asks at its nodes.

    The mover wins if it has an edge-to-edge VC or semi-connection (it plays the key);
    it loses if the opponent has a VC; otherwise moves outside the opponent's must-play
    region lose and are pruned (their count set to -1), and with none left it loses.
    """
    n, proven, movers = pool[0], pool[8], pool[5]
    mover = movers[node]
    if edge_status(vc, cells, mover, region) != NONE:
        proven[node] = PROVEN_WIN
        return
    theirs = edge_status(vc, cells, 3 - mover, region)
    if theirs == WON:
        proven[node] = PROVEN_LOSS
    elif theirs == SEMI:
        left = False
        for c in range(cells.shape[0]):
            if cells[c] == 0:
                if region[c] == 0:
                    n[node, c] = -1
                elif n[node, c] >= 0:
                    left = True
        if not left:
            proven[node] = PROVEN_LOSS


@njit(cache=True, _nrt=False)
def _best_move(root, start, allowed, n, w, rn, rw, child, proven):
    """The root move to play: a proven win if there is one; else the most visited move
    whose child is not a proven win for the opponent (any move if all are); ties go to
    the better mean, then RAVE, then the lower cell.

    A move proven lost keeps the visits it had before the proof, since selection stops
    trying it (MCTS-solver), so its count alone must not choose it.
    """
    best = -1
    best_rank = -1
    for c in range(start.shape[0]):
        if allowed[c] == 0 or start[c] != 0:
            continue
        below = child[root, c]
        rank = 1
        if below >= 0 and proven[below] == PROVEN_LOSS:
            rank = 2                         # the opponent to move there has lost
        elif below >= 0 and proven[below] == PROVEN_WIN:
            rank = 0
        if best < 0 or rank > best_rank:
            best, best_rank = c, rank
            continue
        if rank < best_rank:
            continue
        a = n[root, c]
        b = n[root, best]
        if a != b:
            if a > b:
                best = c
            continue
        mean_a = w[root, c] / a if a > 0 else 0.0
        mean_b = w[root, best] / b if b > 0 else 0.0
        if mean_a != mean_b:
            if mean_a > mean_b:
                best = c
            continue
        if rw[root, c] / rn[root, c] > rw[root, best] / rn[root, best]:
            best = c
    return best
