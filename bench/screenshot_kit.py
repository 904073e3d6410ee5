"""What the screenshot scripts share: frames run without a window, a saver per theme,
scratch folders removed at exit, waiting for a screen, and a home screen with a broken game.

The bench scripts import it by name (``from screenshot_kit import settle``), as they run
with ``bench/`` on the path.
"""
from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import shutil
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


def themed_savers(app, out: Path, size, saved: list, code: str | None = None):
    """For the dark theme, then the light one: switch ``app`` to it and yield the theme
    and a ``save(name)`` that writes the window to ``out/<name>[_<code>][_light]_<W>x<H>.png``
    and notes the path in ``saved``."""
    import pygame

    for theme in ("dark", "light"):
        app.settings.theme = theme
        app.set_theme(theme)
        tag = (f"_{code}" if code else "") + ("" if theme == "dark" else "_light")

        def save(name: str, tag=tag) -> None:
            path = out / f"{name}{tag}_{size[0]}x{size[1]}.png"
            pygame.image.save(app.window, str(path))
            saved.append(path)
        yield theme, save


def scratch_folder(prefix: str) -> str:
    """A new temporary folder, removed when the script ends (nothing left in /tmp)."""
    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


@contextlib.contextmanager
def broken_game(name: str = "crossed"):
    """While inside, ``games.NAME`` is a package whose ``__init__`` fails on a bad import
    (as a half-written game would), ahead of any real one."""
    import games
    from games import registry
    folder = Path(scratch_folder("arena-broken-")) / "games"
    (folder / name).mkdir(parents=True)
    (folder / name / "__init__.py").write_text(
        f'"""A game still being written."""\nfrom games.{name}.grid import Grid\n', encoding="utf-8")
    saved_path, saved_names = list(games.__path__), registry.GAME_PACKAGES
    games.__path__[:] = [str(folder), *saved_path]
    if name not in saved_names:
        registry.GAME_PACKAGES = (*saved_names, name)
    importlib.invalidate_caches()
    try:
        yield name
    finally:
        games.__path__[:] = saved_path
        registry.GAME_PACKAGES = saved_names
        for module in [m for m in sys.modules if m == f"games.{name}" or m.startswith(f"games.{name}.")]:
            del sys.modules[module]


def home_with_a_broken_game(app, save, name: str) -> None:
    from ui.scenes.home import HomeScene
    with broken_game():
        app.push(HomeScene(app))
        settle(app)
        save(name)
        app.pop()


def wait_for(app, condition, seconds: float = 10.0) -> bool:
    """Run frames (the screen polls its match) until ``condition()`` holds."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        app.frame(block=False)
        time.sleep(0.01)
    return condition()
