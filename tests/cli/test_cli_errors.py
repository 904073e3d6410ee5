"""The command line's errors for a newcomer: a sentence that says what to fix, never a traceback."""
import os
import stat

from runner.commands import command_problem
from arena_cli import arena


def test_a_bot_level_that_is_no_number_is_a_clear_error(tmp_path):
    result = arena("match", "hex", "--seat", "bot:x", "--seat", "bot:1", "--headless", "--out", str(tmp_path))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "bot's level is a number (1-5), not 'x'" in result.stderr


def test_robot_with_five_seats_says_how_many_it_takes(tmp_path):
    result = arena("match", "robot", *["--seat", "bot:1"] * 5, "--headless", "--out", str(tmp_path))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "takes 2–4 seats; 5 were given" in result.stderr


def test_a_program_that_cannot_start_exits_non_zero_and_says_why(tmp_path):
    for spec, why in (("ext:./no-such-player", "./no-such-player: no such file"),
                      ("ext:python3 no_such_bot.py", "no_such_bot.py: no such file (given to python3)"),
                      ("ext:no-such-program-anywhere", "no such program")):
        result = arena("match", "hex", "--seat", spec, "--seat", "bot:1", "--headless",
                       "--out", str(tmp_path / "out"))
        assert result.returncode == 2, (spec, result.stdout)
        assert why in result.stderr and "seat 1" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("*.arena.jsonl"))


def test_command_problem_reads_commands_as_the_runner_does(tmp_path):
    script = tmp_path / "bot.py"
    script.write_text("print('a1')\n")
    program = tmp_path / "bot"
    program.write_text("#!/bin/sh\n")
    assert command_problem("python3 bot.py", tmp_path) == ""
    assert command_problem("./bot.py", tmp_path).endswith("is not executable (chmod +x ./bot.py, "
                                                          "or run it with its interpreter)")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    assert command_problem("./bot", tmp_path) == ""
    assert "write ./bot" in command_problem("bot", tmp_path)
    assert command_problem("./folder", tmp_path).endswith("no such file")
    os.mkdir(tmp_path / "folder")
    assert "is a folder" in command_problem("./folder", tmp_path)
    assert "cannot be read" in command_problem("'unclosed", tmp_path)


# ---------------------------------------------------------------- the same errors in Vietnamese
def test_a_bad_seat_spec_is_explained_in_vietnamese(tmp_path, monkeypatch):
    monkeypatch.setenv("LANGUAGE", "vi")
    result = arena("match", "hex", "--seat", "bot:x", "--seat", "bot:1", "--headless", "--out", str(tmp_path))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "cấp của bot là một số (1-5), không phải 'x'" in result.stderr
    result = arena("match", "robot", *["--seat", "bot:1"] * 5, "--headless", "--out", str(tmp_path))
    assert "cần 2–4 chỗ ngồi; có 5" in result.stderr and "were given" not in result.stderr
    result = arena("match", "hex", "--seat", "ext:./no-such-player", "--seat", "bot:1", "--headless",
                   "--out", str(tmp_path))
    assert "chỗ ngồi 1 (ext:./no-such-player) không khởi động được: ./no-such-player: không có tệp này" \
        in result.stderr


def test_a_bad_map_names_file_and_line_in_vietnamese(tmp_path, monkeypatch):
    bad = tmp_path / "bad.txt"
    bad.write_text("9 9 5\n.........\n", encoding="utf-8")
    monkeypatch.setenv("LANGUAGE", "vi")
    result = arena("match", "robot", "--seat", "bot:1", "--seat", "bot:1", "--option", f"map={bad}",
                   "--headless", "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "bad, dòng 3: cần hàng bản đồ 1 trên 9 (tệp kết thúc sớm)" in result.stderr, result.stderr
