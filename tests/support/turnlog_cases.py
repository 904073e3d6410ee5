"""Small hand-made turn logs in the organizers' format (entry t = the game as turn t
starts), each showing one way their referee differs from the arena's rules."""
from __future__ import annotations

import json


def entry(grid, players, items=(), k=10, stop=False) -> dict:
    """One entry: ``players`` as (x, y, alive[, tangtoc[, dautron]]), ``items`` as
    (x, y, type, timeout); areas are counted from the grid."""
    found = {}
    for i, (x, y, alive, *rest) in enumerate(players):
        speed, oil = (list(rest) + [0, 0])[:2]
        colour = "ABCD"[i]
        found[str(i)] = {
            "position": {"x": x, "y": y}, "alive": alive,
            "area": sum(row.upper().count(colour) for row in grid), "color": colour,
            "tangtoc": speed, "dautron": oil,
            "powerup": "tangtoc" if speed else "dautron" if oil else None}
    return {"players": found, "frequency": k, "stopGame": stop,
            "map": {"rows": len(grid), "columns": len(grid[0]), "grid": list(grid)},
            "powerups": [{"x": x, "y": y, "type": t, "timeout": to} for x, y, t, to in items]}


def log(first: int, *entries) -> str:
    return json.dumps({str(first + i): e for i, e in enumerate(entries)}, indent=5)


BLANK = ["....."] * 5

#: A whole game's start: entry 0 is the blank map, robots at -1 -1 and alive.
WHOLE = log(0,
            entry(BLANK, [(-1, -1, True), (-1, -1, True)]),
            entry(["A....", ".....", ".....", ".....", "....B"], [(0, 0, True), (4, 4, True)],
                  [(2, 2, "G", 10), (0, 4, "E", 10)]),
            entry(["AA...", ".....", ".....", "....B", "....B"], [(0, 1, True), (3, 4, True)],
                  [(2, 2, "G", 9), (0, 4, "E", 9)]))

#: Every robot has left at turn 5: their referee seals ring 0 at once (the arena stops).
SEAL_AFTER_ALL_LEFT = log(5,
                          entry(["AA...", ".....", "..B..", ".....", "....."],
                                [(0, 1, False), (2, 2, False)]),
                          entry(["aa***", "*...*", "*.B.*", "*...*", "*****"],
                                [(0, 1, False), (2, 2, False)]))

#: A picks up E at (2, 2); B steps into the square at (1, 2) and leaves.  Arena: (1, 2)
#: is claimed by B and by A's explosion, so it keeps its colour; their referee: the
#: explosion paints over B's cell.
EXPLOSION_OVERRIDES = log(3,
                          entry([
                              "..B..", ".....", ".A...", ".....", "....."],
                              [(2, 1, True), (0, 2, True)], [(2, 2, "E", 8), (4, 4, "G", 8)]),
                          entry(["..B..", ".AAA.", ".AAA.", ".AAA.", "....."],
                                [(2, 2, True), (1, 2, False)], [(4, 4, "G", 7)]))

#: As above, but B and C both step to (1, 2): their referee removes only B (the first
#: robot on that cell), and paints the cell for A.
EXPLOSION_FIRST_ROBOT = log(3,
                            entry(["..B..", ".....", ".A...", ".....", "C...."],
                                  [(2, 1, True), (0, 2, True), (0, 2, True)],
                                  [(2, 2, "E", 8)]),
                            entry(["..B..", ".AAA.", ".AAA.", ".AAA.", "C...."],
                                  [(2, 2, True), (1, 2, False), (1, 2, True)]))

#: A double-steps from (4, 2) through (3, 2), closing its ring, to (2, 2) where B also
#: arrives.  Arena: the ring's inside turns A, B leaves, A (on its own colour) stays;
#: their referee: every robot whose cell changed colour leaves, A too.
ENCLOSURE_IN_ORDER = log(3,
                         entry(["C....", ".AAA.", ".A.A.", ".ABA.", "..A.."],
                               [(4, 2, True, 3), (3, 2, True), (0, 0, True)]),
                         entry(["C....", ".AAA.", ".AAA.", ".AAA.", "..A.."],
                               [(2, 2, False, 2), (2, 2, False), (0, 0, True)]))

_RING0 = ["*********"] + ["*.......*"] * 7 + ["*********"]


def _paint(rows, x, y, ch):
    rows = list(rows)
    rows[x] = rows[x][:y] + ch + rows[x][y + 1:]
    return rows


#: 9×9, K = 2: after shrink 2 (turn 4) the arena spawns a third round; their referee
#: spawns only at turns 0 and 2 (before (9 // 2 - 2) * K = 4).
_S4 = _paint(_paint(_RING0, 2, 2, "A"), 6, 6, "B")
_S5 = ["*********", "*********"] + ["**" + r[2:7] + "**" for r in _S4[2:7]] + ["*********"] * 2
SPAWN_SCHEDULE = log(4,
                     entry(_S4, [(2, 2, True), (6, 6, True)], [(4, 4, "G", 1), (1, 5, "E", 1)], k=2),
                     entry(_S5, [(2, 2, True), (6, 6, True)], k=2))

#: A corridor: robots at (4, 3) and (4, 5) leave no fair cell; the arena then spawns on
#: any free cell, their referee spawns nothing.
_WALL = "#########"
SPAWN_FAIR_ONLY = log(2,
                      entry([_WALL] * 4 + ["...A.B..."] + [_WALL] * 4,
                            [(4, 3, True), (4, 5, True)], k=2),
                      entry([_WALL] * 4 + ["*..A.B..*"] + [_WALL] * 4,
                            [(4, 3, True), (4, 5, True)], k=2))

CASES = {
    "seal-after-all-left": SEAL_AFTER_ALL_LEFT,
    "paint-layers": EXPLOSION_OVERRIDES,
    "paint-layers + explosion-first-robot": EXPLOSION_FIRST_ROBOT,
    "enclosure-in-order": ENCLOSURE_IN_ORDER,
    "spawn-schedule": SPAWN_SCHEDULE,
    "spawn-fair-only": SPAWN_FAIR_ONLY,
}
