"""Tam Quan programs: run once per team turn in their own folder (STATE.INP -> MOVE.OUT).

Per turn (setup placements included): STATE.INP is written and the previous MOVE.OUT
removed; the program runs (2 s wall time unless the match sets a limit); MOVE.OUT is
read; every file the program created is deleted except MOVE.OUT and STATE.DAT.  A
crash, a time-out, a missing or unreadable MOVE.OUT, or an illegal move come back as a
failed answer; the referee then plays the game's repair (the valid answered steps
kept, every other member's first free step in reading order) and records why.  The
running is :class:`runner.program_seats.RunEachTurnSeat`'s; this module names the files.
"""
from __future__ import annotations

from typing import Any, Mapping

from games.tamquan.protocol import MAX_MOVE_BYTES, move_text_of, write_state_inp
from runner.program_seats import FileProtocol, RunEachTurnSeat

TAMQUAN_FILES = FileProtocol(
    inputs=lambda state, seat: {"STATE.INP": write_state_inp(state, seat)},
    output="MOVE.OUT",
    parse=move_text_of,
    kept=("STATE.DAT",),
    default_time=2.0,
    max_output_bytes=MAX_MOVE_BYTES)


def make_external_seat(spec: str, command: str,
                       limits: Mapping[str, Any] | None = None) -> RunEachTurnSeat:
    """The plugin's ``external`` factory (``ext:COMMAND`` seats)."""
    return RunEachTurnSeat(spec, command, TAMQUAN_FILES, limits)
