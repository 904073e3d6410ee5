"""Hex rules against OpenSpiel's ``hex`` as an independent oracle, plus the position option.

How OpenSpiel's Hex maps onto ours (checked by probing pyspiel 2.0.2, and by the test
below failing for the untransposed mapping):

* OpenSpiel action ``a`` is the cell at 0-based ``row = a // num_cols``,
  ``col = a % num_cols``; its text is column letter + row number (``b1`` = row 0, col 1).
* OpenSpiel's board is drawn with each row shifted half a cell to the right, so the
  neighbours of (r, c) are (r-1, c), (r-1, c+1), (r, c-1), (r, c+1), (r+1, c-1), (r+1, c):
  the RULEBOOK's set.
* OpenSpiel's player 0 (``x``, black) moves first and connects the top and bottom rows;
  its player 1 (``o``, white) connects the left and right columns.
* Our player 1 (seat 0) moves first but connects columns 1 and N.  So our cell
  (row r, col c), 1-based, is OpenSpiel's cell (row c-1, col r-1): the board is
  transposed.  Transposition maps the neighbour set onto itself (the step (-1, +1)
  becomes (+1, -1)), so adjacency is preserved and only the edges swap, which is
  exactly the difference between the two conventions.
"""
import random

import pytest

from games.api import GameSetupError, IllegalMoveError, MoveSyntaxError, Termination
from games.hex.rules import HexGame, HexMove, HexState, neighbours, parse_move_text

import pyspiel   # a test-only dependency: the independent reference

SIZES = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
GAMES_PER_SIZE = 110          # 1,100 games in all


def openspiel_action(move: HexMove, size: int) -> int:
    """Our (row, col) -> OpenSpiel's action on the transposed board."""
    return (move.col - 1) * size + (move.row - 1)


def identity_action(move: HexMove, size: int) -> int:
    """The naive mapping (no transposition), kept to show the oracle can disagree."""
    return (move.row - 1) * size + (move.col - 1)


def play_against_oracle(size: int, rng: random.Random, to_action=openspiel_action):
    """Play one random game on both implementations; return (winner, disagreements)."""
    oracle_game = pyspiel.load_game(f"hex(num_rows={size},num_cols={size})")
    oracle = oracle_game.new_initial_state()
    ours = HexGame().new_initial_state({"size": size}, seed=0)
    disagreements = []
    remaining = ours.legal_moves(ours.current)
    while True:
        if ours.turn % 8 == 0:          # the legal sets agree too (checked now and then: slow)
            legal = ours.legal_moves(ours.current)
            assert sorted(to_action(m, size) for m in legal) == sorted(oracle.legal_actions())
        move = remaining.pop(rng.randrange(len(remaining)))
        ours.check_move(ours.current, move)
        ours.apply({ours.current: move})
        oracle.apply_action(to_action(move, size))
        ours_over = ours.is_terminal()
        if ours_over != oracle.is_terminal():
            disagreements.append((ours.board_text(), "terminal", ours_over))
            return None, disagreements
        if ours_over:
            returns = oracle.returns()
            oracle_winner = 0 if returns[0] > 0 else 1
            our_winner = ours.outcome().winners[0]
            if our_winner != oracle_winner:
                disagreements.append((ours.board_text(), "winner", our_winner, oracle_winner))
            assert ours.outcome().reason is Termination.WIN
            return our_winner, disagreements


def test_random_games_agree_with_openspiel():
    rng = random.Random(19970701)
    winners = {0: 0, 1: 0}
    games = 0
    for size in SIZES:
        for _ in range(GAMES_PER_SIZE):
            winner, disagreements = play_against_oracle(size, rng)
            assert disagreements == []
            winners[winner] += 1
            games += 1
    assert games >= 1000
    assert winners[0] > 100 and winners[1] > 100, winners


def test_untransposed_mapping_is_caught():
    """The comparison is strict enough to reject the wrong orientation."""
    rng = random.Random(7)
    caught = 0
    for _ in range(20):
        _, disagreements = play_against_oracle(5, rng, to_action=identity_action)
        caught += bool(disagreements)
    assert caught > 10


def test_neighbours_follow_the_rulebook():
    assert sorted(neighbours(5, 3, 3)) == sorted([(2, 3), (2, 4), (3, 2), (3, 4), (4, 2), (4, 3)])
    assert sorted(neighbours(5, 1, 1)) == [(1, 2), (2, 1)]
    assert sorted(neighbours(5, 1, 5)) == [(1, 4), (2, 4), (2, 5)]


def test_diagonal_chain_wins_for_player_one():
    """Row 3 across is a chain; so is the anti-diagonal (r+1, c-1) steps."""
    state = HexGame().new_initial_state({"size": 3}, seed=0)
    for move in ("a3", "a1", "b2", "b1", "c1"):   # P1: (3,1) (2,2) (1,3) anti-diagonal
        state.apply({state.current: parse_move_text(move)})
    assert state.outcome().winners == (0,)


# ------------------------------------------------------------------ position option
def test_position_with_equal_counts_is_used():
    game = HexGame()
    state = game.new_initial_state({"size": 3, "position": "1../.2./..."}, seed=0)
    assert state.look(1, 1) == 1 and state.look(2, 2) == 2 and state.look(3, 3) == 0
    assert state.look(0, 1) == -1 and state.look(1, 4) == -1
    assert state.to_move() == (0,)
    assert len(state.legal_moves(0)) == 7


def test_position_with_unequal_counts_is_rejected_clearly():
    with pytest.raises(GameSetupError, match="equal stone counts.*1 of player 1 and 2 of player 2"):
        HexGame().new_initial_state({"size": 3, "position": "1../22./..."}, seed=0)
    state = HexGame().new_initial_state({"size": 3, "position": "11./.2./..."}, seed=0)
    assert state.to_move() == (1,)           # player 1 has a stone more: player 2 moves


def test_position_with_wrong_shape_is_rejected():
    with pytest.raises(GameSetupError, match="rows"):
        HexGame().new_initial_state({"size": 3, "position": "1../.2."}, seed=0)
    with pytest.raises(GameSetupError, match="row 2 has 2 cells"):
        HexGame().new_initial_state({"size": 3, "position": "1../2./..."}, seed=0)


def test_occupied_and_offboard_moves_are_illegal():
    state = HexGame().new_initial_state({"size": 3}, seed=0)
    state.apply({0: HexMove(2, 2)})
    with pytest.raises(IllegalMoveError, match="occupied"):
        state.check_move(1, HexMove(2, 2))
    with pytest.raises(IllegalMoveError, match="off the"):
        state.check_move(1, HexMove(4, 1))
    with pytest.raises(IllegalMoveError, match="turn"):
        state.check_move(0, HexMove(1, 1))


# ------------------------------------------------------------------ move text
def test_move_text_round_trips_on_every_cell():
    game = HexGame()
    for row in range(1, 21):
        for col in range(1, 21):
            move = HexMove(row, col)
            assert game.parse_move(game.format_move(move)) == move
    assert game.parse_move("swap") == HexMove.SWAP
    assert game.format_move(HexMove.SWAP) == "swap"
    assert game.parse_move("c3") == HexMove(3, 3)
    assert game.parse_move("b7") == HexMove(7, 2)        # column letter, row number
    assert game.parse_move("7 2") == HexMove(7, 2)       # ROW COL as the contest's calls
    for bad in ("", "z9", "c", "3", "hello"):
        with pytest.raises(MoveSyntaxError):
            game.parse_move(bad)


def test_clone_is_independent():
    state = HexState(4)
    twin = state.clone()
    twin.push(HexMove(1, 1))
    assert state.look(1, 1) == 0 and twin.look(1, 1) == 1


def test_swap_is_offered_only_from_an_empty_start():
    """Regression: with a start position there is no single stone to swap (it used to crash)."""
    game = HexGame()
    state = game.new_initial_state({"size": 3, "swap": True, "position": "1../.2./..."}, seed=0)
    state.push(HexMove(3, 3))
    assert HexMove.SWAP not in state.legal_moves(1)
    with pytest.raises(IllegalMoveError):
        state.check_move(1, HexMove.SWAP)
    state = game.new_initial_state({"size": 3, "swap": True}, seed=0)
    state.push(HexMove(1, 2))
    assert HexMove.SWAP in state.legal_moves(1)
    state.push(HexMove.SWAP)
    assert state.board_text() == ".../2../..."
