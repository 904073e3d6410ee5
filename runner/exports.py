"""Saving a replay in a game's own formats (PGN, FEN of a position, SGF, HEX.OUT ...).

Each game lists its exports in ``PLUGIN.exports``; this module is the one place the
replay viewer and ``arena export`` go through.
"""
from __future__ import annotations

from pathlib import Path

from games.api import ArenaError
from games.fileio import atomic_write
from games.replay import Replay
from games.registry import GamePlugin


class ExportError(ArenaError):
    """An export that this game does not offer, or a turn outside the replay."""


def export_formats(plugin: GamePlugin) -> list[str]:
    return list(plugin.load("exports")) if plugin.exports else []


def export_text(plugin: GamePlugin, replay: Replay, index: int, fmt: str) -> tuple[str, str]:
    """(suggested file name, text) of ``replay`` in ``fmt``, at position ``index`` (-1 = last)."""
    exports = plugin.load("exports") if plugin.exports else {}
    chosen = {name.lower(): name for name in exports}.get(fmt.lower())
    if chosen is None:
        raise ExportError(f"{plugin.name} exports " + (", ".join(exports) or "nothing")
                          + f", not {fmt!r}")
    last = len(replay.states) - 1
    index = last if index == -1 else index
    if not 0 <= index <= last:
        raise ExportError(f"turn {index} is out of range 0-{last}")
    return exports[chosen](replay, index)


def export_all(plugin: GamePlugin, replay: Replay, index: int, folder: Path) -> list[Path]:
    """Write every export of the game into ``folder``; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for fmt in export_formats(plugin):
        name, text = export_text(plugin, replay, index, fmt)
        path = folder / name
        atomic_write(path, text)
        written.append(path)
    return written
