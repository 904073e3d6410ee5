"""The game-agnostic match runner: the arena as referee.

One loop, in the spirit of OpenSpiel's ``evaluate_bots``: ask the seats that must
move (several at once for simultaneous games), turn each answer into a move or a
verdict, apply, record, repeat.  It owns the clocks and the time limits, writes the
record as it goes, and never imports pygame: the ui runs a match in a worker thread
(:meth:`Match.start`) and reads it only through :meth:`Match.snapshot` and the
control calls (pause, resume, step, stop, undo, submit).
"""
from __future__ import annotations

import datetime as _dt
import json
import platform
import secrets
import shutil
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from games.api import ArenaError, GameSetupError, Message, Outcome, State, Termination, check_seats
from games.replay import Replay, TurnInfo
from games.registry import GamePlugin
from runner.program_seats import ProgramsTurn
from runner.records import SUFFIX, RecordWriter
from runner.referee import error_text, judge_time, referee_step, sure_move
from runner.sandbox import SEAT_MARKER
from runner.seats import Answer, HumanSeat, Seat, SeatInfo
from runner.setup import load_option_files

ARENA_VERSION = "0.1.0"
#: Written into every seat folder the arena makes, so that only such folders are ever emptied
#: (and, in the strict sandbox as root, handed to the program's own uid): SEAT_MARKER,
#: imported from runner.sandbox.


@dataclass(frozen=True)
class TimeControl:
    """Per-answer limit and per-seat total, in seconds; None means untimed.

    ``per_move`` and ``total`` are the contest's limits for programs and bots.  People
    have their own (``human_per_move``, the organizer's countdown, and ``human_total``),
    untimed unless asked for: a program's twenty seconds a game would be lost on time
    by a person after a few moves.
    """

    per_move: float | None = None
    total: float | None = None
    human_per_move: float | None = None
    human_total: float | None = None

    def limits(self, human: bool) -> tuple[float | None, float | None]:
        """(per answer, whole game) for a person's seat or a program's."""
        return (self.human_per_move, self.human_total) if human else (self.per_move, self.total)

    def to_json(self) -> dict:
        return {"per_move": self.per_move, "total": self.total,
                "human_per_move": self.human_per_move, "human_total": self.human_total}


@dataclass
class MatchView:
    """A consistent copy of a running match for the ui (safe to read on any thread)."""

    state: State
    turns: list[TurnInfo]
    time_used: dict[int, float]
    time_left: dict[int, float | None]
    waiting_for: tuple[int, ...]
    thinking_since: float | None
    paused: bool
    outcome: Outcome | None
    error: str
    revision: int
    #: Seats of the turn being asked whose answer has not come yet (a seat's clock runs
    #: only while it is here: in a simultaneous turn each seat is charged its own time).
    pending: tuple[int, ...] = ()
    #: Seconds each pending seat's clock has been held during this turn (How to play open).
    held: dict[int, float] = field(default_factory=dict)
    #: Every position so far: ``states[n]`` is the position before turn ``n + 1``.
    states: tuple[State, ...] = ()
    #: The seats in seat order: kind, label (an engine's own name once started) and what
    #: each says of itself (:meth:`runner.seats.Seat.describe`, as of its start).
    seats: tuple["SeatView", ...] = ()
    #: The match's options (with the content of the files they name); never changed.
    options: Mapping[str, Any] = field(default_factory=dict)
    #: The people's seats whose move is being asked for now (their seat waits for input).
    asking: tuple[int, ...] = ()
    #: Whether a takeback is possible now (:meth:`Match.can_undo`).
    can_undo: bool = False


@dataclass(frozen=True)
class SeatView:
    """One seat as the ui sees it, safe to read on any thread."""

    kind: str                    # human, bot, ext or a game's engine kind
    label: str
    #: :meth:`runner.seats.Seat.describe` once the seat started (an engine's name and
    #: author, its command, its sandbox); empty before.
    described: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Branch:
    """Where a match branches off a recorded game: its first ``turn`` turns are played
    as recorded, then the new seats take over.  Options and seed come from the record."""

    replay: Replay
    turn: int

    def to_json(self) -> dict:
        return {"record": self.replay.source, "turn": self.turn}

    @classmethod
    def of(cls, replay: Replay, turn: int) -> "Branch":
        """Check that ``turn`` (negative counts from the end) is a live position of ``replay``."""
        index = turn + len(replay.states) if turn < 0 else turn
        if not 0 <= index < len(replay.states):
            raise GameSetupError(f"{replay.source}: no turn {turn}; it has turns 0-{len(replay.states) - 1}")
        if replay.states[index].is_terminal():
            raise GameSetupError(f"{replay.source}: the game is over at turn {index}; branch from an earlier one")
        if replay.format != "arena-record" or "seed" not in replay.header:
            raise GameSetupError(f"{replay.source}: only the arena's own records can be branched "
                                 "(they hold the options and seed the game needs)")
        return cls(replay, index)


@dataclass
class _Control:
    paused: bool = False
    steps: int = 0            # turns allowed while paused
    stop: bool = False
    undo: int = 0             # turns to take back before the next turn
    interval: float = 0.0     # least seconds between turns (a watched match's pace); 0: none


class Match:
    """A game between seats, refereed by the arena.

    ``run()`` plays to the end on the calling thread (headless); ``start()`` runs the
    same loop on a worker thread for the ui.

    Folders: every seat that runs a program gets a new folder of its own,
    ``seatN`` under the match's folder: ``workdir`` when given, else a folder named
    after the record (``hex-...-1a2b3c/`` beside ``hex-...-1a2b3c.arena.jsonl``), else a
    temporary one removed at the end.  At the end the game's contest record files
    (REPORT.TXT, HEX.OUT, the Robot turn log) and ``result.json`` are written to
    ``out_dir`` (default: the match's folder when there is a record).

    Options that name files are replaced by the files' content before the game starts
    (:func:`runner.setup.load_option_files`), so the record holds everything it needs.

    Referee rules of a game go in the public hooks :meth:`ruling`, :meth:`after_turn`
    and :meth:`after_close`; the turn itself is :func:`runner.referee.referee_step`.
    """

    def __init__(self, plugin: GamePlugin, options: Mapping[str, Any], seats: list[Seat],
                 seed: int = 0, variant: str | None = None, record_path: str | Path | None = None,
                 time_control: TimeControl | None = None, workdir: str | Path | None = None,
                 out_dir: str | Path | None = None, branch: "Branch | None" = None):
        self.plugin, self.game = plugin, plugin.new_game()
        check_seats(self.game.spec, len(seats))
        options, self.files = load_option_files(plugin, self.game, options)
        self.options, self.variant, self.seed = options, variant, seed
        if self.game.seats_for(self.options) != len(seats):
            raise GameSetupError(f"these options make a {self.game.seats_for(self.options)}-seat "
                                 f"game, but {len(seats)} seats were given")
        self.seats = seats
        self.time_control = time_control or time_control_from_options(self.options)
        self.state = self.game.new_initial_state(self.options, seed)
        self.states: list[State] = [self.state.clone()]
        self.turns: list[TurnInfo] = []
        self.branch = branch
        if branch is not None:        # continue a recorded game from one of its turns
            self.states = [s.clone() for s in branch.replay.states[:branch.turn + 1]]
            self.turns = list(branch.replay.turns[:branch.turn])
            self.state = self.states[-1].clone()
        self.time_used = {i: 0.0 for i in range(len(seats))}
        self.outcome: Outcome | None = None
        self.error = ""
        #: Lines the match screen keeps on show (contest mode: the authors' names and address).
        self.banner = ""
        # Absolute, since programs run in their own folders: a relative --out must not
        # become a path that means something else from inside a seat folder.
        self.record_path = Path(record_path).absolute() if record_path else None
        self.workdir = Path(workdir).absolute() if workdir else None
        self.out_dir = Path(out_dir).absolute() if out_dir else None
        self.written: list[Path] = []          # contest files and result.json, after the end
        self._temporary: Path | None = None
        self._writer: RecordWriter | None = None
        self._unrecorded: TurnInfo | None = None    # see _record_turn
        self._lock = threading.RLock()
        self._control = _Control()
        self._wake = threading.Condition(self._lock)
        self._waiting: tuple[int, ...] = ()
        self._pending: set[int] = set()
        self._thinking_since: float | None = None
        self._revision = 0
        self._last_turn_at = 0.0              # monotonic time the last turn was played
        self._thread: threading.Thread | None = None
        #: The seats as :meth:`snapshot` shows them once the match runs (None before:
        #: then nothing else touches the seats, and the snapshot looks at them itself).
        self._seat_views: tuple[SeatView, ...] | None = None
        self._pool = ThreadPoolExecutor(max_workers=max(1, len(seats)), thread_name_prefix="seat")

    # ----------------------------------------------------------------- lifecycle
    def header(self) -> dict:
        for seat in self.seats:     # the basic sandbox's protections depend on the program
            if getattr(seat, "sandbox", None) is not None and getattr(seat, "argv", None):
                seat.sandbox.expect(seat.argv, self.folder() and self.folder() / "seat")
        return {"game": self.plugin.name, "variant": self.variant, "options": self.options,
                **({"files": self.files} if self.files else {}),
                **({"branch": self.branch.to_json()} if self.branch else {}),
                "seed": self.seed, "seats": [s.describe() for s in self.seats],
                **({"sandbox": self.sandbox()} if self.sandbox() else {}),
                "time_control": self.time_control.to_json(),
                **({"rules": rules} if (rules := self._rules_summary()) else {}),
                "versions": {"arena": ARENA_VERSION, "python": platform.python_version()},
                "started": _dt.datetime.now().isoformat(timespec="seconds")}

    def sandbox(self) -> dict | None:
        """The program seats' sandbox level for the record's header: ``{"level", "seats",
        "warning"?}`` (the weakest level when seats differ), or None with no program seat."""
        found = [(i, s.describe().get("sandbox")) for i, s in enumerate(self.seats)]
        found = [(i, box) for i, box in found if box]
        if not found:
            return None
        levels = {box["level"] for _, box in found}
        data = {"level": "basic" if "basic" in levels else found[0][1]["level"],
                "seats": [i for i, _ in found]}
        warnings = [box for _, box in found if box.get("warning")]
        if warnings:
            data["warning"] = warnings[0]["warning"]
            for key in ("protections", "missing"):      # what the basic level held, here
                if key in warnings[0]:
                    data[key] = warnings[0][key]
        return data

    def sandbox_line(self) -> str:
        """One line for the match header: how the programs are confined ("" with none)."""
        box = self.sandbox()
        if not box:
            return ""
        if box["level"] == "strict":
            return "Programs run in the strict sandbox (own namespaces, no network, resource limits)"
        return "WARNING: " + box.get("warning", "programs run in the basic sandbox")

    def _rules_summary(self) -> str:
        """The game's own words for the rulings in force (Xiangqi's repetition rule), if any."""
        return self.game.rules_summary(self.options)

    def folder(self) -> Path | None:
        """The match's own folder (seat folders, and contest files by default)."""
        if self.workdir:
            return self.workdir
        if self.record_path:
            return self.record_path.with_name(self.record_path.name.removesuffix(SUFFIX))
        return None

    def _open(self) -> None:
        if self.record_path:
            self._writer = RecordWriter(self.record_path, self.header())
            for info in self.turns:          # a branch's record holds the turns it grew from
                self._writer.turn(info)
        for index, seat in enumerate(self.seats):
            folder = self._seat_folder(index) if seat.needs_folder else None
            seat.start(SeatInfo(self.game, self.options, index, len(self.seats), self.seed,
                                str(folder) if folder else None), self.state.clone())
        self._record_engine_names(self._look_at_seats(described=True))
        failed = [f"seat {index + 1} ({seat.label}): {seat.handshake_failure}"
                  for index, seat in enumerate(self.seats) if seat.handshake_failure]
        if failed:                  # no game was decided: no result for anyone
            self.outcome = Outcome((), tuple(0.0 for _ in self.seats), Termination.NOT_PLAYED,
                                   "; ".join(failed) + "; the match was not played")

    @property
    def not_played(self) -> bool:
        """Whether a seat never got through its handshake, so no game was played."""
        return self.outcome is not None and self.outcome.reason is Termination.NOT_PLAYED

    def _look_at_seats(self, described: bool = False) -> list[dict]:
        """Take the seats' labels (and, once they started, their descriptions) for
        :meth:`snapshot`; on the match's thread, which alone changes them (engines name
        themselves as they start)."""
        descriptions = [seat.describe() if described else {} for seat in self.seats]
        views = tuple(SeatView(seat.kind, seat.label, description)
                      for seat, description in zip(self.seats, descriptions))
        with self._lock:
            self._seat_views = views
            self._revision += 1
        return descriptions

    def _record_engine_names(self, described: list[dict]) -> None:
        """Once started, engines know their name and author (``id name``/``id author``):
        the record gets the seats again (a "seats" line) when any engine told them."""
        if not self._writer:
            return
        if any(d.get("engine") or d.get("author") for d in described):
            self._writer.seats(described)

    def _seat_folder(self, index: int) -> Path:
        """A new, empty folder for seat ``index``: made here, or one this arena made
        before (it holds :data:`SEAT_MARKER`) emptied; anything else is refused."""
        base = self.folder()
        if base is None:
            if self._temporary is None:
                self._temporary = Path(tempfile.mkdtemp(prefix=f"arena-{self.plugin.name}-"))
                self._temporary.chmod(0o711)    # a seat's own uid must reach its folder
            base = self._temporary
        folder = base / f"seat{index + 1}"
        if folder.exists() and any(folder.iterdir()):
            if not (folder / SEAT_MARKER).is_file():
                raise GameSetupError(f"{folder} is not empty and was not made by Arena; "
                                     "a match needs new folders for its programs")
            shutil.rmtree(folder)
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o700)        # no other seat's program may look in, before its first run too
        (folder / SEAT_MARKER).write_text("A folder Arena made for one program of one match.\n")
        return folder

    def run(self) -> Outcome:
        """Play to the end (or until stopped) and return the outcome."""
        try:
            self._look_at_seats()
            self._open()
            while self.outcome is None and self._next_turn():
                pass
        except Exception as exc:       # the record must close whatever went wrong
            self.error = f"{type(exc).__name__}: {exc}"
            if not isinstance(exc, ArenaError):
                raise
        finally:
            self._close()
        return self.outcome

    def start(self) -> None:
        """Run the match on a worker thread (the ui's way)."""
        self._thread = threading.Thread(target=self._run_quietly, name="match", daemon=True)
        self._thread.start()

    def _run_quietly(self) -> None:
        try:
            self.run()
        except Exception as exc:  # shown in the ui's status line, never a crash
            self.error = f"{type(exc).__name__}: {exc}"

    def join(self, timeout: float | None = None) -> None:
        if self._thread:
            self._thread.join(timeout)

    def _close(self) -> None:
        with self._lock:
            if self.outcome is None:
                self.outcome = self.state.outcome() or Outcome(
                    (), tuple(0.0 for _ in self.seats), Termination.ABORTED,
                    self.error or Message("the match was stopped"))
            self._revision += 1
        for seat in self.seats:
            try:
                seat.finish(self.outcome)
            except Exception:
                pass
            seat.close()
        self._write_unrecorded()
        if self._writer:
            self._writer.result(self.outcome, len(self.turns))
            self._writer.close()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._write_outputs()
        if self._temporary is not None:
            shutil.rmtree(self._temporary, ignore_errors=True)
        self.after_close()

    def _write_outputs(self) -> None:
        """The contest's record files and result.json, as every match writes them."""
        folder = self.out_dir or (self.folder() if self.record_path else None)
        if folder is None:
            return
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if self.plugin.writers:
                self.written += [Path(p) for p in self.plugin.load("writers")(self.as_replay(), folder)]
            result = folder / "result.json"
            result.write_text(json.dumps(result_json(self), indent=2) + "\n", encoding="utf-8")
            self.written.append(result)
        except (OSError, ArenaError) as exc:       # the record is safe; say what is missing
            self.error = self.error or Message("could not write the contest files in {folder}: {error}",
                                               folder=str(folder), error=error_text(exc))

    # ----------------------------------------------------------------- hooks
    def ruling(self, seat: int, answer: Answer) -> Outcome | None:
        """A referee's ruling that ends the game on this answer instead of the usual
        consequence (Xiangqi's flag fall and status words).  Called before the answer's
        time is charged; None means no ruling.  A time-out goes to the game's own
        :meth:`games.api.Game.timeout_ruling`."""
        if answer.failure is Termination.TIMEOUT:
            return self.game.timeout_ruling(self.state, seat, answer.elapsed, dict(self.time_used),
                                            self.time_control.limits(self.seats[seat].kind == "human")[1])
        return None

    def after_turn(self, info: TurnInfo) -> None:
        """Called after each turn is recorded (Xiangqi rewrites REPORT.TXT here)."""

    def after_close(self) -> None:
        """Called once the match has ended and its record is closed."""

    # ----------------------------------------------------------------- controls
    def pause(self) -> None:
        with self._lock:
            self._control.paused = True
            self._revision += 1

    def resume(self) -> None:
        with self._lock:
            self._control.paused, self._control.steps = False, 0
            self._revision += 1
            self._wake.notify_all()

    def set_pace(self, turns_per_second: float | None) -> None:
        """Play at most this many turns a second (None or 0: as fast as the seats answer),
        so that people can follow a match between programs.  Waiting for the pace is
        nobody's time."""
        with self._lock:
            self._control.interval = 1.0 / turns_per_second if turns_per_second else 0.0
            self._wake.notify_all()

    def step(self) -> None:
        """While paused, let exactly one more turn be played."""
        with self._lock:
            self._control.steps += 1
            self._wake.notify_all()

    def stop(self) -> None:
        with self._lock:
            self._control.stop = True
            self._wake.notify_all()
        for seat in self.seats:
            seat.cancel()

    def hold_clocks(self, held: bool) -> None:
        """Stop (True) or restart (False) the people's clocks: the person is reading How
        to play, not thinking.  Programs are not held (their time is their own)."""
        for seat in self.seats:
            hold = getattr(seat, "hold", None)
            if hold is not None:
                hold(held)
        with self._lock:
            self._revision += 1

    def can_undo(self) -> bool:
        """Takebacks are for a person playing built-in bots, or engines whose seat can
        take moves back (``can_take_back``, e.g. Hex's GTP engines); other programs
        cannot rewind."""
        kinds = {s.kind for s in self.seats}
        rewinds = all(s.kind in ("human", "bot") or getattr(s, "can_take_back", False)
                      for s in self.seats)
        return self.game.spec.can_undo and "human" in kinds and rewinds and self.outcome is None

    def undo(self) -> bool:
        """Take back to the previous turn a person had to move in; False if not possible."""
        with self._lock:
            if not self.can_undo():
                return False
            target = self._undo_target()
            if target is None:
                return False
            self._control.undo = len(self.states) - 1 - target
            self._wake.notify_all()
        for seat in self.seats:
            if isinstance(seat, HumanSeat):
                seat.cancel()
        return True

    def _undo_target(self) -> int | None:
        humans = {i for i, s in enumerate(self.seats) if s.kind == "human"}
        last = len(self.states) - 1
        for index in range(last - 1, -1, -1):
            if humans & set(self.states[index].to_move()):
                return index
        return None

    def submit(self, seat: int, move_text: str | None) -> None:
        """A person's move (None resigns)."""
        target = self.seats[seat]
        if isinstance(target, HumanSeat):
            target.submit(move_text)

    def human_waiting(self) -> tuple[int, ...]:
        with self._lock:
            return tuple(s for s in self._waiting if self.seats[s].kind == "human")

    def snapshot(self) -> MatchView:
        with self._lock:
            left = {}
            for i, used in self.time_used.items():
                total = self.time_control.limits(self.seats[i].kind == "human")[1]
                left[i] = None if total is None else total - used
            pending = tuple(sorted(self._pending))
            held = {i: self.seats[i].held_seconds() for i in pending
                    if hasattr(self.seats[i], "held_seconds")}
            seats = self._seat_views
            if seats is None:
                seats = tuple(SeatView(seat.kind, seat.label) for seat in self.seats)
            asking = tuple(s for s in self._waiting
                           if isinstance(self.seats[s], HumanSeat) and self.seats[s].waiting.is_set())
            return MatchView(self.states[-1], list(self.turns), dict(self.time_used), left,
                             self._waiting, self._thinking_since, self._control.paused,
                             self.outcome, self.error, self._revision, pending, held,
                             tuple(self.states), seats, self.options, asking, self.can_undo())

    def as_replay(self) -> Replay:
        with self._lock:
            names = [s.label for s in self.seats]
            return Replay(self.plugin.name, "arena-record", str(self.record_path or ""),
                          self.header(), list(self.states), list(self.turns),
                          self.outcome, names)

    # ----------------------------------------------------------------- the loop
    def _gate(self) -> bool:
        """Wait while paused; False when the match must stop."""
        with self._lock:
            while True:
                if self._control.stop:
                    return False
                if self._control.undo:
                    self._apply_undo()
                if self._control.paused:
                    if self._control.steps:
                        self._control.steps -= 1
                        return True
                    self._write_unrecorded()
                    self._wake.wait(0.5)
                    continue
                left = self._last_turn_at + self._control.interval - time.monotonic()
                if self._control.interval <= 0 or left <= 0:
                    return True
                self._write_unrecorded()
                self._wake.wait(left)

    def _apply_undo(self) -> None:
        self._write_unrecorded()
        count = self._control.undo
        self._control.undo = 0
        del self.states[len(self.states) - count:]
        del self.turns[len(self.turns) - count:]
        self.state = self.states[-1].clone()
        for seat in self.seats:
            bot = getattr(seat, "bot", None)
            if bot is not None:
                bot.reset()
            if getattr(seat, "can_take_back", False):
                seat.take_back(self.state.clone())
        if self._writer:
            self._writer.undo(count)
        self._revision += 1

    def _next_turn(self) -> bool:
        if self.state.is_terminal():
            self.outcome = self.state.outcome()
            return False
        if not self._gate():
            return False
        to_move = self.state.to_move()
        answers = self._ask(to_move)
        with self._lock:
            if self._control.undo or self._control.stop:
                return not self._control.stop
            self._play(to_move, answers)
        return True

    def _time_limit(self, seat: int) -> float | None:
        per_move, total = self.time_control.limits(self.seats[seat].kind == "human")
        limits = [per_move]
        if total is not None:
            limits.append(max(0.0, total - self.time_used[seat]))
        limits = [x for x in limits if x is not None]
        return min(limits) if limits else None

    def _ask(self, to_move: tuple[int, ...]) -> dict[int, Answer]:
        with self._lock:
            self._waiting, self._thinking_since = to_move, time.monotonic()
            self._pending = set(to_move)
            self._revision += 1
        state = self.state.clone()
        limits = {seat: self._time_limit(seat) for seat in to_move}
        # Programs run once per turn are asked together on this thread (ProgramsTurn:
        # one wait over all their exits); the other seats as before.
        programs = ProgramsTurn({seat: self.seats[seat] for seat in to_move}, state, limits)
        self._write_unrecorded()                      # the programs think meanwhile
        others = [seat for seat in to_move if seat not in programs.staged]
        if len(others) == 1 and not programs.staged:   # one seat: asked on this thread
            seat = others[0]
            answers = {seat: self._ask_one(seat, state, limits[seat])}
        else:
            futures = {seat: self._pool.submit(self._ask_one, seat, state, limits[seat])
                       for seat in others}
            answers = programs.run(self._answered)
            answers.update({seat: future.result() for seat, future in futures.items()})
        with self._lock:
            self._waiting, self._thinking_since, self._pending = (), None, set()
        for seat, answer in answers.items():
            judge_time(answer, limits[seat])
        return answers

    def _ask_one(self, seat: int, state: State, limit: float | None) -> Answer:
        start = time.perf_counter()
        try:
            answer = self.seats[seat].ask(state, seat, limit)
        except Exception as exc:
            answer = Answer(failure=Termination.CRASH, detail=f"{type(exc).__name__}: {exc}")
        if not answer.elapsed:
            answer.elapsed = time.perf_counter() - start
        if answer.wall is None and answer.clock == "wall":
            answer.wall = answer.elapsed
        self._answered(seat)
        return answer

    def _answered(self, seat: int) -> None:
        with self._lock:                  # this seat's clock stops here, whoever is still thinking
            self._pending.discard(seat)
            self._revision += 1

    def _play(self, to_move: tuple[int, ...], answers: dict[int, Answer]) -> None:
        early = self._sure_moves(to_move, answers)
        if early:                   # no ruling reads the clock on this answer: charge it now
            self._charge(to_move, answers)
            self._tell_early(early)
        info = referee_step(self.game, self.state, answers, len(self.turns) + 1, self.ruling)
        if not early:               # after the step: a ruling reads the clock before this answer
            self._charge(to_move, answers)
        info.clocks = dict(self.time_used)
        self.turns.append(info)
        self.states.append(self.state.clone())
        # The seats first (a program waits for the move just played), then the record.
        for seat in self.seats:
            if not (early and seat.hears_moves_early and info.moves == early):
                seat.observe(self.state.clone(), info.moves)
        self._record_turn(info, at_once=bool(early))
        self._revision += 1
        if self.state.is_terminal():
            self.outcome = self.state.outcome()
        self._last_turn_at = time.monotonic()
        self.after_turn(info)

    def _record_turn(self, info: TurnInfo, at_once: bool) -> None:
        """Write the turn's record line, ``at_once`` or later.  At once when a seat
        heard the move early (:meth:`_tell_early`): the program on move already thinks.
        Else the line (a fifth of a ms to serialize and write) is written once the next
        turn's programs have started, while they think (:meth:`_ask`), rather than
        between the last answer and the next gate, where it would delay every turn; and
        at once when the match waits (paused, paced, over), so the file always has
        every turn played before the match stands still."""
        self._unrecorded = info           # the last turn's line was written by _ask
        if at_once:
            self._write_unrecorded()

    def _write_unrecorded(self) -> None:
        """Write the record line of the turn :meth:`_record_turn` noted, if any."""
        info, self._unrecorded = self._unrecorded, None
        if info is not None and self._writer:
            self._writer.turn(info)

    def _charge(self, to_move: tuple[int, ...], answers: dict[int, Answer]) -> None:
        for seat in to_move:
            self.time_used[seat] += answers[seat].elapsed

    def _sure_moves(self, to_move: tuple[int, ...], answers: dict[int, Answer]) -> dict[int, str]:
        """The turn's moves when it is already certain they will be played as they are
        (one seat on move, a legal move, no ruling): else {}.  Only worth knowing when a
        seat hears moves early."""
        if len(to_move) != 1 or not any(seat.hears_moves_early for seat in self.seats):
            return {}
        seat = to_move[0]
        answer = answers[seat]
        move = sure_move(self.game, self.state, seat, answer)
        if move is None or self.ruling(seat, answer) is not None:
            return {}
        return {seat: move}

    def _tell_early(self, moves: dict[int, str]) -> None:
        """Hand a sure move to the seats that need only the moves (a contest program
        waiting for its move file) before the step plays it: checking the position for
        mate, the record and the game's files then happen while that program thinks.
        This is the relay path a Xiangqi referee is timed on (``bench/xiangqi_referee_bench.py``)."""
        for seat in self.seats:
            if seat.hears_moves_early:
                seat.observe(None, moves)


def time_control_from_options(options: Mapping[str, Any]) -> TimeControl:
    """The limits a game's options ask for (``time_per_move``, ``time_total`` for programs,
    ``human_time_per_move``, ``human_time_total`` for people; 0 = none)."""
    def seconds(key):
        return float(options.get(key) or 0) or None
    return TimeControl(seconds("time_per_move"), seconds("time_total"), seconds("human_time_per_move"),
                       seconds("human_time_total"))


def default_record_path(folder: Path, game: str) -> Path:
    """A new record's path in ``folder``: the game, the time, and six random hex digits,
    so two matches started in the same second never share a record (or a folder)."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path(folder) / f"{game}-{stamp}-{secrets.token_hex(3)}{SUFFIX}"


def result_json(match: Match) -> dict:
    """What ``--out`` receives as result.json."""
    outcome = match.outcome
    names = [match.game.spec.seat_name(i) for i in range(len(match.seats))]
    return {"game": match.plugin.name, "result": outcome.result_text(names),
            "winners": list(outcome.winners), "ranks": list(outcome.ranks),
            "scores": list(outcome.scores), "reason": outcome.reason.value,
            "detail": outcome.detail, "turns": len(match.turns),
            "seats": [s.describe() for s in match.seats],
            "time_used": {str(k): round(v, 3) for k, v in match.time_used.items()},
            "record": str(match.record_path) if match.record_path else None}
