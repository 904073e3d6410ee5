"""bench/gtp_match.py counts a game by how it ended: a crash or another forfeit is never
a win on the board, and the strength figure counts only games finished by a connection
or a resignation.  bench/patch_mohex.py's patch check and source patch, without MoHex:
the small GTP engine of tests/hex/gtp_engine.py stands in for it."""
import shlex
import sys
from pathlib import Path

import pytest

from bench import gtp_match, patch_mohex

ENGINE = [sys.executable, str(Path(__file__).with_name("gtp_engine.py")), "--mohex", "--max-time", "0"]


def engine_spec(*flags: str) -> str:
    return "gtp:" + shlex.join([*ENGINE, *flags])


def test_a_crash_is_counted_apart_from_a_connection_win(capsys):
    """The engine dies on its third genmove, before either side can connect on 5x5: the
    bot wins both games by forfeit, and no figure is printed from them."""
    assert gtp_match.main(["--a", "bot:1", "--b", engine_spec("--crash-after", "2"), "--games", "2",
                           "--size", "5", "--time-total", "10"]) == 0
    out = capsys.readouterr().out
    assert out.count("won (crash") == 2, out
    assert "A won by connection 0, B won by connection 0" in out and "B crashed 2" in out, out
    assert "0 games finished on the board or by resignation" in out and "2 ended by a forfeit" in out
    assert "NO STRENGTH FIGURE: no game finished on the board" in out and "95% interval" not in out


def result(a_seat: int, reason: str, loser: int) -> dict:
    return {"a_seat": a_seat, "reason": reason, "loser": loser, "won": loser != a_seat, "moves": 30,
            "solved": None, "a_time": 1.0, "b_time": 1.0, "effort": [], "checked": None}


def test_the_figure_counts_only_games_finished_on_the_board_or_by_resignation(capsys):
    results = [result(0, "win", 1), result(1, "resignation", 1), result(0, "crash", 1),
               result(1, "timeout", 0), {"not_played": "seat 2 never started", "effort": [], "checked": None}]
    args = type("Args", (), {"a": "bot:5", "b": "gtp:mohex"})
    gtp_match.print_table(results, args)
    out = capsys.readouterr().out
    assert ("endings: A won by connection 1, B won by connection 0, A won by resignation 0, "
            "B won by resignation 1, B crashed 1, A crashed 0, not played 1, B timeout 1") in out, out
    assert "2 games finished on the board or by resignation" in out and "2 ended by a forfeit" in out
    either = next(line for line in out.splitlines() if line.startswith("either"))
    assert either.split()[1:3] == ["2", "1"], either        # 2 games, A won 1 (the crash is not a win)


def test_the_patch_check_reports_an_engine_that_dies_on_its_move():
    size, moves = gtp_match.CRASH_POSITIONS[0]
    assert gtp_match.mohex_patch_check([*ENGINE, "--crash-after", "3"], size, moves, timeout=30) == \
        "the engine died (exit code 5) on its move after 11 moves"
    assert gtp_match.mohex_patch_check(ENGINE, size, moves, timeout=30) is None


def fake_source(tmp_path: Path, replacements) -> None:
    """A tree whose files hold the given passages between lines of our own."""
    for name, old, _ in replacements:
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        before = target.read_text() if target.exists() else "// ours\n"
        target.write_text(before + old + "// ours\n")


def tree_text(tmp_path: Path) -> str:
    return "".join(path.read_text() for path in sorted(tmp_path.rglob("*.cpp")))


def test_the_patch_replaces_each_passage_once(tmp_path):
    fake_source(tmp_path, patch_mohex.REPLACEMENTS)
    assert f"patched ({len(patch_mohex.REPLACEMENTS)} of" in patch_mohex.patch(tmp_path)
    text = tree_text(tmp_path)
    assert all(new in text and text.count(old) == new.count(old) for _, old, new in patch_mohex.REPLACEMENTS)
    assert text.count(patch_mohex.MARK) == len(patch_mohex.REPLACEMENTS)
    assert "already patched" in patch_mohex.patch(tmp_path) and tree_text(tmp_path) == text


def test_the_patch_refuses_a_source_it_does_not_know(tmp_path):
    fake_source(tmp_path, patch_mohex.REPLACEMENTS[1:])
    first = patch_mohex.REPLACEMENTS[0][0]
    (tmp_path / first).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / first).write_text("// another version\n")
    with pytest.raises(ValueError, match=f"{first}: expected the passage .* found it 0 times"):
        patch_mohex.patch(tmp_path)
    assert patch_mohex.MARK not in tree_text(tmp_path)                  # nothing written
    assert patch_mohex.main([str(tmp_path / "nowhere")]) == 1
