"""The command line, as a user types it."""
import json

from arena_cli import arena


def test_help_explains_each_command():
    result = arena("--help")
    assert result.returncode == 0
    for command in ("replay", "match", "render"):
        assert command in result.stdout
    match_help = arena("match", "--help").stdout
    for flag in ("--seat", "--variant", "--option", "--seed", "--headless", "--out"):
        assert flag in match_help


def test_headless_match_writes_record_and_result(tmp_path):
    out = tmp_path / "out"
    result = arena("match", "hex", "--seat", "bot:1", "--seat", "bot:1", "--variant", "7x7",
                   "--seed", "4", "--headless", "--out", str(out))
    assert result.returncode == 0, result.stderr
    summary = json.loads((out / "result.json").read_text())
    assert summary["game"] == "hex" and summary["turns"] > 0 and len(summary["winners"]) == 1
    records = list(out.glob("*.arena.jsonl"))
    assert len(records) == 1 and summary["record"] == str(records[0])


def test_human_seat_with_headless_is_an_error(tmp_path):
    result = arena("match", "hex", "--seat", "human", "--seat", "bot:1", "--headless", "--out", str(tmp_path))
    assert result.returncode != 0 and "human" in result.stderr and "Traceback" not in result.stderr


def test_bad_option_is_reported_without_traceback(tmp_path):
    result = arena("match", "hex", "--seat", "bot:1", "--seat", "bot:1", "--option", "size=huge",
                   "--headless", "--out", str(tmp_path))
    assert result.returncode == 2 and "size" in result.stderr and "Traceback" not in result.stderr
    result = arena("match", "nogame", "--seat", "bot", "--headless")
    assert result.returncode == 2 and "no game named" in result.stderr


def test_robot_match_takes_one_robot_per_seat(tmp_path):
    result = arena("match", "robot", *sum((["--seat", "bot:1"] for _ in range(4)), []),
                   "--option", "map=open-11", "--seed", "2", "--headless", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    summary = json.loads((tmp_path / "result.json").read_text())
    assert len(summary["scores"]) == 4
    mismatch = arena("match", "robot", "--seat", "bot:1", "--seat", "bot:1", "--option", "players=3",
                     "--headless", "--out", str(tmp_path))
    assert mismatch.returncode == 2 and "3-seat" in mismatch.stderr


def test_export_saves_a_records_game_formats(tmp_path):
    result = arena("match", "xiangqi", "--seat", "bot:1", "--seat", "bot:1", "--seed", "3",
                   "--option", "no_capture_limit=30", "--headless", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "REPORT.TXT").read_text().splitlines()[3] == "COMPUTER COMPUTER"
    record = str(next(tmp_path.glob("*.arena.jsonl")))
    pgn = arena("export", record, "--format", "pgn")
    assert pgn.returncode == 0 and pgn.stdout.startswith('[Game "Chinese Chess"]')
    start = arena("export", record, "--format", "FEN", "--turn", "0")
    assert start.stdout.strip() == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    again = arena("export", str(tmp_path / "game.pgn"), "--format", "fen", "--turn", "0")
    assert again.stdout == start.stdout                      # the exported PGN opens as a record
    wrong = arena("export", record, "--format", "sgf")
    assert wrong.returncode == 2 and "PGN, FEN" in wrong.stderr and "Traceback" not in wrong.stderr
