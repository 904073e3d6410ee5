"""bench/xiangqi_move_quality.py's reading of the judge's scores and its paired comparison."""
from pathlib import Path

import pytest

from bench import xiangqi_move_quality as bench


def test_the_score_is_the_deepest_line_of_the_first_variation(scripted_engine):
    engine = scripted_engine(["info depth 11 seldepth 14 multipv 1 score cp 35 nodes 9 pv h2e2",
                             "info depth 12 seldepth 15 multipv 1 score cp -20 nodes 19 pv h2e2",
                             "info depth 12 seldepth 15 multipv 2 score cp 90 nodes 19 pv b0c2"])
    assert bench.engine_score(engine, "FEN", 12, "h3e3") == -20
    assert engine.sent == ["ucinewgame", "isready", "position fen FEN", "go depth 12 searchmoves h3e3"]
    mated = scripted_engine(["info depth 12 seldepth 3 multipv 1 score mate -2 nodes 5 pv e1e2"])
    assert bench.engine_score(mated, "FEN", 12) == -30000
    with pytest.raises(SystemExit, match="no score"):
        bench.engine_score(scripted_engine(["info string nothing"]), "FEN", 12)


def test_the_comparison_pairs_the_same_positions(capsys):
    mine = [{"fen": "a", "move": "X", "loss": 0}, {"fen": "b", "move": "Y", "loss": 40},
            {"fen": "c", "move": "Z", "loss": 10}, {"fen": "only mine", "move": "Z", "loss": 900}]
    theirs = [{"fen": "a", "move": "X", "loss": 0}, {"fen": "b", "move": "W", "loss": 100},
              {"fen": "c", "move": "V", "loss": 30}]
    bench.compare(mine, theirs, Path("other.json"))
    out = capsys.readouterr().out
    assert "3 positions, the same move in 1" in out
    assert "mean loss difference -26.7 cp" in out         # (0 - 60 - 20) / 3
