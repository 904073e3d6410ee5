"""A record is checked as it is opened: every move replayed through the rules (an occupied
cell, turns out of order refused at their line), and a Robot record opens without its
map file (the map is in the record)."""
import json
from pathlib import Path

import pytest

from games import registry
from games.api import RecordFormatError
from runner.match import Match
from runner.records import open_replay
from runner.seats import make_seat

from arena_cli import arena

MAP = "7 7 3\n.......\n.......\n.......\n.......\n.......\n.......\n.......\n"


def test_a_robot_record_opens_after_its_map_file_is_deleted(tmp_path):
    map_file = tmp_path / "tiny.txt"
    map_file.write_text(MAP)
    out = tmp_path / "out"
    result = arena("match", "robot", "--seat", "bot:1", "--seat", "bot:2", "--option",
                   f"map={map_file}", "--seed", "5", "--headless", "--out", str(out))
    assert result.returncode == 0, result.stderr
    record = next(out.glob("*.arena.jsonl"))
    header = json.loads(record.read_text().splitlines()[0])
    assert header["options"]["map"] == MAP and header["files"]["map"]["source"] == str(map_file)
    before = open_replay(record)
    map_file.unlink()
    after = open_replay(record)
    assert after.states == before.states and after.states[0].board.name == "tiny"


def hex_record(tmp_path) -> Path:
    """A finished 5×5 Hex game between two level-1 bots."""
    hex_plugin = registry.plugin("hex")
    seats = [make_seat("bot:1", hex_plugin, 1), make_seat("bot:1", hex_plugin, 2)]
    path = tmp_path / "game.arena.jsonl"
    Match(hex_plugin, {"size": 5}, seats, seed=1, record_path=path).run()
    return path


def test_a_record_that_replays_an_occupied_cell_is_refused_at_its_line(tmp_path):
    path = hex_record(tmp_path)
    lines = path.read_text().splitlines()
    first = json.loads(lines[1])
    third = json.loads(lines[3])
    third["moves"] = {"0": first["moves"]["0"]}            # player 1 plays its first cell again
    lines[3] = json.dumps(third)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordFormatError) as error:
        open_replay(path)
    assert error.value.line == 4 and "occupied" in str(error.value)


def test_a_record_with_turns_out_of_order_is_refused(tmp_path):
    path = hex_record(tmp_path)
    lines = path.read_text().splitlines()
    del lines[2]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordFormatError) as error:
        open_replay(path)
    assert error.value.line == 3 and "turn 2" in str(error.value)
