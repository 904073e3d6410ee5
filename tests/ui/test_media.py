"""Pictures and films of replays (`arena export --format PNG|GIF|MP4`)."""
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from games import registry
from runner.match import Match
from runner.records import open_replay
from runner.seats import Answer, Seat, make_seat
from ui.media import FilmSettings, save_gif, save_mp4, turn_range
from ui.snapshot import PictureError, TurnOutOfRangeError

ROOT = Path(__file__).resolve().parents[2]


class RandomSeat(Seat):
    kind = "bot"

    def __init__(self, seed):
        super().__init__("random", "Random")
        self.rng = random.Random(seed)

    def ask(self, state, seat, time_limit):
        return Answer(move=self.rng.choice(list(state.legal_moves(seat))))


@pytest.fixture(scope="module")
def robot_record(tmp_path_factory):
    """A four-robot match of more than 100 turns."""
    plugin = registry.plugin("robot")
    path = tmp_path_factory.mktemp("robot") / "robot.arena.jsonl"
    seats = [make_seat("bot:2", plugin, seed) for seed in range(4)]
    Match(plugin, {"map": "scatter-21", "players": 4}, seats, seed=4, record_path=path).run()
    return path


def test_a_hundred_turn_robot_match_films_to_a_gif_in_seconds(robot_record, tmp_path):
    replay = open_replay(robot_record)
    assert len(replay.turns) >= 100
    start = time.perf_counter()
    count = save_gif(replay, FilmSettings(size=(480, 270), fps=5), tmp_path / "robot.gif")
    seconds = time.perf_counter() - start
    with Image.open(tmp_path / "robot.gif") as gif:
        assert gif.n_frames == count == len(replay.states)
        assert gif.size == (480, 270) and gif.info["duration"] == 200
    assert seconds < 30, f"{seconds:.1f} s for {count} frames"


def test_a_whole_xiangqi_game_films_to_a_gif_and_an_mp4(tmp_path):
    plugin = registry.plugin("xiangqi")
    options = plugin.new_game().spec.resolve_options(None, {"no_capture_limit": "12"})
    path = tmp_path / "xiangqi.arena.jsonl"
    Match(plugin, options, [RandomSeat(1), RandomSeat(2)], seed=1, record_path=path).run()
    replay = open_replay(path)
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "export", str(path), "--format", "GIF",
                             "--size", "400x300", "--out", str(tmp_path / "x.gif")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert f"({len(replay.states)} frames" in result.stdout
    with Image.open(tmp_path / "x.gif") as gif:
        assert gif.n_frames == len(replay.states)
    count = save_mp4(replay, FilmSettings(2, 5, (401, 301), 2), tmp_path / "x.mp4")
    assert count == 4
    import imageio_ffmpeg
    reader = imageio_ffmpeg.read_frames(str(tmp_path / "x.mp4"))
    meta = next(reader)
    assert tuple(meta["size"]) == (400, 300) and sum(1 for _ in reader) == 4


def test_a_png_of_one_turn_and_clear_errors(robot_record, tmp_path):
    out = tmp_path / "turn.png"
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "export", str(robot_record), "--format",
                             "png", "--turn", "7", "--size", "800x450", "--out", str(out)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    with Image.open(out) as picture:
        assert picture.size == (800, 450) and len(picture.getcolors(100000) or []) > 20
    missing_out = subprocess.run([sys.executable, str(ROOT / "main.py"), "export", str(robot_record),
                                  "--format", "GIF"], capture_output=True, text=True, timeout=60)
    assert missing_out.returncode != 0 and "--out" in missing_out.stderr
    replay = open_replay(robot_record)
    with pytest.raises(TurnOutOfRangeError):
        turn_range(replay, 5, 2)
    with pytest.raises(PictureError):
        save_gif(replay, FilmSettings(fps=0), tmp_path / "x.gif")
