"""Does the built-in Xiangqi bot find the one move that holds or wins?  A tactics set made
and scored with Fairy-Stockfish.

    python bench/xiangqi_tactics.py --engine "$ARENA_FAIRY_STOCKFISH" --make tactics.json [--games 60]
    python bench/xiangqi_tactics.py --set tactics.json --seat "bot:5 movetime=1850" \\
        [--save FILE] [--compare FILE]
    python bench/xiangqi_tactics.py --set tactics.json --engine "$ARENA_FAIRY_STOCKFISH" --rival-depth 9

The bot rarely loses a game by slowly drifting: in the series against Fairy-Stockfish its
losses are sudden, a level position turned into a lost one in a move or two by a threat it
did not see.  Mean move quality (``xiangqi_move_quality.py``) hardly notices those, since
most positions have several good moves.  This measure keeps only the positions that have
one: ``--make`` plays the randomised self-play of ``xiangqi_eval_fit.py`` and keeps each
position (not lost for the side to move) where the engine at ``--judge-depth`` (12) rates
its best move at least ``--margin`` (150) centipawns above its second (a tactic to play, or
the only defence against one).  Any other move then gives that much away, so a position is
*found* when the bot plays the engine's move.  ``--set`` lets a seat (a fresh bot, no book)
choose in every position and prints the share found with its standard error;
``--compare`` pairs it with another version's ``--save`` file on the same set.

``--rival-depth N`` (with ``--engine``) scores the engine itself at depth N instead.

Measured (2026-11-25, the search before its two speed-ups of that day) on the set of
``--games 60 --seed 11``: 1,622 positions judged (15 minutes), 129 kept.  Bot runs two
at a time, one a core::

    bot:5 movetime=1850                      110/129 = 85.3% (SE 3.1), mean depth 9.8
    the same, 7.4 s a move (on its 19 misses)   7 of the 19 found
    Fairy-Stockfish at depth 9               109/129;  at depth 7: 100/129
    with a mate-threat extension and quiet   112/129 (3 more found, 1 fewer);
      checks at the first captures-only ply  24 openings to depth 7 take 22% more time
    with the mate-threat extension alone     109/129 (1 fewer)

So the bot finds single tactics as often as the engine it scores 50% against: its
sudden losses are not one-move tactics in the position it stands in, but lines that
start earlier, where no single move yet stands out.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.xiangqi_eval_fit import Analyser, labelled_positions, ranked_moves  # noqa: E402
from bench.xiangqi_move_quality import bot_move, engine_move, engine_search  # noqa: E402
from games.xiangqi.engine_seats import to_engine_move  # noqa: E402
from games.xiangqi.rules import XiangqiGame  # noqa: E402

LOST = -300          # positions the side to move already loses by more are left out


def two_best(engine: Analyser, fen: str, depth: int) -> list[tuple[int, str]]:
    """The engine's (score, move) for its best two moves in ``fen`` at ``depth``, best first
    (one pair when the position has one legal move)."""
    return ranked_moves(engine_search(engine, fen, depth))


def is_tactic(best: list[tuple[int, str]], margin: int) -> bool:
    """Whether the engine's two best (score, move) make an only-move position: not lost,
    the best move ``margin`` centipawns or more above the second."""
    return len(best) == 2 and best[0][0] >= LOST and best[0][0] - best[1][0] >= margin


def make_set(engine: Analyser, games: int, seed: int, depth: int, margin: int) -> list[dict]:
    """Only-move positions of the engine's randomised self-play (see the module's docstring)."""
    positions = [position for position, _ in labelled_positions(engine, games, seed)]
    engine.send("setoption name MultiPV value 2")
    kept = []
    for index, position in enumerate(positions):
        fen = position.fen()
        best = two_best(engine, fen, depth)
        if is_tactic(best, margin):
            kept.append({"fen": fen, "best": best[0][1], "score": best[0][0], "second": best[1][0]})
        if (index + 1) % 50 == 0:
            print(f"  {index + 1}/{len(positions)} judged, {len(kept)} kept", file=sys.stderr, flush=True)
    return kept


def score_set(seat: str, tactics: list[dict]) -> list[dict]:
    """The seat's move in each position of the set, and whether it is the engine's."""
    game = XiangqiGame()
    results = []
    for index, tactic in enumerate(tactics):
        started = time.perf_counter()
        move, info = bot_move(seat, tactic["fen"], game)
        found = to_engine_move(move, 1) == tactic["best"]
        results.append({"fen": tactic["fen"], "move": move, "found": found, "depth": info.get("depth"),
                        "seconds": round(time.perf_counter() - started, 3)})
        print(f"  {index + 1:3d} {move} {'found' if found else 'missed'}  depth {info.get('depth')}",
              file=sys.stderr, flush=True)
    return results


def score_engine(command: str, depth: int, tactics: list[dict]) -> list[dict]:
    """The engine's own move at ``depth`` in each position of the set."""
    engine = Analyser(command)
    engine.send("setoption name MultiPV value 1")
    results = []
    try:
        for tactic in tactics:
            move = engine_move(engine, tactic["fen"], depth)
            results.append({"fen": tactic["fen"], "move": move, "found": move == tactic["best"],
                            "depth": depth, "seconds": 0.0})
    finally:
        engine.close()
    return results


def report(seat: str, results: list[dict]) -> None:
    found = sum(r["found"] for r in results)
    share = found / len(results)
    error = math.sqrt(share * (1 - share) / len(results))
    depths = [r["depth"] for r in results if r["depth"]]
    print(f"{seat}: found {found}/{len(results)} = {100 * share:.1f}% (standard error {100 * error:.1f}); "
          f"mean depth {sum(depths) / max(1, len(depths)):.2f}, "
          f"mean {sum(r['seconds'] for r in results) / len(results):.2f} s a move")


def compare(results: list[dict], other: list[dict], name: Path) -> None:
    """Positions one version finds and the other misses, both ways (the same set)."""
    if [r["fen"] for r in results] != [r["fen"] for r in other]:
        raise SystemExit(f"{name}: not the same set of positions")
    gained = sum(1 for mine, theirs in zip(results, other) if mine["found"] and not theirs["found"])
    lost = sum(1 for mine, theirs in zip(results, other) if theirs["found"] and not mine["found"])
    print(f"against {name}: {gained} found that it missed, {lost} missed that it found "
          f"(net {gained - lost:+d} of {len(results)})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", help="a Fairy-Stockfish (largeboards) binary, to --make a set")
    parser.add_argument("--make", type=Path, help="write a new set here (JSON)")
    parser.add_argument("--games", type=int, default=60, help="self-play games the set is taken from")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--judge-depth", type=int, default=12)
    parser.add_argument("--margin", type=int, default=150, help="centipawns the best move beats the second by")
    parser.add_argument("--set", type=Path, help="a set made by --make, to score --seat on")
    parser.add_argument("--seat", default="bot:5 movetime=1850", help="a built-in bot seat spec")
    parser.add_argument("--rival-depth", type=int, help="score the engine (--engine) at this depth instead")
    parser.add_argument("--save", type=Path, help="write each position's move here (JSON)")
    parser.add_argument("--compare", type=Path, help="a --save file of another version, same set")
    args = parser.parse_args()
    if args.make:
        if not args.engine:
            parser.error("--make needs --engine")
        engine = Analyser(args.engine)
        try:
            tactics = make_set(engine, args.games, args.seed, args.judge_depth, args.margin)
        finally:
            engine.close()
        args.make.write_text(json.dumps(tactics, indent=0))
        print(f"{len(tactics)} positions written to {args.make}")
        return 0
    if not args.set:
        parser.error("give --make FILE (with --engine) or --set FILE")
    tactics = json.loads(args.set.read_text())
    if args.rival_depth:
        if not args.engine:
            parser.error("--rival-depth needs --engine")
        seat = f"the engine at depth {args.rival_depth}"
        results = score_engine(args.engine, args.rival_depth, tactics)
    else:
        seat = args.seat
        results = score_set(seat, tactics)
    report(seat, results)
    if args.save:
        args.save.write_text(json.dumps(results, indent=0))
    if args.compare:
        compare(results, json.loads(args.compare.read_text()), args.compare)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
