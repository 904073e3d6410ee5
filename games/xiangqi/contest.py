"""Contest mode: the arena plays as the contest program CC in a folder with PLAY.INI.

``arena xiangqi cc --folder DIR`` reads PLAY.INI there, seats a person, the built-in
engine or the other program (through the move files PLAY.INI names) on each side, keeps
the authors' lines on show, and writes REPORT.TXT and REPORT.JSON into DIR.  The seats
are in :mod:`games.xiangqi.program`.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, Mapping

from games.api import RecordFormatError, parse_option_pairs
from games.registry import OpenWindow
from games.xiangqi.movefiles import COMPUTER, HUMAN, OTHER, PlayIni
from games.xiangqi.program import ContestBotSeat, OtherProgramSeat
from games.seat import Seat

PLAY_INI = "PLAY.INI"
SETTINGS_NAME = "ARENA.INI"
DEFAULT_AUTHORS = ("Arena contributors", "Arena Xiangqi, contest mode", "")


def read_play_ini(folder: Path):
    """PLAY.INI from ``folder`` (RecordFormatError naming the line when it is wrong)."""
    from games.xiangqi.movefiles import parse_play_ini
    path = Path(folder) / PLAY_INI
    try:
        text = path.read_bytes().decode("ascii", "replace")
    except OSError as exc:
        raise RecordFormatError(str(path), None, f"a readable PLAY.INI ({exc.strerror})") from None
    return parse_play_ini(text, str(path))


def read_authors(folder: Path, author: str | None = None, program: str | None = None,
                 address: str | None = None) -> tuple[str, str, str]:
    """REPORT.TXT's lines 1-3, also shown on screen at all times.

    From the command line (``--author``, ``--program``, ``--address``), else from
    ``ARENA.INI`` in the folder (``AUTHOR=``, ``PROGRAM=``, ``ADDRESS=`` lines),
    else the arena's own.
    """
    values = dict(zip(("AUTHOR", "PROGRAM", "ADDRESS"), DEFAULT_AUTHORS))
    try:
        text = (Path(folder) / SETTINGS_NAME).read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip().upper() in values:
            values[key.strip().upper()] = value.strip()
    given = {"AUTHOR": author, "PROGRAM": program, "ADDRESS": address}
    values.update({k: v for k, v in given.items() if v is not None})
    return values["AUTHOR"], values["PROGRAM"], values["ADDRESS"]


def banner_text(authors: tuple[str, str, str]) -> str:
    author, program, address = authors
    first = " - ".join(x for x in (program, author) if x)
    return "\n".join(x for x in (first, address) if x)


def make_engine(level: int, seed: int):
    """The built-in engine (a random mover stands in when ``bot.py`` cannot be loaded)."""
    from games.xiangqi import PLUGIN
    try:
        return PLUGIN.load("bot")(level, seed)
    except ImportError:
        from games.bots import RandomBot
        print("arena: the built-in engine is not available; COMPUTER plays random moves",
              file=sys.stderr)
        return RandomBot(seed)


def build_contest_match(folder: Path, ini: PlayIni, authors: tuple[str, str, str], level: int = 3,
                        movetime: float = 3.0, seed: int = 0, poll: float | None = None,
                        options: Mapping[str, Any] | None = None):
    """The match contest mode plays: one seat per PLAY.INI word, REPORT.TXT in ``folder``."""
    from games.xiangqi import PLUGIN
    from games.xiangqi.referee import XiangqiMatch
    from runner.match import default_record_path
    from runner.seats import HumanSeat

    limits = {"poll": poll} if poll else {}
    seats: list[Seat] = []
    for side, word in enumerate(ini.words):
        if word == COMPUTER:
            seats.append(ContestBotSeat(f"bot:{level}", make_engine(level, seed + side), level, movetime))
        elif word == OTHER:
            seats.append(OtherProgramSeat(ini, limits))
        else:
            seats.append(HumanSeat("human", "Person"))
    game = PLUGIN.new_game()
    resolved = game.spec.resolve_options("contest", dict(options or {}))
    match = XiangqiMatch(PLUGIN, resolved, seats, seed=seed, variant="contest", seconds=ini.seconds,
                         report_dir=folder, report_authors=authors, report_words=ini.words,
                         record_path=default_record_path(Path(folder), PLUGIN.name))
    match.banner = banner_text(authors)
    return match


def error_match(message: str):
    """A match that never starts, only to show ``message`` (a PLAY.INI error) in the window."""
    from games.xiangqi import PLUGIN
    from games.xiangqi.referee import XiangqiMatch
    from runner.seats import HumanSeat

    match = XiangqiMatch(PLUGIN, {}, [HumanSeat("human", "not started"), HumanSeat("human", "not started")])
    match.error = message
    match.banner = f"Contest mode cannot start: {message}"
    match.stop()
    return match


def contest_command(args) -> int | OpenWindow:
    """``python main.py xiangqi cc``: play as the contest program CC in ``--folder``.

    Without ``--headless`` it returns :class:`~games.registry.OpenWindow` and the shell
    (``main.py``) shows the match, or the PLAY.INI error, in the window."""
    from games.api import ArenaError

    folder = Path(args.folder or ".").resolve()
    try:
        ini = read_play_ini(folder)
    except RecordFormatError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        if not args.headless:
            return OpenWindow(error_match(str(exc)), exit_code=2)
        return 2
    if args.headless and HUMAN in ini.words:
        print("arena: PLAY.INI asks for a HUMAN; that needs the window (drop --headless)",
              file=sys.stderr)
        return 2
    authors = read_authors(folder, args.author, args.program, args.address)
    try:
        match = build_contest_match(folder, ini, authors, args.level, args.movetime,
                                    args.seed if args.seed is not None else random.randrange(2 ** 31),
                                    args.poll, parse_option_pairs(args.option))
    except ArenaError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    if not args.headless:
        return OpenWindow(match)
    outcome = match.run()
    print(f"xiangqi cc: {outcome.result_text()} {outcome.detail or outcome.reason.value} after "
          f"{len(match.states[-1].moves)} half-moves; report {folder / 'REPORT.TXT'}")
    return 0


def register(subparsers) -> None:
    """Add ``cc`` (contest mode) to ``python main.py xiangqi ...``."""
    parser = subparsers.add_parser(
        "cc", help="contest mode: play as the contest program CC from PLAY.INI",
        description="Reads PLAY.INI from the folder (COMPUTER = the built-in engine, HUMAN = a "
        "person at the window, OTHER = another program through the move files), plays, and "
        "keeps REPORT.TXT (and REPORT.JSON) in the folder. Author lines come from --author/"
        "--program/--address or ARENA.INI (AUTHOR=, PROGRAM=, ADDRESS=) in the folder.")
    parser.add_argument("--folder", metavar="DIR", help="where PLAY.INI is (default: the current folder)")
    parser.add_argument("--headless", action="store_true",
                        help="no window (COMPUTER and OTHER only)")
    parser.add_argument("--level", type=int, default=3, help="the built-in engine's level (1-5)")
    parser.add_argument("--movetime", type=float, default=3.0,
                        help="most seconds the engine spends on one move (default 3)")
    parser.add_argument("--author", help="REPORT.TXT line 1 and the screen: the author's name")
    parser.add_argument("--program", help="REPORT.TXT line 2: the program's name")
    parser.add_argument("--address", help="REPORT.TXT line 3 and the screen: the author's address")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option, e.g. no_capture_limit=120")
    parser.add_argument("--seed", type=int, default=None, help="the engine's random seed")
    parser.add_argument("--poll", type=float, default=None,
                        help="seconds between two looks at a move file its program still holds open "
                        "(default 0.05; a finished file is noticed at once)")
    parser.set_defaults(func=contest_command)
