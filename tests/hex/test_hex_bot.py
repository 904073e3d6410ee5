"""The built-in Hex bot: tactics, clock discipline, legality, determinism.

The rules (games/hex/rules.py, union-find) are the oracle for the search engine's own
flood-fill win checks.
"""
from __future__ import annotations

import random
import time

import pytest

import games.hex.bot as bot_module
from games.hex.bot import make_bot, move_allotment
from games.hex.mcts import EMPTY, P1, P2, HexSearch
from games.hex.rules import HexGame, HexMove

GAME = HexGame()


def start(size: int, position: str = "", **options):
    return GAME.new_initial_state({"size": size, "position": position, **options}, 7)


def random_position(size: int, stones: int, rng: random.Random):
    """A legal, unfinished position with ``stones`` stones, player 1 to move if even."""
    while True:
        state = start(size)
        cells = list(range(size * size))
        rng.shuffle(cells)
        for index in cells[:stones]:
            state.push(state.move_at(index))
            if state.outcome() is not None:
                break
        if state.outcome() is None:
            return state


# ---------------------------------------------------------------- engine vs the rules
def test_full_board_winner_matches_the_rules():
    rng = random.Random(3)
    for size in (1, 2, 3, 5, 8, 11):
        engine = HexSearch(size, 0)
        for _ in range(30):
            state = start(size)
            order = list(range(size * size))
            rng.shuffle(order)
            cells = [EMPTY] * (size * size)
            for turn, index in enumerate(order):
                cells[index] = P1 if turn % 2 == 0 else P2
            for index, colour in enumerate(cells):
                state._place(index, colour)
            assert engine.winner_of_full(cells) == state.winner() + 1


def test_winning_cells_match_the_rules():
    rng = random.Random(5)
    for size in (2, 4, 6, 9):
        engine = HexSearch(size, 0)
        for _ in range(8):
            state = random_position(size, rng.randrange(size * size // 2 + 1), rng)
            for seat, colour in ((0, P1), (1, P2)):
                expected = []
                for index, value in enumerate(state.cells):
                    if value == EMPTY:
                        trial = state.clone()
                        trial._place(index, colour)
                        if trial.winner() == seat:
                            expected.append(index)
                assert engine.winning_cells(list(state.cells), colour) == expected


# ---------------------------------------------------------------- tactics
WIN_FOR_PLAYER_1 = "2.2../11.11/2..../...../....2"       # c2 joins columns 1..5


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_takes_a_one_move_win(level):
    state = start(5, WIN_FOR_PLAYER_1)
    move = make_bot(level, 1, max_playouts=50).choose(state.clone(), 0, 1.0)
    assert move == HexMove(2, 3)


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_player_2_takes_a_one_move_win(level):
    # Player 2 holds column 4 except row 3; player 1 has just played elsewhere.
    state = start(5, "1..2./1..2./....1/...2./1..2.")
    state.push(HexMove(4, 1))
    move = make_bot(level, 1, max_playouts=50).choose(state.clone(), 1, 1.0)
    assert move == HexMove(3, 4)


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_blocks_the_opponents_one_move_win(level):
    # Player 2 (to move) must stop c2; it has no win of its own.
    state = start(5, WIN_FOR_PLAYER_1)
    state.push(HexMove(5, 1))
    assert state.current == 1
    move = make_bot(level, 1, max_playouts=50).choose(state.clone(), 1, 1.0)
    assert move == HexMove(2, 3)


def test_bot_does_not_touch_the_state():
    state = start(7, ".....1./......./..2..../......./......./......./.......")
    before = (list(state.cells), state.current, state.turn, list(state.history))
    make_bot(5, 2, max_playouts=200).choose(state, 0, 0.5)
    assert (list(state.cells), state.current, state.turn, list(state.history)) == before


# ---------------------------------------------------------------- the clock
def timed_choice(bot, state, budget):
    """(move, wall seconds, CPU seconds) of one ``choose`` call.

    The bot searches in the calling thread, so its CPU time is that thread's: the
    process's total would also charge it for threads earlier tests left winding down."""
    wall, cpu = time.perf_counter(), time.thread_time()
    move = bot.choose(state.clone(), state.current, budget)
    return move, time.perf_counter() - wall, time.thread_time() - cpu


# The bot reads the wall clock.  Its typical (median) CPU time is held to a tight margin;
# any single move's only to a looser one, because on the CI machine one move in a run has
# twice overrun by 30-60 ms of thread CPU time, which could not be reproduced here (nor
# traced to a garbage collection) and which the bot's clock checks cannot prevent.  The
# wall time gets the loosest margin: on a shared, overloaded machine the scheduler alone
# can keep a process waiting for a tenth of a second.  A bot that ignored its hard stop would overrun on
# every move and fail the median.
CPU_MARGIN, STALL_MARGIN, WALL_MARGIN = 0.02, 0.1, 0.3
# A single move is tried up to this many times: in a full CI run one fresh move once took
# 0.38 s of thread CPU against 0.225 s allotted, and one 5x5 move of the tight-budget test
# 0.303 s against 0.2 s in two of four runs (pauses the bot's clock checks cannot
# prevent, such as a full collection of the test process's large heap, which did not
# happen in a process of its own); a bot that overspent would do so on every try.
PAUSE_RETRIES = 3


@pytest.mark.parametrize("size", [5, 11, 20])
def test_answers_within_a_tight_budget(size, monkeypatch):
    # Let the bot spend the whole budget on every move, so its hard stop is what is tested.
    monkeypatch.setattr(bot_module, "move_allotment", lambda budget, empty: budget)
    bot = make_bot(5, 4)
    bot.prepare()               # as the runner does before the clocks run: compiles the search
    state = start(size)
    rng = random.Random(size)
    cpu_times = []
    for _ in range(5):
        for _ in range(PAUSE_RETRIES):
            move, wall, cpu = timed_choice(bot, state, 0.2)
            if cpu <= 0.2 + STALL_MARGIN and wall <= 0.2 + WALL_MARGIN:
                break
        cpu_times.append(cpu)
        assert cpu <= 0.2 + STALL_MARGIN and wall <= 0.2 + WALL_MARGIN
        state.check_move(state.current, move)
        state.push(move)
        if state.outcome():
            break
        empties = [i for i, v in enumerate(state.cells) if v == EMPTY]
        state.push(state.move_at(rng.choice(empties)))
        if state.outcome():
            break
    assert sorted(cpu_times)[(len(cpu_times) - 1) // 2] <= 0.2 + CPU_MARGIN   # lower median


def prepared(bot):
    """``bot`` after the one-time work the runner does before any clock runs."""
    bot.prepare()
    return bot


def test_a_tiny_budget_still_gives_a_legal_move():
    state = start(11)
    for budget in (0.0, 0.001, 0.01):
        for _ in range(PAUSE_RETRIES):
            move, wall, cpu = timed_choice(prepared(make_bot(5, 1)), state, budget)
            state.check_move(0, move)
            if cpu <= budget + CPU_MARGIN and wall <= budget + WALL_MARGIN:
                break
        assert cpu <= budget + CPU_MARGIN and wall <= budget + WALL_MARGIN


def test_uses_a_share_of_the_remaining_clock():
    state = start(9)
    allotment = move_allotment(5.0, 81)
    for _ in range(PAUSE_RETRIES):
        move, wall, cpu = timed_choice(prepared(make_bot(5, 1)), state, 5.0)
        state.check_move(0, move)
        if cpu <= allotment + CPU_MARGIN:
            break
    assert cpu <= allotment + CPU_MARGIN


def test_allotment_grows_as_the_board_fills():
    assert move_allotment(20.0, 121) < move_allotment(20.0, 40) < 20.0


# ---------------------------------------------------------------- legality and reproducibility
def play_game(state, bots, budget=None):
    moves = []
    while state.outcome() is None:
        seat = state.current
        move = bots[seat].choose(state.clone(), seat, budget)
        state.check_move(seat, move)
        state.push(move)
        moves.append(move)
    return moves


@pytest.mark.parametrize("size", range(1, 12))
def test_plays_legal_games_on_every_small_size(size):
    state = start(size)
    bots = [make_bot(5, size, max_playouts=20), make_bot(1, size)]
    play_game(state, bots if size % 2 else bots[::-1])
    assert state.outcome().winners in ((0,), (1,))


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_every_level_plays_from_a_given_position(level):
    state = start(6, "1..2../.2..1./....../..12../....../......")
    play_game(state, [make_bot(level, 1, max_playouts=40), make_bot(level, 2, max_playouts=40)])
    assert state.outcome() is not None


def test_same_seed_same_game():
    games = []
    for _ in range(2):
        state = start(7)
        games.append(play_game(state, [make_bot(5, 11, max_playouts=40), make_bot(4, 12, max_playouts=40)]))
    assert games[0] == games[1]


def test_swap_rule_is_handled():
    state = start(7, swap=True)
    first = make_bot(5, 1, max_playouts=40).choose(state.clone(), 0, None)
    assert first.row in (1, 7)                  # on player 2's edges, not worth swapping
    opened = state.clone()
    opened.push(first)
    assert make_bot(5, 2, max_playouts=40).choose(opened, 1, None) != HexMove.SWAP
    state.push(HexMove(4, 4))                   # the centre: worth swapping
    reply = make_bot(5, 1, max_playouts=40).choose(state.clone(), 1, None)
    assert reply == HexMove.SWAP
    state.push(reply)
    play_game(state, [make_bot(4, 3, max_playouts=30), make_bot(4, 4, max_playouts=30)])
    assert state.outcome() is not None


def test_swap_is_not_taken_from_a_start_position():
    state = start(5, "1..../...../..2../...../.....", swap=True)
    state.push(HexMove(3, 3))
    move = make_bot(5, 1, max_playouts=40).choose(state.clone(), 1, None)
    assert move != HexMove.SWAP
    state.check_move(1, move)


def test_a_restricted_root_does_not_restrict_the_tree_below():
    engine = HexSearch(5, 1)
    cells = [EMPTY] * 25
    cells[12] = P1
    engine.search(cells, P2, None, 300, candidates=[6, 18])
    assert engine.root.children
    for move, child in engine.root.children.items():
        assert sorted(child.moves) == [c for c in range(25) if c not in (12, move)]


# ---------------------------------------------------------------- strength, quickly
def test_searching_bot_beats_random_player():
    wins = 0
    for game in range(4):
        state = start(7)
        seat = game % 2
        bots = [make_bot(1, game), make_bot(1, game)]
        bots[seat] = make_bot(5, game, max_playouts=100)
        play_game(state, bots)
        wins += state.outcome().winners == (seat,)
    assert wins == 4


def test_player_2_beats_random_from_a_player_1_advantage():
    # Player 1 already holds the centre and a bridge; player 2 (our bot) still wins.
    wins = 0
    for game in range(3):
        state = start(7, "......./......./....1../...1.../..2..../......2/.......")
        play_game(state, [make_bot(1, game), make_bot(5, game, max_playouts=100)])
        wins += state.outcome().winners == (1,)
    assert wins == 3
