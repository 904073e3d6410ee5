"""One way to assemble a match: a :class:`MatchPlan` says what the match is, and
:func:`build_match` makes its seats and the :class:`~runner.match.Match`.

Every front builds its matches here: ``arena match`` and ``arena branch``, the New match
form, the replay viewer's Branch, tournaments' workers and ``arena xiangqi referee``;
``arena rerun`` makes its one seat with :func:`build_seat`.  So the rules of assembly
hold everywhere alike:

* seats come from their specs (``human``, ``bot:3``, ``ext:CMD``, a game's engine kinds)
  through :func:`runner.seats.make_seat`, each seeded with the match's seed plus its
  index (:func:`seat_seed`), so a match is replayed from its seed;
* options given as overrides are resolved over the game's defaults, the variant's
  presets and, below what the user gives, the seats' own wishes (an engine's usual
  repetition count), with the seat count set from the seats when the game has such an
  option (:func:`match_options`); a whole option set (a record's, a tournament plan's)
  is used as it is;
* options that name files are read by the match (:func:`runner.setup.load_option_files`);
  :func:`started_options` reads them and tries the game's start, for forms and plans
  that check before any match is made;
* a program seat whose command cannot start is refused before the match starts
  (:func:`runner.commands.command_problem`), unless the front asked for seats that
  cannot start to be seated anyway (a tournament, the Xiangqi referee: the game's
  rules score them);
* a branch is refused when a seat is a program run once for the whole game and the
  branch is after the start.

Game-agnostic and pygame-free, like the rest of the runner.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from games.api import ArenaError, GameSetupError, check_seats
from games.registry import GamePlugin
from games.replay import Replay
from runner.i18n import _
from runner.match import Branch, Match, TimeControl
from runner.seats import Seat, make_seat, seat_option_defaults
from runner.setup import load_option_files

#: Makes the seat of a contestant that cannot start, from its spec and the reason
#: (a tournament's ``BrokenSeat``, which crashes every turn).
Unstartable = Callable[[str, str], Seat]


@dataclass(frozen=True)
class MatchPlan:
    """What a match is, before anything runs: plain values, compared with ``==``.

    ``options`` are overrides to resolve (:func:`match_options`) unless ``whole_options``
    says they are a match's complete option set already (a record's, a tournament
    plan's), used as they are.  ``limits`` go to every program seat (``time``, ``poll``,
    ``clock``, ``seconds`` ...).  ``labels`` name seats on screen and in the record ("":
    the seat's own label); ``broken`` holds, per seat, why it cannot start ("": it can).
    """

    game: str
    specs: tuple[str, ...]
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    whole_options: bool = False
    variant: str | None = None
    limits: Mapping[str, Any] = field(default_factory=dict)
    labels: tuple[str, ...] = ()
    broken: tuple[str, ...] = ()
    time_control: TimeControl | None = None
    branch: Branch | None = None

    def __post_init__(self):
        for name in ("specs", "labels", "broken"):
            object.__setattr__(self, name, tuple(getattr(self, name)))

    @classmethod
    def new(cls, game: str, specs: Sequence[str], *, seed: int | None = None,
            **fields: Any) -> "MatchPlan":
        """A new match from option overrides; a random seed unless one is given."""
        return cls(game, tuple(specs), new_seed() if seed is None else int(seed), **fields)

    @classmethod
    def from_record(cls, replay: Replay, specs: Sequence[str], *, turn: int | None = None,
                    **fields: Any) -> "MatchPlan":
        """A match with a record's game, options, variant and seed; a branch from ``turn``
        when given (see :meth:`runner.match.Branch.of`, which checks the record can be)."""
        branch = Branch.of(replay, turn) if turn is not None else None
        header = replay.header
        return cls(replay.game, tuple(specs), int(header.get("seed", 0)),
                   options=dict(header.get("options") or {}), whole_options=True,
                   variant=header.get("variant"), branch=branch, **fields)

    def seat_seed(self, index: int) -> int:
        return seat_seed(self.seed, index)


def new_seed() -> int:
    """A match's random seed, when none is asked for."""
    return random.randrange(2 ** 31)


def seat_seed(seed: int, index: int) -> int:
    """The seed of seat ``index`` in a match seeded ``seed`` (its bot's generator)."""
    return seed + index


def build_seat(plugin: GamePlugin, spec: str, seed: int, index: int,
               limits: Mapping[str, Any] | None = None) -> Seat:
    """Seat ``index`` of a match seeded ``seed``, made from ``spec`` as every match makes
    it (no program starts here)."""
    return make_seat(spec, plugin, seat_seed(seed, index), limits=dict(limits or {}))


def match_options(plugin: GamePlugin, variant: str | None, given: Mapping[str, Any],
                  seat_defaults: Mapping[str, Any] | None = None,
                  seat_count: int | None = None) -> dict[str, Any]:
    """The options a new match plays with: the game's defaults, the variant's presets,
    the seats' wishes, then ``given`` (text from a command line or a form, or typed
    values).  When the game has a seat-count option that ``given`` leaves out, it is
    ``seat_count`` (one seat per spec) when that is known."""
    spec = plugin.new_game().spec
    explicit = dict(given)
    if spec.seats_option and spec.seats_option not in explicit and seat_count is not None:
        explicit[spec.seats_option] = seat_count
    return spec.resolve_options(variant, {**(seat_defaults or {}), **explicit})


def started_options(plugin: GamePlugin, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with the files they name read in, checked by starting the game once
    (seed 0); raises :class:`~games.api.ArenaError` with the reason when it cannot start."""
    game = plugin.new_game()
    loaded, _files = load_option_files(plugin, game, options)
    game.new_initial_state(loaded, 0)
    return loaded


def asked_option_defaults(plugin: GamePlugin, specs: Sequence[str]) -> dict[str, Any]:
    """The option defaults that the seats of ``specs`` would ask for, without a match:
    the program and engine seats are made (nothing starts) and closed; a spec that
    cannot be made yet (no command) asks for nothing."""
    made = []
    try:
        for index, spec in enumerate(specs):
            kind, _sep, arg = spec.partition(":")
            if kind.strip().lower() in ("human", "bot") or not arg.strip():
                continue
            try:
                made.append(build_seat(plugin, spec, 0, index))
            except (ArenaError, OSError, ValueError):
                continue
        return seat_option_defaults(made)
    finally:
        for seat in made:
            seat.close()


def build_seats(plan: MatchPlan, plugin: GamePlugin,
                unstartable: Unstartable | None = None) -> list[Seat]:
    """The plan's seats in seat order.  A seat that cannot be made stops the building
    (the seats made so far are closed) unless ``unstartable`` is given: then it makes
    that seat from its spec and the reason."""
    seats: list[Seat] = []
    try:
        for index, spec in enumerate(plan.specs):
            reason = plan.broken[index] if index < len(plan.broken) else ""
            seat = None
            if not reason:
                try:
                    seat = build_seat(plugin, spec, plan.seed, index, plan.limits)
                except (ArenaError, OSError, ValueError) as exc:
                    if unstartable is None:
                        raise
                    reason = str(exc)
            if seat is None:
                if unstartable is None:
                    raise GameSetupError(_("seat {n} ({spec}) cannot start: {problem}").format(
                        n=index + 1, spec=spec, problem=reason))
                seat = unstartable(spec, reason)
            label = plan.labels[index] if index < len(plan.labels) else ""
            if label:
                seat.label = label
            seats.append(seat)
    except BaseException:
        close_seats(seats)
        raise
    return seats


def command_problems(plan: MatchPlan, seats: Sequence[Seat]) -> None:
    """Raise :class:`~games.api.GameSetupError` for the first program seat whose command
    cannot start (``./my_bot`` does not exist), before the match does."""
    from runner.commands import command_problem
    for index, (spec, seat) in enumerate(zip(plan.specs, seats)):
        problem = command_problem(spec.partition(":")[2]) if seat.kind not in ("human", "bot") else ""
        if problem:
            raise GameSetupError(_("seat {n} ({spec}) cannot start: {problem}").format(
                n=index + 1, spec=spec, problem=problem))


def check_branch(plan: MatchPlan, seats: Sequence[Seat]) -> None:
    """A program run once for the whole game answers from the game's start: it cannot
    take over a branch after turn 0."""
    from runner.program_seats import WholeGameSeat
    if plan.branch is not None and plan.branch.turn and any(isinstance(s, WholeGameSeat) for s in seats):
        raise GameSetupError(_("A program run once for the whole game plays it from the start: it "
                               "cannot take over at turn {n}. Choose a person or a bot.").format(
                                   n=plan.branch.turn))


def close_seats(seats: Sequence[Seat]) -> None:
    for seat in seats:
        seat.close()


def build_match(plan: MatchPlan, *, record_path: str | Path | None = None,
                workdir: str | Path | None = None, out_dir: str | Path | None = None,
                match_class: type[Match] = Match, unstartable: Unstartable | None = None,
                check_commands: bool = True, **extra: Any) -> Match:
    """The plan's seats and match, ready to run or start (no program runs yet).

    ``record_path``, ``workdir`` and ``out_dir`` say where the match writes (see
    :class:`~runner.match.Match`); ``match_class`` and ``extra`` are for a game's own
    referee (Xiangqi's contest clocks and REPORT.TXT).  With ``unstartable`` a seat that
    cannot be made or was planned ``broken`` is seated as that factory makes it, and
    commands are not checked (a tournament: the game's rules score such a seat);
    without it such a seat is an error.  ``check_commands=False`` lets a program whose
    command cannot start play and lose by its crash (the Xiangqi contest's rule).  On
    any error the seats made are closed.
    """
    from games import registry
    plugin = registry.plugin(plan.game)
    check_seats(plugin.new_game().spec, len(plan.specs))    # before the count becomes an option
    seats = build_seats(plan, plugin, unstartable)
    try:
        if check_commands and unstartable is None:
            command_problems(plan, seats)
        check_branch(plan, seats)
        options = plan.options if plan.whole_options else match_options(
            plugin, plan.variant, plan.options, seat_option_defaults(seats), len(seats))
        if plan.time_control is not None:
            extra["time_control"] = plan.time_control
        return match_class(plugin, options, seats, seed=plan.seed, variant=plan.variant,
                           record_path=record_path, workdir=workdir, out_dir=out_dir,
                           branch=plan.branch, **extra)
    except BaseException:
        close_seats(seats)
        raise
