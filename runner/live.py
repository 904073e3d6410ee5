"""Following an event folder that an Arena process is writing, from this machine or another.

The projection (``arena project EVENT_FOLDER``, ``arena tournament EVENT.toml --project``)
reads only files, so the organizer's laptop and the projector's machine can share the
event folder (a network share, a synced folder).  What it reads:

* ``event.json`` - the event's name, game, contestants and ``[projection]`` settings;
* ``results.jsonl`` - one line per finished match, read incrementally;
* ``standings.json`` - rewritten whole (atomically) after every finished match;
* ``live/schedule.json`` - the matches in flight and the next ones (rewritten whole);
* ``live/ID.arena.jsonl`` - each running match's arena record, flushed after every turn;
  it is removed once the match's files are in ``matches/ID/``.

Everything here treats the folder as hostile: a half-written line waits for its end, a
file that appears, shrinks or disappears is picked up again, and a line that is not what
it should be is counted and skipped (a record with a bad turn is marked broken and shown
as such) - reading never raises.  Never imports pygame.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.api import RecordFormatError, State
from games.replay import TurnInfo
from runner.records import ArenaRecordReader

LIVE = "live"
SCHEDULE = "schedule.json"
PACE_FILE = "pace.json"
#: Bytes read from one file in one poll at most (a huge file is read over several polls).
READ_CHUNK = 1 << 20
#: A line longer than this is not a line of ours: it is dropped, never kept growing.
MAX_LINE = 1 << 22


class TailReader:
    """Complete new lines of a file that another process appends to.

    Keeps the file open between polls (so a file removed while being read is still read
    to its end on POSIX), notices a file that was truncated or replaced and starts it
    again, and keeps a trailing half line until its newline arrives.
    """

    def __init__(self, path: Path):
        self.path = Path(path)
        self._fh = None
        self._inode: tuple[int, int] | None = None
        self._partial = b""
        self.restarted = 0            # times the file was found shorter or replaced
        self.line_number = 0          # lines handed out since the last (re)start
        self.consumed = 0             # bytes of the file handed out as complete lines

    def close(self) -> None:
        if self._fh is not None:
            try:
                self._fh.close()
            except OSError:
                pass
            self._fh = None

    def _open(self) -> bool:
        try:
            self._fh = open(self.path, "rb")
            info = os.fstat(self._fh.fileno())
        except OSError:
            self._fh = None
            return False
        self._inode = (info.st_dev, info.st_ino)
        self._partial, self.line_number, self.consumed = b"", 0, 0
        return True

    def _replaced(self) -> bool:
        """True when the path now names another file than the one open, or ours shrank."""
        try:
            here = os.fstat(self._fh.fileno())
        except OSError:
            return True
        if here.st_size < self._fh.tell():
            return True
        try:
            there = os.stat(self.path)
        except OSError:
            return False                  # removed: keep reading what is open
        return (there.st_dev, there.st_ino) != self._inode and there.st_size > 0

    def read_lines(self) -> tuple[list[tuple[int, bytes]], bool]:
        """(new complete non-blank lines with their line numbers, whether the file started
        over since the last call)."""
        fresh = False
        if self._fh is not None and self._replaced():
            self.close()
            self.restarted += 1
            fresh = True
        if self._fh is None:
            if not self._open():
                return [], fresh
            fresh = fresh or self.restarted > 0
        try:
            data = self._fh.read(READ_CHUNK)
        except OSError:
            self.close()
            return [], fresh
        if not data:
            return [], fresh
        data = self._partial + data
        lines = data.split(b"\n")
        self._partial = lines.pop()
        if len(self._partial) > MAX_LINE:
            self._partial = b""
        self.consumed = self._fh.tell() - len(self._partial)
        first = self.line_number + 1
        self.line_number += len(lines)
        return [(first + i, line) for i, line in enumerate(lines) if line.strip()], fresh

    def exists(self) -> bool:
        return self._fh is not None or self.path.exists()


def _read_json(path: Path, cache: dict) -> Any:
    """A whole JSON file rewritten atomically by its writer; the last good content when it
    is missing or unreadable; re-read only when its modification time or size changed."""
    try:
        info = os.stat(path)
    except OSError:
        return cache.get("data")
    stamp = (info.st_mtime_ns, info.st_size, info.st_ino)
    if cache.get("stamp") == stamp:
        return cache.get("data")
    try:
        data = json.loads(path.read_bytes().decode("utf-8", "replace"))
    except (OSError, ValueError, RecursionError):
        return cache.get("data")
    cache["stamp"], cache["data"] = stamp, data
    return data


# ====================================================================== one live match
@dataclass
class LiveMatch:
    """One running match followed through its arena record, turn by turn.

    The record is read by :class:`runner.records.ArenaRecordReader` (``record``), fed each
    complete line as it arrives: ``turns`` are the turns read so far (checked by the rules
    as they come), ``initial`` the start position and ``state`` the latest.  A record that
    cannot be read (a bad header, an illegal move) keeps what was read before and says why
    in ``error``.
    """

    id: str
    path: Path
    reader: TailReader
    error: str = ""
    updated: float = 0.0              # monotonic time of the last new turn (for "thinking")
    record: ArenaRecordReader = field(init=False)

    def __post_init__(self):
        self.record = self._new_record()

    def _new_record(self) -> ArenaRecordReader:
        return ArenaRecordReader(self.path, take_backs=False)

    # What the record says so far (see ArenaRecordReader).
    header = property(lambda self: self.record.header)
    plugin = property(lambda self: self.record.plugin)
    game = property(lambda self: self.record.game)
    options = property(lambda self: self.record.options)
    initial = property(lambda self: self.record.initial)
    state = property(lambda self: self.record.state)
    turns = property(lambda self: self.record.turns)
    outcome = property(lambda self: self.record.outcome)

    @property
    def names(self) -> list[str]:
        seats = self.header.get("seats") if isinstance(self.header.get("seats"), list) else []
        return [str(s.get("label") or s.get("spec") or f"seat {i + 1}") if isinstance(s, dict)
                else str(s) for i, s in enumerate(seats)]

    @property
    def finished(self) -> bool:
        return self.outcome is not None or bool(self.error)

    @property
    def total_time(self) -> float | None:
        control = self.header.get("time_control")
        total = control.get("total") if isinstance(control, dict) else None
        return float(total) if isinstance(total, (int, float)) and not isinstance(total, bool) else None

    def poll(self, now: float) -> bool:
        """Read what was appended; True when something new (a turn, the result, an error) came."""
        if self.error:
            return False
        lines, fresh = self.reader.read_lines()
        changed = False
        if fresh and (self.header or self.turns):       # the record was written anew (a re-run)
            self.record = self._new_record()
            changed = True
        for number, raw in lines:
            try:
                self.record.feed(raw.decode("utf-8", "replace"), number)
            except RecordFormatError as exc:
                self.error = str(exc)
                return True
            except Exception as exc:       # a game's rules surprised by odd content: never a crash
                self.error = f"{self.path}, line {number}: {type(exc).__name__}: {exc}"
                return True
            changed = True
        if changed:
            self.updated = now
        return changed

    def continue_at(self, path: Path) -> None:
        """Go on reading at ``path``, the final copy of a live file removed before its end
        was read, from where the live file stopped (no line is read twice)."""
        self.reader.close()
        self.reader = _continue_at(path, self.reader)
        self.path = path
        self.record.where = str(path)

    def play_turn(self, state: State, info: TurnInfo) -> None:
        """Play a turn read from this record on ``state`` (a board showing the match at
        its own pace keeps its own copy of the position)."""
        self.record.play_turn(state, info, info.number)

    def state_after(self, count: int) -> State | None:
        """The position after the first ``count`` turns, rebuilt from the start (a
        follower that jumps); None before the header came."""
        return self.record.state_after(count)

    def close(self) -> None:
        self.reader.close()


# ====================================================================== the event folder
@dataclass
class Snapshot:
    """What a poll of the folder found new, for the projection to react to."""

    new_results: list[dict] = field(default_factory=list)
    standings_changed: bool = False
    matches_changed: bool = False


class EventFollower:
    """Reads an event folder incrementally: results, standings, schedule, live records.

    ``poll()`` is cheap when nothing changed (a few ``stat`` calls and one directory
    listing), so a projection can call it twice a second for hours.
    """

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.results: dict[str, dict] = {}
        self.order: list[str] = []            # result ids in the order they were appended
        self.bad_lines = 0                     # lines of results.jsonl that were not results
        self.results_problem = ""              # the last of them: file, line, what was expected
        self.last_problem = ""
        self.matches: dict[str, LiveMatch] = {}
        #: Matches done with (shown or not): their live file's identity, so a file left
        #: behind is not read again unless it is written anew (a re-run after a resume).
        self.done: dict[str, tuple] = {}
        #: Records that could not be read: id -> why (the latest few, for a status line).
        self.broken: dict[str, str] = {}
        self._results = TailReader(self.folder / "results.jsonl")
        self._caches: dict[str, dict] = {"event": {}, "standings": {}, "schedule": {}, "pace": {}}
        self.event: dict = {}
        self.standings: dict = {}
        self.schedule: dict = {}

    # ------------------------------------------------------------ settings
    @property
    def projection(self) -> dict:
        value = self.event.get("projection") if isinstance(self.event, dict) else None
        return value if isinstance(value, dict) else {}

    def setting(self, key: str, default: float) -> float:
        value = self.projection.get(key, default)
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else default

    def colours(self) -> dict[str, int]:
        """Each contestant's place in the event (for a colour that stays with a name)."""
        people = self.event.get("contestants") if isinstance(self.event, dict) else None
        if not isinstance(people, list):
            return {}
        return {str(p.get("name")): i for i, p in enumerate(people) if isinstance(p, dict)}

    def pace(self) -> float | None:
        """The pace the organizer's matches are played at now (``live/pace.json``)."""
        data = _read_json(self.folder / LIVE / PACE_FILE, self._caches["pace"])
        value = data.get("pace") if isinstance(data, dict) else None
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    def set_pace(self, pace: float) -> bool:
        """Ask the organizer's matches to play at ``pace`` turns a second (best effort:
        False when the folder cannot be written, e.g. a read-only share)."""
        return write_pace(self.folder, pace)

    # ------------------------------------------------------------ polling
    def poll(self, now: float) -> Snapshot:
        snap = Snapshot()
        event = _read_json(self.folder / "event.json", self._caches["event"])
        self.event = event if isinstance(event, dict) else {}
        standings = _read_json(self.folder / "standings.json", self._caches["standings"])
        if isinstance(standings, dict) and standings is not self.standings:
            self.standings = standings
            snap.standings_changed = True
        schedule = _read_json(self.folder / LIVE / SCHEDULE, self._caches["schedule"])
        self.schedule = schedule if isinstance(schedule, dict) else {}
        snap.new_results = self._poll_results()
        snap.matches_changed = self._poll_matches(now)
        return snap

    def _poll_results(self) -> list[dict]:
        lines, fresh = self._results.read_lines()
        if fresh:
            self.results, self.order = {}, []
        new = []
        for number, raw in lines:
            try:
                data = json.loads(raw.decode("utf-8", "replace"))
            except (ValueError, RecursionError):
                data = None
            if not isinstance(data, dict) or not isinstance(data.get("id"), str) \
                    or not isinstance(data.get("contestants"), list):
                self.bad_lines += 1
                self.results_problem = self.last_problem = (
                    f"{self._results.path}: line {number}: "
                    "expected a result line (JSON with an id and contestants)")
                continue
            if data["id"] not in self.results:
                self.order.append(data["id"])
                new.append(data)
            self.results[data["id"]] = data
        return new

    def _poll_matches(self, now: float) -> bool:
        changed = False
        seen = set()
        try:
            entries = list(os.scandir(self.folder / LIVE))
        except OSError:
            entries = []
        for entry in entries:
            if not entry.name.endswith(".arena.jsonl") or entry.name.startswith("."):
                continue
            match_id = entry.name[:-len(".arena.jsonl")]
            seen.add(match_id)
            if match_id in self.done and self.done[match_id] == _identity(entry):
                continue
            if match_id not in self.matches:
                self.done.pop(match_id, None)
                self.matches[match_id] = LiveMatch(match_id, Path(entry.path), TailReader(Path(entry.path)))
                changed = True
        for match_id, match in list(self.matches.items()):
            if match.poll(now):
                changed = True
            if match_id not in seen and not match.finished:
                # The live file was removed before we read its end: the final copy has it.
                final = self.folder / "matches" / match_id / f"{match_id}.arena.jsonl"
                if final.exists() and match.reader.path != final:
                    match.continue_at(final)
                    changed = match.poll(now) or changed
        return changed

    def forget(self, match_id: str) -> None:
        """Drop a match nobody shows any more (keeps memory flat over hours)."""
        match = self.matches.pop(match_id, None)
        if match is not None:
            match.close()
            try:
                self.done[match_id] = _identity(os.stat(match.path))
            except OSError:
                self.done[match_id] = ()
            if match.error:
                self.broken[match_id] = match.error
                self.last_problem = match.error
                while len(self.broken) > 20:
                    self.broken.pop(next(iter(self.broken)))

    def running(self) -> list[LiveMatch]:
        """Matches with a record and no end yet, oldest first.  A live file whose match
        already has its result line is left over from a run killed and resumed headless
        (the resumed run played it again without writing ``live/``): not running."""
        if self.complete():
            return []
        return [m for m in self.matches.values() if m.header and not m.finished and m.id not in self.results]

    def counts(self) -> tuple[int, int]:
        """(played, planned) matches for the header: the standings' figures, or while the
        first standings are not written yet (or lag behind) the results read so far plus
        the matches in flight and next in ``live/schedule.json``."""
        matches = self.standings.get("matches") if isinstance(self.standings, dict) else None
        matches = matches if isinstance(matches, dict) else {}
        played, planned = matches.get("played"), matches.get("planned")
        played = played if isinstance(played, int) and not isinstance(played, bool) else 0
        planned = planned if isinstance(planned, int) and not isinstance(planned, bool) else 0
        played = max(played, len(self.results))
        scheduled = sum(len(self.schedule.get(key)) for key in ("running", "next")
                        if isinstance(self.schedule.get(key), list))
        return played, max(planned, played + (0 if self.complete() else scheduled))

    def complete(self) -> bool:
        """Every planned match has its result (the standings say so): whatever ``live/``
        still holds is stale."""
        matches = self.standings.get("matches") if isinstance(self.standings, dict) else None
        if not isinstance(matches, dict):
            return False
        played, planned = matches.get("played"), matches.get("planned")
        return (isinstance(played, int) and isinstance(planned, int) and planned > 0
                and played >= planned and len(self.results) >= planned)

    def next_pairings(self, limit: int = 3) -> list[list[str]]:
        """The contestants of the next matches to start, as the organizer planned them."""
        upcoming = self.schedule.get("next") if isinstance(self.schedule.get("next"), list) else []
        if self.complete():
            upcoming = []
        out = []
        for item in upcoming[:limit]:
            names = item.get("contestants") if isinstance(item, dict) else None
            if isinstance(names, list):
                out.append([str(n) for n in names])
        return out

    def finished(self) -> bool:
        """The organizer said the event is over (its last standings are written), or every
        planned match has its result (a schedule left by a killed run says otherwise)."""
        return bool(self.schedule.get("finished")) or self.complete()

    def close(self) -> None:
        self._results.close()
        for match in self.matches.values():
            match.close()
        self.matches.clear()


def _identity(info) -> tuple:
    """Which file, and how far written: a live file changed since we were done with it
    (a re-run writes it anew) is followed again."""
    if isinstance(info, os.DirEntry):
        try:
            info = info.stat()
        except OSError:
            return ()
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def _continue_at(path: Path, old: TailReader) -> TailReader:
    """A reader of ``path`` (the same bytes as the removed live file) placed where
    ``old`` stopped, so no line is read twice."""
    reader = TailReader(path)
    if reader._open() and old.consumed:
        reader._fh.seek(old.consumed)
        reader.consumed, reader.line_number = old.consumed, old.line_number
    return reader


def write_pace(folder: str | Path, pace: float) -> bool:
    """``live/pace.json`` in an event folder: the pace its running matches follow."""
    target = Path(folder) / LIVE / PACE_FILE
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{PACE_FILE}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"pace": float(pace)}) + "\n", encoding="utf-8")
        os.replace(tmp, target)
    except OSError:
        return False
    return True


def read_pace(folder: str | Path) -> float | None:
    """The pace in ``live/pace.json`` (None when missing or unreadable)."""
    try:
        data = json.loads((Path(folder) / LIVE / PACE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    value = data.get("pace") if isinstance(data, dict) else None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
