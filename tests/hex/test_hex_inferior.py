"""Dead cells and captured pairs (games/hex/inferior.py), checked against the exhaustive
solver: filling them never changes who wins, and a winning move stays among the cells
left empty."""
import random
import time

import pytest

from games.hex.bot import make_bot
from games.hex.inferior import InferiorCells
from games.hex.mcts import EMPTY, P1, P2, HexSearch
from games.hex.rules import HexGame
from games.hex.solver import Solver

GAME = HexGame()


def board(size: int, ones=(), twos=()) -> list[int]:
    cells = [EMPTY] * (size * size)
    for i in ones:
        cells[i] = P1
    for i in twos:
        cells[i] = P2
    return cells


def test_a_cell_with_four_neighbours_of_one_colour_in_a_row_is_dead():
    # 5x5, cell 12 = (2, 2); its ring in turning order is 7, 8, 13, 17, 16, 11.
    inferior = InferiorCells(5)
    assert inferior.is_dead(board(5, ones=(7, 8, 13, 17)), 12)
    assert not inferior.is_dead(board(5, ones=(7, 8, 13)), 12)       # player 2 can pass 17-12-11
    assert inferior.is_dead(board(5, ones=(7, 8, 13), twos=(16, 11)), 12)


def test_edges_count_as_their_colours_stones():
    # 5x5, cell 5 = (1, 0) on player 1's left edge; ring 0, 1, 6, 10, then the edge twice.
    inferior = InferiorCells(5)
    assert not inferior.is_dead(board(5), 5)
    assert not inferior.is_dead(board(5, ones=(0,)), 5)        # player 1 joins 10 to the edge
    assert inferior.is_dead(board(5, ones=(0, 10)), 5)         # both already touch the edge


def test_a_pair_between_two_pairs_of_stones_is_captured():
    # 5x5: player 1 on 7, 8 above and 17, 18 below the pair 12-13.
    cells = board(5, ones=(7, 8, 17, 18))
    filled = InferiorCells(5).fill(cells)
    assert filled[12] == filled[13] == P1
    assert cells[12] == cells[13] == EMPTY            # the caller's board is left alone


def masks(cells):
    ones = sum(1 << i for i, v in enumerate(cells) if v == P1)
    twos = sum(1 << i for i, v in enumerate(cells) if v == P2)
    return ones, twos


def mover_wins(solver: Solver, cells: list[int], mover: int) -> bool:
    ones, twos = masks(cells)
    if solver.connected(ones, P1) or solver.connected(twos, P2):
        return solver.connected(ones if mover == P1 else twos, mover)
    return solver.wins(ones, twos, P1) if mover == P1 else solver.wins(twos, ones, P2)


def random_positions(size: int, count: int, seed: int):
    """Positions no side has joined yet, with a side to move and something to fill."""
    rng = random.Random(seed)
    solver, inferior = Solver(size), InferiorCells(size)
    while count:
        cells = [EMPTY] * (size * size)
        for i in rng.sample(range(size * size), rng.randint(2, size * size // 2)):
            cells[i] = rng.choice((P1, P2))
        ones, twos = masks(cells)
        filled = inferior.fill(cells)
        if solver.connected(ones, P1) or solver.connected(twos, P2) or filled == cells:
            continue
        count -= 1
        yield solver, cells, filled, rng.choice((P1, P2))


def test_filling_never_changes_who_wins():
    """The position's value and, after each move left open, the reply's value."""
    checked = 0
    for solver, cells, filled, mover in random_positions(4, 120, seed=1):
        assert mover_wins(solver, filled, mover) == mover_wins(solver, cells, mover), (cells, filled)
        for i in (i for i, v in enumerate(filled) if v == EMPTY):
            real = cells[:i] + [mover] + cells[i + 1:]
            virtual = filled[:i] + [mover] + filled[i + 1:]
            assert mover_wins(solver, real, 3 - mover) == mover_wins(solver, virtual, 3 - mover), (cells, i)
        checked += 1
    assert checked == 120


def test_a_winning_move_stays_among_the_cells_left_empty():
    won = 0
    for solver, cells, filled, mover in random_positions(4, 150, seed=2):
        if not mover_wins(solver, cells, mover) or 0 not in filled:
            continue
        won += 1
        moves = [i for i, v in enumerate(filled) if v == EMPTY]
        after = [cells[:i] + [mover] + cells[i + 1:] for i in moves]
        assert any(not mover_wins(solver, position, 3 - mover) for position in after), cells
    assert won >= 30


def test_level_5_does_not_play_into_filled_cells():
    # 7x7, player 2 (rows) to move; player 1 holds the pair 24-25 between 17, 18 and 31, 32.
    state = GAME.new_initial_state({"size": 7}, 1)
    for index in (17, 0, 18, 6, 31, 48, 32):
        state.apply({state.current: state.move_at(index)})
    filled = InferiorCells(7).fill(list(state.cells))
    assert filled[24] == filled[25] == P1
    for seed in range(5):
        move = make_bot(5, seed, max_playouts=200).choose(state.clone(), state.current, None)
        assert filled[state.index(move)] == EMPTY


def test_the_search_drops_moves_filled_after_its_tree_was_grown():
    search = HexSearch(5, seed=3)
    cells = board(5, ones=(7, 8, 17, 18))
    search.search(cells, P2, None, 300)               # the tree holds moves on 12 and 13
    filled = InferiorCells(5).fill(cells)
    moves = [i for i, v in enumerate(filled) if v == EMPTY]
    best = search.search(cells, P2, None, 300, moves, filled)
    assert filled[best] == EMPTY
    assert all(filled[m] == EMPTY for node in search.root.children.values() for m in node.moves)


@pytest.mark.parametrize("size", [9, 11])
def test_the_fill_takes_milliseconds(size):
    rng = random.Random(size)
    inferior = InferiorCells(size)
    cells = [EMPTY] * (size * size)
    for i in rng.sample(range(size * size), size * size // 3):
        cells[i] = rng.choice((P1, P2))
    start = time.perf_counter()
    inferior.fill(cells)
    assert time.perf_counter() - start < 0.25
