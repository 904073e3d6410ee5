"""Virtual connections for Hex: H-search over one colour's groups (pure Python).

A *virtual connection* (VC) between two of a colour's nodes is a set of empty cells,
its *carrier*, inside which that colour keeps the two joined whatever the opponent
plays: when the opponent takes a carrier cell, the colour answers inside the carrier.
A *semi-connection* needs one more move of the colour's own, its *key*, to become one.

Nodes are the colour's groups (stones joined side by side; the two edges it must join
count as groups) and the empty cells.  The search starts from adjacency (a VC with an
empty carrier) and applies Anshelevich's two rules until nothing new appears:

* AND: VCs x-m and m-y with disjoint carriers that avoid x and y give a VC x-y through
  m when m is one of the colour's groups, and a semi-connection with key m when m is
  an empty cell;
* OR: semi-connections x-y whose carriers have nothing in common make a VC x-y (the
  opponent cannot stop all of them with one stone).

Two limits keep it fast enough for the bot: a derived VC must have a group at one end,
except that two empty cells get the semi-connections through a common neighbour (and
so their bridges), and each pair keeps a few of its smallest carriers.  Keeping fewer
VCs only misses some; every VC it reports holds.  (Deriving the empty cells' bridges
finds an edge-to-edge VC or semi for 80 rather than 66 sides of the same positions from
four self-play games, at about twice the time: 7 ms rather than 3.4 ms a side on 9x9
and 11x11.)

Carriers are bit masks over the cells (bit ``r * size + c``, the index of mcts.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from games.hex.mcts import EMPTY, Board

MAX_FULL = 3            # VCs kept per pair of nodes (the smallest carriers)
MAX_SEMI = 6            # semi-connections kept per pair


@dataclass(frozen=True)
class EdgeConnections:
    """What one colour has between its two edges."""

    fulls: tuple[int, ...]                   # carriers of edge-to-edge VCs
    semis: tuple[tuple[int, int], ...]       # (carrier, key) of edge-to-edge semis
    joined: bool = False                     # a chain of stones already joins the edges

    @property
    def won(self) -> bool:
        """The colour wins whoever moves: its edges are joined or virtually joined."""
        return self.joined or bool(self.fulls)

    def must_play(self, all_cells: int) -> int:
        """Cells where the opponent, to move, can still stop this colour (a bit mask).

        Outside the carrier of any edge-to-edge VC or semi-connection the opponent
        loses: the VC stands, or the colour plays the semi's key.  So the opponent must
        play in every carrier at once, their intersection.
        """
        region = all_cells
        for carrier in self.fulls:
            region &= carrier
        for carrier, _key in self.semis:
            region &= carrier
        return 0 if self.joined else region


class VcSearch:
    """H-search for one board size (see the module docstring)."""

    def __init__(self, board: Board):
        self.board = board
        self.all_cells = (1 << board.cells) - 1

    def edge_connections(self, cells: list[int], colour: int) -> EdgeConnections:
        """The edge-to-edge VCs and semi-connections ``colour`` has on ``cells``."""
        run = _Run(self.board, cells, colour)
        if run.edge_a == run.edge_b:
            return EdgeConnections((), (), joined=True)
        run.search()
        pair = run.key(run.edge_a, run.edge_b)
        fulls = tuple(sorted(run.fulls.get(pair, ()), key=_size))
        semis = tuple(sorted(run.semis.get(pair, ()), key=lambda s: _size(s[0])))
        return EdgeConnections(fulls, semis)

    def must_play(self, cells: list[int], mover: int) -> list[int] | None:
        """Cells ``mover`` must choose from to stop the opponent's VCs, or None.

        None when the opponent has no edge-to-edge VC or semi-connection (no
        restriction).  An empty list means every move loses against best play.
        """
        theirs = self.edge_connections(cells, 3 - mover)
        if not theirs.fulls and not theirs.semis:
            return None
        region = theirs.must_play(self.all_cells)
        return [c for c in range(self.board.cells) if region >> c & 1 and cells[c] == EMPTY]

    def moves_worth_searching(self, cells: list[int], mover: int) -> list[int] | None:
        """The cells a search for ``mover`` need consider, or None for all of them.

        A semi-connection of ``mover``'s between the edges wins: its key alone.  With a
        VC already, any move keeps it; the carrier's cells end the game soonest.
        Otherwise only the cells that stop every one of the opponent's VCs and semis
        (none of them when nothing does: the game is lost anyway, so no restriction).
        """
        ours = self.edge_connections(cells, mover)
        if ours.fulls:
            carrier = ours.fulls[0]
            return [c for c in range(self.board.cells) if carrier >> c & 1] or None
        if ours.semis:
            return [ours.semis[0][1]]
        return self.must_play(cells, mover) or None


def _size(mask: int) -> int:
    return bin(mask).count("1")


class _Run:
    """One H-search: node numbering, the VC tables and the work list."""

    def __init__(self, board: Board, cells: list[int], colour: int):
        self.colour = colour
        self.fulls: dict[tuple[int, int], list[int]] = {}
        self.semis: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self.links: dict[int, dict[int, list[int]]] = {}   # node -> node -> VC carriers
        self.pending: list[tuple[int, int, int]] = []
        self.empty_nodes = board.cells                     # ids below this are empty cells
        self._number_groups(board, cells, colour)
        self._add_adjacency(board, cells)

    # ----------------------------------------------------------- nodes
    def _number_groups(self, board: Board, cells: list[int], colour: int) -> None:
        """Give each group of ``colour`` an id; the edges are groups too."""
        base = board.cells
        edge_a, edge_b = board.edges(colour)
        self.group_of: dict[int, int] = {}
        parent = {base: base, base + 1: base + 1}

        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        next_id = base + 2
        for start in range(board.cells):
            if cells[start] != colour or start in self.group_of:
                continue
            gid = next_id
            next_id += 1
            parent[gid] = gid
            stack = [start]
            self.group_of[start] = gid
            while stack:
                s = stack.pop()
                for x in board.neighbours[s]:
                    if cells[x] == colour and x not in self.group_of:
                        self.group_of[x] = gid
                        stack.append(x)
        # a group on an edge is that edge
        for edge_id, edge in ((base, edge_a), (base + 1, edge_b)):
            for s in edge:
                if cells[s] == colour:
                    parent[find(self.group_of[s])] = find(edge_id)
        for s, gid in self.group_of.items():
            self.group_of[s] = find(gid)
        self.edge_a, self.edge_b = find(base), find(base + 1)
        self.edge_cells = ((self.edge_a, edge_a), (self.edge_b, edge_b))

    def _add_adjacency(self, board: Board, cells: list[int]) -> None:
        """Adjacent nodes are joined with an empty carrier."""
        for c in range(board.cells):
            if cells[c] != EMPTY:
                continue
            for x in board.neighbours[c]:
                if cells[x] == EMPTY:
                    if x > c:
                        self.add_full(c, x, 0)
                elif cells[x] == self.colour:
                    self.add_full(c, self.group_of[x], 0)
        for edge_id, edge in self.edge_cells:
            for c in edge:
                if cells[c] == EMPTY:
                    self.add_full(c, edge_id, 0)

    @staticmethod
    def key(a: int, b: int) -> tuple[int, int]:
        return (a, b) if a < b else (b, a)

    # ----------------------------------------------------------- tables

    def add_full(self, a: int, b: int, carrier: int) -> None:
        pair = self.key(a, b)
        known = self.fulls.setdefault(pair, [])
        for other in known:
            if other & carrier == other:
                return                                 # an existing VC needs no more
        if len(known) >= MAX_FULL:
            largest = max(known, key=_size)
            if _size(largest) <= _size(carrier):
                return
            self._drop_full(a, b, largest)
        for other in [f for f in known if f & carrier == carrier]:
            self._drop_full(a, b, other)
        known.append(carrier)
        self.links.setdefault(a, {}).setdefault(b, []).append(carrier)
        self.links.setdefault(b, {}).setdefault(a, []).append(carrier)
        semis = self.semis.get(pair)
        if semis:
            semis[:] = [s for s in semis if s[0] & carrier != carrier]
        self.pending.append((a, b, carrier))

    def _drop_full(self, a: int, b: int, carrier: int) -> None:
        self.fulls[self.key(a, b)].remove(carrier)
        self.links[a][b].remove(carrier)
        self.links[b][a].remove(carrier)

    def add_semi(self, a: int, b: int, carrier: int, key: int) -> None:
        pair = self.key(a, b)
        for full in self.fulls.get(pair, ()):
            if full & carrier == full:
                return                                 # a VC already joins them
        known = self.semis.setdefault(pair, [])
        for other, _ in known:
            if other & carrier == other:
                return
        known[:] = [s for s in known if s[0] & carrier != carrier]
        if len(known) >= MAX_SEMI:
            return
        # OR rule: carriers with nothing in common make a VC
        common, union = carrier, carrier
        for other, _ in sorted(known, key=lambda s: _size(s[0])):
            if other & carrier == 0:
                self.add_full(a, b, other | carrier)
                return
            if common & other != common:
                common &= other
                union |= other
                if common == 0:
                    self.add_full(a, b, union)
                    return
        known.append((carrier, key))

    # ----------------------------------------------------------- rules
    def search(self) -> None:
        """Apply the AND rule to every new VC until none is added."""
        empty_nodes = self.empty_nodes
        links = self.links
        pending = self.pending
        while pending:
            a, b, carrier = pending.pop()
            if carrier not in links.get(a, {}).get(b, ()):
                continue                               # replaced since it was queued
            for end, middle in ((a, b), (b, a)):
                end_bit = 1 << end if end < empty_nodes else 0
                middle_bit = 1 << middle if middle < empty_nodes else 0
                for other, carriers in list(links[middle].items()):
                    if other == end:
                        continue
                    empty_pair = end < empty_nodes and other < empty_nodes
                    if empty_pair and (carrier or not middle_bit):
                        continue                       # empty-to-empty: through a neighbour only
                    other_bit = 1 << other if other < empty_nodes else 0
                    if carrier & other_bit:
                        continue
                    for second in list(carriers):
                        if second & carrier or second & end_bit or (empty_pair and second):
                            continue
                        if middle_bit:
                            self.add_semi(end, other, carrier | second | middle_bit, middle)
                        else:
                            self.add_full(end, other, carrier | second)
