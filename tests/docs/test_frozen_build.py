"""The PyInstaller build: ``build.spec`` makes a one-folder ``arena`` that runs from anywhere.

Slow (a build takes about a minute), so marked ``slow``; CI still runs it.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXE_NAME = "arena.exe" if sys.platform == "win32" else "arena"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def frozen(tmp_path_factory) -> Path:
    """Build once for this module; the folder holding the ``arena`` program."""
    work = tmp_path_factory.mktemp("pyinstaller")
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "PyInstaller", str(ROOT / "build.spec"), "--noconfirm",
         "--distpath", str(work / "dist"), "--workpath", str(work / "build")],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    elapsed = time.perf_counter() - start
    assert result.returncode == 0, result.stderr[-4000:]
    print(f"\nPyInstaller build took {elapsed:.0f} s")
    folder = work / "dist" / "arena"
    assert (folder / EXE_NAME).exists()
    return folder


def run_frozen(folder: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", ARENA_HOME=str(cwd / "home"))
    return subprocess.run([str(folder / EXE_NAME), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def bundled_sample(folder: Path, elsewhere: Path) -> Path:
    """A Hex record shipped in the bundle's replays/ (or one made now if none is shipped)."""
    replays = folder / "_internal" / "replays"
    shipped = sorted(replays.glob("hex-sample*.arena.jsonl")) + sorted(replays.glob("hex*.arena.jsonl"))
    if shipped:
        return shipped[0]
    from games import registry
    from runner.match import Match
    from runner.seats import make_seat

    plugin = registry.plugin("hex")
    options = plugin.new_game().spec.resolve_options("7x7")
    record = elsewhere / "made.arena.jsonl"
    seats = [make_seat("bot:1", plugin, 7 + seat) for seat in range(2)]
    Match(plugin, options, seats, seed=7, variant="7x7", record_path=record).run()
    return record


def test_bundle_holds_the_data_files(frozen):
    internal = frozen / "_internal"            # sys._MEIPASS of a PyInstaller 6 one-folder app
    assert (internal / "assets" / "fonts" / "NotoSans-Regular.ttf").exists()
    assert (internal / "assets" / "pictures" / "hex.png").exists()
    assert any((internal / "pygame_gui" / "data").iterdir())
    for guide in ROOT.glob("games/*/*.md"):
        assert (internal / guide.relative_to(ROOT)).exists(), guide
    for folder in ("maps", "positions", "lib", "examples"):
        for source in ROOT.glob(f"games/*/{folder}/**/*"):
            if source.is_file() and "__pycache__" not in source.parts:
                assert (internal / source.relative_to(ROOT)).exists(), source


def test_frozen_render_from_another_folder(frozen, tmp_path):
    import pygame

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    record = bundled_sample(frozen, elsewhere)
    result = run_frozen(frozen, "render", str(record), "--turn", "3", "--out", "x.png", cwd=elsewhere)
    assert result.returncode == 0, result.stderr[-4000:]
    picture = pygame.image.load(str(elsewhere / "x.png"))
    assert picture.get_size() == (1280, 720)
    colours = {tuple(picture.get_at((x, y))) for x in range(0, 1280, 7) for y in range(0, 720, 7)}
    assert len(colours) > 50


def test_frozen_help_lists_the_commands(frozen, tmp_path):
    result = run_frozen(frozen, "--help", cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-4000:]
    for command in ("replay", "match", "render"):
        assert command in result.stdout


def test_frozen_headless_match_writes_its_records(frozen, tmp_path):
    """The runner, a bot and the record writers are found though only imported by name."""
    out = tmp_path / "match"
    result = run_frozen(frozen, "match", "hex", "--seat", "bot:1", "--seat", "bot:1", "--variant", "5x5",
                        "--seed", "3", "--headless", "--out", str(out), cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-4000:]
    assert list(out.glob("hex-*.arena.jsonl")) and (out / "result.json").exists()
