"""Save a PNG of every scene at 1280x720 and 1920x1080 (no window needed).

    python bench/screenshots.py [--out out/screens] [--sizes 1280x720,1920x1080]

Look at the pictures after a layout change: overlaps, clipped text, empty areas.
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


def settle(app, seconds: float = 0.0) -> None:
    """Run frames without blocking for ``seconds`` (at least two), then draw."""
    end = time.monotonic() + seconds
    app.frame(block=False)
    app.frame(block=False)
    while time.monotonic() < end:
        app.frame(block=False)
        time.sleep(0.01)
    app.draw()


def finished_match(app, size_option: int = 7):
    """A bot-vs-bot Hex match played to its end (for the Match and Replay pictures)."""
    from games import registry
    from runner.match import Match, default_record_path
    from runner.paths import records_dir
    from runner.seats import make_seat
    plugin = registry.plugin("hex")
    options = plugin.new_game().spec.resolve_options(None, {"size": size_option})
    seats = [make_seat("bot:1", plugin, 1), make_seat("bot:1", plugin, 2)]
    return Match(plugin, options, seats, seed=7, record_path=default_record_path(records_dir(), "hex"))


def shoot(size: tuple[int, int], out: Path) -> list[Path]:
    import pygame

    from games import registry
    from ui.app import App
    from ui.settings import Settings
    from ui.scenes.home import HomeScene
    from ui.scenes.howto import HowToScene
    from ui.scenes.match import MatchScene
    from ui.scenes.new_match import NewMatchScene
    from ui.scenes.replay import ReplayScene
    from ui.scenes.settings import SettingsScene

    saved = []
    app = App(Settings(), size=size, fullscreen=False)

    def save(name: str) -> None:
        path = out / f"{name}_{size[0]}x{size[1]}.png"
        pygame.image.save(app.window, str(path))
        saved.append(path)

    app.push(HomeScene(app))
    settle(app)
    save("home")
    app.push(NewMatchScene(app, game="hex"))
    settle(app)
    save("new_match")
    app.pop()
    for other in registry.all_plugins():
        if other.name != "hex":
            app.push(NewMatchScene(app, game=other.name))
            settle(app)
            save(f"new_match_{other.name}")
            app.pop()
    app.push(SettingsScene(app))
    settle(app)
    save("settings")
    app.pop()
    app.push(HowToScene(app, registry.plugin("robot" if any(p.name == "robot" for p in registry.all_plugins()) else "hex")))
    settle(app)
    save("howto")
    app.pop()
    match = finished_match(app)
    scene = app.push(MatchScene(app, match))
    match.join(10)
    settle(app, 0.2)
    scene.toggle_debug(0)
    scene.select(3)
    settle(app)
    save("match_finished")
    app.push(ReplayScene(app, replay=match.as_replay()))
    view = app.scene
    view.go(len(view.replay.states) // 2)
    view.toggle_debug(1)
    settle(app)
    save("replay")
    app.pop()
    app.pop()
    app.push(ReplayScene(app, path=str(out / "no-such-record.txt")))
    settle(app)
    save("replay_error")
    app.pop()
    app.push(ReplayScene(app, path=None))
    settle(app)
    save("replay_file_dialog")
    app.pop()
    app.pop()
    # A live match: a person against a bot, waiting for the person.
    plugin = registry.plugin("hex")
    from runner.match import Match
    from runner.seats import make_seat
    live = Match(plugin, plugin.new_game().spec.resolve_options("11x11"),
                 [make_seat("human", plugin, 1), make_seat("bot:1", plugin, 2)], seed=3)
    live.seats[0].label = "Anna"
    scene = app.push(MatchScene(app, live))
    for move in ("f6", "e5", "d4"):
        deadline = time.monotonic() + 5
        while not live.human_waiting() and time.monotonic() < deadline:
            time.sleep(0.01)
        settle(app, 0.1)
        scene.try_move(move) or scene.try_move("a1")
    deadline = time.monotonic() + 5
    while not live.human_waiting() and time.monotonic() < deadline:
        time.sleep(0.01)
    settle(app, 0.15)
    save("match_live")
    app.pop()
    for other in registry.all_plugins():
        if other.name == "hex" or not other.bot:
            continue
        game = other.new_game()
        options = game.spec.resolve_options(None, {})
        count = max(game.spec.min_seats, min(game.spec.max_seats, game.seats_for(options)))
        try:
            seats = [make_seat("bot:1", other, i) for i in range(count)]
            watched = Match(other, options, seats, seed=5)
        except Exception as exc:          # a game still being written
            print(f"{other.name}: no match ({exc})")
            continue
        scene = app.push(MatchScene(app, watched))
        scene.toggle_debug(0)
        settle(app, 1.0)
        save(f"match_{other.name}")
        app.pop()
    app.settings.theme = "light"
    app.set_theme("light")
    settle(app)
    save("home_light")
    app.close()
    return saved


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/screens")
    parser.add_argument("--sizes", default="1280x720,1920x1080")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("ARENA_HOME", tempfile.mkdtemp(prefix="arena-shots-"))
    for text in args.sizes.split(","):
        width, height = (int(v) for v in text.split("x"))
        for path in shoot((width, height), out):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
