"""What Home's recent list says about a record: game, players, result, date.

Read from the record's first line (its header), its second when that is a "seats" line
(the engines' own names, known once they started) and its last (the result, absent while
a match runs or when it was cut off); other files (HEX.OUT, a turn log) give their name.
"""
from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from runner.i18n import N_, _, language
from runner.records import SUFFIX


#: The months as a date says them ("23 Nov 2026"); Vietnamese says "thg 11" (the way
#: CLDR's medium Vietnamese date does: "23 thg 11, 2026").
MONTHS = (N_("Jan"), N_("Feb"), N_("Mar"), N_("Apr"), N_("May"), N_("Jun"), N_("Jul"), N_("Aug"),
          N_("Sep"), N_("Oct"), N_("Nov"), N_("Dec"))


def format_when(when: _dt.datetime) -> str:
    """A record's start in the interface's language: "23 Nov 2026 14:05" in English,
    "23 thg 11, 2026 14:05" in Vietnamese (the order and words come from the catalog)."""
    return _("{day} {month} {year} {time}").format(
        day=when.day, month=_(MONTHS[when.month - 1]), year=when.year, time=when.strftime("%H:%M"))


@dataclass(frozen=True)
class RecordLine:
    path: str
    game: str = ""
    players: str = ""
    result: str = ""
    when: str = ""
    #: The players with each program named by its file alone ("python3 bot.py" for
    #: "python3 /home/an/contest/bot.py"); "" when that is the same.
    short_players: str = ""

    def text(self) -> str:
        parts = [self.game, self.players, self.result, self.when]
        return "  ·  ".join(p for p in parts if p) or Path(self.path).name

    def fitted(self, fits: Callable[[str], bool], prefix: str = "") -> str:
        """The line as one row shows it: whole when ``fits(text)``, else shorter step by
        step (programs by their file names, then without the date, then the players cut
        with "…"); the row shows the whole line on hover."""
        short = replace(self, players=self.short_players or self.players)
        for line in (self, short, replace(short, when="")):
            if fits(prefix + line.text()):
                return prefix + line.text()
        players = line.players
        while len(players) > 1:
            players = players[:-1]
            text = prefix + replace(line, players=players.rstrip(" ·") + "…").text()
            if fits(text):
                return text
        return prefix + line.text()


def _lines(path: Path) -> tuple[str, str, str]:
    """(first line, second line, last non-empty line) of a text file, reading only its ends."""
    with path.open("rb") as handle:
        first = handle.readline().decode("utf-8", "replace")
        second = handle.readline(65536).decode("utf-8", "replace")
        handle.seek(0, 2)
        size = handle.tell()
        handle.seek(max(0, size - 4096))
        tail = handle.read().decode("utf-8", "replace").strip().splitlines()
    return first, second, tail[-1] if tail else ""


def _with_started_seats(header: dict, line: str) -> dict:
    """The header with its seats replaced by a following "seats" line's, if ``line`` is one."""
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return header
    seats = obj.get("seats") if isinstance(obj, dict) and obj.get("type") == "seats" else None
    if isinstance(seats, list) and all(isinstance(s, dict) for s in seats) and isinstance(header, dict):
        return {**header, "seats": seats}
    return header


def summarize(path: str | Path) -> RecordLine:
    """The recent-list line for ``path`` (never raises: an unreadable file gives its name);
    remembered while the file stays the same, so Home lays out at once."""
    path = Path(path)
    try:
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size, language())
    except OSError:
        key = (str(path), 0, 0, language())
    line = _CACHE.get(key)
    if line is None:
        line = _CACHE[key] = _summarize(path)
    return line


_CACHE: dict[tuple, RecordLine] = {}


def _summarize(path: Path) -> RecordLine:
    name = path.name
    if not name.endswith(SUFFIX):
        return RecordLine(str(path), name)
    try:
        first, second, last = _lines(path)
        header = json.loads(first)
    except (OSError, ValueError):
        return RecordLine(str(path), name, result=_("cannot be read"))
    header = _with_started_seats(header, second)
    game = str(header.get("game", ""))
    title, seat_name = game, lambda seat: _("seat {n}").format(n=seat + 1)
    levels: tuple[str, ...] = ()
    try:
        from games import registry
        levels = registry.plugin(game).bot_levels
        spec = registry.plugin(game).new_game().spec
        title, seat_name = _(spec.title), lambda seat: _(spec.seat_name(seat))
    except Exception:          # a game no longer installed: its record still gets a line
        pass
    from ui.catalog import who_text
    seats = header.get("seats", [])
    labels = [who_text(str(s.get("label") or s.get("spec") or "?"), levels) for s in seats]
    players = _(" vs ").join(labels)
    short_players = _(" vs ").join(_file_names_only(label) for label in labels)
    result = _("unfinished")
    try:
        tail = json.loads(last) if last else {}
    except ValueError:
        tail = {}
    if tail.get("type") == "result":
        from games.api import Outcome
        from ui.panels import result_parts
        try:
            head, _rest = result_parts(Outcome.from_json(tail), seat_name)
            result = _("{result} after {turns} turns").format(result=head, turns=tail.get("turns", "?"))
        except Exception:
            result = _("finished")
    when = ""
    try:
        started = _dt.datetime.fromisoformat(str(header.get("started")))
        when = format_when(started)
    except (TypeError, ValueError):
        pass
    return RecordLine(str(path), title, players, result, when,
                      short_players if short_players != players else "")


def _file_names_only(label: str) -> str:
    """A seat's label with each path in it cut to its file's name ("Program python3
    games/hex/examples/bot.py" -> "Program python3 bot.py")."""
    return " ".join(Path(word).name if ("/" in word or "\\" in word) and Path(word).name else word
                    for word in label.split(" "))
