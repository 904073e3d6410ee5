"""Tam Quan bots: the strongest against random, and a ladder between neighbouring levels.

    python bench/tamquan_bench.py [--games 100] [--ladder-games 40] [--variant 5x5-2teams]
    python bench/tamquan_bench.py --four 8 [--opponent 2]    (8x8, four teams)

Each pairing alternates which bot moves first.  Every game starts from its own random
setup (both teams placed by a seeded random choice), so the games differ even though
the search bots are close to deterministic.  A game counts as a win for
the team ranked alone in first place; anything else (equal pieces at the turn limit)
is a draw.  Prints one line per pairing: wins, draws, losses, win rate, seconds.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.tamquan.bot import make_bot  # noqa: E402
from games.tamquan.rules import TamQuanGame  # noqa: E402

LEVELS = ("random", "greedy", "search", "strongest")


def play(levels: list[int], seed: int, variant: str, budget: float | None = None,
         turn_limit: int | None = None) -> tuple:
    """One game between bots of ``levels`` (one per team); returns the outcome."""
    game = TamQuanGame()
    options = game.spec.resolve_options(variant, {"turn_limit": turn_limit} if turn_limit else {})
    state = game.new_initial_state(options, seed)
    bots = [make_bot(level, seed * 10 + i) for i, level in enumerate(levels)]
    opening = make_bot(1, seed)
    while state.setup:
        team = state.to_move()[0]
        state.play({team: opening.choose(state.clone(), team, budget)})
    while not state.is_terminal():
        team = state.to_move()[0]
        move = bots[team].choose(state.clone(), team, budget)
        state.play({team: move})
    return state.outcome(), state.play_turns


def duel(strong: int, weak: int, games: int, variant: str,
         turn_limit: int | None = None) -> tuple[int, int, int, float]:
    wins = draws = losses = 0
    start = time.perf_counter()
    for g in range(games):
        first = g % 2 == 0
        levels = [strong, weak] if first else [weak, strong]
        me = 0 if first else 1
        outcome, _ = play(levels, 1000 + g, variant, turn_limit=turn_limit)
        if outcome.winners == (me,):
            wins += 1
        elif outcome.winners:
            losses += 1
        else:
            draws += 1
    return wins, draws, losses, time.perf_counter() - start


def four_teams(games: int, opponent: int, turn_limit: int = 100) -> None:
    """The strongest bot against three bots of level ``opponent`` on 8x8, its seat
    rotating; prints how often it placed first alone, shared first, or lower."""
    alone = shared = lower = 0
    start = time.perf_counter()
    for g in range(games):
        seat = g % 4
        levels = [opponent] * 4
        levels[seat] = len(LEVELS)
        outcome, _ = play(levels, 2000 + g, "8x8-4teams", turn_limit=turn_limit)
        if outcome.winners == (seat,):
            alone += 1
        elif outcome.ranks[seat] == 1:
            shared += 1
        else:
            lower += 1
    print(f"8x8-4teams: strongest vs three {LEVELS[opponent - 1]} (turn limit {turn_limit}): "
          f"first alone {alone}, shared first {shared}, lower {lower} of {games} "
          f"({time.perf_counter() - start:.1f} s)", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--ladder-games", type=int, default=40)
    parser.add_argument("--variant", default="5x5-2teams")
    parser.add_argument("--four", type=int, default=0, help="only: N four-team games")
    parser.add_argument("--opponent", type=int, default=2, help="level of the three others")
    args = parser.parse_args(argv)
    if args.four:
        four_teams(args.four, args.opponent)
        return 0
    top = len(LEVELS)
    pairs = [(top, 1, args.games)] + [(lvl + 1, lvl, args.ladder_games)
                                      for lvl in range(1, top)]
    ok = True
    for strong, weak, games in pairs:
        w, d, l, secs = duel(strong, weak, games, args.variant)
        rate = w / games
        print(f"{args.variant}: {LEVELS[strong - 1]} (L{strong}) vs {LEVELS[weak - 1]} (L{weak}): "
              f"{w} wins, {d} draws, {l} losses of {games} = {rate:.0%} wins "
              f"({secs:.1f} s)", flush=True)
        if strong == top and weak == 1 and rate < 0.9:
            ok = False
        if w <= l:
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
