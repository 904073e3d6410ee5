"""Save a PNG of every scene at 1280x720 and 1920x1080 (no window needed).

Besides the shell's screens: the home screen with a broken game package (dark
and light), a live Xiangqi match in contest mode (the engine
thinking, then a selected piece, with the author banner), a contest PLAY.INI error,
a live 4-player Robot match mid-game and one with a person's countdown, a Robot
replay and a Xiangqi replay of a REPORT.TXT (in WXF).

    python bench/screenshots.py [--out out/screens] [--sizes 1280x720,1920x1080]
    python bench/screenshots.py --language vi --sizes 1280x720,1920x1080,3840x2160
    python bench/screenshots.py --language vi --only rules-texts --sizes 1280x720,1920x1080,3840x2160
    python bench/screenshots.py --language vi --only program-details --sizes 1280x720,1920x1080,3840x2160

``--language en|vi`` makes the interface set (Home, New match, a match, a replay,
Settings, How to play, a tournament; dark and light) in that language, named
``<screen>_<language>[_light]_<W>x<H>.png``; with ``--only rules-texts``, the texts the
games' rules and the referee write (events, results, errors) and the file dialog; with
``--only program-details``, what the runner says about misbehaving programs (debug
panels, result banners), Home's recent records and exported pictures' captions.

Look at the pictures after a layout change: overlaps, clipped text, empty areas.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import atexit
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def settle(app, seconds: float = 0.0) -> None:
    """Run frames without blocking for ``seconds`` (at least two), then draw."""
    end = time.monotonic() + seconds
    app.frame(block=False)
    app.frame(block=False)
    while time.monotonic() < end:
        app.frame(block=False)
        time.sleep(0.01)
    app.draw()


def themed_savers(app, out: Path, size, saved: list, code: str | None = None):
    """For the dark theme, then the light one: switch ``app`` to it and yield the theme
    and a ``save(name)`` that writes the window to ``out/<name>[_<code>][_light]_<W>x<H>.png``
    and notes the path in ``saved``."""
    import pygame

    for theme in ("dark", "light"):
        app.settings.theme = theme
        app.set_theme(theme)
        tag = (f"_{code}" if code else "") + ("" if theme == "dark" else "_light")

        def save(name: str, tag=tag) -> None:
            path = out / f"{name}{tag}_{size[0]}x{size[1]}.png"
            pygame.image.save(app.window, str(path))
            saved.append(path)
        yield theme, save


def scratch_folder(prefix: str) -> str:
    """A new temporary folder, removed when the script ends (nothing left in /tmp)."""
    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


@contextlib.contextmanager
def broken_game(name: str = "crossed"):
    """While inside, ``games.NAME`` is a package whose ``__init__`` fails on a bad import
    (as a half-written game would), ahead of any real one."""
    import games
    from games import registry
    folder = Path(scratch_folder("arena-broken-")) / "games"
    (folder / name).mkdir(parents=True)
    (folder / name / "__init__.py").write_text(
        f'"""A game still being written."""\nfrom games.{name}.grid import Grid\n', encoding="utf-8")
    saved_path, saved_names = list(games.__path__), registry.GAME_PACKAGES
    games.__path__[:] = [str(folder), *saved_path]
    if name not in saved_names:
        registry.GAME_PACKAGES = (*saved_names, name)
    importlib.invalidate_caches()
    try:
        yield name
    finally:
        games.__path__[:] = saved_path
        registry.GAME_PACKAGES = saved_names
        for module in [m for m in sys.modules if m == f"games.{name}" or m.startswith(f"games.{name}.")]:
            del sys.modules[module]


def home_with_a_broken_game(app, save, name: str) -> None:
    from ui.scenes.home import HomeScene
    with broken_game():
        app.push(HomeScene(app))
        settle(app)
        save(name)
        app.pop()


def finished_match(app, size_option: int = 7):
    """A bot-vs-bot Hex match played to its end (for the Match and Replay pictures)."""
    from games import registry
    from runner.match import Match, default_record_path
    from runner.paths import records_dir
    from runner.seats import make_seat
    plugin = registry.plugin("hex")
    options = plugin.new_game().spec.resolve_options(None, {"size": size_option})
    seats = [make_seat("bot:1", plugin, 1), make_seat("bot:1", plugin, 2)]
    return Match(plugin, options, seats, seed=7, record_path=default_record_path(records_dir(), "hex"))


def shoot(size: tuple[int, int], out: Path) -> list[Path]:
    import pygame

    from games import registry
    from ui.app import App
    from ui.settings import Settings
    from ui.scenes.home import HomeScene
    from ui.scenes.howto import HowToScene
    from ui.scenes.match import MatchScene
    from ui.scenes.new_match import NewMatchScene
    from ui.scenes.replay import ReplayScene
    from ui.scenes.settings import SettingsScene

    saved = []
    app = App(Settings(), size=size, fullscreen=False)

    def save(name: str) -> None:
        path = out / f"{name}_{size[0]}x{size[1]}.png"
        pygame.image.save(app.window, str(path))
        saved.append(path)

    app.push(HomeScene(app))
    settle(app)
    save("home")
    home_with_a_broken_game(app, save, "home_broken")
    app.push(NewMatchScene(app, game="hex"))
    settle(app)
    save("new_match")
    app.pop()
    for other in registry.all_plugins():
        if other.name != "hex":
            app.push(NewMatchScene(app, game=other.name))
            settle(app)
            save(f"new_match_{other.name}")
            app.pop()
    app.push(SettingsScene(app))
    settle(app)
    save("settings")
    app.pop()
    app.push(HowToScene(app, registry.plugin("robot" if any(p.name == "robot" for p in registry.all_plugins()) else "hex")))
    settle(app)
    save("howto")
    app.pop()
    match = finished_match(app)
    scene = app.push(MatchScene(app, match))
    match.join(10)
    settle(app, 0.2)
    scene.toggle_debug(0)
    scene.select(3)
    settle(app)
    save("match_finished")
    app.push(ReplayScene(app, replay=match.as_replay()))
    view = app.scene
    view.go(len(view.replay.states) // 2)
    view.toggle_debug(1)
    settle(app)
    save("replay")
    app.pop()
    app.pop()
    app.push(ReplayScene(app, path=str(out / "no-such-record.txt")))
    settle(app)
    save("replay_error")
    app.pop()
    app.push(ReplayScene(app, path=None))
    settle(app)
    save("replay_file_dialog")
    app.pop()
    app.pop()
    # A live match: a person against a bot, waiting for the person.
    plugin = registry.plugin("hex")
    from runner.match import Match
    from runner.seats import make_seat
    live = Match(plugin, plugin.new_game().spec.resolve_options("11x11"),
                 [make_seat("human", plugin, 1), make_seat("bot:1", plugin, 2)], seed=3)
    live.seats[0].label = "Anna"
    scene = app.push(MatchScene(app, live))
    for move in ("f6", "e5", "d4"):
        deadline = time.monotonic() + 5
        while not live.human_waiting() and time.monotonic() < deadline:
            time.sleep(0.01)
        settle(app, 0.1)
        scene.try_move(move) or scene.try_move("a1")
    deadline = time.monotonic() + 5
    while not live.human_waiting() and time.monotonic() < deadline:
        time.sleep(0.01)
    settle(app, 0.15)
    save("match_live")
    app.pop()
    for other in registry.all_plugins():
        if other.name == "hex" or not other.bot:
            continue
        game = other.new_game()
        options = game.spec.resolve_options(None, {})
        count = max(game.spec.min_seats, min(game.spec.max_seats, game.seats_for(options)))
        try:
            seats = [make_seat("bot:1", other, i) for i in range(count)]
            watched = Match(other, options, seats, seed=5)
        except Exception as exc:          # a game still being written
            print(f"{other.name}: no match ({exc})")
            continue
        scene = app.push(MatchScene(app, watched))
        scene.toggle_debug(0)
        settle(app, 1.0)
        save(f"match_{other.name}")
        app.pop()
    more_games(app, save, out)
    app.settings.theme = "light"
    app.set_theme("light")
    settle(app)
    save("home_light")
    home_with_a_broken_game(app, save, "home_broken_light")
    app.close()
    return saved


def shoot_broken(size: tuple[int, int], out: Path) -> list[Path]:
    """Only the home screen with a broken game, dark then light."""
    import pygame

    from ui.app import App
    from ui.settings import Settings

    saved = []
    app = App(Settings(), size=size, fullscreen=False)

    def save(name: str) -> None:
        path = out / f"{name}_{size[0]}x{size[1]}.png"
        pygame.image.save(app.window, str(path))
        saved.append(path)

    home_with_a_broken_game(app, save, "home_broken")
    app.settings.theme = "light"
    app.set_theme("light")
    home_with_a_broken_game(app, save, "home_broken_light")
    app.close()
    return saved


def shoot_newcomers(size: tuple[int, int], out: Path) -> list[Path]:
    """The screens the newcomers' changes touch, dark then light: the New match form
    (Hex, Robot), How to play (Robot), a person's turn in Hex and in Robot (the keys
    under the board, the seat clocks), Resign asking to confirm, and a program seat
    whose command does not exist."""
    import pygame

    from games import registry
    from runner.match import Match
    from runner.seats import make_seat
    from ui.app import App
    from ui.scenes.howto import HowToScene
    from ui.scenes.match import MatchScene
    from ui.scenes.new_match import NewMatchScene, SeatChoice
    from ui.settings import Settings

    saved = []
    app = App(Settings(), size=size, fullscreen=False)
    for theme, save in themed_savers(app, out, size, saved, None):

        from ui.scenes.home import HomeScene, sample_records
        saved_recent = list(app.settings.recent_records)
        app.settings.recent_records = []
        app.push(HomeScene(app))
        settle(app)
        save("nc_home_first_time")
        app.settings.recent_records = [str(p) for p in sample_records()] * 4
        app.scene.relayout()
        settle(app)
        save("nc_home_recent")
        app.pop()
        app.settings.recent_records = saved_recent
        for game in ("hex", "robot"):
            app.push(NewMatchScene(app, game=game))
            settle(app)
            save(f"nc_new_match_{game}")
            app.pop()
        form = app.push(NewMatchScene(app, game="hex"))
        form.seats[1] = SeatChoice("ext", command="./no-such-player --fast")
        form.relayout()
        settle(app)
        save("nc_new_match_missing_program")
        app.pop()
        app.push(HowToScene(app, registry.plugin("robot")))
        settle(app)
        save("nc_howto_robot")
        app.pop()
        page = app.push(HowToScene(app, registry.plugin("xiangqi")))
        settle(app)
        if page.box.scroll_bar is not None:
            page.box.scroll_bar.set_scroll_from_start_percentage(0.1)
        settle(app, 0.1)
        save("nc_howto_xiangqi")
        app.pop()
        for plugin in registry.all_plugins():          # the Vietnamese pages
            app.push(HowToScene(app, plugin, language="vi"))
            settle(app)
            save(f"nc_howto_{plugin.name}_vi")
            app.pop()
        hexp = registry.plugin("hex")
        live = Match(hexp, hexp.new_game().spec.resolve_options("11x11"),
                     [make_seat("human", hexp, 1), make_seat("bot:1", hexp, 2)], seed=3)
        live.seats[0].label = "Anna"
        scene = app.push(MatchScene(app, live))
        wait_for(app, lambda: scene.view.human_seat == 0)
        scene.try_move("f6")
        wait_for(app, lambda: scene.view.human_seat == 0 and len(live.snapshot().turns) == 2)
        settle(app, 0.3)
        save("nc_match_hex_person")
        scene.resign()
        settle(app)
        save("nc_match_hex_resign_confirm")
        app.pop()
        from ui.scenes.replay import ReplayScene
        app.push(ReplayScene(app, path=str(Path(__file__).resolve().parent.parent / "replays"
                                           / "robot-sample.arena.jsonl")))
        settle(app)
        view = app.scene
        view.go(56)
        view.toggle_debug(0)
        settle(app)
        save("nc_replay_robot_debug")
        shown = range(view.moves.first, view.moves.first + view.moves.visible_rows())
        row = next((i for i in shown if view.move_note(i)), view.selected_index())  # a cut note
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(
            view.moves.rect.centerx, view.moves.row_top(row) + 4), rel=(0, 0), buttons=(0, 0, 0)))
        settle(app)
        save("nc_replay_robot_note")
        app.pop()
        app.push(ReplayScene(app, path=str(Path(__file__).resolve().parent.parent / "replays"
                                           / "xiangqi-sample.arena.jsonl")))
        settle(app)
        view = app.scene
        view.go(12)
        view.toggle_debug(0)
        settle(app)
        save("nc_replay_xiangqi_debug_beside")
        app.pop()
        app.push(ReplayScene(app, path=str(Path(__file__).resolve().parent.parent / "replays"
                                           / "hex-sample.arena.jsonl")))
        settle(app)
        view = app.scene
        view.go(20)
        view.toggle_debug(0)
        view.ask_export_folder()
        settle(app)
        save("nc_replay_export_dialog")
        view.export_dialog.kill()
        view.export_dialog = None
        view.export(Path(scratch_folder("arena-exports-")))
        settle(app)
        save("nc_replay_exported")
        view.toggle_debug(0)
        if view.speed_menu is not None:
            menu = view.speed_menu
            menu.current_state.finish()
            menu.current_state = menu.menu_states["expanded"]
            menu.current_state.start()
        settle(app)
        save("nc_replay_speed_menu")
        app.pop()
        robot = registry.plugin("robot")
        options = robot.new_game().spec.resolve_options(None, {"players": 4})
        watched = Match(robot, options, [make_seat("bot:1", robot, i) for i in range(4)], seed=5)
        scene = app.push(MatchScene(app, watched))
        settle(app, 1.5)
        scene.toggle_debug(1)
        settle(app)
        save("nc_match_robot_watch_debug")
        app.pop()
        person = Match(robot, options, [make_seat("human", robot, 0)]
                       + [make_seat("bot:1", robot, i) for i in (1, 2, 3)], seed=6)
        person.seats[0].label = "Anna"
        scene = app.push(MatchScene(app, person))
        wait_for(app, lambda: scene.view.human_seat == 0)
        state = person.snapshot().state
        cell = next((x, y) for x in range(state.board.height // 2, state.board.height)
                    for y in range(state.board.width // 2, state.board.width) if state.is_open(x, y))
        scene.try_move(f"{cell[0]} {cell[1]}")
        wait_for(app, lambda: scene.view.human_seat == 0 and len(person.snapshot().turns) == 1)
        settle(app, 1.0)
        save("nc_match_robot_person")
        app.pop()
    app.close()
    return saved


def wait_for(app, condition, seconds: float = 10.0) -> bool:
    """Run frames (the screen polls its match) until ``condition()`` holds."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        app.frame(block=False)
        time.sleep(0.01)
    return condition()


def more_games(app, save, out: Path) -> None:
    """Xiangqi contest mode, Robot live and replayed, a REPORT.TXT replay."""
    xiangqi_contest(app, save, out)
    robot_matches(app, save)
    xiangqi_report_replay(app, save, out)


def xiangqi_contest(app, save, out: Path) -> None:
    from games.xiangqi import contest
    from games.xiangqi.movefiles import parse_play_ini
    from ui.scenes.match import MatchScene

    folder = Path(scratch_folder("arena-cc-"))
    authors = ("Nguyễn Văn An", "Trạng Cờ 2.5", "Hà Nội, Việt Nam · an@example.vn")
    match = contest.build_contest_match(folder, parse_play_ini("HUMAN\nCOMPUTER\n"), authors,
                                        level=5, movetime=4.0, seed=1)
    scene = app.push(MatchScene(app, match))
    for move in ("H2E2", "H0G2", "I0H0", "C3C4", "G3G4", "B0C2", "A0A1", "A1D1", "H0H6"):
        wait_for(app, lambda: scene.view.human_seat == 0)
        settle(app, 0.1)
        legal = match.snapshot().state.legal_moves(0)
        scene.try_move(move if move in legal else legal[0])
        settle(app, 0.3)
        if match.snapshot().waiting_for == (1,):       # past its opening book, the engine thinks
            break
    save("contest_xiangqi_thinking")
    wait_for(app, lambda: scene.view.human_seat == 0)
    settle(app, 0.2)
    state = match.snapshot().state
    move = max(state.legal_moves(0), key=lambda m: sum(n.startswith(m[:2]) for n in state.legal_moves(0)))
    scene.view.selected, scene.view.hover = move[:2], move[2:]
    settle(app)
    save("contest_xiangqi_selected")
    app.pop()
    error = contest.error_match(f"{folder / 'PLAY.INI'}, line 2: COMPUTER, HUMAN or OTHER (got 'ROBOT')")
    app.push(MatchScene(app, error))
    error.join(5)
    settle(app, 0.2)
    save("contest_error")
    app.pop()


def robot_matches(app, save) -> None:
    from games import registry
    from games.robot.render import click_target, key_target
    from runner.match import Match
    from runner.seats import make_seat
    from ui.scenes.match import MatchScene
    from ui.scenes.replay import ReplayScene

    plugin = registry.plugin("robot")
    options = plugin.new_game().spec.resolve_options(None, {"players": 4})
    live = Match(plugin, options, [make_seat("bot:1", plugin, i) for i in range(4)], seed=5)
    live.pause()
    scene = app.push(MatchScene(app, live))
    for turn in range(18):
        live.step()
        wait_for(app, lambda: len(live.snapshot().turns) > turn)
    settle(app, 0.2)
    save("match_robot_live")
    app.pop()

    person = Match(plugin, options, [make_seat("human", plugin, 0)]
                   + [make_seat("bot:1", plugin, i) for i in (1, 2, 3)], seed=6)
    person.seats[0].label = "Anna"
    scene = app.push(MatchScene(app, person))
    steps = [(0, 1), (1, 0), (0, 1), (1, 0), (0, -1), (0, -1), (-1, 0)]
    for turn in range(len(steps) + 1):
        wait_for(app, lambda: scene.person_to_move() == 0 or person.snapshot().outcome)
        settle(app, 0.05)
        state = person.snapshot().state
        if person.snapshot().outcome or 0 not in state.to_move():
            break
        if state.placing(0):
            middle = (state.board.height // 2, state.board.width // 2)
            cell = min(((x, y) for x in range(state.board.height) for y in range(state.board.width)
                        if click_target(state, 0, (x, y))),
                       key=lambda c: abs(c[0] - middle[0]) + abs(c[1] - middle[1]))
        else:
            options_here = [key_target(state, 0, step) for step in steps[turn - 1:] + steps]
            cell = next((c for c in options_here if c), state.position(0))
        scene.try_move(f"{cell[0]} {cell[1]}")
        wait_for(app, lambda: len(person.snapshot().turns) > turn)
    wait_for(app, lambda: scene.person_to_move() == 0 or person.snapshot().outcome)
    settle(app, 1.2)
    save("match_robot_person")
    app.pop()

    finished = Match(plugin, options, [make_seat("bot:1", plugin, i) for i in range(4)], seed=8)
    finished.run()
    app.push(ReplayScene(app, replay=finished.as_replay()))
    view = app.scene
    marked = [i for i, s in enumerate(view.replay.states) if i > len(view.replay.states) // 3
              and getattr(s, "turn_marks", ())]
    view.go(marked[0] if marked else len(view.replay.states) // 2)
    view.toggle_debug(2)
    settle(app)
    save("replay_robot")
    app.pop()


def xiangqi_report_replay(app, save, out: Path) -> None:
    from games.xiangqi import contest
    from games.xiangqi.movefiles import parse_play_ini
    from ui.scenes.replay import ReplayScene

    folder = Path(scratch_folder("arena-report-"))
    authors = ("Tran Thi B", "Co Tuong 1.0", "Hue")
    match = contest.build_contest_match(folder, parse_play_ini("COMPUTER\nCOMPUTER\n"), authors, level=1,
                                        movetime=0.02, seed=4, options={"no_capture_limit": 30})
    match.run()
    app.settings.notations["xiangqi"] = "WXF"
    app.push(ReplayScene(app, path=str(folder / "REPORT.TXT")))
    view = app.scene
    if hasattr(view, "go"):
        view.go(len(view.replay.states) * 2 // 3)
    settle(app)
    save("replay_xiangqi_report_wxf")
    app.pop()
    app.settings.notations.pop("xiangqi")


TOURNAMENT_TABLE = {
    "event": "Vòng loại Hà Nội", "game": "hex", "format": "round-robin",
    "matches": {"planned": 6, "played": 4, "errors": 0},
    "standings": [
        {"rank": 1, "name": "Nguyễn Văn An", "played": 3, "points": 2.5, "score": 2.5, "wins": 2,
         "draws": 1, "losses": 0, "elo": 120.4, "elo_error": 300.0, "failures": 0},
        {"rank": 2, "name": "Trần Thị Bình", "played": 3, "points": 1.0, "score": 1.0, "wins": 1,
         "draws": 0, "losses": 2, "elo": -20.0, "elo_error": 280.0, "failures": 1},
        {"rank": 3, "name": "bot:2", "played": 2, "points": 0.5, "score": 0.5, "wins": 0,
         "draws": 1, "losses": 1, "elo": -60.2, "elo_error": 280.0, "failures": 0}]}


def shoot_language(size: tuple[int, int], out: Path, code: str) -> list[Path]:
    """The interface in language ``code``, dark then light: Home, New match (Hex, Robot),
    a person's Hex match and a watched Robot match, a replay with a debug panel,
    Settings, How to play and a tournament's standings."""
    import json

    from games import registry
    from runner.match import Match
    from runner.seats import make_seat
    from ui.app import App
    from ui.scenes.home import HomeScene
    from ui.scenes.howto import HowToScene
    from ui.scenes.match import MatchScene
    from ui.scenes.new_match import NewMatchScene
    from ui.scenes.replay import ReplayScene
    from ui.scenes.settings import SettingsScene
    from ui.scenes.tournament import TournamentScene
    from ui.settings import Settings

    saved = []
    app = App(Settings(language=code), size=size, fullscreen=False)
    root = Path(__file__).resolve().parent.parent
    event = Path(tempfile.mkdtemp(prefix="arena-event-"))
    (event / "standings.json").write_text(json.dumps(TOURNAMENT_TABLE, ensure_ascii=False), encoding="utf-8")
    for theme, save in themed_savers(app, out, size, saved, code):

        app.push(HomeScene(app))
        settle(app)
        save("i18n_home")
        for game in ("hex", "robot"):
            app.push(NewMatchScene(app, game=game))
            settle(app)
            save(f"i18n_new_match_{game}")
            app.pop()
        hexp = registry.plugin("hex")
        live = Match(hexp, hexp.new_game().spec.resolve_options("11x11"),
                     [make_seat("human", hexp, 1), make_seat("bot:1", hexp, 2)], seed=3)
        live.seats[0].label = "Anna"
        scene = app.push(MatchScene(app, live))
        wait_for(app, lambda: scene.view.human_seat == 0)
        scene.try_move("f6")
        wait_for(app, lambda: scene.view.human_seat == 0 and len(live.snapshot().turns) == 2)
        settle(app, 0.2)
        save("i18n_match_hex")
        scene.resign()
        settle(app)
        save("i18n_match_hex_resign")
        app.pop()
        robot = registry.plugin("robot")
        options = robot.new_game().spec.resolve_options(None, {"players": 4})
        watched = Match(robot, options, [make_seat("bot:1", robot, i) for i in range(4)], seed=5)
        scene = app.push(MatchScene(app, watched))
        settle(app, 1.0)
        save("i18n_match_robot")
        app.pop()
        app.push(ReplayScene(app, path=str(root / "replays" / "hex-sample.arena.jsonl")))
        view = app.scene
        view.go(len(view.replay.states) - 1)
        view.toggle_debug(0)
        settle(app)
        save("i18n_replay_hex")
        app.pop()
        app.push(SettingsScene(app))
        settle(app)
        save("i18n_settings")
        app.pop()
        app.push(HowToScene(app, registry.plugin("xiangqi")))
        settle(app)
        save("i18n_howto_xiangqi")
        app.pop()
        app.push(TournamentScene(app, event, log=["[4/6] m0004 Nguyễn Văn An vs bot:2: 1-0"]))
        settle(app)
        save("i18n_tournament")
        app.pop()
        app.pop()
    app.close()
    return saved


def shoot_rules_texts(size: tuple[int, int], out: Path, code: str) -> list[Path]:
    """What the games' rules and the referee write, in language ``code``, dark then light:
    a Robot and a Xiangqi replay (move list with events, a whole note, the result line), a
    finished Hex match's result, Home's recent records, a bad map and a bad seat on the New
    match form, and the Open record file dialog."""

    from games import registry
    from runner.match import Match
    from runner.seats import make_seat
    from ui.app import App
    from ui.scenes.home import HomeScene
    from ui.scenes.match import MatchScene
    from ui.scenes.new_match import NewMatchScene
    from ui.scenes.replay import ReplayScene
    from ui.settings import Settings

    saved = []
    root = Path(__file__).resolve().parent.parent
    app = App(Settings(language=code), size=size, fullscreen=False)
    for sample in ("robot-sample.arena.jsonl", "xiangqi-sample.arena.jsonl", "hex-sample.arena.jsonl"):
        app.settings.add_recent(root / "replays" / sample)
    bad_map = Path(tempfile.mkdtemp(prefix="arena-map-")) / "my_map.txt"
    bad_map.write_text("9 9 5\n.........\n", encoding="utf-8")
    for theme, save in themed_savers(app, out, size, saved, code):

        app.push(HomeScene(app))
        settle(app)
        save("rules_home_recent")
        for sample, turn in (("robot-sample.arena.jsonl", 52), ("xiangqi-sample.arena.jsonl", None)):
            app.push(ReplayScene(app, path=str(root / "replays" / sample)))
            view = app.scene
            last = len(view.replay.states) - 1
            view.go(last if turn is None else min(turn, last))
            view.toggle_debug(0)
            settle(app)
            row = next((i + 1 for i, t in enumerate(view.replay.turns) if len(t.events) > 1), None)
            if row is not None and turn is not None:
                view.moves.first = max(0, row - 2)
                view.pointed_row = row
                settle(app)
            save(f"rules_replay_{sample.split('-')[0]}")
            app.pop()
        hexp = registry.plugin("hex")
        match = Match(hexp, hexp.new_game().spec.resolve_options("5x5"),
                      [make_seat("bot:1", hexp, 1), make_seat("bot:2", hexp, 2)], seed=4)
        scene = app.push(MatchScene(app, match))
        wait_for(app, lambda: scene.snap is not None and scene.snap.outcome is not None, 20)
        settle(app, 0.3)
        save("rules_match_hex_result")
        match.stop()
        app.pop()
        form = app.push(NewMatchScene(app, game="robot"))
        form.option_texts["map"] = str(bad_map)
        form.relayout()
        settle(app)
        save("rules_error_map")
        form.option_texts["map"] = "rooms-17"
        form.seats[0].kind, form.seats[0].command = "ext", "./no-such-player"
        form.relayout()
        settle(app)
        save("rules_error_seat")
        app.pop()
        app.push(ReplayScene(app))
        settle(app)
        app.scene.open_dialog()
        settle(app, 0.2)
        save("rules_file_dialog")
        app.scene.teardown()
        app.pop()
        app.pop()
    app.close()
    return saved


def shoot_program_details(size: tuple[int, int], out: Path, code: str) -> list[Path]:
    """What the runner says about misbehaving programs, in language ``code``, dark then
    light: a finished Robot match of a program writing garbage against one that times
    out (debug panels of both, turn 1 selected, the first on the CPU clock, and the
    result banner), a Xiangqi
    program that crashed (banner, debug panel), Home's recent records with a 4-bot
    Robot record, and exported pictures (PNG captions) of the Robot and Xiangqi
    samples at the export sizes 640x360, 960x540 and this size."""
    import shlex

    import pygame

    from games import registry
    from games.xiangqi.referee import XiangqiMatch
    from runner.match import Match, TimeControl
    from runner.records import open_replay
    from runner.seats import make_seat
    from ui.app import App
    from ui.scenes.home import HomeScene
    from ui.scenes.match import MatchScene
    from ui.settings import Settings
    from ui.snapshot import render_state, turn_caption

    saved = []
    root = Path(__file__).resolve().parent.parent
    python = shlex.quote(sys.executable)
    work = Path(scratch_folder("arena-details-"))
    (work / "sleeper.py").write_text("import time\ntime.sleep(5)\n", encoding="utf-8")
    (work / "crash.py").write_text("import sys\nsys.exit(3)\n", encoding="utf-8")
    app = App(Settings(language=code), size=size, fullscreen=False)
    for sample in ("robot-sample.arena.jsonl", "tamquan-sample.arena.jsonl", "hex-program-vs-bot.arena.jsonl"):
        app.settings.add_recent(root / "replays" / sample)
    for theme, save in themed_savers(app, out, size, saved, code):

        app.push(HomeScene(app))
        settle(app)
        save("details_home_recent")
        robot = registry.plugin("robot")
        # The first seat's answers are charged CPU time: its debug panel shows both figures.
        seats = [make_seat(f"ext:{python} {shlex.quote(str(root / 'tests/robot/bots/garbage_bot.py'))}", robot, 1,
                           limits={"clock": "cpu"}),
                 make_seat(f"ext:{python} {shlex.quote(str(work / 'sleeper.py'))}", robot, 2)]
        match = Match(robot, {"map": "5 5 2\n" + ".....\n" * 5, "players": 2, "respawn": "off", "period": 2},
                      seats, seed=3, time_control=TimeControl(per_move=0.4), workdir=work / f"robot-{theme}",
                      record_path=work / f"robot-{theme}.arena.jsonl")
        scene = app.push(MatchScene(app, match))
        match.set_pace(None)
        wait_for(app, lambda: scene.finished, 60)
        scene.toggle_debug(0)
        scene.toggle_debug(1)
        scene.select(1)
        settle(app, 0.2)
        save("details_match_robot")
        app.pop()
        xiangqi = registry.plugin("xiangqi")
        honest = root / "tests" / "xiangqi" / "programs" / "random_mover.py"
        limits = {"seconds": 2, "poll": 0.01}
        seats = [make_seat(f"ext:{python} {shlex.quote(str(honest))} --seed 3 --poll 0.01", xiangqi, 3, limits=limits),
                 make_seat(f"ext:{python} {shlex.quote(str(work / 'crash.py'))}", xiangqi, 4, limits=limits)]
        match = XiangqiMatch(xiangqi, xiangqi.new_game().spec.resolve_options(None, {}), seats, seed=3, seconds=2,
                             report_dir=work / f"xq-{theme}", workdir=work / f"xq-{theme}",
                             record_path=work / f"xq-{theme}.arena.jsonl")
        scene = app.push(MatchScene(app, match))
        match.set_pace(None)
        wait_for(app, lambda: scene.finished, 30)
        scene.toggle_debug(1)
        settle(app, 0.2)
        save("details_match_xiangqi_crash")
        app.pop()
        app.pop()
        for sample in ("robot-sample.arena.jsonl", "xiangqi-sample.arena.jsonl"):
            replay = open_replay(root / "replays" / sample)
            plugin = registry.plugin(replay.game)
            last = len(replay.states) - 1
            busiest = max(range(1, last + 1), key=lambda i: len(turn_caption(replay, i)))
            for index in sorted({busiest, last}):
                for picture in ((640, 360), (960, 540), size):
                    image = render_state(plugin, replay.states[index], replay.header.get("options") or {},
                                         replay.seat_names, picture, turn_caption(replay, index),
                                         theme=app.theme)
                    tag = f"_{code}" + ("" if theme == "dark" else "_light")
                    path = out / (f"details_export_{replay.game}_turn{index}{tag}_{picture[0]}x{picture[1]}"
                                  f"_in_{size[0]}x{size[1]}.png")
                    pygame.image.save(image, str(path))
                    saved.append(path)
    app.close()
    return saved


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/screens")
    parser.add_argument("--sizes", default="1280x720,1920x1080")
    parser.add_argument("--language", metavar="CODE", help="the interface set in this language "
                        "(en, vi), dark and light")
    parser.add_argument("--only", metavar="NAME", help="only the home screen with a broken game "
                        "(--only broken), or the newcomers' screens (--only newcomers), in both themes")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("ARENA_HOME", scratch_folder("arena-shots-"))
    for text in args.sizes.split(","):
        width, height = (int(v) for v in text.split("x"))
        shooter = {"broken": shoot_broken, "newcomers": shoot_newcomers}.get(args.only, shoot)
        if args.language:
            def shooter(size, out, code=args.language, only=args.only):
                if only == "rules-texts":
                    return shoot_rules_texts(size, out, code)
                if only == "program-details":
                    return shoot_program_details(size, out, code)
                return shoot_language(size, out, code)
        for path in shooter((width, height), out):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
