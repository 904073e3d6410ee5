"""Replays: a finished (or interrupted) game as a list of states, whatever file it came from.

The arena's own record and each contest's record files (HEX.OUT, REPORT.TXT, the
Robot organizers' JSON turn logs, output.txt) are read into the same :class:`Replay`.
Each game lists its contest formats as :class:`RecordReader` objects; the format of a
file is detected from its content, never from its name alone.
"""
from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any

from games.api import Event, Outcome, State


@dataclass
class TurnInfo:
    """One turn of a replay: the moves played and, when known, what each seat was given."""

    number: int
    moves: dict[int, str]                       # seat -> move text
    answers: dict[int, dict] = field(default_factory=dict)   # seat -> runner's answer log
    forfeits: dict[int, dict] = field(default_factory=dict)  # seat -> {"reason", "detail"}
    ruling: dict | None = None                  # the referee's Outcome (to_json) ending the game
    events: tuple[Event, ...] = ()
    clocks: dict[int, float] = field(default_factory=dict)   # seat -> seconds left/used
    note: str = ""


@dataclass
class Replay:
    """``states[i]`` is the position after ``turns[i-1]``; ``states[0]`` is the start."""

    game: str
    format: str
    source: str
    header: dict[str, Any]
    states: list[State]
    turns: list[TurnInfo]
    outcome: Outcome | None = None
    seat_names: list[str] = field(default_factory=list)

    def __post_init__(self):
        if len(self.states) != len(self.turns) + 1:
            raise ValueError("a replay has one more state than turns")

    def event_turns(self) -> list[int]:
        """Indices into ``states`` that follow a turn with an event or a verdict, and the
        branch point of a branched game."""
        marks = {i + 1 for i, t in enumerate(self.turns) if t.events or t.forfeits or t.ruling}
        branch = self.branch_turn()
        return sorted(marks | ({branch} if branch else set()))

    def branch_turn(self) -> int | None:
        """The turn this game branched off another record at, or None."""
        turn = (self.header.get("branch") or {}).get("turn") if isinstance(self.header.get("branch"), dict) else None
        return turn if isinstance(turn, int) and 0 <= turn < len(self.states) else None


class RecordReader(abc.ABC):
    """One record format of one game."""

    format: str = "?"
    game: str = "?"

    @abc.abstractmethod
    def sniff(self, text: str, path: str) -> bool:
        """True when ``text`` looks like this format (cheap; no full parse)."""

    @abc.abstractmethod
    def read(self, text: str, path: str) -> Replay:
        """Parse, raising :class:`games.api.RecordFormatError` naming the line at fault."""
