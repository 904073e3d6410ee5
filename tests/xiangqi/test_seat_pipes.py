"""Xiangqi's program and engine seats let go of their pipes when the match closes, not
when the cycle collector runs: with ``gc`` disabled the arena's open files return to
where they were after each match."""
import gc
import os
import sys
import time
from pathlib import Path

import pytest

from games.xiangqi import PLUGIN
from runner.match import Match, TimeControl
from runner.seats import make_seat

PROGRAMS = Path(__file__).resolve().parent / "programs"
SEATS = {
    "program": f"ext:{sys.executable} {PROGRAMS / 'random_mover.py'} --seed 2 --poll 0.01",
    "uci": f"uci:{sys.executable} {PROGRAMS / 'fake_engine.py'} --seed 3",
    "ucci": f"ucci:{sys.executable} {PROGRAMS / 'fake_engine.py'} --ucci --seed 4",
}


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def settled_open_files(ceiling: int, seconds: float = 5.0) -> int:
    """The open files once they are back at ``ceiling`` or ``seconds`` have passed: in
    one full-suite run the count was 4 over just after a match, and the seats' threads
    may close their ends a moment after the match returns (the collector stays off, so
    only the seats' own closing counts)."""
    deadline = time.monotonic() + seconds
    while open_files() > ceiling and time.monotonic() < deadline:
        time.sleep(0.05)
    return open_files()


def play(tmp_path: Path, first: str, second: str, number: int) -> None:
    folder = tmp_path / f"m{number}"
    seats = [make_seat(SEATS[first], PLUGIN, 1, limits={"poll": 0.01}),
             make_seat(SEATS[second], PLUGIN, 2, limits={"poll": 0.01})]
    match = Match(PLUGIN, {"no_capture_limit": 6, "time_total": 30}, seats, seed=number,
                  record_path=folder.with_suffix(".arena.jsonl"),
                  time_control=TimeControl(per_move=5.0, total=30.0), workdir=folder)
    match.run()
    assert match.turns, "no move was played"


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts open files through /proc")
def test_seats_close_their_pipes_without_the_cycle_collector(tmp_path):
    play(tmp_path, "program", "uci", 0)         # warm up: imports, the guard, caches
    gc.collect()
    gc.disable()
    try:
        before = open_files()
        for number, (first, second) in enumerate(
                [("program", "uci"), ("ucci", "program"), ("program", "program")], start=1):
            play(tmp_path, first, second, number)
            assert settled_open_files(before) <= before, (first, second, sorted(os.listdir("/proc/self/fd")))
    finally:
        gc.enable()
