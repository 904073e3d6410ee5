"""The organizers' screens: the projection's size, live header and running matches, the
tournament window's event, format and ratings, and names that fit at 1080p."""
import pygame

from tournament_events import write_event_folder
from ui_helpers import pump


# ---------------------------------------------------------------- Organizers
def test_the_global_size_reaches_arena_project(arena_home, tmp_path):
    import main
    from runner.tournament import ShowStandings
    from ui.scenes.projection import open_projection
    parser = main.build_parser()
    for argv in (["--size", "1600x900", "project", str(tmp_path)], ["project", str(tmp_path), "--size", "1600x900"]):
        args = parser.parse_args(argv)
        assert args.size == "1600x900", argv
        app = open_projection(args, ShowStandings(tmp_path, None, [], {}, project=True))
        try:
            assert app.size == (1600, 900) and not app.fullscreen, argv
        finally:
            app.close()
    assert parser.parse_args(["project", str(tmp_path)]).size is None


def test_the_live_header_counts_running_and_scheduled_matches_before_the_first_standings(tmp_path):
    from runner.live import EventFollower
    write_event_folder(tmp_path / "event", results=0, planned=None, running=["m0001", "m0002"], upcoming=2)
    follower = EventFollower(tmp_path / "event")
    follower.poll(0.0)
    assert len(follower.running()) == 2
    assert follower.counts() == (0, 4)                      # was "0 of 0 matches"
    assert not follower.finished()


def test_a_finished_folder_resumed_headless_shows_no_stale_running_match(tmp_path):
    from runner.live import EventFollower
    write_event_folder(tmp_path / "event", results=12, planned=12, running=["m0005"], upcoming=3)
    follower = EventFollower(tmp_path / "event")
    follower.poll(0.0)
    assert follower.counts() == (12, 12)
    assert follower.running() == [] and follower.next_pairings() == []
    assert follower.finished()


def test_the_tournament_window_shows_the_event_and_its_schedule_from_the_first_second(home, tmp_path):
    import json
    from ui.scenes.tournament import TournamentScene
    folder = tmp_path / "out-folder"
    write_event_folder(folder, results=0, planned=None, running=["m0001", "m0002"], upcoming=2)
    (folder / "event.json").write_text(json.dumps({"name": "Robot Cup", "game": "robot", "format": "round-robin"}))
    scene = home.push(TournamentScene(home, folder))
    pump(home)
    assert scene.title_name() == "Robot Cup"                        # not the --out folder's name
    lines = [text for text, _playing in scene.schedule_lines()]
    assert lines[:2] == ["Playing: Ada vs Alan · turn 5"] * 2 and lines[2] == "Next: Ada vs Alan", lines
    assert "0 of 4 matches" in scene.status()
    home.draw()


def test_the_tournament_window_names_the_format_as_the_event_file_did(home, tmp_path):
    """Robot's 'pairs' runs as a round robin; the window says 'pairs', as the file did."""
    import json
    from runner.tournament import _write_event_json, load_event
    from ui.scenes.tournament import TournamentScene
    root = __import__("pathlib").Path(__file__).resolve().parents[2]
    folder = tmp_path / "robot-pairs"
    event = load_event(root / "games" / "robot" / "events" / "robot-pairs.toml", out=folder)
    assert event.format == "round-robin" and event.format_name == "pairs"
    write_event_folder(folder, results=0, planned=None, running=["m0001"], upcoming=2)
    _write_event_json(event)
    assert json.loads((folder / "event.json").read_text())["format_name"] == "pairs"
    scene = home.push(TournamentScene(home, folder))
    pump(home)
    assert " · pairs · " in scene.status() and "round-robin" not in scene.status(), scene.status()
    home.draw()
    home.pop()


def test_the_rating_column_is_one_kind_and_empty_for_who_has_not_played(home, tmp_path):
    import json
    from ui.scenes.tournament import TournamentScene
    folder = tmp_path / "event"
    folder.mkdir()
    table = {"event": "E", "game": "robot", "format": "round-robin", "matches": {"played": 1, "planned": 6},
             "standings": [
                 {"rank": 1, "name": "Ada", "played": 1, "points": 3, "score": 1, "elo": 120.0, "elo_error": 300.0,
                  "mu": 27.1, "sigma": 7.9},
                 {"rank": 2, "name": "Alan", "played": 1, "points": 0, "score": 0, "elo": -120.0, "elo_error": 300.0,
                  "mu": 22.9, "sigma": 7.9},
                 {"rank": 3, "name": "Grace", "played": 0, "points": 0, "score": 0, "mu": 25.0, "sigma": 8.3}]}
    (folder / "standings.json").write_text(json.dumps(table))
    scene = home.push(TournamentScene(home, folder))
    pump(home)
    ratings = [row["rating"] for row in scene.rows()]
    assert ratings == ["+120 ± 300", "-120 ± 300", "—"], ratings


def test_nothing_projected_at_1080p_is_under_24_pixels_and_long_names_fit_smaller(arena_home, tmp_path, monkeypatch):
    """Every font the projection (and the boards it draws) makes while showing the
    focus view, the grid, an intermission and the standings is at least 24 px at
    1920x1080; a long name is written smaller before it is cut."""
    import json
    from games.render import theme as render_theme
    from ui.app import App
    from runner.projection import Playback
    from ui.scenes.projection import ProjectionScene
    from ui.settings import Settings
    folder = tmp_path / "event"
    write_event_folder(folder, results=2, planned=12, running=["m0003", "m0004"], upcoming=3)
    long_names = ["Ada Lovelace of the Analytical Engine", "Alan Turing", "Grace Hopper", "Edsger Dijkstra"]
    (folder / "standings.json").write_text(json.dumps({"event": "Cup", "matches": {"played": 2, "planned": 12},
        "standings": [{"rank": i + 1, "name": n, "played": 1, "points": 3 - i, "wins": 1, "draws": 0,
                       "losses": 0} for i, n in enumerate(long_names)]}))
    app = App(Settings(), size=(1920, 1080), fullscreen=False)
    try:
        scene = app.push(ProjectionScene(app, folder))
        pump(app, 3)
        sizes = []
        real_font = pygame.font.Font
        render_theme.font.cache_clear()
        monkeypatch.setattr(pygame.font, "Font", lambda path, size: sizes.append(size) or real_font(path, size))
        scene._text.clear()
        running = scene.model.follower.running()
        assert running, "the live records were read"
        scene.model.main = Playback(running[0])
        scene.model.main.state = running[0].state_after(len(running[0].turns)) or scene.model.main.state
        scene.model.phase = "playing"
        app.draw()                                           # focus, with a thumbnail
        scene.model.layout_name = "grid"
        scene.model.cells = [Playback(m) for m in running]
        app.draw()
        scene.model.layout_name, scene.model.cells, scene.model.main = "focus", [], None
        import ui.scenes.projection as projection
        cut = []
        real_elide = projection.elide
        monkeypatch.setattr(projection, "elide", lambda face, text, width: cut.append(text) or real_elide(face, text, width))
        scene.model.phase = "intermission"
        from games.api import Outcome, Termination
        scene.model.last = {"names": long_names[:2], "outcome": Outcome((0,), (1.0, 0.0), Termination.WIN, ""), "error": ""}
        monkeypatch.setattr(scene.model.follower, "next_pairings", lambda limit=3: [long_names[:2]])
        monkeypatch.setattr(scene.model.follower, "running", lambda: [])
        app.draw()
        assert long_names[0] not in cut, cut                  # the intermission card: smaller, not cut
        scene.model.show_standings = True
        app.draw()
        assert sizes and min(sizes) >= 24, sorted(set(sizes))
    finally:
        app.close()


def test_a_thumbnail_caption_too_long_for_one_line_takes_two():
    from ui.scenes.projection import caption_lines
    names = ["Ada Lovelace (Python)", "Alan Turing", "Edsger Dijkstra", "Grace Hopper (C, -O2)"]
    assert caption_lines(names, lambda text: len(text) < 200) == [" – ".join(names)]
    assert caption_lines(names, lambda text: len(text) < 40) == ["Ada Lovelace (Python) – Alan Turing",
                                                                 "Edsger Dijkstra – Grace Hopper (C, -O2)"]


def test_the_intermission_card_gives_a_long_name_two_lines_before_smaller_type(arena_home, tmp_path, monkeypatch):
    """At 1280×720 the next match's long names and the last match's line take two lines
    in big type (the card grows, the standings start under it), not one line smaller or cut."""
    import json
    import ui.scenes.projection as projection
    from games.api import Outcome, Termination
    from ui.app import App
    from ui.scenes.projection import ProjectionScene
    from ui.settings import Settings
    folder = tmp_path / "event"
    write_event_folder(folder, results=2, planned=12, running=[], upcoming=3)
    names = ["Ada Lovelace of the Analytical Engine", "Alan Turing of Bletchley Park"]
    (folder / "standings.json").write_text(json.dumps({"event": "Cup", "matches": {"played": 2, "planned": 12},
        "standings": [{"rank": i + 1, "name": n, "played": 1, "points": 3 - i, "wins": 1, "draws": 0,
                       "losses": 0} for i, n in enumerate(names)]}))
    app = App(Settings(), size=(1280, 720), fullscreen=False)
    try:
        scene = app.push(ProjectionScene(app, folder))
        pump(app, 3)
        scene.model.phase = "intermission"
        scene.model.last = {"names": names, "outcome": Outcome((0,), (1.0, 0.0), Termination.WIN, ""), "error": ""}
        monkeypatch.setattr(scene.model.follower, "next_pairings", lambda limit=3: [names])
        monkeypatch.setattr(scene.model.follower, "running", lambda: [])
        drawn, cut = [], []
        real_text, real_elide = scene.text, projection.elide
        monkeypatch.setattr(scene, "text", lambda surface, text, pos, size, *a, **k:
                            drawn.append((text, pos, size)) or real_text(surface, text, pos, size, *a, **k))
        monkeypatch.setattr(projection, "elide", lambda face, text, width: cut.append(text) or real_elide(face, text, width))
        scene._text.clear()
        app.draw()
        texts = [text for text, _pos, _size in drawn]
        last_line = drawn[texts.index("Last match") + 1:texts.index("Next match")]
        table = drawn[texts.index("#"):]
        drawn = drawn[texts.index("Next match") + 1:texts.index("#")]      # the next match's card
        texts = [text for text, _pos, _size in drawn]
        share = (app.size[0] - 2 * scene.u(40) - scene.u(260)) // 2 - scene.u(90)
        for name in names:
            assert name not in texts, texts                              # not on one line
            parts = [(t, pos, size) for t, pos, size in drawn if t and t in name and t != name]
            assert " ".join(t for t, _p, _s in parts[:2]) == name, parts  # but whole on two
            assert parts[1][1][1] > parts[0][1][1]                       # one under the other
            one_line = scene.fit_units(name, 60, share, bold=True)
            assert parts[0][2] > one_line, (parts[0][2], one_line)        # bigger than one line allowed
        result = projection._result(names, scene.model.last["outcome"], "")
        assert " ".join(t for t, _p, _s in last_line) == result and len(last_line) == 2, last_line
        assert not any(t in cut for t in names + [result]), cut
        bottom_of_names = max(pos[1] for t, pos, _s in drawn if t and t in names[0] + names[1])
        header_y = next(pos[1] for t, pos, _s in table if t == "Contestant")
        assert header_y > bottom_of_names + scene.u(40)                    # the table starts under the card
    finally:
        app.close()
