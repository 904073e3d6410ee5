"""The Robot judge: runs a contestant's program once per turn in its own folder.

Per turn (RULEBOOK §2 "Files"): write MAP.INP, remove the previous MOVE.OUT, run the
program (2 s wall time by default; optional memory cap), read MOVE.OUT, then delete
every file the program created except MOVE.OUT and STATE.DAT.  A crash, a time-out,
a missing or unreadable MOVE.OUT come back as an :class:`Answer` with ``failure`` set;
the match runner then plays the game's default move (stay in place) and records why.

Limits (all optional): ``time`` (seconds, default 2.0, used when the match gives no
per-move limit), ``memory_mb``, ``folder`` (run the program there instead of the
seat's folder), ``sequential`` (true: run one program at a time across all seats).
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Mapping

from games.api import MoveSyntaxError, Termination
from games.fileio import remove_new_files, snapshot_files
from games.robot.protocol import MAX_MOVE_BYTES, parse_move_out, write_map_inp
from games.robot.rules import format_move_text
from runner.process import absolute_command, run_once
from runner.seats import Answer, Seat, SeatFolder, SeatInfo

DEFAULT_TIME = 2.0
KEPT_FILES = ("MOVE.OUT", "STATE.DAT")
_ONE_AT_A_TIME = threading.Lock()




class RobotProgramSeat(Seat):
    """An external program speaking MAP.INP / MOVE.OUT."""

    kind = "ext"

    def __init__(self, spec: str, command: str, workdir: str | None = None,
                 limits: Mapping[str, Any] | None = None):
        super().__init__(spec, label=command)
        self.limits = dict(limits or {})
        self.argv = absolute_command(command, Path.cwd())
        self.workspace = SeatFolder(self.limits, workdir, "robot")
        self.folder: Path | None = None

    def start(self, info: SeatInfo, state) -> None:
        super().start(info, state)
        self.folder = self.workspace.choose(info)
        self.folder.mkdir(parents=True, exist_ok=True)
        for name in ("MAP.INP", "MOVE.OUT"):
            (self.folder / name).unlink(missing_ok=True)

    def ask(self, state, seat: int, time_limit: float | None) -> Answer:
        limit = time_limit if time_limit is not None else float(self.limits.get("time", DEFAULT_TIME))
        given = write_map_inp(state, seat)
        folder = self.folder
        move_file = folder / "MOVE.OUT"
        move_file.unlink(missing_ok=True)
        _write_text(folder / "MAP.INP", given)
        before = snapshot_files(folder)
        if self.limits.get("sequential"):
            with _ONE_AT_A_TIME:
                result = run_once(self.argv, folder, limit, self.limits.get("memory_mb"))
        else:
            result = run_once(self.argv, folder, limit, self.limits.get("memory_mb"))
        answer = Answer(elapsed=result.elapsed, given=given, stdout=result.stdout,
                        stderr=result.stderr)
        answered, problem = _read_move_file(move_file)
        answer.answered = answered
        removed = remove_new_files(folder, before, KEPT_FILES)
        if removed:
            answer.notes.append("deleted files the program created: " + ", ".join(removed[:10])
                                + (" ..." if len(removed) > 10 else ""))
        if result.timed_out:
            answer.failure, answer.detail = Termination.TIMEOUT, result.describe()
        elif result.crashed:
            answer.failure, answer.detail = Termination.CRASH, result.describe()
        elif problem:
            answer.failure, answer.detail = Termination.BAD_FILE, problem
        else:
            try:
                answer.text = format_move_text(parse_move_out(answered))
            except MoveSyntaxError as exc:
                answer.failure, answer.detail = Termination.BAD_FILE, f"MOVE.OUT: {exc}"
        return answer

    def close(self) -> None:
        self.workspace.release()

    def describe(self) -> dict:
        data = super().describe()
        data["command"] = self.argv
        return data


def _write_text(path: Path, text: str) -> None:
    """Write MAP.INP plainly: the program starts only after this returns, so the
    rename-and-fsync of ``atomic_write`` would only cost time (several ms a turn)."""
    with open(path, "w", encoding="ascii", newline="\n") as fh:
        fh.write(text)


def _read_move_file(path: Path) -> tuple[str, str]:
    """MOVE.OUT's text (bounded) and a problem sentence, or "" when it reads fine."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_MOVE_BYTES + 1)
    except FileNotFoundError:
        return "", "the program wrote no MOVE.OUT"
    except OSError as exc:
        return "", f"MOVE.OUT could not be read: {exc.strerror}"
    text = raw[:MAX_MOVE_BYTES].decode("utf-8", "replace")
    if len(raw) > MAX_MOVE_BYTES:
        return text[:200] + " [...]", f"MOVE.OUT is larger than {MAX_MOVE_BYTES} bytes"
    if b"\0" in raw:
        return text[:200], "MOVE.OUT holds binary data"
    return text, ""


def make_external_seat(spec: str, command: str, workdir: str | None = None,
                       limits: Mapping[str, Any] | None = None) -> RobotProgramSeat:
    """The plugin's ``external`` factory (``ext:COMMAND`` seats)."""
    return RobotProgramSeat(spec, command, workdir, limits)
