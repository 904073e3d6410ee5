"""Reproductions of the defects a review found in the first foundation, each fixed.

* two matches with the same ``--out`` shared ``seatN/`` folders: the second Robot match
  started with the first one's STATE.DAT;
* a Robot record whose map file was deleted no longer opened;
* a record's moves were replayed unchecked: an edited Hex record playing an occupied
  cell opened with no error;
* matches from the window wrote no contest files and no result.json.
(The broken plugin and the importlib reach into ui are in test_registry.py and
test_layers.py.)
"""
import json
import sys
from pathlib import Path

import pytest

from games import registry
from games.api import RecordFormatError
from runner.match import Match, default_record_path
from runner.records import open_replay
from runner.seats import make_seat
from arena_cli import ROOT, arena

BOTS = ROOT / "tests" / "robot" / "bots"
MAP = "7 7 3\n.......\n.......\n.......\n.......\n.......\n.......\n.......\n"


def records(folder: Path) -> list[dict]:
    return [[json.loads(line) for line in path.read_text().splitlines()]
            for path in sorted(folder.glob("*.arena.jsonl"))]


def test_two_matches_with_the_same_out_do_not_share_program_folders(tmp_path):
    out = tmp_path / "out"
    command = f"ext:{sys.executable} {BOTS / 'state_counter_bot.py'}"
    for _ in range(2):
        result = arena("match", "robot", "--seat", command, "--seat", "bot:1", "--option",
                       "map=open-11", "--seed", "3", "--headless", "--out", str(out))
        assert result.returncode == 0, result.stderr
    first, second = records(out)
    for lines in (first, second):
        turn_one = next(line for line in lines if line.get("type") == "turn")
        assert "run 1" in turn_one["answers"]["0"]["stderr"], "a match starts with a fresh STATE.DAT"
    folders = sorted(p.parent.name for p in out.glob("*/seat1"))
    assert len(folders) == 2 and folders[0] != folders[1]


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


@pytest.mark.parametrize("game, files", [("hex", {"HEX.OUT", "hex.sgf"}),
                                         ("xiangqi", {"REPORT.TXT", "game.pgn"})])
def test_a_match_like_the_windows_writes_the_contest_files_and_result(tmp_path, game, files):
    """The New match screen builds its match exactly so: a record in the records folder
    and nothing else; the contest's files and result.json go to the match's folder."""
    plugin = registry.plugin(game)
    options = plugin.new_game().spec.resolve_options(None, {"size": "5"} if game == "hex" else
                                                     {"no_capture_limit": "10"})
    seats = [make_seat("bot:1", plugin, 1), make_seat("bot:1", plugin, 2)]
    record = default_record_path(tmp_path / "records", game)
    match = Match(plugin, options, seats, seed=4, record_path=record)
    match.run()
    folder = record.with_name(record.name.removesuffix(".arena.jsonl"))
    written = {p.name for p in folder.iterdir()}
    assert files | {"result.json"} <= written
    assert not any(name.startswith("seat") for name in written), "no folders for seats without programs"
    result = json.loads((folder / "result.json").read_text())
    assert result["result"] == match.outcome.result_text() and result["result"] in ("1-0", "0-1", "1/2-1/2")
    assert result["record"] == str(record)
