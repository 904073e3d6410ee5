"""How good the built-in Xiangqi bot's moves are, judged move by move by Fairy-Stockfish.

    python bench/xiangqi_move_quality.py --engine "$ARENA_FAIRY_STOCKFISH" \\
        --seat "bot:5 movetime=1850" [--positions 120] [--seed 5] [--save FILE] [--compare FILE]

A strength series (``xiangqi_engine_series.py``) takes an hour for a ±12 % answer.  This
asks a narrower question in minutes: on the same positions, how much worse than the
engine's best is the move the bot picks?  It takes middlegame positions from
Fairy-Stockfish's randomised self-play (as ``xiangqi_eval_fit.py`` does, from the
series' openings), lets the seat choose a move in each (a fresh bot, no book), and asks
the engine at ``--judge-depth`` for the score of its best move and of the bot's move.
The loss is the difference, in the engine's centipawns (cut at 1,000: a lost piece or
a missed mate counts as that).  It prints the mean loss, the share of moves the engine
also plays, of mistakes (loss over 100) and of blunders (over 300).

``--judge-cache FILE`` keeps the engine's judgements between runs (the engine's answer
depends a little on what it searched before, so without it the same move may score a
few centipawns apart in two runs).  ``--rival-depth 9`` also judges the engine's own
move at depth 9 on the same positions, the level the series plays against.
``--save`` keeps each position's move and loss; ``--compare`` reads a file another
version of the bot saved on the same positions (same ``--seed`` and ``--positions``)
and prints the mean of the paired differences with its standard error.  Positions where
both pick the same move differ by nothing, so two versions compare far more precisely
than two series.  Run the versions side by side on a 2-core machine (one each), or
with ``nodes=`` instead of ``movetime=`` so the load does not matter.

Measured (``--positions 120 --seed 5``, judged at depth 12 by Fairy-Stockfish built
locally with its classical evaluation; 2026-11-25)::

    bot:5 nodes=150000              mean loss 25.3 cp (SE 3.2); engine's move 39%,
                                    mistakes 3.3%, blunders 0%; mean depth 8.84
    the engine at depth 9           mean loss 20.5 cp (SE 2.9); engine's move 45%,
      (--rival-depth 9)             mistakes 5.0%, blunders 0%
    bot:5 nodes=40000               mean loss 29.1 cp (SE 3.6); engine's move 35%,
                                    mistakes 5.0%; mean depth 6.88

Paired against ``nodes=150000`` of the search as it stands (loss difference, SE; same
move out of 120), before ``--judge-cache`` existed (the same move twice was judged up
to a few centipawns apart: +1.4 ± 1.4 for the same bot run twice)::

    without the reduction of nodes with no table move   -0.4 ± 2.3  (106)
    reductions from the 3rd quiet move, log/1.9          +0.6 ± 1.1  (101)
    null move reduced 3 + depth/4 plies                  +0.6 ± 1.4  (105)
    the table read in the captures-only search          +0.6 ± 1.6  (111)
    40,000 nodes instead of 150,000                     +3.8 ± 3.2   (94)

So the bot gives away about 5 cp a move more than the engine at depth 9 (the level it
scores 50% against over whole games), and none of the search changes tried moves the
mean by more than its noise; even a quarter of the nodes costs only 4 cp on 120
positions.  The measure is a quick check that a change does no harm, not a verdict:
a small strength difference needs many more positions (or the series).
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.xiangqi_eval_fit import Analyser, info_score, labelled_positions  # noqa: E402
from games.xiangqi.bot import make_bot  # noqa: E402
from games.xiangqi.engine_seats import to_engine_move  # noqa: E402
from games.xiangqi.rules import XiangqiGame  # noqa: E402
from runner.seats import bot_settings, parse_seat_spec  # noqa: E402

LOSS_CAP = 1000          # a loss beyond this (a piece, a mate) counts as this
MISTAKE, BLUNDER = 100, 300


def engine_search(engine: Analyser, fen: str, depth: int, move: str | None = None) -> list[list[str]]:
    """The engine's output, split in words, searching ``fen`` to ``depth`` (only ``move``
    when given) from an empty hash table, so that the same question gets the same answer."""
    engine.send("ucinewgame")
    engine.send("isready")
    engine.read_until("readyok")
    engine.send(f"position fen {fen}")
    engine.send(f"go depth {depth}" + (f" searchmoves {move}" if move else ""))
    return engine.read_until("bestmove")


def engine_score(engine: Analyser, fen: str, depth: int, move: str | None = None) -> int:
    """The engine's score for the side to move in ``fen`` at ``depth``: of its best move,
    or of ``move`` (in the engine's notation) when given."""
    score = None
    for words in engine_search(engine, fen, depth, move):
        first_line = "multipv" in words and words[words.index("multipv") + 1] == "1"
        if words[:1] == ["info"] and "score" in words and first_line:
            score = info_score(words)
    if score is None:
        raise SystemExit(f"the engine gave no score for {fen}")
    return score


class Judge:
    """The engine's scores at the judging depth, kept in a file between runs (``--judge-cache``):
    the engine's answers depend a little on what it searched before, so two versions of the
    bot that pick the same move must get the same score for it to compare exactly."""

    def __init__(self, engine: Analyser, depth: int, path: Path | None):
        self.engine, self.depth, self.path = engine, depth, path
        self.scores: dict[str, int] = json.loads(path.read_text()) if path and path.exists() else {}

    def score(self, fen: str, move: str | None = None) -> int:
        key = f"{fen}|{move or 'best'}|{self.depth}"
        if key not in self.scores:
            self.scores[key] = engine_score(self.engine, fen, self.depth, move)
        return self.scores[key]

    def save(self) -> None:
        if self.path:
            earlier = json.loads(self.path.read_text()) if self.path.exists() else {}
            self.path.write_text(json.dumps({**earlier, **self.scores}))


def engine_move(engine: Analyser, fen: str, depth: int) -> str:
    """The move the engine plays in ``fen`` searching to ``depth`` (its notation)."""
    return engine_search(engine, fen, depth)[-1][1]


def bot_move(spec: str, fen: str, game: XiangqiGame) -> tuple[str, dict]:
    """The move a fresh bot of ``spec`` picks in ``fen`` (no book), and its search info."""
    kind, arg = parse_seat_spec(spec)
    level, _space, rest = arg.partition(" ")
    if kind != "bot" or not level.isdigit():
        raise SystemExit(f"--seat {spec!r}: expected a built-in bot, bot:LEVEL [SETTINGS]")
    bot = make_bot(int(level), 0, {**bot_settings(rest), "book": "0"})
    state = game.new_initial_state({"fen": fen}, 0)
    move = bot.choose(state, state.side, None)
    return move, dict(bot.last_info)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="a Fairy-Stockfish (largeboards) binary")
    parser.add_argument("--seat", default="bot:5 movetime=1850", help="a built-in bot seat spec")
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--judge-depth", type=int, default=12)
    parser.add_argument("--rival-depth", type=int,
                        help="also judge the engine's own moves at this depth, for reference")
    parser.add_argument("--judge-cache", type=Path, help="keep the engine's judgements in this file (JSON)")
    parser.add_argument("--save", type=Path, help="write each position's move and loss here (JSON)")
    parser.add_argument("--compare", type=Path, help="a --save file of another version, same positions")
    args = parser.parse_args()
    engine = Analyser(args.engine)
    judge = Judge(engine, args.judge_depth, args.judge_cache)
    game = XiangqiGame()
    results = []
    try:
        found = labelled_positions(engine, max(1, args.positions // 25 + 1), args.seed)
        step = max(1, len(found) // args.positions)
        positions = [position for position, _ in found[::step]][:args.positions]
        engine.send("setoption name MultiPV value 1")
        for index, position in enumerate(positions):
            fen = position.fen()
            started = time.perf_counter()
            move, info = bot_move(args.seat, fen, game)
            seconds = time.perf_counter() - started
            best = judge.score(fen)
            played = judge.score(fen, to_engine_move(move, 1))
            loss = min(LOSS_CAP, max(0, best - played))
            results.append({"fen": fen, "move": move, "loss": loss, "depth": info.get("depth"),
                            "seconds": round(seconds, 3)})
            if args.rival_depth:
                rival = judge.score(fen, engine_move(engine, fen, args.rival_depth))
                results[-1]["rival_loss"] = min(LOSS_CAP, max(0, best - rival))
            print(f"  {index + 1:3d} {move} loss {loss:4d}  depth {info.get('depth')}  {seconds:.2f} s",
                  file=sys.stderr, flush=True)
    finally:
        engine.close()
        judge.save()
    report(args.seat, [r["loss"] for r in results], results)
    if args.rival_depth:
        report(f"the engine at depth {args.rival_depth}", [r["rival_loss"] for r in results])
    if args.save:
        args.save.write_text(json.dumps(results, indent=0))
    if args.compare:
        compare(results, json.loads(args.compare.read_text()), args.compare)
    return 0


def report(player: str, losses: list[int], results: list[dict] | None = None) -> None:
    """One line: the mean loss and the shares of best moves, mistakes and blunders (and,
    given the bot's ``results``, its mean depth and time)."""
    share = lambda test: 100 * sum(1 for loss in losses if test(loss)) / len(losses)  # noqa: E731
    line = (f"{player}: {len(losses)} positions, mean loss {statistics.mean(losses):.1f} cp "
            f"(standard error {statistics.stdev(losses) / math.sqrt(len(losses)):.1f}); "
            f"engine's move {share(lambda x: x == 0):.0f}%, mistakes (>{MISTAKE}) {share(lambda x: x > MISTAKE):.1f}%, "
            f"blunders (>{BLUNDER}) {share(lambda x: x > BLUNDER):.1f}%")
    if results:
        depths = [r["depth"] for r in results if r["depth"]]
        line += (f"; mean depth {statistics.mean(depths):.2f}, "
                 f"mean {statistics.mean(r['seconds'] for r in results):.2f} s a move")
    print(line)


def compare(results: list[dict], other: list[dict], name: Path) -> None:
    """Paired differences of loss (this run minus the other) on the positions both have."""
    theirs = {r["fen"]: r for r in other}
    pairs = [(r, theirs[r["fen"]]) for r in results if r["fen"] in theirs]
    if len(pairs) < 2:
        raise SystemExit(f"{name}: fewer than two of these positions; same --seed and --positions?")
    differences = [mine["loss"] - their["loss"] for mine, their in pairs]
    same = sum(1 for mine, their in pairs if mine["move"] == their["move"])
    error = statistics.stdev(differences) / math.sqrt(len(differences))
    print(f"against {name}: {len(pairs)} positions, the same move in {same}; mean loss difference "
          f"{statistics.mean(differences):+.1f} cp (standard error {error:.1f}; negative: this run is better)")


if __name__ == "__main__":
    raise SystemExit(main())
