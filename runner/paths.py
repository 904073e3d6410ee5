"""Where Arena keeps things: the user's data, and the bundled assets (also when frozen;
:mod:`games.assets`, the shared module, finds them and this module names the same functions).

Nothing is created at import time; folders are made when first written to.
The user's data folder is ``$ARENA_HOME`` when set, else the platform's data folder
(``~/.local/share/arena`` on Linux).
"""
from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from games.assets import app_root, asset  # noqa: F401 - the shared module's, named here too


def data_dir() -> Path:
    home = os.environ.get("ARENA_HOME")
    return Path(home) if home else Path(platformdirs.user_data_dir("arena", appauthor=False))


def records_dir() -> Path:
    """Where matches write their records by default."""
    return data_dir() / "records"


def settings_path() -> Path:
    return data_dir() / "settings.json"
