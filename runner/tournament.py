"""Tournaments for every game, headless: ``arena tournament EVENT.toml``.

An event file (TOML) names the game, variant and options, the contestants (seat specs
with names), the format, what to cycle over the matches (openings, start positions,
maps), time limits, the seed and how many matches run at once.  See TOURNAMENTS.md.

How it runs:

* The format gives a plan of matches (:class:`Pairing`), each with a deterministic id
  from the event, the seats and the seed; Swiss and SPRT plans grow as results come in.
* Each match is one picklable task (:func:`play_match`) run by any
  ``concurrent.futures`` executor: a local process pool, or a Dask cluster's
  (``Client.get_executor()``).  A task carries everything it needs (options with the
  files' content, and for a cluster the contestants' program files as bytes) and comes
  back with the record and contest files as bytes; only the organizer writes the event
  folder.
* A finished match counts once its files are in ``matches/ID/`` and one line is appended
  and fsynced to ``results.jsonl``.  Running the same command again reads that file and
  plays only what is missing: killing the arena loses at most the matches in flight.
* Standings (the game's own points, head-to-head, Elo with error bars for two-seat
  matches, an OpenSkill rating for games of more seats, an SPRT for A/B tests) are
  computed from the results file in match order, so a resumed event ends with exactly
  the standings of an uninterrupted one; they are written as CSV and JSON.

Never imports pygame.
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
from concurrent.futures.process import BrokenProcessPool
import csv
import glob
import hashlib
import itertools
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from games.api import ArenaError, Termination
from runner import ratings
from runner.i18n import _
from runner.seats import Answer, Seat

try:
    import tomllib
except ImportError:                     # Python 3.10
    import tomli as tomllib            # type: ignore[no-redef]

RESULTS = "results.jsonl"
MATCHES = "matches"
#: Times a match whose task failed (a lost worker, an arena error) is tried again.
RETRIES = 3
#: Times a match that was not played (a seat never got through its handshake) is played,
#: each time after the matches not yet tried; then it is recorded unscored.
NOT_PLAYED_TRIES = 3
#: Seconds between rewrites of the standings files while the event runs.
LIVE_STANDINGS_EVERY = 2.0

FORMATS = ("round-robin", "gauntlet", "swiss", "all-in", "sprt")
#: ``[projection]`` of an event file: turns a second a projected match is played at (0: as
#: fast as the programs answer), "focus" (one board, the others as thumbnails) or "grid",
#: seconds the final position stays up, seconds of the intermission card.
PROJECTION_DEFAULTS = {"pace": 2.0, "layout": "focus", "hold": 3.0, "intermission": 8.0}


class EventError(ArenaError):
    """An event file that cannot be run as written."""


# ====================================================================== the event
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
    points = merged.get("points") or {}
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
    event = Event(
        name=name, game=game, folder=folder, out=target, contestants=contestants,
        format=fmt, variant=merged.get("variant"), options=options, cycle=cycle,
        rounds=int(merged.get("rounds", 2 if fmt == "all-in" else 1)),
        seats=int(merged.get("seats", spec.min_seats if fmt != "all-in" else len(contestants))),
        seed=int(merged.get("seed", 0)), concurrency=max(1, int(merged.get("concurrency", 1))),
        concurrency_asked="concurrency" in merged, clock=clock,
        per_move=_seconds(timing.get("per_move")), total=_seconds(timing.get("total")),
        limits=dict(merged.get("limits") or {}),
        points=(float(points.get("beat", 1.0)), float(points.get("tie", 0.5))),
        champion=int(champion), sprt=dict(merged.get("sprt") or {}),
        max_matches=int((merged.get("sprt") or {}).get("max_matches", 1000)),
        projection=projection_settings(merged.get("projection")), format_name=format_name)
    if not spec.min_seats <= event.seats <= spec.max_seats:
        raise EventError(f"{spec.title} takes {spec.min_seats}-{spec.max_seats} seats a match, "
                         f"not {event.seats}" + (" (all-in puts every contestant in each match)"
                                                 if fmt == "all-in" else ""))
    if event.seats > len(contestants):
        raise EventError(f"matches of {event.seats} seats need at least {event.seats} contestants")
    if fmt in ("swiss", "sprt", "gauntlet") and event.seats != 2:
        raise EventError(f"{fmt} is for two-seat matches")
    if fmt == "sprt" and len(contestants) != 2:
        raise EventError("an SPRT is an A/B test: exactly two contestants (A the new build)")
    return event


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


# ====================================================================== the plan
@dataclass(frozen=True)
class Pairing:
    index: int                     # the match's place in the plan (its number, from 0)
    round: int
    seats: tuple[int, ...]         # contestant indices in seat order
    group: int                     # which cycled value (opening, map) it plays
    id: str = ""
    seed: int = 0
    bye: bool = False              # Swiss: a bye, scored as a win, nothing played


def _digest(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


class Plan:
    """The event's matches: options, seeds and ids for each pairing of a format."""

    def __init__(self, event: Event):
        from games import registry
        from runner.build import match_options, started_options
        self.event = event
        self.plugin = registry.plugin(event.game)
        self.game = self.plugin.new_game()
        self.spec = self.game.spec
        self._options: dict[int, dict] = {}
        self._cycled: dict[int, dict] = {}
        groups = max([len(v) for v in event.cycle.values()] or [1])
        for g in range(groups):
            chosen = {k: v[g % len(v)] for k, v in event.cycle.items()}
            resolved = match_options(self.plugin, event.variant, {**event.options, **chosen},
                                     seat_count=event.seats)
            try:
                loaded = started_options(self.plugin, resolved)     # options that cannot start
            except ArenaError as exc:
                where = f" (with {', '.join(f'{k} = {v!r}' for k, v in chosen.items())})" if chosen else ""
                raise EventError(f"the event's options{where}: {exc}") from None
            self._options[g], self._cycled[g] = loaded, chosen
        self.groups = groups

    def options(self, group: int) -> dict:
        return self._options[group % self.groups]

    def cycled(self, group: int) -> dict:
        """The cycled values as the event names them (a map's name, not its text)."""
        return {k: (v if not isinstance(v, str) or len(v) < 80 else v[:77] + "...")
                for k, v in self._cycled[group % self.groups].items()}

    def make(self, index: int, round_: int, seats: Sequence[int], group: int,
             bye: bool = False) -> Pairing:
        e = self.event
        names = [e.contestants[s].name for s in seats]
        # the event folder's path is left out, so a copy of the event elsewhere keeps its ids
        specs = [e.contestants[s].seat.replace(shlex.quote(str(e.out)), "{out}") for s in seats]
        seed = int(_digest(e.seed, e.name, index, names)[:8], 16) % (2 ** 31)
        key = _digest(e.game, e.variant, self.options(group), names, specs, seed,
                      e.per_move, e.total, e.limits, bye)
        return Pairing(index, round_, tuple(seats), group, f"m{index:04d}-{key[:10]}", seed, bye)

    # ---------------------------------------------------------------- formats
    def pairings(self, done: Mapping[str, dict]) -> list[Pairing]:
        """Every match planned so far given the finished ones (``{id: result line}``)."""
        fmt = self.event.format
        if fmt == "swiss":
            return self._swiss(done)
        if fmt == "sprt":
            return self._sprt(done)
        return self._static()

    def _static(self) -> list[Pairing]:
        e = self.event
        n = len(e.contestants)
        plan, index = [], 0
        if e.format == "round-robin":
            groups = list(itertools.combinations(range(n), e.seats))
        elif e.format == "gauntlet":
            groups = [(e.champion, other) for other in range(n) if other != e.champion]
        else:                                   # all-in: everybody in every match
            groups = [tuple(range(n))]
        for r in range(e.rounds):
            for j, members in enumerate(groups):
                shift = r % len(members)
                seats = members[shift:] + members[:shift]       # seats rotated each round
                if e.format == "all-in":
                    group = r // len(members)                   # a full rotation per map
                else:
                    group = j + (r // len(members)) * len(groups)
                plan.append(self.make(index, r, seats, group))
                index += 1
        return plan

    def _swiss(self, done: Mapping[str, dict]) -> list[Pairing]:
        e = self.event
        n = len(e.contestants)
        plan: list[Pairing] = []
        for r in range(e.rounds):
            if any(p.id not in done and not p.bye for p in plan):
                break                           # the next round waits for this one
            table = score_table(e, plan, done)
            order = sorted(range(n), key=lambda i: (-table[i]["points"], -table[i]["score"], i))
            met = {frozenset(p.seats) for p in plan if len(p.seats) == 2}
            whites = {i: sum(1 for p in plan if p.seats[0] == i and not p.bye) for i in range(n)}
            byes = {p.seats[0] for p in plan if p.bye}
            round_plan = []
            candidates = [i for i in reversed(order) if i not in byes] or list(reversed(order))
            for bye in (candidates if n % 2 else [None]):
                field_ = [i for i in order if i != bye]
                pairs = _swiss_pairs(field_, met)
                if pairs is not None:
                    break
            else:                               # everybody has met: rematches allowed
                bye = candidates[0] if n % 2 else None
                field_ = [i for i in order if i != bye]
                pairs = list(zip(field_[::2], field_[1::2]))
            if bye is not None:
                round_plan.append(((bye,), True))
            for a, b in pairs:
                first = a if whites[a] < whites[b] or (whites[a] == whites[b] and r % 2 == 0) else b
                round_plan.append(((first, b if first == a else a), False))
            for k, (seats, bye) in enumerate(round_plan):
                plan.append(self.make(r * 1000 + k, r, seats, r, bye))
        return plan

    def _sprt(self, done: Mapping[str, dict]) -> list[Pairing]:
        e = self.event
        plan: list[Pairing] = []
        finished = 0
        for index in range(e.max_matches):
            pair = index // 2
            seats = (0, 1) if index % 2 == 0 else (1, 0)
            p = self.make(index, pair, seats, pair)
            if p.id not in done:
                if index >= finished + 2 * e.concurrency:
                    break
            else:
                finished += 1
            plan.append(p)
        results = [done[p.id] for p in plan if p.id in done]
        if sprt_state(e, results)["decision"]:
            plan = [p for p in plan if p.id in done]          # decided: nothing more to play
        return plan


def _swiss_pairs(players: list[int], met: set, budget: list | None = None) -> list | None:
    """Pairs of ``players`` (in standings order) with no rematch, each player meeting
    the nearest one it may; None when there is no such pairing (or the search gives up)."""
    budget = budget if budget is not None else [20000]
    if not players:
        return []
    a, rest = players[0], players[1:]
    for b in rest:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if frozenset((a, b)) in met:
            continue
        tail = _swiss_pairs([x for x in rest if x != b], met, budget)
        if tail is not None:
            return [(a, b)] + tail
    return None


# ====================================================================== one match
class BrokenSeat(Seat):
    """A contestant that cannot start: every answer is a crash with the reason, so the
    game's rules score it (a forfeit, or Robot's robot staying in place)."""

    kind = "ext"

    def __init__(self, spec: str, reason: str):
        super().__init__(spec, f"cannot start ({spec})")
        self.reason = reason

    def ask(self, state, seat, time_limit):
        return Answer(failure=Termination.CRASH, detail=f"cannot start: {self.reason}")


def task_for(event: Event, plan: Plan, pairing: Pairing, ship: bool,
             live: Path | None = None) -> dict:
    """Everything a worker needs to play one match (plain data, picklable)."""
    seats = []
    files: dict[str, tuple[bytes, int]] = {}
    for s in pairing.seats:
        c = event.contestants[s]
        seats.append({"name": c.name, "spec": c.seat, "error": c.error})
        if ship and not c.error:
            for path in c.files:
                try:
                    files[path] = (Path(path).read_bytes(), os.stat(path).st_mode & 0o777)
                except OSError as exc:
                    seats[-1]["error"] = f"{path}: {exc.strerror or exc}"
    return {"id": pairing.id, "game": event.game, "variant": event.variant,
            "options": plan.options(pairing.group), "seats": seats, "seed": pairing.seed,
            "per_move": event.per_move, "total": event.total, "limits": event.limits,
            "files": files, "live": str(live) if live else None}


def play_match(task: Mapping[str, Any]) -> dict:
    """Play one match in a temporary folder and hand back its outcome and files.

    Runs on any worker (a local process, a Dask worker on another machine): the
    programs' files come in the task and are written under the temporary folder, and
    the commands are pointed at those copies.
    """
    from runner.build import MatchPlan, build_match
    from runner.match import TimeControl
    from runner.process import split_command
    from runner.seats import parse_seat_spec

    started = time.perf_counter()
    _first_task_here()
    root = Path(tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-{task['id']}-"))
    root.chmod(0o711)       # the basic sandbox's own uids reach their seat folders (0700)
    _SCRATCH.add(root)
    try:
        _STATE[0] = _PLAYING     # a stop signal stops the match (see _stop_match)
        shipped = {}
        for path, (data, mode) in (task.get("files") or {}).items():
            if ".." in Path(path).parts:
                raise EventError(f"a shipped file's path must be plain: {path}")
            target = root / "ship" / path.lstrip("/\\").replace(":", "")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            os.chmod(target, mode or 0o644)
            shipped[path] = str(target)
        limits = dict(task.get("limits") or {})
        if shipped:                    # the sandbox shows a program its shipped files
            limits["read_only"] = [*limits.get("read_only", ()), str(root / "ship")]
        if task.get("per_move"):
            limits.setdefault("time", task["per_move"])
        names = [s["name"] for s in task["seats"]]
        specs = [s["spec"] for s in task["seats"]]
        if shipped:                    # the commands run the shipped copies
            for index, spec in enumerate(specs):
                kind, arg = parse_seat_spec(spec)
                if kind not in ("bot", "human") and arg:
                    specs[index] = f"{kind}:" + shlex.join(shipped.get(w, w) for w in split_command(arg))
        time_control = (TimeControl(task.get("per_move"), task.get("total"))
                        if task.get("per_move") or task.get("total") else None)
        out = root / "out"
        record = _live_record(task) or out / f"{task['id']}.arena.jsonl"
        plan = MatchPlan(task["game"], specs, task["seed"], task["options"], whole_options=True,
                         variant=task.get("variant"), limits=limits, labels=names,
                         broken=[s.get("error") or "" for s in task["seats"]], time_control=time_control)
        match = build_match(plan, record_path=record, workdir=root / "work", out_dir=out,
                            unstartable=BrokenSeat)
        _CURRENT[0] = match
        if _STOPPING.is_set():       # told to stop while the match was being set up
            raise TournamentStopped("SIGTERM")
        with _following_pace(match, task):
            outcome = match.run()
        failures = _failures(match, names, [s.get("error", "") for s in task["seats"]])
        files = {str(p.relative_to(out)): p.read_bytes()
                 for p in sorted(out.rglob("*")) if p.is_file()}
        if record.parent != out:
            files[record.name] = record.read_bytes()
        return {"id": task["id"], "outcome": outcome.to_json(),
                "result": outcome.result_text(names), "turns": len(match.turns),
                "failures": failures, "error": match.error, "files": files,
                "elapsed": round(time.perf_counter() - started, 3), "host": socket.gethostname()}
    finally:
        _STATE[0], _CURRENT[0] = _CLEANING, None     # a stop now waits for the folder's removal
        shutil.rmtree(root, ignore_errors=True)
        _SCRATCH.discard(root)
        _STATE[0] = _IDLE
        if _STOPPING.is_set():
            os._exit(0)      # a stopped pool process plays no more (its pool waits for it to end)


def _live_record(task: Mapping[str, Any]) -> Path | None:
    """``live/ID.arena.jsonl`` in the event folder when the event is followed live (the
    record is flushed per turn, so a projection can read it); None when not asked for
    or when the folder cannot be written from here."""
    if not task.get("live"):
        return None
    folder = Path(task["live"])
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder / f"{task['id']}.arena.jsonl" if os.access(folder, os.W_OK) else None


class _following_pace:
    """While a live match runs: play it at the pace in ``live/pace.json``, looked at a few
    times a second, so a projection (here or on another machine) can slow it down or
    speed it up.  Tournaments have no human seats, so every match is paced."""

    EVERY = 0.3

    def __init__(self, match, task: Mapping[str, Any]):
        self.match, self.folder = match, Path(task["live"]).parent if task.get("live") else None
        self.done = threading.Event()
        self.thread: threading.Thread | None = None

    def __enter__(self):
        if self.folder is not None:
            self._apply()
            self.thread = threading.Thread(target=self._watch, name="pace", daemon=True)
            self.thread.start()
        return self

    def _apply(self) -> None:
        from runner.live import read_pace
        pace = read_pace(self.folder)
        if pace is not None:
            self.match.set_pace(pace if pace > 0 else None)

    def _watch(self) -> None:
        while not self.done.wait(self.EVERY):
            self._apply()

    def __exit__(self, *exc):
        self.done.set()
        if self.thread is not None:
            self.thread.join(1.0)
        return False


def _failures(match, names: Sequence[str], errors: Sequence[str]) -> list[dict]:
    """Per seat that misbehaved: how often, the first reason (crash, time-out ...) with
    its turn and detail, and how often each reason came."""
    found: dict[int, dict] = {}
    for seat, error in enumerate(errors):
        if error:
            found[seat] = {"seat": seat, "name": names[seat], "count": 0, "turn": 0,
                           "reason": "crash", "detail": f"cannot start: {error}", "reasons": {}}
    for info in match.turns:
        for seat, answer in info.answers.items():
            seat = int(seat)
            reason = answer.get("failure")
            if reason:
                entry = found.setdefault(seat, {"seat": seat, "name": names[seat], "count": 0,
                                                "turn": info.number, "reason": reason,
                                                "detail": answer.get("detail", "")})
                entry["count"] += 1
                entry.setdefault("reasons", {})
                entry["reasons"][reason] = entry["reasons"].get(reason, 0) + 1
    return [found[s] for s in sorted(found)]


# ====================================================================== results file
class ResultsFile:
    """``results.jsonl``: one line per finished match, appended and fsynced."""

    def __init__(self, path: Path):
        self.path = path
        self.lines: dict[str, dict] = {}
        if path.exists():
            raw = path.read_bytes()
            end = raw.rfind(b"\n") + 1
            if end != len(raw):                 # a line cut by a kill: drop it
                with open(path, "r+b") as fh:
                    fh.truncate(end)
                raw = raw[:end]
            for line in raw.decode("utf-8", "replace").splitlines():
                try:
                    data = json.loads(line)
                except ValueError:
                    continue
                if isinstance(data, dict) and "id" in data:
                    self.lines.setdefault(data["id"], data)

    def append(self, data: dict) -> None:
        text = json.dumps(data, sort_keys=True) + "\n"
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        self.lines[data["id"]] = data


def _write_match_files(folder: Path, match_id: str, files: Mapping[str, bytes]) -> Path:
    """The match's record and contest files into ``matches/ID/`` (written whole, then
    renamed into place, so a kill never leaves a half folder under the final name)."""
    final = folder / MATCHES / match_id
    staging = folder / MATCHES / f".{match_id}.partial"
    shutil.rmtree(staging, ignore_errors=True)
    for name, data in files.items():
        target = staging / name
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    staging.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(final, ignore_errors=True)
    os.replace(staging, final)
    return final


# ====================================================================== running
#: How a worker's temporary match folder is named: the prefix, the worker's pid, the match.
SCRATCH_PREFIX = "arena-w"
#: The marker naming the organizer's multiprocessing folder (``pymp-…``), by its pid.
POOL_MARKER_PREFIX = "arena-o"
#: This process's temporary match folders still in use (removed if the organizer dies).
_SCRATCH: set[Path] = set()


def local_executor(workers: int) -> cf.Executor:
    """A pool of ``workers`` processes (each match's bots use a whole core)."""
    import multiprocessing
    context = multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn")
    pool_folder = _pool_folder()
    return cf.ProcessPoolExecutor(max_workers=workers, mp_context=context,
                                  initializer=_worker_start, initargs=(os.getpid(), pool_folder))


def _pool_folder() -> str:
    """The folder multiprocessing keeps this process's pool sockets in (``pymp-…``),
    named in a marker file so that a later run removes it if this process is killed."""
    from multiprocessing import util
    folder = util.get_temp_dir()
    try:
        marker = Path(tempfile.gettempdir()) / f"{POOL_MARKER_PREFIX}{os.getpid()}.pymp"
        marker.write_text(folder + "\n", encoding="utf-8")
        util.Finalize(None, marker.unlink, kwargs={"missing_ok": True}, exitpriority=-99)
    except OSError:
        pass
    return folder


def remove_stale_scratch(folder: str | Path | None = None) -> list[Path]:
    """Remove what killed tournaments left in the temporary folder: the match folders of
    workers that no longer run, and the pool folders of organizers that no longer run
    (a process killed with SIGKILL cleans nothing up).  Returns what was removed."""
    base = Path(folder or tempfile.gettempdir())
    removed: list[Path] = []
    for prefix, kind in ((SCRATCH_PREFIX, "match"), (POOL_MARKER_PREFIX, "pool")):
        for path in base.glob(f"{prefix}*"):
            pid = path.name[len(prefix):].split("-", 1)[0].split(".", 1)[0]
            if not pid.isdigit() or _running(int(pid)):
                continue
            if kind == "pool":
                try:
                    named = Path(path.read_text(encoding="utf-8").strip())
                except OSError:
                    continue
                if named.parent == base and named.name.startswith("pymp-"):
                    shutil.rmtree(named, ignore_errors=True)
                    removed.append(named)
                path.unlink(missing_ok=True)
            elif path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    import psutil
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _clean_after_exit(roots: list[Path], pool_folder: str, organizer: int) -> None:
    """Remove this worker's match folders and the organizer's pool folder once this
    process has ended: a forked cleaner waits for that, so the match still running on
    the main thread cannot write its folders again after they were removed."""
    me = os.getpid()
    try:
        if os.fork() != 0:
            return
    except OSError:
        return
    try:
        while os.getppid() == me:
            time.sleep(0.02)
        for root in roots:
            shutil.rmtree(root, ignore_errors=True)
        if pool_folder:
            shutil.rmtree(pool_folder, ignore_errors=True)
            marker = Path(tempfile.gettempdir()) / f"{POOL_MARKER_PREFIX}{organizer}.pymp"
            marker.unlink(missing_ok=True)
    finally:
        os._exit(0)


class TournamentStopped(KeyboardInterrupt):
    """A tournament (or one pool process's match) stopped by SIGTERM or SIGINT."""

    def __init__(self, signal_name: str = "SIGINT"):
        super().__init__(signal_name)
        self.signal_name = signal_name


#: What this process does now (a stop signal stops its match, waits for a cleanup, or
#: ends an idle process: see :func:`_stopper`), the match it plays, and whether it has
#: been told to stop.
_IDLE, _PLAYING, _CLEANING = "idle", "playing", "cleaning"
_STATE = [_IDLE]
_CURRENT: list = [None]
_STOPPING = threading.Event()
_TIDIED = False


def _first_task_here() -> None:
    """Once per process that plays matches (a pool process, a Dask worker): remove the
    temporary match folders of workers that no longer run (one killed with SIGKILL
    cleans nothing up)."""
    global _TIDIED
    if not _TIDIED:
        _TIDIED = True
        try:
            remove_stale_scratch()
        except OSError:
            pass
        _stop_signals_in_dask_worker()


def _stop_signals_in_dask_worker() -> None:
    """In a Dask worker process (its event loop on the main thread, as ``dask worker``
    runs it): a stop signal (SIGTERM, SIGINT) stops its match as a pool process's does
    (:func:`_listen_for_stop_signals`): aborted, programs killed, folder removed, then
    the process ends (its scheduler gives the match to another worker).  A worker whose
    loop runs on another thread (an in-process cluster) keeps Dask's own handling."""
    try:
        from distributed import get_worker
        worker = get_worker()
    except Exception:           # not in a Dask worker (or no Dask)
        return
    if threading.current_thread() is threading.main_thread():
        _listen_for_stop_signals()
        return
    installed = threading.Event()

    def install() -> None:
        if threading.current_thread() is threading.main_thread():
            _listen_for_stop_signals()
        installed.set()
    try:
        worker.loop.add_callback(install)
    except Exception:
        return
    installed.wait(5)


def _listen_for_stop_signals() -> None:
    """In the main thread: SIGTERM and SIGINT are written down on a pipe, which the
    :func:`_stopper` thread reads."""
    import signal
    read_fd, write_fd = os.pipe()

    def note_stop(signum, frame) -> None:
        try:
            os.write(write_fd, b"!")
        except OSError:
            pass
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, note_stop)
    threading.Thread(target=_stopper, args=(read_fd,), name="stopper", daemon=True).start()


def _stopper(read_fd: int) -> None:
    """A pool process's thread that acts on a stop signal (SIGTERM, or Ctrl-C's SIGINT to
    the process group), which the handler only writes down on ``read_fd``'s pipe (a
    signal handler may run anywhere, even inside a fork's bookkeeping).  While a match
    plays, it stops it (:meth:`runner.match.Match.stop`): the match ends as aborted,
    its record is closed, its programs are killed, its folder is removed, and the
    process then ends (:func:`play_match`).  While a match's folder is being removed,
    the process ends after it; idle, it ends at once (a pool that terminates its
    processes, as a broken one does, waits for them to end)."""
    try:
        os.read(read_fd, 1)
    except OSError:
        return
    _STOPPING.set()
    match = _CURRENT[0]
    if match is not None:
        match.stop()
    elif _STATE[0] == _IDLE:
        os._exit(0)


def _worker_start(organizer: int, pool_folder: str = "") -> None:
    """A pool process ends with the organizer (and takes its programs with it), so a
    killed arena leaves nothing running, and removes its temporary match folders and
    the organizer's pool folder, so it leaves nothing in the temporary folder either.
    As it starts it removes what killed workers left (:func:`_first_task_here`), and a
    stop signal (SIGTERM, or Ctrl-C's SIGINT to the process group) stops its match
    cleanly instead of killing it mid-turn (:func:`_stopper`)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    _listen_for_stop_signals()
    _first_task_here()

    def watch() -> None:
        import psutil
        while True:
            time.sleep(0.5)
            if not _running(organizer):
                for child in psutil.Process().children(recursive=True):
                    try:
                        child.kill()
                    except psutil.Error:
                        pass
                _clean_after_exit(list(_SCRATCH), pool_folder, organizer)
                os._exit(1)

    threading.Thread(target=watch, name="organizer-watch", daemon=True).start()


def run_event(event: Event, executor: cf.Executor | None = None, ship: bool = False,
              log: Callable[[str], None] = print, live: bool = False,
              pace: float | None = None) -> dict:
    """Play every match of the event not yet in its results file; return the standings.

    ``executor`` runs :func:`play_match` tasks (default: a local pool of
    ``event.concurrency`` processes); ``ship`` sends the contestants' files with each task
    (for workers on other machines).  ``live`` has every match write its record to
    ``live/ID.arena.jsonl`` turn by turn and the plan to ``live/schedule.json``, for a
    projection (``runner.live``); the matches are then played at ``pace`` turns a second
    (0: unpaced), changeable while they run through ``live/pace.json``.
    """
    folder = event.out
    (folder / MATCHES).mkdir(parents=True, exist_ok=True)
    if executor is None:
        fit_to_machine(event)
    for text in event.machine_notes + event.warnings:
        log(text)
    _write_event_json(event)
    live_dir = folder / "live" if live else None
    if live_dir is not None:
        from runner.live import write_pace
        live_dir.mkdir(exist_ok=True)
        write_pace(folder, event.projection["pace"] if pace is None else pace)
    results = ResultsFile(folder / RESULTS)
    plan = Plan(event)
    own = executor is None
    remove_stale_scratch()
    if own:
        executor = local_executor(event.concurrency)
    build_contestants(event, log)
    in_flight: dict[cf.Future, tuple[Pairing, int, int]] = {}   # pairing, tries, pool
    pool = [executor, 0]                    # the executor and its generation

    def submit(pairing: Pairing, tries: int) -> None:
        try:
            future = pool[0].submit(play_match, task_for(event, plan, pairing, ship, live_dir))
        except BrokenProcessPool:
            if not own:
                raise
            renew()
            future = pool[0].submit(play_match, task_for(event, plan, pairing, ship, live_dir))
        in_flight[future] = (pairing, tries, pool[1])

    def renew() -> None:
        """A process of the local pool died: a new pool, and its matches sent again."""
        log("a process of the pool died; its matches are played again in a new pool")
        pool[0].shutdown(wait=False, cancel_futures=True)
        pool[0], pool[1] = local_executor(event.concurrency), pool[1] + 1
        for f, (p, t, _) in list(in_flight.items()):
            del in_flight[f]
            submit(p, t + 1)

    started, played, shown = time.perf_counter(), 0, 0.0
    interrupted = False
    not_played: dict[str, int] = {}         # match id -> times it was not played
    try:
        while True:
            pairings = plan.pairings(results.lines)
            busy = {p.id for p, _, _ in in_flight.values()}
            pending = [p for p in pairings if not p.bye and p.id not in results.lines
                       and p.id not in busy]
            pending.sort(key=lambda p: not_played.get(p.id, 0))    # a replay after the rest
            for p in pending[:max(0, event.concurrency - len(in_flight))]:
                submit(p, 1)
            if live_dir is not None:
                _write_schedule(live_dir, [p for p, _, _ in in_flight.values()],
                                [p for p in pending if p.id not in {q.id for q, _, _ in in_flight.values()}],
                                event, finished=not in_flight)
            if not in_flight:
                break
            finished, _ = cf.wait(list(in_flight), timeout=STOP_POLL, return_when=cf.FIRST_COMPLETED)
            if _STOP_ASKED[0]:              # arena tournament --window: closed, or SIGTERM
                raise TournamentStopped(_STOP_ASKED[0])
            for future in finished:
                if future not in in_flight:         # sent again to a new pool already
                    continue
                pairing, tries, generation = in_flight.pop(future)
                try:
                    answer = future.result()
                except Exception as exc:            # a lost worker, a broken pool: try again
                    if tries < RETRIES:
                        log(f"match {pairing.id}: {type(exc).__name__}: {exc}; trying again")
                        if isinstance(exc, BrokenProcessPool) and own and generation == pool[1]:
                            renew()
                        submit(pairing, tries + 1)
                        continue
                    answer = {"id": pairing.id, "error": "".join(traceback.format_exception_only(
                        type(exc), exc)).strip(), "files": {}}
                if _not_played(answer):
                    not_played[pairing.id] = not_played.get(pairing.id, 0) + 1
                    detail = answer["outcome"].get("detail", "")
                    if not_played[pairing.id] < NOT_PLAYED_TRIES:
                        log(f"match {pairing.id} not played ({detail}); it is played again after "
                            f"the others (try {not_played[pairing.id] + 1} of {NOT_PLAYED_TRIES})")
                        continue
                    log(f"match {pairing.id} not played {NOT_PLAYED_TRIES} times ({detail}); "
                        "recorded without a result")
                    answer = {**answer, "error": f"not played: {detail}"}
                    answer.pop("outcome")
                    answer.pop("result", None)
                line = _record(event, plan, pairing, answer)
                results.append(line)
                if live_dir is not None:             # its final copy is in matches/ID now
                    _remove_quietly(live_dir / f"{pairing.id}.arena.jsonl")
                    shown = 0.0                      # a projection wants the new standings now
                played += 1
                total = len(pairings) if event.format in ("round-robin", "gauntlet", "all-in") else None
                log(f"[{len(results.lines)}{'/' + str(total) if total else ''}] {pairing.id} "
                    + " vs ".join(line["contestants"]) + f": {line.get('result') or line.get('error')}"
                    + (f" ({line['outcome']['detail']})" if line.get("outcome", {}).get("detail") else ""))
            if time.monotonic() - shown > LIVE_STANDINGS_EVERY:     # for a projector or a peek
                write_standings(event, standings(event, plan, results.lines))
                shown = time.monotonic()
    except BaseException:
        interrupted = True          # Ctrl-C, SIGTERM: the matches in flight are re-run next time
        raise
    finally:
        _STOP_ASKED[0] = ""                 # a later event in this process runs again
        if own:
            if interrupted:
                _stop_pool(pool[0])
            pool[0].shutdown(wait=True, cancel_futures=True)
    elapsed = time.perf_counter() - started
    table = standings(event, plan, results.lines)
    table["run"] = {"played_now": played, "seconds": round(elapsed, 2),
                    "matches_per_second": round(played / elapsed, 3) if elapsed and played else None}
    write_standings(event, table)
    return table


def _not_played(answer: Mapping[str, Any]) -> bool:
    """Whether a match came back not played (a seat never got through its handshake)."""
    return (answer.get("outcome") or {}).get("reason") == Termination.NOT_PLAYED.value


#: Seconds a stopped pool's processes have to end their matches before they are killed.
STOP_GRACE = 10.0
#: How often (seconds) an event run off the main thread looks for a stop request.
STOP_POLL = 0.25
#: Why the event running in this process was asked to stop ("" while it was not): an
#: event run on a thread (``arena tournament --window``) cannot be interrupted by a
#: signal, so :func:`request_stop` leaves a note that :func:`run_event` reads.
_STOP_ASKED = [""]


def request_stop(why: str = "SIGTERM") -> None:
    """Ask the event running on another thread of this process to stop as Ctrl-C stops
    it: its matches end as aborted with their records closed, their programs killed,
    the pool shut down whole, and the next run resumes (``why``: a signal's name, or
    words said in the stop's message)."""
    _STOP_ASKED[0] = _STOP_ASKED[0] or why


def _stop_pool(executor: cf.Executor) -> None:
    """Stop a local pool's matches: each process is sent SIGTERM (its match ends as
    aborted, with its record closed and its programs killed: :func:`_stopper`), and
    one that has not ended within :data:`STOP_GRACE` seconds is killed (its programs
    die with it).  Further stop signals to this process are ignored meanwhile, so the
    pool is shut down whole (no process, pipe or semaphore is left)."""
    import signal
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, signal.SIG_IGN)
    processes = list((getattr(executor, "_processes", None) or {}).values())
    for proc in processes:
        try:
            os.kill(proc.pid, signal.SIGTERM)
        except (OSError, TypeError):
            pass

    def kill_late() -> None:
        deadline = time.monotonic() + STOP_GRACE
        for proc in processes:
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
    threading.Thread(target=kill_late, name="pool-stop", daemon=True).start()


def _stop_on_sigterm() -> None:
    """In the command line's main thread: SIGTERM stops the tournament as Ctrl-C does
    (:class:`TournamentStopped`), so that it ends cleanly rather than at once."""
    import signal
    if threading.current_thread() is not threading.main_thread():
        return

    def stop(signum, frame):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise TournamentStopped("SIGTERM")
    signal.signal(signal.SIGTERM, stop)


def _write_schedule(folder: Path, running: Sequence[Pairing], pending: Sequence[Pairing],
                    event: Event, finished: bool) -> None:
    """``live/schedule.json``: the matches in flight and the next ones (for the
    projection's "next" card), and whether the event is over."""
    def describe(p: Pairing) -> dict:
        return {"id": p.id, "index": p.index, "round": p.round,
                "contestants": [event.contestants[s].name for s in p.seats]}
    data = {"running": [describe(p) for p in running], "next": [describe(p) for p in pending[:8]],
            "finished": finished}
    tmp = folder / f".{os.getpid()}.schedule.tmp"
    try:
        tmp.write_text(json.dumps(data) + "\n", encoding="utf-8")
        os.replace(tmp, folder / "schedule.json")
    except OSError:
        pass                          # a projection aid: never stops the event


def _remove_quietly(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def _record(event: Event, plan: Plan, pairing: Pairing, answer: Mapping[str, Any]) -> dict:
    names = [event.contestants[s].name for s in pairing.seats]
    line = {"id": pairing.id, "index": pairing.index, "round": pairing.round,
            "contestants": names, "seed": pairing.seed, "cycle": plan.cycled(pairing.group)}
    if answer.get("files"):
        _write_match_files(event.out, pairing.id, answer["files"])
        line["folder"] = f"{MATCHES}/{pairing.id}"
    for key in ("outcome", "result", "turns", "failures", "error", "elapsed", "host"):
        if answer.get(key) not in (None, ""):
            line[key] = answer[key]
    return line


def _write_event_json(event: Event) -> None:
    data = {"name": event.name, "game": event.game, "variant": event.variant,
            "format": event.format, "format_name": event.shown_format,
            "rounds": event.rounds, "seats": event.seats,
            "seed": event.seed, "options": event.options, "cycle": event.cycle,
            "time": {"per_move": event.per_move, "total": event.total},
            "points": {"beat": event.points[0], "tie": event.points[1]},
            "contestants": [{"name": c.name, "seat": c.seat} for c in event.contestants],
            "concurrency": event.concurrency, "projection": event.projection,
            "clock": event.clock or "wall", "machine": event.machine_notes, "warnings": event.warnings}
    target = event.out / "event.json"
    tmp = target.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, target)


# ====================================================================== standings
def _counted(plan_ids: set[str], done: Mapping[str, dict]) -> list[dict]:
    lines = [done[i] for i in plan_ids if i in done and done[i].get("outcome")]
    return sorted(lines, key=lambda l: l["index"])


def score_table(event: Event, pairings: Sequence[Pairing], done: Mapping[str, dict]) -> list[dict]:
    """Per contestant: points by the event's scoring, the games' own score, W/D/L."""
    beat, tie = event.points
    rows = [{"name": c.name, "points": 0.0, "score": 0.0, "played": 0, "wins": 0, "draws": 0,
             "losses": 0, "byes": 0, "failures": 0} for c in event.contestants]
    index = {c.name: i for i, c in enumerate(event.contestants)}
    for p in pairings:
        if p.bye:
            rows[p.seats[0]]["points"] += beat
            rows[p.seats[0]]["byes"] += 1
    for line in _counted({p.id for p in pairings}, done):
        ranks, scores = line["outcome"]["ranks"], line["outcome"]["scores"]
        for seat, name in enumerate(line["contestants"]):
            row = rows[index[name]]
            better = sum(1 for r in ranks if r > ranks[seat])
            same = sum(1 for r in ranks if r == ranks[seat]) - 1
            worse = len(ranks) - 1 - better - same
            row["points"] += beat * better + tie * same
            row["score"] += scores[seat]
            row["played"] += 1
            row["wins"] += better
            row["draws"] += same
            row["losses"] += worse
        for failure in line.get("failures", []):
            rows[index[line["contestants"][failure["seat"]]]]["failures"] += 1
    return rows


def sprt_state(event: Event, lines: Sequence[Mapping]) -> dict:
    """W/D/L of contestant A (the first) against B, and the SPRT's decision."""
    a = event.contestants[0].name
    w = d = l = 0
    for line in lines:
        if not line.get("outcome"):
            continue
        ranks = line["outcome"]["ranks"]
        mine = ranks[line["contestants"].index(a)]
        theirs = ranks[1 - line["contestants"].index(a)]
        w, d, l = w + (mine < theirs), d + (mine == theirs), l + (mine > theirs)
    cfg = event.sprt
    return ratings.sprt(w, d, l, float(cfg.get("elo0", 0)), float(cfg.get("elo1", 5)),
                        float(cfg.get("alpha", 0.05)), float(cfg.get("beta", 0.05)))


def standings(event: Event, plan: Plan, done: Mapping[str, dict]) -> dict:
    pairings = plan.pairings(done)
    lines = _counted({p.id for p in pairings}, done)
    rows = score_table(event, pairings, done)
    for row, c in zip(rows, event.contestants):
        row["seat"] = c.seat
        if c.error:
            row["error"] = c.error
    two_seat = bool(lines) and all(len(l["contestants"]) == 2 for l in lines)
    if two_seat:
        games = []
        for line in lines:
            r = line["outcome"]["ranks"]
            games.append((line["contestants"][0], line["contestants"][1],
                          1.0 if r[0] < r[1] else 0.5 if r[0] == r[1] else 0.0))
        elo = ratings.elo_ratings(games)
        for row in rows:
            if row["name"] in elo:
                row["elo"], row["elo_error"] = (round(x, 1) for x in elo[row["name"]])
    if plan.spec.max_seats > 2:
        skill = ratings.openskill_ratings(
            [(l["contestants"], l["outcome"]["ranks"]) for l in lines], event.names)
        for row in rows:
            mu, sigma, ordinal = skill[row["name"]]
            row["mu"], row["sigma"], row["ordinal"] = round(mu, 2), round(sigma, 2), round(ordinal, 2)
    ordered = sorted(rows, key=lambda r: (-r["points"], -r["score"], r["name"]))
    previous = None
    for place, row in enumerate(ordered, start=1):
        key = (row["points"], row["score"])
        row["rank"] = ordered[place - 2]["rank"] if key == previous else place
        previous = key
    h2h: dict[str, dict[str, list[int]]] = {a: {b: [0, 0, 0] for b in event.names if b != a}
                                            for a in event.names}
    for line in lines:
        ranks = line["outcome"]["ranks"]
        for (i, a), (j, b) in itertools.permutations(enumerate(line["contestants"]), 2):
            h2h[a][b][0 if ranks[i] < ranks[j] else 1 if ranks[i] == ranks[j] else 2] += 1
    planned = [p for p in pairings if not p.bye]
    table = {"event": event.name, "game": event.game, "format": event.format,
             "format_name": event.shown_format,
             "clock": event.clock or "wall", "machine": event.machine_notes + event.warnings,
             "matches": {"planned": len(planned), "played": len(lines),
                         "errors": sum(1 for p in planned if p.id in done
                                       and not done[p.id].get("outcome"))},
             "points": {"beat": event.points[0], "tie": event.points[1]},
             "standings": ordered, "head_to_head": h2h}
    if event.format == "sprt":
        table["sprt"] = sprt_state(event, lines)
    return table


COLUMNS = ("rank", "name", "played", "points", "score", "wins", "draws", "losses", "byes",
           "failures", "elo", "elo_error", "mu", "sigma", "ordinal", "seat")


def write_standings(event: Event, table: dict) -> None:
    """standings.json, standings.csv and head_to_head.csv in the event folder."""
    out = event.out
    tmp = out / "standings.json.tmp"
    tmp.write_text(json.dumps(table, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, out / "standings.json")
    present = [c for c in COLUMNS if any(c in row for row in table["standings"])]
    with open(out / "standings.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(present)
        for row in table["standings"]:
            writer.writerow([_cell(row.get(c, "")) for c in present])
    names = event.names
    with open(out / "head_to_head.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["W-D-L of row against column", *names])
        for a in names:
            writer.writerow([a, *("" if a == b else "-".join(map(str, table["head_to_head"][a][b]))
                                  for b in names)])


def _cell(value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def standings_text(table: dict) -> str:
    rows = table["standings"]
    lines = [f"{table['event']} ({table['game']}, {table['format']}, clock {table.get('clock', 'wall')}): "
             f"{table['matches']['played']}/{table['matches']['planned']} matches"]
    lines += table.get("machine") or []
    extra = "elo" in rows[0] if rows else False
    skill = "mu" in rows[0] if rows else False
    head = f"{'rank':>4}  {'contestant':24s} {'played':>6} {'points':>7} {'score':>7}  {'W-D-L':>11}"
    head += "  {:>13}".format("Elo ±95%") if extra else ""
    head += "  {:>14}".format("mu ± sigma") if skill else ""
    lines.append(head)
    for r in rows:
        text = (f"{r['rank']:>4}  {r['name'][:24]:24s} {r['played']:>6} {_cell(r['points']):>7} "
                f"{_cell(round(r['score'], 2)):>7}  {str(r['wins']) + '-' + str(r['draws']) + '-' + str(r['losses']):>11}")
        if extra:
            text += "  {:>13}".format(f"{r['elo']:+.0f} ± {r['elo_error']:.0f}" if "elo" in r else "")
        if skill:
            text += "  {:>14}".format(f"{r['mu']:.1f} ± {r['sigma']:.1f}")
        if r.get("failures"):
            text += f"  ({r['failures']} matches with failures)"
        if r.get("error"):
            text += f"  [{r['error'][:60]}]"
        lines.append(text)
    if "sprt" in table:
        s = table["sprt"]
        lines.append(f"SPRT elo0={s['elo0']:g} elo1={s['elo1']:g} alpha={s['alpha']:g} "
                     f"beta={s['beta']:g}: W-D-L {s['wins']}-{s['draws']}-{s['losses']}, "
                     f"LLR {s['llr']:.2f} ({s['lower']:.2f}, {s['upper']:.2f}) "
                     + ({"H1": "H1 accepted: A is stronger",
                         "H0": "H0 accepted: A is not stronger"}.get(s["decision"], "no decision yet")))
    return "\n".join(lines) + "\n"


# ====================================================================== command line
def register(commands) -> None:
    """``arena tournament EVENT.toml`` (added by main.py next to ``match``)."""
    parser = commands.add_parser(
        "tournament", help=_("run a tournament from an event file, headless (see TOURNAMENTS.md)"))
    parser.add_argument("event", help=_("the event file (TOML)"))
    parser.add_argument("--out", metavar="DIR", help=_("the event folder (default: the event's "
                        "out, else a folder named after the event in the current folder)"))
    parser.add_argument("--workers", type=int, metavar="N",
                        help=_("matches at once on this machine (default: the event's concurrency)"))
    parser.add_argument("--cluster", metavar="tcp://HOST:8786",
                        help=_("run the matches on a Dask distributed cluster (pip install 'arena[cluster]')"))
    parser.add_argument("--quiet", action="store_true", help=_("print only the standings"))
    parser.add_argument("--window", action="store_true",
                        help=_("show the standings in the arena's window while the event runs"))
    parser.add_argument("--project", action="store_true",
                        help="project the event fullscreen while it runs: live boards at the "
                             "event's [projection] pace, intermissions, standings")
    parser.add_argument("--display", type=int, default=0, metavar="N",
                        help="with --project: the display to go fullscreen on (0 the first)")
    parser.add_argument("--live", action="store_true",
                        help="headless, but write each match's record turn by turn and play at "
                             "the event's pace, for `arena project FOLDER` on another machine")
    parser.set_defaults(func=cmd_tournament)
    project = commands.add_parser(
        "project", help="project an event folder another arena is writing (see TOURNAMENTS.md)")
    project.add_argument("folder", help="the event folder (results.jsonl, live/ ...), "
                                        "e.g. on a shared drive")
    project.add_argument("--display", type=int, default=0, metavar="N",
                         help="the display to go fullscreen on (0 the first)")
    project.add_argument("--windowed", action="store_true", help="a window, not fullscreen")
    project.add_argument("--size", metavar="WxH", default=argparse.SUPPRESS,   # keeps a global --size
                         help="the window's size (a window, not fullscreen)")
    project.set_defaults(func=cmd_project)


@dataclass
class ShowStandings:
    """A request to the shell (main.py): show the standings of ``folder`` in the window
    while ``thread`` runs the event; the runner itself never opens a window."""

    folder: Path
    thread: threading.Thread | None
    log: list[str]
    outcome: dict
    #: Open the projection (fullscreen on ``display``) rather than the standings screen.
    project: bool = False
    display: int = 0
    windowed: bool = False

    def error(self) -> str:
        return self.outcome.get("error", "")

    def finish(self) -> int:
        """Wait for the event's end (see :meth:`stop`)."""
        if self.thread is None:
            return self.outcome.get("code", 0)
        self.thread.join()
        return self.outcome.get("code", 1)

    def stop(self, why: str) -> None:
        """The window was closed, or the shell got SIGTERM (``why``): an event still
        running stops cleanly (:func:`request_stop`); :meth:`finish` then waits for it."""
        if self.thread is not None and self.thread.is_alive():
            request_stop(why)


def cmd_project(args) -> int | ShowStandings:
    """``arena project FOLDER``: follow an event folder written by another arena."""
    folder = Path(args.folder)
    if not folder.is_dir():
        print(f"arena: {folder}: no such event folder (the folder holding results.jsonl)",
              file=sys.stderr)
        return 2
    return ShowStandings(folder.absolute(), None, [], {}, project=True, display=args.display,
                         windowed=args.windowed)


def cmd_tournament(args) -> int | ShowStandings:
    project = getattr(args, "project", False)
    if getattr(args, "window", False) or project:
        lines: list[str] = []
        outcome: dict = {}

        def background() -> None:
            outcome["code"] = _run_command(args, lambda text: (lines.append(text),
                                                               None if args.quiet else print(text, flush=True)),
                                           outcome)
        try:
            folder = load_event(args.event, args.out).out
        except ArenaError as exc:
            print(f"arena: {exc}", file=sys.stderr)
            return 2
        thread = threading.Thread(target=background, name="tournament", daemon=True)
        thread.start()
        return ShowStandings(folder, thread, lines, outcome, project=project,
                             display=getattr(args, "display", 0) or 0)
    log = (lambda text: print(text, file=sys.stderr) if text.startswith("WARNING") else None) \
        if args.quiet else (lambda text: print(text, flush=True))
    return _run_command(args, log, {})


def _run_command(args, log, outcome: dict) -> int:
    """``arena tournament``'s work; a stop by SIGTERM or Ctrl-C ends it cleanly with
    128 + the signal's number, what was finished being kept for the next run."""
    _stop_on_sigterm()
    try:
        return _run_event_command(args, log, outcome)
    except KeyboardInterrupt as exc:
        name = getattr(exc, "signal_name", "SIGINT")
        print(f"arena: the tournament was stopped ({name}); the matches finished are kept "
              "and the same command resumes it", file=sys.stderr)
        outcome["error"] = f"stopped ({name})"
        import signal
        number = getattr(signal, name, None)
        return 128 + int(number if isinstance(number, int) else signal.SIGINT)


def _run_event_command(args, log, outcome: dict) -> int:
    try:
        event = load_event(args.event, args.out)
        if args.workers:
            event.concurrency, event.concurrency_asked = max(1, args.workers), True
        if args.cluster:
            try:
                from distributed import Client
            except ImportError:
                print("arena: --cluster needs Dask: pip install 'arena[cluster]'", file=sys.stderr)
                return 2
            if getattr(args, "project", False) or getattr(args, "live", False):
                log("the cluster's matches are not followed live (their workers do not "
                    "share the event folder); the projection shows results and standings")
            with Client(args.cluster) as client:
                if not args.workers:
                    event.concurrency = max(1, sum(client.nthreads().values()))
                with client.get_executor(pure=False) as executor:
                    table = run_event(event, executor, ship=True, log=log)
        else:
            paced = getattr(args, "project", False) or getattr(args, "live", False)
            followed = paced or getattr(args, "window", False)
            # --window alone: records written live but unpaced until a projection asks
            table = run_event(event, log=log, live=followed, pace=None if paced else 0.0)
    except ArenaError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        outcome["error"] = str(exc)
        return 2
    print(standings_text(table), end="")
    run = table.get("run", {})
    print(f"{run.get('played_now', 0)} matches played now in {run.get('seconds', 0)} s; "
          f"standings in {event.out / 'standings.csv'} and standings.json")
    return 0
