"""How long the window's slow screens take to open, in CPU seconds (issue 40, point 3).

    nice -n 5 python bench/screen_bench.py [--size 3840x2160] [--repeat 5]

1. How to play: CPU of the frame loop's thread from the click (pushing the screen) to
   the first frame drawn, for each game, the first time (fonts cold) and again; and
   how soon the screen shows something (the feedback a person sees first).
   Goal: <= 0.3 s at 3840x2160.
2. Replay of a long Robot match (four level-2 bots on scatter-21 with respawn and
   period 21: 232 turns, longer than the 222-turn log of the issue): seek from the
   start to the end, then a step back, each with its frame drawn.  Goal: <= 16 ms each.

CPU is ``time.thread_time`` of the frame loop's thread; the load average is printed.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("ARENA_HOME", tempfile.mkdtemp(prefix="arena-bench-"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GAMES = ("hex", "xiangqi", "robot", "tamquan", "crosswords")


def howto_open(size, repeat: int) -> dict:
    """CPU ms from pushing How to play to its first full frame, per game: first, then median."""
    from games import registry
    from ui.app import App
    from ui.scenes.home import HomeScene
    from ui.scenes.howto import HowToScene
    from ui.settings import Settings

    app = App(Settings(), size=size, fullscreen=False)
    app.push(HomeScene(app))
    app.frame(block=False)
    app.draw()
    figures = {}
    for name in GAMES:
        times = []
        for _ in range(repeat):
            start = time.thread_time()
            app.push(HowToScene(app, registry.plugin(name)))
            app.frame(block=False)
            app.draw()
            times.append((time.thread_time() - start) * 1000)
            app.pop()
            app.frame(block=False)
        figures[name] = (times[0], statistics.median(times[1:]) if len(times) > 1 else times[0])
    app.close()
    return figures


def long_robot_replay():
    from games import registry
    from runner.match import Match
    from runner.seats import make_seat

    robot = registry.plugin("robot")
    options = robot.new_game().spec.resolve_options(None, {"players": 4, "map": "scatter-21",
                                                           "respawn": "on", "period": 21})
    match = Match(robot, options, [make_seat("bot:2", robot, i) for i in range(4)], seed=3)
    match.run()
    return match.as_replay()


def replay_seek(size, repeat: int) -> dict:
    """CPU ms of a seek to the end and of a step back, each with its frame drawn."""
    from ui.app import App
    from ui.scenes.replay import ReplayScene
    from ui.settings import Settings

    replay = long_robot_replay()
    app = App(Settings(), size=size, fullscreen=False)
    seeks, backs = [], []
    for _ in range(repeat):
        app.push(ReplayScene(app, replay=replay))
        view = app.scene
        app.frame(block=False)
        app.draw()
        start = time.thread_time()
        view.go(view.last)
        app.draw()
        seeks.append((time.thread_time() - start) * 1000)
        start = time.thread_time()
        view.go(view.last - 1)
        app.draw()
        backs.append((time.thread_time() - start) * 1000)
        app.pop()
        app.frame(block=False)
    app.close()
    return {"turns": len(replay.turns), "seek": seeks, "back": backs}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="3840x2160")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    size = tuple(int(v) for v in args.size.split("x"))
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; size {size[0]}x{size[1]}")
    for name, (first, again) in howto_open(size, args.repeat).items():
        print(f"How to play {name:11s} first open {first:7.1f} ms CPU, again (median) {again:7.1f} ms")
    seek = replay_seek(size, args.repeat)
    print(f"Robot replay, {seek['turns']} turns: seek to the end first {seek['seek'][0]:.1f} ms, "
          f"median {statistics.median(seek['seek']):.1f} ms; step back first {seek['back'][0]:.1f} ms, "
          f"median {statistics.median(seek['back']):.1f} ms")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
