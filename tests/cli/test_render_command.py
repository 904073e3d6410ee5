"""``python main.py render``: one turn of a record to a PNG, without a window."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from games import registry
from games.api import ArenaError, RecordFormatError
from runner.records import open_replay
from ui.snapshot import TurnOutOfRangeError, render_record_turn, render_state, turn_caption
from arena_cli import ROOT
from arena_cli import arena as run_arena

SAMPLE = ROOT / "replays" / "hex-sample.arena.jsonl"


def distinct_colours(surface: pygame.Surface, step: int = 7) -> int:
    width, height = surface.get_size()
    return len({tuple(surface.get_at((x, y)))
                for x in range(0, width, step) for y in range(0, height, step)})


def test_render_command_draws_a_turn_to_a_png(tmp_path):
    out = tmp_path / "pictures" / "turn3.png"
    result = run_arena("render", str(SAMPLE), "--turn", "3", "--out", str(out), "--size", "1920x1080",
                       cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("turn3.png")
    picture = pygame.image.load(str(out))
    assert picture.get_size() == (1920, 1080)
    assert distinct_colours(picture) > 50


def test_render_command_bad_turn_is_a_clear_error(tmp_path):
    result = run_arena("render", str(SAMPLE), "--turn", "999", "--out", str(tmp_path / "x.png"), cwd=tmp_path)
    assert result.returncode == 2
    assert "turn 999 is out of range" in result.stderr and "0-48" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "x.png").exists()


def test_render_command_bad_file_names_file_and_line(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("this is not a record\nat all\n", encoding="utf-8")
    result = run_arena("render", str(bad), "--out", str(tmp_path / "x.png"), cwd=tmp_path)
    assert result.returncode == 2
    assert "notes.txt, line 1:" in result.stderr and "arena record" in result.stderr
    assert "Traceback" not in result.stderr
    missing = run_arena("render", str(tmp_path / "missing.jsonl"), "--out", str(tmp_path / "x.png"), cwd=tmp_path)
    assert missing.returncode == 2 and "missing.jsonl" in missing.stderr and "Traceback" not in missing.stderr


def test_turn_numbers_count_from_the_start_and_minus_one_is_last(tmp_path):
    replay = open_replay(SAMPLE)
    last = len(replay.states) - 1
    pictures = {}
    for turn in (0, 3, -1, last):
        path = render_record_turn(SAMPLE, turn, tmp_path / f"t{turn}.png", (640, 360))
        pictures[turn] = pygame.image.tobytes(pygame.image.load(path), "RGB")
    assert pictures[-1] == pictures[last]
    assert pictures[0] != pictures[3] != pictures[last]
    for bad in (last + 1, -(last + 2)):
        with pytest.raises(TurnOutOfRangeError) as error:
            render_record_turn(SAMPLE, bad, tmp_path / "bad.png")
        assert isinstance(error.value, ArenaError) and "out of range" in str(error.value)


def test_render_record_turn_reports_bad_records(tmp_path):
    bad = tmp_path / "broken.arena.jsonl"
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    lines[4] = lines[4].replace('"moves": {"1": "', '"moves": {"1": "z')
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RecordFormatError) as error:
        render_record_turn(bad, -1, tmp_path / "x.png")
    assert error.value.line == 5


def test_caption_tells_turn_move_and_result():
    replay = open_replay(SAMPLE)
    last = len(replay.states) - 1
    assert turn_caption(replay, 0)[-1].startswith("Start position")
    caption = turn_caption(replay, 3)
    assert f"Turn 3 of {last}" in caption
    assert f"Player 1 played {replay.turns[2].moves[0]}" in caption
    assert not any(line.startswith("Result") for line in caption)
    assert turn_caption(replay, last)[-1] == f"Result: {replay.outcome.detail}"


@pytest.mark.parametrize("size", [(1280, 720), (720, 1000), (3840, 2160), (320, 200)])
def test_render_state_fills_the_picture_with_or_without_a_caption(size):
    replay = open_replay(SAMPLE)
    plugin = registry.plugin("hex")
    for caption in (None, ["Turn 1 of 2", "a long line " * 12]):
        picture = render_state(plugin, replay.states[-1], replay.header["options"], replay.seat_names,
                               size, caption)
        assert picture.get_size() == size
        assert distinct_colours(picture, step=5) > 20
