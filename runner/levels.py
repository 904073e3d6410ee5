"""The measured strength of each game's bot levels: ``games/<game>/levels.json``.

``bench/level_ladder.py`` plays the levels against each other (and against a real
engine where one is installed) and writes the file; the New match form shows, beside
the level a player picks, what it says in words (:func:`strength_text`).

The file holds, per level: the seat it was measured as (fixed work: a depth, nodes,
playouts), its Elo above level 1 with the 95 % interval, its score against the level
below and against the anchor engine, and a ``category`` - one of :data:`CATEGORIES`,
chosen by :func:`category` from the Elo above level 1 (bands of :data:`CATEGORY_BAND`);
for a solitaire, the mean score and its ratio to level 1 instead.

A file that cannot be read is an error naming the file, the line and what was expected
(:class:`LevelsFileError`); the form then shows no words rather than failing.
"""
from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from games.api import RecordFormatError
from runner.i18n import N_

LEVELS_FILE = "levels.json"

#: The words for a level's strength, weakest first: level 1 (random play) is "random",
#: the others go by their Elo above level 1, a category each :data:`CATEGORY_BAND` Elo.
CATEGORIES = {"random": N_("plays at random"), "beginner": N_("beginner"), "novice": N_("novice"),
              "casual": N_("casual player"), "club": N_("club player"), "strong": N_("strong"),
              "expert": N_("expert")}
CATEGORY_BAND = 400
BANDED = ("beginner", "novice", "casual", "club", "strong", "expert")

#: How a level's score against the one below it is said (``{score}``: a whole percent).
VERSUS_BELOW = N_("scores {score}% against level {below}")
EVEN_WITH = N_("even with {anchor}")
STRONGER_THAN = N_("stronger than {anchor}")
WEAKER_THAN = N_("weaker than {anchor}")
SOLITAIRE_MEAN = N_("about {points} points a game")
SOLITAIRE_RATIO = N_("{percent}% more than level 1")
SEPARATOR = "; "


class LevelsFileError(RecordFormatError):
    """A levels file that cannot be read (its path, line and what was expected)."""


def category(entry: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]) -> str:
    """The level's category: "random" for a random player, else by its Elo above level 1
    (below 400 "beginner", then "novice", "casual", "club", "strong", "expert")."""
    if entry.get("work", "").startswith("random"):
        return "random"
    if "elo" not in entry:
        return "beginner" if entry is entries[0] else "strong"
    band = int(max(0.0, entry["elo"]) // CATEGORY_BAND)
    return BANDED[min(band, len(BANDED) - 1)]


def strength_text(entry: Mapping[str, Any], translate: Callable[[str], str] = lambda text: text) -> str:
    """What a player reads about a level: its category, its score against the level
    below, how it stands against the anchor engine; for a solitaire, its mean score and
    how much more than level 1 it scores.  ``translate`` is the interface's ``_``."""
    parts = []
    if "mean" in entry:
        parts.append(translate(SOLITAIRE_MEAN).format(points=round(entry["mean"])))
        ratio = entry.get("ratio")
        if ratio and entry.get("level", 1) > 1:
            parts.append(translate(SOLITAIRE_RATIO).format(percent=round((ratio - 1) * 100)))
        return SEPARATOR.join(parts)
    name = entry.get("category")
    if name in CATEGORIES:
        parts.append(translate(CATEGORIES[name]))
    below = entry.get("vs_below")
    if below:
        parts.append(translate(VERSUS_BELOW).format(score=round(below["score"] * 100),
                                                    below=entry["level"] - 1))
    anchor = entry.get("vs_anchor")
    if anchor:
        if anchor["low95"] > 0.5:
            words = STRONGER_THAN
        elif anchor["high95"] < 0.5:
            words = WEAKER_THAN
        else:
            words = EVEN_WITH
        parts.append(translate(words).format(anchor=anchor["anchor"]))
    return SEPARATOR.join(parts)


def levels_path(game: str) -> Path:
    """Where a game keeps its ladder: ``games/<game>/levels.json``."""
    package = importlib.import_module(f"games.{game}")
    return Path(package.__file__).parent / LEVELS_FILE


def read_levels(path: str | Path) -> dict[int, dict[str, Any]]:
    """``{level: entry}`` from a levels file; :class:`LevelsFileError` names the file, the
    line and what was expected when it cannot be read."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[:exc.start].count(b"\n") + 1
        raise LevelsFileError(str(path), line, "text in UTF-8") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LevelsFileError(str(path), exc.lineno, f"a JSON object ({exc.msg})") from None
    if not isinstance(data, dict) or not isinstance(data.get("levels"), list):
        raise LevelsFileError(str(path), 1, 'a JSON object with a "levels" list')
    levels = {}
    for index, entry in enumerate(data["levels"]):
        line = _line_of(text, index)
        if not isinstance(entry, dict) or not isinstance(entry.get("level"), int) or entry["level"] < 1:
            raise LevelsFileError(str(path), line, f"levels[{index}]: an object with a whole \"level\" from 1")
        for key in ("elo", "elo95", "mean", "ratio"):
            if key in entry and not isinstance(entry[key], (int, float)):
                raise LevelsFileError(str(path), line, f"level {entry['level']}: {key} must be a number")
        for key in ("vs_below", "vs_anchor"):
            if key in entry and not _score(entry[key]):
                raise LevelsFileError(str(path), line, f"level {entry['level']}: {key} needs score, "
                                      "low95 and high95 (numbers from 0 to 1)")
        for key in ("work", "words", "measured_as"):
            if key in entry and not isinstance(entry[key], str):
                raise LevelsFileError(str(path), line, f"level {entry['level']}: {key} must be text")
        if "vs_anchor" in entry and not isinstance(entry["vs_anchor"].get("anchor"), str):
            raise LevelsFileError(str(path), line, f"level {entry['level']}: vs_anchor names its anchor")
        if "category" in entry and (not isinstance(entry["category"], str)
                                    or entry["category"] not in CATEGORIES):
            raise LevelsFileError(str(path), line, f"level {entry['level']}: category is one of "
                                  + ", ".join(CATEGORIES))
        if entry["level"] in levels:
            raise LevelsFileError(str(path), line, f"level {entry['level']} once")
        levels[entry["level"]] = entry
    return levels


def game_levels(game: str) -> dict[int, dict[str, Any]]:
    """A game's measured levels, or {} when it has no ladder file yet."""
    path = levels_path(game)
    return read_levels(path) if path.is_file() else {}


def _score(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(value.get(k), (int, float)) and 0 <= value[k] <= 1 for k in ("score", "low95", "high95"))


def _line_of(text: str, index: int) -> int:
    """The line where the ``index``-th entry of the "levels" list starts (1 if not found)."""
    start = text.find('"levels"')
    if start < 0:
        return 1
    depth, seen = 0, -1
    for position in range(text.find("[", start) + 1, len(text)):
        char = text[position]
        if char == "{":
            if depth == 0:
                seen += 1
                if seen == index:
                    return text.count("\n", 0, position) + 1
            depth += 1
        elif char == "}":
            depth -= 1
    return 1
