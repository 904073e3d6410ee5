"""The seat half of the contract between a match and whoever plays one side of it.

The game half is :mod:`games.api` (rules, states, moves, outcomes); this half is what a
seat is asked and answers: :class:`Seat` (started with a :class:`SeatInfo`, asked for a
move, told each turn, finished, cancelled, closed) and :class:`Answer` (the move and,
for the debug panel and the record, what the seat was given, what it answered, how long
it took and what it printed).  The runner's seats (:mod:`runner.seats`) and the games'
own program seats both build on it; it imports only the standard library and
:mod:`games.api`, so both layers can.
"""
from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, Mapping

from games.api import Game, Outcome, State, Termination


@dataclass
class Answer:
    """What one seat answered for one turn."""

    move: Any = None                 # a parsed move, when the seat produced one
    text: str | None = None          # the move's text as answered (parsed by the runner)
    elapsed: float = 0.0             # the seconds charged: by the seat's clock (see ``clock``)
    #: Both figures of the answer's time: wall seconds, and the CPU seconds of the
    #: program's whole process tree (a bot: its thread's); None when not known.
    wall: float | None = None
    cpu: float | None = None
    clock: str = "wall"              # the clock ``elapsed`` was charged by: "wall" or "cpu"
    given: str = ""                  # the input the seat was given (MAP.INP, a GTP command...)
    answered: str = ""               # its raw answer (MOVE.OUT, a reply line ...)
    stdout: str = ""
    stderr: str = ""
    failure: Termination | None = None   # timeout, crash, bad-file, illegal-move, resignation
    detail: str = ""
    notes: list[str] = field(default_factory=list)   # misuse the protocol recorded
    source: str = ""                 # where in the answer the move stands ("output.txt line 7")
    claimed: str | None = None       # what the program claims (a whole game's score)
    kept: dict[str, str] = field(default_factory=dict)   # its private files before the run
    #: The program's annotation text for this turn (DEBUG.OUT, or its ``# debug`` lines),
    #: read by the referee into :attr:`annotations` (see :mod:`games.annotations`).
    debug: str = ""
    debug_source: str = "DEBUG.OUT"      # named in the notes on unreadable lines
    annotations: dict | None = None      # the record's "debug": {"draw": [...], "notes": [...]}
    #: What an engine's or bot's search reached for this move: ``depth``, ``score`` (text:
    #: "cp 23", "mate 3", a bot's number), ``nodes``, ``pv`` (the game's move texts).
    search: dict[str, Any] = field(default_factory=dict)

    def log(self) -> dict:
        """The record's view of this answer."""
        data = {"text": self.text, "elapsed": round(self.elapsed, 4),
                "wall": None if self.wall is None else round(self.wall, 4),
                "cpu": None if self.cpu is None else round(self.cpu, 4),
                "clock": self.clock if self.clock != "wall" else None, "given": self.given,
                "answered": self.answered, "stdout": self.stdout, "stderr": self.stderr,
                "failure": self.failure.value if self.failure else None, "detail": self.detail,
                "source": self.source, "claimed": self.claimed, "kept": self.kept or None,
                "search": self.search or None}
        if self.notes:
            data["notes"] = list(self.notes)
        if self.annotations:
            data["debug"] = self.annotations
        return {k: v for k, v in data.items() if v not in ("", None) or k == "text"}


@dataclass(frozen=True)
class SeatInfo:
    """Everything a seat learns when the match starts.

    ``workdir`` is the seat's own folder, new for this match, made by the match for
    seats that say they need one (:attr:`Seat.needs_folder`); None for the others.
    """

    game: Game
    options: Mapping[str, Any]
    seat: int
    seats: int
    seed: int
    workdir: str | None = None


class Seat(abc.ABC):
    """One side of a match.  ``ask`` blocks (in a worker thread) until an answer."""

    kind = "?"
    #: True for seats that run a program: the match gives them a fresh folder.
    needs_folder = False
    #: Game options this seat would like by default (an engine: the usual repetition count);
    #: options the user gives win (see :func:`seat_option_defaults`).
    option_defaults: Mapping[str, Any] = {}
    #: True for seats whose :meth:`observe` needs only the moves, never the state (a
    #: program fed through move files): the match then tells them a move as soon as it
    #: is sure to be played, before playing it, recording it and the rest (see
    #: :meth:`runner.match.Match._play`), and passes ``state=None``.
    hears_moves_early = False
    #: Set by :meth:`start` when the program never got through its handshake in time
    #: (``uci`` without ``uciok``, GTP's first answer), in words ("no uciok within 60 s"):
    #: the match is then not played (no result for anyone), for a tournament to play
    #: again later.  A handshake is not a move: load on the machine must not decide it.
    handshake_failure = ""

    def __init__(self, spec: str, label: str = ""):
        self.spec = spec
        self.label = label or spec

    def start(self, info: SeatInfo, state: State) -> None:
        """Called once before the first turn."""
        self.info = info

    @abc.abstractmethod
    def ask(self, state: State, seat: int, time_limit: float | None) -> Answer:
        """Answer for ``seat`` in ``state`` within ``time_limit`` seconds (None: untimed)."""

    def observe(self, state: State, moves: Mapping[int, str]) -> None:
        """Called after every turn with the new state and the moves just played."""

    def finish(self, outcome: Outcome) -> None:
        """Called once when the game ends (programs get their final status here)."""

    def cancel(self) -> None:
        """Interrupt a pending ``ask`` from another thread (the match is being stopped)."""

    def close(self) -> None:
        """Release processes and files."""

    def describe(self) -> dict:
        return {"kind": self.kind, "spec": self.spec, "label": self.label}
