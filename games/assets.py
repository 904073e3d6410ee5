"""Where the bundled assets are (fonts, pictures, the translations), also when frozen.

A shared module of the contract: the renderers' kit, the language's catalogs
(:mod:`games.language`) and the runner (:mod:`runner.paths` names the same functions)
find the assets through it.  Standard library only; nothing is created at import time.
"""
from __future__ import annotations

import sys
from pathlib import Path


def app_root() -> Path:
    """The folder holding ``assets/``, ``games/`` and ``replays/``: the parent of ``games/``.

    That is the checkout, or site-packages when installed (``pyproject.toml`` installs
    ``assets/`` and ``replays/`` beside the packages), or ``sys._MEIPASS`` when frozen
    (``build.spec`` puts them at the same relative paths).
    """
    frozen = getattr(sys, "_MEIPASS", None)
    return Path(frozen) if frozen else Path(__file__).resolve().parent.parent


def asset(*parts: str) -> Path:
    """The bundled file or folder ``assets/<parts>``."""
    return app_root().joinpath("assets", *parts)
