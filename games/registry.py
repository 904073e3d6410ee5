"""Where the shell, the runner and the command line find each game's parts.

Each game package declares a :class:`GamePlugin` whose parts are import paths
(``"games.hex.rules:HexGame"``), so that listing the games imports nothing heavy and
never pygame; the renderer is imported only by the ui.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from games.api import Game, GameSetupError


@dataclass(frozen=True)
class GamePlugin:
    """The parts of one game, named by import path ``"module:attribute"``.

    * ``game``: the :class:`games.api.Game` subclass (pure rules).
    * ``bot``: ``make_bot(level: int, seed: int) -> Bot`` (see :mod:`games.bots`).
    * ``external``: ``make_external_seat(command, workdir, game, options, seat, limits)``
      returning a :class:`runner.seats.Seat` that speaks the contest's file protocol.
    * ``readers``: a list of :class:`games.replay.RecordReader` for the contest's own
      record files (HEX.OUT, REPORT.TXT, turn logs, output.txt).
    * ``writers``: ``write_contest_records(replay_or_match, folder) -> [paths]``.
    * ``exports``: a dict ``{format: export(replay, index) -> (file name, text)}`` of what
      the replay viewer and ``arena export`` can save (PGN, FEN of a position, SGF ...).
    * ``renderer``: the pygame renderer class (ui only).
    * ``extra_seats``: seat kinds beyond human/bot/ext, e.g. ``{"gtp": "games.hex.gtp:make_gtp_seat"}``.
    * ``cli``: ``register(subparsers)`` adding ``python main.py GAME ...`` tools.
    * ``files``: ``load_files(options) -> (options, files)`` replacing options that name
      files by their content (see :mod:`runner.setup`), for games that name files their
      own way (Robot's shipped maps).
    """

    name: str
    game: str
    bot: str | None = None
    bot_levels: tuple[str, ...] = ()
    external: str | None = None
    readers: str | None = None
    writers: str | None = None
    exports: str | None = None
    renderer: str | None = None
    extra_seats: dict[str, str] = field(default_factory=dict)
    cli: str | None = None
    files: str | None = None
    howto: str = "HOWTO.md"         # relative to the game's package folder
    picture: str = ""               # asset file name for the home screen

    def load(self, part: str) -> Any:
        """Import one part by its field name (``plugin.load("game")``)."""
        path = getattr(self, part) if part in self.__dataclass_fields__ else self.extra_seats[part]
        if path is None:
            raise GameSetupError(f"{self.name} has no {part}")
        return load_object(path)

    def new_game(self) -> Game:
        return self.load("game")()

    def howto_text(self) -> str:
        folder = Path(importlib.import_module(f"games.{self.name}").__file__).parent
        try:
            return (folder / self.howto).read_text(encoding="utf-8")
        except OSError:
            return f"No guide is written for {self.name} yet."


def load_object(path: str) -> Any:
    module, _, attribute = path.partition(":")
    obj: Any = importlib.import_module(module)
    for name in attribute.split("."):
        obj = getattr(obj, name)
    return obj


# Order is the home screen's order.  A game is listed once its package exists.
GAME_PACKAGES = ("hex", "xiangqi", "robot", "tamquan", "crossed")


def all_plugins() -> list[GamePlugin]:
    """Every installed game's plugin, in home-screen order."""
    plugins = []
    for name in GAME_PACKAGES:
        try:
            module = importlib.import_module(f"games.{name}")
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith(f"games.{name}"):
                continue
            raise
        plugin = getattr(module, "PLUGIN", None)
        if plugin is not None:
            plugins.append(plugin)
    return plugins


def plugin(name: str) -> GamePlugin:
    for p in all_plugins():
        if p.name == name:
            return p
    raise GameSetupError(f"no game named {name!r}; games: "
                         + ", ".join(p.name for p in all_plugins()))


def game(name: str) -> Game:
    return plugin(name).new_game()


Factory = Callable[..., Any]
