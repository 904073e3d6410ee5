"""Xiangqi benchmarks: perft speed, engine speed, nodes to a depth and a strength ladder of the bot levels.

    python bench/xiangqi_bench.py                      # everything (a few minutes)
    python bench/xiangqi_bench.py --only perft         # perft only
    python bench/xiangqi_bench.py --perft-depth 5      # the 133,312,995-leaf run (long)
    python bench/xiangqi_bench.py --only engine --engine-nodes 150000   # nodes/s, fixed trees
    python bench/xiangqi_bench.py --only depth --depth 6   # nodes to a depth, pruning on / off
    python bench/xiangqi_bench.py --only openings --depth 8  # nodes to a depth over 24 openings

Ladder settings (printed with the results): each level plays the next one
``--games`` games, colours alternating; the first ``--random-plies`` half-moves are
random (seeded) so the games differ; each level thinks ``pace * --pace-scale``
seconds a move (its own pace: 0.5 / 1 / 2 / 4 s for levels 2-5); games stop at
``--max-plies`` half-moves and are then adjudicated on the engine's static score
(more than 300 centipawns = a win, else a draw).  ``no_capture_limit`` is 60.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.xiangqi.bot import LEVELS, Searcher, evaluate_from_scratch, make_bot  # noqa: E402
from games.xiangqi.rules import START_FEN, Position, XiangqiGame  # noqa: E402

PERFT_COUNTS = {1: 44, 2: 1920, 3: 79666, 4: 3290240, 5: 133312995}
ENGINE_POSITIONS = [
    START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
]


def bench_perft(depth: int) -> None:
    position = Position.from_fen(START_FEN)[0]
    started, cpu_started = time.perf_counter(), time.process_time()
    count = position.perft(depth)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    status = "ok" if PERFT_COUNTS.get(depth) == count else f"EXPECTED {PERFT_COUNTS.get(depth)}"
    print(f"perft start depth {depth}: {count:,} leaves ({status}) in {seconds:.2f} s wall, {cpu:.2f} s CPU"
          f" = {count / cpu:,.0f} leaves per CPU second")


def search_start(searcher: Searcher, fen: str, seconds: float | None = None, nodes: int | None = None) -> float:
    """Search ``fen`` as a game's first position; return the CPU seconds it took."""
    position = Position.from_fen(fen)[0]
    cpu_started = time.process_time()
    searcher.choose(position, [position.key], [position.in_check(position.side)], 0, seconds, nodes)
    return time.process_time() - cpu_started


def bench_engine(seconds: float, nodes: int | None = None) -> None:
    """Search each position for ``seconds`` of wall time, or ``nodes`` nodes when given (the
    same tree on any machine, so nodes per CPU second compare across versions and loads)."""
    total_nodes, total_cpu = 0, 0.0
    for fen in ENGINE_POSITIONS:
        searcher = Searcher()
        started = time.perf_counter()
        cpu = search_start(searcher, fen, None if nodes else seconds, nodes)
        used = time.perf_counter() - started
        total_nodes += searcher.nodes
        total_cpu += cpu
        budget = f"{nodes:,} nodes" if nodes else f"{seconds:.1f} s"
        print(f"engine, {budget} budget: depth {searcher.last_depth}, {searcher.nodes:,} nodes, "
              f"used {used:.2f} s wall / {cpu:.2f} s CPU = {searcher.nodes / cpu:,.0f} nodes per CPU second"
              f"  ({fen.split()[0][:24]}...)")
    print(f"engine overall: {total_nodes / total_cpu:,.0f} nodes per CPU second")


def bench_depth(depth: int) -> None:
    """Nodes and CPU seconds to a fixed ``depth`` on each position, with the pruning on and
    off (near the leaves: reverse futility, futility, late moves; in the captures-only
    search: a bigger piece taking a smaller one on a defended square): what it saves."""
    totals = {True: [0, 0.0], False: [0, 0.0]}
    for fen in ENGINE_POSITIONS:
        line = []
        for pruning in (True, False):
            searcher = Searcher(max_depth=depth, pruning=pruning)
            cpu = search_start(searcher, fen)
            totals[pruning][0] += searcher.nodes
            totals[pruning][1] += cpu
            line.append(f"{'pruned' if pruning else 'unpruned'} {searcher.nodes:,} nodes {cpu:.2f} s")
        print(f"depth {depth}: {', '.join(line)}  ({fen.split()[0][:24]}...)")
    (pruned_nodes, pruned_cpu), (full_nodes, full_cpu) = totals[True], totals[False]
    print(f"depth {depth} overall: pruned {pruned_nodes:,} nodes in {pruned_cpu:.1f} s CPU, unpruned "
          f"{full_nodes:,} nodes in {full_cpu:.1f} s CPU ({100 * pruned_nodes / full_nodes:.0f}% of the "
          f"nodes, {100 * pruned_cpu / full_cpu:.0f}% of the time)")


def bench_openings(depth: int, count: int) -> None:
    """Nodes and CPU seconds to a fixed ``depth`` summed over the first ``count`` openings
    of the strength series: how much a change to the search's pruning or move order
    grows or shrinks the tree, on more positions than ``bench_depth``'s four.  (The node
    count moves by a few per cent with changes that decide nothing, as ties in the move
    order break differently; compare at two depths.)"""
    from bench.xiangqi_engine_series import OPENINGS, opening_fen
    nodes, cpu = 0, 0.0
    for _name, moves in OPENINGS[:count]:
        searcher = Searcher(max_depth=depth)
        cpu += search_start(searcher, opening_fen(moves))
        nodes += searcher.nodes
    print(f"depth {depth} over {min(count, len(OPENINGS))} openings: {nodes:,} nodes in {cpu:.1f} s CPU "
          f"= {nodes / cpu:,.0f} nodes per CPU second")


def play_game(low: int, high: int, low_is_red: bool, seed: int, pace_scale: float,
              max_plies: int, random_plies: int) -> float:
    """Score of level ``high`` (1 win, 0.5 draw, 0 loss) in one game."""
    game = XiangqiGame()
    state = game.new_initial_state({"no_capture_limit": 60}, seed)
    rng = random.Random(seed)
    levels = (low, high) if low_is_red else (high, low)
    bots = [make_bot(levels[0], seed), make_bot(levels[1], seed + 1)]
    budgets = [LEVELS.get(level, (0, 0.5))[1] * pace_scale for level in levels]
    while not state.is_terminal() and state.turn < max_plies:
        seat = state.side
        if state.turn < random_plies:
            move = rng.choice(state.legal_moves(seat))
        else:
            move = bots[seat].choose(state, seat, budgets[seat])
        state.apply({seat: move})
    high_seat = 1 if low_is_red else 0
    outcome = state.outcome()
    if outcome is None:
        red_score = evaluate_from_scratch(state.position)
        if abs(red_score) <= 300:
            return 0.5
        winner = 0 if red_score > 0 else 1
    elif outcome.is_draw:
        return 0.5
    else:
        winner = outcome.winners[0]
    return 1.0 if winner == high_seat else 0.0


def bench_ladder(games: int, pace_scale: float, max_plies: int, random_plies: int) -> None:
    print(f"ladder: {games} games a pair, colours alternating, {random_plies} random opening "
          f"half-moves, time a move = level pace x {pace_scale} "
          f"(L2 {0.5 * pace_scale:.3f} s, L3 {1 * pace_scale:.3f} s, L4 {2 * pace_scale:.3f} s, "
          f"L5 {4 * pace_scale:.3f} s), stop at {max_plies} half-moves and adjudicate on score > 300")
    for low in (1, 2, 3, 4):
        high = low + 1
        started = time.perf_counter()
        wins = draws = losses = 0
        for index in range(games):
            score = play_game(low, high, index % 2 == 0, 1000 * low + index, pace_scale, max_plies, random_plies)
            wins += score == 1.0
            draws += score == 0.5
            losses += score == 0.0
        points = wins + draws / 2
        print(f"level {high} vs level {low}: +{wins} ={draws} -{losses}  "
              f"({100 * points / games:.0f}% for level {high}, {time.perf_counter() - started:.0f} s)", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("perft", "engine", "depth", "openings", "ladder"))
    parser.add_argument("--perft-depth", type=int, default=4)
    parser.add_argument("--engine-seconds", type=float, default=2.0)
    parser.add_argument("--engine-nodes", type=int, default=0,
                        help="search each engine position this many nodes instead of a time")
    parser.add_argument("--depth", type=int, default=6, help="the fixed depth of --only depth and openings")
    parser.add_argument("--openings", type=int, default=24, help="openings searched by --only openings")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--pace-scale", type=float, default=0.05)
    parser.add_argument("--max-plies", type=int, default=150)
    parser.add_argument("--random-plies", type=int, default=2)
    args = parser.parse_args(argv)
    if hasattr(os, "getloadavg"):
        print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.only in (None, "perft"):
        bench_perft(args.perft_depth)
    if args.only in (None, "engine"):
        bench_engine(args.engine_seconds, args.engine_nodes or None)
    if args.only in (None, "depth"):
        bench_depth(args.depth)
    if args.only == "openings":
        bench_openings(args.depth, args.openings)
    if args.only in (None, "ladder"):
        bench_ladder(args.games, args.pace_scale, args.max_plies, args.random_plies)
    return 0


if __name__ == "__main__":
    sys.exit(main())
