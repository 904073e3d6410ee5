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


def _pocket_state():
    """9×9, K = 4: the pocket (2, 3) of ring 2 opens only onto (1, 3), of ring 1, which
    is sealed at the end of turn 8.  A stands at (1, 3) at turn 6; every open cell but
    the pocket is already A's."""
    from games.robot.rules import state_from_rows
    rows = [".........", ".........", "..#.#....", "..###...."] + ["........."] * 5
    state = state_from_rows(rows, 4)
    for p in range(state.board.length):
        if state.grid[p] == ord("."):
            state.grid[p] = ord("A")
    state.grid[state.board.index(2, 3)] = ord(".")
    state.grid[state.board.index(8, 8)] = ord("B")
    state.robots[0].pos, state.robots[1].pos = state.board.index(1, 3), state.board.index(8, 8)
    state.turn = 6
    return state


def test_survival_sees_a_shrink_trap():
    from games.robot.bot import survival_turns
    state = _pocket_state()
    inside = state.clone()
    inside.robots[0].pos, inside.turn = state.board.index(2, 3), 7
    outside = state.clone()
    outside.robots[0].pos, outside.turn = state.board.index(1, 4), 7
    assert survival_turns(inside, 0) == 5          # sealed with ring 2 at the end of turn 12
    assert survival_turns(outside, 0) > 8


@pytest.mark.parametrize("level", [3, 4])
def test_the_bot_does_not_walk_into_a_shrink_trap(level):
    state = _pocket_state()
    assert make_bot(level, 1).choose(state.clone(), 0, 1.0) != (2, 3)


def test_the_bot_breaks_a_swap_loop():
    """Two robots trading cells for a whole game: after a few trades the bot goes
    elsewhere (it remembers where it stood)."""
    from games.robot.rules import state_from_rows
    state = state_from_rows(["......."] * 7, 100)
    state.apply({0: (3, 3), 1: (3, 4)})
    bot = make_bot(4, 1)
    seen = []
    for _ in range(12):
        mine = bot.choose(state.clone(), 0, 1.0)
        seen.append(mine)
        state.apply({0: mine, 1: state.position(0)})      # B always takes A's cell
    assert len(set(seen[-6:])) > 2
