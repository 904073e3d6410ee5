"""Virtual connections (games/hex/vcs.py), checked against the exhaustive solver.

The solver (games/hex/solver.py) plays every line out, so it is an oracle that shares
nothing with the H-search: a VC it reports must win with the opponent to move, a
semi-connection's key must win, and every cell outside the must-play region must lose.
"""
from __future__ import annotations

import random

import pytest

from games.hex.bot import make_bot
from games.hex.mcts import EMPTY, P1, P2, Board, HexSearch
from games.hex.rules import HexGame
from games.hex.solver import Solver
from games.hex.fast_vcs import FastVcSearch
from games.hex.vcs import VcSearch, _Run


def random_cells(size: int, stones: int, rng: random.Random) -> list[int]:
    cells = [EMPTY] * (size * size)
    order = list(range(size * size))
    rng.shuffle(order)
    for turn, index in enumerate(order[:stones]):
        cells[index] = P1 if turn % 2 == 0 else P2
    return cells


def stone_masks(cells: list[int]) -> dict[int, int]:
    return {colour: sum(1 << i for i, v in enumerate(cells) if v == colour) for colour in (P1, P2)}


def unfinished_positions(size: int, count: int, seed: int, least_stones: int):
    """Random positions of ``size`` that neither colour has already won."""
    rng = random.Random(seed)
    solver = Solver(size)
    found = 0
    while found < count:
        cells = random_cells(size, rng.randrange(least_stones, size * size // 2), rng)
        masks = stone_masks(cells)
        if solver.connected(masks[P1], P1) or solver.connected(masks[P2], P2):
            continue
        found += 1
        yield cells


@pytest.mark.parametrize("size, count, least_stones", [(4, 120, 0), (5, 40, 9)])
def test_every_reported_connection_holds_against_the_solver(size, count, least_stones):
    """Both H-searches, vcs.py and its compiled twin fast_vcs.py, on the same positions
    (one solver table a position serves both)."""
    searches = {"python": VcSearch(Board(size)), "compiled": FastVcSearch(Board(size))}
    checked = {(name, kind): 0 for name in searches for kind in ("full", "semi", "outside")}
    solver = Solver(size)
    for cells in unfinished_positions(size, count, seed=size, least_stones=least_stones):
        if size > 4:
            solver = Solver(size)        # a fresh table: a 5x5 table grows large
        masks = stone_masks(cells)
        for name, vcs in searches.items():
            for colour in (P1, P2):
                other = 3 - colour
                mine, theirs = masks[colour], masks[other]
                found = vcs.edge_connections(cells, colour)
                for _carrier in found.fulls:                 # the opponent moves first, and loses
                    checked[name, "full"] += 1
                    assert not solver.wins(theirs, mine, other), (name, cells, colour)
                for _carrier, key in found.semis:            # the key wins
                    checked[name, "semi"] += 1
                    after = mine | 1 << key
                    assert solver.connected(after, colour) or not solver.wins(theirs, after, other)
                must = vcs.must_play(cells, other)
                if must is None:
                    continue
                for cell in range(size * size):              # the opponent's other moves lose
                    if cells[cell] == EMPTY and cell not in must:
                        checked[name, "outside"] += 1
                        after = theirs | 1 << cell
                        assert not solver.connected(after, other)
                        assert solver.wins(mine, after, colour), (name, cells, other, cell, must)
    assert min(checked.values()) > 10, checked           # the check did check something


def edge_vc_sizes(size: int, stones: dict[int, int], colour: int, edge: str) -> list[int]:
    """Carrier sizes of the VCs between the group of the stones and one of colour's edges."""
    cells = [EMPTY] * (size * size)
    for index, value in stones.items():
        cells[index] = value
    run = _Run(Board(size), cells, colour)
    run.search()
    group = run.group_of[next(iter(stones))]
    target = run.edge_a if edge == "first" else run.edge_b
    return sorted(bin(c).count("1") for c in run.fulls.get(run.key(group, target), []))


def test_finds_the_edge_templates():
    n = 9
    # player 2 joins the top and bottom rows; a stone on the second row: two cells
    assert edge_vc_sizes(n, {1 * n + 4: P2}, P2, "first") == [2]
    # on the third row: the ziggurat, eight cells
    assert 8 in edge_vc_sizes(n, {2 * n + 4: P2}, P2, "first")
    # the same for player 1 and its first column
    assert 8 in edge_vc_sizes(n, {4 * n + 2: P1}, P1, "first")


@pytest.mark.parametrize("search_class", [VcSearch, FastVcSearch])
def test_a_centre_stone_on_3x3_joins_both_edges(search_class):
    cells = [EMPTY] * 9
    cells[4] = P1
    found = search_class(Board(3)).edge_connections(cells, P1)
    assert found.won
    # player 1 joins columns: the carrier is the two cells on each side of the stone
    assert {1 << 2 | 1 << 3 | 1 << 5 | 1 << 6} == set(found.fulls)


@pytest.mark.parametrize("search_class", [VcSearch, FastVcSearch])
def test_stones_already_joined_say_so(search_class):
    cells = [EMPTY] * 9
    for index in (3, 4, 5):
        cells[index] = P1
    found = search_class(Board(3)).edge_connections(cells, P1)
    assert found.joined and found.won and found.must_play((1 << 9) - 1) == 0


# ---------------------------------------------------------------- the bot uses them
GAME = HexGame()


def positions_for_the_bot(kind: str, wanted: int = 5):
    """(state, mover, vcs, cells) for 7x7 positions where the mover has no one-move win
    or block and ``kind`` holds: "semi" (the mover has an edge-to-edge semi-connection
    and no VC) or "threat" (the opponent has VCs or semis that leave at most six cells)."""
    vcs = VcSearch(Board(7))
    found = 0
    for cells in unfinished_positions(7, 600, seed=8, least_stones=10):
        mover = P1 if sum(v != EMPTY for v in cells) % 2 == 0 else P2
        engine = HexSearch(7, 0)
        if engine.winning_cells(cells, mover) or engine.winning_cells(cells, 3 - mover):
            continue
        ours = vcs.edge_connections(cells, mover)
        if kind == "semi" and not (ours.semis and not ours.fulls):
            continue
        if kind == "threat":
            must = vcs.must_play(cells, mover)
            if ours.fulls or ours.semis or not must or len(must) > 6:
                continue
        position = "/".join("".join(".12"[v] for v in cells[r * 7:(r + 1) * 7]) for r in range(7))
        yield GAME.new_initial_state({"size": 7, "position": position}, 1), mover, vcs, cells
        found += 1
        if found == wanted:
            return
    raise AssertionError(f"only {found} {kind} positions found")


def test_the_bot_plays_the_key_of_a_semi_connection():
    rng = random.Random(5)
    for state, mover, vcs, cells in positions_for_the_bot("semi"):
        move = make_bot(5, rng.randrange(100), max_playouts=2).choose(state.clone(), mover - 1, None)
        after = list(cells)
        after[state.index(move)] = mover
        assert vcs.edge_connections(after, mover).won


def test_the_bot_answers_inside_the_opponents_must_play_region():
    rng = random.Random(8)
    for state, mover, _vcs, cells in positions_for_the_bot("threat"):
        bot = make_bot(5, rng.randrange(100), max_playouts=2)
        move = bot.choose(state.clone(), mover - 1, None)
        # inside the region of the bot's own H-search (the compiled one, which keeps more
        # carriers than vcs.py and so may draw a different, equally sound, region)
        assert state.index(move) in bot.vcs.must_play(cells, mover)


# ---------------------------------------------------------------- seat settings
def test_movetime_and_playouts_settings():
    bot = make_bot(5, 1, settings={"movetime": "300", "playouts": "50"})
    assert bot.move_seconds == 0.3 and bot.max_playouts == 50
    state = GAME.new_initial_state({"size": 7}, 1)
    move = bot.choose(state.clone(), 0, None)
    state.check_move(0, move)
    assert bot.last_playouts <= 50


@pytest.mark.parametrize("settings, words", [
    ({"depth": "3"}, "not known"),
    ({"movetime": "fast"}, "whole number"),
    ({"playouts": "0"}, "above 0"),
])
def test_bad_settings_say_what_is_wrong(settings, words):
    with pytest.raises(ValueError, match=words):
        make_bot(5, 1, settings=settings)
