"""Robot programs: run once per turn in their own folder (MAP.INP -> MOVE.OUT, STATE.DAT kept).

Per turn: MAP.INP is written and the previous MOVE.OUT removed; the program runs (2 s
wall time unless the match sets a limit; optional memory cap); MOVE.OUT is read; every
file the program created is deleted except MOVE.OUT and STATE.DAT.  A crash, a time-out,
a missing or unreadable MOVE.OUT come back as a failed answer; the referee then plays
the game's default move (stay in place) and records why.  The running is
:class:`runner.program_seats.RunEachTurnSeat`'s; this module only names the files.

A MOVE.OUT the organizers' referee would read otherwise gets a warning in the answer's
notes (shown in the record and the debug panel); with ``compat = organizers`` it is
read as theirs reads it.

Limits (all optional): ``time`` (seconds when the match gives no per-move limit),
``memory_mb``, ``folder`` (run the program there instead of its fresh folder),
``sequential`` (true: run one program at a time across all seats).
"""
from __future__ import annotations

from typing import Any, Mapping

from games.api import Message, State, Termination
from games.robot.protocol import MAX_MOVE_BYTES, organizers_warning, parse_move_out, write_map_inp
from games.robot.rules import format_move_text
from runner.program_seats import FileProtocol, RunEachTurnSeat
from games.seat import Answer, SeatInfo

ROBOT_FILES = FileProtocol(
    inputs=lambda state, seat: {"MAP.INP": write_map_inp(state, seat)},
    output="MOVE.OUT",
    parse=lambda text: format_move_text(parse_move_out(text)),
    kept=("STATE.DAT",),
    default_time=2.0,
    max_output_bytes=MAX_MOVE_BYTES)


class RobotProgramSeat(RunEachTurnSeat):
    """A Robot program: a MOVE.OUT the organizers' referee would read otherwise (a
    comma, several or leading spaces, no final newline) gets a warning in the answer's
    notes; with option ``compat = organizers`` it is read as their referee reads it:
    no move (the robot stays, or is placed at random)."""

    strict = False

    def start(self, info: SeatInfo, state: State) -> None:
        super().start(info, state)
        self.strict = info.options.get("compat") == "organizers"

    def read_move(self, answer: Answer) -> Answer:
        answer = super().read_move(answer)
        if answer.failure is None:
            warning = organizers_warning(answer.answered)
            if warning and self.strict:
                answer.failure, answer.detail = Termination.BAD_FILE, Message("{warning} (compat=organizers)", warning=warning)
                answer.text = None
            elif warning:
                answer.notes.append(warning)
        return answer


def make_external_seat(spec: str, command: str,
                       limits: Mapping[str, Any] | None = None) -> RunEachTurnSeat:
    """The plugin's ``external`` factory (``ext:COMMAND`` seats)."""
    return RobotProgramSeat(spec, command, ROBOT_FILES, limits)
