"""bench/xiangqi_tactics.py: which positions make the set, and how two versions compare."""
from pathlib import Path

import pytest

from bench import xiangqi_tactics as bench


def test_the_two_best_are_the_deepest_lines_of_each_variation(scripted_engine):
    engine = scripted_engine(["info depth 11 multipv 1 score cp 35 nodes 9 pv h2e2 h9g7",
                             "info depth 11 multipv 2 score cp 30 nodes 9 pv b0c2",
                             "info depth 12 multipv 1 score cp 240 nodes 19 pv c3c4",
                             "info depth 12 multipv 2 score mate -3 nodes 19 pv h2e2"])
    assert bench.two_best(engine, "FEN", 12) == [(240, "c3c4"), (-30000, "h2e2")]


@pytest.mark.parametrize("best, kept", [
    ([(240, "c3c4"), (60, "h2e2")], True),         # 180 above the second
    ([(240, "c3c4"), (120, "h2e2")], False),       # only 120 above
    ([(-350, "c3c4"), (-900, "h2e2")], False),     # lost whatever is played
    ([(30000, "c3c4"), (500, "h2e2")], True),      # the only mate
    ([(10, "c3c4")], False),                       # one legal move: nothing to find
])
def test_a_position_is_kept_when_one_move_stands_out(best, kept):
    assert bench.is_tactic(best, 150) is kept


def test_the_comparison_counts_positions_found_by_one_version_only(capsys):
    mine = [{"fen": "a", "found": True}, {"fen": "b", "found": True}, {"fen": "c", "found": False}]
    theirs = [{"fen": "a", "found": True}, {"fen": "b", "found": False}, {"fen": "c", "found": False}]
    bench.compare(mine, theirs, Path("other.json"))
    assert "1 found that it missed, 0 missed that it found (net +1 of 3)" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="not the same set"):
        bench.compare(mine, theirs[:2], Path("other.json"))
