"""The test-only oracles (OpenSpiel, pyffish) and tools stay test-only.

``open-spiel`` and ``pyffish`` are in the ``test`` extra of ``pyproject.toml`` so the tests
can check our rules against them; an installed Arena has neither, so the application
(``games/``, ``runner/``, ``ui/``, ``main.py``) must never import them, not even lazily.
"""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ORACLES = ("pyspiel", "open_spiel", "pyffish")
TEST_ONLY = ("open-spiel", "pyffish", "pytest", "pytest-timeout", "pyinstaller", "hypothesis")
#: A string that names an oracle module, as given to importlib or a plugin's "module:attribute".
NAMES_AN_ORACLE = re.compile(r"(%s)([.:][\w.:]*)?" % "|".join(ORACLES))


def app_sources() -> list[Path]:
    files = [ROOT / "main.py"]
    for folder in ("games", "runner", "ui"):
        files += sorted(p for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)
    return files


def oracle_uses(source: str, label: str) -> list[str]:
    """Each import of an oracle in ``source``, and each string naming one, as 'label:line: name'."""
    found = []
    for node in ast.walk(ast.parse(source, label)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if node.level == 0 else []
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names = [node.value.strip()] if NAMES_AN_ORACLE.fullmatch(node.value.strip()) else []
        else:
            continue
        found += [f"{label}:{node.lineno}: {name}" for name in names
                  if name.split(".")[0].split(":")[0] in ORACLES]
    return found


def test_the_application_never_imports_an_oracle():
    sources = app_sources()
    assert len(sources) > 20
    uses = [use for path in sources
            for use in oracle_uses(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert uses == []


def test_the_scan_sees_every_way_of_importing():
    text = ("import pyspiel\nfrom open_spiel.python import rl_environment\nimport os, pyffish as sf\n"
            "importlib.import_module('pyspiel')\nPART = 'pyffish:legal_moves'\n"
            "DOC = 'pyffish is only an oracle'\nfrom . import pyffish_like\n")
    assert len(oracle_uses(text, "probe.py")) == 5


def test_loading_every_game_part_imports_no_oracle():
    """The command line, every plugin's parts (renderers too) and the shell, in a fresh process."""
    script = (
        "import sys\n"
        "import main\n"
        "main.build_parser()\n"
        "from games.registry import all_plugins\n"
        "for plugin in all_plugins():\n"
        "    for part in ('game', 'bot', 'external', 'readers', 'writers', 'exports', 'renderer', 'cli',\n"
        "                 *plugin.extra_seats):\n"
        "        if part in plugin.extra_seats or getattr(plugin, part) is not None:\n"
        "            plugin.load(part)\n"
        "import ui.app\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {ORACLES!r}))\n")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-4000:]
    assert result.stdout.strip().splitlines()[-1] == "[]"


def test_test_only_packages_are_not_application_dependencies():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = {re.split(r"[<>=!~;\[ ]", spec, maxsplit=1)[0].strip().lower().replace("_", "-")
             for spec in project["dependencies"]}
    assert names.isdisjoint(TEST_ONLY), names
    test_extra = " ".join(project["optional-dependencies"]["test"]).lower()
    assert "open-spiel" in test_extra and "pyffish" in test_extra
