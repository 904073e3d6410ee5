"""Inferior cells in Hex: dead cells and captured pairs, found from each cell's ring.

Filling them in leaves the position's value unchanged, so a search can start from the
filled board: fewer moves to try, and playouts that no longer throw away cells a side
holds in fact.

* A cell is *useless* to a colour when every two of its neighbours that colour could
  pass through (its stones, empty cells, its own edges) are already joined around the
  cell by the colour's stones: any chain through the cell could go round it instead.
  A cell useless to both colours is *dead*: whoever takes it, no game's winner changes.
* Two adjacent empty cells are *captured* by a colour when its stone on either leaves
  the other dead: if the opponent takes one, the colour takes the other and the
  opponent's stone is dead, as good as the colour holding both.

Each fill keeps the value of the position and stays valid when more stones are added,
so a move that wins on the filled board wins on the real one (tests/hex/test_hex_inferior.py
checks both against the exhaustive solver).  Cells are indexed as in games/hex/mcts.py.
"""
from __future__ import annotations

from games.hex.mcts import EMPTY, NEIGHBOUR_STEPS, P1, P2

BOTH_EDGES = -3     # an off-board neighbour of a corner cell, beyond two edges (not -P1, -P2)


def _ring_codes(size: int) -> list[tuple[int, ...]]:
    """Each cell's six neighbours in turning order: a cell index, or an edge's colour
    as a negative number (-P1 beyond a column edge, -P2 beyond a row edge)."""
    rings = []
    for index in range(size * size):
        r, c = divmod(index, size)
        ring = []
        for dr, dc in NEIGHBOUR_STEPS:
            rr, cc = r + dr, c + dc
            row_out, col_out = not 0 <= rr < size, not 0 <= cc < size
            if row_out and col_out:
                ring.append(BOTH_EDGES)
            elif col_out:
                ring.append(-P1)
            elif row_out:
                ring.append(-P2)
            else:
                ring.append(rr * size + cc)
        rings.append(tuple(ring))
    return rings


class InferiorCells:
    """Dead-cell and captured-pair fill-in for one board size."""

    def __init__(self, size: int):
        self.size = size
        self.rings = _ring_codes(size)
        self.pairs = [(a, b) for a in range(size * size) for b in self.rings[a] if b > a]

    def _useless_to(self, cells: list[int], cell: int, colour: int) -> bool:
        """Whether every chain of ``colour`` through ``cell`` could go round it."""
        kinds = []             # per ring position: 2 = colour's own, 1 = empty, 0 = blocked
        for code in self.rings[cell]:
            if code >= 0:
                value = cells[code]
                kinds.append(2 if value == colour else 1 if value == EMPTY else 0)
            else:
                kinds.append(2 if code in (-colour, BOTH_EDGES) else 0)
        open_positions = [k for k in range(6) if kinds[k]]
        for i, a in enumerate(open_positions):
            for b in open_positions[i + 1:]:
                inside = kinds[a + 1:b]
                outside = kinds[b + 1:] + kinds[:a]
                if any(k != 2 for k in inside) and any(k != 2 for k in outside):
                    return False
        return True

    def is_dead(self, cells: list[int], cell: int) -> bool:
        """An empty cell whose colour can never decide the game."""
        return self._useless_to(cells, cell, P1) and self._useless_to(cells, cell, P2)

    def _captures(self, cells: list[int], a: int, b: int, colour: int) -> bool:
        """Whether ``colour`` holds the empty pair a-b (its stone on one kills the other)."""
        cells[b] = colour
        kills_a = self.is_dead(cells, a)
        cells[b] = EMPTY
        if not kills_a:
            return False
        cells[a] = colour
        kills_b = self.is_dead(cells, b)
        cells[a] = EMPTY
        return kills_b

    def fill(self, cells: list[int]) -> list[int]:
        """A copy of ``cells`` with dead cells and captured pairs filled, to a fixed point.

        A dead cell takes the colour most of its neighbouring stones have (either would
        do); a captured pair takes its captor's colour.
        """
        filled = list(cells)
        changed = True
        while changed:
            changed = False
            for cell in range(len(filled)):
                if filled[cell] == EMPTY and self.is_dead(filled, cell):
                    filled[cell] = self._majority(filled, cell)
                    changed = True
            for a, b in self.pairs:
                if filled[a] != EMPTY or filled[b] != EMPTY:
                    continue
                for colour in (P1, P2):
                    if self._captures(filled, a, b, colour):
                        filled[a] = filled[b] = colour
                        changed = True
                        break
        return filled

    def _majority(self, cells: list[int], cell: int) -> int:
        stones = [cells[code] for code in self.rings[cell] if code >= 0]
        return P2 if stones.count(P2) > stones.count(P1) else P1
