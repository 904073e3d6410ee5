"""The arena's own match record (JSON Lines) and opening any record as a replay.

A record is one JSON object per line, flushed for every turn by the time the next one
starts (:meth:`runner.match.Match._record_turn`) and fsynced right after, off the
judge's path, so a crash loses at most the turn just played:

    {"type": "header", "format": "arena-record", "version": 1, "game": "hex", ...}
    {"type": "seats", "seats": [...]}     (optional: the seats once started, e.g. an
                                          engine's name and author from its handshake)
    {"type": "turn", "n": 1, "moves": {"0": "c3"}, "answers": {...}, ...}
    ...
    {"type": "result", "winners": [0], "scores": [1, 0], "reason": "win", ...}

A record without its result line (the arena was killed) still opens: the replay
stops at the last complete turn.  :class:`ArenaRecordReader` is the one reader of the
format, fed a line at a time: the replay loader, the live follower
(:mod:`runner.live`) and the projection all use it.
"""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any, Iterable

from games.annotations import annotations_from_json
from games.api import (ArenaError, Event, GameSetupError, IllegalMoveError, Outcome, RecordFormatError,
                       State, Termination)
from games.replay import Replay, TurnInfo
from games import registry
from runner.setup import load_option_files

FORMAT = "arena-record"
VERSION = 1
SUFFIX = ".arena.jsonl"


class RecordWriter:
    """Appends a match to a record file, one flushed line per turn.

    Each line is flushed at once (a reader sees it); its fsync (milliseconds: on the
    judge's path it would delay every turn) is done by a thread of its own, several
    lines in one fsync when they come fast, and the last one at :meth:`close`.
    """

    def __init__(self, path: str | Path, header: dict[str, Any]):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = open(self.path, "w", encoding="utf-8")
        self._lock = threading.Lock()
        self._unsynced = threading.Event()
        self._closing = False
        self._syncer = threading.Thread(target=self._sync_lines, daemon=True, name="record-sync")
        self._syncer.start()
        self._write({"type": "header", "format": FORMAT, "version": VERSION, **header})

    def _write(self, obj: dict) -> None:
        # ASCII-safe: a program's U+2028 or U+0085 must not split a line of the record.
        line = json.dumps(obj, ensure_ascii=True) + "\n"
        with self._lock:
            self._fh.write(line)
            self._fh.flush()
        self._unsynced.set()

    def _sync_lines(self) -> None:
        """The syncer thread: fsync whatever was written since the last fsync."""
        while True:
            self._unsynced.wait()
            self._unsynced.clear()
            with self._lock:
                if self._closing:
                    return
                fd = self._fh.fileno()
            try:
                os.fsync(fd)     # the file stays open until close() has joined this thread
            except OSError:
                pass

    def turn(self, info: TurnInfo) -> None:
        self._write({"type": "turn", "n": info.number,
                     "moves": {str(k): v for k, v in info.moves.items()},
                     "answers": {str(k): v for k, v in info.answers.items()},
                     "forfeits": {str(k): v for k, v in info.forfeits.items()},
                     **({"ruling": info.ruling} if info.ruling else {}),
                     "events": [e.to_json() for e in info.events],
                     "clocks": {str(k): round(v, 3) for k, v in info.clocks.items()},
                     "note": info.note})

    def seats(self, described: list[dict]) -> None:
        """The seats as they describe themselves once started (what the header could not
        know yet: an engine's ``id name`` and ``id author``); replaces the header's."""
        self._write({"type": "seats", "seats": described})

    def undo(self, count: int) -> None:
        """Take back the last ``count`` turns (a person playing a bot)."""
        self._write({"type": "undo", "count": count})

    def result(self, outcome: Outcome, turns: int) -> None:
        self._write({"type": "result", **outcome.to_json(), "turns": turns})

    def close(self) -> None:
        """Stop the syncer, fsync the last lines and close the file."""
        with self._lock:
            self._closing = True
        self._unsynced.set()
        self._syncer.join()
        if not self._fh.closed:
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self._fh.close()


def checked_turn(obj: dict, where, number: int, expected: int) -> TurnInfo:
    """Line ``number`` of ``where`` as a turn, which must be turn ``expected`` (records
    number their turns 1, 2, 3 ... with none missing, repeated or out of order)."""
    try:
        info = _turn_from_json(obj)
    except (ValueError, TypeError, AttributeError) as exc:
        raise RecordFormatError(where, number, f"a turn line ({exc})") from None
    if info.number != expected:
        raise RecordFormatError(where, number, f"turn {expected}, not turn {info.number}")
    return info


def _turn_from_json(obj: dict) -> TurnInfo:
    """A record's turn line as a :class:`TurnInfo`; a field of the wrong type is a
    ``ValueError`` saying which."""
    def seat_map(name: str, kind) -> dict:
        value = obj.get(name, {})
        if not isinstance(value, dict):
            raise ValueError(f'"{name}" must be an object keyed by seat')
        out = {}
        for key, item in value.items():
            if not isinstance(key, str) or not key.isdigit() or not isinstance(item, kind):
                raise ValueError(f'"{name}" must map seat numbers to {kind.__name__ if isinstance(kind, type) else "values"}')
            out[int(key)] = item
        return out

    number = obj.get("n")
    if isinstance(number, bool) or not isinstance(number, int):
        raise ValueError('"n" must be the turn number')
    events = obj.get("events", [])
    if not isinstance(events, list):
        raise ValueError('"events" must be a list')
    ruling = obj.get("ruling")
    if ruling is not None:
        Outcome.from_json(ruling)
    note = obj.get("note", "")
    if not isinstance(note, str):
        raise ValueError('"note" must be text')
    forfeits = seat_map("forfeits", dict)
    for forfeit in forfeits.values():
        Termination(forfeit.get("reason"))
    answers = seat_map("answers", dict)
    for answer in answers.values():
        if "debug" in answer:          # a program's annotations: checked, so drawing trusts them
            annotations_from_json(answer["debug"])
    return TurnInfo(number=number, moves=seat_map("moves", str), answers=answers,
                    forfeits=forfeits, events=tuple(Event.from_json(e) for e in events),
                    clocks=seat_map("clocks", (int, float)), ruling=ruling, note=note)


def is_arena_record(text: str) -> bool:
    first = text.lstrip()[:200]
    return first.startswith("{") and f'"{FORMAT}"' in text.split("\n", 1)[0]


class ArenaRecordReader:
    """An arena record read one line at a time, each turn checked by the rules as it comes.

    The one reader of the format: :func:`read_arena_record` feeds it a whole file (keeping
    every position, for a replay's seek), :class:`runner.live.LiveMatch` the lines of a
    record another process is still writing, and the projection plays the turns read on
    its own copy of the position with :meth:`play_turn`.  A line that is not what it should
    be (line 1 the header; then turns numbered 1, 2, 3 ... with legal moves, at most one
    result that the moves can give, seats and take-back lines) is a
    :class:`RecordFormatError` naming the file, the line and what was expected, and the
    reader keeps what it read before it.

    ``keep_states`` keeps the position after every turn in ``states`` (a replay needs them;
    a follower running for hours does not); ``take_backs=False`` refuses ``undo`` lines (a
    tournament match has none).
    """

    def __init__(self, where: str | Path, *, keep_states: bool = False, take_backs: bool = True):
        self.where = str(where)
        self.keep_states = keep_states
        self.take_backs = take_backs
        self.header: dict = {}             # the header line, its seats replaced by a seats line
        self.plugin = None
        self.game = None
        self.options: dict = {}
        self.seats = 0                     # how many seats the game has with these options
        self.initial: State | None = None  # the start position (None until the header is read)
        self.state: State | None = None    # the position after the turns read so far
        self.states: list[State] = []      # with keep_states: the start, then after each turn
        self.turns: list[TurnInfo] = []
        self.outcome: Outcome | None = None
        self.outcome_line: int | None = None
        self.line = 0                      # the number of the last line fed

    @property
    def started(self) -> bool:
        """The header was read: the game, its options and its start position are known."""
        return self.initial is not None

    def feed(self, line: str, number: int | None = None, *, partial: bool = False) -> None:
        """Read line ``number`` (by default the line after the last one fed).

        ``partial`` says the line has no newline yet (the writer was stopped mid-turn): if
        it is not a JSON object it is left unread instead of refused.  Blank lines after
        the header are skipped; lines of a type the reader does not know are ignored.
        """
        number = self.line + 1 if number is None else number
        self.line = number
        if not self.started:
            self._start(line if number == 1 else "", number)
            return
        if not line.strip():
            return
        try:
            obj = json.loads(line)
            kind = obj["type"]
        except (json.JSONDecodeError, KeyError, TypeError, RecursionError, ValueError):
            if partial:
                return
            raise RecordFormatError(self.where, number, "a JSON object with a \"type\"") from None
        if self.outcome is not None and kind in ("turn", "undo"):
            raise RecordFormatError(self.where, number,
                                    f"no {kind} after the result line (line {self.outcome_line})")
        if kind == "turn":
            self._turn(obj, number)
        elif kind == "undo":
            self._undo(obj, number)
        elif kind == "seats":
            self._seats(obj, number)
        elif kind == "result":
            self._result(obj, number)

    def _start(self, line: str, number: int) -> None:
        """The header (line 1): the game, its options and seed, and so its start position."""
        header = _header(line, self.where)
        try:
            plugin = registry.plugin(header["game"])
        except (KeyError, TypeError, GameSetupError) as exc:
            raise RecordFormatError(self.where, 1, f"a known game ({exc})") from None
        game = plugin.new_game()
        try:
            options, _ = load_option_files(plugin, game, header["options"])
            initial = game.new_initial_state(options, header["seed"])
        except (ArenaError, KeyError, TypeError, ValueError, OSError, RecursionError) as exc:
            # OSError: an option naming a file by a name the system refuses (ENAMETOOLONG)
            raise RecordFormatError(self.where, 1, f"options and a seed the game starts from ({exc})") from None
        self.header, self.plugin, self.game, self.options = header, plugin, game, options
        self.seats = game.seats_for(options)
        self.initial, self.state = initial, initial.clone()
        self.states = [initial.clone()] if self.keep_states else []

    def _turn(self, obj: dict, number: int) -> None:
        info = checked_turn(obj, self.where, number, len(self.turns) + 1)
        _check_seats(info, self.seats, self.where, number)
        self.play_turn(self.state, info, number)
        if self.keep_states:
            self.states.append(self.state.clone())
        self.turns.append(info)

    def _undo(self, obj: dict, number: int) -> None:
        if not self.take_backs:
            raise RecordFormatError(self.where, number, "no take-backs in a tournament match")
        count = obj.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 < count <= len(self.turns):
            raise RecordFormatError(self.where, number, f"an undo of 1 to {len(self.turns)} turns")
        kept = len(self.turns) - count
        del self.turns[kept:]
        if self.keep_states:
            del self.states[kept + 1:]
            self.state = self.states[-1].clone()
        else:
            self.state = self.state_after(kept)

    def _seats(self, obj: dict, number: int) -> None:
        """The seats once started (an engine's own name from its handshake) replace the header's."""
        described = obj.get("seats")
        if not isinstance(described, list) or not all(isinstance(s, dict) for s in described):
            raise RecordFormatError(self.where, number, 'a seats line with "seats" as a list of objects')
        self.header = {**self.header, "seats": described}

    def _result(self, obj: dict, number: int) -> None:
        if self.outcome is not None:
            raise RecordFormatError(self.where, number, f"one result line (the first is line {self.outcome_line})")
        try:
            outcome = Outcome.from_json(obj)
        except (ValueError, TypeError, KeyError, OverflowError) as exc:
            raise RecordFormatError(self.where, number, f"a result line ({exc})") from None
        _check_result(outcome, obj.get("turns"), self.state, len(self.turns), self.where, number)
        self.outcome, self.outcome_line = outcome, number

    def play_turn(self, state: State, info: TurnInfo, line: int = 0) -> None:
        """Play one recorded turn on ``state``, checked: forfeits, then the moves, then a
        ruling; a turn the rules refuse is a :class:`RecordFormatError` naming ``line``."""
        try:
            for seat, forfeit in info.forfeits.items():
                state.forfeit(seat, Termination(forfeit["reason"]), str(forfeit.get("detail", "")))
            if info.moves:
                if state.is_terminal():
                    raise IllegalMoveError("the game was already over")
                self.game.play_text(state, info.moves)
            if info.ruling:
                state.adjudicate(Outcome.from_json(info.ruling))
        except (ArenaError, ValueError, KeyError, TypeError) as exc:
            raise RecordFormatError(self.where, line, f"a move the rules accept ({exc})") from None

    def state_after(self, count: int) -> State | None:
        """The position after the first ``count`` turns, rebuilt from the start (a follower
        that jumps); None before the header was read."""
        if self.initial is None:
            return None
        state = self.initial.clone()
        for info in self.turns[:count]:
            self.play_turn(state, info)
        return state

    def replay(self) -> Replay:
        """What was read as a :class:`Replay` (needs ``keep_states``); a record without its
        result line ends where the game stands."""
        seats_described = self.header.get("seats") if isinstance(self.header.get("seats"), list) else []
        names = [str(s.get("label", s.get("spec", ""))) if isinstance(s, dict) else str(s)
                 for s in seats_described]
        return Replay(self.plugin.name, FORMAT, self.where, self.header, self.states, self.turns,
                      self.outcome or self.state.outcome(), names)


def read_arena_record(text: str, path: str) -> Replay:
    """Rebuild every state by replaying the record's moves from its seed, each one
    checked by the rules: a record with an illegal or unreadable move, a turn out of
    order or a field of the wrong type is a :class:`RecordFormatError` naming the line."""
    reader = ArenaRecordReader(path, keep_states=True)
    lines = text.split("\n")
    unfinished = not text.endswith("\n")          # a half-written last line: stopped mid-turn
    for number, line in enumerate(lines, start=1):
        reader.feed(line, number, partial=unfinished and number == len(lines))
    return reader.replay()


def _header(line: str, path: str) -> dict:
    try:
        header = json.loads(line)
    except (json.JSONDecodeError, RecursionError, ValueError):
        raise RecordFormatError(path, 1, "a JSON header line") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise RecordFormatError(path, 1, f'"format": "{FORMAT}"')
    if not isinstance(header.get("options"), dict):
        raise RecordFormatError(path, 1, '"options" as an object')
    if isinstance(header.get("seed"), bool) or not isinstance(header.get("seed"), int):
        raise RecordFormatError(path, 1, '"seed" as a whole number')
    return header


def _check_seats(info: TurnInfo, seats: int, path: str, line: int) -> None:
    """Every seat a turn line names (moves, forfeits...) is one of the game's ``seats``."""
    for field, named in (("moves", info.moves), ("forfeits", info.forfeits), ("answers", info.answers),
                         ("clocks", info.clocks)):
        wrong = sorted(seat for seat in named if seat >= seats)
        if wrong:
            raise RecordFormatError(path, line, f'"{field}" keyed by seats 0-{seats - 1} of this '
                                    f"{seats}-seat game, not seat {wrong[0]}")


def _check_result(outcome: Outcome, turns: Any, state, played: int, path: str, line: int) -> None:
    """A result line must be what the replayed moves give.

    When the replayed game is over, its winners, places, scores and reason are the rules' own
    (a forged winner, a result copied from another game, winners removed are refused).
    When it is not, the result must be one the moves cannot show: the arena's ruling
    (time-out, crash, illegal move, adjudication, a match stopped) or a resignation;
    a rules' result (a win, a draw, a score) on a game still going is refused.  A
    ``turns`` count, when given, must be the number of turns replayed.
    """
    if turns is not None and (isinstance(turns, bool) or turns != played):
        raise RecordFormatError(path, line, f'a result after the {played} turns replayed, not "turns": '
                                f"{json.dumps(turns)[:40]}")
    replayed = state.outcome() if state.is_terminal() else None
    if replayed is None:
        if not (outcome.reason.is_referee or outcome.reason is Termination.RESIGNATION):
            raise RecordFormatError(path, line, "a result the moves cannot show (a ruling such as "
                                    f"a time-out, or a resignation): the replayed game is not over, "
                                    f"so it cannot have ended by {outcome.reason.value!r}")
        return
    same = (outcome.reason is replayed.reason
            and set(outcome.winners) == set(replayed.winners) and tuple(outcome.ranks) == tuple(replayed.ranks)
            and len(outcome.scores) == len(replayed.scores)
            and all(abs(a - b) < 1e-6 for a, b in zip(outcome.scores, replayed.scores)))
    if not same:
        raise RecordFormatError(path, line, f"the result the replayed moves give ({replayed.detail or replayed.reason.value}: "
                                f"{replayed.result_text()}, {replayed.reason.value}), not "
                                f"{outcome.result_text()}, {outcome.reason.value}")


def open_replay(path: str | Path) -> Replay:
    """Open any record the arena knows, detecting its format by content."""
    path = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise RecordFormatError(path, None, f"a readable file ({exc.strerror})") from None
    text = raw.decode("utf-8", errors="replace")
    if is_arena_record(text):
        return read_arena_record(text, path)
    for reader in all_readers():
        if reader.sniff(text, path):
            return reader.read(text, path)
    raise RecordFormatError(path, 1, "an arena record or a contest record file "
                            "(HEX.OUT, SGF, REPORT.TXT, PGN, a Robot turn log)")


def all_readers() -> Iterable:
    for plugin in registry.all_plugins():
        if plugin.readers:
            yield from plugin.load("readers")
