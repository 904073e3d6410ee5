"""``pip install .`` (not editable) gives an ``arena`` that works from any folder.

A fresh virtual environment gets the project installed the way a user would, then the
installed ``arena`` runs from an empty folder, with no ``PYTHONPATH``: ``--help``, a
headless match and a render of its record to a PNG (the render needs the fonts, so it
proves ``assets/`` was installed and is found).  The installed code must find its
``assets/``, ``replays/`` and game files beside itself in site-packages, exactly as in a
checkout and in the PyInstaller bundle (``runner.paths.app_root()``).

pip builds from a copy of the work tree, not from the checkout itself: an in-tree build
would leave ``build/`` and ``*.egg-info`` in the checkout, and setuptools packs whatever a
stale ``build/lib`` still holds.  Slow (about 15 s with the packages at hand; a cold
download of pygame-ce and friends takes longer), so marked ``slow``; CI still runs it.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WINDOWS = sys.platform == "win32"
BIN = "Scripts" if WINDOWS else "bin"
EXE = ".exe" if WINDOWS else ""

#: Never copied for the build: version control, virtual environments, build and test output.
SKIPPED = {".git", ".venv", "venv", "build", "dist", "__pycache__", ".pytest_cache", ".mypy_cache",
           ".ruff_cache", "out", "_tmp"}
#: The folders whose every file an installed Arena needs beside its code.
DATA_FOLDERS = ("assets", "replays", "games")
ORACLES = ("pyspiel", "open_spiel", "pyffish")

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

#: Run by the installed interpreter: where the code is, and what it can see.
PROBE = r"""
import importlib.util, json, sys
from pathlib import Path
import main
import runner.paths as paths
from games.registry import all_plugins

wanted = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
root = paths.app_root()
theme = json.loads(paths.asset("theme.json").read_text(encoding="utf-8"))
fonts = {value for block in theme.values() if isinstance(block, dict)
         for value in block.get("font", {}).values() if str(value).endswith((".ttf", ".otf"))}
print(json.dumps({
    "app_root": str(root),
    "code": [str(Path(module.__file__).resolve()) for module in (main, paths)],
    "missing": [name for name in wanted if not (root / name).is_file()],
    "theme_fonts_missing": sorted(f for f in fonts if not paths.asset(*f.split("/")).is_file()),
    "games": [plugin.name for plugin in all_plugins()],
    "oracles": [name for name in %r if importlib.util.find_spec(name) is not None],
}))
""" % (ORACLES,)


def _ignore(folder: str, names: list[str]) -> set[str]:
    skipped = set()
    for name in names:
        path = Path(folder, name)
        if (name in SKIPPED or name.endswith((".egg-info", ".pyc"))
                or (path.is_dir() and (path / "pyvenv.cfg").exists())):
            skipped.add(name)
    return skipped


def _data_files() -> list[str]:
    """Every file of the checkout under DATA_FOLDERS, relative to the checkout ('/'-separated).

    The files git tracks when this is a git checkout (so build litter in a developer's tree
    does not count), else every file but caches.
    """
    try:
        listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "--", *DATA_FOLDERS],
                                capture_output=True, text=True, timeout=60, check=True).stdout.split()
        listed = [name for name in listed if (ROOT / name).is_file()]   # deleted but not committed
    except (OSError, subprocess.SubprocessError):
        listed = []
    if not listed:
        listed = [path.relative_to(ROOT).as_posix() for folder in DATA_FOLDERS
                  for path in (ROOT / folder).rglob("*") if path.is_file()]
    return sorted(name for name in listed if "__pycache__" not in name and not name.endswith(".pyc"))


def _env(home: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "VIRTUAL_ENV")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", ARENA_HOME=str(home),
               PYTHONNOUSERSITE="1")
    return env


class Installed:
    def __init__(self, base: Path):
        self.venv = base / "venv"
        self.elsewhere = base / "elsewhere"        # the working folder of every command: not the checkout
        self.elsewhere.mkdir()
        self.env = _env(base / "arena-home")

    def run(self, program: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.venv / BIN / (program + EXE)), *args], cwd=self.elsewhere,
                              env=self.env, capture_output=True, text=True, timeout=timeout)

    def arena(self, *args: str) -> subprocess.CompletedProcess:
        result = self.run("arena", *args)
        assert result.returncode == 0, f"arena {' '.join(args)}\n{result.stdout[-2000:]}\n{result.stderr[-4000:]}"
        return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    base = tmp_path_factory.mktemp("install")
    source = base / "source"
    start = time.perf_counter()
    shutil.copytree(ROOT, source, ignore=_ignore, symlinks=True)
    site = Installed(base)
    made = subprocess.run([sys.executable, "-m", "venv", str(site.venv)], cwd=site.elsewhere,
                          env=site.env, capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr[-4000:]
    made_at = time.perf_counter()
    pip = site.run("python", "-m", "pip", "install", "--disable-pip-version-check", str(source), timeout=900)
    assert pip.returncode == 0, pip.stdout[-4000:] + pip.stderr[-4000:]
    print(f"\nfresh venv {made_at - start:.1f} s, pip install {time.perf_counter() - made_at:.1f} s")
    return site


@pytest.fixture(scope="module")
def probe(installed) -> dict:
    wanted = installed.elsewhere / "wanted.json"
    wanted.write_text(json.dumps(_data_files()), encoding="utf-8")
    result = installed.run("python", "-c", PROBE, str(wanted))
    assert result.returncode == 0, result.stderr[-4000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_installed_code_is_not_the_checkout(installed, probe):
    root = Path(probe["app_root"]).resolve()
    assert root.is_relative_to(installed.venv.resolve()), root
    assert not root.is_relative_to(ROOT), root
    for module in probe["code"]:
        assert Path(module).is_relative_to(installed.venv.resolve()), module


def test_every_data_file_is_installed_beside_the_code(probe):
    """assets/ (fonts, pictures, theme), replays/ samples, games' guides, maps, positions, HexLib."""
    wanted = _data_files()
    assert "assets/theme.json" in wanted and any(n.startswith("replays/") for n in wanted)
    assert probe["missing"] == []
    assert probe["theme_fonts_missing"] == []


def test_test_only_oracles_are_not_installed(probe):
    assert probe["oracles"] == []


def test_help_lists_the_commands_and_games(installed, probe):
    assert {"hex", "xiangqi", "robot"} <= set(probe["games"])
    text = installed.arena("--help").stdout
    for command in ("replay", "match", "render", "export"):
        assert command in text
    text = installed.arena("match", "--help").stdout
    for game in probe["games"]:
        assert game in text


def _assert_picture(path: Path) -> None:
    import pygame

    assert path.is_file() and path.stat().st_size > 10_000
    picture = pygame.image.load(str(path))
    assert picture.get_size() == (1280, 720)
    colours = {tuple(picture.get_at((x, y))) for x in range(0, 1280, 7) for y in range(0, 720, 7)}
    assert len(colours) > 50


def test_headless_match_then_render_its_record(installed):
    out = installed.elsewhere / "out"
    installed.arena("match", "hex", "--variant", "5x5", "--seat", "bot:1", "--seat", "bot:1",
                    "--seed", "3", "--headless", "--out", str(out))
    records = sorted(out.glob("*.arena.jsonl"))
    assert records and (out / "result.json").exists()
    assert json.loads((out / "result.json").read_text(encoding="utf-8"))
    installed.arena("render", str(records[0]), "--out", "match.png")
    _assert_picture(installed.elsewhere / "match.png")


def test_render_a_shipped_sample(installed, probe):
    samples = sorted((Path(probe["app_root"]) / "replays").glob("*.arena.jsonl"))
    if not samples:
        pytest.skip("no sample record in replays/")
    installed.arena("render", str(samples[0]), "--turn", "3", "--out", "sample.png")
    _assert_picture(installed.elsewhere / "sample.png")
