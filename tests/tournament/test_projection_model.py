"""The projection's playback model without a window: which match is shown, which turn of
it at the event's pace, the hold, the intermission card, the final standings, the grid's
cells and the keys' pace steps, all on a clock the test moves by hand."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> list[str]:
    """The lines of a finished Hex 5x5 record between two built-in bots."""
    from games import registry
    from runner.match import Match
    from runner.seats import make_seat
    folder = tmp_path_factory.mktemp("record")
    plugin = registry.plugin("hex")
    options = plugin.new_game().spec.resolve_options("5x5", {})
    seats = [make_seat("bot:1", plugin, 11 + i) for i in range(2)]
    for seat, name in zip(seats, ("Ann", "Ben")):
        seat.label = name
    path = folder / "m.arena.jsonl"
    Match(plugin, options, seats, seed=11, variant="5x5", record_path=path, workdir=folder / "work").run()
    lines = path.read_text().splitlines()
    assert '"type": "result"' in lines[-1] and sum('"type": "turn"' in line for line in lines) >= 10
    return lines


def event_folder(folder: Path, projection: dict, concurrency: int = 1) -> Path:
    (folder / "live").mkdir(parents=True, exist_ok=True)
    (folder / "event.json").write_text(json.dumps({"name": "Cup", "concurrency": concurrency,
                                                   "projection": projection}))
    return folder


def put_live(folder: Path, match_id: str, lines: list[str]) -> Path:
    path = folder / "live" / f"{match_id}.arena.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    return path


def run(model, clock: list[float], seconds: float, step: float = 0.05) -> None:
    """Frames of ``step`` seconds on the test's clock."""
    for _ in range(round(seconds / step)):
        clock[0] += step
        model.update(step, clock[0])


def body(lines: list[str], turns: int | None = None) -> list[str]:
    """The record without its result line; with ``turns``, only its first turns."""
    lines = [line for line in lines if '"type": "result"' not in line]
    if turns is None:
        return lines
    first = next(i for i, line in enumerate(lines) if '"type": "turn"' in line)
    return lines[:first + turns]


def test_a_match_is_followed_at_the_pace_then_held_then_the_card_then_the_end(tmp_path, record):
    from runner.projection import ProjectionModel
    folder = event_folder(tmp_path, {"pace": 2, "hold": 1.0, "intermission": 2.0})
    live = put_live(folder, "m1", body(record, turns=3))
    clock = [100.0]
    model = ProjectionModel(folder, now=clock[0])
    model.start(clock[0])
    run(model, clock, 0.6)
    assert model.phase == "playing" and model.main.match.id == "m1" and model.followed == ["m1"]
    assert model.main.shown == 1                       # 2 turns a second: one turn after 0.6 s
    run(model, clock, 1.0)
    assert model.main.shown == 3                       # all there is: it waits at the third
    with open(live, "a") as fh:
        fh.write("".join(line + "\n" for line in record[len(body(record, turns=3)):]))
    run(model, clock, 1.0)
    assert model.main.shown >= 6             # far behind: three times the pace (at 2 a second: 5 at most)
    run(model, clock, 20.0, step=0.25)
    assert model.last and model.last["id"] == "m1" and model.last["outcome"] is not None
    assert model.phase in ("intermission", "waiting")
    (folder / "live" / "schedule.json").write_text('{"finished": true}')
    run(model, clock, 3.0, step=0.25)
    assert model.phase == "final" and model.main is None


def test_the_hold_and_the_intermission_last_as_the_event_file_says(tmp_path, record):
    from runner.projection import ProjectionModel
    folder = event_folder(tmp_path, {"pace": 0, "hold": 2.0, "intermission": 3.0})
    live = put_live(folder, "m1", body(record))
    clock = [1000.0]
    model = ProjectionModel(folder, now=clock[0])
    model.start(clock[0])
    run(model, clock, 0.5)
    assert model.phase == "playing" and model.main.shown == len(model.main.match.turns)   # pace 0: at once
    with open(live, "a") as fh:
        fh.write(record[-1] + "\n")
    phases = [("playing", clock[0])]
    for _ in range(200):
        clock[0] += 0.05
        model.update(0.05, clock[0])
        if not phases or phases[-1][0] != model.phase:
            phases.append((model.phase, round(clock[0], 2)))
    names = [p for p, _t in phases]
    assert names[:4] == ["playing", "holding", "intermission", "waiting"], phases
    held = phases[2][1] - phases[1][1]
    card = phases[3][1] - phases[2][1]
    assert 2.0 <= held <= 2.2 and 3.0 <= card <= 3.2, phases


def test_the_grid_gives_each_running_match_a_cell(tmp_path, record):
    from runner.projection import ProjectionModel
    folder = event_folder(tmp_path, {"pace": 1, "layout": "grid"}, concurrency=3)
    for name in ("a", "b"):
        put_live(folder, name, body(record, turns=2))
    clock = [1000.0]
    model = ProjectionModel(folder, now=clock[0])
    model.start(clock[0])
    run(model, clock, 1.0)
    assert model.current_layout() == "grid" and len(model.cells) == 3
    assert sorted(c.match.id for c in model.cells if c) == ["a", "b"] and model.phase == "playing"
    model.toggle_layout(clock[0])
    assert model.current_layout() == "focus" and model.cells == [] and model.phase == "waiting"


def test_the_keys_step_the_pace_and_tell_the_organizer(tmp_path):
    from runner.live import read_pace
    from runner.projection import ProjectionModel
    folder = event_folder(tmp_path, {"pace": 2})
    model = ProjectionModel(folder, now=5.0)
    model.start(5.0)
    assert model.current_pace() == 2.0
    model.step_pace(+1, 6.0)
    assert model.pace == 3.0 and read_pace(folder) == 3.0 and model.toast == ("3 turns a second", 6.0)
    for _ in range(3):
        model.step_pace(+1, 6.0)
    assert model.pace == 0.0 and model.toast[0] == "As fast as they play"
    model.step_pace(+1, 6.0)                     # nothing is faster than as fast as they play
    assert model.pace == 0.0
    model.step_pace(-1, 6.0)
    assert model.pace == 8.0
    model.update(0.1, 6.0 + 3.5)                 # the toast goes after its three seconds
    assert model.toast == ("", 0.0)


def test_a_seat_that_keeps_the_room_waiting_is_named(tmp_path, record, monkeypatch):
    import runner.projection as projection
    monkeypatch.setattr(projection, "SLOW_ANSWER", 2.0)
    folder = event_folder(tmp_path, {"pace": 0})
    put_live(folder, "m1", body(record, turns=2))
    clock = [1000.0]
    model = projection.ProjectionModel(folder, now=clock[0])
    model.start(clock[0])
    run(model, clock, 0.5)
    assert model.phase == "playing" and model.slow_seat(model.main, clock[0]) == ""
    waiting = model.main.match.names[model.main.state.to_move()[0]]
    run(model, clock, 2.0)
    assert model.slow_seat(model.main, clock[0]) == waiting


def test_the_model_loads_neither_pygame_nor_the_ui(tmp_path):
    code = ("import sys, runner.projection as p\n"
            f"m = p.ProjectionModel({str(tmp_path)!r}); m.start(0.0); m.update(0.5, 0.5)\n"
            "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('pygame', 'pygame_gui', 'ui'))\n"
            "assert not bad, bad\nprint('ok')\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "ok" in result.stdout, result.stderr
