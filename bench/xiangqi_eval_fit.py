"""How far the bot's leaf evaluation agrees with Fairy-Stockfish's scores, term by term.

    python bench/xiangqi_eval_fit.py --engine "$ARENA_FAIRY_STOCKFISH" [--games 120] [--seed 11]

Plays ``--games`` games of Fairy-Stockfish against itself from the strength series'
openings, each move picked at random among those scoring within 80 centipawns of the
best at depth 5, and keeps every third position from the 8th half-move on.  Each kept
position where the side to move is not in check and the engine's score is within 800
centipawns is labelled with that depth-5 score (Red-positive).  The script then prints

* the share of the scores' variance (R²) the bot's static evaluation explains (material
  and tables plus the leaf terms of ``games/xiangqi/evaluation.py``, with a side-to-move
  term, fitted by least squares);
* each term's residual: its weight, in the bot's centipawns, when fitted next to the
  whole evaluation (the chariots' worth is the scale).  A residual near 0 means the
  evaluation already weighs that term as the engine's scores do; -35 on "soldiers short
  of the river" means they score 35 less than the evaluation says.  Few positions are
  near a bare board, so its residuals are the least certain.

The weights of ``evaluation.py`` and the elephant's and unadvanced soldier's values in
``bot.py`` were set from these residuals.  A fit to one engine's scores is a guide, not
proof: the strength series (``xiangqi_engine_series.py``) decides.
"""
from __future__ import annotations

import argparse
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.xiangqi_engine_series import OPENINGS  # noqa: E402
from games.xiangqi.bot import evaluate_from_scratch  # noqa: E402
from games.xiangqi.engine_seats import from_engine_move, to_engine_move  # noqa: E402
from games.xiangqi.evaluation import PHASE_FULL, freedom, leaf_terms, side_danger  # noqa: E402
from games.xiangqi.rules import (ADVISOR, BLACK, CANNON, CHARIOT, ELEPHANT, HORSE, RED, SOLDIER,  # noqa: E402
                                 START_FEN, Position, parse_move_text, rank_of)

DEPTH = 5
CHOICES = 4            # moves the engine lists (MultiPV) ...
SPREAD = 80            # ... of which those this close to the best may be played
MAX_SCORE = 800        # positions scored beyond this are decided, not evaluated
TERMS = ("horses on a full board", "horses on a bare board", "cannons on a full board",
         "cannons on a bare board", "advisors", "elephants", "soldiers short of the river",
         "crossed soldiers", "general's danger", "freedom")


def info_score(words: list[str]) -> int:
    """The score of a UCI ``info`` line (split in words) for the side to move, in
    centipawns; a mate counts as 30,000 either way."""
    kind, value = words[words.index("score") + 1:words.index("score") + 3]
    return int(value) if kind == "cp" else (30000 if int(value) > 0 else -30000)


def ranked_moves(lines: list[list[str]]) -> list[tuple[int, str]]:
    """(score, first move) of each variation in a MultiPV search's output (lines split in
    words), best first; each variation's deepest line counts."""
    found: dict[int, tuple[int, str]] = {}
    for words in lines:
        if words[:1] == ["info"] and "multipv" in words and "score" in words and "pv" in words:
            found[int(words[words.index("multipv") + 1])] = (info_score(words), words[words.index("pv") + 1])
    return [found[rank] for rank in sorted(found)]


class Analyser:
    """A UCI engine asked for its best few moves at a fixed depth."""

    def __init__(self, command: str):
        self.process = subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.send("uci")
        self.read_until("uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send(f"setoption name MultiPV value {CHOICES}")
        self.send("isready")
        self.read_until("readyok")

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")

    def read_until(self, word: str) -> list[list[str]]:
        """The engine's lines, split in words, up to the one that starts with ``word``."""
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit(f"the engine stopped before answering {word!r}")
            lines.append(line.split())
            if lines[-1][:1] == [word]:
                return lines

    def best_moves(self, moves: list[str]) -> list[tuple[int, str]]:
        """(score for the side to move, move) of the engine's best moves, best first."""
        self.send(f"position fen {START_FEN}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go depth {DEPTH}")
        return ranked_moves(self.read_until("bestmove"))

    def close(self) -> None:
        self.send("quit")
        self.process.wait(timeout=10)


def labelled_positions(engine: Analyser, games: int, seed: int) -> list[tuple[Position, int]]:
    """Quiet positions of randomised self-play with the engine's Red-positive score."""
    rng = random.Random(seed)
    kept = []
    for game in range(games):
        moves = [to_engine_move(text, 1) for text in OPENINGS[(game + seed) % len(OPENINGS)][1].split()]
        while len(moves) < 110:
            choices = engine.best_moves(moves)
            if not choices or abs(choices[0][0]) > 1500:
                break
            ply = len(moves)
            if ply >= 8 and ply % 3 == game % 3 and abs(choices[0][0]) <= MAX_SCORE:
                position = replay(moves)
                if not position.in_check(position.side):
                    kept.append((position, choices[0][0] if position.side == RED else -choices[0][0]))
            moves.append(rng.choice([move for score, move in choices if score >= choices[0][0] - SPREAD]))
        print(f"  game {game + 1}/{games}: {len(kept)} positions", file=sys.stderr, flush=True)
    return kept


def replay(moves: list[str]) -> Position:
    position = Position.from_fen(START_FEN)[0]
    for text in moves:
        position.make(parse_move_text(from_engine_move(text, 1)))
    return position


def evaluation(position: Position) -> int:
    """The bot's Red-positive static score with its leaf terms (no search)."""
    return evaluate_from_scratch(position) + leaf_terms(position)


def term_values(position: Position) -> list[float]:
    """Red minus Black for each of TERMS.  A horse or cannon counts on a full board by the
    phase (the share of the attacking pieces left) and on a bare one by the rest.  The
    chariots are left out: their worth is the scale the others are measured against."""
    board = position.board
    counts = {side: {kind: 0 for kind in (CHARIOT, HORSE, CANNON, ADVISOR, ELEPHANT)} for side in (RED, BLACK)}
    soldiers = {side: [0, 0] for side in (RED, BLACK)}          # short of the river, crossed
    for side in (RED, BLACK):
        for sq in position.squares[side]:
            kind = board[sq] & 7
            if kind == SOLDIER:
                crossed = rank_of(sq) >= 5 if side == RED else rank_of(sq) <= 4
                soldiers[side][crossed] += 1
            elif kind in counts[side]:
                counts[side][kind] += 1
    weight = sum(2 * c[CHARIOT] + c[HORSE] + c[CANNON] for c in counts.values())
    phase = min(weight, PHASE_FULL) / PHASE_FULL
    diff = {kind: counts[RED][kind] - counts[BLACK][kind] for kind in counts[RED]}
    return [diff[HORSE] * phase, diff[HORSE] * (1 - phase), diff[CANNON] * phase, diff[CANNON] * (1 - phase),
            diff[ADVISOR], diff[ELEPHANT],
            soldiers[RED][0] - soldiers[BLACK][0], soldiers[RED][1] - soldiers[BLACK][1],
            side_danger(position, BLACK) - side_danger(position, RED),
            freedom(position, RED) - freedom(position, BLACK)]


def least_squares(rows: list[list[float]], targets: list[float]) -> list[float]:
    """Coefficients minimising the squared error (normal equations, Gaussian elimination)."""
    size = len(rows[0])
    matrix = [[sum(row[i] * row[j] for row in rows) for j in range(size)]
              + [sum(row[i] * y for row, y in zip(rows, targets))] for i in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(matrix[r][col]))
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        if abs(matrix[col][col]) < 1e-9:
            raise SystemExit("the terms are not independent on these positions; play more games")
        for r in range(size):
            if r != col:
                factor = matrix[r][col] / matrix[col][col]
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[col])]
    return [matrix[i][size] / matrix[i][i] for i in range(size)]


def r_squared(rows: list[list[float]], targets: list[float], coefficients: list[float]) -> float:
    mean = sum(targets) / len(targets)
    residual = sum((y - sum(c * x for c, x in zip(coefficients, row))) ** 2 for row, y in zip(rows, targets))
    return 1 - residual / sum((y - mean) ** 2 for y in targets)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", required=True, help="a Fairy-Stockfish (largeboards) binary")
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    engine = Analyser(args.engine)
    try:
        data = labelled_positions(engine, args.games, args.seed)
    finally:
        engine.close()
    if len(data) < 100:
        raise SystemExit(f"only {len(data)} positions: play more games")
    targets = [float(score) for _, score in data]
    to_move = [1.0 if position.side == RED else -1.0 for position, _ in data]
    whole = [[float(evaluation(position)), side] for (position, _), side in zip(data, to_move)]
    fit = least_squares(whole, targets)
    print(f"{len(data)} positions; the bot's evaluation explains R² = {r_squared(whole, targets, fit):.3f} "
          f"of the engine's scores (engine cp = {fit[0]:.2f} x evaluation {fit[1]:+.0f} for the side to move)")
    rows = [row[:1] + term_values(position) + row[1:] for row, (position, _) in zip(whole, data)]
    fit = least_squares(rows, targets)
    print(f"with every term beside it: R² = {r_squared(rows, targets, fit):.3f}; residual weights "
          f"(the bot's centipawns per unit, 0 = agrees):")
    for name, coefficient in zip(TERMS, fit[1:]):
        print(f"  {name:28s} {coefficient / fit[0]:+7.1f}")
    print(f"  {'side to move':28s} {fit[-1] / fit[0]:+7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
