"""Noticing a contest program's finished move file at once (file-system notifications),
without ever taking half a file; the poll fallback; ``arena match --poll``."""
import os
import shlex
import sys
import threading
import time
from pathlib import Path

import pytest

from games.filewatch import FileWatch
from games.xiangqi import PLUGIN
from games.xiangqi.program import ContestProgramSeat, MoveFileSeat

PROGRAMS = Path(__file__).resolve().parent / "programs"
MOVER = PROGRAMS / "random_mover.py"
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="inotify (file-system notifications) is Linux's")


def later(seconds, action):
    """Run ``action`` in a thread after ``seconds``; returns the thread."""
    thread = threading.Thread(target=lambda: (time.sleep(seconds), action()), daemon=True)
    thread.start()
    return thread


def seat_watching(folder: Path, **limits) -> MoveFileSeat:
    """A move-file seat on ``folder/M1.DAT`` without a program (the test writes the file)."""
    seat = MoveFileSeat("ext:test", limits=limits)
    seat.own_file, seat.relay_file, seat.side = folder / "M1.DAT", folder / "M2.DAT", 0
    return seat


def state():
    game = PLUGIN.new_game()
    return game.new_initial_state(game.spec.resolve_options(None, {}), 0)


def write_plain(path: Path, text: str) -> None:
    with open(path, "w") as fh:
        fh.write(text)


@linux_only
def test_a_watch_wakes_at_once_and_knows_an_open_file_from_a_closed_one(tmp_path):
    with FileWatch(tmp_path, ["M1.DAT"]) as watch:
        assert watch.notifies
        assert not watch.wait(0.05)                      # nothing happened
        (tmp_path / "other.txt").write_text("x")
        assert not watch.wait(0.05)                      # not one of ours
        fh = open(tmp_path / "M1.DAT", "w")
        fh.write("A6A5\n")
        fh.flush()
        began = time.perf_counter()
        assert watch.wait(5.0) and watch.writing         # modified, still open
        assert time.perf_counter() - began < 1.0
        fh.close()
        assert watch.wait(5.0) and not watch.writing     # closed: complete
        tmp = tmp_path / ".M1.tmp"
        tmp.write_text("A5A4\n")
        watch.drain()
        os.replace(tmp, tmp_path / "M1.DAT")
        assert watch.wait(5.0) and not watch.writing     # renamed into place: complete


def test_without_notifications_a_watch_just_sleeps(tmp_path):
    with FileWatch(tmp_path, ["M1.DAT"], use_notifications=False) as watch:
        assert not watch.notifies
        began = time.perf_counter()
        assert watch.wait(0.02)
        assert time.perf_counter() - began >= 0.015


@linux_only
def test_a_link_in_the_folders_place_is_not_watched(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with FileWatch(tmp_path / "link", ["M1.DAT"]) as watch:
        assert not watch.notifies                        # falls back to polling


@linux_only
def test_a_finished_move_is_noticed_at_once_whatever_the_poll(tmp_path):
    """poll=5 s: a seat that still polled would answer after 5 s or more."""
    seat = seat_watching(tmp_path, poll=5.0)
    writer = later(0.2, lambda: write_plain(tmp_path / "M1.DAT", "h2e2\n"))
    began = time.perf_counter()
    answer = seat.ask(state(), 0, 30.0)
    took = time.perf_counter() - began
    writer.join()
    seat.close()
    assert answer.failure is None and answer.text == "H2E2"
    assert took < 1.5, f"noticed after {took:.2f} s"


def test_without_notifications_the_fast_poll_finds_the_move(tmp_path):
    seat = seat_watching(tmp_path, notify="off")
    writer = later(0.1, lambda: write_plain(tmp_path / "M1.DAT", "h2e2\n"))
    answer = seat.ask(state(), 0, 30.0)
    writer.join()
    assert answer.text == "H2E2"
    assert seat.watch is not None and not seat.watch.notifies and seat.poll == 0.005


@linux_only
def test_a_file_still_open_for_writing_is_not_taken_half_written(tmp_path):
    """The writer writes "H2", waits, then "E2" and closes: only the whole move counts."""
    seat = seat_watching(tmp_path, poll=0.3)
    path = tmp_path / "M1.DAT"

    def slow_writer():
        with open(path, "w") as fh:
            fh.write("H2")
            fh.flush()
            time.sleep(0.15)                 # shorter than the poll: the two looks differ
            fh.write("E2\n")

    writer = later(0.05, slow_writer)
    answer = seat.ask(state(), 0, 30.0)
    writer.join()
    seat.close()
    assert answer.failure is None, answer.detail
    assert answer.text == "H2E2"


class LateEventsWatch:
    """A watch whose events for the writer's create and first write are read only after
    the seat's first look (the race the CI once hit): the first look sees "H2" with the
    file seemingly complete; the events then say it is being written; the writer adds
    "E2" and closes it during the next wait."""

    notifies = True

    def __init__(self, path: Path):
        self.path, self.writing, self.waits = path, False, 0

    def drain(self) -> bool:
        return False

    def wait(self, timeout: float) -> bool:
        self.waits += 1
        if self.waits == 1:
            self.writing = True               # the create and modify events, read late
        elif self.waits == 2:
            write_plain(self.path, "H2E2\n")
            self.writing = False              # closed
        return True

    def close(self) -> None:
        pass


def test_a_half_written_file_seen_before_its_events_is_not_taken(tmp_path):
    seat = seat_watching(tmp_path, poll=0.1)
    write_plain(tmp_path / "M1.DAT", "H2")
    seat.watch = LateEventsWatch(tmp_path / "M1.DAT")
    answer = seat.ask(state(), 0, 30.0)
    assert answer.failure is None, answer.detail
    assert answer.text == "H2E2"


@linux_only
def test_a_file_held_open_is_taken_after_two_equal_looks_a_poll_apart(tmp_path):
    """A program that never closes its file (it only flushes) still gets its move taken."""
    seat = seat_watching(tmp_path, poll=0.1)
    path = tmp_path / "M1.DAT"
    fh = open(path, "w")
    try:
        writer = later(0.05, lambda: (fh.write("h2e2\n"), fh.flush()))
        began = time.perf_counter()
        answer = seat.ask(state(), 0, 30.0)
        took = time.perf_counter() - began
        writer.join()
    finally:
        fh.close()
        seat.close()
    assert answer.text == "H2E2"
    assert took >= 0.1, "a file still open was taken without the second look a poll later"


def test_match_command_hands_its_poll_setting_to_program_seats(tmp_path, monkeypatch):
    """``arena match --poll`` reaches the seats, as ``referee --poll`` and ``cc --poll`` do."""
    import main
    made = []
    real_init = ContestProgramSeat.__init__

    def recording_init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(ContestProgramSeat, "__init__", recording_init)
    mover = " ".join(shlex.quote(x) for x in (sys.executable, str(MOVER), "--seed", "1"))
    code = main.main(["match", "xiangqi", "--seat", f"ext:{mover}", "--seat", "bot:1", "--headless",
                      "--option", "no_capture_limit=2", "--poll", "0.25", "--seed", "1",
                      "--out", str(tmp_path)])
    assert code in (0, None)
    assert made and made[0].poll_setting == 0.25 and made[0].poll == 0.25
