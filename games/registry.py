"""Where the shell, the runner and the command line find each game's parts.

Each game package declares a :class:`GamePlugin` whose parts are import paths
(``"games.hex.rules:HexGame"``), so that listing the games imports nothing heavy and
never pygame; the renderer is imported only by the ui.

A game package that fails to import (a half-written game, one bad import) does not
take the others down: :func:`all_plugins` leaves it out and :func:`broken_plugins`
tells why, so the command line and the home screen can say so.

A game's command-line tools never open a window themselves (games never import the
ui): a tool that wants one returns :class:`OpenWindow`, and the shell's entry point
(``main.py``) opens it.
"""
from __future__ import annotations

import importlib
import threading
import traceback
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
      returning a :class:`games.seat.Seat` that speaks the contest's file protocol.
    * ``readers``: a list of :class:`games.replay.RecordReader` for the contest's own
      record files (HEX.OUT, REPORT.TXT, turn logs, output.txt).
    * ``writers``: ``write_contest_records(replay_or_match, folder) -> [paths]``.
    * ``exports``: a dict ``{format: export(replay, index) -> (file name, text)}`` of what
      the replay viewer and ``arena export`` can save (PGN, FEN of a position, SGF ...).
    * ``renderer``: the pygame renderer class (ui only).
    * ``extra_seats``: seat kinds beyond human/bot/ext, e.g. ``{"gtp": "games.hex.gtp:make_gtp_seat"}``.
    * ``cli``: ``register(subparsers)`` adding ``python main.py GAME ...`` tools; each
      tool's ``func(args)`` returns an exit code, or :class:`OpenWindow` to show a match.
    * ``files``: ``load_files(options) -> (options, files)`` replacing options that name
      files by their content (see :mod:`runner.setup`), for games that name files their
      own way (Robot's shipped maps).
    * ``messages``: the message ids of the texts the game's rules and programs write
      (``"{robot} left the game: {why}"``, marked with ``N_``): the rules write
      :class:`games.api.Message` values with these ids, translated from id and parts;
      texts with no id (old records) are read back against them
      (see :func:`games.language.translate_text`).
    * ``warm_up``: ``warm_up()``, one-time work the game's bots need (compiling a search),
      which the shell runs in the background at start so a match does not wait for it.
    * ``tournament``: the game's own tournament formats, ``{name: preset}`` where a preset
      names a generic format and its settings (Robot's ``pairs``: round robin of duels,
      20 points a win, 10 a draw); see :mod:`runner.tournament`.
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
    tournament: str | None = None
    messages: str | None = None
    warm_up: str | None = None
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

    def howto_path(self, language: str = "en") -> Path:
        """The game's How to play page in ``language`` (``HOWTO.vi.md`` beside ``HOWTO.md``),
        or the English page when that language has none."""
        folder = Path(importlib.import_module(f"games.{self.name}").__file__).parent
        english = folder / self.howto
        if language and language != "en":
            translated = english.with_name(f"{english.stem}.{language}{english.suffix}")
            if translated.is_file():
                return translated
        return english

    def howto_text(self, language: str = "en") -> str:
        try:
            return self.howto_path(language).read_text(encoding="utf-8")
        except OSError:
            return f"No guide is written for {self.name} yet."


def load_object(path: str) -> Any:
    module, _, attribute = path.partition(":")
    obj: Any = importlib.import_module(module)
    for name in attribute.split("."):
        obj = getattr(obj, name)
    return obj


@dataclass(frozen=True)
class OpenWindow:
    """A command-line tool's request to the shell: show ``match`` in the arena's window.

    Returned by a tool's ``func(args)`` instead of an exit code.  The shell
    (``main.py``) opens the window with the command's ``args`` (``--size``,
    ``--fullscreen``), runs it until it is closed, then exits with ``exit_code`` if
    given (e.g. 2 after showing a setup error), else with the window's own code.
    """

    match: Any
    exit_code: int | None = None


# Order is the home screen's order.  A game is listed once its package exists.
GAME_PACKAGES = ("hex", "xiangqi", "robot", "tamquan", "crosswords")


def _load_packages() -> tuple[list[GamePlugin], dict[str, str]]:
    """Import every game package that exists: (plugins in home order, {name: error})."""
    plugins, broken = [], {}
    for name in GAME_PACKAGES:
        package = f"games.{name}"
        try:
            module = importlib.import_module(package)
        except ModuleNotFoundError as exc:
            if exc.name == package:          # not written yet: nothing to list
                continue
            broken[name] = describe_error(exc)
            continue
        except Exception as exc:             # noqa: BLE001 - any error in a game is that game's
            broken[name] = describe_error(exc)
            continue
        if getattr(module, "__file__", None) is None:
            continue                         # a leftover folder (namespace package), no game
        plugin = getattr(module, "PLUGIN", None)
        if not isinstance(plugin, GamePlugin):
            broken[name] = f"{package} declares no PLUGIN (a games.registry.GamePlugin)"
        elif plugin.name != name:
            broken[name] = f"{package}.PLUGIN is named {plugin.name!r}, not {name!r}"
        else:
            plugins.append(plugin)
    return plugins, broken


def describe_error(exc: BaseException) -> str:
    """One line naming the error and, when known, the file and line where it happened."""
    text = f"{type(exc).__name__}: {exc}".splitlines()[0] if str(exc) else type(exc).__name__
    if isinstance(exc, SyntaxError) or exc.__traceback__ is None:
        return text
    frame = traceback.extract_tb(exc.__traceback__)[-1]
    if "importlib" in frame.filename:        # the import machinery: name the game's own file
        ours = [f for f in traceback.extract_tb(exc.__traceback__) if "importlib" not in f.filename]
        if not ours:
            return text
        frame = ours[-1]
    return f"{text} ({_short_path(frame.filename)}, line {frame.lineno})"


def _short_path(filename: str) -> str:
    path = Path(filename)
    parts = path.parts
    if "games" in parts:
        return "/".join(parts[len(parts) - 1 - parts[::-1].index("games"):])
    return str(path)


def all_plugins() -> list[GamePlugin]:
    """Every installed game's plugin that loads, in home-screen order."""
    return _load_packages()[0]


def broken_plugins() -> dict[str, str]:
    """``{game name: one-line error}`` for each game package that exists but fails to load."""
    return _load_packages()[1]


def plugin(name: str) -> GamePlugin:
    plugins, broken = _load_packages()
    for p in plugins:
        if p.name == name:
            return p
    if name in broken:
        raise GameSetupError(f"game {name!r} cannot be loaded: {broken[name]}")
    raise GameSetupError(f"no game named {name!r}; games: " + ", ".join(p.name for p in plugins))


def game(name: str) -> Game:
    return plugin(name).new_game()


Factory = Callable[..., Any]


def warm_up_in_background() -> threading.Thread:
    """Run every game's ``warm_up`` on one daemon thread, so that compiling a bot's search
    happens while a person reads the home screen rather than when a match starts.  A
    game whose warm-up fails is left to do that work when its bot first needs it."""
    def work() -> None:
        for each in all_plugins():
            if each.warm_up:
                try:
                    each.load("warm_up")()
                except Exception:       # noqa: BLE001 - the match will try again, and say why
                    continue
    thread = threading.Thread(target=work, name="arena-warm-up", daemon=True)
    thread.start()
    return thread
