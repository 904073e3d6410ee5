"""Built-in Robot bots: legal, quick, and stronger levels beat weaker ones."""
import time

import pytest

from games.robot.maps import new_state  # noqa: E402
from games.robot import PLUGIN
from games.robot.bot import make_bot
from runner.match import Match
from runner.seats import make_seat


def play(levels, seed, map_name="pillars-13"):
    state = new_state({"map": map_name, "players": len(levels)}, seed)
    bots = [make_bot(level, seed * 7 + i) for i, level in enumerate(levels)]
    slowest = 0.0
    while not state.is_terminal():
        moves = {}
        for seat in state.to_move():
            start = time.perf_counter()
            move = bots[seat].choose(state.clone(), seat, 0.5)
            slowest = max(slowest, time.perf_counter() - start)
            if state.position(seat) is not None:
                state.check_move(seat, move)
            moves[seat] = move
        state.apply(moves)
    return state.outcome(), slowest


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_every_level_plays_legal_moves_quickly(level):
    outcome, slowest = play([level, 2], seed=level)
    assert outcome is not None and slowest < 0.25


def test_strongest_beats_random_and_painter():
    cells = {1: 0, 2: 0, 4: 0}
    for seed in range(3):
        for weak in (1, 2):
            outcome, _ = play([4, weak] if seed % 2 else [weak, 4], seed)
            strong_seat = 0 if seed % 2 else 1
            cells[4] += outcome.scores[strong_seat]
            cells[weak] += outcome.scores[1 - strong_seat]
    assert cells[4] / 2 > cells[2] > cells[1]


def test_bot_seats_through_the_plugin_finish_a_match():
    seats = [make_seat(f"bot:{level}", PLUGIN, 3 + level) for level in (1, 2, 3, 4)]
    match = Match(PLUGIN, {"map": "open-11", "players": 4}, seats, seed=9)
    outcome = match.run()
    assert outcome is not None and len(outcome.scores) == 4
    assert match.state.is_terminal() and len(match.turns) <= 31
