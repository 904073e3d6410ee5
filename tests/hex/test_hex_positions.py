"""The shipped start positions: format, equal counts, and player 1 winning (proved or argued)."""
import random
import re

import pytest

from games.api import RecordFormatError
from games.hex.rules import HexGame, P2
from games.hex.solver import Solver, is_colour_symmetric, masks, side_to_move_wins
from games.hex.start_positions import list_positions, load_position

POSITIONS = list_positions()
SEARCHABLE = 6


def state_of(position):
    return HexGame().new_initial_state(position.options(), seed=0)


def test_at_least_five_positions_from_5_to_11():
    assert len(POSITIONS) >= 5
    sizes = {p.size for p in POSITIONS}
    assert min(sizes) == 5 and max(sizes) == 11
    for position in POSITIONS:
        assert position.position.count("1") == position.position.count("2")
        state = state_of(position)
        assert state.to_move() == (0,) and not state.is_terminal()


@pytest.mark.parametrize("position", [p for p in POSITIONS if p.size <= SEARCHABLE], ids=lambda p: p.name)
def test_small_positions_are_proved_by_exhaustive_search(position):
    state = state_of(position)
    solver = Solver(position.size)
    assert side_to_move_wins(state, solver)
    # The documented winning moves are exactly the moves that win.
    ones, twos = masks(state)
    empty = solver.full & ~(ones | twos)
    n = position.size
    winning = {(i // n + 1, i % n + 1) for i in range(n * n)
               if empty >> i & 1 and not solver.wins(twos, ones | 1 << i, P2)}
    stated = {(int(r), int(c)) for r, c in re.findall(r"row (\d+),? column (\d+)", position.notes)}
    assert winning == stated


@pytest.mark.parametrize("position", [p for p in POSITIONS if p.size > SEARCHABLE], ids=lambda p: p.name)
def test_large_positions_are_colour_symmetric(position):
    assert is_colour_symmetric(state_of(position))


def test_strategy_stealing_on_small_symmetric_positions():
    """Every colour-symmetric position searched is a first-player win (the argument holds)."""
    rng = random.Random(3)
    checked = 0
    for size, pairs in ((3, 1), (4, 1), (4, 2), (4, 3), (5, 5), (5, 6)):
        for _ in range(3):
            cells = [(r, c) for r in range(1, size + 1) for c in range(1, size + 1) if r != c]
            rows = [["."] * size for _ in range(size)]
            placed = 0
            for r, c in rng.sample(cells, len(cells)):
                if placed == pairs:
                    break
                if rows[r - 1][c - 1] == "." and rows[c - 1][r - 1] == ".":
                    rows[r - 1][c - 1], rows[c - 1][r - 1] = "1", "2"
                    placed += 1
            state = HexGame().new_initial_state(
                {"size": size, "position": "/".join("".join(r) for r in rows)}, seed=0)
            assert is_colour_symmetric(state)
            assert side_to_move_wins(state)
            checked += 1
    assert checked == 18


def test_solver_can_say_no():
    """A position where player 1, to move, loses (so the checks above can fail)."""
    state = HexGame().new_initial_state({"size": 5, "position": "1..../..122/.2.21/1.2../2.1.1"}, seed=0)
    assert not side_to_move_wins(state)
    assert not is_colour_symmetric(state)


def test_solver_agrees_with_plain_minimax_on_3x3():
    def minimax(state):
        if state.is_terminal():
            return False                     # the player who just moved has connected
        return any(not minimax(_after(state, m)) for m in state.legal_moves(state.current))

    def _after(state, move):
        twin = state.clone()
        twin.push(move)
        return twin

    rng = random.Random(8)
    for _ in range(20):
        state = HexGame().new_initial_state({"size": 3}, seed=0)
        for _ in range(rng.randrange(2, 6)):
            moves = state.legal_moves(state.current)
            candidate = _after(state, rng.choice(moves))
            if candidate.is_terminal():
                break
            state = candidate
        assert side_to_move_wins(state) == minimax(state)


def test_malformed_position_file_is_refused(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("# unequal\n11./.2./...\n")
    with pytest.raises(RecordFormatError) as info:
        load_position(bad)
    assert info.value.line == 2 and "equal stone counts" in info.value.expected
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    with pytest.raises(RecordFormatError):
        load_position(empty)
