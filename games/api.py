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
import hashlib
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

    The message always names the file, the line (1-based) and what was expected; with a
    line it is a :class:`Message` (``expected`` a part: a message keeps its id, a plain
    text is read back by the templates), so the interface says it in its language.
    """

    def __init__(self, path: str, line: int | None, expected: str):
        self.path, self.line, self.expected = path, line, expected
        if line:
            super().__init__(Message("{path}, line {line}: {expected}", path=str(path), line=line,
                                     expected=Message.of(expected)))
        else:
            super().__init__(f"{path}: {expected}")


class Message(str):
    """An English text that remembers how it was made: its message id and its parts.

    The id is the English template as the translation catalogs know it (the msgid, with
    ``{name}`` places), the parts fill it: ``Message("{side} gives check", side="Red")``
    *is* the text ``"Red gives check"`` (a ``str``: records, logs, the command line and
    every comparison use it unchanged), and the interface says it in another language
    from the id and the parts (:func:`games.language.translate_message`) instead of reading
    the finished sentence back.  Rules modules may not import the catalogs, so ids are
    declared for extraction in each game's ``messages.py``.

    A part is another :class:`Message` (translated the same way), a name or a word (a
    plain ``str``: shown as the catalog has it whole, "Red" -> "Đỏ", else as written: a
    move, a square, a command), a number, or a tuple of parts (a list: "A 5, B 3").  :meth:`of` wraps a text made elsewhere
    (perhaps before ids existed) that is a part: it keeps its id if it has one.
    """

    msgid: str
    params: Mapping[str, Any]

    def __new__(cls, msgid: str, /, **params: Any) -> "Message":
        shown = params                        # the parts as the English text shows them
        for name, value in params.items():
            if isinstance(value, (list, tuple)):
                if shown is params:
                    shown = dict(params)
                shown[name] = _listed(tuple(value))
                params[name] = tuple(value)
        message = str.__new__(cls, msgid.format(**shown) if params else msgid)
        message.msgid, message.params = msgid, params
        return message

    @classmethod
    def made(cls, english: str, msgid: str, params: Mapping[str, Any]) -> "Message":
        """The message ``msgid`` with ``params`` whose English text is ``english`` (as a
        record wrote it); an empty ``msgid`` means a text with no id (read back by the
        catalog's templates, as texts made before ids were)."""
        message = str.__new__(cls, english)
        message.msgid, message.params = msgid, dict(params)
        return message

    @classmethod
    def of(cls, text: str) -> "Message":
        """``text`` as a part of a message: itself if it is a message, else a text with
        no id."""
        return text if isinstance(text, Message) else cls.made(str(text), "", {})

    def __reduce__(self):
        return (Message.made, (str(self), self.msgid, self.params))

    @property
    def english(self) -> str:
        return str.__str__(self)

    def to_json(self) -> dict:
        """``{"id": msgid, "params": {name: part}}``, a part that is a message as the same
        kind of object (with its English ``text``, so it reads back exactly)."""
        return {"id": self.msgid, "params": {name: _part_to_json(value)
                                              for name, value in self.params.items()}}

    @classmethod
    def from_json(cls, data: Any, english: str) -> "Message":
        """Read :meth:`to_json`'s form back as the message whose English is ``english``;
        a malformed one is a ``ValueError``."""
        if not isinstance(data, Mapping) or not isinstance(data.get("id"), str) \
                or not isinstance(data.get("params", {}), Mapping):
            raise ValueError('a message is {"id": text, "params": {name: part}}')
        params = {str(name): _part_from_json(value, name)
                  for name, value in data.get("params", {}).items()}
        return cls.made(english, data["id"], params)


def keep_messages(data: dict, *keys: str) -> dict:
    """``data`` (a record's object: an answer, a forfeit) with the id and parts of each
    of its ``keys`` whose text is a :class:`Message` (or a list of texts) kept beside
    the text, under ``data["messages"][key]``; the texts themselves stay English."""
    kept = {}
    for key in keys:
        value = data.get(key)
        if isinstance(value, Message) and value.msgid:
            kept[key] = value.to_json()
        elif isinstance(value, list) and any(isinstance(v, Message) and v.msgid for v in value):
            kept[key] = [v.to_json() if isinstance(v, Message) and v.msgid else None for v in value]
    if kept:
        data["messages"] = kept
    return data


def kept_message(data: Mapping[str, Any], key: str) -> Any:
    """``data[key]`` as :func:`keep_messages` left it: a :class:`Message` (or a list with
    messages) where its id was kept, else the text as written; a malformed id is ignored."""
    value = data.get(key, "")
    kept = data.get("messages")
    kept = kept.get(key) if isinstance(kept, Mapping) else None
    try:
        if isinstance(value, str) and isinstance(kept, Mapping):
            return Message.from_json(kept, value)
        if isinstance(value, list) and isinstance(kept, list) and len(kept) == len(value):
            return [Message.from_json(k, v) if isinstance(k, Mapping) and isinstance(v, str) else v
                    for k, v in zip(kept, value)]
    except ValueError:
        pass
    return value


def _listed(value: Any) -> Any:
    """A part as its English text goes into the template (a list joined by commas)."""
    return ", ".join(str(item) for item in value) if isinstance(value, tuple) else value


def _part_to_json(value: Any) -> Any:
    if isinstance(value, Message):
        return {"text": value.english, **value.to_json()}
    if isinstance(value, tuple):
        return [_part_to_json(item) for item in value]
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)


def _part_from_json(value: Any, name: str) -> Any:
    if isinstance(value, list):
        return tuple(_part_from_json(item, name) for item in value)
    if isinstance(value, Mapping):
        text = value.get("text")
        if not isinstance(text, str):
            raise ValueError("a message's part that is a message has its text")
        return Message.from_json(value, text)
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ValueError(f"a message's part {name!r} is text, a number, a list or a message")
    return value


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
    NOT_PLAYED = "not-played"        # a seat never got through its handshake: no result

    @property
    def is_referee(self) -> bool:
        """True for reasons the referee imposes rather than the rules."""
        return self in _REFEREE_REASONS


_REFEREE_REASONS = {Termination.TIMEOUT, Termination.ILLEGAL_MOVE, Termination.CRASH,
                    Termination.BAD_FILE, Termination.ADJUDICATION, Termination.ABORTED,
                    Termination.NOT_PLAYED}


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game, for every shape of game.

    * ``winners``: the seats that won; empty for a draw, a tie for first place, or a
      solitaire.
    * ``scores``: one number per seat: 1/0.5/0 for win/draw/loss in two-player games,
      cells (Robot) or pieces left (Tam Quan) in ranked games, the total (Crossed Words).
    * ``ranks``: one place per seat, 1 the best; seats that tie share a place.  When not
      given it follows from ``winners`` (winners 1st, everybody else 2nd; all 1st in a draw).
    * ``score_only``: a solitaire's result is its score; there is nobody to beat.

    :meth:`result_text` is the one place the result is written as text (``1-0``,
    ``1/2-1/2``, a rank list, a score).
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    reason: Termination
    detail: str = ""
    ranks: tuple[int, ...] = ()
    score_only: bool = False

    def __post_init__(self):
        if not self.ranks:
            if self.score_only or not self.winners:
                ranks = tuple(1 for _ in self.scores)
            else:
                ranks = tuple(1 if s in self.winners else 2 for s in range(len(self.scores)))
            object.__setattr__(self, "ranks", ranks)
        if len(self.ranks) != len(self.scores):
            raise ValueError(f"an outcome needs one rank per seat: {len(self.scores)} scores, "
                             f"{len(self.ranks)} ranks")

    @classmethod
    def ranked(cls, scores: Sequence[float], reason: Termination, detail: str = "") -> "Outcome":
        """Seats ranked by ``scores``, highest first; equal scores share a place.  The
        winner is the one seat in first place, if only one is."""
        scores = tuple(float(x) for x in scores)
        ranks = tuple(1 + sum(other > mine for other in scores) for mine in scores)
        first = tuple(s for s, r in enumerate(ranks) if r == 1)
        return cls(first if len(first) == 1 else (), scores, reason, detail, ranks)

    @classmethod
    def solo(cls, score: float, reason: Termination, detail: str = "") -> "Outcome":
        """A one-seat game's result: its score."""
        return cls((), (float(score),), reason, detail, (1,), True)

    @property
    def is_draw(self) -> bool:
        """Nobody won and nobody lost: every seat shares first place (never a solitaire)."""
        return not self.score_only and not self.winners and len(set(self.ranks)) == 1

    def result_text(self, seat_names: Sequence[str] | None = None) -> str:
        """The result in the notation people expect: ``1-0``, ``0-1``, ``1/2-1/2`` for two
        seats; ``1. A 140 · 2. C 96 · 2. B 96`` for more; ``score 412`` for a solitaire;
        ``*`` for a game stopped before its end."""
        if self.reason in (Termination.ABORTED, Termination.NOT_PLAYED) and not self.winners:
            return "*"                        # stopped before its end: the result is unknown
        if self.score_only:
            return Message("score {n}", n=_number(self.scores[0]))
        if len(self.scores) == 2 and all(x in (0.0, 0.5, 1.0) for x in self.scores):
            if self.is_draw:
                return "1/2-1/2"
            if self.winners == (0,):
                return "1-0"
            if self.winners == (1,):
                return "0-1"
            return "0-0"
        names = list(seat_names or ())
        names += [f"Player {i + 1}" for i in range(len(names), len(self.scores))]
        order = sorted(range(len(self.scores)), key=lambda s: (self.ranks[s], s))
        return " · ".join(f"{self.ranks[s]}. {names[s]} {_number(self.scores[s])}" for s in order)

    def to_json(self) -> dict:
        data = {"winners": list(self.winners), "scores": list(self.scores),
                "reason": self.reason.value, "detail": self.detail, "ranks": list(self.ranks)}
        if self.score_only:
            data["score_only"] = True
        if isinstance(self.detail, Message) and self.detail.msgid:
            data["detail_message"] = self.detail.to_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Outcome":
        """Read :meth:`to_json`'s form back; a value of the wrong type is a ``ValueError``."""
        if not isinstance(data, Mapping):
            raise ValueError("an outcome is a JSON object")
        scores = _seq(data.get("scores"), (int, float), "scores")
        winners = _seq(data.get("winners", []), int, "winners")
        ranks = _seq(data.get("ranks", []), int, "ranks")
        if any(not 0 <= w < len(scores) for w in winners):
            raise ValueError(f"winners {list(winners)} are not seats of a {len(scores)}-seat game")
        try:
            reason = Termination(data.get("reason"))
        except ValueError:
            raise ValueError(f"unknown reason {data.get('reason')!r}") from None
        detail = data.get("detail", "")
        if not isinstance(detail, str):
            raise ValueError("detail must be text")
        if "detail_message" in data:
            detail = Message.from_json(data["detail_message"], detail)
        return cls(winners, tuple(float(x) for x in scores), reason, detail, ranks,
                   bool(data.get("score_only", False)))


def _seq(value: Any, kinds, name: str) -> tuple:
    if not isinstance(value, (list, tuple)) or any(
            isinstance(x, bool) or not isinstance(x, kinds) for x in value):
        raise ValueError(f"{name} must be a list of numbers")
    return tuple(value)


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


class GameKind(enum.Enum):
    """How the seats take turns (OpenSpiel's ``GameType.dynamics``, stretched)."""

    ALTERNATING = "alternating"      # one seat moves at a time (Xiangqi, Hex)
    SIMULTANEOUS = "simultaneous"    # every seat answers each turn at once (Robot)
    TEAM_TURNS = "team-turns"        # a seat is a team moving several pieces (Tam Quan)
    SOLITAIRE = "solitaire"          # one seat, nobody to beat (Crossed Words)


@dataclass(frozen=True)
class Option:
    """One match option: its name, default, type and a one-line help."""

    name: str
    default: Any
    help: str = ""
    choices: tuple = ()
    file: bool = False       # the value names a file; records keep its content (see runner.setup)
    hidden: bool = False     # set by the arena itself (a map's name), not offered in forms

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
    kind: GameKind = GameKind.ALTERNATING
    perfect_information: bool = True   # False: a seat sees only part of the state
    live_scores: bool = False      # State.live_scores() is meaningful during play
    seats_option: str | None = None    # the option that sets the seat count ("players", "teams")
    seat_word: str = "player"      # what a seat is called ("player", "team")

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
        return f"{self.seat_word.capitalize()} {seat + 1}"

    def file_options(self) -> tuple[Option, ...]:
        """Options whose value names a file (a map, a dictionary, a letters file)."""
        return tuple(o for o in self.options if o.file)


@dataclass(frozen=True)
class Event:
    """Something worth jumping to in a replay: a capture, an elimination, a verdict."""

    kind: str          # "capture", "elimination", "explosion", "enclosure", "verdict", ...
    text: str          # in English; a :class:`Message` also knows its id and parts
    seats: tuple[int, ...] = ()
    #: The cells it touched, as (row, column) in the game's own terms (Robot: (X, Y);
    #: Xiangqi: (rank, file); Hex: (row, column)), so a replay can mark them.
    squares: tuple[tuple[int, int], ...] = ()

    def to_json(self) -> list:
        """``[kind, text, seats]``, then the squares if any, then the text's message (id
        and parts) if it has one (the English text stays, so every reader still has it)."""
        data = [self.kind, self.text, list(self.seats)]
        message = self.text.to_json() if isinstance(self.text, Message) and self.text.msgid else None
        if self.squares or message:
            data.append([list(sq) for sq in self.squares])
        if message:
            data.append(message)
        return data

    @classmethod
    def from_json(cls, data: Any) -> "Event":
        """Read :meth:`to_json`'s list back; a malformed one is a ``ValueError``."""
        if not isinstance(data, (list, tuple)) or not 3 <= len(data) <= 5:
            raise ValueError("an event is [kind, text, seats(, squares(, message))]")
        kind, text, seats = data[:3]
        squares = data[3] if len(data) >= 4 else []
        if not isinstance(kind, str) or not isinstance(text, str):
            raise ValueError("an event's kind and text are text")
        seats = _seq(seats, int, "an event's seats")
        if not isinstance(squares, list) or any(
                not isinstance(sq, list) or len(sq) != 2 or any(
                    isinstance(v, bool) or not isinstance(v, int) for v in sq) for sq in squares):
            raise ValueError("an event's squares are [row, column] pairs")
        if len(data) == 5:
            text = Message.from_json(data[4], text)
        return cls(kind, text, seats, tuple(tuple(sq) for sq in squares))


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

    @abc.abstractmethod
    def turn_number(self) -> int:
        """How many turns have been played to reach this state (0 at the start)."""

    def live_scores(self) -> tuple[float, ...]:
        """The running score of every seat, for games whose spec says ``live_scores``."""
        raise NotImplementedError(f"{type(self).__name__} keeps no running scores")

    def board_text(self) -> str:
        """The position as plain text (the debug panel's and the tools' view)."""
        return ""

    def play(self, moves: Mapping[int, Any]) -> None:
        """The checked way to play a turn: every seat in ``to_move()`` gives exactly one
        move, each passes :meth:`check_move`, then :meth:`apply`.  Everything that comes
        from outside (records, people, programs) goes through here or the runner's
        referee step, which checks the same way; only search uses ``apply`` directly.
        """
        expected = set(self.to_move())
        if set(moves) != expected:
            raise IllegalMoveError(f"moves were given for seats {sorted(moves)}, "
                                   f"but seats {sorted(expected)} must move")
        for seat, move in moves.items():
            self.check_move(seat, move)
        self.apply(moves)


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

    def parse_cell(self, text: str) -> tuple[int, int] | None:
        """A cell named in the game's own notation (Robot ``3 4``, Xiangqi ``h2``, Hex
        ``c3``) as a pair of whole numbers, or None when ``text`` names no cell.

        Bot annotations (:mod:`games.annotations`) name cells this way; the game's
        renderer places the pair (:meth:`games.render.BoardRenderer.annotation_spot`).
        Pure and total: it never raises.  The default names no cell (no annotations).
        """
        return None

    def default_move(self, state: State, seat: int) -> Any | None:
        """The move the referee substitutes for a bad answer, or None to forfeit.

        Robot: stay in place.  Two-player games forfeit, so they keep this default.
        """
        return None

    def repair(self, state: State, seat: int, text: str | None) -> tuple[Any, str] | None:
        """The move the referee plays for a bad answer ``text`` (None: no answer at all),
        with a note saying what it did; None to forfeit the seat instead.

        A game whose moves are compound may keep the valid parts of the answer (Tam
        Quan: members given no valid step take their first valid step).  The default
        plays :meth:`default_move` whole.
        """
        move = self.default_move(state, seat)
        if move is None:
            return None
        return move, Message("the referee played {move}", move=self.format_move(move))

    def timeout_ruling(self, state: State, seat: int, elapsed: float,
                       used: Mapping[int, float], total: float | None) -> "Outcome | None":
        """The game's own ruling on ``seat`` running out of time after ``elapsed``
        seconds on this answer (``used``: each seat's clock before it; ``total``: each
        seat's time for the whole game, None when untimed), or None for the usual
        consequence (the seat loses).  Xiangqi adjudicates a flag fall (RULES.md)."""
        return None

    def rules_summary(self, options: Mapping[str, Any]) -> str:
        """The rulings in force for ``options``, in a few words, for the match header and
        the record (Xiangqi: which repetition rule); "" when there is nothing to say."""
        return ""

    def rules_headline(self, options: Mapping[str, Any]) -> str:
        """The one ruling in force that players most need to know, in a few words, shown
        beside the game's name on the match screen (Xiangqi: "first repeat ends the
        game"); "" when there is none.  English: the shell translates it."""
        return ""

    def play_text(self, state: State, texts: Mapping[int, str]) -> dict[int, Any]:
        """Parse each seat's move text and play them checked (:meth:`State.play`)."""
        moves = {seat: self.parse_move(text, state, seat) for seat, text in texts.items()}
        state.play(moves)
        return moves

    def describe(self, state: State) -> str:
        """A one-line status for the shell ("Red to move", "Turn 12 of 80")."""
        seats = state.to_move()
        if not seats:
            out = state.outcome()
            return out.detail if out else "game over"
        return ", ".join(self.spec.seat_name(s) for s in seats) + " to move"

    def seats_for(self, options: Mapping[str, Any]) -> int:
        """How many seats a match with these options has: the spec's ``seats_option``
        when it names one, else ``min_seats``."""
        if self.spec.seats_option is None:
            return self.spec.min_seats
        value = options.get(self.spec.seats_option, self.spec.min_seats)
        try:
            return int(value)
        except (TypeError, ValueError):
            raise GameSetupError(f"option {self.spec.seats_option}: {value!r} is not a number") from None


def content_hash(text: str) -> str:
    """The SHA-256 of ``text`` (UTF-8), as records keep it beside a file's content."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


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
                             + (f"–{spec.max_seats}" if spec.max_seats != spec.min_seats else "")
                             + f" seats; {count} {'was' if count == 1 else 'were'} given")


def moves_text(game: Game, moves: Iterable[Any]) -> list[str]:
    return [game.format_move(m) for m in moves]
