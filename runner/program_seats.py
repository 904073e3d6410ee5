"""Seats for programs that speak a contest's file protocol, named for the protocol's shape.

* :class:`RunEachTurnSeat`: the program runs once per turn in its own folder; the arena
  writes the input files, runs it, reads its answer file, and deletes whatever else it
  created except the files it may keep (Robot: MAP.INP -> MOVE.OUT, STATE.DAT kept;
  Tam Quan: STATE.INP -> MOVE.OUT).
* :class:`WholeGameSeat`: the program runs once for the whole game and writes every
  move at once (Crossed Words: input.txt + seconds.txt -> output.txt).  Its time,
  input and output are recorded on the first turn, its claimed result is kept beside
  the referee's, and the match still plays (and the replay still steps) move by move.

A game describes its files with a :class:`FileProtocol` (pure string functions from its
``protocol`` module) and gives the plugin a two-line factory.  The third shape, a
program kept running and spoken to in lines (HexLib, GTP, UCI), is
:class:`runner.line_seat.LineSeat`.
"""
from __future__ import annotations

import gc
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from games.annotations import DEBUG_FILE, MAX_BYTES as MAX_DEBUG_BYTES
from games.api import Message, MoveSyntaxError, State, Termination
from games.fileio import (OpenFolder, UnsafeFileError, read_untrusted, remove_untrusted,
                          replace_file)
from runner.process import (GatedRun, RunResult, TurnDeadline, can_gate, resolve_command, run_once,
                            sweep_orphans, wait_for_exits)
from runner.sandbox import STRICT, seat_sandbox
from runner.seats import Answer, Seat, SeatInfo, seat_clock, seat_folder
from runner.warm import WarmRun, WarmSandbox
from runner.warm_basic import warm_kind

#: Input files larger than this are named, not copied, in the record's "given".
LOGGED_INPUT_BYTES = 16_384
#: A kept file (STATE.DAT) up to this size is copied into the record before each run, so
#: any turn can be re-run with the program's memory as it was (``arena rerun``).
LOGGED_KEPT_BYTES = 65_536
_ONE_AT_A_TIME = threading.Lock()
#: Seconds after a run starts before the seat's next run is prepared (see
#: :class:`RunEachTurnSeat`): by then every program of the turn has started, so the
#: preparation (a fork, the sandbox's set-up) delays none of them.  A run in a warm
#: sandbox is prepared at once instead (:func:`_prepare_delay`).
PREPARE_DELAY = 0.05


@dataclass(frozen=True)
class FileProtocol:
    """One contest's files around a run of a program.

    * ``inputs(state, seat)``: the files written before a run, ``{name: text}`` (a name
      may hold a sub-folder, ``dict/a.txt``);
    * ``output``: the answer file the program writes;
    * ``parse(text)``: for :class:`RunEachTurnSeat`, the answer file's text -> one
      move's text; for :class:`WholeGameSeat`, -> ``([(where, move text), ...],
      claimed)`` (``where`` names the line, ``claimed`` the program's own result or
      None).  Raises :class:`games.api.MoveSyntaxError` saying what is wrong;
    * ``kept``: files the program may keep between runs (STATE.DAT); everything else
      it creates is deleted after each run;
    * ``default_time``: seconds per run when the match sets no limit;
    * ``max_output_bytes``: a larger answer file is a bad file.
    """

    inputs: Callable[[State, int], dict[str, str]]
    output: str
    parse: Callable[[str], Any]
    kept: tuple[str, ...] = ()
    default_time: float = 2.0
    max_output_bytes: int = 4096
    encoding: str = "ascii"


class ProgramSeat(Seat):
    """What both shapes share: the command, the folder, one run with its files."""

    kind = "ext"
    needs_folder = True

    def __init__(self, spec: str, command: str, protocol: FileProtocol,
                 limits: Mapping[str, Any] | None = None):
        super().__init__(spec, label=command)
        self.protocol, self.limits = protocol, dict(limits or {})
        self.argv = resolve_command(command)
        self.folder: Path | None = None
        self.sandbox = seat_sandbox(self.limits)
        #: "wall" or "cpu": how each run's time is charged (limits' ``clock``), and the
        #: wall seconds a CPU-clock run may last (limits' ``wall_cap``; None: 3x + 1 s).
        self.clock = seat_clock(self.limits)
        self.wall_cap = float(self.limits["wall_cap"]) if self.limits.get("wall_cap") else None

    def start(self, info: SeatInfo, state: State) -> None:
        super().start(info, state)
        self.folder = seat_folder(info, self.limits)
        for name in self.protocol.output, DEBUG_FILE, *self.protocol.inputs(state, info.seat):
            remove_untrusted(self.folder, name)

    def run(self, state: State, seat: int, time_limit: float | None) -> Answer:
        """Write the inputs, run the program once, read its answer file; ``answer.answered``
        holds the file's text, ``failure`` is set when the run or the file went wrong."""
        limit = self._limit(time_limit)
        files = self._before_run(state, seat)
        return self._after_run(self._run(limit), files)

    def _limit(self, time_limit: float | None) -> float:
        """Seconds this run may take: the match's limit, else the seat's or the game's."""
        return time_limit if time_limit is not None else float(
            self.limits.get("time", self.protocol.default_time))

    def _before_run(self, state: State, seat: int) -> "_RunFiles":
        """Remove the last answer (a stale one must never count), write the inputs, and
        note the folder's files and the kept files as they are before the run."""
        with OpenFolder(self.folder) as folder:
            inputs = self._write_inputs(state, seat, folder)
            return _RunFiles(inputs, folder.entries(), self.kept_files(folder))

    def _write_inputs(self, state: State, seat: int, folder: OpenFolder) -> dict[str, str]:
        """Remove the last answer and debug files (a stale one must never count) and
        write this run's inputs, replacing whatever the program left in their place (a
        link, FIFO, folder); the inputs as written."""
        inputs = self.protocol.inputs(state, seat)
        folder.refill((self.protocol.output, DEBUG_FILE),
                      {name: text.encode(self.protocol.encoding, "replace")
                       for name, text in inputs.items()})
        return inputs

    def _after_run(self, result: RunResult, files: "_RunFiles") -> Answer:
        """The answer of a finished run: its answer and debug files read, every file it
        created but the kept ones deleted, its failure named."""
        with OpenFolder(self.folder) as folder:
            answer, problem, _ = self._answer_files(files, folder)
        return self._judged(answer, problem, result)

    def _answer_files(self, files: "_RunFiles", folder: OpenFolder) -> tuple[Answer, str, set[str]]:
        """The files of a run whose program has ended: its answer and debug files read,
        every file it created but the kept ones deleted.  The answer so far, the answer
        file's problem ("" when none) and the folder's entries as they are left."""
        output, limit = self.protocol.output, self.protocol.max_output_bytes
        answer = Answer(given=_given_text(files.inputs), kept=files.kept)
        answer.answered, problem = answer_text(lambda: folder.read(output, limit), output, limit)
        answer.debug, debug_problem = debug_text(lambda: folder.read(DEBUG_FILE, MAX_DEBUG_BYTES))
        if debug_problem:
            answer.notes.append(debug_problem)
        removed, left = folder.remove_new(files.before, self.protocol.kept + (output, DEBUG_FILE))
        folder.remove(DEBUG_FILE)
        left.discard(DEBUG_FILE)
        if removed:
            answer.notes.append(Message("deleted files the program created: {files}", files=", ".join(
                removed[:10]) + (" ..." if len(removed) > 10 else "")))
        return answer, problem, left

    @staticmethod
    def _judged(answer: Answer, problem: str, result: RunResult) -> Answer:
        """``answer`` completed with its run's time (charged by its clock, both figures
        kept) and output, its failure named."""
        answer.elapsed, answer.stdout, answer.stderr = result.charged, result.stdout, result.stderr
        answer.wall, answer.cpu, answer.clock = result.elapsed, result.cpu, result.clock
        if result.timed_out:
            answer.failure, answer.detail = Termination.TIMEOUT, result.describe()
        elif result.crashed:
            answer.failure, answer.detail = Termination.CRASH, result.describe()
        elif problem:
            answer.failure, answer.detail = Termination.BAD_FILE, problem
        return answer

    def kept_files(self, folder: OpenFolder | None = None) -> dict[str, str]:
        """The program's private files as they are now (each up to LOGGED_KEPT_BYTES),
        read through ``folder`` when the caller has it open."""
        kept = {}
        for name in self.protocol.kept:
            try:
                raw = (folder.read(name, LOGGED_KEPT_BYTES + 1) if folder is not None
                       else read_untrusted(self.folder, name, LOGGED_KEPT_BYTES + 1))
            except OSError:
                continue
            if len(raw) <= LOGGED_KEPT_BYTES:
                kept[name] = raw.decode("utf-8", "surrogateescape")
        return kept

    def restore(self, kept: Mapping[str, str]) -> None:
        """Put back private files recorded on a turn (for re-running that turn)."""
        for name, text in kept.items():
            if name in self.protocol.kept:
                replace_file(self.folder, name, text.encode("utf-8", "surrogateescape"))

    def _run(self, limit: float) -> RunResult:
        if self.limits.get("sequential"):
            with _ONE_AT_A_TIME:
                return self._run_now(limit)
        return self._run_now(limit)

    def _run_now(self, limit: float) -> RunResult:
        return run_once(self.argv, self.folder, limit, sandbox=self.sandbox, clock=self.clock,
                        cap=self.wall_cap)

    def describe(self) -> dict:
        data = super().describe()
        data["command"] = self.argv
        data["sandbox"] = self.sandbox.describe()
        if self.clock != "wall":
            data["clock"] = self.clock
        return data


class RunEachTurnSeat(ProgramSeat):
    """A program run once per turn (see the module's doc).

    Each run is prepared ahead (:class:`runner.process.GatedRun`, POSIX): while the
    program thinks on one turn, its next run is started in its sandbox and held at a
    gate, so on the next turn only the gate opens: the fork and the sandbox's set-up
    (tens of ms with bubblewrap) are never on the judge's path, nor is the sweep of the
    orphans a program left (basic sandbox: done before the next run).  The time limit
    counts from the gate's opening.  A run prepared with another CPU limit is dropped.
    In the strict sandbox of an arena run as root, the seat's sandbox is started once
    for the match (:class:`runner.warm.WarmSandbox`) and each run is a fresh process
    in it; at the basic level one launcher per seat, the subreaper of all its runs
    start, makes each run (:class:`runner.warm_basic.BasicWarmSandbox`); elsewhere,
    or with ``ARENA_WARM=0``, each run gets a sandbox of its own.
    """

    def __init__(self, spec: str, command: str, protocol: FileProtocol,
                 limits: Mapping[str, Any] | None = None):
        super().__init__(spec, command, protocol, limits)
        # One long-lived thread starts the runs: a program's parent-death signal
        # (PR_SET_PDEATHSIG, bwrap's --die-with-parent) fires when the *thread* that
        # started it ends.
        self._starter: ThreadPoolExecutor | None = None
        self._preparing: Future | None = None
        self._sweeping: Future | None = None
        self._hurry = threading.Event()
        #: The folder as the last staged run left it (see :meth:`_ended`).
        self._files_after: _RunFiles | None = None
        #: The last staged run, kept until the next one has started (see :meth:`_opened`).
        self._finished: GatedRun | WarmRun | None = None
        #: The seat's warm sandbox (made on the starter thread), and whether it failed.
        self._warm: WarmSandbox | None = None
        self._warm_failed = False

    def start(self, info: SeatInfo, state: State) -> None:
        super().start(info, state)
        if can_gate():
            self._starter = ThreadPoolExecutor(1, thread_name_prefix="prepare")
            self._prepare(float(self.limits.get("time", self.protocol.default_time)), 0.0)

    def _prepare(self, limit: float | None, delay: float) -> None:
        """Prepare the next run on the starter thread, ``delay`` s from now (sooner if
        hurried)."""
        self._hurry.clear()

        def work() -> GatedRun | WarmRun | None:
            self._hurry.wait(delay)
            try:
                return self._new_run(limit)
            except Exception:         # noqa: BLE001 - run_once will say why it cannot start
                return None
        self._preparing = self._starter.submit(work)

    def _new_run(self, limit: float | None) -> GatedRun | WarmRun:
        """A run held at its gate: in the seat's warm sandbox (started the first time,
        and again if it ended) where it can have one, else in a sandbox of its own."""
        sandbox = self.sandbox.with_cpu(limit)
        kind = None if self._warm_failed else warm_kind(self.sandbox)
        if kind is not None:
            try:
                if self._warm is None or not self._warm.alive:
                    if self._warm is not None:
                        self._warm.close()
                    self._warm = None
                    self._warm = kind(self.argv, self.folder, self.sandbox)
                return self._warm.prepare(sandbox)
            except OSError:
                self._warm_failed = self._warm is None    # it could not start: never again
        return GatedRun(self.argv, self.folder, sandbox)

    def _take_prepared(self) -> GatedRun | None:
        if self._sweeping is not None:
            self._hurry.set()
            self._sweeping.result()
            self._sweeping = None
        if self._preparing is None:
            return None
        self._hurry.set()
        prepared, self._preparing = self._preparing.result(), None
        return prepared

    def _run_now(self, limit: float) -> RunResult:
        prepared = self._take_prepared()
        if prepared is not None and prepared.sandbox.limits != self.sandbox.limits.with_cpu(limit):
            prepared.cancel()
            prepared = None
        if prepared is None:
            result = super()._run_now(limit)
            if self._starter is not None:
                self._prepare(limit, 0.0)
            return result
        self._prepare(limit, _prepare_delay(prepared))
        result = prepared.run(limit, sweep=False, clock=self.clock, cap=self.wall_cap)
        # Orphans the program left (basic sandbox) are swept on the starter thread: off
        # the judge's path, before the next run.
        self._sweeping = self._starter.submit(sweep_orphans)
        return result

    def close(self) -> None:
        self._finished = None
        prepared = self._take_prepared()
        if prepared is not None:
            prepared.cancel()
        if self._starter is not None:
            self._starter.shutdown(wait=False)
            self._starter = None
        if self._warm is not None:
            self._warm.close()
            self._warm = None
        super().close()

    def ask(self, state: State, seat: int, time_limit: float | None) -> Answer:
        return self.read_move(self.run(state, seat, time_limit))

    def run(self, state: State, seat: int, time_limit: float | None) -> Answer:
        self._files_after = None              # the folder changes: what was noted is stale
        return super().run(state, seat, time_limit)

    def restore(self, kept: Mapping[str, str]) -> None:
        self._files_after = None
        super().restore(kept)

    def read_move(self, answer: Answer) -> Answer:
        """The move of a run's answer file (``answer.text``), or a bad-file failure;
        a game's seat adds its own checks here."""
        if answer.failure is None:
            try:
                answer.text = self.protocol.parse(answer.answered)
            except MoveSyntaxError as exc:
                answer.failure, answer.detail = Termination.BAD_FILE, _file_error(self.protocol.output, exc)
        return answer

    def stage(self, state: State, seat: int, time_limit: float | None) -> "StagedRun | None":
        """This turn's run made ready to start: its prepared run taken from the gate and
        its inputs written (see :class:`ProgramsTurn`).  None when it cannot be staged
        (no run prepared, no pidfd, runs one at a time): :meth:`ask` then runs it."""
        if self._starter is None or self.limits.get("sequential") or not hasattr(os, "pidfd_open"):
            return None
        limit = self._limit(time_limit)
        prepared = self._take_prepared()
        if prepared is not None and prepared.sandbox.limits != self.sandbox.limits.with_cpu(limit):
            prepared.cancel()
            prepared = None
        if prepared is None:
            return None                        # ask() starts the run, and prepares the next
        try:
            files, self._files_after = self._files_after, None
            files = self._before_run(state, seat) if files is None else self._inputs_only(
                state, seat, files)
        except BaseException:
            prepared.cancel()
            raise
        return StagedRun(self, prepared, limit, files)

    def _inputs_only(self, state: State, seat: int, after: "_RunFiles") -> "_RunFiles":
        """:meth:`_before_run` when the folder was noted as the last run left it
        (``after``, :meth:`_ended`): only the old answer is removed and the inputs
        written; the inputs count as files that were there before."""
        with OpenFolder(self.folder) as folder:
            inputs = self._write_inputs(state, seat, folder)
        return _RunFiles(inputs, after.before | set(inputs), after.kept)

    def _opened(self, staged: "StagedRun") -> None:
        """The staged run's program has started: prepare the next run, and free the last
        one.  Freeing a finished run (its pipes, reader threads and ``Popen``) costs
        about 0.05 ms; at its turn's end, where the turn would free it, that is on the
        judge's path between the slowest program's exit and the next gate's opening."""
        self._prepare(staged.limit, _prepare_delay(staged.run))
        self._finished = None

    def _ended(self, staged: "StagedRun", exited_at: float | None) -> Answer:
        """The staged run's program has exited (or its time ran out): its answer."""
        # Strict, the program exited leaving no process behind: its files are final, so
        # they are read at once, while bwrap tears its sandbox down and the output
        # reaches the readers; then bwrap is reaped.  Otherwise its tree is killed first
        # (a program out of time, or one it left, could still write), and in the basic
        # level its output is taken before the folder is read, so that an orphan holding
        # it is swept (GatedRun.result) before the folder is tidied.
        files_first = exited_at is not None and staged.run.ended_alone()
        if not files_first:
            staged.run.reap(exited_at, sweep=False)     # orphans: ProgramsTurn sweeps them
        result = None if self.sandbox.level == STRICT else staged.run.result()
        with OpenFolder(self.folder) as folder:
            answer, problem, left = self._answer_files(staged.files, folder)
            # The folder as the next run will find it, noted now, while the other
            # programs may still think: the next turn then only writes the inputs.  The
            # program's tree is dead (in the basic sandbox an orphan lives until the
            # sweep, as it did when this was noted just before the next run).
            self._files_after = _RunFiles({}, left, self.kept_files(folder))
        if files_first:
            staged.run.reap(exited_at, sweep=False)
        self._finished = staged.run
        result = result or staged.run.result()
        result.clock, result.limit = staged.deadline.clock, staged.limit
        return self.read_move(self._judged(answer, problem, result))


def _prepare_delay(run: GatedRun | WarmRun) -> float:
    """Seconds after ``run`` starts before the seat's next run is prepared.  A new
    sandbox's set-up (bwrap: about 10 ms of CPU) waits :data:`PREPARE_DELAY`, until
    every program of the turn has started.  A warm sandbox's next run is asked for at
    once: its launcher keeps the request until this run has ended and been cleared,
    then starts it (a spawned shell: about a ms of CPU) while the other programs of
    the turn still think, so the next turn finds it waiting at its gate.  Waited for,
    it was prepared only when the next turn hurried it: the start and the run's set-up
    were then on the judge's path, between the turn's start and the program's exec."""
    return 0.0 if isinstance(run, WarmRun) else PREPARE_DELAY


@dataclass
class _RunFiles:
    """A run's folder before it starts: the inputs written, the files there, the kept
    files' contents (for the record)."""

    inputs: dict[str, str]
    before: set[str]            # names relative to the folder (OpenFolder.entries)
    kept: dict[str, str]


@dataclass
class StagedRun:
    """One seat's run of a turn, staged by :meth:`RunEachTurnSeat.stage`."""

    seat: RunEachTurnSeat
    run: GatedRun | WarmRun
    limit: float
    files: _RunFiles
    deadline: TurnDeadline | None = None     # set when its gate opens


class ProgramsTurn:
    """The programs of one turn asked together on the judge's own thread.

    Each program that can be staged gets its inputs written and its gate opened, one
    seat after the other (the orphans of the last turn swept first); then one ``poll`` over
    their pidfds (:func:`runner.process.wait_for_exits`) tells each exit as it comes:
    no thread is woken, and each program's answer is read while the others still
    think.  The seats it could not stage (:attr:`staged` lacks them) are asked as
    usual.  Each answer's time runs from its gate's opening to its exit being seen.
    """

    def __init__(self, seats: Mapping[int, Seat], state: State,
                 limits: Mapping[int, float | None]):
        self._runs: dict[int, StagedRun] = {}
        self._answers: dict[int, Answer] = {}
        # The orphans the last turn's programs left (basic sandbox) are killed before
        # any program of this turn starts: once for all of them, on this thread.
        if any(hasattr(seat, "stage") for seat in seats.values()):
            sweep_orphans()
        for number, seat in seats.items():
            stage = getattr(seat, "stage", None)
            if stage is None:
                continue
            try:
                staged = stage(state, number, limits[number])
            except Exception as exc:        # noqa: BLE001 - a seat's failure, never the judge's
                self._answers[number] = _crash(exc)
                continue
            if staged is not None:
                staged.run.open()           # at once: the next seat's inputs are its own
                staged.deadline = staged.run.deadline(staged.limit, staged.seat.clock,
                                                      staged.seat.wall_cap)
                self._runs[number] = staged

    @property
    def staged(self) -> set[int]:
        """The seats this turn answers (staged, or failed while staging)."""
        return set(self._runs) | set(self._answers)

    def run(self, answered: Callable[[int], None] = lambda seat: None) -> dict[int, Answer]:
        """Wait for the programs (their gates were opened as they were staged) and return
        their answers; ``answered`` is told each seat as its answer is ready."""
        for number in self._answers:
            answered(number)
        for staged in self._runs.values():
            staged.seat._opened(staged)
        deadlines = {number: staged.deadline for number, staged in self._runs.items()}
        running = len(self._runs)
        for number, exited_at in wait_for_exits({n: s.run for n, s in self._runs.items()},
                                                deadlines):
            staged = self._runs[number]
            try:
                self._answers[number] = staged.seat._ended(staged, exited_at)
            except Exception as exc:        # noqa: BLE001 - a seat's failure, never the judge's
                self._answers[number] = _crash(exc)
            answered(number)
            running -= 1
            if running == len(self._runs) - 1 and running:
                # A young collection while the other programs think (not as they start:
                # it would take a CPU from them), so that the allocations of the turn's
                # end (answers, the referee's step, the record) rarely reach the
                # collector's threshold on the judge's path (up to 0.7 ms each time).
                gc.collect(0)
        return self._answers


def _crash(exc: Exception) -> Answer:
    return Answer(failure=Termination.CRASH, detail=f"{type(exc).__name__}: {exc}")


class WholeGameSeat(ProgramSeat):
    """A program run once for the whole game (see the module's doc).

    The first ``ask`` runs it and answers the first move with the run's log; each later
    ``ask`` answers the next move from the same file, taking no time.  A file that
    cannot be read at all, or ends before the game does, is a bad answer on the turn
    it fails; the referee's consequence (the game's repair or a forfeit) follows.
    """

    def __init__(self, spec: str, command: str, protocol: FileProtocol,
                 limits: Mapping[str, Any] | None = None):
        super().__init__(spec, command, protocol, limits)
        self.moves: list[tuple[str, str]] | None = None
        self.claimed: str | None = None
        self._next = 0

    def ask(self, state: State, seat: int, time_limit: float | None) -> Answer:
        if self.moves is None:
            return self._first(state, seat, time_limit)
        if self._next >= len(self.moves):
            return Answer(failure=Termination.BAD_FILE,
                          detail=Message("{file} ends before the game does", file=self.protocol.output))
        where, text = self.moves[self._next]
        self._next += 1
        return Answer(text=text, answered=text, source=where)

    def _first(self, state: State, seat: int, time_limit: float | None) -> Answer:
        answer = self.run(state, seat, time_limit)
        self.moves = []
        if answer.failure is not None:
            return answer
        try:
            self.moves, self.claimed = self.protocol.parse(answer.answered)
        except MoveSyntaxError as exc:
            answer.failure, answer.detail = Termination.BAD_FILE, _file_error(self.protocol.output, exc)
            return answer
        answer.claimed = self.claimed
        if not self.moves:
            answer.failure, answer.detail = Termination.BAD_FILE, Message("{file} holds no move",
                                                                           file=self.protocol.output)
            return answer
        answer.source, answer.text = self.moves[0]
        self._next = 1
        return answer


def _file_error(name: str, exc: BaseException) -> Message:
    """An answer file that holds no move, said with the protocol's error (its id kept)."""
    first = exc.args[0] if len(exc.args) == 1 else None
    error = first if isinstance(first, Message) else Message.of(str(exc))
    return Message("{reason}: {detail}", reason=name, detail=error)


def read_answer_file(path: Path, limit: int) -> tuple[str, str]:
    """An answer file's text (at most ``limit`` bytes) and a problem sentence, or "" when
    it reads fine: missing, unreadable, too large and binary files are problems, and so
    is anything but a regular file (a link, FIFO or folder is never followed or opened
    for long: see :func:`games.fileio.read_untrusted`)."""
    return answer_text(lambda: read_untrusted(path.parent, path.name, limit), path.name, limit)


def answer_text(read: Callable[[], bytes], name: str, limit: int) -> tuple[str, str]:
    """:func:`read_answer_file` of the file ``name`` that ``read()`` reads (at most
    ``limit + 1`` bytes, raising as :func:`games.fileio.read_untrusted` does)."""
    try:
        raw = read()
    except FileNotFoundError:
        return "", Message("the program wrote no {file}", file=name)
    except UnsafeFileError:
        return "", Message("{file} is not a regular file (a link, FIFO or folder)", file=name)
    except OSError as exc:
        return "", Message("{file} could not be read: {error}", file=name,
                           error=Message.of(exc.strerror or str(exc)))
    text = raw[:limit].decode("utf-8", "replace")
    if len(raw) > limit:
        return text[:200] + " [...]", Message("{file} is larger than {limit} bytes", file=name, limit=limit)
    if b"\0" in raw:
        return text[:200], Message("{file} holds binary data", file=name)
    return text, ""


def read_debug_file(folder: Path) -> tuple[str, str]:
    """The program's optional DEBUG.OUT (bot annotations, :mod:`games.annotations`) as
    text, at most :data:`games.annotations.MAX_BYTES` (the parser notes a cut), and a
    problem sentence or "": absent is fine; a link, FIFO or folder is never opened."""
    return debug_text(lambda: read_untrusted(folder, DEBUG_FILE, MAX_DEBUG_BYTES))


def debug_text(read: Callable[[], bytes]) -> tuple[str, str]:
    """:func:`read_debug_file` of the DEBUG.OUT that ``read()`` reads."""
    try:
        raw = read()
    except FileNotFoundError:
        return "", ""
    except UnsafeFileError:
        return "", Message("{file} is not a regular file (a link, FIFO or folder); ignored", file=DEBUG_FILE)
    except OSError as exc:
        return "", Message("{file} could not be read: {error}; ignored", file=DEBUG_FILE,
                           error=Message.of(exc.strerror or str(exc)))
    return raw.decode("utf-8", "replace"), ""


def _given_text(inputs: Mapping[str, str]) -> str:
    """What the record keeps of the inputs: one file as it is, several each under its
    name; large files by name and size only."""
    def shown(name: str, text: str) -> str:
        return text if len(text) <= LOGGED_INPUT_BYTES else f"[{name}: {len(text)} bytes]\n"
    if len(inputs) == 1:
        (name, text), = inputs.items()
        return shown(name, text)
    return "".join(f"{name}:\n{shown(name, text)}" for name, text in inputs.items())
