"""Test-wide settings: no window ever opens, and no test writes into the real user folder."""
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def arena_home(tmp_path, monkeypatch):
    """Every test gets its own ARENA_HOME (settings, records)."""
    home = tmp_path / "arena-home"
    monkeypatch.setenv("ARENA_HOME", str(home))
    return home
