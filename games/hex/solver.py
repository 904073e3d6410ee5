"""Exhaustive Hex solver for small boards: who wins with perfect play, and a winning move.

Used to check the shipped start positions (positions/*.txt) and in tests; pure Python.
Boards are bit masks (bit ``(r-1)*N + (c-1)``); a win is found by a bit-parallel flood
fill over the board's six neighbours.  The search is negamax with alpha-beta reduced
to win/loss (a Hex game cannot be drawn), a transposition table, immediate wins
taken at once, and replies restricted to the cells that stop an immediate threat.
Fine up to about 5x5 from a few stones, or 6x6 with half the board filled.
"""
from __future__ import annotations

from games.hex.rules import EMPTY, P1, P2, HexState


class Solver:
    """Solves positions of one board size; the table persists across calls."""

    def __init__(self, size: int):
        self.n = size
        n = size
        self.full = (1 << (n * n)) - 1
        col_first = sum(1 << (r * n) for r in range(n))
        col_last = col_first << (n - 1)
        self.not_first_col = self.full & ~col_first
        self.not_last_col = self.full & ~col_last
        self.edges = {P1: (col_first, col_last), P2: ((1 << n) - 1, ((1 << n) - 1) << (n * (n - 1)))}
        centre = (n - 1) / 2
        self.order = sorted(range(n * n), key=lambda i: abs(i // n - centre) + abs(i % n - centre))
        self.table: dict[tuple[int, int, int], bool] = {}
        self.nodes = 0

    def spread(self, x: int) -> int:
        """x and every neighbour of x (the six directions of RULES.md)."""
        n = self.n
        left = x & self.not_first_col          # may move to c-1
        right = x & self.not_last_col          # may move to c+1
        return (x | (x >> n) | (right >> (n - 1)) | (left >> 1) | (right << 1)
                | (left << (n - 1)) | (x << n)) & self.full

    def flood(self, seeds: int, stones: int) -> int:
        """Every stone of ``stones`` joined to ``seeds`` (seeds must be within stones)."""
        reach = seeds
        while True:
            grown = self.spread(reach) & stones
            if grown == reach:
                return reach
            reach = grown

    def connected(self, stones: int, player: int) -> bool:
        first, last = self.edges[player]
        return bool(self.flood(stones & first, stones) & last)

    def finishing_cells(self, stones: int, empty: int, player: int) -> int:
        """Empty cells that would join ``player``'s two edges at once (a bit mask)."""
        first, last = self.edges[player]
        near_first = (self.spread(self.flood(stones & first, stones)) | first) & empty
        near_last = (self.spread(self.flood(stones & last, stones)) | last) & empty
        return near_first & near_last

    def wins(self, mine: int, theirs: int, player: int) -> bool:
        """True when ``player`` (to move, stones ``mine``) wins against perfect play."""
        key = (mine, theirs, player)
        known = self.table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        other = P2 if player == P1 else P1
        empty = self.full & ~(mine | theirs)
        if self.finishing_cells(mine, empty, player):
            result = True
        else:
            threats = self.finishing_cells(theirs, empty, other)
            if threats & (threats - 1):            # two or more: one block cannot stop both
                result = False
            else:
                result = False
                candidates = threats or empty
                for i in self.order:
                    if candidates >> i & 1 and not self.wins(theirs, mine | 1 << i, other):
                        result = True
                        break
        self.table[key] = result
        return result

    def winning_move(self, mine: int, theirs: int, player: int) -> int | None:
        other = P2 if player == P1 else P1
        empty = self.full & ~(mine | theirs)
        for i in self.order:
            if empty >> i & 1:
                after = mine | 1 << i
                if self.connected(after, player) or not self.wins(theirs, after, other):
                    return i
        return None


def masks(state: HexState) -> tuple[int, int]:
    ones = sum(1 << i for i, v in enumerate(state.cells) if v == P1)
    twos = sum(1 << i for i, v in enumerate(state.cells) if v == P2)
    return ones, twos


def side_to_move_wins(state: HexState, solver: Solver | None = None) -> bool:
    """Exhaustively: does the side to move in ``state`` win with perfect play?"""
    solver = solver or Solver(state.size)
    ones, twos = masks(state)
    if state.current == 0:
        return solver.wins(ones, twos, P1)
    return solver.wins(twos, ones, P2)


def is_colour_symmetric(state: HexState) -> bool:
    """Cell (r, c) holds v exactly when (c, r) holds the other colour (diagonal empty).

    Such a position is a first-player win for every N by strategy stealing: the map
    (transpose, swap colours) turns "player 2 wins as second player" into "player 1 wins
    as second player", and player 1, moving first, can steal that strategy because an
    extra stone never hurts in Hex.
    """
    n = state.size
    for r in range(1, n + 1):
        for c in range(1, n + 1):
            v, w = state.look(r, c), state.look(c, r)
            if (v == EMPTY) != (w == EMPTY) or (v != EMPTY and v == w):
                return False
    return True
