"""Results for every shape of game: two players, ranked multi-player, solitaire."""
import pytest

from games.api import Outcome, Termination, uniform_outcome_two_player


def test_two_player_results_in_the_usual_notation():
    assert uniform_outcome_two_player(0, Termination.WIN, "").result_text() == "1-0"
    assert uniform_outcome_two_player(1, Termination.WIN, "").result_text() == "0-1"
    draw = uniform_outcome_two_player(None, Termination.DRAW, "")
    assert draw.result_text() == "1/2-1/2" and draw.is_draw and draw.ranks == (1, 1)
    assert Outcome((), (0.0, 0.0), Termination.ABORTED, "stopped").result_text() == "*"


def test_ranked_results_share_places_on_ties():
    outcome = Outcome.ranked([96, 140, 96, 12], Termination.SCORE, "cells")
    assert outcome.ranks == (2, 1, 2, 4) and outcome.winners == (1,) and not outcome.is_draw
    assert outcome.result_text(["A", "B", "C", "D"]) == "1. B 140 · 2. A 96 · 2. C 96 · 4. D 12"
    tie = Outcome.ranked([50, 50, 10], Termination.SCORE)
    assert tie.winners == () and tie.ranks == (1, 1, 3) and not tie.is_draw
    level = Outcome.ranked([7, 7, 7, 7], Termination.SCORE)
    assert level.is_draw and level.ranks == (1, 1, 1, 1)


def test_a_solitaire_result_is_its_score():
    outcome = Outcome.solo(412, Termination.STOPPED, "stopped")
    assert outcome.result_text() == "score 412" and outcome.score_only and not outcome.is_draw
    assert Outcome.from_json(outcome.to_json()) == outcome


@pytest.mark.parametrize("data", [
    {"winners": [0], "scores": [1, 0], "reason": "nonsense"},
    {"winners": ["0"], "scores": [1, 0], "reason": "win"},
    {"winners": [5], "scores": [1, 0], "reason": "win"},
    {"winners": [], "scores": "10", "reason": "win"},
    {"winners": [], "scores": [1, 0], "reason": "win", "ranks": [1]},
    {"winners": [], "scores": [True, 0], "reason": "win"},
    [1, 2, 3],
])
def test_bad_outcome_json_is_a_value_error(data):
    with pytest.raises(ValueError):
        Outcome.from_json(data)


def test_the_shell_headline_fits_every_kind_of_result():
    from ui.panels import result_parts
    names = "ABCD".__getitem__
    assert result_parts(Outcome.ranked([30, 41, 41, 12], Termination.SCORE, "cells"), names)[0] \
        == "Tie for first: B, C"
    assert result_parts(Outcome.ranked([30, 41, 40, 12], Termination.SCORE, "cells"), names)[0] == "B wins"
    assert result_parts(Outcome.solo(412, Termination.STOPPED, "stopped"), names)[0] == "Score 412"
    assert result_parts(Outcome.ranked([5, 5], Termination.SCORE, ""), names)[0] == "Draw"
