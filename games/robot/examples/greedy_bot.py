#!/usr/bin/env python3
"""A sample Robot program: reads MAP.INP, writes MOVE.OUT (standard library only).

It walks to the nearest cell not of its own colour (breadth-first search), keeps a
turn counter in STATE.DAT (the only file besides MOVE.OUT the judge keeps), and starts
in its own quarter of the map.  Run it with ``ext:python3 games/robot/examples/greedy_bot.py``.

It also writes DEBUG.OUT, annotations the arena draws on the board (docs/ANNOTATIONS.md):
its target cell marked, an arrow to the cell it steps to, and for each open neighbour
the distance from there to the target as a heat map.
"""
import os
from collections import deque


def read_map(path="MAP.INP"):
    tokens = open(path).read().split("\n")
    lines = [t for t in tokens if t.strip()]
    m, n, k, t = map(int, lines[0].split())
    x, y, me = lines[1].split()
    p = int(lines[2])
    rows = ["".join(line.split()) for line in lines[3 + p:3 + p + m]]
    z = int(lines[3 + p + m])
    items = [line.split() for line in lines[4 + p + m:4 + p + m + z]]
    return m, n, k, t, (int(x), int(y)), me, rows, items


def main():
    m, n, k, t, (x, y), me, rows, items = read_map()
    turns_seen = int(open("STATE.DAT").read() or 0) if os.path.exists("STATE.DAT") else 0
    open("STATE.DAT", "w").write(str(turns_seen + 1))
    open("scratch.tmp", "w").write("the judge deletes this file")
    is_open = lambda r, c: 0 <= r < m and 0 <= c < n and rows[r][c] in ".ABCD"
    if x < 0:
        cells = [(r, c) for r in range(m) for c in range(n) if is_open(r, c)]
        corner = [(m // 4, n // 4), (m // 4, 3 * n // 4), (3 * m // 4, 3 * n // 4),
                  (3 * m // 4, n // 4)]["ABCD".index(me)]
        target = min(cells, key=lambda rc: abs(rc[0] - corner[0]) + abs(rc[1] - corner[1]))
        open("MOVE.OUT", "w").write(f"{target[0]} {target[1]}\n")
        return
    next_shrink_ring = t // k if k else 0
    start, parent, queue = (x, y), {(x, y): None}, deque([(x, y)])
    goal = None
    while queue:
        r, c = queue.popleft()
        safe = min(r, c, m - 1 - r, n - 1 - c) > next_shrink_ring
        if (r, c) != start and rows[r][c] != me and safe:
            goal = (r, c)
            break
        for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if is_open(nr, nc) and (nr, nc) not in parent:
                parent[(nr, nc)] = (r, c)
                queue.append((nr, nc))
    step = start
    if goal is not None:
        step = goal
        while parent[step] != start:
            step = parent[step]
        debug = [f"mark {goal[0]} {goal[1]} red target",
                 f"arrow {x} {y} {step[0]} {step[1]} black",
                 f"text target {goal[0]} {goal[1]}, {abs(goal[0] - x) + abs(goal[1] - y)} steps away"]
        for nr, nc in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if is_open(nr, nc):
                debug.append(f"heat {nr} {nc} {abs(goal[0] - nr) + abs(goal[1] - nc)}")
        open("DEBUG.OUT", "w").write("\n".join(debug) + "\n")
    open("MOVE.OUT", "w").write(f"{step[0]} {step[1]}\n")


if __name__ == "__main__":
    main()
