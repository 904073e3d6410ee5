"""The long-lived line-protocol seat (:class:`runner.line_seat.LineSeat`) with a tiny fake
line program: how a handshake that never came, a program that ended, a turn past its
time and a stopped match each become a verdict, whatever the protocol's words."""
from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

from games.api import Termination
from runner.line_seat import LineSeat
from runner.seats import Answer, SeatInfo

PROGRAM = Path(__file__).resolve().parent / "programs" / "line_program.py"


class HelloSeat(LineSeat):
    """A protocol of two words: ``hello`` (the handshake, answered ``hi``) and ``go``."""

    quit_line = "quit"

    def start(self, info, state) -> None:
        super().start(info, state)
        if not self.launch(info):
            return
        self.send("hello")
        line, why = self.read_line(time.perf_counter() + self.handshake_seconds)
        if line is None:
            self.missed_handshake("hi", why)

    def ask(self, state, seat, time_limit) -> Answer:
        answer = Answer()
        start, cpu_start = time.perf_counter(), self.cpu_seconds()
        self.send("go")
        line, why = self.read_line(self.turn_deadline(time_limit))
        if line is None:
            self.failed(answer, why, "no move within {seconds} s", "the program {how} before its move",
                        time_limit)
        else:
            answer.text = line
        self.charge_turn(answer, time.perf_counter() - start, cpu_start)
        answer.stderr = self.turn_stderr()
        return answer


def seat_for(tmp_path: Path, mode: str, handshake: float = 5.0, command=None) -> HelloSeat:
    argv = command or [sys.executable, str(PROGRAM), mode]
    seat = HelloSeat(f"test:{mode}", mode, argv, {})
    seat.handshake_seconds = handshake
    seat.start(SeatInfo(game=None, options={}, seat=0, seats=2, seed=1, workdir=str(tmp_path)), None)
    return seat


def test_a_program_that_answers_plays_and_its_stderr_is_kept_per_turn(tmp_path):
    seat = seat_for(tmp_path, "ok")
    try:
        assert seat.handshake_failure == "" and seat.running
        first, second = seat.ask(None, 0, 10.0), seat.ask(None, 0, 10.0)
        assert (first.text, second.text) == ("move 1", "move 2") and first.failure is None
        assert first.stderr.strip() == "thinking 1" and second.stderr.strip() == "thinking 2"
        assert first.clock == "wall" and first.wall is not None and first.elapsed == first.wall
        assert seat.describe()["command"][-1] == "ok"
    finally:
        seat.close()
    assert seat.process.exited


def test_a_silent_handshake_is_named_and_the_match_not_played(tmp_path):
    seat = seat_for(tmp_path, "mute", handshake=0.5)
    try:
        assert seat.handshake_failure == "no hi within 0.5 s"
    finally:
        seat.close()


def test_a_program_that_ended_fails_no_handshake_and_loses_by_a_crash(tmp_path):
    seat = seat_for(tmp_path, "exit", handshake=30.0)
    try:
        assert seat.handshake_failure == ""
        answer = seat.ask(None, 0, 10.0)
        assert answer.failure is Termination.CRASH
        assert answer.detail == "the program exited with code 3 before its move"
    finally:
        seat.close()


def test_a_program_that_cannot_start_is_named_not_raised(tmp_path):
    seat = seat_for(tmp_path, "", command=[str(tmp_path / "no-such-program")])
    assert seat.process is None and not seat.running and seat.handshake_failure == ""
    assert seat.start_error.startswith(f"could not start {tmp_path / 'no-such-program'}: ")
    answer = seat.ask(None, 0, 1.0)
    assert answer.failure is Termination.CRASH and answer.detail == seat.start_error
    seat.close()


def test_a_turn_past_its_time_is_a_time_out_and_the_program_is_killed(tmp_path):
    seat = seat_for(tmp_path, "stall")
    try:
        started = time.perf_counter()
        answer = seat.ask(None, 0, 0.3)
        assert answer.failure is Termination.TIMEOUT and answer.detail == "no move within 0.30 s"
        assert 0.3 <= time.perf_counter() - started < 20
        deadline = time.monotonic() + 10
        while not seat.process.exited and time.monotonic() < deadline:
            time.sleep(0.05)
        assert seat.process.exited
    finally:
        seat.close()


def test_a_stopped_match_ends_a_wait_at_once_as_aborted(tmp_path):
    seat = seat_for(tmp_path, "stall")
    try:
        threading.Timer(0.3, seat.cancel).start()
        started = time.perf_counter()
        answer = seat.ask(None, 0, 60.0)
        assert answer.failure is Termination.ABORTED and answer.detail == "match stopped"
        assert time.perf_counter() - started < 20
        assert seat.read_line(None) == (None, "cancelled")
        assert not seat.process.exited            # a stop is no time-out: nothing killed here
    finally:
        seat.close()


@pytest.mark.parametrize("quoted", [False, True])
def test_each_protocol_keeps_its_own_words_for_a_command_that_cannot_start(tmp_path, quoted):
    missing = str(tmp_path / "absent")
    seat = HelloSeat("test", "absent", [missing], {})
    seat.quote_command = quoted
    assert not seat.launch(SeatInfo(game=None, options={}, seat=0, seats=2, seed=1, workdir=str(tmp_path)))
    shown = repr(missing) if quoted else missing
    assert seat.start_error.startswith(f"could not start {shown}: ")
