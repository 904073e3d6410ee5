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
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))       # the kit, when imported from elsewhere
# settle, themed_savers, scratch_folder and wait_for are also imported from here by other scripts
from screenshot_kit import (home_with_a_broken_game, scratch_folder, settle,  # noqa: E402,F401
                            themed_savers, wait_for)


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
        wait_for(app, lambda: scene.person_to_move(person.snapshot()) == 0 or person.snapshot().outcome)
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
    wait_for(app, lambda: scene.person_to_move(person.snapshot()) == 0 or person.snapshot().outcome)
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
            from screenshots_language import shoot_language, shoot_program_details, shoot_rules_texts

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
