"""Move patterns for the Hex search's priors: what a cell's surroundings say of a move there.

A move's *pattern* is the content of twelve points around its cell: the six neighbours
and the six cells a bridge away.  Each point is empty, the mover's stone, the
opponent's stone, beyond the mover's edge, or beyond the opponent's edge.  Patterns
are seen from the mover's side: for player 2 the board is read transposed, which turns
its rows into columns (a transposition maps the hexagonal neighbourhood onto itself),
so both players share one table.  A pattern and its half-turn are one pattern (the
half-turn maps the board, and each player's edges, onto themselves).

Each pattern has a weight, its *gamma*, fitted (``python bench/hex_patterns.py fit``)
so that a move's probability of being chosen among the legal ones is its gamma over the
sum of theirs, as in Coulom's "Computing Elo ratings of move patterns" (2007), the
method MoHex 2.0 uses for its priors.  Three more features multiply into a move's
gamma: the pattern of its six neighbours alone (which still says something where the
twelve-point pattern is rare), how near it is to the last two moves, and how far it is
from each pair of edges.  The search turns the gammas into a prior probability per
move and adds it to selection as a progressive bias (games/hex/fast_mcts.py).

The fitted table lies beside this file, ``patterns.txt``: one feature value and its
gamma per line (``bench/hex_patterns.py`` writes and documents it).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from games.hex.mcts import NEIGHBOUR_STEPS, P1

BRIDGE_STEPS = ((-2, 1), (-1, 2), (1, 1), (2, -1), (1, -2), (-1, -1))   # in turning order
SLOT_STEPS = NEIGHBOUR_STEPS + BRIDGE_STEPS
SLOTS = len(SLOT_STEPS)
EMPTY_POINT, OWN, OPPONENT, OWN_EDGE, OPPONENT_EDGE = range(5)
STATES = 5
#: Each slot's opposite: the slot a half-turn maps it to.
HALF_TURN = tuple((k + 3) % 6 + (6 if k >= 6 else 0) for k in range(SLOTS))
EDGE_DISTANCE_CAP = 3          # distances to an edge from 3 on count as one class
NEAR_NONE, NEAR_ADJACENT, NEAR_BRIDGE = 0, 1, 2

MAX_GAMMA = 1e6                # far above any fitted gamma, far below float32's range
TABLE_PATH = Path(__file__).with_name("patterns.txt")
GROUPS = ("ring12", "ring6", "near", "edges")


def slot_table(size: int) -> np.ndarray:
    """``slots[colour, cell, k]``: the cell at slot k of ``cell`` seen by ``colour``, or
    ``-OWN_EDGE`` / ``-OPPONENT_EDGE`` when the slot lies beyond that edge.

    A slot beyond both kinds of edge (off a corner) counts as the opponent's edge.
    """
    slots = np.zeros((3, size * size, SLOTS), dtype=np.int32)
    for colour in (1, 2):
        for cell in range(size * size):
            r, c = divmod(cell, size)
            for k, (dr, dc) in enumerate(SLOT_STEPS):
                if colour != P1:
                    dr, dc = dc, dr                  # read the board transposed
                rr, cc = r + dr, c + dc
                row_in, col_in = 0 <= rr < size, 0 <= cc < size
                own_in, opponent_in = (col_in, row_in) if colour == P1 else (row_in, col_in)
                if row_in and col_in:
                    slots[colour, cell, k] = rr * size + cc
                elif not opponent_in:
                    slots[colour, cell, k] = -OPPONENT_EDGE
                else:
                    slots[colour, cell, k] = -OWN_EDGE
    return slots


def edge_classes(size: int) -> np.ndarray:
    """``classes[colour, cell]``: (distance to the nearer own edge, capped) * 4 + (the
    same to the opponent's edges), counted in rows or columns from the edge row."""
    classes = np.zeros((3, size * size), dtype=np.int32)
    for cell in range(size * size):
        r, c = divmod(cell, size)
        rows, cols = min(r, size - 1 - r), min(c, size - 1 - c)
        for colour, own, opponent in ((1, cols, rows), (2, rows, cols)):
            classes[colour, cell] = (min(own, EDGE_DISTANCE_CAP) * (EDGE_DISTANCE_CAP + 1)
                                     + min(opponent, EDGE_DISTANCE_CAP))
    return classes


def nearness(size: int) -> np.ndarray:
    """``near[a, b]``: NEAR_ADJACENT when b touches a, NEAR_BRIDGE a bridge away, else 0."""
    near = np.zeros((size * size, size * size), dtype=np.int8)
    for cell in range(size * size):
        r, c = divmod(cell, size)
        for k, (dr, dc) in enumerate(SLOT_STEPS):
            rr, cc = r + dr, c + dc
            if 0 <= rr < size and 0 <= cc < size:
                near[cell, rr * size + cc] = NEAR_ADJACENT if k < 6 else NEAR_BRIDGE
    return near


def point_states(cells: np.ndarray, mover: int, slots: np.ndarray) -> np.ndarray:
    """(cells, 12) point states of every cell's pattern for ``mover`` (numpy, for the fit)."""
    relative = np.array([EMPTY_POINT, OWN, OPPONENT] if mover == P1 else [EMPTY_POINT, OPPONENT, OWN])
    mine = slots[mover]
    return np.where(mine >= 0, relative[cells[np.maximum(mine, 0)]], -mine)


#: A pattern's code is the sum of its point states times these; with TURNED_POWERS, the
#: code of its half-turn (each slot weighted as the slot it turns into).
POWERS = STATES ** np.arange(SLOTS, dtype=np.int64)
TURNED_POWERS = POWERS[list(HALF_TURN)]


def pattern_codes(states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(12-point codes, 6-point codes) of rows of point states, each the smaller of the
    pattern's code and its half-turn's, so a pattern and its half-turn share one code."""
    ring12 = np.minimum(states @ POWERS, states @ TURNED_POWERS)
    ring6 = np.minimum(states[:, :6] @ POWERS[:6], states[:, :6] @ TURNED_POWERS[:6])
    return ring12, ring6


def near_class(near_last: np.ndarray, near_own_last: np.ndarray) -> np.ndarray:
    """The 'near' feature: nearness to the opponent's last move * 3 + to the mover's."""
    return near_last * 3 + near_own_last


@dataclass
class GammaTable:
    """The fitted gammas: ring12 as sorted codes with their gammas, the rest dense."""

    ring12_codes: np.ndarray     # int64, sorted
    ring12_gammas: np.ndarray    # float32
    ring6: np.ndarray            # float32 per 6-point code (STATES ** 6)
    near: np.ndarray             # float32 per near class (9)
    edges: np.ndarray            # float32 per edge class (16)

    @classmethod
    def neutral(cls) -> "GammaTable":
        """Every gamma 1: no move preferred."""
        return cls(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32),
                   np.ones(STATES ** 6, dtype=np.float32), np.ones(9, dtype=np.float32),
                   np.ones((EDGE_DISTANCE_CAP + 1) ** 2, dtype=np.float32))

    def arrays(self) -> tuple:
        return self.ring12_codes, self.ring12_gammas, self.ring6, self.near, self.edges


def write_table(path: Path, groups: dict[str, dict[int, float]], header: str) -> None:
    """Write gammas as ``group value gamma`` lines under a ``#`` comment header."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    for group in GROUPS:
        for value in sorted(groups[group]):
            lines.append(f"{group} {value} {groups[group][value]:.6g}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@functools.cache
def fitted_table() -> GammaTable:
    """The shipped table, read once per process."""
    return read_table()


def read_table(path: Path = TABLE_PATH) -> GammaTable:
    """The gammas in ``path``; ValueError naming the file (and line) of a malformed one."""
    table = GammaTable.neutral()
    ring12: dict[int, float] = {}
    dense = {"ring6": table.ring6, "near": table.near, "edges": table.edges}
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not UTF-8 text (byte {error.start})") from None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        words = line.split()
        try:
            group, value, gamma = words[0], int(words[1]), float(words[2])
            if len(words) != 3 or group not in GROUPS or not 0 < gamma < MAX_GAMMA:
                raise ValueError
            if group == "ring12":
                if not 0 <= value < STATES ** SLOTS:
                    raise ValueError
                ring12[value] = gamma
            else:
                if value < 0:
                    raise ValueError
                dense[group][value] = gamma          # IndexError past the group's range
        except (ValueError, IndexError):
            raise ValueError(f"{path}: line {number}: expected 'group value gamma' with group one of "
                             f"{', '.join(GROUPS)}, a value in its range and a gamma above 0 and below {MAX_GAMMA:g}, "
                             f"not {line!r}") from None
    codes = np.array(sorted(ring12), dtype=np.int64)
    table.ring12_codes = codes
    table.ring12_gammas = np.array([ring12[c] for c in codes], dtype=np.float32)
    return table
