"""The event file: what a tournament is (:class:`Event`, its :class:`Contestant`\ s), read
from TOML and checked (:func:`load_event`, :func:`event_from_dict`, table-driven by
:data:`EVENT_FIELDS` and :data:`EVENT_RULES`), fitted to this machine
(:func:`fit_to_machine`) and its contestants' programs built (:func:`build_contestants`)."""
from __future__ import annotations

import glob
import os
import re
import shlex
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from games.api import ArenaError

try:
    import tomllib
except ImportError:                     # Python 3.10
    import tomli as tomllib            # type: ignore[no-redef]


FORMATS = ("round-robin", "gauntlet", "swiss", "all-in", "sprt")
#: ``[projection]`` of an event file: turns a second a projected match is played at (0: as
#: fast as the programs answer), "focus" (one board, the others as thumbnails) or "grid",
#: seconds the final position stays up, seconds of the intermission card.
PROJECTION_DEFAULTS = {"pace": 2.0, "layout": "focus", "hold": 3.0, "intermission": 8.0}


class EventError(ArenaError):
    """An event file that cannot be run as written."""


@dataclass
class Contestant:
    name: str
    seat: str                       # the seat spec as run (program paths made absolute)
    build: str = ""
    files: list[str] = field(default_factory=list)    # absolute paths shipped to workers
    error: str = ""                 # why it cannot start (a failed build); scored by the rules


@dataclass
class Event:
    name: str
    game: str
    folder: Path                    # where relative paths in the event file start
    out: Path
    contestants: list[Contestant]
    format: str = "round-robin"
    variant: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    cycle: dict[str, list] = field(default_factory=dict)
    rounds: int = 1
    seats: int = 2
    seed: int = 0
    #: Matches at once; by default what fits the machine (:func:`fit_to_machine`).
    concurrency: int = 1
    concurrency_asked: bool = False
    #: How answers are charged: "wall" or "cpu" (None: by the machine, see :func:`fit_to_machine`).
    clock: str | None = None
    #: Why the event runs as it does on this machine (logged, in event.json and the
    #: standings' header), and warnings such as a concurrency the cores do not fit.
    machine_notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    per_move: float | None = None
    total: float | None = None
    limits: dict[str, Any] = field(default_factory=dict)
    points: tuple[float, float] = (1.0, 0.5)      # per seat beaten, per seat tied
    champion: int = 0                             # gauntlet
    sprt: dict[str, float] = field(default_factory=dict)
    max_matches: int = 1000                       # sprt
    projection: dict[str, Any] = field(default_factory=lambda: dict(PROJECTION_DEFAULTS))
    #: The format as the event file named it (a game's own, e.g. Robot's "pairs", which
    #: :attr:`format` holds expanded to "round-robin"); what screens show.
    format_name: str = ""

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.contestants]

    @property
    def shown_format(self) -> str:
        return self.format_name or self.format


#: The largest event file read: a real one is a few kilobytes, and tomllib takes seconds
#: on tens of megabytes.
MAX_EVENT_BYTES = 1_000_000


def thinking_at_once(event: Event) -> int:
    """How many programs of one match think at the same time: every seat in a game of
    simultaneous turns (Robot), else one."""
    from games import registry
    from games.api import GameKind
    kind = registry.plugin(event.game).new_game().spec.kind
    return event.seats if kind is GameKind.SIMULTANEOUS else 1


def fit_to_machine(event: Event, cores: int | None = None) -> None:
    """Fit a locally run event to this machine's ``cores``: its concurrency, when the
    event file and ``--workers`` do not say, is the cores divided by the programs that
    think at once in a match (at least 1), and one that asks for more gets a warning;
    its clock, when not chosen, is ``cpu`` when the matches at once times the programs
    thinking in each exceed the cores (each would else pay for the others' thinking on
    the wall clock), else ``wall``.  The reasons go to :attr:`Event.machine_notes`."""
    cores = cores or os.cpu_count() or 1
    thinking = thinking_at_once(event)
    fits = max(1, cores // thinking)
    if not event.concurrency_asked:
        event.concurrency = fits
        event.machine_notes.append(f"concurrency {fits}: {cores} cores / {thinking} programs "
                                   "thinking at once in a match")
    elif event.concurrency > fits:
        event.warnings.append(
            f"WARNING: concurrency {event.concurrency} is more than this machine fits: {cores} "
            f"cores / {thinking} programs thinking at once in a match = {fits}; the programs "
            "share the cores" + ("" if event.clock == "wall" else
                                 ", so their answers are charged CPU time"))
    if event.clock is None:
        busy = event.concurrency * thinking
        event.clock = "cpu" if busy > cores else "wall"
        if event.clock == "cpu":
            event.machine_notes.append(
                f"clock cpu: {event.concurrency} matches at once x {thinking} programs thinking "
                f"= {busy} > {cores} cores, so each answer is charged the CPU time of its "
                "program's process tree (within a wall cap of 3x the limit + 1 s)")
    if event.limits.get("clock") is None and event.clock != "wall":
        event.limits["clock"] = event.clock


def load_event(path: str | Path, out: str | Path | None = None) -> Event:
    """Read an event file; relative paths in it start at its own folder.

    Whatever the bytes, the only error is an :class:`EventError` naming the file (and the
    line, where one is to blame): a file over :data:`MAX_EVENT_BYTES`, not UTF-8, not
    TOML, with a number too long to read, or with values of the wrong type."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_EVENT_BYTES + 1)
    except OSError as exc:
        raise EventError(f"{path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_EVENT_BYTES:
        raise EventError(f"{path}: an event file of at most {MAX_EVENT_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise EventError(f"{path}, line {line}: UTF-8 text (byte {raw[exc.start]:#04x} is not)") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise EventError(f"{path}: {exc}") from None
    except RecursionError:
        raise EventError(f"{path}: arrays and tables nested at most a few hundred deep") from None
    except ValueError as exc:                       # an integer of more than 4,300 digits
        long_number = re.search(r"\d{1000,}", text)
        line = text.count("\n", 0, long_number.start()) + 1 if long_number else None
        where = f"{path}, line {line}" if line else str(path)
        raise EventError(f"{where}: numbers of at most 4,300 digits ({exc})") from None
    _check_event_kinds(data, text, path)
    try:
        return event_from_dict(data, path.parent.absolute(), out)
    except ArenaError as exc:                 # EventError, or a seat or game unknown
        raise EventError(f"{path}: {exc}") from None
    except (ValueError, TypeError, OverflowError, OSError) as exc:
        raise EventError(f"{path}: values of the kinds TOURNAMENTS.md gives ({exc})") from None


#: The kind of value each top-level key of an event file takes (TOURNAMENTS.md).
EVENT_KINDS: dict[str, tuple[tuple[type, ...], str]] = {
    **{key: ((str,), "text") for key in ("game", "name", "format", "out", "variant")},
    **{key: ((int,), "a whole number") for key in ("rounds", "seats", "seed", "concurrency")},
    **{key: ((dict,), "a table") for key in ("options", "cycle", "time", "points", "limits", "sprt",
                                              "projection")},
    "champion": ((int, str), "a contestant's number or name"),
    "contestant": ((list,), "[[contestant]] tables"), "contestants": ((list,), "a list of contestants"),
}


def _check_event_kinds(data: Mapping[str, Any], text: str, path: Path) -> None:
    """Each top-level key of :data:`EVENT_KINDS` holds its kind of value; else an
    :class:`EventError` naming the file, the key's line and the kind expected.  Numbers
    in the ``time``, ``points`` and ``sprt`` tables are numbers."""
    def fail(key: str, expected: str):
        found = re.search(rf"(?m)^\s*{re.escape(key)}\s*=", text) or re.search(
            rf"(?m)^\s*\[+\s*{re.escape(key)}\s*\]", text)
        line = text.count("\n", 0, found.start()) + 1 if found else None
        where = f"{path}, line {line}" if line else str(path)
        raise EventError(f"{where}: {key} as {expected}")

    for key, (kinds, expected) in EVENT_KINDS.items():
        value = data.get(key)
        if value is not None and (not isinstance(value, kinds) or isinstance(value, bool)):
            fail(key, expected)
    for table in ("time", "points", "sprt"):
        for key, value in (data.get(table) or {}).items():
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                fail(key, f"a number (in [{table}])")


def event_from_dict(data: Mapping[str, Any], folder: Path, out: str | Path | None = None) -> Event:
    """The :class:`Event` an event file's tables describe (relative paths start at
    ``folder``): the game, its format (the game's own presets expanded), the contestants,
    then the plain fields by :data:`EVENT_FIELDS`, checked by :data:`EVENT_RULES`."""
    from games import registry

    def need(key, kind, default=None):
        value = data.get(key, default)
        if value is not None and not isinstance(value, kind):
            raise EventError(f"{key} must be {getattr(kind, '__name__', kind)}, not {value!r}")
        return value

    game = need("game", str)
    if not game:
        raise EventError("the event names no game (game = \"hex\")")
    plugin = registry.plugin(game)
    spec = plugin.new_game().spec
    name = need("name", str, game + "-event")
    fmt = need("format", str, "round-robin")
    format_name = fmt
    preset: dict[str, Any] = {}
    own = plugin_formats(plugin)
    if fmt in own:
        preset = dict(own[fmt])
        fmt = preset.pop("format")
    elif fmt not in FORMATS:
        raise EventError(f"format {fmt!r} is not one of " + ", ".join([*FORMATS, *own]))
    merged = {**preset, **{k: v for k, v in data.items() if k != "format"}}
    people = data.get("contestant") or data.get("contestants") or []
    if not isinstance(people, list) or len(people) < 2:
        raise EventError("an event needs at least two [[contestant]] tables")
    target = (Path(out) if out else folder / merged["out"] if merged.get("out")
              else Path(name)).absolute()
    contestants = []
    for index, entry in enumerate(people):
        if isinstance(entry, str):
            entry = {"seat": entry}
        if not isinstance(entry, Mapping) or not isinstance(entry.get("seat"), str):
            raise EventError(f"contestant {index + 1} needs seat = \"bot:2\" or \"ext:COMMAND\"")
        entry = {k: _fill(v, target) for k, v in entry.items()}
        contestants.append(_contestant(entry, index, folder))
    if len({c.name for c in contestants}) != len(contestants):
        raise EventError("two contestants share a name; give each its own name = \"...\"")
    options = dict(merged.get("options") or {})
    cycle = {k: list(v) if isinstance(v, list) else [v] for k, v in (merged.get("cycle") or {}).items()}
    for values in [options, cycle]:
        for key, value in list(values.items()):
            values[key] = _local_path(value, folder)
    timing = merged.get("time") or {}
    champion = merged.get("champion", 0)
    if isinstance(champion, str):
        if champion not in [c.name for c in contestants]:
            raise EventError(f"champion {champion!r} is not a contestant")
        champion = [c.name for c in contestants].index(champion)
    clock = timing.get("clock", merged.get("clock", (merged.get("limits") or {}).get("clock")))
    if clock is not None:
        from runner.process import check_clock
        try:
            clock = check_clock(str(clock))
        except ValueError as exc:
            raise EventError(str(exc)) from None
    fields = {name: _event_value(merged, table, key, convert, default, fmt, len(contestants), spec)
              for name, table, key, convert, default in EVENT_FIELDS}
    event = Event(
        name=name, game=game, folder=folder, out=target, contestants=contestants,
        format=fmt, options=options, cycle=cycle, concurrency_asked="concurrency" in merged, clock=clock,
        points=(fields.pop("beat"), fields.pop("tie")), champion=int(champion), format_name=format_name,
        **fields)
    for broken, message in EVENT_RULES:
        if broken(event, spec):
            raise EventError(message(event, spec))
    return event


def _event_value(data: Mapping[str, Any], table: str, key: str, convert, default, fmt: str,
                 contestants: int, spec):
    """One :data:`EVENT_FIELDS` entry read from the event file (``data``, or its ``table``)."""
    where = (data.get(table) or {}) if table else data
    if callable(default):
        default = default(fmt, contestants, spec)
    value = where.get(key, default)
    return convert(value) if convert else value


#: The event's plain fields as the event file gives them: (field, table ("" = the top
#: level), key, conversion, default (or a function of the format, the number of
#: contestants and the game's spec)).  The names, contestants, format, champion and clock
#: are read above; ``beat`` and ``tie`` make :attr:`Event.points`.
EVENT_FIELDS: tuple[tuple[str, str, str, Callable | None, Any], ...] = (
    ("variant", "", "variant", None, None),
    ("rounds", "", "rounds", int, lambda fmt, _n, _spec: 2 if fmt == "all-in" else 1),
    ("seats", "", "seats", int, lambda fmt, n, spec: spec.min_seats if fmt != "all-in" else n),
    ("seed", "", "seed", int, 0),
    ("concurrency", "", "concurrency", lambda value: max(1, int(value)), 1),
    ("per_move", "time", "per_move", lambda value: _seconds(value), None),
    ("total", "time", "total", lambda value: _seconds(value), None),
    ("limits", "", "limits", lambda value: dict(value or {}), None),
    ("beat", "points", "beat", float, 1.0),
    ("tie", "points", "tie", float, 0.5),
    ("sprt", "", "sprt", lambda value: dict(value or {}), None),
    ("max_matches", "sprt", "max_matches", int, 1000),
    ("projection", "", "projection", lambda value: projection_settings(value), None),
)

#: What an event must be once read: (broken(event, spec), what to say(event, spec)).
EVENT_RULES: tuple[tuple[Callable[[Event, Any], bool], Callable[[Event, Any], str]], ...] = (
    (lambda e, spec: not spec.min_seats <= e.seats <= spec.max_seats,
     lambda e, spec: f"{spec.title} takes {spec.min_seats}-{spec.max_seats} seats a match, not {e.seats}"
     + (" (all-in puts every contestant in each match)" if e.format == "all-in" else "")),
    (lambda e, _spec: e.seats > len(e.contestants),
     lambda e, _spec: f"matches of {e.seats} seats need at least {e.seats} contestants"),
    (lambda e, _spec: e.format in ("swiss", "sprt", "gauntlet") and e.seats != 2,
     lambda e, _spec: f"{e.format} is for two-seat matches"),
    (lambda e, _spec: e.format == "sprt" and len(e.contestants) != 2,
     lambda e, _spec: "an SPRT is an A/B test: exactly two contestants (A the new build)"),
)


def projection_settings(table: Any) -> dict[str, Any]:
    """The ``[projection]`` table checked, over :data:`PROJECTION_DEFAULTS`."""
    if table is None:
        return dict(PROJECTION_DEFAULTS)
    if not isinstance(table, Mapping):
        raise EventError("[projection] must be a table (pace = 2.0, layout = \"focus\")")
    out = dict(PROJECTION_DEFAULTS)
    for key, value in table.items():
        if key not in PROJECTION_DEFAULTS:
            raise EventError(f"[projection] has no {key!r}; it takes " + ", ".join(PROJECTION_DEFAULTS))
        if key == "layout":
            if value not in ("focus", "grid"):
                raise EventError(f"[projection] layout must be \"focus\" or \"grid\", not {value!r}")
        elif isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 3600:
            raise EventError(f"[projection] {key} must be a number of "
                             + ("turns a second" if key == "pace" else "seconds") + f" (0-3600), not {value!r}")
        else:
            value = float(value)
        out[key] = value
    return out


def plugin_formats(plugin) -> dict[str, dict]:
    """A game's own formats (``GamePlugin.tournament``): ``{name: preset}``."""
    if not getattr(plugin, "tournament", None):
        return {}
    return dict(plugin.load("tournament"))


def _fill(value, out: Path):
    """``{out}`` in a contestant's seat, build or files: the event folder (where builds
    may put their programs)."""
    if isinstance(value, list):
        return [_fill(v, out) for v in value]
    return value.replace("{out}", shlex.quote(str(out))) if isinstance(value, str) else value


def _seconds(value) -> float | None:
    return float(value) or None if value is not None else None


def _local_path(value, folder: Path):
    """A value naming an existing file relative to the event file, made absolute."""
    if isinstance(value, list):
        return [_local_path(v, folder) for v in value]
    if isinstance(value, str) and value and "\n" not in value and not os.path.isabs(value):
        candidate = folder / value
        try:
            if candidate.is_file():
                return str(candidate)
        except (OSError, ValueError):      # too long a name (ENAMETOOLONG), a NUL byte
            pass
    return value


def _contestant(entry: Mapping[str, Any], index: int, folder: Path) -> Contestant:
    from runner.process import resolve_command
    from runner.seats import parse_seat_spec
    spec = entry["seat"].strip()
    kind, arg = parse_seat_spec(spec)
    files = []
    if kind not in ("human", "bot") and arg:
        try:
            argv = resolve_command(arg, base=folder)
        except ValueError as exc:
            raise EventError(f"contestant {index + 1}: {exc}") from None
        build = entry.get("build", "")
        for i, word in enumerate(argv):
            if os.path.isabs(word) and (Path(word).is_file() or (build and i == 0)):
                files.append(word)
            elif i == 0 and build and ("/" in word):
                files.append(os.path.abspath(folder / word))
                argv[0] = files[-1]
        spec = f"{kind}:{shlex.join(argv)}"
    for pattern in entry.get("files", []):
        matches = sorted(glob.glob(str(folder / pattern), recursive=True))
        files += ([os.path.abspath(m) for m in matches if Path(m).is_file()]
                  or [os.path.abspath(folder / pattern)])
    if kind == "human":
        raise EventError(f"contestant {index + 1}: a tournament has no human seats")
    name = entry.get("name") or spec
    return Contestant(str(name), spec, str(entry.get("build", "")), sorted(set(files)))


def build_contestants(event: Event, log: Callable[[str], None] = print) -> None:
    """Run each contestant's ``build`` command in the event file's folder; a failed build
    leaves the contestant in the event, unable to start (scored by the game's rules)."""
    for c in event.contestants:
        if not c.build:
            continue
        try:
            done = subprocess.run(c.build, shell=True, cwd=event.folder, capture_output=True,
                                  text=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as exc:
            c.error = f"build failed: {exc}"
        else:
            if done.returncode != 0:
                c.error = (f"build failed (exit {done.returncode}): "
                           + (done.stderr or done.stdout).strip()[-400:])
        log(f"build {c.name}: " + (c.error or "ok"))
