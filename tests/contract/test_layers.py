"""The layers the project promises, checked on the source with ``ast``:

* nothing under ``games/`` imports the ui (``import``, ``from``, or a string given to
  ``importlib.import_module``/``__import__``): a game's tools ask the shell for a window
  with :class:`games.registry.OpenWindow` instead;
* under ``games/`` only renderers (``games/**/render*.py`` and the kit ``games/render/``) import pygame;
* the runner imports neither pygame nor the ui;
* a rules module (``games/*/rules.py``) imports only the standard library and
  ``games.api``; the low modules ``games/api.py`` and ``games/fileio.py`` only the
  standard library.

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

#: Rules modules' imports that break the rule today and are reported, not yet fixed
#: (``{file: {module}}``).  A test below fails once an entry is no longer needed.


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
    and ``games.api``; the low modules ``games/api.py``, ``games/fileio.py``: beyond the
    standard library."""
    problems: dict[str, set[str]] = {}
    checked = [(p, True) for p in sorted((root / "games").glob("*/rules.py"))]
    checked += [(root / "games" / name, False) for name in ("api.py", "fileio.py")
                if (root / "games" / name).is_file()]
    for path, api_allowed in checked:
        for imp in imports_of(path, root):
            if imp.top in STDLIB or (api_allowed and imp.within("games.api")):
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


# ------------------------------------------------------------------ the project's own source
def test_games_and_runner_keep_their_layers():
    assert layer_violations() == []


def test_rules_modules_import_only_the_standard_library_and_the_api():
    assert rules_violations() == {}


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
