"""The H-search of vcs.py compiled with Numba, fast enough to ask inside the search tree.

The rules are those of games/hex/vcs.py (read its docstring first): nodes are the
colour's groups, its two edges and the empty cells; AND and OR rules build virtual
connections (VCs) and semi-connections from adjacency; a derived VC has a group at one
end except the semi-connections of two empty cells through a common neighbour.  What
differs is only the bookkeeping:

* carriers are rows of 64-bit words (``words = ceil(cells / 64)``), not Python ints;
* the tables are arrays made once per board size and cleared per search: for each pair
  of nodes up to ``max_full`` VCs and ``max_semi`` semis, and for each node the list of
  nodes it has a VC with;
* the work list has a fixed length; when it is full, new VCs are kept but not combined
  further.  Like keeping fewer carriers, that can only miss connections: every one
  reported holds (tests/hex/test_hex_fast_vcs.py checks that against the exhaustive
  solver).

``FastVcSearch`` answers as ``VcSearch`` does; ``edge_status`` is the compiled entry
the tree search (games/hex/fast_mcts.py) calls at its nodes.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from games.hex.mcts import Board
from games.hex.vcs import EdgeConnections, VcSearch

MAX_FULL = 4            # VCs kept per pair of nodes (the smallest carriers)
MAX_SEMI = 8            # semi-connections kept per pair
QUEUE = 1 << 15         # VCs waiting for the AND rule

NONE, SEMI, WON = 0, 1, 2       # edge_status: what the colour has between its edges


class FastVcSearch(VcSearch):
    """H-search for one board size (see the module docstring); answers as VcSearch,
    whose ``must_play`` and ``moves_worth_searching`` it inherits."""

    def __init__(self, board: Board, max_full: int | None = None, max_semi: int | None = None,
                 workspace: tuple | None = None):
        super().__init__(board)
        self.workspace = workspace if workspace is not None else make_workspace(board, max_full, max_semi)

    def edge_connections(self, cells: list[int], colour: int) -> EdgeConnections:
        """The edge-to-edge VCs and semi-connections ``colour`` has on ``cells``."""
        ws = self.workspace
        board = np.array(cells, dtype=np.int8)
        region = np.zeros(self.board.cells, dtype=np.uint8)
        status = edge_status(ws, board, colour, region)
        if status == WON and _joined(ws):
            return EdgeConnections((), (), joined=True)
        a, b = _edge_ids(ws)
        fulls = tuple(sorted((_to_int(ws[_FULLS][a, b, k]) for k in range(ws[_FULL_COUNT][a, b])),
                             key=_popcount))
        semis = tuple(sorted(((_to_int(ws[_SEMIS][a, b, k]), int(ws[_SEMI_KEY][a, b, k]))
                              for k in range(ws[_SEMI_COUNT][a, b])), key=lambda s: _popcount(s[0])))
        return EdgeConnections(fulls, semis)


def _popcount(value: int) -> int:
    return bin(value).count("1")


def _to_int(words: np.ndarray) -> int:
    return sum(int(word) << (64 * i) for i, word in enumerate(words))


# Positions in the workspace tuple.
(_NEIGHBOURS, _EDGE_A, _EDGE_B, _FULLS, _FULL_COUNT, _SEMIS, _SEMI_KEY, _SEMI_COUNT,
 _LINKS, _LINK_COUNT, _LINKED, _QUEUE_PAIRS, _QUEUE_CARRIERS, _SCRATCH, _INFO, _CELL_SCRATCH) = range(16)


def make_workspace(board: Board, max_full: int | None = None, max_semi: int | None = None) -> tuple:
    """The arrays one H-search works in, for ``board``'s size (about 12 MB on 11x11),
    keeping ``max_full`` VCs and ``max_semi`` semis a pair (MAX_FULL, MAX_SEMI if None)."""
    max_full, max_semi = max_full or MAX_FULL, max_semi or MAX_SEMI
    cells = board.cells
    words = (cells + 63) // 64
    nodes = 2 * cells + 2            # empty cells, two edges, at most one group a cell
    neighbours = np.full((cells, 6), -1, dtype=np.int32)
    for x, ring in enumerate(board.neighbours):
        neighbours[x, :len(ring)] = ring
    edge_a = np.zeros(cells, dtype=np.uint8)
    edge_b = np.zeros(cells, dtype=np.uint8)
    return (neighbours, edge_a, edge_b,
            np.zeros((nodes, nodes, max_full, words), dtype=np.uint64),
            np.zeros((nodes, nodes), dtype=np.int32),
            np.zeros((nodes, nodes, max_semi, words), dtype=np.uint64),
            np.zeros((nodes, nodes, max_semi), dtype=np.int32),
            np.zeros((nodes, nodes), dtype=np.int32),
            np.zeros((nodes, nodes), dtype=np.int32),
            np.zeros(nodes, dtype=np.int32),
            np.zeros((nodes, nodes), dtype=np.uint8),
            np.zeros((QUEUE, 2), dtype=np.int32),
            np.zeros((QUEUE, words), dtype=np.uint64),
            np.zeros((8, words), dtype=np.uint64),
            np.zeros(4, dtype=np.int64),     # [unused, queue top, joined, unused]
            np.zeros((3, cells), dtype=np.int32),   # a group search's stack and members, node ids
            )


def _edge_ids(ws) -> tuple[int, int]:
    cells = ws[_NEIGHBOURS].shape[0]
    return cells, cells + 1


def _joined(ws) -> bool:
    return bool(ws[_INFO][2])


# ---------------------------------------------------------------- compiled kernels
@njit(cache=True, _nrt=False)
def copy_row(target, source):
    """``target[:] = source``, element by element (a whole-array assignment may make a
    temporary copy, which needs the reference counting the kernels go without)."""
    for i in range(target.shape[0]):
        target[i] = source[i]


@njit(cache=True, _nrt=False)
def _subset(a, b):
    """Whether carrier ``a`` lies inside ``b``."""
    for i in range(a.shape[0]):
        if a[i] & ~b[i]:
            return False
    return True


@njit(cache=True, _nrt=False)
def _disjoint(a, b):
    for i in range(a.shape[0]):
        if a[i] & b[i]:
            return False
    return True


@njit(cache=True, _nrt=False)
def _empty(a):
    for i in range(a.shape[0]):
        if a[i]:
            return False
    return True


@njit(cache=True, _nrt=False)
def _equal(a, b):
    for i in range(a.shape[0]):
        if a[i] != b[i]:
            return False
    return True


@njit(cache=True, _nrt=False)
def _size(a):
    total = 0
    for i in range(a.shape[0]):
        x = a[i]
        while x:
            x &= x - np.uint64(1)
            total += 1
    return total


@njit(cache=True, _nrt=False)
def _has(a, cell):
    return (a[cell >> 6] >> np.uint64(cell & 63)) & np.uint64(1) != 0


@njit(cache=True, _nrt=False)
def _set(a, cell):
    a[cell >> 6] |= np.uint64(1) << np.uint64(cell & 63)


@njit(cache=True, _nrt=False)
def _link(ws, a, b):
    links, link_count, linked = ws[8], ws[9], ws[10]
    if linked[a, b]:
        return
    linked[a, b] = 1
    linked[b, a] = 1
    links[a, link_count[a]] = b
    link_count[a] += 1
    links[b, link_count[b]] = a
    link_count[b] += 1


@njit(cache=True, _nrt=False)
def _add_full(ws, a, b, carrier):
    """Keep VC a-b with ``carrier`` unless a VC inside it is known; queue it for AND."""
    fulls, full_count, semis, semi_count = ws[3], ws[4], ws[5], ws[7]
    queue_pairs, queue_carriers, info = ws[11], ws[12], ws[14]
    if a > b:
        a, b = b, a
    count = full_count[a, b]
    for k in range(count):
        if _subset(fulls[a, b, k], carrier):
            return
    if count >= fulls.shape[2]:
        largest = 0
        for k in range(1, count):
            if _size(fulls[a, b, k]) > _size(fulls[a, b, largest]):
                largest = k
        if _size(fulls[a, b, largest]) <= _size(carrier):
            return
        count -= 1
        copy_row(fulls[a, b, largest], fulls[a, b, count])
    k = 0
    while k < count:
        if _subset(carrier, fulls[a, b, k]):
            count -= 1
            copy_row(fulls[a, b, k], fulls[a, b, count])
        else:
            k += 1
    copy_row(fulls[a, b, count], carrier)
    full_count[a, b] = count + 1
    _link(ws, a, b)
    k = 0
    semi_total = semi_count[a, b]
    while k < semi_total:
        if _subset(carrier, semis[a, b, k]):
            semi_total -= 1
            copy_row(semis[a, b, k], semis[a, b, semi_total])
            ws[6][a, b, k] = ws[6][a, b, semi_total]
        else:
            k += 1
    semi_count[a, b] = semi_total
    top = info[1]
    if top < queue_pairs.shape[0]:
        queue_pairs[top, 0] = a
        queue_pairs[top, 1] = b
        copy_row(queue_carriers[top], carrier)
        info[1] = top + 1


@njit(cache=True, _nrt=False)
def _add_semi(ws, a, b, carrier, key):
    """Keep semi a-b (``carrier``, ``key``); the OR rule may turn the pair's semis into a VC."""
    fulls, full_count, semis, semi_key, semi_count, scratch = ws[3], ws[4], ws[5], ws[6], ws[7], ws[13]
    if a > b:
        a, b = b, a
    for k in range(full_count[a, b]):
        if _subset(fulls[a, b, k], carrier):
            return
    count = semi_count[a, b]
    for k in range(count):
        if _subset(semis[a, b, k], carrier):
            return
    k = 0
    while k < count:
        if _subset(carrier, semis[a, b, k]):
            count -= 1
            copy_row(semis[a, b, k], semis[a, b, count])
            semi_key[a, b, k] = semi_key[a, b, count]
        else:
            k += 1
    semi_count[a, b] = count
    if count >= semis.shape[2]:
        return
    common, union, joined = scratch[2], scratch[3], scratch[4]
    copy_row(common, carrier)
    copy_row(union, carrier)
    for k in range(count):
        other = semis[a, b, k]
        if _disjoint(other, carrier):
            for i in range(joined.shape[0]):
                joined[i] = other[i] | carrier[i]
            _add_full(ws, a, b, joined)
            return
        if not _subset(common, other):
            for i in range(common.shape[0]):
                common[i] &= other[i]
                union[i] |= other[i]
            if _empty(common):
                _add_full(ws, a, b, union)
                return
    copy_row(semis[a, b, count], carrier)
    semi_key[a, b, count] = key
    semi_count[a, b] = count + 1


@njit(cache=True, _nrt=False)
def _number_nodes(ws, cells, colour, node_of):
    """Give each group of ``colour`` a node id (a group on an edge is that edge's node);
    returns the number of nodes, or -1 when one group touches both edges."""
    neighbours, edge_a, edge_b = ws[0], ws[1], ws[2]
    total = cells.shape[0]
    first_group = total + 2
    next_id = first_group
    stack, group = ws[15][0], ws[15][1]
    for c in range(total):
        node_of[c] = c if cells[c] == 0 else -1
    for start in range(total):
        if cells[start] != colour or node_of[start] >= 0:
            continue
        touches_a = False
        touches_b = False
        members = 0
        stack[0] = start
        top = 1
        node_of[start] = next_id
        while top > 0:
            top -= 1
            s = stack[top]
            group[members] = s
            members += 1
            touches_a = touches_a or edge_a[s] == 1
            touches_b = touches_b or edge_b[s] == 1
            for k in range(6):
                x = neighbours[s, k]
                if x >= 0 and cells[x] == colour and node_of[x] < 0:
                    node_of[x] = next_id
                    stack[top] = x
                    top += 1
        if touches_a and touches_b:
            return -1
        if touches_a or touches_b:
            edge = total if touches_a else total + 1
            for m in range(members):
                node_of[group[m]] = edge
        else:
            next_id += 1
    return next_id


@njit(cache=True, _nrt=False)
def _clear(ws, nodes):
    ws[4][:nodes, :nodes] = 0
    ws[7][:nodes, :nodes] = 0
    ws[10][:nodes, :nodes] = 0
    ws[9][:nodes] = 0
    ws[14][1] = 0


@njit(cache=True, _nrt=False)
def _and_rule(ws, total):
    """Combine every queued VC with its neighbours' VCs until the queue is empty."""
    fulls, full_count, links, link_count = ws[3], ws[4], ws[8], ws[9]
    queue_pairs, queue_carriers, scratch, info = ws[11], ws[12], ws[13], ws[14]
    current, combined = scratch[0], scratch[1]
    while info[1] > 0:
        info[1] -= 1
        top = info[1]
        a = queue_pairs[top, 0]
        b = queue_pairs[top, 1]
        copy_row(current, queue_carriers[top])
        present = False
        for k in range(full_count[a, b]):
            if _equal(fulls[a, b, k], current):
                present = True
                break
        if not present:
            continue                     # replaced by a smaller carrier since it was queued
        for side in range(2):
            end = a if side == 0 else b
            middle = b if side == 0 else a
            end_cell = end < total
            middle_cell = middle < total
            current_empty = _empty(current)
            for i in range(link_count[middle]):
                other = links[middle, i]
                if other == end:
                    continue
                empty_pair = end_cell and other < total
                if empty_pair and (not current_empty or not middle_cell):
                    continue             # empty-to-empty: through a neighbour only
                if other < total and _has(current, other):
                    continue
                lo, hi = (middle, other) if middle < other else (other, middle)
                for s in range(full_count[lo, hi]):
                    second = fulls[lo, hi, s]
                    if not _disjoint(second, current):
                        continue
                    if end_cell and _has(second, end):
                        continue
                    if empty_pair and not _empty(second):
                        continue
                    for w in range(combined.shape[0]):
                        combined[w] = current[w] | second[w]
                    if middle_cell:
                        _set(combined, middle)
                        _add_semi(ws, end, other, combined, middle)
                    else:
                        _add_full(ws, end, other, combined)


@njit(cache=True, _nrt=False)
def edge_status(ws, cells, colour, region):
    """H-search for ``colour`` on ``cells`` (int8 array; 0 empty, 1 and 2 the colours).

    Returns WON (its edges joined or virtually joined), SEMI or NONE.  ``region``
    (uint8 per cell) is set to the must-play region an opponent to move is confined to:
    the cells in every edge-to-edge carrier, VC or semi (all ones when there is none).
    """
    neighbours = ws[0]
    edge_a, edge_b, info = ws[1], ws[2], ws[14]
    total = cells.shape[0]
    size = np.int64(np.sqrt(total) + 0.5)
    for c in range(total):
        r = c // size
        col = c % size
        if colour == 1:
            edge_a[c] = 1 if col == 0 else 0
            edge_b[c] = 1 if col == size - 1 else 0
        else:
            edge_a[c] = 1 if r == 0 else 0
            edge_b[c] = 1 if r == size - 1 else 0
    node_of = ws[15][2]
    nodes = _number_nodes(ws, cells, colour, node_of)
    region[:] = 1
    info[2] = 0
    if nodes < 0:
        info[2] = 1
        region[:] = 0
        return 2
    _clear(ws, nodes)
    zero = ws[13][5]
    zero[:] = 0
    for c in range(total):
        if cells[c] != 0:
            continue
        for k in range(6):
            x = neighbours[c, k]
            if x < 0:
                continue
            if cells[x] == 0:
                if x > c:
                    _add_full(ws, c, x, zero)
            elif cells[x] == colour:
                _add_full(ws, c, node_of[x], zero)
        if edge_a[c]:
            _add_full(ws, c, total, zero)
        if edge_b[c]:
            _add_full(ws, c, total + 1, zero)
    _and_rule(ws, total)
    a, b = total, total + 1
    fulls, full_count, semis, semi_count = ws[3], ws[4], ws[5], ws[7]
    if full_count[a, b] == 0 and semi_count[a, b] == 0:
        return 0
    common = ws[13][6]
    common[:] = ~np.uint64(0)
    for k in range(full_count[a, b]):
        for w in range(common.shape[0]):
            common[w] &= fulls[a, b, k, w]
    for k in range(semi_count[a, b]):
        for w in range(common.shape[0]):
            common[w] &= semis[a, b, k, w]
    for c in range(total):
        region[c] = 1 if _has(common, c) else 0
    return 2 if full_count[a, b] > 0 else 1
