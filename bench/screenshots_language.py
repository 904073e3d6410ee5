"""Screenshots of the interface in one language, dark and light (``bench/screenshots.py
--language CODE``): the interface set, the texts the rules and the referee write
(``--only rules-texts``) and what the runner says about misbehaving programs
(``--only program-details``).
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from screenshot_kit import scratch_folder, settle, themed_savers, wait_for


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
