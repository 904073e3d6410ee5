"""Xiangqi engine seats: ``uci:COMMAND`` (Pikafish, Fairy-Stockfish) and ``ucci:COMMAND`` (ElephantEye).

The engine is started once, in the seat's folder, and kept running.  Each turn the
seat sends the game so far (``position fen START moves ...``) and ``go``, and reads
``bestmove``.

Settings go after the command as ``KEY=VALUE`` words (only trailing ones are taken,
so the engine's own arguments pass untouched):

* ``movetime=MS``: thinking time per move in milliseconds (default 3000, about
  ``bot:5``'s pace; never more than half the time the match still allows, nor a
  thirtieth of a timed clock);
* ``depth=N``: search N plies instead (``go depth N``); ``nodes=N``: N nodes
  (``go nodes N``).  The arena waits for the answer as long as the match allows, or
  ``maxtime=S`` seconds (default 900, the contest's limit for one move) when it is
  untimed; a ``stop`` it had to send is noted in the record;
* ``clock=auto|on|off``: send the clocks instead of a fixed time, UCI
  ``go wtime W btime B winc I binc I`` and UCCI ``go time T increment I opptime O
  oppincrement I`` (``inc=MS`` per move, default 0), so the engine plans its own time
  as it would in a tournament.  ``auto`` (default): when the match is timed
  (``xiangqi referee --seconds N``) and no ``movetime``, ``depth`` or ``nodes`` is given;
* ``ranks=0|1|auto``: how the engine numbers ranks.  Pikafish and ElephantEye use
  0-9 like the contest (``h2e2``); Fairy-Stockfish uses 1-10 (``h3e3``).  ``auto``
  (default) picks 1-10 when the engine calls itself Fairy-Stockfish or offers the
  ``UCI_Variant`` option;
* ``variant=NAME``: sent as ``setoption name UCI_Variant value NAME`` when the engine
  offers that option (default ``xiangqi``);
* ``option.NAME=VALUE``: any other engine option (``option.Threads=2``);
* ``handshake=S``: seconds the engine has to answer ``uci``/``ucci`` and ``isready``
  (default 60: an engine still loading on a busy machine is not a crash).  One that
  does not is named so ("no uciok within 60 s") and the match is not played;
* ``clock=wall|cpu``: how its answers are charged (see :func:`runner.seats.seat_clock`):
  ``cpu`` counts the CPU time of the engine's whole process tree during the turn,
  within a wall cap of 3x the limit + 1 s.  (``clock=auto|on|off`` is the above.)

The same limits may come in the seat's ``limits`` mapping.  ``ucci`` sends
``go time MS movestogo 1`` for a per-move time (UCCI 3.0 counts milliseconds;
``timeunit=s`` sends seconds for older engines).

Verdicts: no ``bestmove`` in time (after ``stop`` and a short grace) is a time-out;
an engine that exits is a crash; ``bestmove (none)``, ``bestmove 0000`` or UCCI's
``nobestmove`` resigns; a move the rules reject is an illegal move (the runner's).
"""
from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any, Mapping

from games.api import GameSetupError, Message, Termination
from games.xiangqi.rules import SINGLE_MOVE_LIMIT_SECONDS, START_FEN
from runner.line_seat import HANDSHAKE_SECONDS, LineSeat  # HANDSHAKE_SECONDS: the default (handshake=S)
from runner.process import TurnDeadline, resolve_command, split_command
from runner.sandbox import seat_sandbox
from runner.seats import Answer, SeatInfo

STOP_GRACE = 1.0
#: A move's thinking time when nothing else is said: about what ``bot:5`` takes (its
#: pace is 4 s, and it stops deepening once half of it is gone), so engine and bot
#: games are comparable by default.
DEFAULT_MOVETIME_MS = 3000
#: The most principal-variation moves kept per answer, and the longest engine name or author.
MAX_PV = 24
MAX_ID_CHARS = 120
SETTING_KEYS = ("movetime", "depth", "nodes", "clock", "inc", "maxtime", "ranks", "variant", "timeunit",
                "handshake")
_SETTING_RE = re.compile(r"^(movetime|depth|nodes|clock|inc|maxtime|ranks|variant|timeunit|handshake"
                         r"|option\.[^=]+)=(.*)$")
#: The values of ``clock=`` that choose how answers are charged, not how the engine is told.
CHARGE_CLOCKS = ("wall", "cpu")
_MOVE_RE = re.compile(r"^([a-i])(\d{1,2})([a-i])(\d{1,2})$")


def _positive_seconds(value, default: float, name: str) -> float:
    """A setting of seconds (``handshake=60``), or GameSetupError naming it."""
    if value in (None, ""):
        return default
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        seconds = -1.0
    if not 0 < seconds < 1e6:
        raise GameSetupError(Message("{name}={value}: expected a number of seconds above 0",
                                     name=name, value=str(value)))
    return seconds


def split_engine_spec(command: str) -> tuple[list[str], dict[str, str]]:
    """``"pikafish movetime=500"`` -> (["pikafish"], {"movetime": "500"})."""
    argv = split_command(command)
    settings: dict[str, str] = {}
    while len(argv) > 1 and _SETTING_RE.match(argv[-1]):
        key, value = _SETTING_RE.match(argv.pop()).groups()
        settings.setdefault(key, value)
    return argv, settings


def to_engine_move(move: str, rank_base: int) -> str:
    """Contest ICCS (``H2E2``) to the engine's text (``h2e2`` or, 1-based, ``h3e3``)."""
    text = move.lower()
    return f"{text[0]}{int(text[1]) + rank_base}{text[2]}{int(text[3]) + rank_base}"


def from_engine_move(text: str, rank_base: int) -> str | None:
    """The engine's move text to contest ICCS, or None when it is not a board move."""
    match = _MOVE_RE.match(text.strip().lower())
    if not match:
        return None
    f1, r1, f2, r2 = match.groups()
    r1, r2 = int(r1) - rank_base, int(r2) - rank_base
    if not (0 <= r1 <= 9 and 0 <= r2 <= 9):
        return None
    return f"{f1}{r1}{f2}{r2}".upper()


class EngineSeat(LineSeat):
    """A UCI or UCCI engine playing one side."""

    protocol = "uci"
    quit_line = "quit"
    #: Engines count repetitions the usual way (the third occurrence); the contest's
    #: "first repeat ends the game" would end games they think are still on.  A match
    #: with an engine seat plays so unless ``--option repetition_count=2`` says otherwise
    #: (contest mode never seats engines).
    option_defaults = {"repetition_count": 3}

    def __init__(self, spec: str, command: str, limits: Mapping[str, Any] | None = None):
        argv, settings = split_engine_spec(command)
        self.settings = {**{k: str(v) for k, v in (limits or {}).items()
                            if k in SETTING_KEYS or k.startswith("option.")}, **settings}
        limits = dict(limits or {})
        if str(self.settings.get("clock", "")).lower() in CHARGE_CLOCKS:
            limits["clock"] = self.settings.pop("clock").lower()
        # At the arena's own priority (limits["nice"] may still set one): an engine
        # waits on its stdin between moves, so it never competes with the relay as a
        # contest program polling its move file does (PROGRAM_NICE); a nice of 10 made
        # each move wait for the CPU under load (bench/engine_overhead.py, load 23-28:
        # 190-280 ms a move more than a bare loop at nice 10, 30-50 ms at none).
        super().__init__(spec, Path(argv[0]).name, resolve_command(argv), limits,
                         seat_sandbox(limits))
        self.handshake_seconds = _positive_seconds(
            self.settings.get("handshake", self.limits.get("handshake")), HANDSHAKE_SECONDS, "handshake")
        self.rank_base = 0
        self.engine_name = ""
        self.engine_author = ""
        self.engine_options: list[str] = []
        self.variants: list[str] = []           # UCI_Variant's choices, when offered
        self.clock = lambda: (None, None)
        self._error = ""
        self._why = ""                          # how the last read ended without a line
        self._log: list[str] = []

    def attach_clock(self, clock, seconds: int) -> None:
        self.clock = clock

    # ------------------------------------------------------------------ start
    def start(self, info: SeatInfo, state) -> None:
        super().start(info, state)
        if not self.launch(info):
            self._error = self.start_error
            return
        if not self._handshake():
            self._error = self._error or Message("no {answer} from the engine", answer=f"{self.protocol}ok")
        elif self.engine_name:
            self.label = self.engine_name

    def _send(self, line: str) -> None:
        self._log.append("> " + line)
        self.send(line)

    def _read_until(self, done, seconds: "float | TurnDeadline") -> str | None:
        """Lines until one satisfies ``done`` (returned), or None on time-out or exit;
        ``seconds`` from now, or a turn's :class:`runner.process.TurnDeadline`.  A stopped
        match does not interrupt it: the engine is asked to ``stop`` at its deadline."""
        deadline = seconds if isinstance(seconds, TurnDeadline) else time.perf_counter() + seconds
        while True:
            line, self._why = self.read_line(deadline, cancellable=False)
            if line is None:
                return None
            self._log.append("< " + line)
            if done(line):
                return line

    def _handshake(self) -> bool:
        """``uci``/``ucci`` and ``isready``, each answered within :attr:`handshake_seconds`;
        False with :attr:`_error` naming what never came (and :attr:`handshake_failure`
        when it was still running, not refused or ended)."""
        self._send(self.protocol)
        ok = f"{self.protocol}ok"
        if self._read_until(lambda line: self._note_id(line) or line.strip() == ok,
                            self.handshake_seconds) is None:
            self._handshake_missed(ok)
            return False
        self.rank_base = self._rank_base()
        variant = self.settings.get("variant", "xiangqi")
        if "UCI_Variant" in self.engine_options:
            if self.variants and variant not in self.variants:
                # Otherwise it would quietly play its default variant (chess) on our board.
                self._error = (f"the engine does not offer the variant {variant!r} (UCI_Variant has "
                               f"{len(self.variants)} others; Fairy-Stockfish plays xiangqi only in "
                               "its largeboards build: make build largeboards=yes)")
                return False
            self._set_option("UCI_Variant", variant)
        for key, value in self.settings.items():
            if key.startswith("option."):
                self._set_option(key[len("option."):], value)
        self._send("isready")
        if self._read_until(lambda line: line.strip() == "readyok", self.handshake_seconds) is None:
            self._handshake_missed("readyok")
            return False
        return True

    def _handshake_missed(self, word: str) -> None:
        """The handshake's ``word`` never came: the engine was silent (the match is not
        played) or ended (a crash)."""
        if self.missed_handshake(word, self._why):
            self._error = self.handshake_failure
        else:
            self._error = Message("the engine ended before {word} ({how})", word=word, how=self._exit_text())

    def _note_id(self, line: str) -> bool:
        words = line.split()
        if words[:2] == ["id", "name"]:
            self.engine_name = " ".join(words[2:])[:MAX_ID_CHARS]
        elif words[:2] == ["id", "author"]:
            self.engine_author = " ".join(words[2:])[:MAX_ID_CHARS]
        elif words[:1] == ["option"]:
            name = re.match(r"option\s+(?:name\s+)?(\S+)", line)
            if name:
                self.engine_options.append(name.group(1))
                if name.group(1) == "UCI_Variant":
                    self.variants = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "var"]
        return False

    def _rank_base(self) -> int:
        choice = self.settings.get("ranks", "auto").lower()
        if choice in ("0", "1"):
            return int(choice)
        fairy = "fairy" in self.engine_name.lower() or "UCI_Variant" in self.engine_options
        return 1 if fairy else 0

    def _set_option(self, name: str, value: str) -> None:
        if self.protocol == "ucci":
            self._send(f"setoption {name} {value}")
        else:
            self._send(f"setoption name {name} value {value}")

    # ------------------------------------------------------------------ asking
    def ask(self, state, seat: int, time_limit: float | None) -> Answer:
        start = time.perf_counter()
        cpu_start = self.cpu_seconds()
        if self.process is None or self._error or self.process.exited:
            return Answer(failure=Termination.CRASH, detail=self._error or self._exit_text(),
                          stderr=self.turn_stderr())
        self._log = []
        moves = " ".join(to_engine_move(m, self.rank_base) for m in state.moves)
        start_fen = state.options.get("fen") or START_FEN
        self._send(f"position fen {start_fen}" + (f" moves {moves}" if moves else ""))
        go, budget = self._go_command(seat, time_limit)
        self._send(go)
        if time_limit is not None:     # by the seat's clock (CPU: within a wall cap)
            wait = self.turn_deadline(max(0.1, time_limit - (time.perf_counter() - start)), cpu_start)
        elif budget is not None:
            wait = budget + 5.0
        else:       # depth or nodes, untimed: as long as the contest allows one move
            wait = float(self.settings.get("maxtime", SINGLE_MOVE_LIMIT_SECONDS))
        line = self._read_until(self._is_best, wait)
        stopped = ""
        if line is None and not self.process.exited:
            self._send("stop")
            line = self._read_until(self._is_best, STOP_GRACE)
            stopped = Message("the arena sent 'stop' after {seconds} s ({limit} for '{command}')",
                              seconds=f"{time.perf_counter() - start:.1f}", command=go,
                              limit="the time limit" if time_limit is not None else "maxtime")
        answer = Answer(elapsed=time.perf_counter() - start, given="\n".join(
            x[2:] for x in self._log if x.startswith("> ")), answered=self._answered_text(),
            stderr=self.turn_stderr(), debug=self.turn_debug(),
            debug_source="# debug lines")
        self.charge_turn(answer, answer.elapsed, cpu_start)
        if stopped:
            answer.notes.append(stopped)
        if line is None:
            if self.process.exited:
                answer.failure, answer.detail = Termination.CRASH, self._exit_text()
            else:
                answer.failure, answer.detail = Termination.TIMEOUT, Message("no bestmove in time")
            return answer
        return self._read_best(line, answer)

    def clock_mode(self, seat: int) -> bool:
        """Send the clocks (``wtime``/``btime``, UCCI ``time``/``opptime``) rather than a
        fixed time: with ``clock=on``, or by default when the match is timed and no
        ``movetime``, ``depth`` or ``nodes`` was given."""
        choice = self.settings.get("clock", "auto").lower()
        timed = self.clock()[seat] is not None
        if choice in ("on", "1", "yes", "true"):
            return timed
        if choice in ("off", "0", "no", "false"):
            return False
        return timed and not any(k in self.settings for k in ("movetime", "depth", "nodes"))

    def _go_command(self, seat: int, time_limit: float | None) -> tuple[str, float | None]:
        """The ``go`` line and the seconds the engine is expected to take (None: unbounded)."""
        if "depth" in self.settings:
            return f"go depth {int(self.settings['depth'])}", None
        if "nodes" in self.settings:
            return f"go nodes {int(self.settings['nodes'])}", None
        if self.clock_mode(seat):
            left = self.clock()
            mine, theirs = max(0.0, left[seat]), max(0.0, left[seat ^ 1])
            inc = float(self.settings.get("inc", 0) or 0) / 1000
            if self.protocol == "ucci":
                unit = (lambda x: max(1, round(x))) if self.settings.get("timeunit") == "s" else \
                    (lambda x: max(1, int(x * 1000)))
                return (f"go time {unit(mine)} increment {unit(inc) if inc else 0} "
                        f"opptime {unit(theirs)} oppincrement {unit(inc) if inc else 0}"), mine
            red, black = (mine, theirs) if seat == 0 else (theirs, mine)
            inc_ms = int(inc * 1000)
            return (f"go wtime {max(1, int(red * 1000))} btime {max(1, int(black * 1000))} "
                    f"winc {inc_ms} binc {inc_ms}"), mine
        seconds = float(self.settings.get("movetime", DEFAULT_MOVETIME_MS)) / 1000
        left = self.clock()[seat]
        if left is not None:
            seconds = min(seconds, max(0.05, left / 30))
        if time_limit is not None:
            seconds = min(seconds, time_limit * 0.5)
        ms = max(1, int(seconds * 1000))
        if self.protocol == "ucci":
            amount = max(1, round(seconds)) if self.settings.get("timeunit") == "s" else ms
            return f"go time {amount} movestogo 1", seconds
        return f"go movetime {ms}", seconds

    @staticmethod
    def _is_best(line: str) -> bool:
        word = line.split()[:1]
        return word in (["bestmove"], ["nobestmove"])

    def _answered_text(self) -> str:
        received = [x[2:] for x in self._log if x.startswith("< ")]
        infos = [x for x in received if x.startswith("info")]
        rest = [x for x in received if not x.startswith("info")]
        return "\n".join(infos[-1:] + rest)

    def _read_best(self, line: str, answer: Answer) -> Answer:
        words = line.split()
        if words[0] == "nobestmove" or len(words) < 2 or words[1] in ("(none)", "0000", "resign"):
            answer.failure, answer.detail = Termination.RESIGNATION, Message("the engine gave up ({line})",
                                                                            line=line.strip())
            return answer
        move = from_engine_move(words[1], self.rank_base)
        if move is None:
            answer.failure = Termination.BAD_FILE
            answer.detail = Message("bestmove {move} is not a move (ranks counted from {base})",
                                    move=repr(words[1]), base=self.rank_base)
            return answer
        answer.text = move
        answer.search = search_info([x[2:] for x in self._log if x.startswith("< info")], self.rank_base)
        return answer

    def _exit_text(self) -> str:
        code = self.process.proc.returncode if self.process else None
        return Message("the engine ended (exit code {code})", code=code)

    def close(self) -> None:
        super().close()
        self.process = None     # its pipes are let go now, not when the cycle collector runs

    def describe(self) -> dict:
        data = super().describe()
        sandbox = data.pop("sandbox")           # the record's order: command, protocol, settings, sandbox
        data.update(protocol=self.protocol, settings=dict(self.settings), sandbox=sandbox)
        if self.charge_clock != "wall":
            data["clock"] = self.charge_clock
        if self.engine_name:
            data["engine"] = self.engine_name
        if self.engine_author:
            data["author"] = self.engine_author
        return data


def search_info(lines: list[str], rank_base: int) -> dict:
    """What the engine's ``info`` lines say its search reached, the latest of each.

    UCI: ``info depth 12 seldepth 18 score cp 34 nodes 9000 pv h3e3 h10g8``; UCCI
    (ElephantEye): ``info depth 8 score 34 pv h2e2 h9g7``.  ``score`` is kept as text
    (``cp 34``, ``mate 3``; a bare UCCI number becomes ``cp N``), ``pv`` as contest
    moves (``H2E2``), up to the first word that is not a board move.  Whatever an
    engine prints, at most :data:`MAX_PV` moves are kept.
    """
    found: dict[str, Any] = {}
    for line in lines:
        words = line.split()
        if words[1:2] == ["string"]:        # free text: its words are not search figures
            continue
        for index, word in enumerate(words):
            following = words[index + 1] if index + 1 < len(words) else ""
            if word in ("depth", "seldepth", "nodes") and following.isdigit():
                found[word] = int(following)
            elif word == "score" and following:
                if following in ("cp", "mate") and index + 2 < len(words):
                    value = words[index + 2]
                    if re.fullmatch(r"-?\d+", value):
                        found["score"] = f"{following} {int(value)}"
                elif re.fullmatch(r"-?\d+", following):
                    found["score"] = f"cp {int(following)}"
            elif word == "pv":
                pv = []
                for text in words[index + 1:index + 1 + MAX_PV]:
                    move = from_engine_move(text, rank_base)
                    if move is None:
                        break
                    pv.append(move)
                if pv:
                    found["pv"] = pv
                break
    return found


class UciEngineSeat(EngineSeat):
    """Pikafish, Fairy-Stockfish and other UCI engines."""

    kind = protocol = "uci"


class UcciEngineSeat(EngineSeat):
    """ElephantEye and other UCCI engines."""

    kind = protocol = "ucci"


def make_uci_seat(spec: str, command: str, limits: Mapping[str, Any] | None = None) -> EngineSeat:
    """``uci:COMMAND [KEY=VALUE ...]``: Pikafish, Fairy-Stockfish."""
    return UciEngineSeat(spec, command, limits)


def make_ucci_seat(spec: str, command: str, limits: Mapping[str, Any] | None = None) -> EngineSeat:
    """``ucci:COMMAND [KEY=VALUE ...]``: ElephantEye."""
    return UcciEngineSeat(spec, command, limits)
