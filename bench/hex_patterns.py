"""Fit the Hex search's pattern gammas (games/hex/patterns.py) to a corpus of strong games.

Two steps:

    python bench/hex_patterns.py games --size 9 --games 200 --out corpus-9.jsonl
    python bench/hex_patterns.py fit corpus-9.jsonl corpus-11.jsonl

``games`` has MoHex (``$ARENA_MOHEX``, at 1,000 playouts a move) play itself from a
random first move (and, in half the games, a random reply too), and appends one JSON line
per game: ``{"size", "randoms", "moves", "winner"}``, moves as cell indices
(``r * size + c``, player 1 first, joining the columns).  The random moves are not
MoHex's choices and are left out of the fit.  MoHex sometimes dies in a decided
position; the game is then kept up to there and a fresh MoHex plays the next.

``fit`` holds out a fifth of the games, fits the gammas on the rest by Coulom's
minorization-maximization (MM, 2007), prints how well each feature set predicts the
held-out moves (how often its most likely move is the one played, and the mean log
probability of the move played), then refits on every game and writes
games/hex/patterns.txt (``--write`` to another file).  Every gamma has the MM prior of
one virtual win and one virtual loss against a gamma of 1, so rare patterns stay near 1.

The shipped table, 2026-11-28: 120 games (82 on 9x9, 38 on 11x11, about 40 minutes of
two MoHex processes), ``python bench/hex_patterns.py fit bench/data/hex-mohex-selfplay.jsonl``::

    120 games: 3382 decisions to fit, 834 held out (uniform mean log p -4.264)
      hand-made shape priors       held-out top-1 0.068
      ring6                        held-out top-1 0.368   mean log p -2.647
      ring12                       held-out top-1 0.424   mean log p -2.346
      ring12+ring6                 held-out top-1 0.480   mean log p -1.993
      ring12+ring6+near            held-out top-1 0.579   mean log p -1.634
      ring12+ring6+near+edges      held-out top-1 0.590   mean log p -1.630

So the table names MoHex's move first in 59 % of the held-out positions (one legal
move in about 70), where the search's hand-made shape priors did in 7 %.  The first
15 games gave 58.5 % (on 82 held-out moves) and the first 60 gave 59.3 %: more games
of this kind add little; richer features would add more.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.hex import patterns  # noqa: E402
from games.hex.gtp import parse_response  # noqa: E402
from games.hex.mcts import EMPTY, HexSearch  # noqa: E402
from games.hex.notation import from_hexgui, to_hexgui  # noqa: E402
from games.hex.rules import HexState  # noqa: E402

MOHEX_PLAYOUTS = 1000
MOHEX_SECONDS = 3              # MoHex's own cap on a move, for positions it solves slowly
FEATURE_SETS = (("ring6",), ("ring12",), ("ring12", "ring6"), ("ring12", "ring6", "near"),
                ("ring12", "ring6", "near", "edges"))


# ------------------------------------------------------------------ the corpus
class _EngineDied(Exception):
    pass


class MoHexSelfPlay:
    """One MoHex process over GTP, restarted when it dies."""

    def __init__(self, binary: str, size: int, rng: random.Random):
        self.binary, self.size, self.rng = binary, size, rng
        self.process: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        seed = str(self.rng.randrange(1, 10 ** 6))
        self.process = subprocess.Popen([self.binary, "--quiet", "--seed", seed], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for line in (f"boardsize {self.size} {self.size}", f"param_mohex max_games {MOHEX_PLAYOUTS}",
                     f"param_mohex max_time {MOHEX_SECONDS}"):
            self.command(line)

    def command(self, line: str) -> str:
        """Send one GTP command; its answer's text.  _EngineDied if MoHex has gone."""
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise _EngineDied from None
        answer: list[str] = []
        while True:
            text = self.process.stdout.readline()
            if not text:
                raise _EngineDied
            if text.strip():
                answer.append(text.strip())
            elif answer:
                break
        ok, words = parse_response(answer)
        if not ok:
            raise RuntimeError(f"MoHex refused {line!r}: {words}")
        return words

    def play_game(self) -> dict:
        state = HexState(self.size)
        moves: list[int] = []
        randoms = 1 + (self.rng.random() < 0.5)
        try:
            self.command("clear_board")
            while state.winner() is None:
                colour = "b" if state.current == 0 else "w"
                if len(moves) < randoms:
                    cell = self.rng.choice([i for i, v in enumerate(state.cells) if v == 0])
                    move = state.move_at(cell)
                    self.command(f"play {colour} {to_hexgui(move)}")
                else:
                    text = self.command(f"genmove {colour}")
                    if text.lower() == "resign":
                        break
                    move = from_hexgui(text)
                    cell = state.index(move)
                state.push(move)
                moves.append(cell)
        except _EngineDied:
            self.process.wait()
            self.start()
        return {"size": self.size, "randoms": randoms, "moves": moves, "winner": state.winner()}


def make_games(args) -> int:
    binary = os.environ.get("ARENA_MOHEX")
    if not binary:
        print("set ARENA_MOHEX to a MoHex binary (cgao3/benzene-vanilla-cmake)", file=sys.stderr)
        return 2
    engine = MoHexSelfPlay(binary, args.size, random.Random(args.seed))
    with open(args.out, "a", encoding="utf-8") as out:
        for _ in range(args.games):
            out.write(json.dumps(engine.play_game()) + "\n")
            out.flush()
    return 0


# ------------------------------------------------------------------ the features
class Decisions:
    """Every choice in a set of games, one row per legal move: each feature's value,
    the decision it belongs to, and which row of each decision was played."""

    def __init__(self, games: list[dict]):
        geometry: dict[int, tuple] = {}
        columns: dict[str, list[np.ndarray]] = {group: [] for group in patterns.GROUPS}
        sizes, played = [], []
        for game in games:
            size = game["size"]
            if size not in geometry:
                geometry[size] = (patterns.slot_table(size), patterns.edge_classes(size),
                                  patterns.nearness(size))
            for values, choice in _game_decisions(game, *geometry[size]):
                for group in patterns.GROUPS:
                    columns[group].append(values[group])
                sizes.append(len(values["ring6"]))
                played.append(choice)
        self.count = len(sizes)
        self.features = {group: np.concatenate(columns[group]) for group in patterns.GROUPS}
        self.decision = np.repeat(np.arange(self.count), sizes)
        self.played = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64) + np.array(played)


def _game_decisions(game: dict, slots, edges, near):
    """(feature values of every empty cell, index of the cell played) for each of the
    game's moves that the engine chose."""
    size, moves = game["size"], game["moves"]
    cells = np.zeros(size * size, dtype=np.int64)
    for turn, move in enumerate(moves):
        mover = 1 + turn % 2
        if turn >= game["randoms"]:
            empty = np.flatnonzero(cells == 0)
            ring12, ring6 = patterns.pattern_codes(patterns.point_states(cells, mover, slots)[empty])
            last = near[moves[turn - 1], empty]
            own_last = near[moves[turn - 2], empty] if turn >= 2 else np.zeros(len(empty), dtype=np.int8)
            values = {"ring12": ring12, "ring6": ring6, "near": patterns.near_class(last, own_last),
                      "edges": edges[mover, empty]}
            yield values, int(np.flatnonzero(empty == move)[0])
        cells[move] = mover


# ------------------------------------------------------------------ the fit
def fit(decisions: Decisions, groups: tuple[str, ...], iterations: int = 30) -> dict[str, dict[int, float]]:
    """Gammas per group by MM: gamma_i = (wins_i + 1) / (sum over decisions of the
    strength of i's rows without i, over the decision's total + 2 / (gamma_i + 1))."""
    keys, index, gammas, wins = {}, {}, {}, {}
    for group in groups:
        keys[group], index[group] = np.unique(decisions.features[group], return_inverse=True)
        gammas[group] = np.ones(len(keys[group]))
        wins[group] = np.bincount(index[group][decisions.played], minlength=len(keys[group]))
    for _ in range(iterations):
        for group in groups:
            strength = np.ones(len(decisions.decision))
            for other in groups:
                strength *= gammas[other][index[other]]
            total = np.bincount(decisions.decision, weights=strength, minlength=decisions.count)
            share = strength / gammas[group][index[group]] / total[decisions.decision]
            spread = np.bincount(index[group], weights=share, minlength=len(keys[group]))
            gammas[group] = (wins[group] + 1.0) / (spread + 2.0 / (gammas[group] + 1.0))
    return {group: dict(zip(keys[group].tolist(), gammas[group].tolist())) for group in groups}


def strengths(decisions: Decisions, fitted: dict[str, dict[int, float]]) -> np.ndarray:
    """Each row's gamma: the product of its features' gammas (1 for a value not fitted)."""
    strength = np.ones(len(decisions.decision))
    for group, table in fitted.items():
        values = decisions.features[group]
        strength *= np.array([table.get(v, 1.0) for v in values.tolist()])
    return strength


def prediction(decisions: Decisions, fitted: dict[str, dict[int, float]]) -> tuple[float, float]:
    """(share of decisions whose strongest row was played, mean log probability of the
    row played)."""
    strength = strengths(decisions, fitted)
    total = np.bincount(decisions.decision, weights=strength, minlength=decisions.count)
    order = np.lexsort((-strength, decisions.decision))
    firsts = order[np.concatenate([[0], np.flatnonzero(np.diff(decisions.decision[order])) + 1])]
    top = float(np.mean(firsts == decisions.played))
    return top, float(np.mean(np.log(strength[decisions.played] / total)))


def uniform_log_probability(decisions: Decisions) -> float:
    """Mean log probability of the played move when every legal move is equally likely."""
    return float(-np.mean(np.log(np.bincount(decisions.decision))))


def shape_prior_top1(games: list[dict]) -> float:
    """How often the search's hand-made shape priors (mcts.HexSearch._seed_priors: the
    RAVE values a node starts with) rate the engine's move highest, ties to the lowest cell."""
    searches: dict[int, HexSearch] = {}
    hits = total = 0
    for game in games:
        size = game["size"]
        search = searches.setdefault(size, HexSearch(size, 0))
        cells = [EMPTY] * (size * size)
        for turn, move in enumerate(game["moves"]):
            mover = 1 + turn % 2
            if turn >= game["randoms"]:
                empty = [c for c in range(size * size) if cells[c] == EMPTY]
                node = search._new_node(cells, mover, empty)
                best = max(empty, key=lambda c: (node.rw[c] / node.rn[c], -c))
                hits += best == move
                total += 1
            cells[move] = mover
    return hits / total


def read_corpus(paths: list[str]) -> list[dict]:
    """The games of the corpus files; SystemExit naming the file and line of a bad one."""
    games = []
    for path in paths:
        try:
            text = Path(path).read_bytes().decode("utf-8")
        except UnicodeDecodeError as error:
            raise SystemExit(f"{path}: not UTF-8 text (byte {error.start})") from None
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                game = json.loads(line)
                size, moves = int(game["size"]), [int(m) for m in game["moves"]]
                if not (2 <= size <= 26 and 0 <= int(game["randoms"]) and len(set(moves)) == len(moves)
                        and all(0 <= m < size * size for m in moves)):
                    raise ValueError
            except (ValueError, KeyError, TypeError, OverflowError, RecursionError):
                raise SystemExit(f"{path}: line {number}: expected a game as games writes it: "
                                 f'{{"size", "randoms", "moves" (distinct cells on the board)}}') from None
            games.append(game)
    return games


def fit_corpus(args) -> int:
    games = read_corpus(args.corpus)
    random.Random(0).shuffle(games)
    held = len(games) // 5
    train, test = Decisions(games[held:]), Decisions(games[:held])
    print(f"{len(games)} games: {train.count} decisions to fit, {test.count} held out "
          f"(uniform mean log p {uniform_log_probability(test):.3f})")
    print(f"  {'hand-made shape priors':28s} held-out top-1 {shape_prior_top1(games[:held]):.3f}")
    for groups in FEATURE_SETS:
        top, log_p = prediction(test, fit(train, groups))
        print(f"  {'+'.join(groups):28s} held-out top-1 {top:.3f}   mean log p {log_p:.3f}")
    fitted = fit(Decisions(games), patterns.GROUPS)
    kept = {group: {v: g for v, g in values.items() if group != "ring12" or abs(np.log(g)) > 0.05}
            for group, values in fitted.items()}
    header = (f"Hex move-pattern gammas (games/hex/patterns.py), fitted by bench/hex_patterns.py\n"
              f"on {len(games)} games of MoHex at {MOHEX_PLAYOUTS} playouts against itself "
              f"({Decisions(games).count} decisions).\n"
              f"Lines: group value gamma.  ring12 values whose gamma is within 5 % of 1 are left out.")
    patterns.write_table(Path(args.write), kept, header)
    print(f"wrote {args.write}: " + ", ".join(f"{g} {len(kept[g])}" for g in patterns.GROUPS))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    games = commands.add_parser("games", help="MoHex self-play games for the corpus")
    games.add_argument("--size", type=int, default=9)
    games.add_argument("--games", type=int, default=100)
    games.add_argument("--seed", type=int, default=1)
    games.add_argument("--out", required=True)
    fitting = commands.add_parser("fit", help="fit the gammas to corpus files")
    fitting.add_argument("corpus", nargs="+")
    fitting.add_argument("--write", default=str(patterns.TABLE_PATH))
    args = parser.parse_args(argv)
    return make_games(args) if args.command == "games" else fit_corpus(args)


if __name__ == "__main__":
    sys.exit(main())
