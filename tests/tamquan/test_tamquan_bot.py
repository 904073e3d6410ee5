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


def _placed(level_a: int, level_b: int, seed: int = 1):
    """The position after both teams' placements on 5x5 (each level places itself)."""
    game = TamQuanGame()
    state = game.new_initial_state(game.spec.resolve_options("5x5-2teams"), seed)
    bots = [make_bot(level_a, seed), make_bot(level_b, seed + 1)]
    while state.setup:
        team = state.to_move()[0]
        state.play({team: bots[team].choose(state.clone(), team, None)})
    return state, bots


def _columns(state, team):
    return tuple(c for _, c in state.pieces(team))


def test_search_levels_as_team_b_do_not_place_as_the_mirror_image():
    # Level 2 places a centred line; its mirror image is a draw by shuffling for team B.
    for level in (3, 4):
        state, _ = _placed(2, level)
        assert _columns(state, 0) == (1, 2, 3)
        assert _columns(state, 1) != (1, 2, 3), level
    state, _ = _placed(2, 2)
    assert _columns(state, 1) == (1, 2, 3)          # level 2 keeps its character


def test_strongest_places_from_its_book_as_team_a():
    assert {_columns(_placed(4, 2, seed)[0], 0) for seed in range(6)} <= {(0, 1, 3), (1, 3, 4)}


def test_a_position_played_into_before_is_left_for_an_as_safe_move():
    # Two lines facing each other: many moves keep everything safe.
    state = state_from_rows([".....",
                             ".AAA.",
                             ".....",
                             ".BBB.",
                             "....."], to_move=0)
    bot = make_bot(3, 1)
    first = bot.choose(state.clone(), 0, None)
    again = bot.choose(state.clone(), 0, None)
    assert again != first
    fresh = make_bot(3, 1)
    assert fresh.choose(state.clone(), 0, None) == first      # not chance: the memory


def _play_out(state, bots):
    while not state.is_terminal():
        team = state.to_move()[0]
        state.play({team: bots[team].choose(state.clone(), team, None)})
    return state.outcome()


def test_level_3_wins_as_team_b_against_level_2():
    state, bots = _placed(2, 3)
    assert _play_out(state, bots).winners == (1,)


@pytest.mark.slow
def test_level_4_wins_as_either_team_against_level_3():
    state, bots = _placed(3, 4)
    assert _play_out(state, bots).winners == (1,)
    state, bots = _placed(4, 3)
    assert _play_out(state, bots).winners == (0,)


def test_greedy_does_not_leave_a_piece_the_next_team_can_surround():
    # Stepping left (2,2-2,1 ...) keeps every piece now, but B's steps then surround one.
    from games.tamquan.rules import EMPTY, capture_phase, reachable
    state = state_from_rows(["...B.",
                             ".B.B.",
                             "..AA.",
                             "..A..",
                             "....."], to_move=0)
    after = state.clone()
    after.play({0: make_bot(2, 1).choose(state.clone(), 0, None)})
    assert after.piece_counts() == (3, 3)
    for final in reachable(after.layout, after.cells, 1):
        board = [EMPTY if v == 1 else v for v in after.cells]
        for p in final:
            board[p] = 1
        assert not capture_phase(after.layout, board, 1), sorted(final)
