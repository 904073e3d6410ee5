"""Export speed: seconds per frame when a replay is filmed to GIF and MP4.

    python bench/export_bench.py [--size 960x540] [--turns N]

Plays a four-robot match on scatter-21 (level-2 bots, about 110 turns), then films it.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import registry  # noqa: E402
from runner.match import Match  # noqa: E402
from runner.records import open_replay  # noqa: E402
from runner.seats import make_seat  # noqa: E402
from ui.media import FilmSettings, save_gif, save_mp4  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="960x540")
    args = parser.parse_args(argv)
    size = tuple(int(x) for x in args.size.split("x"))
    folder = Path(tempfile.mkdtemp(prefix="arena-export-bench-"))
    plugin = registry.plugin("robot")
    seats = [make_seat("bot:2", plugin, seed) for seed in range(4)]
    record = folder / "robot.arena.jsonl"
    Match(plugin, {"map": "scatter-21", "players": 4}, seats, seed=4, record_path=record).run()
    replay = open_replay(record)
    print(f"Robot match, {len(replay.turns)} turns, {size[0]}x{size[1]}:")
    for name, save in (("GIF", save_gif), ("MP4", save_mp4)):
        out = folder / f"robot.{name.lower()}"
        wall, cpu = time.perf_counter(), time.process_time()
        count = save(replay, FilmSettings(size=size, fps=4), out)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"  {name}: {count} frames in {wall:.2f} s ({1000 * wall / count:.1f} ms per frame, "
              f"{1000 * cpu / count:.1f} ms CPU), {out.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
