"""Monte Carlo tree search for Hex on a flat board (pure Python, standard library only).

The search is MoHex-style UCT with RAVE (all-moves-as-first statistics):

* a playout fills every empty cell, alternately, in a seeded random order, and the
  winner is found once at the end with one flood fill (a full Hex board has exactly one
  winner);
* the playout policy answers an intrusion into one of the mover's bridges (two stones
  that share two empty neighbours) or edge templates by taking the other cell, which is
  what keeps random playouts from throwing away safe connections;
* every node keeps, per cell, visit/win counts and RAVE counts; a child's value blends
  the two with ``beta = rave_n / (rave_n + n + rave_n * n * RAVE_BIAS)``; priors seed the
  RAVE counts from local shape (bridges, adjacency, edges, distance to the centre);
* the tree survives between moves: when the new position is two plies below the old
  root, the search continues from that grandchild.

Cells are indexed row-major, 0-based: ``r * size + c``.  Colours are 1 (player 1: joins
column 0 and column size-1) and 2 (player 2: joins row 0 and row size-1).
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

EMPTY, P1, P2 = 0, 1, 2
NEIGHBOUR_STEPS = ((-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1))  # in turning order


@dataclass(frozen=True)
class SearchConfig:
    """Knobs that set a level's strength."""

    use_rave: bool = True
    bridge_playouts: bool = True
    use_priors: bool = True
    exploration: float = 0.0         # UCB constant; 0 is best with RAVE in Hex
    rave_bias: float = 0.0005
    prior_weight: float = 12.0       # how many virtual RAVE visits the prior is worth
    expand_after: int = 1            # visits a leaf needs before it grows a child
    reuse_tree: bool = True
    knowledge_visits: int = 0        # compiled search only: a node's H-search after this many visits
    pattern_bias: float = 0.0        # compiled search only: weight of the pattern priors in selection


class Board:
    """Geometry of an N×N board: neighbours, bridge patterns, edge cells."""

    def __init__(self, size: int, prior_weight: float = 12.0):
        self.size = size
        n = size
        self.cells = n * n
        self.neighbours: list[tuple[int, ...]] = []
        self.ring: list[list[int | None]] = []      # the six neighbours in turning order
        for index in range(self.cells):
            r, c = divmod(index, n)
            ring = []
            for dr, dc in NEIGHBOUR_STEPS:
                rr, cc = r + dr, c + dc
                ring.append(rr * n + cc if 0 <= rr < n and 0 <= cc < n else None)
            self.ring.append(ring)
            self.neighbours.append(tuple(x for x in ring if x is not None))
        self.left = [r * n for r in range(n)]
        self.top = list(range(n))
        self.is_right = bytearray(1 if i % n == n - 1 else 0 for i in range(self.cells))
        self.is_bottom = bytearray(1 if i // n == n - 1 else 0 for i in range(self.cells))
        self.replies = {P1: self._replies(P1), P2: self._replies(P2)}
        self.bridge_partners = self._bridge_partners()
        self.opening_prior, self.late_prior = self._base_priors(prior_weight)

    def _base_priors(self, weight: float) -> tuple[list[float], list[float]]:
        """Prior RAVE wins per cell before local shape: centre first early, edges worse."""
        n = self.size
        half = (n - 1) / 2 or 1.0
        opening, late = [], []
        for index in range(self.cells):
            r, c = divmod(index, n)
            value = 0.5 - (0.04 if min(r, c, n - 1 - r, n - 1 - c) == 0 else 0.0)
            late.append(weight * value)
            opening.append(weight * (value - 0.05 * self.centre_distance(index) / half))
        return opening, late

    def _replies(self, colour: int) -> list[tuple[tuple[int, int, int], ...]]:
        """For each cell x: (reply, a, b) meaning "if a and b are ours and x was just taken,
        take reply" -- the bridge a-b (carrier x, reply) or the edge template a-edge."""
        n = self.size
        table: list[list[tuple[int, int, int]]] = [[] for _ in range(self.cells)]
        for x in range(self.cells):
            ring = self.ring[x]
            for k in range(6):
                y = ring[k]
                if y is None:
                    continue
                a, b = ring[(k - 1) % 6], ring[(k + 1) % 6]
                if a is not None and b is not None:
                    table[x].append((y, a, b))
        # Edge template: a stone on the second line reaches the edge through two cells.
        for s in range(self.cells):
            r, c = divmod(s, n)
            if colour == P2:
                pairs = []
                if r == 1:
                    pairs.append((0 * n + c, 0 * n + c + 1) if c + 1 < n else None)
                if r == n - 2:
                    pairs.append(((n - 1) * n + c, (n - 1) * n + c - 1) if c - 1 >= 0 else None)
            else:
                pairs = []
                if c == 1:
                    pairs.append((r * n, (r + 1) * n) if r + 1 < n else None)
                if c == n - 2:
                    pairs.append((r * n + n - 1, (r - 1) * n + n - 1) if r - 1 >= 0 else None)
            for pair in pairs:
                if pair is None or n < 3:
                    continue
                x, y = pair
                table[x].append((y, s, s))
                table[y].append((x, s, s))
        return [tuple(t) for t in table]

    def _bridge_partners(self) -> list[tuple[tuple[int, int, int], ...]]:
        """For each cell: (partner, carrier1, carrier2) for every bridge it can form."""
        result = []
        for x in range(self.cells):
            ring = self.ring[x]
            found = []
            for k in range(6):
                a, b = ring[k], ring[(k + 1) % 6]
                if a is None or b is None:
                    continue
                # the cell across the a-b edge from x: common neighbour of a and b other than x
                common = [y for y in self.neighbours[a] if y in self.neighbours[b] and y != x]
                for y in common:
                    found.append((y, a, b))
            result.append(tuple(found))
        return result

    def edges(self, colour: int) -> tuple[list[int], list[int]]:
        """The cells of the two edges ``colour`` joins: columns for P1, rows for P2."""
        n = self.size
        if colour == P1:
            return [r * n for r in range(n)], [r * n + n - 1 for r in range(n)]
        return list(range(n)), [(n - 1) * n + c for c in range(n)]

    def centre_distance(self, index: int) -> float:
        """Hex distance from the board's centre, in cells."""
        n = self.size
        r, c = divmod(index, n)
        dr, dc = r - (n - 1) / 2, c - (n - 1) / 2
        return max(abs(dr), abs(dc), abs(dr + dc))


class Node:
    """Statistics for the choices of one position (``mover`` is the colour to move)."""

    __slots__ = ("mover", "moves", "n", "w", "rn", "rw", "children", "visits")

    def __init__(self, mover: int, moves: list[int], cells: int):
        self.mover = mover
        self.moves = moves
        self.n = [0] * cells
        self.w = [0.0] * cells
        self.rn = [1.0] * cells
        self.rw = [0.5] * cells
        self.children: dict[int, Node] = {}
        self.visits = 0


class HexSearch:
    """One side's search engine for a board size; keeps its tree between moves."""

    def __init__(self, size: int, seed: int, config: SearchConfig | None = None):
        self.config = config or SearchConfig()
        self.board = Board(size, self.config.prior_weight)
        self.rng = random.Random(seed)
        self.root: Node | None = None
        self.root_cells: list[int] | None = None
        self.playouts = 0

    # ------------------------------------------------------------------ helpers
    def winner_of_full(self, cells: list[int]) -> int:
        """Colour that wins a completely filled board."""
        b = self.board
        nb, is_right = b.neighbours, b.is_right
        seen = bytearray(b.cells)
        stack = [c for c in b.left if cells[c] == P1]
        for c in stack:
            seen[c] = 1
        while stack:
            c = stack.pop()
            if is_right[c]:
                return P1
            for x in nb[c]:
                if not seen[x] and cells[x] == P1:
                    seen[x] = 1
                    stack.append(x)
        return P2

    def joined(self, cells: list[int], colour: int) -> bool:
        """Whether a chain of ``colour`` already joins its two edges."""
        side_a, side_b = self.board.edges(colour)
        target = set(side_b)
        stack = [c for c in side_a if cells[c] == colour]
        seen = set(stack)
        while stack:
            c = stack.pop()
            if c in target:
                return True
            for x in self.board.neighbours[c]:
                if x not in seen and cells[x] == colour:
                    seen.add(x)
                    stack.append(x)
        return False

    def winning_cells(self, cells: list[int], colour: int) -> list[int]:
        """Empty cells where a stone of ``colour`` would join its two edges at once."""
        side_a, side_b = self.board.edges(colour)
        reach_a = self._edge_reach(cells, colour, side_a)
        reach_b = self._edge_reach(cells, colour, side_b)
        return sorted(c for c in reach_a & reach_b if cells[c] == EMPTY)

    def _edge_reach(self, cells: list[int], colour: int, edge: list[int]) -> set[int]:
        """Empty cells touching the edge or a group of ``colour`` that touches it."""
        nb = self.board.neighbours
        reach = {c for c in edge if cells[c] == EMPTY}
        stack = [c for c in edge if cells[c] == colour]
        seen = set(stack)
        while stack:
            c = stack.pop()
            for x in nb[c]:
                v = cells[x]
                if v == colour and x not in seen:
                    seen.add(x)
                    stack.append(x)
                elif v == EMPTY:
                    reach.add(x)
        return reach

    # ------------------------------------------------------------------ priors
    def _new_node(self, cells: list[int], mover: int, moves: list[int]) -> Node:
        node = Node(mover, moves, self.board.cells)
        if self.config.use_priors:
            self._seed_priors(node, cells)
        return node

    def _seed_priors(self, node: Node, cells: list[int]) -> None:
        """Virtual RAVE results from local shape (what MoHex calls prior knowledge).

        A base value by position (centre early, edges worse), raised for cells touching
        stones and for cells that make a bridge with the mover's stones, lowered for
        intrusions into the opponent's bridges.  Work is per stone, not per empty cell.
        """
        b = self.board
        mover = node.mover
        weight = self.config.prior_weight
        stones = b.cells - len(node.moves)
        node.rn = [weight] * b.cells
        rw = node.rw = (b.opening_prior if stones < b.size else b.late_prior)[:]
        bonus: dict[int, float] = {}
        nb, partners = b.neighbours, b.bridge_partners
        touch = 0.03 * weight
        for s in range(b.cells):
            colour = cells[s]
            if colour == EMPTY:
                continue
            for x in nb[s]:
                if cells[x] == EMPTY:
                    bonus[x] = bonus.get(x, 0.0) + touch
            for y, a, c in partners[s]:
                if cells[a] == EMPTY and cells[c] == EMPTY:
                    if cells[y] == EMPTY:
                        if colour == mover:
                            bonus[y] = bonus.get(y, 0.0) + 0.04 * weight
                    elif cells[y] == colour and colour != mover:
                        bonus[a] = bonus.get(a, 0.0) - 0.08 * weight
                        bonus[c] = bonus.get(c, 0.0) - 0.08 * weight
        cap = 0.06 * weight
        for x, extra in bonus.items():
            rw[x] += extra if extra < cap else cap

    # ------------------------------------------------------------------ search
    def search(self, cells: list[int], mover: int, deadline: float | None,
               max_playouts: int | None, candidates: list[int] | None = None,
               filled: list[int] | None = None, recent: tuple[int, int] = (-1, -1)) -> int:
        """Best cell for ``mover`` on ``cells`` (never mutated) within the limits.

        ``filled`` is ``cells`` with inferior cells filled in (games/hex/inferior.py):
        playouts start from it, so the tree never plays into those cells.  ``recent``
        (the last two cells played) is for the compiled search's pattern priors.
        """
        root = self._reuse_or_new_root(cells, mover)
        if candidates is not None:
            root.moves = list(candidates)
        if filled is not None and not any(filled[c] == EMPTY for c in root.moves):
            filled = None
        if len(root.moves) == 1:
            return root.moves[0]
        self.playouts = 0
        limit = max_playouts if max_playouts is not None else 1 << 60
        clock = time.perf_counter
        while self.playouts < limit:
            if deadline is not None and clock() >= deadline:
                break
            self._one_playout(root, filled or cells)
            self.playouts += 1
            if self.playouts % 64 == 0 and self._decided(root, limit, deadline):
                break
        return self._best(root)

    def _decided(self, root: Node, limit: int, deadline: float | None) -> bool:
        """Stop early when no remaining playouts could change the most-visited move."""
        if deadline is not None:
            return False     # time-limited: the estimate of remaining playouts is loose
        counts = sorted((root.n[m] for m in root.moves), reverse=True)
        return len(counts) > 1 and counts[0] - counts[1] > limit - self.playouts

    def _best(self, root: Node) -> int:
        return max(root.moves, key=lambda m: (root.n[m], root.w[m] / (root.n[m] or 1),
                                              root.rw[m] / root.rn[m], -m))

    def _reuse_or_new_root(self, cells: list[int], mover: int) -> Node:
        old = self.root
        if self.config.reuse_tree and old is not None and self.root_cells is not None:
            node = self._descend_to(old, self.root_cells, cells, mover)
            if node is not None:
                self.root, self.root_cells = node, cells[:]
                return node
        moves = [c for c in range(self.board.cells) if cells[c] == EMPTY]
        self.root = self._new_node(cells, mover, moves)
        self.root_cells = cells[:]
        return self.root

    def _descend_to(self, node: Node, old: list[int], new: list[int], mover: int) -> Node | None:
        """The node of ``new`` if it lies within two plies under the old root's tree."""
        added = [c for c in range(len(new)) if new[c] != old[c]]
        if any(old[c] != EMPTY for c in added) or len(added) > 2:
            return None
        path = []
        colour = node.mover
        pending = set(added)
        while pending:
            step = next((c for c in pending if new[c] == colour), None)
            if step is None or step not in node.children:
                return None
            path.append(step)
            pending.discard(step)
            node = node.children[step]
            colour = 3 - colour
        if node.mover != mover or not added:
            return None
        node.moves = [c for c in node.moves if new[c] == EMPTY]
        return node

    def _one_playout(self, root: Node, start: list[int]) -> None:
        config = self.config
        cells = start[:]
        path = []
        node = root
        last = -1
        use_rave = config.use_rave
        while True:
            move = self._select(node, use_rave)
            if cells[move] != EMPTY:     # filled in since this node was made
                node.moves.remove(move)
                if node.moves:
                    continue
                break
            path.append((node, move))
            cells[move] = node.mover
            last = move
            child = node.children.get(move)
            if child is None:
                if node.visits >= config.expand_after:
                    # From the board, not the parent's list: a root may be restricted.
                    moves = [c for c in range(len(cells)) if cells[c] == EMPTY]
                    if moves:
                        node.children[move] = self._new_node(cells, 3 - node.mover, moves)
                break
            node = child
            if not node.moves:
                break
        to_play = 3 - path[-1][0].mover
        self._fill(cells, to_play, last)
        winner = self.winner_of_full(cells)
        self._update(path, cells, winner, use_rave)

    def _select(self, node: Node, use_rave: bool) -> int:
        n, w, rn, rw = node.n, node.w, node.rn, node.rw
        best, best_value = -1, -1e9
        bias = self.config.rave_bias
        explore = self.config.exploration
        if use_rave:
            for c in node.moves:
                nc = n[c]
                r = rn[c]
                if nc:
                    beta = r / (r + nc + r * nc * bias)
                    value = (1.0 - beta) * w[c] / nc + beta * rw[c] / r
                else:
                    value = rw[c] / r
                if value > best_value:
                    best, best_value = c, value
        else:
            log_total = math.log(node.visits + 1)
            for c in node.moves:
                nc = n[c]
                if nc:
                    value = w[c] / nc + explore * math.sqrt(log_total / nc)
                else:
                    value = 1e6 + rw[c] / rn[c] + self.rng.random()
                if value > best_value:
                    best, best_value = c, value
        return best

    def _fill(self, cells: list[int], colour: int, last: int) -> None:
        """Random playout to a full board, answering bridge intrusions if configured."""
        rnd = self.rng.random
        order = sorted([c for c in range(len(cells)) if cells[c] == EMPTY], key=lambda _: rnd())
        if not self.config.bridge_playouts:
            other = 3 - colour
            for c in order[0::2]:
                cells[c] = colour
            for c in order[1::2]:
                cells[c] = other
            return
        replies = self.board.replies
        total = len(order)
        i = 0
        while True:
            move = -1
            if last >= 0:
                for y, a, b in replies[colour][last]:
                    if cells[a] == colour and cells[b] == colour and cells[y] == EMPTY:
                        move = y
                        break
            if move < 0:
                while i < total and cells[order[i]] != EMPTY:
                    i += 1
                if i == total:
                    return
                move = order[i]
                i += 1
            cells[move] = colour
            last = move
            colour = 3 - colour

    def _update(self, path, cells: list[int], winner: int, use_rave: bool) -> None:
        if use_rave:
            p1 = [c for c in range(len(cells)) if cells[c] == P1]
            p2 = [c for c in range(len(cells)) if cells[c] == P2]
        for node, move in path:
            node.visits += 1
            node.n[move] += 1
            won = node.mover == winner
            if won:
                node.w[move] += 1.0
            if use_rave:
                rn, rw = node.rn, node.rw
                if won:
                    for c in (p1 if node.mover == P1 else p2):
                        rn[c] += 1.0
                        rw[c] += 1.0
                else:
                    for c in (p1 if node.mover == P1 else p2):
                        rn[c] += 1.0
