"""The one game API every Arena game implements (pure Python, standard library only).

The shape follows OpenSpiel's: a :class:`Game` makes initial states; a :class:`State`
says who must move, checks and applies moves, and reports an :class:`Outcome` when the
game is over.  It is stretched to fit all five contest games:

* two players alternating (Xiangqi, Hex): ``to_move()`` returns one seat;
* 2-4 players moving simultaneously (Robot): ``to_move()`` returns several seats, and
  ``apply`` receives one move per seat at once;
* teams taking turns with compound moves (Tam Quan): a seat is a team, a move is
  a structured value with a text form;
* a one-player solitaire with compound moves (Crossed Words): one seat.

Moves are game-defined values with a text codec that round-trips
(``game.parse_move(game.format_move(m)) == m``); the text is what records store.

Randomness comes only from the seed the match gives ``new_initial_state``; a state
carries its own ``random.Random`` and copies it on ``clone``, so replaying a record's
moves from its seed reproduces every state.

Errors are split by cause, as python-chess does: :class:`MoveSyntaxError` (text that
is not a move at all) is not :class:`IllegalMoveError` (a well-formed move the rules
forbid), and neither is :class:`GameSetupError` (bad options or start position).
"""
from __future__ import annotations

import abc
import enum
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence


class ArenaError(Exception):
    """Base of every error Arena raises on purpose (never a bug)."""


class MoveSyntaxError(ArenaError, ValueError):
    """Text that does not spell a move of this game."""


class IllegalMoveError(ArenaError, ValueError):
    """A well-formed move that the rules do not allow in this state."""


class GameSetupError(ArenaError, ValueError):
    """Options, variant or start position that the game cannot start from."""


class RecordFormatError(ArenaError, ValueError):
    """A record or contest file that cannot be read.

    The message always names the file, the line (1-based) and what was expected.
    """

    def __init__(self, path: str, line: int | None, expected: str):
        self.path, self.line, self.expected = path, line, expected
        where = f"{path}, line {line}" if line else str(path)
        super().__init__(f"{where}: {expected}")


class Termination(enum.Enum):
    """Why a game ended: the rules' own reasons, then the referee's."""

    # Reached through the rules.
    WIN = "win"                      # the game's own winning condition (connection, mate)
    DRAW = "draw"                    # a drawn position by the rules
    STALEMATE = "stalemate"          # side to move has no legal move (Xiangqi: a loss)
    REPETITION = "repetition"
    NO_MATERIAL = "no-material"
    MOVE_LIMIT = "move-limit"        # a turn or move limit in the options
    BOARD_FULL = "board-full"
    ELIMINATION = "elimination"      # every other player left the game
    SCORE = "score"                  # ended normally; ranked by score
    RESIGNATION = "resignation"
    STOPPED = "stopped"              # the solitaire player stopped
    # The referee's.
    TIMEOUT = "timeout"
    ILLEGAL_MOVE = "illegal-move"
    CRASH = "crash"
    BAD_FILE = "bad-file"            # malformed answer file or line
    ADJUDICATION = "adjudication"    # ended by the referee or the organizer
    ABORTED = "aborted"              # the match was stopped before its end

    @property
    def is_referee(self) -> bool:
        """True for reasons the referee imposes rather than the rules."""
        return self in _REFEREE_REASONS


_REFEREE_REASONS = {Termination.TIMEOUT, Termination.ILLEGAL_MOVE, Termination.CRASH,
                    Termination.BAD_FILE, Termination.ADJUDICATION, Termination.ABORTED}


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``winners`` is empty for a draw; ``scores`` has one number per seat (points,
    cells, or 1/0.5/0 for win/draw/loss); ``detail`` is a human sentence.
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    reason: Termination
    detail: str = ""

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def to_json(self) -> dict:
        return {"winners": list(self.winners), "scores": list(self.scores),
                "reason": self.reason.value, "detail": self.detail}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Outcome":
        return cls(tuple(data["winners"]), tuple(data["scores"]),
                   Termination(data["reason"]), data.get("detail", ""))


@dataclass(frozen=True)
class Option:
    """One match option: its name, default, type and a one-line help."""

    name: str
    default: Any
    help: str = ""
    choices: tuple = ()

    def parse(self, text: str) -> Any:
        """Convert command-line or settings text to this option's type."""
        kind = type(self.default)
        try:
            if kind is bool:
                value = {"1": True, "true": True, "on": True, "yes": True,
                         "0": False, "false": False, "off": False, "no": False}[text.lower()]
            elif kind in (int, float):
                value = kind(text)
            else:
                value = text
        except (KeyError, ValueError):
            raise GameSetupError(f"option {self.name}: {text!r} is not a {kind.__name__}") from None
        if self.choices and value not in self.choices:
            raise GameSetupError(f"option {self.name}: {text!r} is not one of "
                                 + ", ".join(map(str, self.choices)))
        return value


@dataclass(frozen=True)
class Variant:
    """A named preset of options (e.g. Hex ``11x11``, Tam Quan ``8x8-4teams``)."""

    name: str
    options: Mapping[str, Any] = field(default_factory=dict)
    help: str = ""


@dataclass(frozen=True)
class GameSpec:
    """What the shell and the command line need to know about a game."""

    name: str                      # short id used on the command line: "hex"
    title: str                     # shown to people: "Hex"
    min_seats: int
    max_seats: int
    variants: tuple[Variant, ...]
    options: tuple[Option, ...] = ()
    seat_names: tuple[str, ...] = ()   # "Red", "Black"; defaults to "Player N"
    summary: str = ""
    can_undo: bool = True          # a person playing a bot may take moves back

    def variant(self, name: str | None) -> Variant:
        if name is None:
            return self.variants[0]
        for v in self.variants:
            if v.name == name:
                return v
        raise GameSetupError(f"{self.name} has no variant {name!r}; variants: "
                             + ", ".join(v.name for v in self.variants))

    def resolve_options(self, variant: str | None = None,
                        overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Defaults, then the variant's presets, then explicit overrides (text or typed)."""
        known = {o.name: o for o in self.options}
        values = {o.name: o.default for o in self.options}
        values.update(self.variant(variant).options)
        for key, value in (overrides or {}).items():
            if key not in known:
                raise GameSetupError(f"{self.name} has no option {key!r}; options: "
                                     + ", ".join(known))
            values[key] = known[key].parse(value) if isinstance(value, str) else value
        return values

    def seat_name(self, seat: int) -> str:
        if seat < len(self.seat_names):
            return self.seat_names[seat]
        return f"Player {seat + 1}"


@dataclass(frozen=True)
class Event:
    """Something worth jumping to in a replay: a capture, an elimination, a verdict."""

    kind: str          # "capture", "elimination", "explosion", "enclosure", "verdict", ...
    text: str
    seats: tuple[int, ...] = ()


class State(abc.ABC):
    """One position of a game, with everything needed to continue it.

    ``apply`` mutates the state (the fast path bots use); ``clone`` copies it.  A state
    never reads files, clocks or the screen.  States compare equal (``==``) when they
    are the same position with the same future (board, seat to move, what the rules
    remember such as timers and repetition history); the conformance test relies on it.
    """

    @abc.abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Seats that must answer now: one seat, or several moving at once.

        Empty exactly when the state is terminal.
        """

    @abc.abstractmethod
    def legal_moves(self, seat: int) -> Sequence[Any]:
        """Every legal move of ``seat`` now.

        Games whose move set is too large to list (Crossed Words) may return a
        representative sample and rely on :meth:`check_move`.
        """

    def check_move(self, seat: int, move: Any) -> None:
        """Raise :class:`IllegalMoveError` with the reason when ``move`` is not legal."""
        if seat not in self.to_move():
            raise IllegalMoveError(f"it is not seat {seat}'s turn")
        if move not in self.legal_moves(seat):
            raise IllegalMoveError(f"{move!r} is not a legal move here")

    @abc.abstractmethod
    def apply(self, moves: Mapping[int, Any]) -> None:
        """Play one move for each seat in ``to_move()`` (unchecked: call check_move first)."""

    @abc.abstractmethod
    def forfeit(self, seat: int, reason: Termination, detail: str = "") -> None:
        """The referee removes ``seat`` (time-out, crash, illegal move ...).

        In a two-player game the other side wins; in a multi-player game the seat
        leaves and the others play on.
        """

    def adjudicate(self, outcome: Outcome) -> None:
        """The referee ends the game with ``outcome``: a ruling the rules cannot reach
        (a flag fall judged a draw, a status word taken as written, an organizer's call).

        Two-player games implement it; the runner records the ruling so replays end
        the same way.
        """
        raise NotImplementedError(f"{type(self).__name__} takes no referee rulings")

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once terminal, else None."""

    def is_terminal(self) -> bool:
        return self.outcome() is not None

    @abc.abstractmethod
    def clone(self) -> "State":
        """An independent copy (including the random generator)."""

    def events(self) -> tuple[Event, ...]:
        """What the last ``apply`` or ``forfeit`` caused (for replays' "next event")."""
        return ()

    def turn_number(self) -> int:
        """How many turns have been played to reach this state."""
        return getattr(self, "turn", 0)


class Game(abc.ABC):
    """A game: its spec, how to start, and its move text codec."""

    spec: GameSpec

    @abc.abstractmethod
    def new_initial_state(self, options: Mapping[str, Any], seed: int) -> State:
        """The start position for resolved ``options``; ``seed`` seeds the state's RNG."""

    @abc.abstractmethod
    def parse_move(self, text: str, state: State | None = None, seat: int | None = None) -> Any:
        """Read a move's text (raise :class:`MoveSyntaxError`)."""

    @abc.abstractmethod
    def format_move(self, move: Any) -> str:
        """The move's text: ``parse_move(format_move(m)) == m``."""

    def default_move(self, state: State, seat: int) -> Any | None:
        """The move the referee substitutes for a bad answer, or None to forfeit.

        Robot: stay in place; Tam Quan: the first valid steps.  Two-player games
        forfeit, so they keep this default.
        """
        return None

    def describe(self, state: State) -> str:
        """A one-line status for the shell ("Red to move", "Turn 12 of 80")."""
        seats = state.to_move()
        if not seats:
            out = state.outcome()
            return out.detail if out else "game over"
        return ", ".join(self.spec.seat_name(s) for s in seats) + " to move"

    def seats_for(self, options: Mapping[str, Any]) -> int:
        """How many seats a match with these options has."""
        return options.get("players", self.spec.min_seats)


def parse_option_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """``KEY=VALUE`` words from a command line, as option overrides (values stay text)."""
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise GameSetupError(f"option {pair!r} is not KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def uniform_outcome_two_player(winner: int | None, reason: Termination, detail: str) -> Outcome:
    """Outcome for a two-seat game: winner 0 or 1, or None for a draw."""
    if winner is None:
        return Outcome((), (0.5, 0.5), reason, detail)
    scores = (1.0, 0.0) if winner == 0 else (0.0, 1.0)
    return Outcome((winner,), scores, reason, detail)


def check_seats(spec: GameSpec, count: int) -> None:
    if not spec.min_seats <= count <= spec.max_seats:
        raise GameSetupError(f"{spec.title} takes {spec.min_seats}"
                             + (f"-{spec.max_seats}" if spec.max_seats != spec.min_seats else "")
                             + f" seats, not {count}")


def moves_text(game: Game, moves: Iterable[Any]) -> list[str]:
    return [game.format_move(m) for m in moves]
