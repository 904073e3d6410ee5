"""bench/hex_game_review.py: a game's positions solved by a GTP engine's dfpn-solve-state.

The fake engine (tests/hex/gtp_engine.py --dfpn) solves positions of up to 12 empty cells
by its own exhaustive search; the arena's solver (games/hex/solver.py), written apart
from it, checks every value the review reports.
"""
import importlib.util
import random
import sys
from pathlib import Path

import pytest

from games.hex.notation import to_hexgui
from games.hex.rules import HexGame, HexMove
from games.hex.solver import side_to_move_wins
from runner.records import open_replay

ROOT = Path(__file__).resolve().parents[2]
ENGINE = f"{sys.executable} {ROOT / 'tests' / 'hex' / 'gtp_engine.py'} --dfpn"


def load_review():
    spec = importlib.util.spec_from_file_location("hex_game_review", ROOT / "bench" / "hex_game_review.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module          # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


def random_game_sgf(tmp_path: Path, size: int, seed: int) -> Path:
    """A random game to its end, written as SGF (black = player 1, HexGui's cell names)."""
    state = HexGame().new_initial_state({"size": size}, seed)
    rng = random.Random(seed)
    nodes = []
    while state.winner() is None:
        empty = [i for i, v in enumerate(state.cells) if not v]
        move = state.move_at(rng.choice(empty))
        nodes.append(f";{'BW'[state.current]}[{to_hexgui(move)}]")
        state.push(move)
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "game.sgf"
    path.write_text(f"(;FF[4]GM[11]SZ[{size}]{''.join(nodes)})\n")
    return path


def solved_by_the_arena(state) -> int:
    """The winner of ``state`` by the arena's own exhaustive solver."""
    if state.winner() is not None:
        return state.winner()
    return state.current if side_to_move_wins(state) else 1 - state.current


def test_review_values_agree_with_the_arenas_solver_and_find_the_thrown_wins(tmp_path):
    review = load_review()
    path = random_game_sgf(tmp_path, 4, seed=10)
    replay = open_replay(path)
    values = review.solve_positions(replay, ENGINE.split(), seconds=1)
    assert len(values) == len(replay.states)
    solvable = [i for i, s in enumerate(replay.states) if s.cells.count(0) <= 12]
    assert values[0] is None                         # 16 empty cells: "not solved in time"
    assert solvable and all(values[i] == solved_by_the_arena(replay.states[i]) for i in solvable)
    moves = review.review(replay, values)
    thrown = [m.number for m in moves if m.threw_away_a_win]
    expected = [i + 1 for i in solvable[:-1] if i + 1 < len(replay.states)
                and solved_by_the_arena(replay.states[i]) == replay.states[i].current
                and solved_by_the_arena(replay.states[i + 1]) != replay.states[i].current]
    assert thrown == expected and thrown              # a random game throws wins away


def test_review_prints_a_line_a_move_and_each_sides_count(tmp_path, capsys, monkeypatch):
    review = load_review()
    path = random_game_sgf(tmp_path, 3, seed=1)
    relative = f"{sys.executable} tests/hex/gtp_engine.py --dfpn"     # from the repository root
    monkeypatch.chdir(ROOT)
    assert review.main([str(path), "--engine", relative, "--seconds", "1"]) == 0
    out = capsys.readouterr().out
    moves = len(open_replay(path).states) - 1
    assert sum(line[:5].strip().isdigit() for line in out.splitlines()) == moves
    assert "player 1: " in out and "player 2: " in out and "threw away a win" in out
    assert "?" not in out.split("\n\n")[0]             # 9 cells: every position is solved


def test_review_refuses_a_missing_engine_and_another_games_record(tmp_path):
    review = load_review()
    path = random_game_sgf(tmp_path, 3, seed=1)
    with pytest.raises(SystemExit):
        review.main([str(path), "--engine", ""])
    with pytest.raises(SystemExit):
        review.main([str(path), "--engine", str(tmp_path / "no-such-engine")])
    xiangqi = tmp_path / "game.pgn"
    xiangqi.write_text('[Event "x"]\n[Variant "xiangqi"]\n\n1. h2e2 h9g7 *\n')
    with pytest.raises(SystemExit):
        review.main([str(xiangqi), "--engine", ENGINE])


def test_a_move_that_keeps_the_win_is_not_flagged():
    review = load_review()
    kept = review.MoveReview(3, 0, "b2", before=0, after=0)
    thrown = review.MoveReview(4, 1, "c3", before=1, after=0)
    unknown = review.MoveReview(5, 0, "a1", before=None, after=1)
    assert not kept.threw_away_a_win and thrown.threw_away_a_win and not unknown.threw_away_a_win
    assert HexMove(1, 1).text() == "a1"


def test_thrown_wins_are_the_solvers_and_the_bots_answers_are_judged_right(tmp_path, capsys):
    """bench/hex_thrown_wins.py: its test positions are exactly the won positions a
    random 4x4 game threw away (by the arena's solver), and its verdict on each of the
    bot's moves is the arena solver's."""
    from bench import hex_thrown_wins

    paths = [random_game_sgf(tmp_path / str(seed), 4, seed) for seed in (10, 11)]
    tests = hex_thrown_wins.thrown_wins([str(p) for p in paths], ENGINE.split(), 1, "")
    expected = 0
    for path in paths:
        states = open_replay(path).states
        expected += sum(1 for i in range(len(states) - 1) if states[i].cells.count(0) <= 12
                        and solved_by_the_arena(states[i]) == states[i].current
                        and solved_by_the_arena(states[i + 1]) != states[i].current)
    assert len(tests) == expected > 0
    hex_thrown_wins.save_tests(tests, tmp_path / "tests.jsonl")
    again = hex_thrown_wins.load_tests(tmp_path / "tests.jsonl")
    assert [(s.cells, s.current) for _, _, s in again] == [(s.cells, s.current) for _, _, s in tests]
    for index, (_label, start, state) in enumerate(tests):
        kept, move = hex_thrown_wins.keeps_the_win(start, state, ENGINE.split(), 50, index)
        after = state.clone()
        after.push(move)
        assert kept == (solved_by_the_arena(after) == state.current)


@pytest.mark.parametrize("line", ['{"label": "x"}', "not json", '{"label": "x", "size": 3, "start": "", '
                                  '"swap": false, "moves": ["z9"]}'])
def test_a_bad_saved_test_names_the_file_and_line(tmp_path, line):
    from bench import hex_thrown_wins

    path = tmp_path / "tests.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(ValueError, match=r"tests.jsonl:1: expected a test"):
        hex_thrown_wins.load_tests(str(path))
