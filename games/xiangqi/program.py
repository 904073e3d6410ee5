"""Seats that play through the Xiangqi contest's move files (see RULES.md and CONTEST.md).

* :class:`ContestProgramSeat` (``ext:COMMAND``) runs a contest program ``CC`` in its
  own folder with its own PLAY.INI, started once and kept running.  The program
  writes its moves to its move file; the seat watches that file (see "Noticing a
  move" below).  The arena relays the
  opponent's moves by writing the other move file (atomically) with the referee's
  clocks, and at the end writes the final status words to both files.
* :class:`OtherProgramSeat` is the ``OTHER`` side of contest mode
  (``python main.py xiangqi cc``): the same polling and relaying, through the move
  files named in an existing PLAY.INI, without starting anything.
* :class:`ContestBotSeat` is the built-in engine (``COMPUTER``) spending a sensible
  share of its clock per move.

What a program's file can cost it: a malformed file (line 1 neither a move nor a
status word, binary, larger than 256 bytes) loses (``BAD_FILE``); a crash loses
(``CRASH``); no move within the time limit (at most 15 minutes) loses or draws as
the referee adjudicates (:mod:`games.xiangqi.referee`); ``LOST`` resigns.  A program
written for the contest has no business claiming ``WIN``, ``DRAW`` or ``FINISH``
while the referee says the game is on: such a false claim loses (``ADJUDICATION``).
In contest mode there is no referee of ours, so the other side's status words are
accepted as they stand (see :class:`OtherProgramSeat`).

Noticing a move: the contest's rule (CONTEST.md) takes a move file's content once it changed and stayed
the same for two looks in a row.  A :class:`games.filewatch.FileWatch` wakes the seat
the moment the file changes (inotify on Linux; elsewhere a look every
:data:`games.filewatch.FALLBACK_POLL` seconds).  When its writer has closed it (or
renamed it into place) the file is complete, and the second look follows at once
(:data:`SETTLE`); while the writer still holds it open, the two looks are ``poll``
seconds apart, as before notifications.  So a finished move is
relayed within a few milliseconds, and a half-written one is never taken.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from games.api import GameSetupError, Message, Outcome, RecordFormatError, Termination
from games.annotations import DEBUG_FILE
from games.filewatch import FALLBACK_POLL, FileWatch
from games.fileio import UnsafeFileError, read_untrusted, remove_untrusted, replace_file
from games.xiangqi.movefiles import (COMPUTER, LOST, MAX_MOVE_FILE_BYTES, OTHER,
                                     UNTIMED, PlayIni, StablePoller, format_move_file,
                                     format_play_ini, parse_move_file, status_words)
from games.xiangqi.rules import SIDE_NAMES, SINGLE_MOVE_LIMIT_SECONDS, START_FEN
from runner.latency import ask_for_short_slices
from runner.line_seat import LineSeat
from runner.process import LineProcess, TurnDeadline, resolve_command
from runner.program_seats import read_debug_file
from runner.sandbox import seat_sandbox
from runner.seats import Answer, BotSeat, Seat, SeatInfo, charge, seat_clock, seat_folder

#: Seconds between two looks at a move file its writer still holds open, and between
#: looks when no notification comes (limits["poll"] overrides).
DEFAULT_POLL = 0.05
#: Seconds between the two looks at a move file its writer has closed (a closed file is
#: complete: no need to wait; the looks still must agree).
SETTLE = 0.0
#: The file each side writes its moves to, inside a program's folder.
MOVE_FILE_NAMES = ("M1.DAT", "M2.DAT")
#: How long a program may take to leave after the final status words.
EXIT_GRACE = 1.0
#: The lower CPU priority contest programs run at (limits["nice"] overrides; 0: none),
#: both sides the same: when a program finishes its move the referee gets the CPU at
#: once to relay it, even while the other program busy-polls its move file (RULES.md,
#: "Priority").  On an otherwise idle machine it takes nothing from the programs.
PROGRAM_NICE = 10

#: What :func:`read_bounded` returns for a link, FIFO or folder in a move file's place.
NOT_REGULAR = "\0<not a regular file>"

ClockSource = Callable[[], tuple[float | None, float | None]]


@dataclass
class ClaimAnswer(Answer):
    """An answer carrying a status word the other side wrote (contest mode accepts it)."""

    claim: str = ""


def outcome_is_unknown(outcome: Outcome | None) -> bool:
    """True when the game stopped without a result (the files then say FINISH)."""
    return outcome is None or outcome.reason is Termination.ABORTED


def final_words(outcome: Outcome | None) -> tuple[str, str]:
    """The status words for the bottom's and the top's move file."""
    return status_words(None if outcome_is_unknown(outcome) else outcome.winners)


def _no_clock() -> tuple[float | None, float | None]:
    return None, None


def read_bounded(path: Path) -> str | None:
    """A move file's text, at most a little over the size limit; None when absent.

    Binary content, oversize files and anything but a regular file (a link, FIFO or
    folder: never followed, never waited on) come back marked, so the stability rule
    still applies to them and the verdict can say what was wrong.
    """
    path = Path(path)
    try:
        raw = read_untrusted(path.parent, path.name, MAX_MOVE_FILE_BYTES)
    except FileNotFoundError:
        return None
    except UnsafeFileError:
        return NOT_REGULAR
    except OSError:
        return None          # being replaced right now: look again next poll
    text = raw[:MAX_MOVE_FILE_BYTES].decode("latin-1")
    if len(raw) > MAX_MOVE_FILE_BYTES:
        text += "\0<larger than the limit>"
    return text


class MoveFileSeat(Seat):
    """One side played by another program through two move files.

    ``own_file`` is the file the program writes its moves to (the seat polls it);
    ``relay_file`` is the file it reads the other side's moves from (the seat writes
    it after every move of the other side, with the referee's clocks).
    """

    kind = "ext"
    #: The move files need only the moves: relayed before the referee's other work.
    hears_moves_early = True
    #: True when the arena is the referee: a status word other than LOST loses.
    referee = True
    #: Which files get the final status words: "both" or "relay" (only ours).
    final_files = "both"

    def __init__(self, spec: str, label: str = "", limits: Mapping[str, Any] | None = None):
        super().__init__(spec, label)
        self.limits = dict(limits or {})
        given = self.limits.get("poll")
        #: None: the defaults (DEFAULT_POLL with notifications, FALLBACK_POLL without).
        self.poll_setting = float(given) if given else None
        #: limits["notify"] false: look every poll, without file-system notifications.
        self.use_notifications = str(self.limits.get("notify", "1")).lower() not in ("0", "false", "no", "off")
        self.watch: FileWatch | None = None
        self.own_file: Path | None = None
        self.relay_file: Path | None = None
        self.side = 0
        self.clock: ClockSource = _no_clock
        self.seconds = int(self.limits.get("seconds", UNTIMED))
        #: "wall" or "cpu": how answers are charged (CPU: only a program the arena started).
        self.charge_clock = seat_clock(self.limits)
        self.poller = StablePoller()
        self.process: LineProcess | None = None
        self._given = ""
        self._preamble = ""          # what the program was given before its first turn
        self._cancel = threading.Event()

    def attach_clock(self, clock: ClockSource, seconds: int) -> None:
        """The referee's clocks for lines 2-3 and PLAY.INI's seconds (called before start)."""
        self.clock, self.seconds = clock, seconds

    # ------------------------------------------------------------------ asking
    @property
    def poll(self) -> float:
        """Seconds between looks when nothing is notified (and between the two looks at
        a file still open for writing)."""
        if self.poll_setting is not None:
            return self.poll_setting
        return DEFAULT_POLL if self.watch is not None and self.watch.notifies else FALLBACK_POLL

    def _watch(self) -> FileWatch:
        """The watch on our move file's folder, made at the first question (the folder
        exists by then); remade after the folder went away."""
        if self.watch is None or (self.use_notifications and not self.watch.notifies):
            if self.watch is not None:
                self.watch.close()
            self.watch = FileWatch(self.own_file.parent, [self.own_file.name], self.use_notifications)
        return self.watch

    def _next_look(self, watch: FileWatch, pending: str | None) -> float:
        """Seconds until the next look: soon after a complete file was seen once."""
        if pending is not None and watch.notifies and not watch.writing:
            return SETTLE
        return self.poll

    def ask(self, state, seat: int, time_limit: float | None) -> Answer:
        limit = SINGLE_MOVE_LIMIT_SECONDS + 1 if time_limit is None else time_limit
        self._preamble = ""
        ask_for_short_slices()       # this thread relays: woken ahead of busy tasks
        start = time.perf_counter()
        watch = self._watch()
        meter = self.process.meter if self.process is not None else None
        cpu_start = meter.used() if meter is not None else None
        deadline = TurnDeadline(start, limit + 3 * self.poll, self.charge_clock, meter, cpu_start)
        answer = self._wait_for_move(state, watch, start, deadline, limit)
        cpu_end = meter.used() if meter is not None else None
        charge(answer, self.charge_clock, answer.elapsed,
               None if cpu_start is None or cpu_end is None else max(0.0, cpu_end - cpu_start))
        return answer

    def _wait_for_move(self, state, watch: FileWatch, start: float, deadline: TurnDeadline,
                       limit: float) -> Answer:
        """The answer in the move file, or a failure once ``deadline`` is over."""
        pending, first_seen = None, start
        while True:
            watch.drain()            # events queued while we were not looking
            if self._too_soon_to_confirm(watch, first_seen):
                watch.wait(max(0.0, first_seen + self.poll - time.perf_counter()))
                continue
            content = read_bounded(self.own_file)
            taken = self.poller.feed(content)
            if self.poller.pending != pending:
                pending, first_seen = self.poller.pending, time.perf_counter()
            if taken is None and self.process is not None and self.process.exited:
                taken = self._final_content()
                if taken is None:
                    return self._failed(start, Termination.CRASH, self._exit_text())
            if taken is not None:
                return self._judge(taken, max(0.0, first_seen - start), state)
            if self._cancel.is_set():
                self._cancel.clear()
                return self._failed(start, Termination.ABORTED, Message("match stopped"))
            now = time.perf_counter()
            if deadline.over(now):
                return self._failed(start, Termination.TIMEOUT,
                                    Message("no move in its move file within {seconds} s",
                                            seconds=f"{limit:.1f}"))
            watch.wait(min(self._next_look(watch, self.poller.pending),
                           max(0.0, deadline.next_look(now) - now)))

    def _too_soon_to_confirm(self, watch: FileWatch, first_seen: float) -> bool:
        """Whether a second look now could not confirm the pending content: the writer
        still holds the file open and ``poll`` seconds have not passed since the first
        look.  The look came at once because the file seemed complete, but its writer's
        events (created, modified) had not been read yet when it was taken."""
        return (self.poller.pending is not None and watch.writing
                and time.perf_counter() - first_seen < self.poll)

    def _final_content(self) -> str | None:
        """After the program ended its file cannot change: take it if it is new."""
        content = read_bounded(self.own_file)
        if content is None or not content.strip() or content == self.poller.taken:
            return None
        self.poller.reset(taken=content)
        return content

    def _exit_text(self) -> str:
        code = self.process.proc.returncode if self.process else None
        return Message("the program ended (exit code {code}) without writing a move", code=code)

    def _failed(self, start: float, failure: Termination, detail: str) -> Answer:
        return self._with_output(Answer(elapsed=time.perf_counter() - start, given=self._given,
                                        failure=failure, detail=detail))

    def _with_output(self, answer: Answer) -> Answer:
        """Attach what the program printed since the last answer."""
        if self.process is not None:
            answer.stdout = self.process.take_stdout()
            answer.stderr = self.process.take_stderr()
        return answer

    def _judge(self, content: str, elapsed: float, state) -> Answer:
        answer = self._with_output(Answer(elapsed=elapsed, given=self._given, answered=content))
        self._take_debug_file(answer)
        name = str(self.own_file)
        if "\0" in content:
            answer.failure = Termination.BAD_FILE
            answer.detail = (f"{name}: larger than {MAX_MOVE_FILE_BYTES} bytes"
                             if content.endswith("<larger than the limit>") else
                             f"{name}: not a regular file (a link, FIFO or folder)"
                             if content == NOT_REGULAR else f"{name}: binary data")
            return answer
        try:
            move_file = parse_move_file(content, name)
        except RecordFormatError as exc:
            answer.failure, answer.detail = Termination.BAD_FILE, str(exc)
            return answer
        if not move_file.is_status:
            answer.text = move_file.word
            return answer
        return self._status(answer, move_file.word)

    def _take_debug_file(self, answer: Answer) -> None:
        """The program's DEBUG.OUT beside its move file (bot annotations), read and then
        removed so that it never counts for a later move.  Only programs the arena
        started have a folder of their own to look in."""
        folder = getattr(self, "folder", None)
        if folder is None:
            return
        answer.debug, problem = read_debug_file(folder)
        if problem:
            answer.notes.append(problem)
        remove_untrusted(folder, DEBUG_FILE)

    def _status(self, answer: Answer, word: str) -> Answer:
        who = SIDE_NAMES[self.side]
        if word == LOST:
            answer.failure, answer.detail = Termination.RESIGNATION, f"{who} resigned (wrote LOST)"
        elif self.referee:
            answer.failure = Termination.ADJUDICATION
            answer.detail = (f"{who} wrote {word} while the game was still on; "
                             "a false claim loses")
        else:
            answer = ClaimAnswer(**vars(answer), claim=word)
            answer.failure = Termination.ADJUDICATION
            answer.detail = f"{who} (the other program) wrote {word}"
        return answer

    # ------------------------------------------------------------------ relaying
    def observe(self, state, moves: Mapping[int, str]) -> None:
        other = self.side ^ 1
        if other in moves and self.relay_file is not None:
            bottom, top = self.clock()
            relayed = format_move_file(moves[other], bottom, top)
            try:
                # Not fsynced: the other program reads it within milliseconds, and a
                # lost move file after a power cut is a lost game anyway.
                replace_file(self.relay_file.parent, self.relay_file.name, relayed)
            except OSError as exc:      # shown with the next answer; the program will time out
                relayed += f"[the arena could not write {self.relay_file}: {exc.strerror}]"
            self._given = self._preamble + f"{self.relay_file.name}:\n{relayed}"
            self._preamble = ""

    def finish(self, outcome: Outcome) -> None:
        if self.relay_file is None:
            return
        words = final_words(outcome)
        bottom, top = self.clock()
        targets = [(self.relay_file, words[self.side ^ 1])]
        if self.final_files == "both":
            targets.append((self.own_file, words[self.side]))
        for path, word in targets:
            try:
                replace_file(path.parent, path.name, format_move_file(word, bottom, top))
            except OSError:
                pass

    def cancel(self) -> None:
        self._cancel.set()

    def close(self) -> None:
        if self.watch is not None:
            self.watch.close()




class ContestProgramSeat(MoveFileSeat, LineSeat):
    """A contest program ``CC`` run in its own folder, refereed by the arena.

    It answers in move files (:class:`MoveFileSeat`); the arena starts and ends it as
    every long-lived program (:class:`runner.line_seat.LineSeat`), its output kept for
    the record only.

    Limits (all optional): ``folder`` (run there instead of the seat's folder),
    ``seconds`` (PLAY.INI line 4 when no referee clock is attached), ``opponent_id``
    (PLAY.INI line 3; default the other seat's number), ``poll`` (seconds between
    looks at the move file), ``memory_mb``.
    """

    needs_folder = True
    #: Seconds the program may take to leave at close (it had the final status words
    #: and :data:`EXIT_GRACE` at finish).
    exit_grace = 0.1

    def __init__(self, spec: str, command: str, limits: Mapping[str, Any] | None = None):
        super().__init__(spec, label=command, limits=limits)
        self.argv = resolve_command(command)
        self.folder: Path | None = None
        self.play_ini = ""
        self.sandbox = seat_sandbox(self.limits, nice=PROGRAM_NICE)

    def start(self, info: SeatInfo, state) -> None:
        super().start(info, state)
        if (info.options.get("fen") or START_FEN) != START_FEN or state.turn_number():
            raise GameSetupError("a contest program always starts from the usual position; "
                                 "it cannot start from the fen option or take over a game in progress")
        self.side = info.seat
        self.folder = seat_folder(info, self.limits)
        files = [self.folder / name for name in MOVE_FILE_NAMES]
        for path in files:
            remove_untrusted(self.folder, path.name)
        remove_untrusted(self.folder, DEBUG_FILE)
        self.own_file, self.relay_file = files[self.side], files[self.side ^ 1]
        words = [OTHER, OTHER]
        words[self.side] = COMPUTER
        opponent = int(self.limits.get("opponent_id", (self.side ^ 1) + 1))
        ini = PlayIni(words[0], words[1], opponent, self.seconds, str(files[0]), str(files[1]))
        self.play_ini = format_play_ini(ini)
        replace_file(self.folder, "PLAY.INI", self.play_ini)
        self._given = self._preamble = "PLAY.INI:\n" + self.play_ini
        self.launch(info, stdout_lines=False)

    def ask(self, state, seat: int, time_limit: float | None) -> Answer:
        if self.process is None:
            return Answer(given=self._given, failure=Termination.CRASH,
                          detail=self.start_error or Message("the program is not running"))
        return super().ask(state, seat, time_limit)

    def finish(self, outcome: Outcome) -> None:
        super().finish(outcome)
        if self.process is not None:
            try:
                self.process.proc.wait(timeout=EXIT_GRACE)
            except Exception:
                pass

    def close(self) -> None:
        MoveFileSeat.close(self)            # the watch on its move file
        LineSeat.close(self)                # the program

    def describe(self) -> dict:
        data = super().describe()           # LineSeat's: the command and the sandbox
        if self.folder:
            data["folder"] = str(self.folder)
        return data


class OtherProgramSeat(MoveFileSeat):
    """Contest mode's ``OTHER``: another program, met only through PLAY.INI's move files.

    There is no referee of ours here, so the other side's status words stand: ``WIN``
    (it claims the game, e.g. our time is up by its referee), ``DRAW``, ``FINISH``
    end the game as written, ``LOST`` is a resignation.  Only our own move file is
    written; the other program's file is its own.
    """

    referee = False
    final_files = "relay"

    def __init__(self, ini: PlayIni, limits: Mapping[str, Any] | None = None):
        side = ini.other_side
        super().__init__("other", label=f"Other program (id {ini.opponent_id})", limits=limits)
        self.side = side
        self.own_file = Path(ini.move_file(side))
        self.relay_file = Path(ini.move_file(side ^ 1))
        self.seconds = ini.seconds

    def start(self, info: SeatInfo, state) -> None:
        super().start(info, state)
        self.relay_file.parent.mkdir(parents=True, exist_ok=True)
        self.relay_file.unlink(missing_ok=True)
        if state.to_move() == (self.side ^ 1,):
            # We move first, so whatever the other's file holds is from an old game.
            try:
                self.own_file.unlink(missing_ok=True)
            except OSError:
                self.poller.reset(taken=read_bounded(self.own_file))
        elif not _is_a_move(read_bounded(self.own_file)):
            # It moves first: a move already there is its first; a status word is old.
            self.poller.reset(taken=read_bounded(self.own_file))

    def describe(self) -> dict:
        data = super().describe()
        data.update(kind="other", own_file=str(self.own_file), relay_file=str(self.relay_file))
        return data


def _is_a_move(content: str | None) -> bool:
    try:
        return content is not None and not parse_move_file(content).is_status
    except RecordFormatError:
        return False


class ContestBotSeat(BotSeat):
    """The built-in engine as a contest program's ``COMPUTER``.

    The match's per-answer limit is at most 15 minutes, or what is left on the clock:
    far more than one move should take.  This seat spends at most ``movetime``
    seconds, and no more than a thirtieth of what is left on a timed clock.
    """

    def __init__(self, spec: str, bot, level: int, movetime: float = 3.0):
        super().__init__(spec, bot, level)
        self.movetime = movetime
        self.clock: ClockSource = _no_clock

    def attach_clock(self, clock: ClockSource, seconds: int) -> None:
        self.clock = clock

    def budget(self, seat, time_limit):
        budget = self.movetime
        left = self.clock()[seat]
        if left is not None:
            budget = min(budget, max(0.05, left / 30))
        if time_limit is not None:
            budget = min(budget, time_limit * 0.5)
        return budget


def make_external_seat(spec: str, command: str,
                       limits: Mapping[str, Any] | None = None) -> ContestProgramSeat:
    """The plugin's ``external`` factory (``ext:COMMAND`` seats)."""
    return ContestProgramSeat(spec, command, limits)
