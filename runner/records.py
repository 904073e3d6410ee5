"""The arena's own match record (JSON Lines) and opening any record as a replay.

A record is one JSON object per line, flushed after every turn so a crash loses at
most the turn in progress:

    {"type": "header", "format": "arena-record", "version": 1, "game": "hex", ...}
    {"type": "turn", "n": 1, "moves": {"0": "c3"}, "answers": {...}, ...}
    ...
    {"type": "result", "winners": [0], "scores": [1, 0], "reason": "win", ...}

A record without its result line (the arena was killed) still opens: the replay
stops at the last complete turn.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable

from games.api import Event, GameSetupError, Outcome, RecordFormatError, Termination
from games.records import Replay, TurnInfo
from games import registry

FORMAT = "arena-record"
VERSION = 1
SUFFIX = ".arena.jsonl"


class RecordWriter:
    """Appends a match to a record file, one flushed line per turn."""

    def __init__(self, path: str | Path, header: dict[str, Any]):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = open(self.path, "w", encoding="utf-8")
        self._write({"type": "header", "format": FORMAT, "version": VERSION, **header})

    def _write(self, obj: dict) -> None:
        self._fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def turn(self, info: TurnInfo) -> None:
        self._write({"type": "turn", "n": info.number,
                     "moves": {str(k): v for k, v in info.moves.items()},
                     "answers": {str(k): v for k, v in info.answers.items()},
                     "forfeits": {str(k): v for k, v in info.forfeits.items()},
                     **({"ruling": info.ruling} if info.ruling else {}),
                     "events": [[e.kind, e.text, list(e.seats)] for e in info.events],
                     "clocks": {str(k): round(v, 3) for k, v in info.clocks.items()},
                     "note": info.note})

    def undo(self, count: int) -> None:
        """Take back the last ``count`` turns (a person playing a bot)."""
        self._write({"type": "undo", "count": count})

    def result(self, outcome: Outcome, turns: int) -> None:
        self._write({"type": "result", **outcome.to_json(), "turns": turns})

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()


def _turn_from_json(obj: dict) -> TurnInfo:
    return TurnInfo(
        number=obj["n"],
        moves={int(k): v for k, v in obj.get("moves", {}).items()},
        answers={int(k): v for k, v in obj.get("answers", {}).items()},
        forfeits={int(k): v for k, v in obj.get("forfeits", {}).items()},
        events=tuple(Event(k, t, tuple(s)) for k, t, s in obj.get("events", [])),
        clocks={int(k): v for k, v in obj.get("clocks", {}).items()},
        ruling=obj.get("ruling"),
        note=obj.get("note", ""))


def is_arena_record(text: str) -> bool:
    first = text.lstrip()[:200]
    return first.startswith("{") and f'"{FORMAT}"' in text.split("\n", 1)[0]


def read_arena_record(text: str, path: str) -> Replay:
    """Rebuild every state by replaying the record's moves from its seed."""
    lines = text.splitlines()
    try:
        header = json.loads(lines[0])
    except (json.JSONDecodeError, IndexError):
        raise RecordFormatError(path, 1, "a JSON header line") from None
    if header.get("format") != FORMAT:
        raise RecordFormatError(path, 1, f'"format": "{FORMAT}"')
    try:
        plugin = registry.plugin(header["game"])
    except (KeyError, GameSetupError) as exc:
        raise RecordFormatError(path, 1, f"a known game ({exc})") from None
    game = plugin.new_game()
    state = game.new_initial_state(header["options"], header["seed"])
    states, turns, outcome = [state.clone()], [], None
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            kind = obj["type"]
        except (json.JSONDecodeError, KeyError, TypeError):
            if number == len(lines):
                break              # a half-written last line: the arena stopped mid-turn
            raise RecordFormatError(path, number, "a JSON object with a \"type\"") from None
        if kind == "turn":
            info = _turn_from_json(obj)
            _replay_turn(game, state, info, path, number)
            states.append(state.clone())
            turns.append(info)
        elif kind == "undo":
            del states[len(states) - obj["count"]:]
            del turns[len(turns) - obj["count"]:]
            state = states[-1].clone()
        elif kind == "result":
            outcome = Outcome.from_json(obj)
    names = [s.get("label", s.get("spec", "")) for s in header.get("seats", [])]
    return Replay(plugin.name, FORMAT, path, header, states, turns, outcome or state.outcome(), names)


def _replay_turn(game, state, info: TurnInfo, path: str, line: int) -> None:
    try:
        for seat, forfeit in info.forfeits.items():
            state.forfeit(seat, Termination(forfeit["reason"]), forfeit.get("detail", ""))
        if info.moves and not state.is_terminal():
            moves = {seat: game.parse_move(text, state, seat) for seat, text in info.moves.items()}
            state.apply(moves)
        if info.ruling:
            state.adjudicate(Outcome.from_json(info.ruling))
    except (ValueError, KeyError) as exc:
        raise RecordFormatError(path, line, f"a move the rules accept ({exc})") from None


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
