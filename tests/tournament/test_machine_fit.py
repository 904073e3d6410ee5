"""Tournaments that fit the machine: by default as many matches at once as the cores
hold the programs thinking at once in a match (at least 1); asking for more is warned
about in the log and the event folder; and when more programs think at once than there
are cores, answers are charged CPU time (``clock = cpu``), said in the log and the
standings' header."""
import json
import os
from pathlib import Path

from runner import tournament
from runner.tournament import event_from_dict, fit_to_machine

TINY_MAP = "5 5 2\n" + ".....\n" * 5


def hex_event(folder: Path, **extra) -> dict:
    return {"name": "fit", "game": "hex", "variant": "5x5", "seed": 3,
            "contestant": [{"name": "a", "seat": "bot:1"}, {"name": "b", "seat": "bot:1"}], **extra}


def robot_event(folder: Path, **extra) -> dict:
    (folder / "tiny.txt").write_text(TINY_MAP)
    return {"name": "fit", "game": "robot", "format": "all-in", "rounds": 1, "seed": 3,
            "options": {"map": "tiny.txt", "respawn": "off"},
            "contestant": [{"name": f"r{i}", "seat": "bot:1"} for i in range(4)], **extra}


def test_the_default_concurrency_is_the_cores_over_the_programs_thinking_at_once(tmp_path):
    event = event_from_dict(hex_event(tmp_path), tmp_path)
    fit_to_machine(event, cores=8)
    assert event.concurrency == 8 and event.clock == "wall" and not event.warnings
    robot = event_from_dict(robot_event(tmp_path), tmp_path)
    fit_to_machine(robot, cores=8)
    assert robot.concurrency == 2 and robot.clock == "wall"      # 4 robots think at once
    small = event_from_dict(robot_event(tmp_path), tmp_path)
    fit_to_machine(small, cores=2)
    assert small.concurrency == 1                                 # at least one match
    assert small.clock == "cpu" and small.limits["clock"] == "cpu"
    assert any("clock cpu" in note and "> 2 cores" in note for note in small.machine_notes)


def test_a_concurrency_above_the_cores_is_warned_about_and_charges_cpu_time(tmp_path):
    event = event_from_dict(hex_event(tmp_path, concurrency=4), tmp_path)
    fit_to_machine(event, cores=2)
    assert event.concurrency == 4
    assert len(event.warnings) == 1 and "concurrency 4 is more than this machine fits" in event.warnings[0]
    assert event.clock == "cpu"


def test_a_chosen_clock_is_kept(tmp_path):
    event = event_from_dict(hex_event(tmp_path, concurrency=4, time={"clock": "wall"}), tmp_path)
    fit_to_machine(event, cores=2)
    assert event.clock == "wall" and "clock" not in event.limits and event.warnings


def test_the_event_folder_log_and_standings_say_how_the_event_fits(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    event = event_from_dict(hex_event(tmp_path, concurrency=3), tmp_path, tmp_path / "out")
    log: list[str] = []
    table = tournament.run_event(event, log=log.append)
    assert any(line.startswith("WARNING: concurrency 3") for line in log)
    assert any(line.startswith("clock cpu") for line in log)
    saved = json.loads((tmp_path / "out" / "event.json").read_text())
    assert saved["clock"] == "cpu" and saved["warnings"][0].startswith("WARNING: concurrency 3")
    header = tournament.standings_text(table).splitlines()
    assert "clock cpu" in header[0] and header[1].startswith("clock cpu")
    assert json.loads((tmp_path / "out" / "standings.json").read_text())["clock"] == "cpu"
