"""Projection mode, driven as a room would use it, headless: started from the tournament
screen on a running event, following match -> intermission -> next match with the
standings updating, following a folder another process writes, and bad content in the
folder never stopping it."""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SOAK = ROOT / "bench" / "projection_soak.py"


def hex_event(folder: Path, pace: float = 10.0) -> Path:
    """Hex 5x5, four built-in bots, one match at a time: six short matches."""
    people = "".join(f'[[contestant]]\nname = "{n}"\nseat = "bot:1"\n' for n in ("Ann", "Ben", "Cas", "Dee"))
    path = folder / "cup.toml"
    path.write_text(f'name = "Test cup"\ngame = "hex"\nvariant = "5x5"\nseed = 4\nconcurrency = 1\n'
                    f'[projection]\npace = {pace}\nhold = 0.2\nintermission = 0.6\n{people}')
    return path


def run_frames(app, scene, until, seconds: float, each=None) -> None:
    """Run the window's loop (blocking as it does for real) until ``until()`` or time is up."""
    end = time.monotonic() + seconds
    while time.monotonic() < end and not until():
        app.frame(block=True)
        if each:
            each()


def key(app, code) -> None:
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0))


def test_projection_from_the_tournament_screen_follows_the_running_event(tmp_path, arena_home):
    from runner.tournament import cmd_tournament
    from runner.live import read_pace
    from ui.scenes.projection import ProjectionScene
    from ui.scenes.tournament import TournamentScene, open_tournament_window
    args = argparse.Namespace(event=str(hex_event(tmp_path)), out=str(tmp_path / "out"), workers=None,
                              cluster=None, quiet=True, window=True, project=False, display=0,
                              size="1280x720", fullscreen=False)
    request = cmd_tournament(args)
    app = open_tournament_window(args, request)
    try:
        screen = app.scene
        assert isinstance(screen, TournamentScene)
        # --window alone plays unpaced until a projection is opened
        run_frames(app, screen, lambda: read_pace(tmp_path / "out") is not None, 20)
        assert read_pace(tmp_path / "out") == 0.0
        app.dispatch(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=screen.project_button))
        scene = app.scene
        assert isinstance(scene, ProjectionScene) and app.fullscreen
        assert read_pace(tmp_path / "out") == 10.0           # the event's pace, for the room
        phases, played = [], []

        def watch() -> None:
            if not phases or phases[-1] != scene.model.phase:
                phases.append(scene.model.phase)
                app.draw()                                   # every phase draws
            count = scene.model.follower.standings.get("matches", {}).get("played")
            if count is not None and (not played or played[-1] != count):
                played.append(count)
        run_frames(app, scene, lambda: len(scene.model.followed) >= 2 and scene.model.phase == "playing", 90, watch)
        assert len(set(scene.model.followed)) >= 2, phases
        first = phases.index("playing")
        assert phases[first:first + 4] == ["playing", "holding", "intermission", "waiting"] or \
            phases[first:first + 4] == ["playing", "holding", "intermission", "playing"], phases
        assert scene.model.last and scene.model.last["outcome"] is not None   # the card had the result
        assert played and played[-1] >= 1 and played == sorted(played)   # the standings moved on
        key(app, pygame.K_ESCAPE)
        assert app.scene is screen and not app.fullscreen
        assert read_pace(tmp_path / "out") == 0.0            # unpaced again without a projection
        assert request.finish() == 0
    finally:
        app.close()
    lines = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    assert len(lines) == 6 and not list((tmp_path / "out" / "live").glob("*.arena.jsonl"))


def test_project_command_follows_to_the_final_standings_and_keys_change_the_pace(tmp_path, arena_home):
    """``arena tournament EVENT --project``: the window opens on the projection, the
    matches are played at the event's pace, Up/Down change it for the organizer's matches."""
    from runner.live import read_pace
    from runner.tournament import cmd_tournament
    from ui.scenes.projection import ProjectionScene
    from ui.scenes.tournament import open_tournament_window
    args = argparse.Namespace(event=str(hex_event(tmp_path, pace=30)), out=str(tmp_path / "out"),
                              workers=None, cluster=None, quiet=True, window=False, project=True,
                              display=3, size="1280x720", fullscreen=False)
    request = cmd_tournament(args)
    request.windowed = True
    app = open_tournament_window(args, request)
    try:
        scene = app.scene
        assert isinstance(scene, ProjectionScene)
        assert app.display == 0               # display 3 asked, one display here: the first
        run_frames(app, scene, lambda: read_pace(tmp_path / "out") is not None, 20)
        assert read_pace(tmp_path / "out") == 30.0
        key(app, pygame.K_DOWN)
        assert scene.model.current_pace() == 8.0 and read_pace(tmp_path / "out") == 8.0
        assert "8 turns a second" in scene.model.toast[0]
        key(app, pygame.K_UP)
        key(app, pygame.K_UP)
        assert read_pace(tmp_path / "out") == 0.0            # the top step: as fast as they play
        run_frames(app, scene, lambda: scene.model.phase == "final", 120)
        assert scene.model.phase == "final"
        app.draw()
        table = scene.model.follower.standings
        assert table["matches"]["played"] == 6 and len(table["standings"]) == 4
        key(app, pygame.K_g)
        assert scene.model.current_layout() == "grid"
        app.frame(block=False)
        app.draw()
    finally:
        app.close()
    assert request.finish() == 0


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    spec = importlib.util.spec_from_file_location("projection_soak", SOAK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    folder = tmp_path_factory.mktemp("corpus")
    module.make_corpus(folder)
    return folder


def test_following_a_folder_another_process_writes(tmp_path, corpus, arena_home):
    """A subprocess plays the organizer (records flushed turn by turn, lines written in two
    halves, a garbage results line, a record with an illegal move); the projection follows
    its matches, holds, shows intermissions and the standings it rewrites."""
    from ui.app import App
    from ui.scenes.projection import ProjectionScene
    from ui.settings import Settings
    folder = tmp_path / "shared"
    writer = subprocess.Popen([sys.executable, str(SOAK), "--write", str(folder), "--seconds", "40",
                               "--pace", "40", "--at-once", "2", "--corpus", str(corpus),
                               "--hold", "0.3", "--intermission", "1"])
    app = App(Settings(), size=(1280, 720), fullscreen=False)
    try:
        scene = ProjectionScene(app, folder)         # before the folder even exists
        app.push(scene)
        phases: list[str] = []

        def watch() -> None:
            if not phases or phases[-1] != scene.model.phase:
                phases.append(scene.model.phase)
                app.draw()
        run_frames(app, scene, lambda: len(scene.model.followed) >= 3, 60, watch)
        assert len(set(scene.model.followed)) >= 3, phases
        assert "intermission" in phases and "holding" in phases
        assert scene.model.follower.standings["matches"]["played"] >= 2
        games = {m.header.get("game") for m in scene.model.follower.matches.values() if m.header}
        assert games, "live records were read"
        key(app, pygame.K_g)                          # several matches at once: the grid
        run_frames(app, scene, lambda: sum(1 for c in scene.model.cells if c) >= 2, 20)
        assert scene.model.current_layout() == "grid" and sum(1 for c in scene.model.cells if c) >= 2
        assert len({c.match.id for c in scene.model.cells if c}) == sum(1 for c in scene.model.cells if c)
        app.draw()
    finally:
        app.close()
        writer.terminate()
        writer.wait(10)


def write_lines(path: Path, lines: list[str], end: str = "\n") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + end for line in lines))


def good_record(corpus: Path, count: int) -> list[str]:
    """The first ``count`` lines of the corpus' Hex record."""
    source = next(p for p in sorted(corpus.glob("*.arena.jsonl")) if "hex" in p.name)
    return source.read_text().splitlines()[:count]


def test_bad_content_in_the_folder_never_stops_it(tmp_path, corpus, arena_home):
    from ui.app import App
    from ui.scenes.projection import ProjectionScene
    from ui.settings import Settings
    folder = tmp_path / "event"
    live = folder / "live"
    (folder / "event.json").parent.mkdir(parents=True)
    (folder / "event.json").write_text('{"name": "Broken", "projection": {"pace": "fast", "layout": 3}')
    (folder / "standings.json").write_text('{"standings": [{"name": 5, "rank": null, "points": "x"}]}')
    write_lines(live / "schedule.json", ['["not", "an", "object"]'])
    write_lines(folder / "results.jsonl", ['{"id": "m1", "contestants": ["A", "B"], "outcome": {}}',
                                           "garbage", '{"id": 7}'])
    with open(folder / "results.jsonl", "a") as fh:
        fh.write('{"id": "m2", "contestants": ["A", "B"]')       # its end has not come yet
    good = good_record(corpus, 4)
    bad_turn = json.loads(good[2])
    bad_turn["moves"] = {"0": "zz99"}
    write_lines(live / "m-illegal.arena.jsonl", [good[0], good[1], json.dumps(bad_turn)])
    write_lines(live / "m-header.arena.jsonl", ['{"format": "arena-record", "game": "nosuchgame", "options": {}, "seed": 1}'])
    (live / "m-binary.arena.jsonl").write_bytes(os.urandom(3000) + b"\n\x00\xff\n")
    write_lines(live / "m-good.arena.jsonl", good[:3])
    with open(live / "m-good.arena.jsonl", "a") as fh:
        fh.write(good[3][:10])                        # a half-written turn: not read yet
    app = App(Settings(), size=(1280, 720), fullscreen=False)
    try:
        scene = ProjectionScene(app, folder)
        app.push(scene)
        run_frames(app, scene, lambda: scene.model.phase == "playing", 10)
        for _ in range(5):
            app.frame(block=True)
            app.draw()
        follower = scene.model.follower
        assert follower.bad_lines == 2 and "results.jsonl: line 3: expected a result line" in follower.results_problem
        assert set(follower.results) == {"m1"}       # the last line has no end yet
        assert "line 3: a move the rules accept" in follower.broken["m-illegal"]
        assert "a known game" in follower.broken["m-header"]
        assert "line 1" in follower.broken["m-binary"]
        assert "m-illegal" not in follower.matches            # not read again and again
        good_match = follower.matches["m-good"]
        assert not good_match.error and len(good_match.turns) == 2
        assert scene.model.main is not None and scene.model.main.match.id == "m-good"
        with open(live / "m-good.arena.jsonl", "a") as fh:
            fh.write(good[3][10:] + "\n")             # the rest of the turn arrives
        with open(folder / "results.jsonl", "a") as fh:
            fh.write("}\n")                           # ... and of the results line
        run_frames(app, scene, lambda: len(good_match.turns) == 3, 5)
        assert len(good_match.turns) == 3 and set(follower.results) == {"m1", "m2"}
        assert follower.bad_lines == 2
        app.set_theme("light")
        app.draw()
    finally:
        app.close()


def test_the_live_file_removed_mid_read_is_finished_from_its_final_copy(tmp_path, corpus):
    from runner.live import EventFollower
    good = good_record(corpus, 6)
    live = tmp_path / "live" / "m9.arena.jsonl"
    write_lines(live, good[:3])
    follower = EventFollower(tmp_path)
    follower.poll(0.0)
    assert len(follower.matches["m9"].turns) == 2
    final = tmp_path / "matches" / "m9" / "m9.arena.jsonl"
    write_lines(final, good[:5] + ['{"type": "result", "winners": [0], "scores": [1, 0], "reason": "adjudication"}'])
    follower.matches["m9"].reader.close()         # as on a share where an open file goes away
    live.unlink()
    follower.poll(1.0)
    match = follower.matches["m9"]
    assert [t.number for t in match.turns] == [1, 2, 3, 4] and match.outcome is not None
    follower.close()


def test_projection_settings_in_the_event_file_are_checked(tmp_path):
    from runner.tournament import EventError, load_event
    base = 'name = "p"\ngame = "hex"\n[[contestant]]\nseat = "bot:1"\n[[contestant]]\nseat = "bot:2"\n'
    path = tmp_path / "e.toml"
    path.write_text(base + '[projection]\npace = 1.5\nlayout = "grid"\n')
    event = load_event(path)
    assert event.projection["pace"] == 1.5 and event.projection["layout"] == "grid"
    assert event.projection["intermission"] == 8.0
    for bad, words in [('pace = "fast"', "pace must be a number"), ('layout = "wall"', "focus"),
                       ("speed = 2", "has no 'speed'")]:
        path.write_text(base + f"[projection]\n{bad}\n")
        with pytest.raises(EventError, match=words):
            load_event(path)


def test_short_soak_stays_flat(tmp_path):
    """The bench's quick version: 20 s of a scripted event, sampled every 5 s.

    The pace and the short hold and intermission make the first match followed (at
    most the Robot one, 113 records: 7 s at 16 turns a second) end, with its card, by
    about 12 s, so the window sees the projection move on whichever match it picked."""
    done = subprocess.run([sys.executable, str(SOAK), "--seconds", "20", "--sample", "5",
                           "--size", "1280x720", "--pace", "16", "--hold", "1",
                           "--intermission", "2"], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert "memory flat: yes" in done.stdout, done.stdout + done.stderr
    assert "followed matches: yes" in done.stdout, done.stdout
    rows = [line for line in done.stdout.splitlines() if line[:7].strip().replace(".", "").isdigit()]
    assert len(rows) >= 3


def test_a_hung_contestant_is_named_and_the_screen_keeps_going(tmp_path, corpus, arena_home, monkeypatch):
    """A match whose record stops growing (a program that hangs until its time limit):
    the screen names who it waits for, counts the seconds, and follows on when the turn
    comes; the loop never blocks on it."""
    import runner.projection as model
    import ui.scenes.projection as projection
    from ui.app import App
    from ui.settings import Settings
    monkeypatch.setattr(model, "SLOW_ANSWER", 0.3)
    good = good_record(corpus, 6)
    live = tmp_path / "live" / "m-slow.arena.jsonl"
    write_lines(live, good[:3])
    (tmp_path / "event.json").write_text('{"name": "Slow", "projection": {"pace": 0}}')
    app = App(Settings(), size=(1280, 720), fullscreen=False)
    try:
        scene = projection.ProjectionScene(app, tmp_path)
        app.push(scene)
        run_frames(app, scene, lambda: scene.model.phase == "playing", 5)
        started = time.monotonic()
        run_frames(app, scene, lambda: bool(scene.model.slow_seat(scene.model.main, time.monotonic())), 5)
        waiting = scene.model.slow_seat(scene.model.main, time.monotonic())
        assert waiting in scene.model.main.match.names and time.monotonic() - started < 3
        assert scene.wake_interval() <= 0.25                  # the loop keeps waking
        app.draw()
        with open(live, "a") as fh:
            fh.write(good[3] + "\n")
        run_frames(app, scene, lambda: scene.model.main.shown == 3, 5)
        assert scene.model.main.shown == 3 and not scene.model.slow_seat(scene.model.main, time.monotonic())
    finally:
        app.close()


def test_project_command_needs_an_event_folder(tmp_path, capsys):
    import main
    assert main.main(["project", str(tmp_path / "nowhere")]) == 2
    assert "no such event folder" in capsys.readouterr().err
