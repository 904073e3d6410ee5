"""Where Arena keeps things: bundled assets (also when frozen) and the user's data.

Nothing is created at import time; folders are made when first written to.
The user's data folder is ``$ARENA_HOME`` when set, else the platform's data folder
(``~/.local/share/arena`` on Linux).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs


def app_root() -> Path:
    """The folder holding ``assets/``, ``games/`` and ``replays/``: the parent of ``runner/``.

    That is the checkout, or site-packages when installed (``pyproject.toml`` installs
    ``assets/`` and ``replays/`` beside the packages), or ``sys._MEIPASS`` when frozen
    (``build.spec`` puts them at the same relative paths).
    """
    frozen = getattr(sys, "_MEIPASS", None)
    return Path(frozen) if frozen else Path(__file__).resolve().parent.parent


def asset(*parts: str) -> Path:
    return app_root().joinpath("assets", *parts)


def data_dir() -> Path:
    home = os.environ.get("ARENA_HOME")
    return Path(home) if home else Path(platformdirs.user_data_dir("arena", appauthor=False))


def records_dir() -> Path:
    """Where matches write their records by default."""
    return data_dir() / "records"


def settings_path() -> Path:
    return data_dir() / "settings.json"
