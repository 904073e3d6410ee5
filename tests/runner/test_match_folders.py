"""A match's folders: two matches with the same ``--out`` never share ``seatN/`` folders, and
a match built as the window builds it writes the contest files and result.json."""
import json
import sys
from pathlib import Path

import pytest

from games import registry
from runner.match import Match, default_record_path
from runner.seats import make_seat

from arena_cli import ROOT, arena

BOTS = ROOT / "tests" / "robot" / "bots"


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
