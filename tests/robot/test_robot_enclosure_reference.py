"""The bit-set enclosure flood against a plain cell-by-cell reference on random maps."""
import random

from games.robot.rules import COLOURS, state_from_rows

SIDES = [(1, 0), (-1, 0), (0, 1), (0, -1)]


def reference_enclosure(rows, players):
    """The RULEBOOK's rule 5, written plainly: which colour each enclosed cell takes."""
    height, width = len(rows), len(rows[0])
    open_cell = lambda ch: ch in ".ABCD"
    unreached = {}
    for colour in COLOURS[:players]:
        wall = {colour, colour.lower()}
        seen = set()
        stack = [(x, y) for x in range(height) for y in range(width)
                 if (x in (0, height - 1) or y in (0, width - 1)) and rows[x][y] not in wall]
        seen.update(stack)
        while stack:
            x, y = stack.pop()
            for dx, dy in SIDES:
                nx, ny = x + dx, y + dy
                if 0 <= nx < height and 0 <= ny < width and (nx, ny) not in seen \
                        and rows[nx][ny] not in wall:
                    seen.add((nx, ny))
                    stack.append((nx, ny))
        unreached[colour] = {(x, y) for x in range(height) for y in range(width)
                             if (x, y) not in seen and rows[x][y] not in wall}

    def region_size(colour, cell):
        region, stack = {cell}, [cell]
        while stack:
            x, y = stack.pop()
            for dx, dy in SIDES:
                nxt = (x + dx, y + dy)
                if nxt in unreached[colour] and nxt not in region:
                    region.add(nxt)
                    stack.append(nxt)
        return sum(1 for x, y in region if open_cell(rows[x][y]))

    result = [list(r) for r in rows]
    for x in range(height):
        for y in range(width):
            if not open_cell(rows[x][y]):
                continue
            sizes = sorted(((region_size(c, (x, y)), c) for c in unreached
                            if (x, y) in unreached[c]), reverse=True)
            if sizes and (len(sizes) == 1 or sizes[0][0] > sizes[1][0]):
                result[x][y] = sizes[0][1]
    return ["".join(r) for r in result]


def random_rows(rng, height, width, players):
    letters = COLOURS[:players]
    weights = {".": 2, "#": 1, "*": 0.5}
    for c in letters:
        weights[c] = 4
        weights[c.lower()] = 0.5
    cells, w = zip(*weights.items())
    return ["".join(rng.choices(cells, w, k=width)) for _ in range(height)]


def test_bit_set_flood_matches_the_plain_reference():
    rng = random.Random(2024)
    checked = changed = 0
    for trial in range(300):
        height, width = rng.choice([3, 5, 7, 9]), rng.choice([3, 5, 7, 11])
        players = rng.randint(2, 4)
        rows = random_rows(rng, height, width, players)
        state = state_from_rows(rows, period=100, players=players)
        for robot in state.robots:
            robot.leave(0, "not in this test")
        state._enclose([])
        expected = reference_enclosure(rows, players)
        assert state.map_rows(raw=True) == expected, (rows, trial)
        checked += 1
        changed += expected != rows
    assert checked == 300 and changed > 50
