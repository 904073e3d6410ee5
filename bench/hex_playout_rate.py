"""Playouts a second of the Hex searches: the pure-Python reference and the compiled one.

Each search thinks ``--seconds`` on the same positions (the empty board with a centre
stone, and a middle game from a seeded random fill of a fifth of the cells) on each
board size; the table gives playouts a second and the ratio.  The compiled kernels are
warmed first, so their one-time compile is not counted.  The last two columns are the
compiled search as level 5 runs it (H-search at the nodes, pattern priors), and the
same without the pattern priors: what the priors cost.

    python bench/hex_playout_rate.py --sizes 9 11 13 --seconds 2
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from games.hex.fast_mcts import FastHexSearch, warm_up  # noqa: E402
from games.hex.bot import LEVEL_PLANS  # noqa: E402
from games.hex.mcts import EMPTY, P1, P2, HexSearch, SearchConfig  # noqa: E402


def positions(size: int, seed: int) -> list[tuple[str, list[int], int]]:
    """(name, cells, colour to move): a centre opening and a seeded middle game."""
    cells = [EMPTY] * (size * size)
    cells[size * size // 2] = P1
    middle = [EMPTY] * (size * size)
    order = list(range(size * size))
    random.Random(seed).shuffle(order)
    stones = size * size // 5 // 2 * 2
    for turn, index in enumerate(order[:stones]):
        middle[index] = P1 if turn % 2 == 0 else P2
    return [("centre opening", cells, P2), (f"{stones} stones", middle, P1)]


def rate(search_class, size: int, cells: list[int], mover: int, seconds: float,
         config: SearchConfig | None = None) -> float:
    search = search_class(size, 1, config)
    start = time.perf_counter()
    search.search(cells, mover, start + seconds, None)
    return search.playouts / (time.perf_counter() - start)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 11, 13])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    warm_up()
    level_5 = LEVEL_PLANS[5].config
    without_patterns = dataclasses.replace(level_5, pattern_bias=0.0)
    print(f"{'size':>4}  {'position':<16} {'python /s':>10} {'compiled /s':>12} {'ratio':>6} "
          f"{'level 5 /s':>11} {'no patterns /s':>15}")
    for size in args.sizes:
        for name, cells, mover in positions(size, args.seed):
            slow = rate(HexSearch, size, cells, mover, args.seconds)
            fast = rate(FastHexSearch, size, cells, mover, args.seconds)
            level = rate(FastHexSearch, size, cells, mover, args.seconds, level_5)
            plain = rate(FastHexSearch, size, cells, mover, args.seconds, without_patterns)
            print(f"{size:>4}  {name:<16} {slow:>10.0f} {fast:>12.0f} {fast / slow:>6.1f} "
                  f"{level:>11.0f} {plain:>15.0f}", flush=True)


if __name__ == "__main__":
    main()
