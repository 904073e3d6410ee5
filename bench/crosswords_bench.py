"""Crossed Words: move-generation speed and the solver's score against a greedy baseline.

    python bench/crosswords_bench.py [--seconds 10] [--seeds 10] [--long]

Prints the moves per second the generator lists on a mid-game board (a full hand,
after 20 greedy turns), then for each seeded pile set the greedy score, the planner's
score within ``--seconds`` and their ratio; ``--long`` adds a 60-second column.
The built-in dictionary is used (built once and cached under the user data folder).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--long", action="store_true", help="also run the planner for 60 s")
    args = parser.parse_args()

    from games.crosswords.dictionary import load_dictionary
    from games.crosswords.files import verify_output, write_output
    from games.crosswords.movegen import generate
    from games.crosswords.rules import CrosswordsState, Draw, Place, random_piles
    from games.crosswords.solver import greedy_game, plan_game

    began = time.perf_counter()
    words = load_dictionary("")
    print(f"dictionary: {len(words)} words, loaded in {time.perf_counter() - began:.3f} s")

    # A mid-game board: 20 greedy turns, then a full hand.
    state = CrosswordsState(words, random_piles(1))
    moves = greedy_game(state)
    played = 0
    for move in moves:
        if isinstance(move, Place):
            played += 1
        state.apply({0: move})
        if played == 20 and len(state.hand) < 8 and state.may_draw:
            pile = max(range(3), key=lambda p: len(state.piles[p]))
            state.apply({0: Draw(pile + 1, state.piles[pile][:8 - len(state.hand)])})
            break
    count, runs = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < 2.0:
        count += len(generate(state.board, state.hand, words))
        runs += 1
    elapsed = time.perf_counter() - start
    print(f"move generation: hand {state.hand}, {count // runs} placements per position, "
          f"{elapsed / runs * 1000:.1f} ms per position, {count / elapsed:,.0f} moves/s")

    header = f"{'seed':>4} {'greedy':>7} {'plan ' + format(args.seconds, 'g') + 's':>9} {'ratio':>6}"
    if args.long:
        header += f" {'plan 60s':>9} {'ratio':>6}"
    print(header)
    ratios, long_ratios = [], []
    for seed in range(1, args.seeds + 1):
        piles = random_piles(seed)
        start_state = CrosswordsState(words, piles)
        greedy = verify_output(write_output(start_state, greedy_game(start_state)), piles, words)
        planned = verify_output(write_output(start_state, plan_game(start_state, args.seconds)),
                                piles, words)
        assert greedy.valid and planned.valid
        ratio = planned.score / max(1, greedy.score)
        ratios.append(ratio)
        row = f"{seed:>4} {greedy.score:>7} {planned.score:>9} {ratio:>6.3f}"
        if args.long:
            longer = verify_output(write_output(start_state, plan_game(start_state, 60.0)), piles, words)
            long_ratios.append(longer.score / max(1, greedy.score))
            row += f" {longer.score:>9} {long_ratios[-1]:>6.3f}"
        print(row, flush=True)
    summary = f"mean ratio {statistics.mean(ratios):.3f}"
    if long_ratios:
        summary += f"; 60 s: {statistics.mean(long_ratios):.3f}"
    print(summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
