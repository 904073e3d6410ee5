"""The five games as the home screen lists them: installed, not yet, or failing to load."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from games import registry
from games.registry import GamePlugin
from runner.i18n import _
from runner.paths import asset
from runner.seats import BOT_LABEL

@dataclass(frozen=True)
class GameEntry:
    """One tile of the home screen."""

    name: str
    title: str
    summary: str = ""
    plugin: GamePlugin | None = None      # None: coming soon, or broken
    error: str = ""                        # why a game that exists cannot be loaded

    @property
    def available(self) -> bool:
        return self.plugin is not None

    @property
    def broken(self) -> bool:
        return bool(self.error)

    def picture_path(self, theme: str = "dark"):
        """The game's picture in ``assets/pictures`` if shipped, else None: in the light
        theme ``<game>-light.png`` when there is one (drawn on the light background)."""
        names = [self.plugin.picture] if self.plugin and self.plugin.picture else []
        names.append(f"{self.name}.png")
        if theme != "dark":
            names = [name.replace(".png", f"-{theme}.png") for name in names] + names
        for name in names:
            path = asset("pictures", name)
            if path.is_file():
                return path
        return None


def game_entries() -> list[GameEntry]:
    """All five games in home order.  A game whose package or rules fail to load is
    listed with its error (the others still work); one not written yet is 'coming soon'."""
    plugins = {p.name: p for p in registry.all_plugins()}
    broken = registry.broken_plugins()
    entries = []
    for name in registry.GAME_PACKAGES:
        plugin, error = plugins.get(name), broken.get(name, "")
        title, summary = name.title(), ""
        if plugin is not None:
            try:
                spec = plugin.new_game().spec
                title, summary = spec.title, spec.summary
            except Exception as exc:      # noqa: BLE001 - a half-written game must not hide the others
                plugin, error = None, registry.describe_error(exc)
        entries.append(GameEntry(name, title, summary, plugin, error))
    return entries


@functools.cache
def game_title(name: str) -> str:
    """The game's title as its own rules declare it (``GameSpec.title``, the one list of
    titles: Home, How to play, the board and Settings all say it); the package's name
    when the game cannot be loaded."""
    try:
        return registry.plugin(name).new_game().spec.title
    except Exception:        # noqa: BLE001 - a missing or half-written game keeps its name
        return name.title()


#: How a record written before seat labels kept their parts names a bot ("Bot (level 2)").
_BOT_LABEL = re.compile(r"^Bot \(level (\d+)(.*)\)$")
#: How a program seat names itself in a record ("Program python3 bot.py").
_PROGRAM_LABEL = re.compile(r"^Program (.+)$")


def level_label(level: int, name: str) -> str:
    """ "2 · easy": every game's levels read the same way (number, then name), on the
    New match form and wherever a bot seat is named."""
    return f"{level} · {_(name)}"


def who_text(label: str, levels: tuple[str, ...] = ()) -> str:
    """A seat's label as shown: the runner's "Bot (level 2)" as the New match form names
    the level ("Bot 2 · easy", given the game's ``levels``), in the interface's language;
    "Program COMMAND" with its word translated; people's names and commands as they are.

    A live bot seat's label keeps its level and settings as parts (see
    :data:`runner.seats.BOT_LABEL`); a record's label is plain text and read by its shape."""
    if getattr(label, "msgid", None) == BOT_LABEL:
        number, settings = int(label.params["level"]), str(label.params["settings"])
    else:
        match = _BOT_LABEL.match(label or "")
        if not match:
            program = _PROGRAM_LABEL.match(label or "")
            return _("Program {command}").format(command=program[1]) if program else label
        number, settings = int(match[1]), match[2]
    level = level_label(number, levels[number - 1]) if 1 <= number <= len(levels) else str(number)
    return _("Bot {level}").format(level=level + settings)
