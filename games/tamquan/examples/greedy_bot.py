"""A small Tam Quan program: reads STATE.INP, writes MOVE.OUT (standard library only).

Setup: takes the first free zone and puts its members side by side in the middle of
it.  Turn: members step one at a time (nearest to an enemy first); each takes the
empty neighbour that scores best: beside an enemy that already has one of ours next to
it (a capture), next to a teammate, not beside two enemies, closer to the enemy.

It also writes DEBUG.OUT, annotations the arena draws on the board
(docs/ANNOTATIONS.md): an arrow for each member's step, the member nearest an enemy
marked ``first``, and the score of each cell the first member could step to.

    python3 greedy_bot.py        (run in the folder that holds STATE.INP)
"""


def read_state(path="STATE.INP"):
    with open(path) as fh:
        lines = [line.split() for line in fh.read().splitlines()]
    n, turn = int(lines[0][0]), int(lines[0][1])
    me, members = lines[1][0], int(lines[1][1])
    board = [list("".join(lines[2 + r])) for r in range(n)]
    zones = []
    for words in lines[3 + n:3 + n + int(lines[2 + n][0])]:
        numbers = [int(w) for w in words]
        cells = [(numbers[i], numbers[i + 1]) for i in range(2, len(numbers), 2)]
        zones.append((numbers[0], cells))
    return n, turn, me, members, board, zones


def neighbours(n, r, c):
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        if 0 <= r + dr < n and 0 <= c + dc < n:
            yield r + dr, c + dc


def place(n, members, zones):
    number, cells = zones[0]
    middle = (n - 1) / 2
    cells = sorted(cells, key=lambda rc: abs(rc[0] - middle) + abs(rc[1] - middle))
    return [str(number)] + [f"{r} {c}" for r, c in sorted(cells[:members])]


def score(n, board, me, r, c, enemies):
    value = 0.0
    mine = foes = 0
    for a, b in neighbours(n, r, c):
        ch = board[a][b]
        if ch == me:
            mine += 1
        elif ch != ".":
            foes += 1
            # An enemy that already has one of ours beside it falls to a second one.
            if sum(1 for x, y in neighbours(n, a, b) if board[x][y] == me) >= 1:
                value += 10
    value += 3 * min(mine, 2)
    if foes >= 2 and foes > mine:
        value -= 20
    if enemies:
        value -= min(abs(r - x) + abs(c - y) for x, y in enemies) * 0.5
    return value


def turn(n, board, me):
    enemies = [(r, c) for r in range(n) for c in range(n) if board[r][c] not in (".", me)]
    members = [(r, c) for r in range(n) for c in range(n) if board[r][c] == me]
    if enemies:
        members.sort(key=lambda rc: min(abs(rc[0] - x) + abs(rc[1] - y) for x, y in enemies))
    lines, debug = [], []
    for r, c in members:
        free = [(a, b) for a, b in neighbours(n, r, c) if board[a][b] == "."]
        if not free:
            lines.append(f"{r} {c} {r} {c}")
            continue
        board[r][c] = "."
        if not debug:                       # annotations: the first member's choices
            debug.append(f"mark {r} {c} yellow first")
            debug += [f"heat {a} {b} {score(n, board, me, a, b, enemies):g}" for a, b in free]
        a, b = max(free, key=lambda ab: score(n, board, me, ab[0], ab[1], enemies))
        board[a][b] = me
        lines.append(f"{r} {c} {a} {b}")
        debug.append(f"arrow {r} {c} {a} {b}")
    with open("DEBUG.OUT", "w") as fh:
        fh.write("\n".join(debug) + "\n")
    return lines


def main():
    n, _, me, members, board, zones = read_state()
    lines = place(n, members, zones) if zones else turn(n, board, me)
    with open("MOVE.OUT", "w") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
