"""The compiled level-5 search (games/hex/fast_mcts.py) against the rules and mcts.py.

The rules' union-find is the oracle for the compiled winner check; the pure-Python
``HexSearch`` is the reference the compiled search must agree with on clear positions.
"""
from __future__ import annotations

import builtins
import random
import time
from pathlib import Path

import numpy as np
import pytest

from games.hex import fast_mcts
from games.hex.bot import LEVEL_PLANS, make_bot, search_class
from games.hex.fast_mcts import FastHexSearch
from games.hex.mcts import EMPTY, P1, P2, HexSearch, SearchConfig
from games.hex.rules import HexGame, parse_move_text
from games.hex.solver import Solver

GAME = HexGame()


def full_board(size: int, rng: random.Random) -> list[int]:
    order = list(range(size * size))
    rng.shuffle(order)
    cells = [EMPTY] * (size * size)
    for turn, index in enumerate(order):
        cells[index] = P1 if turn % 2 == 0 else P2
    return cells


def test_the_compiled_winner_of_a_full_board_matches_the_rules():
    rng = random.Random(11)
    for size in (1, 2, 3, 6, 9, 11):
        search = FastHexSearch(size, 0)
        stack = np.empty(size * size, dtype=np.int32)
        seen = np.empty(size * size, dtype=np.uint8)
        for _ in range(25):
            cells = full_board(size, rng)
            state = GAME.new_initial_state({"size": size}, 1)
            for index, colour in enumerate(cells):
                state._place(index, colour)
            board = np.array(cells, dtype=np.int8)
            assert fast_mcts._winner(board, search.tables, stack, seen) == state.winner() + 1


def test_a_playout_fills_every_cell_and_saves_an_intruded_bridge():
    # 5x5: player 1 holds 6 and 12, a bridge with carrier 7 and 11; player 2 takes 7.
    search = FastHexSearch(5, 3)
    cells = np.zeros(25, dtype=np.int8)
    cells[6] = cells[12] = P1
    cells[7] = P2
    order = np.empty(25, dtype=np.int32)
    for _ in range(20):
        trial = cells.copy()
        fast_mcts._fill(trial, P1, 7, order, search.rng_state, search.tables, True)
        assert (trial != EMPTY).all()
        assert trial[11] == P1                    # the reply came before any random move


def test_a_seeded_search_with_a_playout_cap_repeats_itself():
    state = GAME.new_initial_state({"size": 9, "position": ""}, 1)
    for move in ("e5", "c7", "g3"):
        state.push(parse_move_text(move))
    first = [FastHexSearch(9, 5).search(list(state.cells), P2, None, 3000) for _ in range(2)]
    other = FastHexSearch(9, 6).search(list(state.cells), P2, None, 3000)
    assert first[0] == first[1]
    assert isinstance(other, int) and state.cells[other] == EMPTY


def test_the_search_keeps_to_the_candidates_and_the_empty_cells():
    search = FastHexSearch(7, 2)
    cells = [EMPTY] * 49
    cells[24] = P1
    for _ in range(2):
        move = search.search(cells, P2, None, 2000, candidates=[0, 24, 48])
        assert move in (0, 48) and cells[move] == EMPTY
        cells[move] = P2
        cells[[c for c in range(49) if cells[c] == EMPTY and c not in (0, 24, 48)][-1]] = P1
    assert cells[search.search(cells, P2, None, 2000, candidates=[0, 24, 48])] == EMPTY


def test_the_tree_two_plies_down_is_kept_with_its_statistics():
    search = FastHexSearch(7, 4)
    cells = [EMPTY] * 49
    cells[24] = P1
    reply = search.search(cells, P2, None, 4000)
    pool = search.pool
    root = search.root_index
    answer = int(np.argmax(pool.n[pool.child[root, reply]])) if pool.child[root, reply] >= 0 else -1
    assert answer >= 0, "the reply's node should have grown in 4,000 playouts"
    grandchild = int(pool.child[pool.child[root, reply], answer])
    assert grandchild >= 0
    expected_n = pool.n[grandchild].copy()
    expected_rw = pool.rw[grandchild].copy()
    subtree = _subtree_size(pool, grandchild)
    after = list(cells)
    after[reply], after[answer] = P2, P1
    assert search._root_for(after, P2, (-1, -1)) == 0
    assert pool.count == subtree
    assert (pool.n[0] == expected_n).all() and (pool.rw[0] == expected_rw).all()
    assert _subtree_size(pool, 0) == subtree      # every child index points inside the kept part


def _subtree_size(pool, node: int) -> int:
    count, stack = 0, [node]
    while stack:
        x = stack.pop()
        count += 1
        stack.extend(int(c) for c in pool.child[x] if c >= 0)
    return count


def test_a_full_pool_stops_the_tree_growing_but_not_the_search(monkeypatch):
    monkeypatch.setattr(fast_mcts, "POOL_BYTES", 1)          # the smallest pool: 256 nodes
    search = FastHexSearch(5, 1)
    move = search.search([EMPTY] * 25, P1, time.perf_counter() + 0.3, None)
    assert search.playouts > 5000 and search.pool.count == search.capacity == 256
    assert 0 <= move < 25


@pytest.mark.parametrize("size", [5, 7])
def test_compiled_and_python_searches_agree_on_the_only_saving_move(size):
    """Player 2 must block player 1's one-move win on an otherwise quiet board."""
    n = size
    cells = [EMPTY] * (n * n)
    row = n // 2
    for c in range(n):
        if c != 2:
            cells[row * n + c] = P1
    cells[0] = cells[n * n - 1] = P2
    expected = row * n + 2
    assert HexSearch(n, 1).search(cells, P2, None, 3000) == expected
    assert FastHexSearch(n, 1).search(cells, P2, None, 3000) == expected


def test_level_5_searches_compiled_and_falls_back_without_numba(monkeypatch):
    assert search_class(LEVEL_PLANS[5]) is FastHexSearch
    assert search_class(LEVEL_PLANS[4]) is HexSearch
    real_import = builtins.__import__

    def no_fast_module(name, *args, **kwargs):
        if name == "games.hex.fast_mcts":
            raise ImportError("numba is not installed")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_fast_module)
    assert search_class(LEVEL_PLANS[5]) is HexSearch


def test_level_5_plays_a_whole_game_against_itself_legally():
    state = GAME.new_initial_state({"size": 6, "position": ""}, 1)
    bots = [make_bot(5, 1, max_playouts=400), make_bot(5, 2, max_playouts=400)]
    while state.outcome() is None:
        move = bots[state.current].choose(state.clone(), state.current, None)
        state.push(move)
    assert state.outcome() is not None


# ---------------------------------------------------------------- knowledge at the nodes
def solver_says_mover_wins(solver: Solver, cells: list[int], mover: int) -> bool:
    ones = sum(1 << i for i, v in enumerate(cells) if v == P1)
    twos = sum(1 << i for i, v in enumerate(cells) if v == P2)
    if solver.connected(ones, P1) or solver.connected(twos, P2):
        return solver.connected(ones if mover == P1 else twos, mover)
    return solver.wins(ones, twos, P1) if mover == P1 else solver.wins(twos, ones, P2)


def random_unfinished(size: int, rng: random.Random, least: int, most: int):
    """(cells, mover) of a random position neither side has joined, ``least``-``most`` stones."""
    solver = Solver(size)
    while True:
        cells = [EMPTY] * (size * size)
        order = list(range(size * size))
        rng.shuffle(order)
        stones = rng.randrange(least, most + 1)
        for turn, index in enumerate(order[:stones]):
            cells[index] = P1 if turn % 2 == 0 else P2
        if not any(solver.connected(sum(1 << i for i, v in enumerate(cells) if v == c), c) for c in (P1, P2)):
            return cells, P1 if stones % 2 == 0 else P2


@pytest.mark.parametrize("size, count, least, most", [(4, 150, 2, 9), (5, 30, 9, 14)])
def test_a_nodes_knowledge_agrees_with_the_solver(size, count, least, most):
    """Every proven node and every pruned move of ``_knowledge`` on random positions
    is what the exhaustive solver says; and it does prove and prune some."""
    rng = random.Random(21 + size)
    search = FastHexSearch(size, 0)
    pool = search.pool
    region = np.empty(size * size, dtype=np.uint8)
    seen = {"win": 0, "loss": 0, "pruned": 0}
    for _ in range(count):
        cells, mover = random_unfinished(size, rng, least, most)
        solver = Solver(size)
        pool.clear()
        board = np.array(cells, dtype=np.int8)
        node = pool.new_root(mover, board, search)
        fast_mcts._knowledge(node, board, pool.arrays(), search.vc_workspace, region)
        verdict = int(pool.proven[node])
        if verdict == fast_mcts.PROVEN_WIN:
            seen["win"] += 1
            assert solver_says_mover_wins(solver, cells, mover), cells
        elif verdict == fast_mcts.PROVEN_LOSS:
            seen["loss"] += 1
            assert not solver_says_mover_wins(solver, cells, mover), cells
        for cell in np.flatnonzero(pool.n[node] < 0):
            seen["pruned"] += 1
            after = list(cells)
            after[cell] = mover
            assert solver_says_mover_wins(solver, after, 3 - mover), (cells, cell)
    assert min(seen.values()) >= 3, seen


def test_with_knowledge_the_search_finds_a_winning_move_and_proves_nodes():
    """On random 5x5 positions the mover wins (by the solver), the search with knowledge
    at 8 visits picks a winning move; the tree holds proven nodes."""
    rng = random.Random(4)
    solver = Solver(5)
    checked = proven = 0
    while checked < 10:
        cells, mover = random_unfinished(5, rng, 8, 12)
        if not solver_says_mover_wins(solver, cells, mover):
            continue
        search = FastHexSearch(5, checked, SearchConfig(knowledge_visits=8))
        move = search.search(cells, mover, None, 4000)
        after = list(cells)
        after[move] = mover
        assert not solver_says_mover_wins(solver, after, 3 - mover), (cells, move)
        proven += int((search.pool.proven[:search.pool.count] != 0).sum())
        checked += 1
    assert proven > 0


# ---------------------------------------------------------------- compiling before the clocks
def test_a_bot_seat_compiles_level_5_when_the_match_starts_not_when_it_is_built(monkeypatch):
    from games import registry
    from runner.seats import SeatInfo, make_seat

    calls = []
    monkeypatch.setattr(fast_mcts, "warm_up", lambda: calls.append("compiled"))
    plugin = registry.plugin("hex")
    seat = make_seat("bot:5", plugin, 1)          # what the New match form does to check a seat
    assert calls == []
    state = GAME.new_initial_state({"size": 5, "position": ""}, 1)
    seat.start(SeatInfo(GAME, {}, 0, 2, 1), state)
    assert calls == ["compiled"]
    make_seat("bot:4", plugin, 1).start(SeatInfo(GAME, {}, 1, 2, 1), state)
    assert calls == ["compiled"]                  # level 4 searches in pure Python


# Run in a fresh process: this test process may have compiled every version already.
MOVES_AFTER_WARM_UP = """
import random, sys
import numba
from games.hex import fast_mcts, fast_vcs
from games.hex.bot import make_bot
from games.hex.mcts import EMPTY
from games.hex.rules import HexGame

def versions():
    return {(module.__name__, name): len(kernel.signatures)
            for module in (fast_mcts, fast_vcs) for name, kernel in vars(module).items()
            if isinstance(kernel, numba.core.registry.CPUDispatcher)}

fast_mcts.warm_up()
before = versions()
rng = random.Random(1)
for size in (5, 11):
    bot = make_bot(5, 1, max_playouts=3000)
    state = HexGame().new_initial_state({"size": size, "position": ""}, 1)
    for _ in range(4):
        state.push(bot.choose(state.clone(), state.current, None))
        if state.outcome():
            break
        state.push(state.move_at(rng.choice([i for i, v in enumerate(state.cells) if v == EMPTY])))
        if state.outcome():
            break
after = versions()
print(sorted(key for key in after if after[key] != before[key]))
"""


def test_moves_after_the_warm_up_compile_nothing():
    """A kernel compiled (or even loaded from the disk cache) during a move spends that
    move's clock: on the CI machine the root H-search's first call from Python took a
    5x5 move 0.1 s over its budget.  So the warm-up must leave nothing to compile."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", MOVES_AFTER_WARM_UP], capture_output=True,
                          text=True, timeout=300, cwd=str(Path(__file__).resolve().parents[2]))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", "compiled during moves: " + done.stdout


def test_the_shell_warms_every_game_up_in_the_background(monkeypatch):
    from games import registry

    calls = []
    monkeypatch.setattr(fast_mcts, "warm_up", lambda: calls.append("hex"))
    thread = registry.warm_up_in_background()
    thread.join(30)
    assert calls == ["hex"] and thread.daemon


def test_selection_avoids_moves_into_proven_wins_and_says_when_all_lose():
    """MCTS-solver at one node: a move whose child is a proven win for the opponent is
    picked only when every move is such a one, and then ``_select`` says all are lost."""
    search = FastHexSearch(3, 0)
    pool = search.pool
    cells = np.zeros(9, dtype=np.int8)
    cells[4] = P1
    root = pool.new_root(P2, cells, search)
    children = {}
    for c in range(9):
        if c != 4:
            after = cells.copy()
            after[c] = P2
            children[c] = pool.new_root(P1, after, search)   # appended
            pool.child[root, c] = children[c]
            pool.proven[children[c]] = fast_mcts.PROVEN_WIN
    pool.proven[children[7]] = 0
    allowed = np.ones(9, dtype=np.uint8)
    select = fast_mcts._select

    def pick():
        return select(root, cells, allowed, True, pool.n, pool.w, pool.rn, pool.rw, pool.visits,
                      pool.child, pool.proven, 0.0005, 0.0, True, pool.prior, 0.0)
    assert pick() == (7, False)
    pool.proven[children[7]] = fast_mcts.PROVEN_WIN
    move, all_lost = pick()
    assert all_lost and move in children


def test_the_root_never_plays_a_move_proven_lost_for_its_visits_alone():
    """A move proven lost keeps its old visits (selection stops trying it); the move
    played is the most visited of the others, and a proven win beats any count."""
    search = FastHexSearch(3, 0)
    pool = search.pool
    cells = np.zeros(9, dtype=np.int8)
    root = pool.new_root(P1, cells, search)
    for c in (2, 4, 6):
        after = cells.copy()
        after[c] = P1
        pool.child[root, c] = pool.new_root(P2, after, search)
    pool.n[root, :] = [5, 1, 50, 1, 40, 1, 3, 1, 1]
    allowed = np.ones(9, dtype=np.uint8)

    def best():
        return fast_mcts._best_move(root, cells, allowed, pool.n, pool.w, pool.rn, pool.rw,
                                    pool.child, pool.proven)
    assert best() == 2
    pool.proven[pool.child[root, 2]] = fast_mcts.PROVEN_WIN      # the opponent wins after 2
    assert best() == 4
    pool.proven[pool.child[root, 6]] = fast_mcts.PROVEN_LOSS     # the opponent loses after 6
    assert best() == 6


def test_the_kernels_count_no_references():
    """Numba's reference counting (an atomic increment and decrement for every array a
    call passes) took a third to a half of the playouts' time; the kernels of both
    compiled modules go without it and allocate nothing (their scratch arrays are the
    search's)."""
    from numba.core.registry import CPUDispatcher

    from games.hex import fast_vcs
    kernels = [value for module in (fast_mcts, fast_vcs) for value in vars(module).values()
               if isinstance(value, CPUDispatcher)]
    assert len(kernels) >= 20 and all(kernel.targetoptions.get("_nrt") is False for kernel in kernels)
    fast_mcts.warm_up()
    assert all("NRT_incref" not in ir for ir in fast_mcts._run_playouts.inspect_llvm().values())
