"""Branch from a turn: continue a recorded game with new seats, as a new record that
names its origin."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games import registry
from games.api import GameSetupError
from runner.match import Branch, Match
from runner.records import open_replay
from runner.seats import make_seat

ROOT = Path(__file__).resolve().parents[2]


def recorded(tmp_path, game, options, seats, seed=3):
    plugin = registry.plugin(game)
    path = tmp_path / f"{game}-origin.arena.jsonl"
    Match(plugin, options, [make_seat(s, plugin, seed + i) for i, s in enumerate(seats)], seed=seed,
          record_path=path).run()
    return path


@pytest.mark.parametrize("game, options, seats", [
    ("hex", {"size": 5}, ["bot:1", "bot:1"]),
    ("robot", {"map": "open-11", "players": 2}, ["bot:2", "bot:2"]),
    ("xiangqi", {"no_capture_limit": 10}, ["bot:1", "bot:1"]),
])
def test_a_branch_replays_the_origin_up_to_its_turn_then_goes_its_own_way(tmp_path, game, options, seats):
    origin_path = recorded(tmp_path, game, options, seats)
    origin = open_replay(origin_path)
    turn = min(4, len(origin.turns) - 1)
    out = tmp_path / "branch"
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "branch", str(origin_path), "--turn",
                             str(turn), *sum((["--seat", "bot:2"] for _ in seats), []), "--headless",
                             "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert f"branched at turn {turn}" in result.stdout
    record = next(out.glob("*.arena.jsonl"))
    header = json.loads(record.read_text().splitlines()[0])
    assert header["branch"] == {"record": str(origin_path), "turn": turn}
    branch = open_replay(record)
    assert branch.states[:turn + 1] == origin.states[:turn + 1]
    assert [t.moves for t in branch.turns[:turn]] == [t.moves for t in origin.turns[:turn]]
    assert branch.outcome is not None and (out / "result.json").is_file()


def test_branching_is_refused_where_it_cannot_work(tmp_path):
    origin_path = recorded(tmp_path, "hex", {"size": 4}, ["bot:1", "bot:1"])
    origin = open_replay(origin_path)
    with pytest.raises(GameSetupError, match="game is over"):
        Branch.of(origin, -1)
    with pytest.raises(GameSetupError, match="no turn"):
        Branch.of(origin, 99)
    hex_out = tmp_path / "x.HEX.OUT"
    from games.hex.records import format_hex_out
    hex_out.write_text(format_hex_out(origin))
    with pytest.raises(GameSetupError, match="only the arena's own records"):
        Branch.of(open_replay(hex_out), 1)
    xiangqi = open_replay(recorded(tmp_path, "xiangqi", {"no_capture_limit": 10}, ["bot:1", "bot:1"]))
    plugin = registry.plugin("xiangqi")
    program = make_seat(f"ext:{sys.executable} -c pass", plugin, 0)
    match = Match(plugin, xiangqi.header["options"], [program, make_seat("bot:1", plugin, 1)],
                  seed=xiangqi.header["seed"], branch=Branch.of(xiangqi, 2))
    match.run()
    assert "take over a game in progress" in match.error


def test_the_replay_viewer_marks_the_branch_point(tmp_path, home_app=None):
    origin = open_replay(recorded(tmp_path, "hex", {"size": 5}, ["bot:1", "bot:1"]))
    plugin = registry.plugin("hex")
    path = tmp_path / "b.arena.jsonl"
    Match(plugin, origin.header["options"], [make_seat("bot:2", plugin, 1), make_seat("bot:2", plugin, 2)],
          seed=origin.header["seed"], record_path=path, branch=Branch.of(origin, 3)).run()
    branch = open_replay(path)
    assert branch.branch_turn() == 3 and 3 in branch.event_turns()
