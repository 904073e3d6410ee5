"""Pictures of the New match form of every game, with a bot seat's measured strength.

    python bench/level_screenshots.py [--out out/levels] [--sizes 1280x720,1920x1080,3840x2160]
                                      [--languages en,vi]

Saves ``levels_<game>_<language>[_light]_<W>x<H>.png`` for the dark and the light theme:
the form as it opens (a person and a bot seat), and Robot with four bot seats, the
tallest form.  Look at them after a layout change: the strength line under each bot
seat must not be cut or run into the next seat or the hints.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from screenshots import settle, themed_savers  # noqa: E402


def shoot(size: tuple[int, int], out: Path, code: str) -> list[Path]:
    from games import registry
    from ui.app import App
    from ui.scenes.new_match import NewMatchScene, SeatChoice
    from ui.settings import Settings

    saved: list[Path] = []
    app = App(Settings(language=code), size=size, fullscreen=False)
    for _theme, save in themed_savers(app, out, size, saved, code):
        for plugin in registry.all_plugins():
            if not plugin.bot_levels:
                continue
            form = app.push(NewMatchScene(app, game=plugin.name))
            if form.seats[-1].kind != "bot":          # Crossed Words starts with a person
                form.seats[-1] = SeatChoice("bot", 2)
                form.relayout()
            settle(app)
            save(f"levels_{plugin.name}")
            app.pop()
        form = app.push(NewMatchScene(app, game="robot"))
        form.variant = "4 players"
        form.seats = [SeatChoice("bot", level) for level in (1, 2, 3, 4)]
        form.relayout()
        settle(app)
        save("levels_robot_4bots")
        app.pop()
    app.close()
    return saved


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/levels")
    parser.add_argument("--sizes", default="1280x720,1920x1080,3840x2160")
    parser.add_argument("--languages", default="en,vi")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for code in args.languages.split(","):
        for text in args.sizes.split(","):
            width, height = (int(n) for n in text.split("x"))
            for path in shoot((width, height), out, code):
                print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
