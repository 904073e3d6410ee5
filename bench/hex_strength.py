"""Strength of the built-in Hex bot against OpenSpiel's MCTS bot.

Plays ``--games`` games for every (board size, colour) pair between our bot (a given
level, a fixed total clock per game, used the way the arena's runner hands it out) and
``open_spiel.python.algorithms.mcts.MCTSBot`` with ``RandomRolloutEvaluator`` (one random
rollout per simulation, UCT constant 2, ``--sims`` simulations per move), and prints our
win rate as each colour.

OpenSpiel's hex: action ``r * N + c``; its player 0 ("x") moves first and joins the top
and bottom rows, with the same hexagon adjacency as ours.  Our player 1 moves first and
joins columns, so a cell (row, col) of ours is OpenSpiel's (col, row): the board is
transposed, and seat 0 is OpenSpiel's player 0 in both.  Every game is checked: both
rule sets must agree on the winner.

Our bot's clock is by default the worker's CPU time (``--clock cpu``), not the wall clock:
this machine is shared, and under load a wall clock would hand our bot a fraction of
the computing the fixed-simulation opponent still gets.  ``--clock wall`` is the
arena's own view.  Jobs are interleaved over (size, colour), and the table is printed
every ``--table-every`` games, so a stopped run still gives balanced figures.

The runs reported (200 games; then a smaller sample against a 1000-simulation opponent)::

    python bench/hex_strength.py --sizes 9 11 --games 50 --sims 300 --game-time 10 --workers 2
    python bench/hex_strength.py --sizes 9 11 --games 10 --sims 1000 --game-time 10 --workers 2
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from games.hex.bot import make_bot  # noqa: E402
from games.hex.rules import HexGame  # noqa: E402


def runner_budget(remaining: float) -> float:
    """What runner/seats.py BotSeat passes as ``time_budget`` for a remaining clock."""
    return max(0.01, remaining * 0.9 - 0.02)


def play_one(job: tuple) -> dict:
    """One game; returns who won and how our bot used its clock."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    size, our_seat, index, sims, game_time, level, seed, clock, position = job
    if clock == "cpu":
        time.perf_counter = time.process_time   # the bot's clock, in this worker process only
    timer = time.perf_counter
    game_seed = seed * 100_003 + size * 1_009 + our_seat * 101 + index
    spiel_game = pyspiel.load_game(f"hex(num_rows={size},num_cols={size})")
    spiel_state = spiel_game.new_initial_state()
    opponent = mcts.MCTSBot(spiel_game, 2.0, sims,
                            mcts.RandomRolloutEvaluator(1, np.random.RandomState(game_seed)),
                            random_state=np.random.RandomState(game_seed + 1))
    ours = make_bot(level, game_seed)
    ours.prepare()                     # compile before the clock runs, as the runner does
    state = HexGame().new_initial_state({"size": size, "position": position}, game_seed)
    set_up_openspiel(spiel_state, state)
    remaining = game_time
    longest_move = 0.0
    overruns = 0
    while state.outcome() is None:
        seat = state.current
        if seat == our_seat:
            budget = runner_budget(remaining)
            start = timer()
            move = ours.choose(state.clone(), seat, budget)
            used = timer() - start
            remaining -= used
            longest_move = max(longest_move, used)
            overruns += used > budget
            index_ours = state.index(move)
            r, c = divmod(index_ours, size)
            spiel_state.apply_action(c * size + r)
        else:
            action = opponent.step(spiel_state)
            spiel_state.apply_action(action)
            r_os, c_os = divmod(action, size)
            move = state.move_at(c_os * size + r_os)
        state.push(move)
    winner = state.outcome().winners[0] if state.outcome().winners else None
    spiel_winner = 0 if spiel_state.returns()[0] > 0 else 1
    if not spiel_state.is_terminal() or spiel_winner != winner:
        raise RuntimeError(f"rules disagree: ours {winner}, OpenSpiel {spiel_state}")
    return {"size": size, "seat": our_seat, "won": winner == our_seat, "time": game_time - remaining,
            "longest": longest_move, "overruns": overruns, "stones": state.turn,
            "out_of_time": remaining < 0}


def set_up_openspiel(spiel_state, state) -> None:
    """Place a start position's stones on OpenSpiel's board, alternating colours."""
    size = state.size
    by_colour = {1: [], 2: []}
    for index, value in enumerate(state.cells):
        if value:
            by_colour[value].append(index)
    for ours_p1, ours_p2 in zip(by_colour[1], by_colour[2]):
        for index in (ours_p1, ours_p2):
            r, c = divmod(index, size)
            spiel_state.apply_action(c * size + r)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 11])
    parser.add_argument("--games", type=int, default=50, help="games per (size, colour)")
    parser.add_argument("--sims", type=int, default=1000, help="OpenSpiel MCTS simulations per move")
    parser.add_argument("--game-time", type=float, default=10.0,
                        help="our bot's total clock per game, seconds")
    parser.add_argument("--level", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="what our bot's clock measures (see the module docstring)")
    parser.add_argument("--table-every", type=int, default=20)
    parser.add_argument("--position", default="",
                        help="start position (the game's position option; one size only)")
    args = parser.parse_args(argv)

    if args.position and len(args.sizes) != 1:
        parser.error("--position needs exactly one --sizes value")
    jobs = [(size, seat, i, args.sims, args.game_time, args.level, args.seed, args.clock, args.position)
            for i in range(args.games) for size in args.sizes for seat in (0, 1)]
    print(f"our bot: level {args.level}, {args.game_time:g} s per game ({args.clock} clock); "
          f"OpenSpiel MCTSBot: "
          f"{args.sims} simulations, uct_c=2, 1 random rollout; {len(jobs)} games, "
          f"{args.workers} workers" + (f"; start position {args.position}" if args.position else ""),
          flush=True)
    started = time.time()
    results = []
    with Pool(args.workers) as pool:
        for done, result in enumerate(pool.imap_unordered(play_one, jobs), start=1):
            results.append(result)
            print(f"[{done}/{len(jobs)} {time.time() - started:6.0f}s] size {result['size']} "
                  f"as player {result['seat'] + 1}: {'won' if result['won'] else 'LOST'} "
                  f"({result['stones']} stones, {result['time']:.2f} s used)", flush=True)
            if done % args.table_every == 0 and done < len(jobs):
                print_table(results, args)
    print_table(results, args)
    print(f"wall time {time.time() - started:.0f} s")


def print_table(results: list[dict], args) -> None:
    print()
    print("size  our colour              games  wins  win rate  avg s/game  longest move  overruns")
    for size in args.sizes:
        for seat, label in ((0, "player 1 (cols, first)"), (1, "player 2 (rows)       ")):
            rows = [r for r in results if r["size"] == size and r["seat"] == seat]
            if not rows:
                continue
            wins = sum(r["won"] for r in rows)
            print(f"{size:>2}x{size:<2} {label}  {len(rows):5d} {wins:5d}  {100 * wins / len(rows):7.1f}%"
                  f"  {sum(r['time'] for r in rows) / len(rows):10.2f}  {max(r['longest'] for r in rows):11.3f}s"
                  f"  {sum(r['overruns'] for r in rows):8d}")
    total = len(results)
    print(f"total {sum(r['won'] for r in results)}/{total} wins; "
          f"games over the clock: {sum(r['out_of_time'] for r in results)}", flush=True)


if __name__ == "__main__":
    main()
