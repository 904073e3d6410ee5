"""The tournament screen reads an event folder's standings.json and draws the table;
``arena tournament --window`` runs the event on a thread and hands the shell a request."""
from __future__ import annotations

import argparse
import json
import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

TABLE = {"event": "cup", "game": "hex", "format": "round-robin",
         "matches": {"planned": 3, "played": 2, "errors": 0},
         "standings": [
             {"rank": 1, "name": "Alice", "played": 2, "points": 2.0, "score": 2.0, "wins": 2,
              "draws": 0, "losses": 0, "elo": 120.4, "elo_error": 300.0, "failures": 0},
             {"rank": 2, "name": "Bob", "played": 2, "points": 0.5, "score": 0.5, "wins": 0,
              "draws": 1, "losses": 1, "elo": -60.2, "elo_error": 280.0, "failures": 1}]}


def test_the_screen_shows_the_standings_and_follows_changes(tmp_path, arena_home):
    from ui.app import App
    from ui.scenes.tournament import TournamentScene
    from ui.settings import Settings
    (tmp_path / "standings.json").write_text(json.dumps(TABLE))
    app = App(Settings(), size=(1280, 720), fullscreen=False)
    try:
        scene = TournamentScene(app, tmp_path, log=["[2/3] m0001 Alice vs Bob: 1-0"])
        app.push(scene)
        for _ in range(3):
            app.frame(block=False)
        rows = scene.rows()
        assert [r["name"] for r in rows] == ["Alice", "Bob"]
        assert rows[0]["rating"] == "+120 ± 300" and rows[1]["wdl"] == "0-1-1"
        assert "2 of 3 matches" in scene.status()
        surface = pygame.Surface((1280, 720))
        scene.draw(surface)
        changed = dict(TABLE, matches={"planned": 3, "played": 3, "errors": 0})
        time.sleep(0.02)
        (tmp_path / "standings.json").write_text(json.dumps(changed))
        os.utime(tmp_path / "standings.json", (time.time() + 5, time.time() + 5))
        assert scene.update(2.0) and "3 of 3 matches" in scene.status()
    finally:
        app.close()


def test_window_flag_runs_the_event_on_a_thread(tmp_path):
    from runner.tournament import ShowStandings, cmd_tournament
    event = tmp_path / "e.toml"
    event.write_text('name = "w"\ngame = "hex"\nvariant = "5x5"\nconcurrency = 2\n'
                     '[[contestant]]\nseat = "bot:1"\n[[contestant]]\nseat = "bot:1"\nname = "b"\n')
    args = argparse.Namespace(event=str(event), out=str(tmp_path / "out"), workers=None,
                              cluster=None, quiet=True, window=True)
    request = cmd_tournament(args)
    assert isinstance(request, ShowStandings) and request.folder == tmp_path / "out"
    assert request.finish() == 0
    assert json.loads((tmp_path / "out" / "standings.json").read_text())["matches"]["played"] == 1
