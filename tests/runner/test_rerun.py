"""Re-running a recorded turn with the same program gives the recorded answer (the
example bots are deterministic); a changed build gives a different one, side by side."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games import registry
from games.api import GameSetupError
from runner.match import Match
from runner.records import open_replay
from runner.rerun import rerun_turn
from runner.seats import make_seat

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
ROBOT_BOT = f"{PY} {ROOT / 'games/robot/examples/greedy_bot.py'}"
HEX_BOT = f"{PY} {ROOT / 'games/hex/examples/shortest_path.py'}"
FAKE_UCI = f"{PY} {ROOT / 'tests/xiangqi/programs/fake_engine.py'}"


def record(tmp_path, game, options, specs, seed=2):
    plugin = registry.plugin(game)
    path = tmp_path / f"{game}.arena.jsonl"
    seats = [make_seat(spec, plugin, seed + i) for i, spec in enumerate(specs)]
    Match(plugin, options, seats, seed=seed, record_path=path).run()
    return open_replay(path)


def test_robot_turns_rerun_with_the_state_file_as_it_was(tmp_path):
    replay = record(tmp_path, "robot", {"map": "open-11", "players": 2}, [f"ext:{ROBOT_BOT}", "bot:2"])
    turns = [t for t in range(1, len(replay.turns) + 1) if 0 in replay.states[t - 1].to_move()]
    assert len(turns) >= 5
    for turn in turns[:3] + turns[-2:]:
        rerun = rerun_turn(replay, turn, 0, f"ext:{ROBOT_BOT}")
        assert rerun.same_move, (turn, rerun.recorded.get("text"), rerun.new.text)
    assert replay.turns[3].answers[0]["kept"] == {"STATE.DAT": "3"}, "the record keeps STATE.DAT per turn"
    changed = tmp_path / "stay_bot.py"
    changed.write_text("lines = open('MAP.INP').read().split('\\n')\nx, y, _ = lines[1].split()\n"
                       "open('MOVE.OUT', 'w').write(f'{x} {y}\\n')\n")
    rerun = rerun_turn(replay, turns[2], 0, f"ext:{PY} {changed}")
    assert not rerun.same_move and rerun.new.failure is None


def test_a_hex_program_reruns_from_the_recorded_position(tmp_path):
    replay = record(tmp_path, "hex", {"size": 6}, [f"ext:{HEX_BOT}", "bot:1"])
    for turn in (3, 5):
        assert rerun_turn(replay, turn, 0, f"ext:{HEX_BOT}").same_move
    other = rerun_turn(replay, 5, 0, "bot:3")
    assert other.new.text and other.new.failure is None, "another bot answers the same position"


def test_engines_rerun_and_contest_programs_say_why_they_cannot(tmp_path):
    replay = record(tmp_path, "xiangqi", {"no_capture_limit": 8}, [f"uci:{FAKE_UCI}", "bot:1"])
    assert rerun_turn(replay, 3, 0, f"uci:{FAKE_UCI}").same_move
    with pytest.raises(GameSetupError, match="take over a game in progress"):
        rerun_turn(replay, 3, 0, f"ext:{PY} -c pass")


def test_the_command_prints_both_answers(tmp_path):
    replay = record(tmp_path, "robot", {"map": "open-11", "players": 2}, [f"ext:{ROBOT_BOT}", "bot:2"])
    result = subprocess.run([PY, str(ROOT / "main.py"), "rerun", replay.source, "--turn", "4", "--seat", "1",
                             "--program", ROBOT_BOT], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "recorded:" in result.stdout and "new:" in result.stdout and "same move" in result.stdout
    bad = subprocess.run([PY, str(ROOT / "main.py"), "rerun", replay.source, "--turn", "999", "--seat", "1",
                          "--program", ROBOT_BOT], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "no turn 999" in bad.stderr
