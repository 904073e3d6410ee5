"""Pictures of bot annotations in live matches and replays, for people to look at.

For Robot, Xiangqi, Hex, Tam Quan and Crossed Words: a match of the game's shipped
example program (which annotates every move) against the built-in bot is played live
in the Match screen (paused after a few turns), then its record is opened in the
Replay screen at a middle turn.  Each at every size and theme asked for.

    python bench/annotation_shots.py [--out /tmp/shots] [--sizes 1280x720,1920x1080,3840x2160]
        [--games robot,xiangqi,hex]
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

from bench.screenshots import settle  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: game -> (variant, seats: the annotating example first, then its opponents)
EXAMPLES = {
    "robot": (None, [f"ext:python3 {ROOT}/games/robot/examples/greedy_bot.py", "bot:1"]),
    "xiangqi": (None, [f"ext:python3 {ROOT}/games/xiangqi/examples/greedy_mover.py", "bot:1"]),
    "hex": ("9x9", [f"ext:python3 {ROOT}/games/hex/examples/shortest_path.py", "bot:1"]),
    "tamquan": (None, [f"ext:python3 {ROOT}/games/tamquan/examples/greedy_bot.py", "bot:1"]),
    "crosswords": (None, [f"ext:python3 {ROOT}/games/crosswords/examples/simple_player.py"]),
}


def new_match(game: str, folder: Path, turns: int | None = None):
    """The example's match (not started), recording into ``folder``."""
    from games import registry
    from runner.match import Match, default_record_path
    from runner.seats import make_seat
    plugin = registry.plugin(game)
    variant, specs = EXAMPLES[game]
    options = plugin.new_game().spec.resolve_options(variant, {"seconds": "5"} if game == "crosswords" else {})
    seats = [make_seat(spec, plugin, i) for i, spec in enumerate(specs)]
    return Match(plugin, options, seats, seed=7, variant=variant,
                 record_path=default_record_path(folder, game))


def shoot(sizes, themes, games, out: Path) -> list[Path]:
    from ui.app import App
    from ui.scenes.match import MatchScene
    from ui.scenes.replay import ReplayScene
    from ui.settings import Settings
    import pygame
    saved = []
    folder = Path(tempfile.mkdtemp(prefix="arena-annotation-shots-"))
    records = {}
    for game in games:                     # one finished match per game, for its replay
        match = new_match(game, folder)
        match.run()
        records[game] = match.record_path
    for size in sizes:
        for theme in themes:
            app = App(Settings(), size=size)
            app.set_theme(theme)

            def save(name):
                path = out / f"{name}_{theme}_{size[0]}x{size[1]}.png"
                pygame.image.save(app.window, str(path))
                saved.append(path)
            for game in games:
                live = new_match(game, folder)
                scene = app.push(MatchScene(app, live))
                settle(app, 0.2)
                deadline = time.monotonic() + 20
                while len(live.snapshot().turns) < 6 and live.outcome is None and time.monotonic() < deadline:
                    settle(app, 0.1)
                live.pause()
                settle(app, 0.3)
                save(f"live_{game}")
                live.stop()
                app.pop()
                live.join(5)
                app.push(ReplayScene(app, path=str(records[game])))
                view = app.scene
                view.go(max(1, min(view.last, 9)))
                settle(app)
                save(f"replay_{game}")
                view.toggle_marks(0)
                settle(app)
                save(f"replay_{game}_hidden")
                app.pop()
                app.pop()
            app.close()
    return saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="out/annotations")
    parser.add_argument("--sizes", default="1280x720,1920x1080,3840x2160")
    parser.add_argument("--themes", default="dark,light")
    parser.add_argument("--games", default="robot,xiangqi,hex,tamquan,crosswords")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",")]
    for path in shoot(sizes, args.themes.split(","), args.games.split(","), out):
        print(path)


if __name__ == "__main__":
    main()
