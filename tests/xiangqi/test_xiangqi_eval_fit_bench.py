"""bench/xiangqi_eval_fit.py's arithmetic: the fit finds the weights that made the scores,
and the terms it reads are Red minus Black."""
import random
import sys
from pathlib import Path

from bench import xiangqi_engine_series
from bench import xiangqi_eval_fit as bench
from games.xiangqi.rules import START_FEN, Position


def test_least_squares_recovers_the_weights_that_made_the_scores():
    rng = random.Random(3)
    weights = [2.5, -40.0, 7.0]
    rows = [[rng.uniform(-10, 10) for _ in weights] for _ in range(200)]
    targets = [sum(w * x for w, x in zip(weights, row)) + rng.gauss(0, 0.01) for row in rows]
    fitted = bench.least_squares(rows, targets)
    assert all(abs(f - w) < 0.01 for f, w in zip(fitted, weights))
    assert bench.r_squared(rows, targets, fitted) > 0.9999
    assert bench.r_squared(rows, targets, [0.0, 0.0, 0.0]) < 0.5


def test_the_terms_are_red_minus_black():
    start = Position.from_fen(START_FEN)[0]
    assert bench.term_values(start) == [0] * len(bench.TERMS)
    # Red without its H0 horse and with a soldier across the river on E5.
    uneven = Position.from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/4P4/9/P1P3P1P/1C5C1/9/RNBAKAB1R w - - 0 1")[0]
    terms = dict(zip(bench.TERMS, bench.term_values(uneven)))
    assert abs(terms["horses on a full board"] + terms["horses on a bare board"] + 1) < 1e-9
    assert terms["soldiers short of the river"] == -1 and terms["crossed soldiers"] == 1


def test_a_bootstrap_over_games_brackets_the_weights_that_made_the_scores():
    rng = random.Random(5)
    weights = [2.0, 3.0, 0.0]             # residuals: 3 / 2 and 0 (a term with no effect)
    games = []
    for _ in range(30):
        rows = [[rng.uniform(-10, 10) for _ in weights] for _ in range(20)]
        games.append([(row, sum(w * x for w, x in zip(weights, row)) + rng.gauss(0, 1)) for row in rows])
    (low_a, high_a), (low_b, high_b) = bench.bootstrap(games, 40, seed=1)
    assert low_a <= 1.5 <= high_a and high_a - low_a < 0.1
    assert low_b <= 0.0 <= high_b and high_b - low_b < 0.1


def test_a_kept_series_gives_the_engines_positions_with_its_own_scores(tmp_path):
    engine = Path(__file__).resolve().parent / "programs" / "fake_engine.py"
    xiangqi_engine_series.strength_series("bot:2 depth=1", f"uci:{sys.executable} {engine}", openings=1,
                                          seconds=-1, options={}, skip=3, keep=tmp_path)
    games = bench.series_games([tmp_path])
    assert len(games) == 2 and all(games)
    for game in games:
        # The fake engine scores every position "cp 17 + moves so far" for itself: positive
        # for the side to move, so Red-positive labels follow the side that moved.
        for position, label in game:
            assert (label > 0) == (position.side == 0) and abs(label) >= 17
    # Only the engine's turns: in the game where it plays Black, every label is Black's.
    sides = {frozenset(position.side for position, _ in game) for game in games}
    assert sides == {frozenset({0}), frozenset({1})}
