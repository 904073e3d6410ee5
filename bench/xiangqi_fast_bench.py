"""The compiled Xiangqi search's speed beside the pure-Python reference's, on one thread.

    python bench/xiangqi_fast_bench.py                   # nodes/s and perft, both searches
    python bench/xiangqi_fast_bench.py --nodes 2000000   # longer compiled searches
    python bench/xiangqi_fast_bench.py --perft-depth 5   # the 133,312,995-leaf perft
    ARENA_FAIRY_STOCKFISH=/path/to/stockfish python bench/xiangqi_fast_bench.py \
        --perft-depth 5 --perft-repeats 3               # perft beside Fairy-Stockfish's

Each position of bench/xiangqi_bench.py's set is searched as a game's first move to a
node limit (the same tree on any machine, so the figures compare across loads); speed
is nodes per CPU second (``time.process_time``), which a busy machine lowers less than
wall time, and the load average is printed beside it.  The compiled kernels are
compiled (or loaded from the disk cache) before anything is timed.

With ``ARENA_FAIRY_STOCKFISH`` set (a build with ``largeboards=yes``, which Xiangqi
needs), the same perft is run by Fairy-Stockfish (``go perft``) and by the compiled
generator in turn, ``--perft-repeats`` times, each timed in CPU seconds (the engine's
from the kernel's count for reaped children), and the ratio of their leaves per CPU
second is printed (the goal is at least 1/3).
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
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


def compiled_perft(depth: int) -> tuple[int, float]:
    """The compiled generator's perft from the start: (leaves, CPU seconds)."""
    position = Position.from_fen(ENGINE_POSITIONS[0])[0]
    started = time.process_time()
    count = fast_search.perft(position, depth)
    return count, time.process_time() - started


def engine_perft(engine: str, depth: int) -> tuple[int, float]:
    """Fairy-Stockfish's ``go perft`` from Xiangqi's start: (leaves, the engine's CPU
    seconds, user and system, as the kernel counted them for the reaped process)."""
    commands = f"uci\nsetoption name UCI_Variant value xiangqi\nposition startpos\ngo perft {depth}\nquit\n"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    output = subprocess.run([engine], input=commands, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = [line for line in output.splitlines() if line.startswith("Nodes searched")]
    if not lines:
        raise SystemExit(f"{engine} printed no 'Nodes searched' line for go perft {depth}: is it a "
                         f"largeboards build that knows xiangqi?")
    return int(lines[-1].split(":")[1]), cpu


def perft_beside_engine(engine: str, depth: int, repeats: int) -> None:
    """Both perfts in turn, ``repeats`` times; each run's rates, then the ratio of medians."""
    ours, theirs = [], []
    for repeat in range(repeats):
        count, cpu = compiled_perft(depth)
        ours.append(count / cpu)
        engine_count, engine_cpu = engine_perft(engine, depth)
        theirs.append(engine_count / engine_cpu)
        agree = "equal" if engine_count == count else f"DIFFERENT: engine {engine_count:,}"
        print(f"  run {repeat + 1}: compiled {count:,} leaves in {cpu:.2f} CPU s = {ours[-1]:,.0f}/s;"
              f" Fairy-Stockfish {engine_count:,} in {engine_cpu:.2f} CPU s = {theirs[-1]:,.0f}/s"
              f" (counts {agree}; {load()})")
    ours.sort()
    theirs.sort()
    ratio = ours[len(ours) // 2] / theirs[len(theirs) // 2]
    verdict = "meets" if ratio >= 1 / 3 else "BELOW"
    print(f"perft depth {depth}, median of {repeats}: compiled / Fairy-Stockfish = {ratio:.2f}"
          f" ({verdict} the goal of 1/3)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=600_000, help="compiled: nodes a position")
    parser.add_argument("--python-nodes", type=int, default=30_000, help="pure Python: nodes a position")
    parser.add_argument("--perft-depth", type=int, default=4)
    parser.add_argument("--perft-repeats", type=int, default=3,
                        help="with ARENA_FAIRY_STOCKFISH: runs of each perft, alternating")
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
    count, cpu = compiled_perft(args.perft_depth)
    status = "ok" if PERFT_COUNTS.get(args.perft_depth) == count else f"EXPECTED {PERFT_COUNTS.get(args.perft_depth)}"
    print(f"compiled perft start depth {args.perft_depth}: {count:,} leaves ({status}) in {cpu:.2f} CPU s"
          f" = {count / cpu:,.0f} leaves per CPU second ({load()})")
    engine = os.environ.get("ARENA_FAIRY_STOCKFISH")
    if engine:
        perft_beside_engine(engine, args.perft_depth, args.perft_repeats)
    else:
        print("perft beside Fairy-Stockfish: skipped (set ARENA_FAIRY_STOCKFISH to a largeboards build)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
