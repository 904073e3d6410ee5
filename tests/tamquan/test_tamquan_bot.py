"""Tam Quan bots: every level plays whole headless matches in both variants, legal
moves only, and stronger levels beat weaker ones in short runs (bench/ has the long ones)."""
import pytest

from games.tamquan import PLUGIN
from games.tamquan.bot import make_bot
from games.tamquan.rules import TamQuanGame, state_from_rows
from runner.match import Match
from runner.seats import make_seat


@pytest.mark.parametrize("variant,limit", [("5x5-2teams", 30), ("8x8-4teams", 8)])
@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_every_level_plays_a_headless_match(variant, limit, level, tmp_path):
    game = TamQuanGame()
    options = game.spec.resolve_options(variant, {"turn_limit": limit})
    teams = game.seats_for(options)
    specs = [f"bot:{level}"] + ["bot:1"] * (teams - 1)
    seats = [make_seat(s, PLUGIN, 7 + i) for i, s in enumerate(specs)]
    match = Match(PLUGIN, options, seats, seed=3, record_path=tmp_path / "m.arena.jsonl")
    outcome = match.run()
    assert outcome is not None and not outcome.reason.is_referee
    assert all(not t.forfeits and all("notes" not in a for a in t.answers.values())
               for t in match.turns), "a bot played an illegal move"


def test_a_four_team_match_between_all_levels(tmp_path):
    game = TamQuanGame()
    options = game.spec.resolve_options("8x8-4teams", {"turn_limit": 6})
    seats = [make_seat(f"bot:{level}", PLUGIN, level) for level in (4, 3, 2, 1)]
    outcome = Match(PLUGIN, options, seats, seed=5).run()
    assert outcome.reason.value == "move-limit" and len(outcome.ranks) == 4


def test_strongest_beats_random_in_the_duel():
    from bench.tamquan_bench import duel
    wins, draws, losses, _ = duel(4, 1, 2, "5x5-2teams", turn_limit=60)
    assert losses == 0 and wins >= 1


def test_search_takes_a_capture_and_avoids_being_captured():
    # Red can flank the lone Blue piece at 2,2 with 1,1-2,1 and 3,1-3,2.
    state = state_from_rows([".....",
                             ".A...",
                             "..B..",
                             ".A...",
                             "....."], to_move=0)
    for level in (2, 3, 4):
        move = make_bot(level, 1).choose(state.clone(), 0, None)
        after = state.clone()
        after.play({0: move})
        assert after.piece_counts()[1] == 0, level
