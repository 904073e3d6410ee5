"""The five games as the home screen lists them, installed or not yet."""
from __future__ import annotations

from dataclasses import dataclass

from games import registry
from games.api import ArenaError
from games.registry import GamePlugin
from runner.paths import asset

#: Titles shown even before a game's package exists (home-screen order).
TITLES = {
    "hex": "Hex",
    "xiangqi": "Xiangqi",
    "robot": "Robot Đại Chiến",
    "tamquan": "Cờ Tam Quân",
    "crossed": "Crossed Words Solitaire",
}


@dataclass(frozen=True)
class GameEntry:
    """One tile of the home screen."""

    name: str
    title: str
    summary: str = ""
    plugin: GamePlugin | None = None      # None: coming soon

    @property
    def available(self) -> bool:
        return self.plugin is not None

    def picture_path(self):
        """The game's picture in ``assets/pictures`` if shipped, else None."""
        if self.plugin and self.plugin.picture:
            path = asset("pictures", self.plugin.picture)
            if path.is_file():
                return path
        path = asset("pictures", f"{self.name}.png")
        return path if path.is_file() else None


def game_entries() -> list[GameEntry]:
    """All five games in home order; a game whose package fails to load is 'coming soon'."""
    try:
        plugins = {p.name: p for p in registry.all_plugins()}
    except Exception:            # a half-written game package must not hide the others
        plugins = {}
    entries = []
    for name in registry.GAME_PACKAGES:
        plugin = plugins.get(name)
        title, summary = TITLES.get(name, name.title()), ""
        if plugin is not None:
            try:
                spec = plugin.new_game().spec
                title, summary = TITLES.get(name) or spec.title, spec.summary
            except (ArenaError, ImportError, AttributeError):
                plugin = None
        entries.append(GameEntry(name, title, summary, plugin))
    return entries


def game_title(name: str) -> str:
    return TITLES.get(name, name.title())
