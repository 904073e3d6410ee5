"""The CPU clock (``clock = cpu``): an answer is charged the CPU time of the program's
whole process tree, with a wall cap, so a program beside busy processes is not charged
for them.  Both figures, CPU and wall, are in the record for every answer."""
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from games.robot import PLUGIN
from runner.match import Match, TimeControl
from runner.process import CPU, TurnDeadline, run_once, wall_cap
from runner.sandbox import BASIC, STRICT, Sandbox, strict_problem
from runner.seats import make_seat

PY = sys.executable
BURNER = Path(__file__).resolve().parent / "programs" / "cpu_burner.py"
MAP = "5 5 1\n" + ".....\n" * 5
BUSY = "import os\nos.setsid()\nwhile True: pass"


@pytest.fixture
def busy():
    """Three busy processes, each in a session of its own (as other applications are),
    killed after the test.  They are a shell's children, not this process's: an arena
    that became the child subreaper takes its own children in other sessions for
    orphans of programs and kills them."""
    holder = subprocess.Popen(["/bin/sh", "-c", " ".join(
        [f"{shlex.quote(PY)} -c {shlex.quote(BUSY)} &"] * 3) + " wait"])
    deadline = time.monotonic() + 10
    while len(psutil.Process(holder.pid).children()) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    procs = psutil.Process(holder.pid).children()
    assert len(procs) == 3
    yield procs
    for proc in procs:
        assert proc.is_running(), "a busy process ended before the test did"
        proc.kill()
    holder.wait()


def first_answer(tmp_path: Path, burn: float, clock: str = CPU, per_move: float = 2.0,
                 cap: float | None = None) -> dict:
    """Seat 1's answer on the first turn of a Robot match where it burns ``burn`` CPU
    seconds (half in a child process) on that turn, as the record has it; ``cap``: the
    CPU clock's wall cap (default 3x the limit + 1 s)."""
    limits = {"time": per_move, "clock": clock, "wall_cap": cap}
    seats = [make_seat(f"ext:{PY} {BURNER} burn={burn}", PLUGIN, 1, limits=limits),
             make_seat(f"ext:{PY} {BURNER}", PLUGIN, 2, limits=limits)]
    record = tmp_path / "match.arena.jsonl"
    match = Match(PLUGIN, {"map": MAP, "players": 2, "respawn": "off", "period": 0}, seats,
                  seed=3, record_path=record, time_control=TimeControl(per_move=per_move),
                  workdir=tmp_path / "match")
    match.run()
    turns = [json.loads(line) for line in record.read_text().splitlines()
             if json.loads(line).get("type") == "turn"]
    return turns[0]["answers"]["0"]


def test_a_program_burning_1_5_s_of_cpu_passes_a_2_s_cpu_clock_beside_busy_processes(tmp_path, busy):
    # A wall cap of 30 s rather than 7: on a machine loaded beyond these busy processes
    # (a CI runner, the other tests) the program's share of the cores may be a fifth.
    answer = first_answer(tmp_path, 1.5, cap=30.0)
    assert answer.get("failure") is None, answer.get("detail")
    assert answer["clock"] == "cpu"
    assert 1.4 <= answer["cpu"] < 2.0              # the child's half is counted too
    assert answer["elapsed"] == answer["cpu"]      # charged by the CPU clock
    assert answer["wall"] > 0


def test_a_program_burning_3_s_of_cpu_is_stopped_at_its_2_s_cpu_limit(tmp_path, busy):
    answer = first_answer(tmp_path, 3.0, cap=30.0)
    assert answer["failure"] == "timeout"
    assert "of CPU" in answer["detail"]
    assert 2.0 <= answer["cpu"] < 2.5
    assert answer["wall"] < 30.0


def test_the_wall_clock_records_both_figures_too(tmp_path):
    answer = first_answer(tmp_path, 0.3, clock="wall")
    assert answer.get("failure") is None
    assert "clock" not in answer                   # the default clock is not written
    assert answer["elapsed"] == answer["wall"] and answer["cpu"] >= 0.25


def test_a_sleeping_program_on_the_cpu_clock_ends_at_the_wall_cap(tmp_path):
    result = run_once(["sleep", "30"], tmp_path, 0.5, clock=CPU)
    assert result.timed_out and result.cpu < 0.5
    assert wall_cap(0.5) <= result.elapsed < wall_cap(0.5) + 1.5
    assert "wall, the cap" in result.describe()


def test_a_cpu_deadline_without_a_cpu_figure_is_a_wall_deadline():
    deadline = TurnDeadline(100.0, 2.0, CPU, meter=None, cpu_start=None)
    assert deadline.clock == "wall"
    assert not deadline.over(101.9) and deadline.over(102.0)


def test_the_replays_debug_panel_shows_both_figures_the_charged_one_first():
    from ui.panels import answer_time_text
    cpu_clock = {"elapsed": 1.5, "cpu": 1.5, "wall": 4.25, "clock": "cpu"}
    assert answer_time_text(cpu_clock) == " · 1.500 s CPU (charged) · 4.250 s wall"
    assert answer_time_text({"elapsed": 0.5, "wall": 0.5, "cpu": 0.125}) == " · 0.500 s · 0.125 s CPU"
    assert answer_time_text({"elapsed": 0.5}) == " · 0.500 s"           # an older record


def test_without_a_cgroup_the_cpu_time_comes_from_the_process_and_the_children_it_reaped(
        tmp_path, monkeypatch):
    from runner import cgroups
    monkeypatch.setattr(cgroups, "create", lambda *args, **kwargs: None)
    burner = tmp_path / "burn.py"
    burner.write_text("import os, time\n"
                      "def burn(s):\n"
                      "    t = time.process_time()\n"
                      "    while time.process_time() - t < s: pass\n"
                      "if os.fork() == 0:\n    burn(0.4)\n    os._exit(0)\n"
                      "burn(0.4)\nos.wait()\n")
    basic = Sandbox(level_name=BASIC)
    result = run_once([PY, str(burner)], tmp_path, 5.0, clock=CPU, sandbox=basic)
    assert not result.timed_out and 0.75 <= result.cpu < 1.5 and result.clock == CPU
    late = run_once([PY, "-c", "while True: pass"], tmp_path, 0.5, clock=CPU, sandbox=basic, cap=30)
    assert late.timed_out and 0.5 <= late.cpu < 1.0 and late.elapsed < 30
    if not strict_problem():     # bubblewrap's own figures never hold the program's
        strict = run_once([PY, "-c", "while True: pass"], tmp_path, 0.5, clock=CPU,
                          sandbox=Sandbox(level_name=STRICT))
        assert strict.cpu is None and strict.clock == "wall" and strict.timed_out
        assert strict.elapsed < 0.5 + 1.0
