"""Every registered game keeps the API's promises, checked by seeded random playouts.

* a state is terminal exactly when no seat must move, and every seat that must move
  has a legal move;
* move text round-trips for every legal move offered;
* clones are equal and independent;
* a match record replays to exactly the same states.
"""
import random

import pytest

from games import registry
from games.api import Outcome
from runner.match import Match
from runner.records import open_replay
from runner.seats import Answer, Seat

PLUGINS = registry.all_plugins()
GAME_IDS = [p.name for p in PLUGINS]
PLAYOUTS = 12
MAX_TURNS = 400


class RandomSeat(Seat):
    """Answers a uniformly random legal move as text (so the runner parses it)."""

    kind = "bot"

    def __init__(self, seed):
        super().__init__("random", "random")
        self.rng = random.Random(seed)

    def ask(self, state, seat, time_limit):
        move = self.rng.choice(list(state.legal_moves(seat)))
        return Answer(text=self.info.game.format_move(move))


def small_options(plugin):
    spec = plugin.new_game().spec
    return spec.resolve_options(spec.variants[-1].name if plugin.name == "hex" else None)


def random_playout(plugin, seed):
    game = plugin.new_game()
    options = small_options(plugin)
    rng = random.Random(seed)
    state = game.new_initial_state(options, seed)
    seats = game.seats_for(options)
    turns = 0
    while turns < MAX_TURNS:
        to_move = state.to_move()
        outcome = state.outcome()
        assert (not to_move) == (outcome is not None), "terminal exactly when no seat must move"
        if not to_move:
            assert isinstance(outcome, Outcome) and len(outcome.scores) == seats
            return state, turns
        moves = {}
        for seat in to_move:
            legal = list(state.legal_moves(seat))
            assert legal, f"seat {seat} must move but has no legal move"
            for move in rng.sample(legal, min(5, len(legal))):
                text = game.format_move(move)
                assert game.parse_move(text, state, seat) == move, text
                assert game.format_move(game.parse_move(text, state, seat)) == text
            moves[seat] = rng.choice(legal)
            state.check_move(seat, moves[seat])
        twin = state.clone()
        assert twin == state
        state.apply(moves)
        turns += 1
    return state, turns


@pytest.mark.parametrize("name", GAME_IDS)
def test_random_playouts_keep_the_api_promises(name):
    plugin = registry.plugin(name)
    finished = 0
    for seed in range(PLAYOUTS):
        state, turns = random_playout(plugin, seed)
        finished += state.is_terminal()
    assert finished > 0, "no random playout ever finished"


@pytest.mark.parametrize("name", GAME_IDS)
def test_clone_is_independent(name):
    plugin = registry.plugin(name)
    game = plugin.new_game()
    state = game.new_initial_state(small_options(plugin), 5)
    twin = state.clone()
    seat = state.to_move()[0]
    moves = {s: list(state.legal_moves(s))[0] for s in state.to_move()}
    state.apply(moves)
    assert twin != state
    assert twin == game.new_initial_state(small_options(plugin), 5)
    assert list(twin.legal_moves(seat))


@pytest.mark.parametrize("name", GAME_IDS)
def test_record_replays_every_state(name, tmp_path):
    plugin = registry.plugin(name)
    game = plugin.new_game()
    options = small_options(plugin)
    seats = [RandomSeat(i) for i in range(game.seats_for(options))]
    match = Match(plugin, options, seats, seed=11, record_path=tmp_path / "m.arena.jsonl",
                  time_control=None)
    outcome = match.run()
    replay = open_replay(tmp_path / "m.arena.jsonl")
    assert len(replay.states) == len(match.states)
    for index, (ours, theirs) in enumerate(zip(match.states, replay.states)):
        assert ours == theirs, f"state {index} differs after replay"
    assert replay.outcome == outcome
