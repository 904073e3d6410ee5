"""Pattern priors of the Hex search (games/hex/patterns.py), their fit (bench/hex_patterns.py)
and their use in the compiled search (games/hex/fast_mcts.py)."""
from __future__ import annotations

import dataclasses
import json
import random

import numpy as np
import pytest

from bench import hex_patterns
from games.hex import fast_mcts, patterns
from games.hex.bot import LEVEL_PLANS, recent_cells
from games.hex.mcts import EMPTY, P1, P2
from games.hex.rules import HexMove, HexState


def random_position(size: int, stones: int, rng: random.Random) -> np.ndarray:
    cells = np.zeros(size * size, dtype=np.int64)
    for turn, cell in enumerate(rng.sample(range(size * size), stones)):
        cells[cell] = P1 if turn % 2 == 0 else P2
    return cells


def codes_for(cells: np.ndarray, mover: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    return patterns.pattern_codes(patterns.point_states(cells, mover, patterns.slot_table(size)))


@pytest.mark.parametrize("size", [5, 9, 11])
def test_a_half_turn_of_the_board_leaves_every_cells_pattern_code_unchanged(size):
    rng = random.Random(size)
    for _ in range(20):
        cells = random_position(size, rng.randrange(size * size), rng)
        turned = cells[::-1].copy()                    # cell i -> cell N*N-1-i is the half-turn
        for mover in (P1, P2):
            ring12, ring6 = codes_for(cells, mover, size)
            turned12, turned6 = codes_for(turned, mover, size)
            assert np.array_equal(ring12, turned12[::-1]) and np.array_equal(ring6, turned6[::-1])


def test_player_2_sees_the_transposed_board_as_player_1_sees_it_with_colours_swapped():
    size, rng = 7, random.Random(3)
    for _ in range(20):
        cells = random_position(size, rng.randrange(size * size), rng)
        grid = cells.reshape(size, size)
        mirrored = np.where(grid.T == 0, 0, 3 - grid.T).reshape(-1)
        as_p2 = codes_for(cells, P2, size)[0].reshape(size, size)
        as_p1 = codes_for(mirrored, P1, size)[0].reshape(size, size)
        assert np.array_equal(as_p2, as_p1.T)


def test_edges_are_told_apart_from_stones_and_from_each_other():
    states = patterns.point_states(np.zeros(25, dtype=np.int64), P1, patterns.slot_table(5))
    corner_side = states[0]          # row 0, column 0: beyond P1's column and P2's row
    assert patterns.OWN_EDGE in corner_side and patterns.OPPONENT_EDGE in corner_side
    middle = states[12]
    assert set(middle[:6]) == {patterns.EMPTY_POINT}


def reference_priors(cells: np.ndarray, mover: int, size: int, last: int, own_last: int,
                     table: patterns.GammaTable) -> np.ndarray:
    """The priors computed with numpy from patterns.py's own functions."""
    ring12, ring6 = codes_for(cells, mover, size)
    near = patterns.nearness(size)
    gammas = np.zeros(size * size)
    lookup = dict(zip(table.ring12_codes.tolist(), table.ring12_gammas.tolist()))
    edge = patterns.edge_classes(size)
    for c in np.flatnonzero(cells == 0):
        nearby = (3 * near[last, c] if last >= 0 else 0) + (near[own_last, c] if own_last >= 0 else 0)
        gammas[c] = (lookup.get(int(ring12[c]), 1.0) * table.ring6[ring6[c]] * table.near[nearby]
                     * table.edges[edge[mover, c]])
    return gammas / gammas.sum()


@pytest.mark.parametrize("size", [5, 9, 11])
def test_the_compiled_priors_match_the_numpy_reference_with_the_shipped_table(size):
    rng = random.Random(size + 1)
    tables = fast_mcts._pattern_tables(size, True)
    table = patterns.read_table()
    for _ in range(15):
        cells = random_position(size, rng.randrange(2, size * size - 1), rng)
        mover = rng.choice((P1, P2))
        stones = [int(c) for c in np.flatnonzero(cells)]
        last, own_last = rng.choice(stones), rng.choice(stones + [-1])
        row = np.zeros(size * size, dtype=np.float32)
        fast_mcts._pattern_priors(row, cells.astype(np.int8), mover, last, own_last, tables)
        assert row.sum() == pytest.approx(1.0, abs=1e-4)
        assert np.allclose(row, reference_priors(cells, mover, size, last, own_last, table), atol=1e-5)


def test_the_shipped_table_wants_the_intruded_bridge_saved():
    """P1 holds a bridge; P2 has just played into one of its two carriers: of all the
    moves, the other carrier gets the highest prior (MoHex saves its bridges)."""
    size = 9
    cells = np.zeros(size * size, dtype=np.int8)
    a, b = 3 * size + 3, 4 * size + 4               # (3,3) and (4,4): a bridge along (1,1)
    carrier_1, carrier_2 = 3 * size + 4, 4 * size + 3
    cells[a] = cells[b] = P1
    cells[carrier_1] = P2
    cells[8 * size + 0] = P2                        # P2's earlier stone, far away
    row = np.zeros(size * size, dtype=np.float32)
    fast_mcts._pattern_priors(row, cells, P1, carrier_1, b, fast_mcts._pattern_tables(size, True))
    assert int(np.argmax(row)) == carrier_2


def test_a_malformed_table_line_is_named_with_its_file_and_line(tmp_path):
    path = tmp_path / "patterns.txt"
    patterns.write_table(path, {"ring12": {7: 2.0}, "ring6": {3: 0.5}, "near": {4: 3.0}, "edges": {0: 0.25}},
                         "a header\nof two lines")
    table = patterns.read_table(path)
    assert table.ring12_codes.tolist() == [7] and table.ring12_gammas.tolist() == [2.0]
    assert table.ring6[3] == 0.5 and table.near[4] == 3.0 and table.edges[0] == 0.25
    for bad in ("ring6 3", "ring6 x 1.0", "edges 16 1.0", "near -1 2.0", "ring6 3 0", "corner 1 1.0",
                "ring6 3 1.0 extra", "ring6 3 inf", "ring6 3 nan", "ring6 3 1e39"):
        path.write_text("# header\nring6 2 1.5\n" + bad + "\n", encoding="utf-8")
        with pytest.raises(ValueError, match=r"patterns\.txt: line 3: expected 'group value gamma'"):
            patterns.read_table(path)
    path.write_bytes(b"ring6 2 1.5\nring6 3 \xff\n")
    with pytest.raises(ValueError, match=r"patterns\.txt: not UTF-8 text \(byte 20\)"):
        patterns.read_table(path)


def synthetic_games(rng: random.Random, count: int) -> list[dict]:
    """Games on 5x5 whose moves follow known near-feature gammas: touching the last move
    is 8 times as likely as elsewhere (ring patterns and edges play no part)."""
    near = patterns.nearness(5)
    games = []
    for _ in range(count):
        cells, moves = set(), [rng.randrange(25)]
        cells.add(moves[0])
        while len(moves) < 12:
            empty = [c for c in range(25) if c not in cells]
            weights = [8.0 if near[moves[-1], c] == patterns.NEAR_ADJACENT else 1.0 for c in empty]
            move = rng.choices(empty, weights)[0]
            moves.append(move)
            cells.add(move)
        games.append({"size": 5, "randoms": 1, "moves": moves, "winner": None})
    return games


def test_the_fit_recovers_a_known_gamma_and_predicts_better_than_chance():
    decisions = hex_patterns.Decisions(synthetic_games(random.Random(5), 300))
    fitted = hex_patterns.fit(decisions, ("near",))
    touching = [v for v in fitted["near"] if v // 3 == patterns.NEAR_ADJACENT]
    apart = [v for v in fitted["near"] if v // 3 != patterns.NEAR_ADJACENT]
    ratio = np.mean([fitted["near"][v] for v in touching]) / np.mean([fitted["near"][v] for v in apart])
    assert 6.0 < ratio < 10.5
    top, log_p = hex_patterns.prediction(decisions, fitted)
    assert log_p > hex_patterns.uniform_log_probability(decisions) + 0.3


def test_the_fit_command_writes_a_table_the_search_reads(tmp_path, capsys):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(g) + "\n" for g in synthetic_games(random.Random(6), 60)))
    out = tmp_path / "fitted.txt"
    assert hex_patterns.main(["fit", str(corpus), "--write", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "60 games" in printed and "hand-made shape priors" in printed and "near " in printed
    table = patterns.read_table(out)
    assert table.near[3 * patterns.NEAR_ADJACENT] > 3 * table.near[0]


def test_recent_cells_are_the_movers_last_and_the_opponents_last():
    state = HexState(5)
    assert recent_cells(state) == (-1, -1)
    state.push(HexMove(1, 1))
    assert recent_cells(state) == (-1, 0)
    state.push(HexMove(3, 3))
    assert recent_cells(state) == (0, 12)
    swapped = HexState(5, swap_allowed=True)
    swapped.push(HexMove(2, 2))
    swapped.push(HexMove.SWAP)
    assert recent_cells(swapped) == (-1, -1)


def test_level_5_searches_with_the_pattern_priors():
    assert LEVEL_PLANS[5].config.pattern_bias > 0


def test_the_root_and_its_children_get_priors_for_their_own_last_moves():
    """The root's priors weigh the two cells given as recent; a child's weigh the move
    into it and the root's last opponent move (the cells before it in the game)."""
    size = 7
    config = dataclasses.replace(LEVEL_PLANS[5].config, knowledge_visits=0)
    search = fast_mcts.FastHexSearch(size, 1, config)
    cells = [EMPTY] * (size * size)
    own_last, last = 10, 24
    cells[own_last], cells[last] = P1, P2
    search.search(cells, P1, None, 3000, recent=(own_last, last))
    pool, tables, table = search.pool, search.pattern_tables, patterns.read_table()
    board = np.array(cells, dtype=np.int64)
    assert np.allclose(pool.prior[0], reference_priors(board, P1, size, last, own_last, table), atol=1e-5)
    children = [(move, int(child)) for move, child in enumerate(pool.child[0]) if child >= 0]
    assert len(children) > 3
    for move, child in children:
        after = board.copy()
        after[move] = P1
        expected = reference_priors(after, P2, size, move, last, table)
        assert np.allclose(pool.prior[child], expected, atol=1e-5)
        grandchildren = [(m, int(g)) for m, g in enumerate(pool.child[child]) if g >= 0]
        for reply, grandchild in grandchildren[:3]:
            deeper = after.copy()
            deeper[reply] = P2
            assert np.allclose(pool.prior[grandchild], reference_priors(deeper, P1, size, reply, move, table),
                               atol=1e-5)
    assert tables[0].shape == (3, size * size, patterns.SLOTS)


@pytest.mark.parametrize("line", ['{"size": 5, "moves": [1, 2]}', '{"size": 5, "randoms": 1, "moves": [1, 1]}',
                                  '{"size": 5, "randoms": 1, "moves": [25]}', "not json", "[" * 5000,
                                  '"a string"', '{"size": "x", "randoms": 1, "moves": []}',
                                  '{"size": 5, "randoms": 1e999, "moves": [1]}'])
def test_a_bad_corpus_line_is_named_with_its_file_and_line(tmp_path, line):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text('{"size": 5, "randoms": 1, "moves": [0, 6, 12]}\n' + line + "\n")
    with pytest.raises(SystemExit, match=r"corpus\.jsonl: line 2: expected a game"):
        hex_patterns.read_corpus([str(corpus)])


def test_a_corpus_that_is_not_utf8_is_named(tmp_path):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_bytes(b'{"size": 5, "randoms": 1, "moves": [0]}\n\xff\n')
    with pytest.raises(SystemExit, match=r"corpus\.jsonl: not UTF-8 text"):
        hex_patterns.read_corpus([str(corpus)])
