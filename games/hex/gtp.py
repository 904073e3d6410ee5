"""GTP seats: a Hex engine (MoHex, Wolve, or any engine speaking GTP as Benzene does).

Seat spec ``gtp:COMMAND``.  The arena sends ``boardsize N`` (``boardsize N N`` if the
engine refuses the one-number form), ``clear_board``, the start position as ``play``
commands, the opponent's moves as ``play b|w CELL``, and ``genmove b|w`` on the
engine's turn; ``quit`` at the end.  After each ``genmove`` it asks ``showboard`` (if
the engine knows it) for the debug panel.

Colours and edges follow Benzene/HexGui: black moves first and connects top and
bottom; cells are named as in :mod:`games.hex.notation` (the board is transposed
relative to ours, so the engine's black connects our columns 1 and N, as our
player 1 must).  The first part of the module is pure string functions.
"""
from __future__ import annotations

import time
from typing import Mapping

from games.api import MoveSyntaxError, Outcome, Termination
from games.hex.notation import colour_of_seat, from_hexgui, to_hexgui
from games.hex.program import TIMEOUT_SLACK, ProgramChannel
from games.hex.rules import P1, P2, HexMove, HexState
from runner.process import resolve_command
from runner.sandbox import seat_sandbox
from runner.seats import Answer, Seat, SeatInfo, seat_folder

#: Seconds allowed for set-up commands (boardsize, play ...) and for showboard.
SETUP_TIMEOUT = 10.0
SHOWBOARD_TIMEOUT = 0.5


# ====================================================================== pure functions
def setup_commands(state: HexState) -> list[str]:
    """``clear_board`` then the start position's stones, alternating black and white."""
    blacks = [state.move_at(i) for i, v in enumerate(state.cells) if v == P1]
    whites = [state.move_at(i) for i, v in enumerate(state.cells) if v == P2]
    commands = ["clear_board"]
    for black, white in zip(blacks, whites):
        commands += [f"play b {to_hexgui(black)}", f"play w {to_hexgui(white)}"]
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


def parse_genmove(text: str) -> HexMove | None:
    """genmove's answer -> a move; None means the engine resigned."""
    word = text.split()[0].lower() if text.split() else ""
    if word == "resign":
        return None
    return from_hexgui(word)


# ====================================================================== the seat
class GtpHexSeat(Seat):
    """A GTP Hex engine on one seat."""

    kind = "gtp"

    needs_folder = True

    def __init__(self, spec: str, command: str, limits: Mapping | None = None):
        super().__init__(spec, label=f"GTP {command}")
        self.argv = resolve_command(command)
        self.limits = dict(limits or {})
        self.sandbox = seat_sandbox(self.limits)
        self.channel: ProgramChannel | None = None
        self.setup_error = ""
        self._given: list[str] = []
        self._cancelled = False
        self._last_failure = ""
        self._has_showboard = False

    def start(self, info: SeatInfo, state: HexState) -> None:
        super().start(info, state)
        self.channel = ProgramChannel(self.argv, str(seat_folder(info, self.limits)),
                                      sandbox=self.sandbox)
        if self.channel.error:
            self.setup_error = self.channel.error
            return
        n = state.size
        ok, text = self._command(f"boardsize {n}", SETUP_TIMEOUT)
        if not ok:
            ok, text = self._command(f"boardsize {n} {n}", SETUP_TIMEOUT)
        for command in setup_commands(state) if ok else ():
            ok, text = self._command(command, SETUP_TIMEOUT)
            if not ok:
                break
        if not ok:
            self.setup_error = f"the engine refused the set-up: {text or 'no answer'}"
            return
        ok, text = self._command("known_command showboard", SETUP_TIMEOUT)
        self._has_showboard = ok and text.strip().lower() == "true"

    def _command(self, line: str, timeout: float | None) -> tuple[bool, str]:
        """Send one command and read its response (up to the blank line)."""
        self._given.append(line)
        if not self.channel.send(line):
            return False, ""
        deadline = None if timeout is None else time.perf_counter() + timeout
        lines: list[str] = []
        while True:
            reply, why = self.channel.read(deadline, lambda: self._cancelled)
            if reply is None:
                self._last_failure = why
                return False, "\n".join(lines)
            if not reply.strip():
                if lines:
                    return parse_response(lines)
                continue
            if lines or reply[:1] in "=?":
                lines.append(reply)

    def observe(self, state: HexState, moves: Mapping[int, str]) -> None:
        opponent = 1 - self.info.seat
        if opponent in moves and self.channel and not self.setup_error:
            move = self.info.game.parse_move(moves[opponent])
            ok, text = self._command(play_command(opponent, move), SETUP_TIMEOUT)
            if not ok:
                self.setup_error = f"the engine refused {play_command(opponent, move)}: {text}"

    def ask(self, state: HexState, seat: int, time_limit: float | None) -> Answer:
        answer = Answer()
        if self.setup_error:
            answer.failure, answer.detail = Termination.CRASH, self.setup_error
            answer.given, self._given = "\n".join(self._given), []
            answer.stderr = self.channel.stderr() if self.channel else ""
            return answer
        start = time.perf_counter()
        self._last_failure = ""
        ok, text = self._command(genmove_command(seat),
                                 None if time_limit is None else time_limit + TIMEOUT_SLACK)
        answer.elapsed = time.perf_counter() - start
        answer.given, self._given = "\n".join(self._given), []
        answer.answered = text
        if not ok:
            self._fail(answer, text, time_limit)
        else:
            self._read_move(answer, text)
            if self._has_showboard:
                answer.stdout = self._showboard()
        answer.stderr = self.channel.stderr()
        return answer

    def _read_move(self, answer: Answer, text: str) -> None:
        try:
            move = parse_genmove(text)
        except MoveSyntaxError as exc:
            answer.failure, answer.detail = Termination.BAD_FILE, f"unreadable genmove answer: {exc}"
            return
        if move is None:
            answer.failure, answer.detail = Termination.RESIGNATION, "the engine resigned"
        else:
            answer.move, answer.text = move, move.text()

    def _fail(self, answer: Answer, text: str, time_limit: float | None) -> None:
        why = self._last_failure
        if why == "timeout":
            answer.failure = Termination.TIMEOUT
            answer.detail = f"no genmove answer within {time_limit:.2f} s; the engine was killed"
            self.channel.close(grace=0)
        elif why == "cancelled":
            answer.failure, answer.detail = Termination.ABORTED, "match stopped"
        elif why == "eof":
            answer.failure = Termination.CRASH
            answer.detail = f"the engine {self.channel.exit_description()} during genmove"
        else:
            answer.failure = Termination.BAD_FILE
            answer.detail = f"the engine answered genmove with an error: {text}"

    def _showboard(self) -> str:
        ok, text = self._command("showboard", SHOWBOARD_TIMEOUT)
        self._given.clear()
        return text if ok else ""

    def finish(self, outcome: Outcome) -> None:
        if self.channel and self.channel.alive:
            self.channel.send("quit")

    def cancel(self) -> None:
        self._cancelled = True

    def describe(self) -> dict:
        data = super().describe()
        data.update(command=self.argv, sandbox=self.sandbox.describe())
        return data

    def close(self) -> None:
        if self.channel:
            self.channel.close()


def make_gtp_seat(spec: str, command: str, limits: Mapping | None = None) -> GtpHexSeat:
    """The plugin's ``gtp`` seat factory."""
    return GtpHexSeat(spec, command, limits)
