"""Robot maps: the organizers' map format, validation, and the maps shipped with Arena.

A map file is line 1 ``M N K`` (rows, columns, shrink period), then M lines of N
characters ``.`` (empty) or ``#`` (forbidden); spaces between characters are allowed.
A map is a connected maze: every non-forbidden cell reaches every other
through side-adjacent cells.  A malformed or disconnected map raises :class:`MapError`,
which names the file, the line and what was expected.

:func:`parse_map` is a pure string function and lives with the rules; this module
reads files: :func:`load_map`, :func:`shipped_maps`, :func:`map_text`, and
:func:`load_files`, which puts a match's map into its options by content.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from games.api import content_hash

from games.robot.rules import MapError, RobotMap, parse_map  # noqa: F401  (the map tools' names)

MAPS_DIR = Path(__file__).with_name("maps")
def load_map(path: str | Path, strict: bool = False) -> RobotMap:
    """Read and check a map file."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig", errors="replace")
    except OSError as exc:
        raise MapError(str(path), None, f"a readable map file ({exc.strerror})") from None
    return parse_map(text, str(path), strict)


def shipped_maps() -> list[str]:
    """Names of the maps shipped with Arena (file stems in ``games/robot/maps``)."""
    return sorted(p.stem for p in MAPS_DIR.glob("*.txt"))


def map_text(option: str) -> str:
    """The map text for a ``map`` option: a shipped map name, a file path, or map text."""
    if "\n" in option:
        return option
    shipped = MAPS_DIR / f"{option}.txt"
    if shipped.is_file():
        return shipped.read_text(encoding="utf-8")
    if Path(option).is_file():
        return Path(option).read_text(encoding="utf-8-sig", errors="replace")
    raise MapError(option, None, "a shipped map name (" + ", ".join(shipped_maps())
                   + "), a map file, or map text")


def load_files(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, dict]]:
    """The plugin's ``files`` part: the ``map`` option (a shipped map's name, a map
    file's path, or map text) becomes the map's text, and ``map_name`` its name, so a
    record holds its map and opens after the file is gone (see :mod:`runner.setup`)."""
    loaded = dict(options)
    value = str(loaded.get("map", "") or "scatter-21")
    if "\n" in value:
        return loaded, {}
    text = map_text(value)
    shipped = (MAPS_DIR / f"{value}.txt").is_file()
    loaded["map"] = text
    loaded["map_name"] = value if shipped else Path(value).stem
    source = f"shipped map {value}" if shipped else str(Path(value).resolve())
    return loaded, {"map": {"source": source, "sha256": content_hash(text)}}


def new_state(options: Mapping[str, Any], seed: int):
    """A fresh Robot state from options that may name a map (for tools, bots' tests and
    benchmarks; matches do the same through the runner)."""
    from games.robot.rules import RobotGame
    loaded, _ = load_files(options)
    return RobotGame().new_initial_state(loaded, seed)
