"""Example Hex contestant in Python, written against HexLib (lib/hexlib.py).

Strategy: for every empty cell, the cost of my cheapest chain from column 1 to column N
through it plus the opponent's cheapest chain from row 1 to row N through it (stones
of one's own cost 0, empty cells 1); the cell that matters most to both sides wins.
Run it in the arena as ``ext:python3 games/hex/examples/shortest_path.py``.

It annotates each move (docs/ANNOTATIONS.md): its five best cells with their cost as a
heat map, the chosen cell marked ``best``, and a line of text; the arena draws them.
"""
import os
import sys
from collections import deque

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from hexlib import Debug, GameIsOver, GetMax, LookAtBoard, MakeLibMove, PutHex  # noqa: E402

STEPS = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))
INFINITE = 10 ** 6


def distances(n, player, from_first_edge):
    """0-1 BFS: cheapest cost to reach each cell from one of ``player``'s edges."""
    dist = {}
    queue = deque()
    for k in range(1, n + 1):
        edge = 1 if from_first_edge else n
        cell = (k, edge) if player == 1 else (edge, k)
        value = LookAtBoard(*cell)
        if value == 3 - player:
            continue
        cost = 0 if value == player else 1
        if cost < dist.get(cell, INFINITE):
            dist[cell] = cost
            (queue.appendleft if cost == 0 else queue.append)(cell)
    while queue:
        r, c = queue.popleft()
        for dr, dc in STEPS:
            nxt = (r + dr, c + dc)
            value = LookAtBoard(*nxt)
            if value in (-1, 3 - player):
                continue
            cost = dist[(r, c)] + (0 if value == player else 1)
            if cost < dist.get(nxt, INFINITE):
                dist[nxt] = cost
                (queue.appendleft if value == player else queue.append)(nxt)
    return dist


def through(n, player):
    """Cost of the player's best chain through each empty cell."""
    a, b = distances(n, player, True), distances(n, player, False)
    return {cell: a[cell] + b[cell] - 1 for cell in a if cell in b and LookAtBoard(*cell) == 0}


def choose(n):
    mine, theirs = through(n, 1), through(n, 2)
    empty = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1) if LookAtBoard(r, c) == 0]
    centre = (n + 1) / 2

    def cost(cell):
        return mine.get(cell, INFINITE) + theirs.get(cell, INFINITE)
    ranked = sorted(empty, key=lambda cell: (cost(cell), abs(cell[0] - centre) + abs(cell[1] - centre)))
    for cell in ranked[:5]:                     # annotations: the candidates and their cost
        if cost(cell) < INFINITE:
            Debug(f"heat {name(cell)} {cost(cell)}")
    Debug(f"mark {name(ranked[0])} green best")
    Debug(f"text best chain cost {cost(ranked[0])} through {name(ranked[0])}")
    return ranked[0]


def name(cell):
    """A cell (row, column) in Hex notation: column letter, row number (``c3``)."""
    return "abcdefghijklmnopqrstuvwxyz"[cell[1] - 1] + str(cell[0])


def main():
    n = GetMax()
    while GameIsOver() == 0:
        row, col = choose(n)
        PutHex(row, col)
        if GameIsOver():
            break
        MakeLibMove()


if __name__ == "__main__":
    main()
