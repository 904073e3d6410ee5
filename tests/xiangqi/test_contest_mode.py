"""Contest mode (``python main.py xiangqi cc``): the arena as the contest program CC."""
import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.xiangqi.contest import error_match, read_authors, register
from games.xiangqi.movefiles import parse_move_file
from games.xiangqi.referee import compare_program_report
from runner.records import open_replay

PROGRAMS = Path(__file__).resolve().parent / "programs"


def cc(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["cc", *argv])
    return args.func(args)


def setup_game(tmp_path, ours: str, theirs: str, seconds: int = -1):
    """Two folders with matching PLAY.INI files sharing one move folder."""
    me, other, moves = tmp_path / "me", tmp_path / "other", tmp_path / "moves"
    for folder in (me, other, moves):
        folder.mkdir()
    files = [str(moves / "M1.DAT"), str(moves / "M2.DAT")]
    (me / "PLAY.INI").write_text("\n".join([*ours.split(), "7", str(seconds), *files]) + "\n")
    (other / "PLAY.INI").write_text("\n".join([*theirs.split(), "8", str(seconds), *files]) + "\n")
    return me, other, moves


def start_program(folder: Path, name: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(PROGRAMS / name), "--poll", "0.01", *args],
                            cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("ours, theirs, our_file", [
    ("COMPUTER OTHER", "OTHER COMPUTER", "M1.DAT"),
    ("OTHER COMPUTER", "COMPUTER OTHER", "M2.DAT"),
])
def test_contest_mode_against_the_random_program(tmp_path, ours, theirs, our_file, capsys):
    me, other, moves = setup_game(tmp_path, ours, theirs)
    (me / "ARENA.INI").write_text("AUTHOR=Nguyen Van A\nPROGRAM=Trang Co 2.5\nADDRESS=Ha Noi\n")
    opponent = start_program(other, "random_mover.py", "--seed", "4")
    try:
        code = cc("--folder", str(me), "--headless", "--poll", "0.01", "--seed", "3",
                  "--movetime", "0.05", "--option", "no_capture_limit=16")
        out, err = opponent.communicate(timeout=10)
    finally:
        opponent.kill()
    assert code == 0 and opponent.returncode == 0
    lines = (me / "REPORT.TXT").read_text().splitlines()
    assert lines[:4] == ["Nguyen Van A", "Trang Co 2.5", "Ha Noi", ours]
    result = json.loads((me / "REPORT.JSON").read_text())
    assert result["reason"] in ("move-limit", "win", "stalemate", "repetition", "no-material")
    assert result["half_moves"] >= 16
    # Our file ends with our status word; the other program read it and stopped.
    our_side = ours.split().index("COMPUTER")
    word = {None: "DRAW", "bottom": "WIN" if our_side == 0 else "LOST",
            "top": "WIN" if our_side == 1 else "LOST"}[result["winner"]]
    assert parse_move_file((moves / our_file).read_text()).word == word
    assert f"status {word}" in err
    # Both sides saw the same game: the other program's REPORT.TXT has our moves (perhaps
    # without the game's last move, or with its answer to it, around our status word).
    our_moves = [m for line in lines[4:] for m in line.split()[1:]]
    assert compare_program_report(other / "REPORT.TXT", our_moves).startswith("agrees")
    assert "half-moves" in capsys.readouterr().out


def test_contest_mode_claims_win_when_the_other_plays_illegally(tmp_path):
    me, other, moves = setup_game(tmp_path, "COMPUTER OTHER", "OTHER COMPUTER")
    opponent = start_program(other, "illegal_mover.py", "--after", "1")
    try:
        code = cc("--folder", str(me), "--headless", "--poll", "0.01", "--movetime", "0.05")
        opponent.communicate(timeout=10)
    finally:
        opponent.kill()
    assert code == 0
    assert parse_move_file((moves / "M1.DAT").read_text()).word == "WIN"
    result = json.loads((me / "REPORT.JSON").read_text())
    assert result["reason"] == "illegal-move" and result["winner"] == "bottom"
    record = sorted(me.glob("*.arena.jsonl"))[0].read_text().splitlines()
    assert '"illegal-move"' in record[-2] and "a general cannot move" in record[-2]
    # REPORT.TXT opens as a replay; its result comes from REPORT.JSON beside it.
    replay = open_replay(me / "REPORT.TXT")
    assert replay.outcome.winners == (0,) and replay.outcome.reason.value == "illegal-move"
    assert len(replay.states) == result["half_moves"] + 1


def test_other_programs_status_word_stands_in_contest_mode(tmp_path):
    me, other, moves = setup_game(tmp_path, "OTHER COMPUTER", "COMPUTER OTHER")
    opponent = start_program(other, "random_mover.py", "--misbehave", "win", "--after", "1")
    try:
        cc("--folder", str(me), "--headless", "--poll", "0.01", "--movetime", "0.05")
        opponent.communicate(timeout=10)
    finally:
        opponent.kill()
    result = json.loads((me / "REPORT.JSON").read_text())
    assert result["winner"] == "bottom" and result["reason"] == "adjudication"
    assert parse_move_file((moves / "M2.DAT").read_text()).word == "LOST"


def test_computer_against_itself_headless(tmp_path):
    (tmp_path / "PLAY.INI").write_text("COMPUTER\nCOMPUTER\n")
    assert cc("--folder", str(tmp_path), "--headless", "--movetime", "0.02",
              "--option", "no_capture_limit=6", "--author", "Tester") == 0
    lines = (tmp_path / "REPORT.TXT").read_text().splitlines()
    assert lines[0] == "Tester" and lines[3] == "COMPUTER COMPUTER"
    half_moves = json.loads((tmp_path / "REPORT.JSON").read_text())["half_moves"]
    assert half_moves >= 6 and len(lines) == 4 + (half_moves + 1) // 2


@pytest.mark.parametrize("text, line", [
    ("COMPUTER\nROBOT\n", 2),
    ("OTHER\nOTHER\n1\n-1\n/a\n/b\n", 2),
    ("COMPUTER\nOTHER\n1\n-1\n", 5),
    ("", 1),
])
def test_malformed_play_ini_is_reported_with_its_line(tmp_path, capsys, text, line):
    (tmp_path / "PLAY.INI").write_text(text)
    assert cc("--folder", str(tmp_path), "--headless") == 2
    assert f"PLAY.INI, line {line}:" in capsys.readouterr().err


def test_missing_play_ini_and_human_headless(tmp_path, capsys):
    assert cc("--folder", str(tmp_path), "--headless") == 2
    assert "PLAY.INI" in capsys.readouterr().err
    (tmp_path / "PLAY.INI").write_text("HUMAN\nCOMPUTER\n")
    assert cc("--folder", str(tmp_path), "--headless") == 2
    assert "HUMAN" in capsys.readouterr().err


def test_author_lines_come_from_options_then_arena_ini(tmp_path):
    assert read_authors(tmp_path)[0] == "Arena contributors"
    (tmp_path / "ARENA.INI").write_text("author = Le Thi B\nADDRESS=Hue\n")
    assert read_authors(tmp_path) == ("Le Thi B", "Arena Xiangqi, contest mode", "Hue")
    assert read_authors(tmp_path, address="Da Nang")[2] == "Da Nang"


def test_play_ini_error_for_the_window_is_a_stopped_match_showing_it():
    match = error_match("PLAY.INI, line 2: COMPUTER, HUMAN or OTHER")
    outcome = match.run()
    assert outcome.reason.value == "aborted" and "line 2" in match.snapshot().error
    assert "line 2" in match.banner and match.turns == []


def test_a_status_word_left_from_an_old_game_is_not_read_as_the_first_move(tmp_path):
    me, other, moves = setup_game(tmp_path, "OTHER COMPUTER", "COMPUTER OTHER")
    (moves / "M1.DAT").write_text("WIN\n-1\n-1\n")        # the last game's end
    opponent = start_program(other, "random_mover.py", "--seed", "2")
    try:
        cc("--folder", str(me), "--headless", "--poll", "0.01", "--movetime", "0.05",
           "--option", "no_capture_limit=4")
        opponent.communicate(timeout=10)
    finally:
        opponent.kill()
    assert json.loads((me / "REPORT.JSON").read_text())["half_moves"] >= 4
