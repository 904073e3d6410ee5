"""What a bot level is worth, in words, for the New match form.

The figures come from the game's measured ladder (``games/<game>/levels.json``, made by
``bench/level_ladder.py``; see :mod:`runner.levels`): "Strength: club player; scores 85%
against level 2; even with ElephantEye depth 3", in the interface's language.  A game
without a ladder shows nothing; one whose file cannot be read shows nothing either
(the form must open), and the reason is logged once.
"""
from __future__ import annotations

import logging
from runner.i18n import _
from runner.levels import LevelsFileError, levels_path, read_levels, strength_text

#: Design height of the strength line under a bot seat's row, and its width (from the
#: seat's name to the right edge of the seat's menus).
STRENGTH_ROW = 24
STRENGTH_WIDTH = 588

log = logging.getLogger(__name__)
_read: dict[str, tuple[float, dict]] = {}       # game -> (file's mtime, its levels)


def game_levels(game: str) -> dict[int, dict]:
    """The game's measured levels (re-read when the file changes), or {}."""
    try:
        path = levels_path(game)
        stamp = path.stat().st_mtime if path.is_file() else -1.0
    except (ImportError, OSError):
        return {}
    cached = _read.get(game)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    levels: dict[int, dict] = {}
    if stamp >= 0:
        try:
            levels = read_levels(path)
        except (LevelsFileError, OSError, UnicodeDecodeError) as exc:
            log.warning("the level strengths are not shown: %s", exc)
    _read[game] = (stamp, levels)
    return levels


def level_strength(game: str, level: int) -> str:
    """The strength line of ``game``'s bot ``level`` in the interface's language, or ""
    when the game has no measured ladder for it."""
    entry = game_levels(game).get(level)
    if not entry:
        return ""
    words = strength_text(entry, _)
    return _("Strength: {words}").format(words=words) if words else ""


def strength_row(game: str, kind: str) -> int:
    """Design height a seat of ``kind`` needs for its strength line: bots of a game with
    a measured ladder get :data:`STRENGTH_ROW`, other seats none."""
    return STRENGTH_ROW if kind == "bot" and game_levels(game) else 0
