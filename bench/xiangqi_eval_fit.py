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

Self-play rarely leaves one side a chariot short for two pieces, the trades the bot makes
against the engine.  ``--series DIR`` (repeatable) takes the positions instead from the
games a strength series kept (``--keep DIR``): each position the engine moved in, labelled
with its own search's score there (depth 9 in the series), under the same filters.  No
engine runs then.  ``--bootstrap N`` refits on N resamples of whole games and prints each
residual's 5-95% range: positions of one game are not independent, so a residual whose
range includes 0 is not yet a finding.

    python bench/xiangqi_eval_fit.py --series kept-1 --series kept-2 --bootstrap 40

On the 128 games of two series against Fairy-Stockfish at depth 9 (2026-11-25: 5,593
positions), only the freedom term stood out, in each series alone as in both: the engine
weighs the chariots' and horses' freedom about twice as the bot did (residual +1.0, 5-95%
+0.5 to +1.5; +1.0 and +1.1 in the two series), so its weights were doubled (the next
series: 34.5/64 = 54%, and 36.5/64 when played again; 50% for the series before).  The
soldiers short of the river came out +27 (+7 to +54), the elephants -52 (-100 to +10);
the rest's ranges hold 0.  A caution on reading these: the residual of a term that few
positions move (the material imbalances) swings with the model; with a squared-danger
column added, the cannons on a full board came out -154 over 114 of these games, -32
without it over all 128.  And a residual whose range excludes 0 is a candidate, not a
gain: with a third series (192 games, 8,575 positions) the soldiers short of the river
stayed the one such term (+30, +11 to +53), but with their discount cut from 35 to 5 the
bot scored 13.5/35 and the change was dropped (``xiangqi_engine_series.py``'s table).
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
from games.api import ArenaError  # noqa: E402
from games.xiangqi.bot import evaluate_from_scratch  # noqa: E402
from games.xiangqi.engine_seats import from_engine_move, to_engine_move  # noqa: E402
from games.xiangqi.evaluation import PHASE_FULL, freedom, leaf_terms, side_danger  # noqa: E402
from games.xiangqi.rules import (ADVISOR, BLACK, CANNON, CHARIOT, ELEPHANT, HORSE, RED, SOLDIER,  # noqa: E402
                                 START_FEN, Position, parse_move_text, rank_of)
from runner.records import open_replay  # noqa: E402

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


def series_games(folders: list[Path]) -> list[list[tuple[Position, int]]]:
    """Per game a series kept in ``folders``: the quiet positions a UCI engine moved in, with
    its own search's Red-positive score there (same filters as the self-play)."""
    games = []
    for record in sorted(path for folder in folders for path in folder.glob("*/*.arena.jsonl")):
        try:
            replay_of = open_replay(record)
        except ArenaError as error:
            print(f"  skipped: {error}", file=sys.stderr)
            continue
        kept = []
        for ply, (state, turn) in enumerate(zip(replay_of.states, replay_of.turns)):
            position = state.position
            for answer in turn.answers.values():
                score = (answer.get("search") or {}).get("score")
                if not isinstance(score, str) or not score.startswith("cp "):
                    continue                  # the bot's own scores are numbers; mates are decided
                value = int(score.split()[1])
                if ply >= 8 and abs(value) <= MAX_SCORE and not position.in_check(position.side):
                    kept.append((position, value if position.side == RED else -value))
        games.append(kept)
    return games


def fit_rows(data: list[tuple[Position, int]]) -> tuple[list[list[float]], list[float]]:
    """The fit's rows (the whole evaluation, each term, the side to move) and targets."""
    rows = [[float(evaluation(position))] + term_values(position) + [1.0 if position.side == RED else -1.0]
            for position, _ in data]
    return rows, [float(score) for _, score in data]


def residuals(rows: list[list[float]], targets: list[float]) -> list[float]:
    """Each term's residual weight in the bot's centipawns (the fit's ratio to the whole)."""
    fit = least_squares(rows, targets)
    return [coefficient / fit[0] for coefficient in fit[1:]]


def bootstrap(games: list[list[tuple[list[float], float]]], resamples: int, seed: int) -> list[tuple[float, float]]:
    """5% and 95% points of each residual over ``resamples`` refits on games drawn with
    replacement (each game a list of (row, target))."""
    rng = random.Random(seed)
    runs = []
    for _ in range(resamples):
        drawn = [pair for _ in games for pair in rng.choice(games)]
        try:
            runs.append(residuals([row for row, _ in drawn], [target for _, target in drawn]))
        except SystemExit:
            continue                          # a draw that left a term constant
    if not runs:
        raise SystemExit("no resample could be fitted: keep more games")
    low, high = len(runs) // 20, len(runs) - 1 - len(runs) // 20
    return [(column[low], column[high]) for column in map(sorted, zip(*runs))]


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
    parser.add_argument("--engine", help="a Fairy-Stockfish (largeboards) binary, for self-play")
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--series", type=Path, action="append", default=[], metavar="DIR",
                        help="a strength series' --keep folder: its engine-scored positions instead")
    parser.add_argument("--bootstrap", type=int, default=0, metavar="N",
                        help="print each residual's 5-95%% range over N resamples of whole games")
    args = parser.parse_args()
    if args.series:
        games = series_games(args.series)
    elif args.engine:
        engine = Analyser(args.engine)
        try:
            games = [[pair] for pair in labelled_positions(engine, args.games, args.seed)]
        finally:
            engine.close()
    else:
        parser.error("give --engine (self-play) or --series DIR")
    per_game = [list(zip(*fit_rows(game))) for game in games if game]      # (row, target) pairs
    rows = [row for game in per_game for row, _ in game]
    targets = [target for game in per_game for _, target in game]
    if len(rows) < 100:
        raise SystemExit(f"only {len(rows)} positions: play more games")
    whole = [[row[0], row[-1]] for row in rows]
    fit = least_squares(whole, targets)
    print(f"{len(rows)} positions; the bot's evaluation explains R² = {r_squared(whole, targets, fit):.3f} "
          f"of the engine's scores (engine cp = {fit[0]:.2f} x evaluation {fit[1]:+.0f} for the side to move)")
    fit = least_squares(rows, targets)
    print(f"with every term beside it: R² = {r_squared(rows, targets, fit):.3f}; residual weights "
          f"(the bot's centipawns per unit, 0 = agrees):")
    ranges = []
    if args.bootstrap:
        if not args.series:
            parser.error("--bootstrap resamples whole games: give --series")
        ranges = bootstrap(per_game, args.bootstrap, args.seed)
    for i, name in enumerate(TERMS + ("side to move",)):
        spread = f"   5-95%: {ranges[i][0]:+7.1f} to {ranges[i][1]:+7.1f}" if ranges else ""
        print(f"  {name:28s} {fit[i + 1] / fit[0]:+7.1f}{spread}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
