"""Frame cost of the shell: CPU per drawn frame while a match animates, and idle CPU.

    python bench/frame_bench.py [--size 1280x720] [--idle-seconds 5] [--frames 300]

1. Animating: a bot-vs-bot Hex match (11x11, bots slowed to ~25 moves/s so the
   board changes all the time) on the Match screen, with the debug panel open;
   the real frame loop runs and every drawn frame's CPU time (``time.process_time``
   of the loop thread, ``time.thread_time``; ``time.process_time`` too, which also
   counts the match's worker threads) is recorded.  Reports the median and 90th percentile in milliseconds.
2. Waiting: a match waiting for a person's move, where only the clock moves.
3. Idle: the home screen with no input for ``--idle-seconds`` of wall time; reports
   the process's CPU time as a percentage of one core.
4. Pulsing marks: a paused Robot replay showing a turn with explosion/enclosure
   marks: full draws and CPU in the first second (the marks pulse), then idle.
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


def thread_cpu() -> float:
    """CPU seconds of the calling thread (the frame loop), not the match's worker threads."""
    return time.thread_time()


def bench_animating(size: tuple[int, int], frames: int) -> dict:
    from games import registry
    from runner.match import Match
    from runner.seats import BotSeat
    from ui.app import App
    from ui.settings import Settings
    from ui.scenes.home import HomeScene
    from ui.scenes.match import MatchScene

    class PacedBot(BotSeat):
        """The random bot, answering every 40 ms so the board keeps changing."""

        def ask(self, state, seat, time_limit):
            time.sleep(0.04)
            return super().ask(state, seat, time_limit)

    plugin = registry.plugin("hex")
    options = plugin.new_game().spec.resolve_options("11x11", {"time_total": 0, "max_moves": 200})
    seats = [PacedBot("bot:1", plugin.load("bot")(1, 1), 1), PacedBot("bot:1", plugin.load("bot")(1, 2), 1)]
    app = App(Settings(), size=size, fullscreen=False)
    app.push(HomeScene(app))
    match = Match(plugin, options, seats, seed=5)
    scene = app.push(MatchScene(app, match))
    scene.toggle_debug(0)
    costs, process_costs, waits = [], [], 0
    wall = time.monotonic()
    while len(costs) < frames and not scene.finished:
        drawn = app.frames_drawn
        start, process_start = thread_cpu(), time.process_time()
        app.frame(block=True)
        cost, process_cost = thread_cpu() - start, time.process_time() - process_start
        if app.frames_drawn > drawn:
            costs.append(cost * 1000)
            process_costs.append(process_cost * 1000)
        else:
            waits += 1
    wall = time.monotonic() - wall
    match.stop()
    app.close()
    costs.sort()
    return {"frames": len(costs), "idle_wakeups": waits, "wall_s": wall,
            "median_ms": statistics.median(costs),
            "process_median_ms": statistics.median(process_costs), "p90_ms": costs[int(len(costs) * 0.9) - 1],
            "fps": len(costs) / wall, "turns": len(match.turns)}


def bench_idle(size: tuple[int, int], seconds: float) -> dict:
    from ui.app import App
    from ui.settings import Settings
    from ui.scenes.home import HomeScene

    app = App(Settings(), size=size, fullscreen=False)
    app.push(HomeScene(app))
    app.frame(block=False)
    app.draw()
    app.last_input = -1e9
    drawn = app.frames_drawn
    cpu, wall = time.process_time(), time.monotonic()
    while time.monotonic() - wall < seconds:
        app.frame(block=True)
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    result = {"wall_s": wall, "cpu_s": cpu, "percent_of_core": 100 * cpu / wall,
              "frames_drawn": app.frames_drawn - drawn}
    app.close()
    return result


def bench_waiting_for_a_person(size: tuple[int, int], seconds: float) -> dict:
    """A match waiting for a person's move: only the running clock changes (10 redraws/s)."""
    from games import registry
    from runner.match import Match
    from runner.seats import HumanSeat, make_seat
    from ui.app import App
    from ui.settings import Settings
    from ui.scenes.home import HomeScene
    from ui.scenes.match import MatchScene

    plugin = registry.plugin("hex")
    options = plugin.new_game().spec.resolve_options("11x11", {"time_total": 600})
    match = Match(plugin, options, [HumanSeat(), make_seat("bot:1", plugin, 1)], seed=5)
    app = App(Settings(), size=size, fullscreen=False)
    app.push(HomeScene(app))
    scene = app.push(MatchScene(app, match))
    while scene.view.human_seat is None:
        app.frame(block=True)
    app.last_input = -1e9
    app.frame(block=False)
    drawn, regions = app.frames_drawn, app.regions_drawn
    cpu, wall = time.process_time(), time.monotonic()
    while time.monotonic() - wall < seconds:
        app.frame(block=True)
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    match.stop()
    app.close()
    return {"percent_of_core": 100 * cpu / wall, "draws_per_s": (app.frames_drawn - drawn) / wall,
            "regions_per_s": (app.regions_drawn - regions) / wall, "wall_s": wall}


def bench_robot_marks(size: tuple[int, int], seconds: float) -> dict:
    """A paused Robot replay stepped onto a turn whose marks pulse: a second of frames, then idle."""
    from games import registry
    from runner.match import Match
    from runner.seats import make_seat
    from ui.app import App
    from ui.settings import Settings
    from ui.scenes.replay import ReplayScene

    plugin = registry.plugin("robot")
    options = plugin.new_game().spec.resolve_options(None, {"players": 4})
    match = Match(plugin, options, [make_seat("bot:1", plugin, i) for i in range(4)], seed=8)
    match.run()
    app = App(Settings(), size=size, fullscreen=False)
    app.push(ReplayScene(app, replay=match.as_replay()))
    view = app.scene
    marked = next(i for i, s in enumerate(view.replay.states) if view.renderer.animates(s))
    for _ in range(3):
        app.frame(block=False)
    app.last_input = -1e9
    view.go(marked)
    result = {}
    for name, span in (("settling", 1.0), ("settled", seconds)):
        drawn, cpu, wall = app.frames_drawn, time.process_time(), time.monotonic()
        while time.monotonic() - wall < span:
            app.frame(block=True)
        result[name] = (app.frames_drawn - drawn, 100 * (time.process_time() - cpu) / span)
    app.close()
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--idle-seconds", type=float, default=5.0)
    args = parser.parse_args(argv)
    size = tuple(int(v) for v in args.size.split("x"))
    animating = bench_animating(size, args.frames)
    print(f"animating match {args.size}: median {animating['median_ms']:.2f} ms CPU per drawn frame, "
          f"p90 {animating['p90_ms']:.2f} ms (process_time incl. the match thread: median "
          f"{animating['process_median_ms']:.2f} ms), {animating['frames']} frames drawn in "
          f"{animating['wall_s']:.1f} s ({animating['fps']:.1f} drawn/s, {animating['turns']} turns played, "
          f"{animating['idle_wakeups']} wake-ups without a redraw)")
    idle = bench_idle(size, args.idle_seconds)
    print(f"idle home screen {args.size}: {idle['cpu_s'] * 1000:.1f} ms CPU over {idle['wall_s']:.1f} s wall "
          f"= {idle['percent_of_core']:.2f}% of one core, {idle['frames_drawn']} frames drawn")
    waiting = bench_waiting_for_a_person(size, args.idle_seconds)
    print(f"match waiting for a person {args.size}: {waiting['percent_of_core']:.2f}% of one core over "
          f"{waiting['wall_s']:.1f} s: {waiting['regions_per_s']:.1f} clock repaints/s (players panel only), "
          f"{waiting['draws_per_s']:.1f} full draws/s")
    marks = bench_robot_marks(size, args.idle_seconds)
    print(f"robot replay on pulsing marks {args.size}: first second {marks['settling'][0]} full draws, "
          f"{marks['settling'][1]:.1f}% of one core; next {args.idle_seconds:g} s {marks['settled'][0]} "
          f"full draws, {marks['settled'][1]:.2f}% of one core")
    return 0


if __name__ == "__main__":
    sys.exit(main())
