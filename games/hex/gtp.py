"""GTP seats: a Hex engine (MoHex, Wolve, or any engine speaking GTP as Benzene does).

Seat spec ``gtp:COMMAND [SETTING=VALUE ...]`` (PROTOCOL.md, "GTP engines").  The
settings at the end of the spec are the arena's, not the engine's:

* ``cmd="GTP COMMAND"`` (repeatable): a command sent once at the start, after the
  board is set up (``cmd="param_mohex max_games 1000"``);
* ``config=FILE``: a file of GTP commands (one a line, ``#`` comments), sent likewise;
* ``time_per_move=SECONDS``: how long the engine should think per move, told to it
  the GTP way (``time_settings 0 S 1``) and, for MoHex, as ``param_mohex max_time``;
* ``handshake=SECONDS``: how long the engine has to answer its first command (default
  60: an engine still loading on a busy machine is not refused).  One that does not
  is named so and the match is not played (no result; a tournament plays it again).

At the start the arena sends ``boardsize N`` (``boardsize N N`` if the engine refuses
the one-number form), ``name`` and ``version`` (the seat's label), ``clear_board``, the
start position as ``play`` commands, the swap setting (``param_game allow_swap 0|1``
when the engine knows ``param_game``), the clock (``time_settings`` when known), then
the seat's own settings. Any refusal there refuses the match before it begins, in the
engine's own words. On the engine's turn: ``time_left`` (its remaining time), ``genmove
b|w``, then ``showboard`` for the debug panel (and MoHex's search statistics on stderr,
:func:`search_stats`). A reply ends at the first *empty* line (GTP: two newlines in a
row), so lines holding only spaces belong to the reply.

The engine's board follows ours through :func:`engine_moves`: the ``play`` commands that
put our position on an empty board.  After a swap, the board is set up again from
``clear_board`` (HexGui's way: it never sends ``swap-pieces`` to an engine, because
engines disagree on what it does to the board); a take-back uses GTP ``undo`` when the
engine knows it, else the same set-up again.

Colours and edges follow Benzene/HexGui: black moves first and connects top and
bottom; cells are named as in :mod:`games.hex.notation` (the board is transposed
relative to ours, so the engine's black connects our columns 1 and N, as our
player 1 must).  The first part of the module is pure string functions.
"""
from __future__ import annotations

import re
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from games.api import GameSetupError, Message, MoveSyntaxError, Outcome, Termination
from games.hex.notation import colour_of_seat, from_hexgui, to_hexgui
from games.hex.program import HexLineSeat
from games.hex.rules import P1, P2, HexMove, HexState
from runner.line_seat import HANDSHAKE_SECONDS
from runner.process import TurnDeadline, resolve_command
from runner.sandbox import seat_sandbox
from runner.seats import Answer, SeatInfo

#: Seconds allowed for set-up commands (boardsize, play ...) and for showboard.
SETUP_TIMEOUT = 10.0
SHOWBOARD_TIMEOUT = 0.5
#: Commands the arena asks ``known_command`` about at the start.
PROBED = ("showboard", "undo", "time_left", "time_settings", "param_game", "param_mohex")
SETTING_KEYS = ("cmd", "config", "time_per_move", "handshake")
#: A GTP seat's default address-space cap (a seat's ``memory_mb`` limit overrides it):
#: MoHex maps about 1.3 GB before its first search, beyond the 1 GB other programs get.
GTP_MEMORY_MB = 3072
#: The share of a seat's memory cap MoHex may give its search trees (the rest: its
#: program, pattern tables and solver).
MOHEX_MEMORY_SHARE = 0.4
#: At most this many characters of an engine's ``name`` or ``version`` are kept.
MAX_ID_CHARS = 60
#: At most this many moves of an engine's principal variation are kept per move.
MAX_PV = 12


# ====================================================================== pure functions
def position_commands(state: HexState) -> list[str]:
    """``play`` commands putting a position's stones on an empty board: black and white
    alternating, black first (a position may hold one black stone more)."""
    blacks = [state.move_at(i) for i, v in enumerate(state.cells) if v == P1]
    whites = [state.move_at(i) for i, v in enumerate(state.cells) if v == P2]
    commands = []
    for index, black in enumerate(blacks):
        commands.append(f"play b {to_hexgui(black)}")
        if index < len(whites):
            commands.append(f"play w {to_hexgui(whites[index])}")
    commands += [f"play w {to_hexgui(white)}" for white in whites[len(blacks):]]
    return commands


def setup_commands(state: HexState) -> list[str]:
    """``clear_board`` then the position's stones."""
    return ["clear_board", *position_commands(state)]


def engine_moves(start: HexState, history: list[HexMove]) -> list[str]:
    """The ``play`` commands that give an engine, from ``clear_board``, the position
    reached from ``start`` by ``history``.  A swap restarts the list from the board
    after it (its one stone), as HexGui does."""
    state = start.clone()
    commands = position_commands(state)
    for move in history:
        seat = state.current
        state.push(move)
        if move.is_swap:
            commands = position_commands(state)
        else:
            commands.append(play_command(seat, move))
    return commands


def play_command(seat: int, move: HexMove) -> str:
    return f"play {colour_of_seat(seat)} {to_hexgui(move)}"


def genmove_command(seat: int) -> str:
    return f"genmove {colour_of_seat(seat)}"


def parse_response(lines: list[str]) -> tuple[bool, str]:
    """A GTP response's lines -> (success, text without the ``=``/``?`` and id)."""
    if not lines:
        return False, ""
    first = lines[0]
    ok = first.startswith("=")
    head = first[1:].lstrip("0123456789").strip()
    text = "\n".join([head, *lines[1:]]).strip()
    return ok, text


def identity_text(text: str) -> str:
    """An engine's ``name`` or ``version`` answer as one short printable line: the
    first line, control characters dropped, at most :data:`MAX_ID_CHARS` characters."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    return "".join(ch for ch in first if ch.isprintable()).strip()[:MAX_ID_CHARS]


def search_stats(stderr: str) -> dict:
    """What a Benzene engine's (MoHex's) search statistics on stderr say about its
    move: the last block's ``GamesPlayed`` (playouts), ``Nodes``, ``Score`` (the win
    rate of the side to move, 0..1) and ``Sequence`` (the principal variation, as our
    move texts).  Lines it does not recognise are ignored; {} when there are none
    (MoHex prints no block when its solver or book decided the move).

    MoHex's block looks like::

        Count          1000
        GamesPlayed    1000
        Nodes          3686
        Score          0.61
        Sequence       e5 e4 f4 f3 g3
    """
    found: dict = {}
    for line in stderr.splitlines():
        words = line.split()
        if len(words) < 2:
            continue
        key, value = words[0], words[1]
        if key == "GamesPlayed" and value.isdigit():
            found = {}                          # a new block: the last one wins
            found["playouts"] = int(value)
        elif key == "Nodes" and value.isdigit():
            found["nodes"] = int(value)
        elif key == "Score" and re.fullmatch(r"\d*\.?\d+", value) and float(value) <= 1:
            found["winrate"] = round(float(value), 3)
        elif key == "Sequence":
            pv = []
            for word in words[1:1 + MAX_PV]:
                try:
                    pv.append(from_hexgui(word).text())
                except MoveSyntaxError:
                    break
            if pv:
                found["pv"] = pv
    return found


def parse_genmove(text: str) -> HexMove | None:
    """genmove's answer -> a move; None means the engine resigned."""
    word = text.split()[0].lower() if text.split() else ""
    if word == "resign":
        return None
    return from_hexgui(word)


@dataclass
class EngineSettings:
    """The arena's settings at the end of a ``gtp:`` seat spec."""

    commands: list[str] = field(default_factory=list)    # cmd= and config= lines, in order
    time_per_move: float | None = None
    handshake: float = HANDSHAKE_SECONDS


def split_seat_spec(spec: str) -> tuple[list[str], EngineSettings]:
    """``CMD ARGS... [cmd="..."] [config=FILE] [time_per_move=S]`` -> (argv, settings).

    Only trailing words whose key is one of :data:`SETTING_KEYS` are settings, so the
    engine's own ``--key=value`` arguments stay the engine's.
    """
    try:
        words = shlex.split(spec)
    except ValueError as exc:
        raise GameSetupError(Message("gtp seat {spec}: {error}", spec=repr(spec), error=str(exc))) from None
    tail: list[str] = []
    while words and words[-1].partition("=")[0] in SETTING_KEYS and "=" in words[-1]:
        tail.insert(0, words.pop())
    if not words:
        raise GameSetupError(Message("gtp seat {spec}: no engine command before the settings", spec=repr(spec)))
    settings = EngineSettings()
    for word in tail:
        key, _, value = word.partition("=")
        if key == "cmd":
            if not value.strip():
                raise GameSetupError(Message("gtp seat setting cmd= needs a GTP command"))
            settings.commands.append(value.strip())
        elif key == "config":
            settings.commands += read_config(value)
        elif key == "handshake":
            try:
                settings.handshake = float(value)
            except ValueError:
                settings.handshake = -1.0
            if not 0 < settings.handshake < 1e6:
                raise GameSetupError(Message("gtp seat setting handshake={value}: expected seconds above 0",
                                           value=repr(value)))
        else:
            try:
                settings.time_per_move = float(value)
            except ValueError:
                raise GameSetupError(Message("gtp seat setting time_per_move={value} is not a number",
                                           value=repr(value))) from None
            if settings.time_per_move <= 0:
                raise GameSetupError(Message("gtp seat setting time_per_move must be more than 0"))
    return words, settings


def read_config(path: str) -> list[str]:
    """A GTP configuration file: one command a line; blank lines and ``#`` comments skipped."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise GameSetupError(Message("gtp seat setting config={path}: {error}", path=path,
                                       error=str(exc.strerror or exc))) from None
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return [line for line in lines if line]


def clock_commands(total: float | None, per_move: float | None) -> list[str]:
    """GTP ``time_settings MAIN BYO_YOMI STONES`` for the arena's clock: the whole-game
    clock as main time, a per-move limit as a byo-yomi period of one stone."""
    if not total and not per_move:
        return []
    return [f"time_settings {_seconds(total or 0)} {_seconds(per_move or 0)} {1 if per_move else 0}"]


def mohex_memory_commands(memory_mb: int | None) -> list[str]:
    """MoHex sizes its search trees from the machine's memory (2 GB by default), which
    exceeds the sandbox's address-space cap: it then dies of ``std::bad_alloc`` at its
    first search.  Under a cap, its trees get :data:`MOHEX_MEMORY_SHARE` of it."""
    if not memory_mb:
        return []
    return [f"param_mohex max_memory {int(memory_mb * MOHEX_MEMORY_SHARE) << 20}"]


def _seconds(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".") or "0"


# ====================================================================== the seat
class GtpHexSeat(HexLineSeat):
    """A GTP Hex engine on one seat."""

    kind = "gtp"
    #: The match may take moves back with this seat (GTP ``undo`` or a new set-up).
    can_take_back = True

    def __init__(self, spec: str, command: str, limits: Mapping | None = None):
        argv, self.settings = split_seat_spec(command)
        limits = dict(limits or {})
        super().__init__(spec, f"GTP {shlex.join(argv)}", resolve_command(argv), limits,
                         seat_sandbox(limits, memory_mb=GTP_MEMORY_MB))
        self.handshake_seconds = self.settings.handshake
        self.known: set[str] = set()
        self._start: HexState | None = None
        self._board: list[str] = []         # play commands on the engine's board since clear_board
        self._given: list[str] = []
        self._last_failure = ""
        self._time_left_form = 3            # GTP's 3 words; Benzene takes 2
        self.engine_name = ""               # GTP ``name`` and ``version``, once started
        self.engine_version = ""

    # ------------------------------------------------------------------ set-up
    def start(self, info: SeatInfo, state: HexState) -> None:
        super().start(info, state)
        self._start = state.clone()
        if not self.launch(info):
            self._refuse(self.start_error)
        n = state.size
        ok, text = self._command(f"boardsize {n}", self.handshake_seconds)
        if not ok and self.missed_handshake(f"answer to 'boardsize {n}'", self._last_failure):
            return                  # the match is not played
        if not ok and self.running:
            ok2, text2 = self._command(f"boardsize {n} {n}", SETUP_TIMEOUT)
            ok, text = ok2, (text2 if ok2 else text or text2)
        if not ok:
            self._refuse(Message("the engine refused '{command}': {words}", command=f"boardsize {n}",
                                 words=self._words(text)))
        self._ask_identity()
        for name in PROBED:
            ok, text = self._command(f"known_command {name}", SETUP_TIMEOUT)
            if ok and text.strip().lower() == "true":
                self.known.add(name)
        self._require("clear_board", SETUP_TIMEOUT)
        for command in position_commands(state):
            self._require(command, SETUP_TIMEOUT)
            self._board.append(command)
        for command in self._start_commands(info):
            self._require(command, SETUP_TIMEOUT)
        self.turn_stderr()                  # the set-up's output is no turn's

    def _ask_identity(self) -> None:
        """GTP ``name`` and ``version`` (both required by GTP, but an engine that refuses
        them still plays): the seat is then labelled by the engine's own name."""
        ok, text = self._command("name", SETUP_TIMEOUT)
        self.engine_name = identity_text(text) if ok else ""
        ok, text = self._command("version", SETUP_TIMEOUT)
        self.engine_version = identity_text(text) if ok else ""
        if self.engine_name:
            self.label = " ".join(filter(None, (self.engine_name, self.engine_version)))

    def _start_commands(self, info: SeatInfo) -> list[str]:
        """The swap rule, the clock and the seat's own settings, in that order (so a
        setting of the seat's overrides the arena's)."""
        options = info.options
        commands = []
        if "param_game" in self.known:
            commands.append(f"param_game allow_swap {1 if options.get('swap') else 0}")
        total = float(options.get("time_total") or 0) or None
        per_move = self.settings.time_per_move or float(options.get("time_per_move") or 0) or None
        if "time_settings" in self.known:
            commands += clock_commands(total, per_move)
        if "param_mohex" in self.known:
            commands += mohex_memory_commands(self.sandbox.limits.memory_mb)
        if "param_mohex" in self.known:          # MoHex ignores the clock unless told to use it
            if self.settings.time_per_move:
                commands += ["param_mohex use_time_management 0",
                             f"param_mohex max_time {_seconds(self.settings.time_per_move)}"]
            elif total or per_move:
                commands.append("param_mohex use_time_management 1")
        return commands + self.settings.commands

    def _require(self, command: str, timeout: float) -> str:
        ok, text = self._command(command, timeout)
        if not ok:
            self._refuse(Message("the engine refused '{command}': {words}", command=command,
                                 words=self._words(text)))
        return text

    def _words(self, text: str) -> str:
        """The engine's own words for a refusal, or how it ended."""
        if text.strip():
            return text.strip()
        if not self.running:
            tail = self.stderr_tail().strip().splitlines()[-3:]
            return f"it {self.exit_description()}" + (f" ({' / '.join(tail)})" if tail else "")
        return "no answer" if self._last_failure == "timeout" else "an empty error"

    def _refuse(self, why: str | Message) -> None:
        raise GameSetupError(Message("seat {n} ({label}): {why}", n=self.info.seat + 1, label=self.label,
                                     why=why))

    # ------------------------------------------------------------------ talking
    def _command(self, line: str, timeout: "float | TurnDeadline | None") -> tuple[bool, str]:
        """Send one command and read its response, up to the empty line that ends it,
        within ``timeout`` seconds (a :class:`runner.process.TurnDeadline`: by a turn's clock)."""
        self._given.append(line)
        if not self.send(line):
            self._last_failure = "eof"
            return False, ""
        deadline = timeout if isinstance(timeout, TurnDeadline) or timeout is None else \
            time.perf_counter() + timeout
        lines: list[str] = []
        while True:
            reply, why = self.read_line(deadline)
            if reply is None:
                self._last_failure = why
                return False, "\n".join(lines)
            if reply == "":
                if lines:
                    return parse_response(lines)
                continue
            if lines or reply[:1] in "=?":
                lines.append(reply)

    def _sync(self, state: HexState) -> None:
        """Bring the engine's board to ``state``: play what it lacks, take back with
        ``undo`` what it has too much, or set it up again from ``clear_board``."""
        target = engine_moves(self._start, state.history)
        have = self._board
        if have == target[:len(have)]:
            for command in target[len(have):]:
                self._require_in_game(command)
                self._board.append(command)
            return
        extra = len(have) - len(target)
        if extra > 0 and have[:len(target)] == target and "undo" in self.known:
            for _ in range(extra):
                ok, _text = self._command("undo", SETUP_TIMEOUT)
                if not ok:
                    break
                self._board.pop()
            else:
                return
        self._require_in_game("clear_board")
        self._board = []
        for command in target:
            self._require_in_game(command)
            self._board.append(command)

    def _require_in_game(self, command: str) -> None:
        ok, text = self._command(command, SETUP_TIMEOUT)
        if not ok:
            raise _EngineRefused(f"the engine refused '{command}': {self._words(text)}")

    # ------------------------------------------------------------------ the match's calls
    def observe(self, state: HexState, moves: Mapping[int, str]) -> None:
        if self.running and not state.is_terminal():
            try:
                self._sync(state)
            except _EngineRefused:
                pass                     # ask() tries again and reports it

    def take_back(self, state: HexState) -> None:
        """The match took moves back (a person's undo): the engine follows."""
        if self.running:
            try:
                self._sync(state)
            except _EngineRefused:
                pass

    def ask(self, state: HexState, seat: int, time_limit: float | None) -> Answer:
        answer = Answer()
        self._last_failure = ""
        start = time.perf_counter()
        try:
            self._sync(state)
            self._send_clock(seat, time_limit)
        except _EngineRefused as exc:
            answer.failure, answer.detail = Termination.CRASH, str(exc)
            self._finish_answer(answer, start)
            return answer
        cpu_start = self.cpu_seconds()
        ok, text = self._command(genmove_command(seat), self.turn_deadline(
            None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - start))))
        self.charge_turn(answer, time.perf_counter() - start, cpu_start)
        answer.answered = text
        if not ok:
            self._fail(answer, text, time_limit)
        else:
            self._read_move(answer, text, seat)
            if "showboard" in self.known:
                answer.stdout = self._showboard()
        self._finish_answer(answer, start)
        if answer.move is not None:
            answer.search = search_stats(answer.stderr)
        return answer

    def _finish_answer(self, answer: Answer, start: float) -> None:
        answer.elapsed = answer.elapsed or time.perf_counter() - start
        answer.given, self._given = "\n".join(self._given), []
        answer.stderr = self.turn_stderr()
        if self.process is not None:        # its "# debug" lines
            answer.debug, answer.debug_source = self.turn_debug(), "# debug lines"

    def _send_clock(self, seat: int, time_limit: float | None) -> None:
        """``time_left COLOUR SECONDS STONES`` (Benzene: ``time_left COLOUR SECONDS``)."""
        if time_limit is None or "time_left" not in self.known:
            return
        seconds = time_limit
        if self.settings.time_per_move:
            seconds = min(seconds, self.settings.time_per_move)
        per_move = bool(self.settings.time_per_move or self.info.options.get("time_per_move"))
        colour = colour_of_seat(seat)
        if self._time_left_form == 3:
            ok, _ = self._command(f"time_left {colour} {_seconds(seconds)} {1 if per_move else 0}",
                                  SETUP_TIMEOUT)
            if ok or not self.running:
                return
            self._time_left_form = 2
        self._command(f"time_left {colour} {_seconds(seconds)}", SETUP_TIMEOUT)

    def _read_move(self, answer: Answer, text: str, seat: int) -> None:
        try:
            move = parse_genmove(text)
        except MoveSyntaxError as exc:
            answer.failure, answer.detail = Termination.BAD_FILE, Message(
                "unreadable genmove answer: {error}", error=Message.of(exc.args[0]) if exc.args else str(exc))
            return
        if move is None:
            answer.failure, answer.detail = Termination.RESIGNATION, Message("the engine resigned")
            return
        answer.move, answer.text = move, move.text()
        # The engine has played it on its own board (a swap as it understands one).
        self._board.append("swap-pieces" if move.is_swap else play_command(seat, move))

    def _fail(self, answer: Answer, text: str, time_limit: float | None) -> None:
        why = self._last_failure
        if why:
            self.failed(answer, why, "no genmove answer within {seconds} s; the engine was killed",
                        "the engine {how} during genmove", time_limit)
        else:
            answer.failure = Termination.BAD_FILE
            answer.detail = Message("the engine answered genmove with an error: {text}", text=text)

    def _showboard(self) -> str:
        ok, text = self._command("showboard", SHOWBOARD_TIMEOUT)
        self._given.pop()
        return text if ok else ""

    def finish(self, outcome: Outcome) -> None:
        if self.running:
            self.send("quit")

    def describe(self) -> dict:
        data = super().describe()
        if self.engine_name:
            data["engine"] = self.engine_name
        if self.engine_version:
            data["version"] = self.engine_version
        return data


class _EngineRefused(Exception):
    """The engine refused a command that keeps its board in step with the match."""


def make_gtp_seat(spec: str, command: str, limits: Mapping | None = None) -> GtpHexSeat:
    """The plugin's ``gtp`` seat factory."""
    return GtpHexSeat(spec, command, limits)
