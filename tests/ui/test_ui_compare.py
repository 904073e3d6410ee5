"""Compare two runs: two records of one game stepping together, scores on one chart."""
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from games import registry
from games.api import ArenaError
from runner.match import Match
from runner.records import open_replay
from runner.seats import make_seat
from ui_helpers import press, pump

ROOT = Path(__file__).resolve().parents[2]


def robot_run(tmp_path, level, name):
    plugin = registry.plugin("robot")
    path = tmp_path / f"{name}.arena.jsonl"
    seats = [make_seat(f"bot:{level}", plugin, 1), make_seat("bot:2", plugin, 2)]
    Match(plugin, {"map": "open-11", "players": 2}, seats, seed=5, record_path=path).run()
    return open_replay(path)


def test_two_runs_step_together_and_the_shorter_stays_at_its_end(home, tmp_path):
    from ui.scenes.compare import CompareScene
    old, new = robot_run(tmp_path, 1, "old"), robot_run(tmp_path, 3, "new")
    scene = home.push(CompareScene(home, old, new))
    pump(home)
    press(home, pygame.K_RIGHT)
    press(home, pygame.K_RIGHT)
    assert scene.index == 2 and scene.position(0) == scene.position(1) == 2
    press(home, pygame.K_END)
    assert scene.index == scene.last == max(len(old.states), len(new.states)) - 1
    shorter = 0 if len(old.states) < len(new.states) else 1
    assert scene.position(shorter) == len(scene.replays[shorter].states) - 1
    assert scene.areas()[2] is not None, "Robot keeps running scores: the chart is shown"
    home.draw()
    press(home, pygame.K_ESCAPE)
    assert type(home.scene).__name__ != "CompareScene"


def test_only_records_of_one_game_compare(home, tmp_path):
    from ui.scenes.compare import CompareScene
    robot = robot_run(tmp_path, 1, "robot")
    plugin = registry.plugin("hex")
    path = tmp_path / "hex.arena.jsonl"
    Match(plugin, {"size": 4}, [make_seat("bot:1", plugin, 1), make_seat("bot:1", plugin, 2)], seed=1,
          record_path=path).run()
    hex_game = open_replay(path)
    with pytest.raises(ArenaError, match="same game"):
        CompareScene(home, robot, hex_game)
    assert CompareScene(home, hex_game, hex_game).areas()[2] is None, "no running score in Hex: no chart"
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "compare", robot.source, str(path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "only records of the same game compare" in result.stderr
