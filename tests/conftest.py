"""Test-wide settings: no window ever opens, and no test writes into the real user folder."""
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
#: The tests' shared helpers (``tests/support/``: ui input, waiting, the command line, seat
#: commands, toy games, ...), importable by module name from every test file.
SUPPORT = ROOT / "tests" / "support"
for folder in (SUPPORT, ROOT):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def arena_home(tmp_path, monkeypatch):
    """Every test gets its own ARENA_HOME (settings, records)."""
    home = tmp_path / "arena-home"
    monkeypatch.setenv("ARENA_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def english_interface(monkeypatch):
    """Tests read the English interface whatever the machine's locale (tests of the
    language itself set it), and a test that switches language does not leak it."""
    from runner import i18n
    monkeypatch.setenv("LANGUAGE", "en")
    yield
    i18n.set_language("en")


@pytest.fixture
def broken_game(tmp_path, monkeypatch):
    """``broken_game(name, init_source, files)``: a game package ``games.NAME`` that exists
    (in a temporary folder added to ``games.__path__``) and is listed in
    ``registry.GAME_PACKAGES``, with the given ``__init__.py`` (by default, one bad import)
    and other files ``{relative path: text}``."""
    import importlib

    import games
    from games import registry

    folder = tmp_path / "more-games" / "games"
    made = []

    def make(name: str = "brokenx", source: str | None = None, files: dict | None = None) -> str:
        package = folder / name
        package.mkdir(parents=True)
        (package / "__init__.py").write_text(
            source if source is not None else f"from games.{name}.rulez import Game   # a typo\n",
            encoding="utf-8")
        for relative, text in (files or {}).items():
            (package / relative).write_text(text, encoding="utf-8")
        if str(folder) not in games.__path__:
            monkeypatch.setattr(games, "__path__", [*games.__path__, str(folder)])
        if name not in registry.GAME_PACKAGES:
            monkeypatch.setattr(registry, "GAME_PACKAGES", (*registry.GAME_PACKAGES, name))
        importlib.invalidate_caches()
        made.append(name)
        return name

    yield make
    for name in made:
        for module in [m for m in sys.modules if m == f"games.{name}" or m.startswith(f"games.{name}.")]:
            del sys.modules[module]


@pytest.fixture(scope="module")
def pygame_ready():
    """pygame initialised for a module that draws offscreen (fonts, surfaces); a module
    asks for it with ``pytestmark = pytest.mark.usefixtures("pygame_ready")``."""
    import pygame
    pygame.init()
    yield


#: Where the long tests live, marked ``slow`` as a whole: the hostile-program suite (every
#: attack at both sandbox levels) and the fuzzers.  ``pytest -m "not slow"`` is the quick
#: subset for daily work; CI runs everything.
SLOW_FOLDERS = ("hostile", "fuzz")


def pytest_collection_modifyitems(items):
    for item in items:
        parts = Path(str(item.path)).resolve().relative_to(ROOT).parts
        if len(parts) > 2 and parts[0] == "tests" and parts[1] in SLOW_FOLDERS:
            item.add_marker(pytest.mark.slow)
