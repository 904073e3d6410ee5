"""The compiled level-5 search (games/xiangqi/fast_search.py) against the rules and bot.py.

The rules' perft and the published counts are the oracle for the compiled move
generator; the pure-Python ``Searcher`` is the reference the compiled search must equal
at a fixed depth: the same move, the same score and the same number of nodes, on 200
positions from seeded random games and from the opening book's lines.
"""
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from games.xiangqi import bot as bot_module
from games.xiangqi import fast_search
from games.xiangqi.book import default_book
from games.xiangqi.rules import START_FEN, Position, XiangqiGame, parse_move_text

REPO = Path(__file__).resolve().parents[2]

#: Published Xiangqi perft counts (chessprogramming wiki, "Chinese Chess Perft Results").
PUBLISHED = [
    (START_FEN, (44, 1920, 79666, 3290240)),
    ("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", (38, 1128, 43929, 1339047)),
    ("1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1", (7, 281, 8620, 326201)),
    ("5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", (25, 424, 9850, 202884)),
    ("CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1", (28, 516, 14808, 395483)),
]


@pytest.fixture(scope="module", autouse=True)
def compiled():
    fast_search.warm_up()


@pytest.mark.parametrize("fen,counts", PUBLISHED)
def test_compiled_perft_matches_the_published_counts(fen, counts):
    position = Position.from_fen(fen)[0]
    assert [fast_search.perft(position, depth) for depth in (1, 2, 3, 4)] == list(counts)


def test_compiled_perft_matches_the_rules_along_random_games(random_positions):
    for position in random_positions(43, 6, 60):
        assert fast_search.perft(position, 2) == position.perft(2), position.fen()


def test_a_table_move_is_checked_as_the_generator_would_make_it(random_positions):
    """The search tries the table's move before generating the others, so a move from a
    colliding key must be refused exactly when the generator would not make it: every
    origin-target pair of the positions along three seeded random games, for either
    side, and a move with its bits out of range."""
    board = np.zeros(90, dtype=np.int64)
    st = np.zeros(fast_search.STATE_SLOTS, dtype=np.int64)
    key = np.zeros(1, dtype=np.uint64)
    out = np.zeros(fast_search.MAX_MOVES, dtype=np.int64)
    for position in random_positions(11, 3, 70):
        fast_search._load(position, board, st, key)
        for side in (0, 1):
            generated = set(out[:fast_search._generate(board, side, out, False)].tolist())
            checked = {origin << 7 | target for origin in range(90) for target in range(90)
                       if fast_search._pseudo_legal(board, side, origin << 7 | target)}
            assert checked == generated, (position.fen(), side)
            assert not fast_search._pseudo_legal(board, side, 127 << 7 | 3)


def test_the_kernels_count_no_references():
    """Numba's reference counting (an atomic increment and decrement for every array a
    call passes) took 45% of the search's time; the kernels are compiled without it and
    allocate nothing, their scratch arrays coming from the searcher's workspace."""
    kernels = fast_search.kernels()
    assert kernels and all(kernel.targetoptions.get("_nrt") is False for kernel in kernels)
    search = fast_search._search
    assert all("NRT_incref" not in ir for ir in search.inspect_llvm().values())


def _game_along(moves: list[int]) -> tuple[Position, list[int], list[bool], int]:
    """The position after ``moves`` from the start, with the keys, checks and quiet count
    a search is given (as XiangqiState keeps them)."""
    position = Position.from_fen(START_FEN)[0]
    keys, checks, quiet = [position.key], [False], 0
    for move in moves:
        captured = position.make(move)
        keys.append(position.key)
        checks.append(position.in_check(position.side))
        quiet = 0 if captured else quiet + 1
    return position, keys, checks, quiet


def _test_positions(count: int, seed: int):
    """``count`` games' ends: seeded random playouts of 0-70 half-moves from the start or
    from a book line's end (so repetitions, checks and endings all come up)."""
    rng = random.Random(seed)
    lines = default_book().lines
    found = []
    while len(found) < count:
        moves = [parse_move_text(text) for text in rng.choice(lines).moves] if rng.random() < 0.4 else []
        position, *_ = _game_along(moves)
        for _ in range(rng.randrange(0, 70)):
            legal = position.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            moves.append(move)
            position.make(move)
        if position.legal_moves():
            found.append(_game_along(moves))
    return found


def test_the_compiled_search_equals_the_reference_at_a_fixed_depth():
    """200 positions at depth 3 with fresh tables (each search starts from an empty
    transposition table, as a game's first move does): move, score and node count equal."""
    differ = []
    for position, keys, checks, quiet in _test_positions(200, seed=5):
        reference = bot_module.Searcher(max_depth=3)
        compiled = fast_search.FastSearcher(max_depth=3)
        expected = reference.choose(position, keys, checks, quiet, None) + (reference.nodes,)
        got = compiled.choose(position, keys, checks, quiet, None) + (compiled.nodes,)
        if got != expected:
            differ.append((position.fen(), expected, got))
    assert not differ, differ[:5]


def _shuffling_positions(count: int, seed: int):
    """``count`` games' ends whose histories repeat positions: seeded random playouts in
    which a side often moves back the piece it moved two of its turns ago."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = Position.from_fen(START_FEN)[0]
        moves: list[int] = []
        for _ in range(rng.randrange(12, 40)):
            legal = position.legal_moves()
            if not legal:
                break
            back = (moves[-2] & 127) << 7 | moves[-2] >> 7 if len(moves) >= 2 else None
            move = back if back in legal and rng.random() < 0.7 else rng.choice(legal)
            moves.append(move)
            position.make(move)
        if position.legal_moves():
            found.append(_game_along(moves))
    return found


@pytest.mark.parametrize("repetition_count", [2, 3])
def test_the_searches_stay_equal_on_histories_with_repeats(repetition_count):
    """Games full of repeated positions, searched under either repetition count: the
    rulings (a repeat in the tree, a second or third occurrence of a position played
    before the root) give the same move, score and node count in both searches."""
    differ = []
    for position, keys, checks, quiet in _shuffling_positions(40, seed=11):
        reference = bot_module.Searcher(max_depth=4)
        compiled = fast_search.FastSearcher(max_depth=4)
        args = (position, keys, checks, quiet, None)
        expected = reference.choose(*args, repetition_count=repetition_count) + (reference.nodes,)
        got = compiled.choose(*args, repetition_count=repetition_count) + (compiled.nodes,)
        if got != expected:
            differ.append((position.fen(), expected, got))
    assert not differ, differ[:5]


def test_the_searches_stay_equal_with_the_table_kept_between_moves():
    """One game's moves searched in turn by the same two searchers, whose transposition
    tables carry over as in a match (the compiled table keeps every entry, as the dict)."""
    reference, compiled = bot_module.Searcher(max_depth=4), fast_search.FastSearcher(max_depth=4)
    state = XiangqiGame().new_initial_state({}, 7)
    for _ in range(12):
        args = (state.position, state.history, state.checks, state.quiet, None)
        expected = reference.choose(*args) + (reference.nodes,)
        assert compiled.choose(*args) + (compiled.nodes,) == expected
        assert compiled.table_entries == len(reference.table)
        state.apply({state.position.side: bot_module.move_text(expected[0])})


def test_a_node_limit_stops_both_searches_at_the_same_node():
    """``nodes=N`` ends both searches at the same node (they count alike), so a level-5
    seat with a node budget plays the same move compiled or not."""
    for position, keys, checks, quiet in _test_positions(12, seed=9):
        reference, compiled = bot_module.Searcher(), fast_search.FastSearcher()
        expected = reference.choose(position, keys, checks, quiet, None, nodes=4000)
        assert compiled.choose(position, keys, checks, quiet, None, nodes=4000) == expected
        assert compiled.nodes == reference.nodes and compiled.last_depth == reference.last_depth


def test_a_node_limit_and_a_deadline_stop_the_compiled_search():
    position = Position.from_fen(START_FEN)[0]
    searcher = fast_search.FastSearcher()
    move, _ = searcher.choose(position, [position.key], [False], 0, None, nodes=5000)
    assert move in position.legal_moves() and 5000 <= searcher.nodes < 5000 + 64
    move, _ = searcher.choose(position, [position.key], [False], 0, 0.2, hard_limit=True)
    assert move in position.legal_moves() and searcher.nodes > 1000


def test_the_fingerprint_changes_with_any_frozen_value():
    arrays = (np.arange(6), np.zeros((2, 3), dtype=np.uint64))
    base = fast_search._fingerprint(arrays, (("MATE", 30000),))
    assert fast_search._fingerprint((np.arange(6), np.ones((2, 3), dtype=np.uint64)),
                                    (("MATE", 30000),)) != base
    assert fast_search._fingerprint(arrays, (("MATE", 29999),)) != base
    assert fast_search._compiled_fingerprint() == fast_search.TABLES_FINGERPRINT


def test_level_5_searches_compiled_and_falls_back_without_numba(monkeypatch):
    bot = bot_module.make_bot(5, 0)
    assert bot.compiled and bot.searcher.knowledge
    assert not bot_module.make_bot(4, 0).compiled
    monkeypatch.setattr(bot_module, "compiled_searcher", lambda: None)
    fallback = bot_module.make_bot(5, 0, {"depth": "2"})
    assert not fallback.compiled and fallback.searcher.max_depth == 2


def test_a_level_5_seat_compiles_when_the_match_starts(monkeypatch):
    calls = []
    monkeypatch.setattr(fast_search, "warm_up", lambda: calls.append("compiled"))
    bot = bot_module.make_bot(5, 0)
    assert calls == []
    bot.prepare()
    assert calls == ["compiled"]
    bot_module.make_bot(4, 0).prepare()
    assert calls == ["compiled"]


def test_the_shell_warms_xiangqi_up_in_the_background(monkeypatch):
    from games import registry

    calls = []
    monkeypatch.setattr(fast_search, "warm_up", lambda: calls.append("xiangqi"))
    monkeypatch.setattr("games.hex.fast_mcts.warm_up", lambda: None)
    thread = registry.warm_up_in_background()
    thread.join(30)
    assert "xiangqi" in calls


# Run in a fresh process: it loads the kernels from the disk cache this process wrote
# (a cached recursive kernel can crash on loading, see fast_search's docstring) and
# checks that the warm-up left nothing for the moves to compile.
_NO_COMPILE_DURING_MOVES = """
import numba
from games.xiangqi import fast_search
from games.xiangqi.bot import make_bot
from games.xiangqi.rules import XiangqiGame

def versions():
    return {name: len(kernel.signatures) for name, kernel in vars(fast_search).items()
            if isinstance(kernel, numba.core.registry.CPUDispatcher)}

fast_search.warm_up()
before = versions()
game = XiangqiGame()
for seed in (1, 2):
    state = game.new_initial_state({}, seed)
    players = [make_bot(5, seed, {"nodes": "3000", "book": "0"}), make_bot(5, seed + 9, {"depth": "3"})]
    for _ in range(16):
        seat = state.position.side
        state.apply({seat: players[seat].choose(state.clone(), seat, None)})
        if state.outcome():
            break
after = versions()
print(sorted(name for name in after if after[name] != before.get(name)))
"""


def test_moves_after_the_warm_up_compile_nothing():
    done = subprocess.run([sys.executable, "-c", _NO_COMPILE_DURING_MOVES], cwd=REPO,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]", "compiled during moves: " + done.stdout
