"""The compiled Xiangqi search's speed beside the pure-Python reference's, on one thread.

    python bench/xiangqi_fast_bench.py                   # nodes/s and perft, both searches
    python bench/xiangqi_fast_bench.py --nodes 2000000   # longer compiled searches
    python bench/xiangqi_fast_bench.py --perft-depth 5   # the 133,312,995-leaf perft

Each position of bench/xiangqi_bench.py's set is searched as a game's first move to a
node limit (the same tree on any machine, so the figures compare across loads); speed
is nodes per CPU second (``time.process_time``), which a busy machine lowers less than
wall time, and the load average is printed beside it.  The compiled kernels are
compiled (or loaded from the disk cache) before anything is timed.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.xiangqi_bench import ENGINE_POSITIONS, PERFT_COUNTS  # noqa: E402
from games.xiangqi import fast_search  # noqa: E402
from games.xiangqi.bot import Searcher  # noqa: E402
from games.xiangqi.rules import Position  # noqa: E402


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def nodes_per_second(searcher, nodes: int) -> tuple[int, float]:
    """Search every bench position to ``nodes`` nodes; (nodes, CPU seconds)."""
    total_nodes, total_cpu = 0, 0.0
    for fen in ENGINE_POSITIONS:
        position = Position.from_fen(fen)[0]
        searcher.clear()
        started = time.process_time()
        searcher.choose(position, [position.key], [position.in_check(position.side)], 0, None, nodes)
        total_cpu += time.process_time() - started
        total_nodes += searcher.nodes
    return total_nodes, total_cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=600_000, help="compiled: nodes a position")
    parser.add_argument("--python-nodes", type=int, default=30_000, help="pure Python: nodes a position")
    parser.add_argument("--perft-depth", type=int, default=4)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    fast_search.warm_up()
    print(f"warm-up (compile or load from the disk cache): {time.perf_counter() - started:.1f} s")
    nodes, cpu = nodes_per_second(fast_search.FastSearcher(), args.nodes)
    compiled = nodes / cpu
    print(f"compiled search: {nodes:,} nodes in {cpu:.2f} CPU s = {compiled:,.0f} nodes per CPU second"
          f" ({len(ENGINE_POSITIONS)} positions, {args.nodes:,} nodes each; {load()})")
    nodes, cpu = nodes_per_second(Searcher(), args.python_nodes)
    python = nodes / cpu
    print(f"pure-Python search: {nodes:,} nodes in {cpu:.2f} CPU s = {python:,.0f} nodes per CPU second"
          f" ({args.python_nodes:,} nodes each; {load()})")
    print(f"compiled / pure Python: {compiled / python:.1f} times")
    position = Position.from_fen(ENGINE_POSITIONS[0])[0]
    started = time.process_time()
    count = fast_search.perft(position, args.perft_depth)
    cpu = time.process_time() - started
    status = "ok" if PERFT_COUNTS.get(args.perft_depth) == count else f"EXPECTED {PERFT_COUNTS.get(args.perft_depth)}"
    print(f"compiled perft start depth {args.perft_depth}: {count:,} leaves ({status}) in {cpu:.2f} CPU s"
          f" = {count / cpu:,.0f} leaves per CPU second ({load()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
