"""The layers the project promises, checked on the source with ``ast``:

* nothing under ``games/`` imports the ui (``import``, ``from``, or a string given to
  ``importlib.import_module``/``__import__``): a game's tools ask the shell for a window
  with :class:`games.registry.OpenWindow` instead;
* under ``games/`` only renderers (``games/**/render*.py`` and the kit ``games/render/``) import pygame;
* the runner imports neither pygame nor the ui;
* a rules module (``games/*/rules.py``) imports only the standard library and
  ``games.api``; the low modules ``games/api.py``, ``games/fileio.py`` and
  ``games/assets.py`` only the standard library, the contract's seat half
  ``games/seat.py`` also ``games.api``, the shared language ``games/language.py`` also
  ``games.assets`` (where its catalogs are);
* rules and protocol modules (``games/*/protocol.py``, ``games/xiangqi/movefiles.py``) are
  pure: no files, clocks, processes or threads (a protocol module imports only the
  standard library, ``games.api`` and its own game's rules);
* the runner names no game: it imports no game package (``games.hex`` ...) and no
  string in its code is a game's name; it reaches the games through ``games.registry``;
* the ui imports no game package either (only the shared ``games`` modules: the API,
  the registry, the renderers' kit, records, file utilities);
* a renderer (``games/**/render*.py``, the kit ``games/render/``) imports only the
  standard library, pygame, ``games.api``, the kit, its own game's modules, the
  shared modules both layers import for the interface's language and the bundled assets
  (``games.language``, ``games.assets``) and, from the runner, only the referee's message
  templates (``runner.messages``: an old record's text read back).

Each check is a function of a source root, so the tests at the end can run it on a
throwaway tree with forbidden imports and see it fail.
"""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STDLIB = frozenset(sys.stdlib_module_names)
PYGAME = frozenset({"pygame", "pygame_gui"})
DYNAMIC_IMPORTERS = frozenset({"import_module", "__import__"})

#: Standard modules that reach the world (files, clocks, processes, threads, the
#: network): never in a rules or protocol module.  ``pathlib`` is allowed for its pure
#: paths only (``PurePath``: a map's name from its path).
WORLD = frozenset({"os", "io", "time", "datetime", "subprocess", "socket", "shutil", "tempfile", "glob",
                   "threading", "multiprocessing", "asyncio", "signal", "select", "urllib", "http", "sqlite3"})
PURE_PATHS = frozenset({"pathlib.PurePath", "pathlib.PurePosixPath", "pathlib.PureWindowsPath"})
#: What a renderer may import from the runner: the referee's message templates (to read an
#: old record's text back); the language and the assets are the shared modules' below.
RENDER_FROM_RUNNER = ("runner.messages",)
#: Shared modules of ``games/`` a renderer may import besides the kit and its own game: the
#: API, the kit, and the language and assets both layers import.
RENDER_FROM_GAMES = ("games.api", "games.render", "games.language", "games.assets")
#: The low shared modules of ``games/`` and what each may import beyond the standard library.
LOW_MODULES = {"api.py": (), "fileio.py": (), "assets.py": (), "seat.py": ("games.api",),
               "language.py": ("games.assets",)}


@dataclass(frozen=True)
class Imported:
    """One module a file imports: its dotted name (for ``from a import b``: ``a.b``)."""

    name: str
    line: int
    how: str          # "import", "from", "import_module", "__import__"

    @property
    def top(self) -> str:
        return self.name.split(".")[0]

    def within(self, module: str) -> bool:
        return self.name == module or self.name.startswith(module + ".")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _package_of(path: Path, root: Path) -> str:
    name = module_name(path, root)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _literal_prefix(node: ast.expr) -> str | None:
    """The module name a dynamic import's argument gives, or its leading literal part."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str) and "." in first.value:
            return first.value.rpartition(".")[0]          # f"ui.{x}" -> "ui"
    return None


def imports_of(path: Path, root: Path = ROOT) -> list[Imported]:
    """Every import in ``path``: static ones anywhere in the file (relative ones made
    absolute), and the literal module names given to ``import_module(...)`` or ``__import__(...)``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Imported(alias.name, node.lineno, "import") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = _package_of(path, root).split(".")
                package = package[:len(package) - (node.level - 1)]
                base = ".".join(p for p in [*package, base] if p)
            if base == "__future__":
                continue
            found += [Imported(f"{base}.{alias.name}" if alias.name != "*" else base, node.lineno, "from")
                      for alias in node.names]
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if called in DYNAMIC_IMPORTERS:
                name = _literal_prefix(node.args[0])
                if name:
                    found.append(Imported(name, node.lineno, called))
    return sorted(found, key=lambda imp: imp.line)


def python_files(root: Path, folder: str) -> list[Path]:
    return sorted(p for p in (root / folder).rglob("*.py") if "__pycache__" not in p.parts)


def _where(path: Path, root: Path, imp: Imported) -> str:
    return f"{path.relative_to(root).as_posix()}:{imp.line}: {imp.how} {imp.name}"


def is_renderer(path: Path, root: Path) -> bool:
    """A game's ``render*.py``, or a module of the renderers' shared kit ``games/render/``."""
    parts = path.relative_to(root).parts
    return parts[0] == "games" and (path.name.startswith("render") or parts[1:2] == ("render",))


def layer_violations(root: Path = ROOT) -> list[str]:
    """games/ never imports the ui; only renderers import pygame; runner/ imports neither."""
    problems = []
    for path in python_files(root, "games"):
        for imp in imports_of(path, root):
            if imp.top == "ui":
                problems.append(_where(path, root, imp) + "  (games never import the ui)")
            elif imp.top in PYGAME and not is_renderer(path, root):
                problems.append(_where(path, root, imp) + "  (only games/**/render*.py use pygame)")
    for path in python_files(root, "runner"):
        for imp in imports_of(path, root):
            if imp.top == "ui" or imp.top in PYGAME:
                problems.append(_where(path, root, imp) + "  (the runner never imports pygame or the ui)")
    return problems


def rules_violations(root: Path = ROOT) -> dict[str, set[str]]:
    """``{rules file: {module}}``: what a rules module imports beyond the standard library
    and ``games.api``; the low shared modules (:data:`LOW_MODULES`): beyond the standard
    library and what the table allows each."""
    problems: dict[str, set[str]] = {}
    checked = [(p, ("games.api",)) for p in sorted((root / "games").glob("*/rules.py"))]
    checked += [(root / "games" / name, allowed) for name, allowed in LOW_MODULES.items()
                if (root / "games" / name).is_file()]
    for path, allowed in checked:
        for imp in imports_of(path, root):
            if imp.top in STDLIB or any(imp.within(m) for m in allowed):
                continue
            problems.setdefault(path.relative_to(root).as_posix(), set()).add(
                imp.name if imp.top != "games" or imp.how != "from" else _module_part(imp.name, root))
    return problems


def _module_part(name: str, root: Path) -> str:
    """``games.robot.maps.parse_map`` -> ``games.robot.maps`` (the longest part that is a module)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = root.joinpath(*parts[:end])
        if candidate.with_suffix(".py").is_file() or (candidate / "__init__.py").is_file():
            return ".".join(parts[:end])
    return name


def game_packages(root: Path) -> set[str]:
    """The game packages: ``games/<name>/__init__.py``, the renderers' kit excepted."""
    return {p.name for p in (root / "games").iterdir()
            if (p / "__init__.py").is_file() and p.name != "render"}


def _game_of(imp: Imported, games: set[str]) -> str | None:
    """The game package ``imp`` reaches into (``games.hex.rules`` -> ``hex``), or None."""
    parts = imp.name.split(".")
    return parts[1] if parts[0] == "games" and len(parts) > 1 and parts[1] in games else None


def _strings(path: Path) -> list[ast.Constant]:
    """The string constants of a module's code (docstrings left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [node for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs]


def game_name_violations(root: Path = ROOT) -> list[str]:
    """The runner imports no game package and no string in its code names one; the ui
    imports no game package (both reach the games through ``games.registry``)."""
    games = game_packages(root)
    problems = []
    for folder, why in (("runner", "the runner names no game"), ("ui", "the ui imports no game package")):
        for path in python_files(root, folder):
            for imp in imports_of(path, root):
                if _game_of(imp, games):
                    problems.append(_where(path, root, imp) + f"  ({why})")
    for path in python_files(root, "runner"):
        for node in _strings(path):
            if node.value in games or _game_of(Imported(node.value, node.lineno, "string"), games):
                problems.append(f"{path.relative_to(root).as_posix()}:{node.lineno}: string {node.value!r}"
                                "  (the runner names no game)")
    return sorted(problems)


def purity_violations(root: Path = ROOT) -> list[str]:
    """Rules and protocol modules touch no files, clocks, processes or threads; a protocol
    module imports only the standard library, ``games.api`` and its own game's rules."""
    games = game_packages(root)
    problems = []
    rules = sorted((root / "games").glob("*/rules.py"))
    protocols = sorted((root / "games").glob("*/protocol.py"))
    protocols += [p for p in [root / "games" / "xiangqi" / "movefiles.py"] if p.is_file()]
    for path in rules + protocols:
        own = path.parent.name
        for imp in imports_of(path, root):
            if imp.top in WORLD or (imp.top == "pathlib" and imp.name not in PURE_PATHS):
                problems.append(_where(path, root, imp) + "  (rules and protocols are pure: no files or clocks)")
            elif path in protocols and imp.top not in STDLIB and not imp.within("games.api") \
                    and not (_game_of(imp, games) == own and imp.within(f"games.{own}.rules")):
                problems.append(_where(path, root, imp) + "  (a protocol imports the API and its game's rules only)")
    return problems


def render_violations(root: Path = ROOT) -> dict[str, set[str]]:
    """``{renderer: {module}}``: what a renderer imports beyond the standard library,
    pygame, ``games.api``, the kit, its own game, the shared language and assets and the
    runner's message templates."""
    games = game_packages(root)
    problems: dict[str, set[str]] = {}
    for path in python_files(root, "games"):
        if not is_renderer(path, root):
            continue
        own = path.relative_to(root).parts[1]
        for imp in imports_of(path, root):
            if (imp.top in STDLIB or imp.top == "pygame" or _game_of(imp, games) == own
                    or any(imp.within(m) for m in RENDER_FROM_GAMES + RENDER_FROM_RUNNER)):
                continue
            name = _module_part(imp.name, root) if imp.how == "from" else imp.name
            problems.setdefault(path.relative_to(root).as_posix(), set()).add(name)
    return problems


# ------------------------------------------------------------------ the project's own source
def test_games_and_runner_keep_their_layers():
    assert layer_violations() == []


def test_rules_modules_import_only_the_standard_library_and_the_api():
    assert rules_violations() == {}


def test_the_runner_names_no_game_and_the_ui_imports_no_game_package():
    assert game_name_violations() == []


def test_rules_and_protocols_are_pure():
    assert purity_violations() == []


def test_renderers_import_only_what_the_readme_allows():
    assert render_violations() == {}


def test_the_seat_contract_is_one_class_for_both_layers():
    """``runner.seats`` names the contract's seat half from ``games.seat``, not a copy."""
    import games.seat
    import runner.seats
    for name in ("Answer", "SeatInfo", "Seat"):
        assert getattr(runner.seats, name) is getattr(games.seat, name), name


def test_the_window_commands_return_a_request_and_import_no_ui(tmp_path):
    """``xiangqi cc`` without --headless asks the shell for the window; the game's code
    itself loads neither the ui nor pygame (a bad PLAY.INI: the error match, exit code 2)."""
    (tmp_path / "PLAY.INI").write_text("ROBOT\nHUMAN\n")
    code = (
        "import argparse, sys\n"
        "from games.registry import OpenWindow\n"
        "from games.xiangqi.contest import register\n"
        "parser = argparse.ArgumentParser(); register(parser.add_subparsers())\n"
        f"args = parser.parse_args(['cc', '--folder', {str(tmp_path)!r}])\n"
        "result = args.func(args)\n"
        "assert isinstance(result, OpenWindow) and result.exit_code == 2, result\n"
        "assert result.match.error, result.match\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('ui', 'pygame', 'pygame_gui'))\n"
        "assert not loaded, loaded\n"
        "print('ok')\n")
    env = {**os.environ, "ARENA_HOME": str(tmp_path / "home")}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0 and "ok" in result.stdout, result.stderr


# ------------------------------------------------------------------ the checker can fail
def _write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_the_layer_check_sees_every_kind_of_forbidden_import(tmp_path):
    _write(tmp_path, "games/__init__.py", "")
    _write(tmp_path, "games/fake/__init__.py", "")
    _write(tmp_path, "games/fake/render.py", "import pygame\n")                  # allowed
    _write(tmp_path, "games/fake/tools.py",
           "import importlib\n"
           "def show():\n"
           "    importlib.import_module('ui.app').run_app(None)\n"
           "    __import__('ui.scenes.home')\n")
    _write(tmp_path, "games/fake/window.py", "from ui.app import run_app\nimport ui\n")
    _write(tmp_path, "games/fake/lazy.py", "def f(name):\n    from importlib import import_module\n"
           "    return import_module(f'ui.{name}')\n")
    _write(tmp_path, "games/fake/board.py", "def draw():\n    import pygame.draw\n")
    _write(tmp_path, "runner/__init__.py", "")
    _write(tmp_path, "runner/loop.py", "from pygame_gui import UIManager\nfrom ui import theme\n")
    found = layer_violations(tmp_path)
    assert found == [
        "games/fake/board.py:2: import pygame.draw  (only games/**/render*.py use pygame)",
        "games/fake/lazy.py:3: import_module ui  (games never import the ui)",
        "games/fake/tools.py:3: import_module ui.app  (games never import the ui)",
        "games/fake/tools.py:4: __import__ ui.scenes.home  (games never import the ui)",
        "games/fake/window.py:1: from ui.app.run_app  (games never import the ui)",
        "games/fake/window.py:2: import ui  (games never import the ui)",
        "runner/loop.py:1: from pygame_gui.UIManager  (the runner never imports pygame or the ui)",
        "runner/loop.py:2: from ui.theme  (the runner never imports pygame or the ui)",
    ]


def test_the_rules_check_sees_a_rules_module_reaching_past_the_api(tmp_path):
    _write(tmp_path, "games/__init__.py", "")
    _write(tmp_path, "games/api.py", "import abc\n")
    _write(tmp_path, "games/fileio.py", "import os\nimport psutil\n")
    _write(tmp_path, "games/registry.py", "")
    _write(tmp_path, "games/fake/__init__.py", "")
    _write(tmp_path, "games/fake/maps.py", "")
    _write(tmp_path, "games/fake/rules.py",
           "from __future__ import annotations\nimport random\n"
           "from games.api import Game\nfrom games import api\n"        # allowed
           "from games.registry import GamePlugin\n"
           "def load():\n    from . import maps\n    from .maps import parse\n"
           "import numpy\n")
    _write(tmp_path, "games/clean/rules.py", "import re\nfrom games.api import State\n")
    assert rules_violations(tmp_path) == {
        "games/fake/rules.py": {"games.registry", "games.fake.maps", "numpy"},
        "games/fileio.py": {"psutil"},
    }


def test_relative_imports_are_made_absolute(tmp_path):
    _write(tmp_path, "games/fake/__init__.py", "from . import rules\nfrom .. import registry\n")
    _write(tmp_path, "games/fake/sub/tool.py", "from ...registry import load\nfrom ..rules import X\n")
    assert [i.name for i in imports_of(tmp_path / "games/fake/__init__.py", tmp_path)] == [
        "games.fake.rules", "games.registry"]
    assert [i.name for i in imports_of(tmp_path / "games/fake/sub/tool.py", tmp_path)] == [
        "games.registry.load", "games.fake.rules.X"]


def test_the_game_name_check_sees_the_runner_or_the_ui_reaching_a_game(tmp_path):
    _write(tmp_path, "games/__init__.py", "")
    _write(tmp_path, "games/fake/__init__.py", "")
    _write(tmp_path, "games/render/__init__.py", "")
    _write(tmp_path, "runner/__init__.py", "")
    _write(tmp_path, "runner/ok.py", '"""Plays fake, say."""\nfrom games.registry import plugin\nNAME = "other"\n')
    _write(tmp_path, "runner/bad.py", "from games.fake.rules import FakeState\nGAME = 'fake'\n"
           "def f():\n    import importlib\n    return importlib.import_module('games.fake.bot')\n")
    _write(tmp_path, "ui/__init__.py", "")
    _write(tmp_path, "ui/ok.py", "from games.render import font\nfrom games import registry\n")
    _write(tmp_path, "ui/bad.py", "import games.fake.render\n")
    assert game_name_violations(tmp_path) == [
        "runner/bad.py:1: from games.fake.rules.FakeState  (the runner names no game)",
        "runner/bad.py:2: string 'fake'  (the runner names no game)",
        "runner/bad.py:5: import_module games.fake.bot  (the runner names no game)",
        "runner/bad.py:5: string 'games.fake.bot'  (the runner names no game)",
        "ui/bad.py:1: import games.fake.render  (the ui imports no game package)",
    ]


def test_the_purity_check_sees_files_clocks_and_foreign_imports(tmp_path):
    _write(tmp_path, "games/__init__.py", "")
    for game in ("fake", "other"):
        _write(tmp_path, f"games/{game}/__init__.py", "")
        _write(tmp_path, f"games/{game}/rules.py", "")
    _write(tmp_path, "games/fake/rules.py", "import re\nfrom pathlib import PurePath\nimport time\n"
           "from pathlib import Path\n")
    _write(tmp_path, "games/fake/protocol.py", "import re\nfrom games.api import Move\n"
           "from games.fake.rules import FakeState\nfrom . import rules\nimport os.path\n"
           "from games.other.rules import X\nfrom games.registry import plugin\nimport numpy\n")
    assert purity_violations(tmp_path) == [
        "games/fake/rules.py:3: import time  (rules and protocols are pure: no files or clocks)",
        "games/fake/rules.py:4: from pathlib.Path  (rules and protocols are pure: no files or clocks)",
        "games/fake/protocol.py:5: import os.path  (rules and protocols are pure: no files or clocks)",
        "games/fake/protocol.py:6: from games.other.rules.X  (a protocol imports the API and its game's rules only)",
        "games/fake/protocol.py:7: from games.registry.plugin  (a protocol imports the API and its game's rules only)",
        "games/fake/protocol.py:8: import numpy  (a protocol imports the API and its game's rules only)",
    ]


def test_the_render_check_sees_a_renderer_reaching_past_what_it_may(tmp_path):
    _write(tmp_path, "games/__init__.py", "")
    _write(tmp_path, "games/render/__init__.py", "import pygame\nfrom games.language import _\n"
           "from games.assets import asset\nfrom runner.i18n import ngettext\nfrom runner.paths import data_dir\n")
    for game in ("fake", "other"):
        _write(tmp_path, f"games/{game}/__init__.py", "")
        _write(tmp_path, f"games/{game}/rules.py", "")
    _write(tmp_path, "games/other/render.py", "")
    _write(tmp_path, "runner/__init__.py", "")
    _write(tmp_path, "runner/match.py", "")
    _write(tmp_path, "games/fake/render.py", "import math\nimport pygame\nfrom games.api import State\n"
           "from games.render import font\nfrom games.fake.rules import FakeState\n"
           "from runner.messages import translated\n"                              # allowed so far
           "from runner.match import Match\nfrom games.other.render import helper\nimport pygame_gui\n")
    _write(tmp_path, "games/registry.py", "")
    _write(tmp_path, "games/fake/render_panel.py", "from games.registry import plugin\n")
    _write(tmp_path, "games/language.py", "")
    _write(tmp_path, "games/assets.py", "")
    _write(tmp_path, "runner/i18n.py", "")
    _write(tmp_path, "runner/paths.py", "")
    assert render_violations(tmp_path) == {
        "games/render/__init__.py": {"runner.i18n", "runner.paths"},    # the language is the shared module's
        "games/fake/render.py": {"runner.match", "games.other.render", "pygame_gui"},
        "games/fake/render_panel.py": {"games.registry"},
    }


def test_the_seat_contract_imports_only_the_standard_library_and_the_api(tmp_path):
    _write(tmp_path, "games/__init__.py", "")
    _write(tmp_path, "games/api.py", "")
    _write(tmp_path, "games/seat.py", "import abc\nfrom games.api import State\nfrom runner.i18n import _\n")
    _write(tmp_path, "runner/__init__.py", "")
    _write(tmp_path, "runner/i18n.py", "")
    assert rules_violations(tmp_path) == {"games/seat.py": {"runner.i18n._"}}


def test_the_shared_language_and_assets_reach_nothing_but_each_other(tmp_path):
    _write(tmp_path, "games/__init__.py", "")
    _write(tmp_path, "games/assets.py", "import sys\nimport platformdirs\n")
    _write(tmp_path, "games/language.py", "import gettext\nfrom games.assets import asset\n"
           "from runner.paths import data_dir\n")
    _write(tmp_path, "runner/__init__.py", "")
    _write(tmp_path, "runner/paths.py", "")
    assert rules_violations(tmp_path) == {"games/assets.py": {"platformdirs"},
                                          "games/language.py": {"runner.paths.data_dir"}}
