"""Seats: who answers for one side of a match.

Every seat of every game is a person at this screen (:class:`HumanSeat`), a built-in
bot (:class:`BotSeat`), or an external program driven through the game's own file
protocol (made by the game's ``external`` factory), plus extra kinds a game adds
(``gtp:``, ``uci:``).  Seats are asked from worker threads, never from the frame loop.

A seat answers with an :class:`Answer`: the move (or move text), and for the debug
panel what it was given, what it answered, how long it took and what it printed.
The runner, not the seat, decides what a bad answer costs.  :class:`Seat`,
:class:`SeatInfo` and :class:`Answer` are the contract's seat half, in
:mod:`games.seat` (imported here, so ``runner.seats`` still names them).
"""
from __future__ import annotations

import inspect
import queue
import threading
import time
from pathlib import Path
from typing import Any, Mapping

from games.api import GameSetupError, State, Termination
from games.registry import GamePlugin
from games.seat import Answer, Seat, SeatInfo  # noqa: F401  (the contract's seat half, used from here too)
from runner.i18n import _


class HumanSeat(Seat):
    """A person at this screen: the ui hands moves in with :meth:`submit`.

    The person's clock can be held (:meth:`hold`) while they read How to play: held
    time is neither charged nor counted against their limits.
    """

    kind = "human"
    #: How often a timed wait looks at the clock again (a hold stretches the limit).
    WAIT_SLICE = 0.1

    def __init__(self, spec: str = "human", label: str = "Person"):
        super().__init__(spec, label)
        self._moves: queue.Queue = queue.Queue()
        self.waiting = threading.Event()
        self._hold_lock = threading.Lock()
        self._held_at: float | None = None      # perf_counter when the current hold began
        self._held = 0.0                        # seconds held during the current question

    def submit(self, move_text: str | None) -> None:
        """The ui's call: the person's move text (None resigns)."""
        self._moves.put(move_text)

    def hold(self, held: bool) -> None:
        """Stop (True) or restart (False) this person's clock."""
        with self._hold_lock:
            now = time.perf_counter()
            if held and self._held_at is None:
                self._held_at = now
            elif not held and self._held_at is not None:
                self._held += now - self._held_at
                self._held_at = None

    def held_seconds(self) -> float:
        """Seconds the clock has been held during the current question."""
        with self._hold_lock:
            now = time.perf_counter()
            return self._held + (now - self._held_at if self._held_at is not None else 0.0)

    def _used(self, start: float) -> float:
        return time.perf_counter() - start - self.held_seconds()

    def ask(self, state, seat, time_limit):
        start = time.perf_counter()
        with self._hold_lock:
            self._held = 0.0
            if self._held_at is not None:
                self._held_at = start
        self.waiting.set()
        try:
            text = self._wait(start, time_limit)
        except queue.Empty:
            return Answer(elapsed=self._used(start), failure=Termination.TIMEOUT,
                          detail="no move before the clock ran out")
        finally:
            self.waiting.clear()
        elapsed = self._used(start)
        if text is None:
            return Answer(elapsed=elapsed, failure=Termination.RESIGNATION, detail="resigned")
        if text == _CANCEL:
            return Answer(elapsed=elapsed, failure=Termination.ABORTED, detail="match stopped")
        return Answer(text=text, answered=text, elapsed=elapsed)

    def _wait(self, start: float, time_limit: float | None):
        """The next submitted text; queue.Empty once ``time_limit`` seconds (not held) pass."""
        if time_limit is None:
            return self._moves.get()
        while True:
            left = time_limit - self._used(start)
            if left <= 0:
                raise queue.Empty
            try:
                return self._moves.get(timeout=min(left, self.WAIT_SLICE))
            except queue.Empty:
                continue

    def cancel(self):
        self._moves.put(_CANCEL)


_CANCEL = "\0cancel"


class BotSeat(Seat):
    """A built-in bot, asked in the runner's worker thread."""

    kind = "bot"

    def __init__(self, spec: str, bot, level: int, settings: Mapping[str, str] | None = None):
        extra = "".join(f", {k}={v}" for k, v in (settings or {}).items())
        super().__init__(spec, f"Bot (level {level}{extra})")
        self.bot, self.level, self.settings = bot, level, dict(settings or {})

    def start(self, info: SeatInfo, state: State) -> None:
        super().start(info, state)
        prepare = getattr(self.bot, "prepare", None)     # bots made before Bot.prepare had none
        if prepare is not None:
            prepare()

    def budget(self, seat: int, time_limit: float | None) -> float | None:
        """Seconds the bot may think for this answer: most of the limit, minus hand-over slack."""
        return None if time_limit is None else max(0.01, time_limit * 0.9 - 0.02)

    def ask(self, state, seat, time_limit):
        start, cpu_start = time.perf_counter(), time.thread_time()
        budget = self.budget(seat, time_limit)
        try:
            move = self.bot.choose(state.clone(), seat, budget)
        except Exception as exc:  # a bot bug must not take the arena down
            return Answer(elapsed=time.perf_counter() - start, failure=Termination.CRASH,
                          detail=f"bot error: {type(exc).__name__}: {exc}")
        wall = time.perf_counter() - start
        answer = Answer(move=move, elapsed=wall, wall=wall, cpu=time.thread_time() - cpu_start)
        info = getattr(self.bot, "last_info", None)
        if info:        # what the search reached (depth, score, nodes): kept in the record
            answer.answered = " ".join(f"{key} {value}" for key, value in info.items())
            answer.search = {k: info[k] for k in ("depth", "score", "nodes") if k in info}
        return answer

    def describe(self) -> dict:
        data = super().describe()
        data["level"] = self.level
        if self.settings:
            data["settings"] = dict(self.settings)
        return data


def charge(answer: Answer, clock: str, wall: float, cpu: float | None) -> None:
    """Put both figures of an answer's time on it, and charge it (``elapsed``) by
    ``clock``: its CPU seconds on the CPU clock when known, else its wall seconds."""
    answer.wall, answer.cpu, answer.clock = wall, cpu, clock
    answer.elapsed = cpu if clock == "cpu" and cpu is not None else wall


def seat_clock(limits: Mapping[str, Any] | None) -> str:
    """The clock a program seat is charged by, from its limits' ``clock`` (``wall``, the
    default, or ``cpu``: the CPU time of its whole process tree, with a wall cap; see
    :class:`runner.process.TurnDeadline`)."""
    from runner.process import check_clock
    try:
        return check_clock((limits or {}).get("clock"))
    except ValueError as exc:
        raise GameSetupError(str(exc)) from None


def seat_folder(info: SeatInfo, limits: Mapping[str, Any]) -> Path:
    """The one way a program seat picks its working folder: ``limits["folder"]`` when
    the caller names one (contest mode runs beside PLAY.INI), else the fresh folder
    the match made for the seat."""
    chosen = limits.get("folder") or info.workdir
    if not chosen:
        raise GameSetupError(_("seat {n} runs a program but was given no folder").format(n=info.seat + 1))
    folder = Path(chosen)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def bot_settings(text: str) -> dict[str, str]:
    """``"depth=6 nodes=1000"`` -> ``{"depth": "6", "nodes": "1000"}`` (a game's bot checks them)."""
    settings = {}
    for word in text.split():
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise GameSetupError(_("bot setting {word!r}: expected KEY=VALUE, e.g. depth=6").format(word=word))
        settings[key.lower()] = value
    return settings


def seat_option_defaults(seats) -> dict[str, Any]:
    """The option defaults the seats ask for, merged in seat order."""
    return {key: value for seat in seats for key, value in seat.option_defaults.items()}


def parse_seat_spec(spec: str) -> tuple[str, str]:
    """``"bot:3"`` -> ``("bot", "3")``; ``"ext:./a.out -v"`` -> ``("ext", "./a.out -v")``."""
    kind, sep, arg = spec.partition(":")
    kind = kind.strip().lower()
    if kind in ("human", "bot") or sep:
        return kind, arg.strip()
    raise GameSetupError(_("seat {spec!r}: expected human, bot[:LEVEL] or KIND:COMMAND").format(spec=spec))


def make_seat(spec: str, plugin: GamePlugin, seed: int,
              limits: Mapping[str, Any] | None = None) -> Seat:
    """Build a seat from its command-line spec for the given game."""
    kind, arg = parse_seat_spec(spec)
    if kind == "human":
        return HumanSeat(spec)
    if kind == "bot":
        level_text, _space, rest = arg.partition(" ")
        if plugin.bot is None:
            raise GameSetupError(_("{game} has no built-in bot").format(game=plugin.name))
        if level_text and not level_text.isdigit():
            levels = f"1-{len(plugin.bot_levels)}" if plugin.bot_levels else _("a whole number")
            raise GameSetupError(_("seat {spec!r}: the bot's level is a number ({levels}), not {level!r}").format(
                spec=spec, levels=levels, level=level_text))
        level = int(level_text) if level_text else max(1, len(plugin.bot_levels) // 2)
        settings = bot_settings(rest)
        if plugin.bot_levels and not 1 <= level <= len(plugin.bot_levels):
            raise GameSetupError(_("{game} bot levels are 1-{last}").format(game=plugin.name, last=len(plugin.bot_levels)))
        factory = plugin.load("bot")
        if settings and "settings" not in inspect.signature(factory).parameters:
            raise GameSetupError(_("{game} bots take no settings ({settings})").format(game=plugin.name, settings=rest.strip()))
        bot = factory(level, seed, settings=settings) if settings else factory(level, seed)
        return BotSeat(spec, bot, level, settings)
    if not arg:
        raise GameSetupError(_("seat {spec!r}: a command is needed after '{kind}:'").format(spec=spec, kind=kind))
    if kind == "ext":
        if plugin.external is None:
            raise GameSetupError(_("{game} cannot run external programs yet").format(game=plugin.name))
        return plugin.load("external")(spec, arg, limits=dict(limits or {}))
    if kind in plugin.extra_seats:
        return plugin.load(kind)(spec, arg, limits=dict(limits or {}))
    raise GameSetupError(_("seat kind {kind!r} is not known for {game}; kinds: {kinds}").format(
        kind=kind, game=plugin.name, kinds=", ".join(["human", "bot", "ext", *plugin.extra_seats])))
