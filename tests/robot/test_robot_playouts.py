"""Invariants over whole games of built-in bots, and MAP.INP read back every turn."""
import random

from games.robot.maps import new_state  # noqa: E402
from games.robot.bot import make_bot
from games.robot.protocol import read_map_inp, write_map_inp


def test_invariants_hold_over_random_games():
    for seed in range(4):
        players = 2 + seed % 3
        state = new_state({"map": "rooms-17", "players": players}, seed)
        bots = [make_bot(1 + (seed + s) % 4, seed * 5 + s) for s in range(players)]
        sealed_before = set()
        while not state.is_terminal():
            for seat in range(players):
                inp = read_map_inp(write_map_inp(state, seat))
                assert inp.rows == state.map_rows() and inp.turn == state.turn
                pos = state.position(seat)
                assert inp.me[:2] == (pos if pos is not None else (-1, -1))
                assert [i for i in inp.items] == state.item_list()
            moves = {s: bots[s].choose(state.clone(), s, 0.2) for s in state.to_move()}
            state.apply(moves)
            rows = state.map_rows(raw=True)
            sealed = {(x, y, ch) for x, row in enumerate(rows) for y, ch in enumerate(row)
                      if ch in "*abcd"}
            assert sealed_before <= sealed            # sealed cells never change again
            sealed_before = sealed
            for robot in state.robots:
                if robot.in_game:
                    x, y = state.board.xy(robot.pos)
                    assert state.is_open(x, y) or robot.on_oil
            for p, kind in state.items:
                assert state.is_open(*state.board.xy(p)) and kind in "GEF"
            assert len({p for p, _ in state.items}) == len(state.items)
        out = state.outcome()
        assert sum(out.scores) <= len(state.map_rows()) * len(state.map_rows()[0])
        assert state.to_move() == ()


def test_random_moves_never_break_the_rules_engine():
    rng = random.Random(8)
    for seed in range(6):
        state = new_state({"map": "maze-19", "players": 4, "respawn":
                                        "on" if seed % 2 else "off", "period": 3}, seed)
        while not state.is_terminal():
            moves = {}
            for s in state.to_move():
                if rng.random() < 0.2:
                    moves[s] = (rng.randint(-2, 20), rng.randint(-2, 20))   # often illegal
                else:
                    moves[s] = rng.choice(state.legal_moves(s))
            state.apply(moves)
        assert state.outcome() is not None and state.turn <= 3 * 10 + 1
