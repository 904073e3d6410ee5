"""The judge's ProgramsTurn path: the programs run once per turn (Robot's MAP.INP ->
MOVE.OUT) are staged, their gates opened one after the other, their exits waited for
together on the judge's thread (runner.process.wait_for_exits), and each run ended as
it exits.  Every match test here checks that its program answers really came this way
(the ``paths`` fixture), so a silent fall-back to the old way would fail them."""
import gc
import json
import os
import subprocess
import sys
import threading
import time
import uuid
import weakref
from pathlib import Path
from types import SimpleNamespace

import psutil
import pytest

from games.robot import PLUGIN
from runner import process
from runner.match import Match, TimeControl
from runner.process import can_gate, wait_for_exits
from runner.program_seats import RunEachTurnSeat
from runner.sandbox import BASIC, SEAT_MARKER, STRICT, strict_problem
from runner.seats import HumanSeat, make_seat
from tests.hostile.conftest import marked_processes

PY = sys.executable
BOT = Path(__file__).resolve().parents[1] / "robot" / "bots" / "scripted_bot.py"
# K = 2 on a 5 x 5 map: a robot that stays on the centre plays seven turns (0-6).
MAP = "5 5 2\n" + ".....\n" * 5
LEVELS = [BASIC] + ([] if strict_problem() else [STRICT])
staging = pytest.mark.skipif(not can_gate() or not hasattr(os, "pidfd_open"),
                             reason="staged runs need a POSIX /bin/sh and pidfds")


# ----------------------------------------------------------------- helpers
def scripted(*words: str) -> str:
    """The seat spec of the scripted program doing ``words`` (see its docstring)."""
    return f"ext:{PY} {BOT} " + " ".join(words)


def play(tmp_path: Path, specs: list[str], per_move: float = 2.0, level: str | None = None,
         prepare=None) -> tuple[Match, list[dict]]:
    """Play a Robot match to the end; ``prepare(match)`` may change it first.  The
    match and its record's turn lines.  The seats get the match's limit as their own
    (as tournaments give it): the run prepared at the start then fits the first turn."""
    limits = {"time": per_move, **({"sandbox": level} if level else {})}
    seats = [make_seat(spec, PLUGIN, 7 + i, limits=limits) for i, spec in enumerate(specs)]
    record = tmp_path / "match.arena.jsonl"
    match = Match(PLUGIN, {"map": MAP, "players": len(specs), "respawn": "off", "period": 0},
                  seats, seed=7, record_path=record, time_control=TimeControl(per_move=per_move),
                  workdir=tmp_path / "match")
    if prepare is not None:
        prepare(match)
    match.run()
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[-1]["type"] == "result"
    with process._LIVE_LOCK:                  # no prepared or staged run outlives the match
        assert not process._LIVE
    return match, [line for line in lines if line["type"] == "turn"]


def play_watching(tmp_path: Path, specs: list[str], marker: str, **kwargs) -> tuple[Match, list[dict], dict]:
    """:func:`play`, noting after each turn the processes whose command line holds
    ``marker`` ({turns played: processes}); any still there at the end are killed, even
    when the match fails."""
    seen = {}

    def watch(match):
        def after_turn(info):
            seen[len(match.turns)] = marked_processes(marker)
        match.after_turn = after_turn
    try:
        match, turns = play(tmp_path, specs, prepare=watch, **kwargs)
    finally:
        for proc in marked_processes(marker):
            proc.kill()
    return match, turns, seen


def map_turn(inputs: dict[str, str]) -> int | None:
    """The turn number T of a run's Robot inputs (MAP.INP's line 1: ``M N K T``); None
    for another game's."""
    if "MAP.INP" not in inputs:
        return None
    return int(inputs["MAP.INP"].split("\n")[0].split()[3])


@pytest.fixture
def paths(monkeypatch):
    """How each program run was asked: ``{"staged": [(folder, T)], "old": [(folder, T)]}``
    (staged: ended by ProgramsTurn; old: RunEachTurnSeat.run on a pool thread)."""
    seen = {"staged": [], "old": []}
    real_ended, real_run = RunEachTurnSeat._ended, RunEachTurnSeat.run

    def ended(self, staged, exited_at):
        seen["staged"].append((self.folder.name, map_turn(staged.files.inputs)))
        return real_ended(self, staged, exited_at)

    def run(self, state, seat, time_limit):
        seen["old"].append((self.folder.name, map_turn(self.protocol.inputs(state, seat))))
        return real_run(self, state, seat, time_limit)
    monkeypatch.setattr(RunEachTurnSeat, "_ended", ended)
    monkeypatch.setattr(RunEachTurnSeat, "run", run)
    return seen


def program_runs(turns: list[dict], seats) -> list[tuple[str, int]]:
    """(folder, T) of every answer the record holds for the given seats."""
    return sorted((f"seat{int(s) + 1}", t["n"] - 1) for t in turns for s in t["answers"]
                  if int(s) in seats)


def stays(match: Match, turn: dict, seat: int) -> bool:
    """Whether ``seat`` stood still on this (not the placement) turn."""
    before = match.states[turn["n"] - 1].position(seat)
    return turn["moves"][str(seat)] == f"{before[0]} {before[1]}"


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


# ----------------------------------------------------------------- 1. time-out
@staging
@pytest.mark.parametrize("level", LEVELS)
def test_a_late_program_times_out_alone_and_its_whole_tree_is_killed(tmp_path, level, paths):
    token = f"arena-test-{uuid.uuid4().hex[:12]}"
    specs = [scripted("at=2,2", "stay"), scripted("at=2,1", f"late={token}", "stay", f"late={token}", "stay"),
             scripted("at=1,2", "stay")]
    # left_running: turns played -> the late tree's processes still there
    match, turns, left_running = play_watching(tmp_path, specs, f"{token}-late", per_move=1.5, level=level)
    assert len(turns) >= 4 and sorted(paths["staged"]) == program_runs(turns, {0, 1, 2}) and not paths["old"]
    for n in (0, 2):                          # the two late turns
        late = turns[n]["answers"]["1"]
        assert late.get("failure") == "timeout" and "time limit" in late["detail"], late
        assert 1.5 <= late["elapsed"] < 1.5 + 1.5
        assert left_running[n + 1] == [], f"turn {n}: the late program's tree still runs"
        # The others answered at once and their moves were played, not the late one's.
        assert all(turns[n]["answers"][s].get("failure") is None for s in ("0", "2"))
    # Placement: the late robot got a random cell; the others the cells they asked for.
    assert turns[0]["moves"] == {"0": "2 2", "1": "-1 -1", "2": "1 2"}
    assert stays(match, turns[2], 1)
    # On the turns between, the same program answered in time: the match went on.
    assert turns[1]["answers"]["1"].get("failure") is None
    assert [t["answers"]["1"].get("failure") for t in turns if "1" in t["answers"]].count("timeout") == 2
    # The tree really was there: the program forked before it was cut off.
    forks = [line.split() for line in (tmp_path / "match" / "seat2" / "STATE.DAT").read_text().splitlines()
             if line.startswith("forked")]
    assert len(forks) == 2
    if level == BASIC:                        # the pids are the host's: check each by pid
        assert not any(alive(int(pid)) for _, *pids in forks for pid in pids)


@staging
def test_an_orphan_holding_a_programs_output_delays_no_other_program(tmp_path, paths):
    """Basic sandbox: a program's double-forked orphan keeps its stdout open.  The judge
    ends that run on its own thread while the others run: it must not wait there for
    the output to end (it once waited two seconds, and the quick honest program beside
    it was charged them: a time-out)."""
    token = f"arena-test-{uuid.uuid4().hex[:12]}"
    specs = [scripted("at=2,2", f"orphan={token}", "stay"), scripted("at=2,1", "sleep=0.3")]
    match, turns, left_running = play_watching(tmp_path, specs, f"{token}-orphan", per_move=1.5, level=BASIC)
    assert sorted(paths["staged"]) == program_runs(turns, {0, 1}) and not paths["old"]
    own = [tuple(map(float, line.split())) for line in
           (tmp_path / "match" / "seat2" / "STATE.DAT").read_text().splitlines()[1:]]
    first = turns[0]["answers"]
    assert first["0"].get("failure") is None and first["1"].get("failure") is None, first
    assert first["1"]["elapsed"] < own[0][1] - own[0][0] + 1.0
    assert left_running[1] == []               # the orphan was swept with its program's run


@staging
def test_an_orphan_of_one_turn_is_dead_before_the_next_turns_programs_start(tmp_path, paths):
    """Basic sandbox: a double-forked orphan that keeps no output open (nothing tells the
    judge it is there) is killed by the orphan sweep before any program of the next
    turn starts: the programs are started on other threads, the orphan is adopted by
    the arena's main thread, where the sweep looks (runner.process._own_children)."""
    token = f"arena-test-{uuid.uuid4().hex[:12]}"
    specs = [scripted("at=2,2", f"quiet-orphan={token}", f"look={token}"),
             scripted("at=2,1", "stay", f"look={token}")]
    match, turns, alive = play_watching(tmp_path, specs, f"{token}-orphan", level=BASIC)
    assert sorted(paths["staged"]) == program_runs(turns, {0, 1}) and not paths["old"]
    # The orphan outlived its program's run (unless a pids cgroup held the program: the
    # group's removal at the reap kills what is left in it, runner.seat_limits)...
    from runner.seat_limits import pids_groups_possible
    assert len(alive[1]) == (0 if pids_groups_possible() else 1)
    for folder in ("seat1", "seat2"):      # ...but no program of turn 1 or later saw it
        seen = [line for line in (tmp_path / "match" / folder / "STATE.DAT").read_text().splitlines()
                if line.startswith("alive")]
        assert seen and set(seen) == {"alive 0"}, (folder, seen)


# ----------------------------------------------------------------- 2. crash
@staging
@pytest.mark.parametrize("action", ["exit=3", "kill"])
def test_a_program_that_crashes_while_staged_is_a_crash_for_its_seat_only(tmp_path, action, paths):
    specs = [scripted("at=2,2", "stay"), scripted("at=2,1", "stay", action, "stay")]
    match, turns = play(tmp_path, specs)
    assert sorted(paths["staged"]) == program_runs(turns, {0, 1}) and not paths["old"]
    crash = turns[1]["answers"]["1"]
    assert crash.get("failure") == "crash" and "exited with code" in crash["detail"], crash
    if action == "exit=3":
        assert "code 3" in crash["detail"]
    assert stays(match, turns[1], 1)
    failures = [(t["n"] - 1, s) for t in turns for s, a in t["answers"].items() if a.get("failure")]
    assert failures == [(1, "1")]              # that seat, that turn, nothing else
    assert len(turns) >= 3 and turns[2]["answers"]["1"].get("failure") is None


# ----------------------------------------------------------------- 3. mixed seats, clocks
def answer_as_person(match: Match, seat: int, person: HumanSeat, delay: float,
                     stop: threading.Event) -> None:
    """A person who answers each question ``delay`` s after it is asked: stays (or
    places at 1,3)."""
    while not stop.is_set():
        if not person.waiting.wait(0.02):
            continue
        time.sleep(delay)
        where = match.state.position(seat)
        person.submit("1 3" if where is None else f"{where[0]} {where[1]}")
        while person.waiting.is_set() and not stop.is_set():
            time.sleep(0.002)


@staging
def test_mixed_seats_all_answer_and_each_clock_holds_only_its_own_time(tmp_path, paths):
    sleep, person_delay = 0.5, 0.05
    specs = [scripted("at=2,2", f"sleep={sleep}"), scripted("at=2,1", "stay"), "bot:1", "human"]
    stop = threading.Event()
    helpers = []

    def with_person(match):
        person = match.seats[3]
        helpers.append(threading.Thread(target=answer_as_person, daemon=True,
                                        args=(match, 3, person, person_delay, stop)))
        helpers[0].start()
    try:
        match, turns = play(tmp_path, specs, prepare=with_person)
    finally:
        stop.set()
        for helper in helpers:
            helper.join(5)
    assert sorted(paths["staged"]) == program_runs(turns, {0, 1}) and not paths["old"]
    # The program's own account of each run (time.time() at its start and its end).
    own = [tuple(map(float, line.split())) for line in
           (tmp_path / "match" / "seat1" / "STATE.DAT").read_text().splitlines()[1:]]
    everyone = [t for t in turns if set(t["answers"]) == {"0", "1", "2", "3"}]
    assert len(everyone) >= 2 and len(own) == sum("0" in t["answers"] for t in turns)
    for turn in everyone:
        answers = {int(s): a for s, a in turn["answers"].items()}
        assert all(a.get("failure") is None for a in answers.values()), answers
        slow = answers[0]["elapsed"]
        ran = own[turn["n"] - 1][1] - own[turn["n"] - 1][0]
        # From its gate's opening to its exit: its own run and no more than a start-up.
        assert sleep <= ran <= slow < ran + 1.0
        assert answers[1]["elapsed"] < slow             # the quick one: not the slow one's time
        assert answers[2]["elapsed"] < 0.25              # the bot: its own thinking only
        assert person_delay <= answers[3]["elapsed"] < sleep - 0.1   # the person: own time
    # The clocks: each seat's total is the sum of its own answers' times, turn by turn.
    totals = [0.0] * 4
    for turn in turns:
        for s, answer in turn["answers"].items():
            totals[int(s)] += answer["elapsed"]
        assert turn["clocks"] == pytest.approx({str(i): t for i, t in enumerate(totals)}, abs=2e-3)
    assert [match.time_used[i] for i in range(4)] == pytest.approx(totals, abs=2e-3)


# ----------------------------------------------------------------- 4. staging failures
@staging
def test_a_seat_whose_staging_fails_or_declines_is_answered_in_the_same_turn(tmp_path, paths):
    specs = [scripted("at=2,2", "stay"), scripted("at=2,1", "stay"), scripted("at=1,2", "stay")]
    calls = {"broken": 0}

    def break_staging(match):
        broken, declining = match.seats[1], match.seats[2]

        def stage_or_fail(state, seat, limit):
            calls["broken"] += 1
            if calls["broken"] == 2:              # turn 1 only
                raise RuntimeError("staging broke")
            return RunEachTurnSeat.stage(broken, state, seat, limit)
        broken.stage = stage_or_fail
        declining.stage = lambda state, seat, limit: None
    match, turns = play(tmp_path, specs, prepare=break_staging)
    assert len(turns) >= 4
    failed = turns[1]["answers"]["1"]
    assert failed.get("failure") == "crash" and failed.get("detail") == "RuntimeError: staging broke", failed
    assert stays(match, turns[1], 1)
    # Its program was not run on turn 1; it was staged again on the turns after.
    assert ("seat2", 1) not in paths["staged"] + paths["old"]
    assert [t for f, t in paths["staged"] if f == "seat2"] == [n for n in range(len(turns)) if n != 1
                                                               and "1" in turns[n]["answers"]]
    # The declining seat was asked the old way on every turn, beside the staged ones.
    assert [t for f, t in paths["old"] if f == "seat3"] == [t["n"] - 1 for t in turns if "2" in t["answers"]]
    assert not [r for r in paths["staged"] if r[0] == "seat3"]
    failures = [(t["n"] - 1, s) for t in turns for s, a in t["answers"].items() if a.get("failure")]
    assert failures == [(1, "1")]
    assert turns[0]["moves"] == {"0": "2 2", "1": "2 1", "2": "1 2"}


# ----------------------------------------------------------------- 5. the folder between turns
@staging
def test_the_next_turn_reuses_the_folder_as_the_last_run_left_it(tmp_path, paths, monkeypatch):
    reused = []
    real = RunEachTurnSeat._inputs_only

    def inputs_only(self, state, seat, after):
        reused.append((self.folder.name, map_turn(self.protocol.inputs(state, seat))))
        return real(self, state, seat, after)
    monkeypatch.setattr(RunEachTurnSeat, "_inputs_only", inputs_only)
    specs = [scripted("at=2,2", "scratch", "scratch", "silent", "stay"), scripted("at=2,1", "stay")]
    match, turns = play(tmp_path, specs)
    answers = [t["answers"]["0"] for t in turns]
    assert len(answers) >= 5 and sorted(paths["staged"]) == program_runs(turns, {0, 1}) and not paths["old"]
    # Every turn after the first only wrote the inputs into the folder as noted.
    assert [t for f, t in reused if f == "seat1"] == list(range(1, len(turns)))
    folder = tmp_path / "match" / "seat1"
    # A file the program creates is deleted after the run and noted, on each turn.
    for n in (0, 1):
        assert answers[n].get("failure") is None
        assert any("scratch.tmp" in note for note in answers[n].get("notes", [])), answers[n]
    assert not any("deleted" in note for a in answers[2:] for note in a.get("notes", []))
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [SEAT_MARKER, "MAP.INP", "MOVE.OUT", "STATE.DAT"])
    # Turn 2 writes nothing: turn 1's MOVE.OUT must not be read as its answer.
    silent = answers[2]
    assert silent.get("failure") == "bad-file" and "wrote no MOVE.OUT" in silent["detail"], silent
    assert not silent.get("answered") and stays(match, turns[2], 0)
    assert answers[3].get("failure") is None
    # The kept file recorded with each run is STATE.DAT as the run before left it.
    assert [a.get("kept", {}).get("STATE.DAT") for a in answers[:4]] == [
        None, "runs: 0\n", "runs: 0 1\n", "runs: 0 1\n"]


@staging
def test_a_finished_run_is_freed_once_the_seats_next_run_has_started(tmp_path, paths, monkeypatch):
    """Freeing a run (pipes, reader threads, Popen) is kept off the turn's end, the
    judge's path: a seat holds its last run until its next one has started, and then
    lets it go (no run is kept longer: a long match must not pile them up)."""
    runs: dict[str, list[weakref.ref]] = {}
    held_at_start, freed_after = [], []
    real_ended, real_opened = RunEachTurnSeat._ended, RunEachTurnSeat._opened

    def ended(self, staged, exited_at):
        runs.setdefault(self.folder.name, []).append(weakref.ref(staged.run))
        return real_ended(self, staged, exited_at)

    def opened(self, staged):
        earlier = runs.get(self.folder.name, [])
        held_at_start.append(bool(earlier) and earlier[-1]() is not None)
        real_opened(self, staged)
        gc.collect()        # a run left only in a reference cycle is freed, not held
        freed_after.append(all(ref() is None for ref in earlier))
    monkeypatch.setattr(RunEachTurnSeat, "_ended", ended)
    monkeypatch.setattr(RunEachTurnSeat, "_opened", opened)
    specs = [scripted("at=2,2", "stay"), scripted("at=2,1", "stay")]
    match, turns = play(tmp_path, specs)
    assert len(turns) >= 5 and sorted(paths["staged"]) == program_runs(turns, {0, 1})
    # Each seat's first staged run has none before it; every later one found the last
    # run still held, and freed it.
    assert held_at_start.count(False) == 2 and held_at_start.count(True) == len(held_at_start) - 2
    assert all(freed_after)
    assert all(ref() is None for refs in runs.values() for ref in refs)   # closed with the match


@staging
def test_tam_quan_programs_take_the_same_path(tmp_path, paths):
    """Tam Quan's programs are run once per turn too (one team a turn): staged alone."""
    from games.tamquan import PLUGIN as TAMQUAN
    greedy = Path(__file__).resolve().parents[2] / "games" / "tamquan" / "examples" / "greedy_bot.py"
    options = TAMQUAN.new_game().spec.resolve_options("5x5-2teams", {"turn_limit": 12})
    seats = [make_seat(f"ext:{PY} {greedy}", TAMQUAN, 3), make_seat("bot:1", TAMQUAN, 4)]
    record = tmp_path / "m.arena.jsonl"
    match = Match(TAMQUAN, options, seats, seed=3, record_path=record, workdir=tmp_path / "match")
    assert match.run() is not None
    turns = [t for t in map(json.loads, record.read_text().splitlines()) if t["type"] == "turn"]
    programs = [t["answers"]["0"] for t in turns if "0" in t["answers"]]
    assert len(programs) >= 3 and all(a.get("failure") is None for a in programs)
    assert [folder for folder, _ in paths["staged"]] == ["seat1"] * len(programs)
    assert not paths["old"]


# ----------------------------------------------------------------- 6. wait_for_exits
def started(*sleeps: float) -> dict:
    """Programs sleeping the given seconds, as runs keyed by their index (watched, as a
    GatedRun in the basic level is, through a pidfd of the process itself)."""
    def run(proc: subprocess.Popen) -> SimpleNamespace:
        return SimpleNamespace(proc=proc, exit_pidfd=lambda: os.pidfd_open(proc.pid))
    return {i: run(subprocess.Popen([PY, "-c", f"import time; time.sleep({s})"]))
            for i, s in enumerate(sleeps)}


def finish(runs: dict) -> None:
    for run in runs.values():
        run.proc.kill()
        run.proc.wait()


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else 0


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="needs pidfds")
def test_wait_for_exits_tells_each_exit_once_as_it_comes():
    fds = open_fds()
    begin = time.perf_counter()
    runs = started(0.6, 0.0, 0.3)
    try:
        told = list(wait_for_exits(runs, {i: None for i in runs}))
    finally:
        finish(runs)
    assert sorted(key for key, _ in told) == [0, 1, 2]
    assert [key for key, _ in told] == [1, 2, 0]              # in the order they exited
    when = dict(told)
    assert all(when[i] is not None and runs[i].proc.returncode == 0 for i in runs)
    assert when[0] - begin >= 0.6 and when[2] - begin >= 0.3   # seen after the exit, not before
    assert when[1] < when[2] < when[0]
    assert open_fds() == fds


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="needs pidfds")
def test_wait_for_exits_gives_up_on_a_run_at_its_deadline():
    fds = open_fds()
    runs = started(30, 0.0)
    begin = time.perf_counter()
    try:
        told = list(wait_for_exits(runs, {0: begin + 0.3, 1: begin + 5}))
        took = time.perf_counter() - begin
        assert runs[0].proc.poll() is None             # told, not killed: ending it is the caller's
    finally:
        finish(runs)
    assert told[0][0] == 1 and told[0][1] is not None
    assert told[1] == (0, None) and len(told) == 2
    assert 0.3 <= took < 2.0
    assert open_fds() == fds


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="needs pidfds")
def test_wait_for_exits_closes_its_pidfds_when_left_early():
    fds = open_fds()
    runs = started(0.0, 30, 30)
    try:
        waiting = wait_for_exits(runs, {i: None for i in runs})
        assert next(waiting)[0] == 0
        waiting.close()
    finally:
        finish(runs)
    assert open_fds() == fds


@pytest.mark.parametrize("which", ["all", "one"])
def test_wait_for_exits_without_a_pidfd_waits_with_popen(monkeypatch, which):
    runs = started(0.2, 30, 0.0)
    refused = {runs[0].proc.pid} if which == "one" else {run.proc.pid for run in runs.values()}
    real = getattr(os, "pidfd_open", None)

    def pidfd_open(pid, *args):
        if pid in refused or real is None:
            raise OSError(38, "Function not implemented")
        return real(pid, *args)
    monkeypatch.setattr(os, "pidfd_open", pidfd_open, raising=False)
    begin = time.perf_counter()
    try:
        told = list(wait_for_exits(runs, {0: begin + 5, 1: begin + 0.6, 2: None}))
    finally:
        finish(runs)
    when = dict(told)
    assert sorted(key for key, _ in told) == [0, 1, 2]
    assert when[1] is None and when[0] is not None and when[2] is not None
    assert when[0] - begin >= 0.2 and runs[0].proc.returncode == 0
