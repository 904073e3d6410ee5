"""Screenshots of the screens issue 42 touched, in a language, dark then light.

    python bench/issue42_screenshots.py --language vi --sizes 1280x720,1920x1080,3840x2160 [--only play]

Into ``out/issue42/`` as ``<screen>_<language>[_light]_<W>x<H>.png``: Crossed Words with
a person to move (hint, title, pile and tile text), a refused Hex click, a Robot time-out,
How to play, Home after matches (samples one click away), a Robot replay with the Diff
legend, Settings.  Open them and look: text cut or overlapping is a bug.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from screenshots import scratch_folder, settle, themed_savers, wait_for  # noqa: E402


def play_screens(app, save) -> None:
    """Crossed Words, a Hex click refused, a Robot person's time-out."""
    from games import registry
    from runner.match import Match
    from runner.seats import HumanSeat, make_seat
    from ui.scenes.match import MatchScene

    words = registry.plugin("crosswords")
    match = Match(words, words.new_game().spec.resolve_options(None, {}), [HumanSeat(label="Anna")], seed=4)
    scene = app.push(MatchScene(app, match))
    wait_for(app, lambda: scene.view.human_seat == 0)
    settle(app, 0.2)
    save("i42_crosswords_first")
    pile = scene.snap.state.piles[0]
    scene.try_move(f"draw 1 {pile[:7]}" if False else scene.renderer.game.format_move(
        __import__("games.crosswords.rules", fromlist=["Draw"]).Draw(1, pile[:7])))
    wait_for(app, lambda: scene.view.human_seat == 0 and len(scene.snap.turns) == 1)
    settle(app, 0.2)
    save("i42_crosswords_hand")
    match.stop()
    app.pop()

    hexp = registry.plugin("hex")
    match = Match(hexp, hexp.new_game().spec.resolve_options(None, {"size": 11, "time_total": 0}),
                  [make_seat("bot:1", hexp, 1), HumanSeat(label="Anna")], seed=3)
    scene = app.push(MatchScene(app, match))
    wait_for(app, lambda: scene.view.human_seat == 1)
    settle(app)
    state = scene.snap.state
    taken = next((r, c) for r in range(1, 12) for c in range(1, 12) if state.look(r, c) == 1)
    scene.try_move("a1")
    wait_for(app, lambda: scene.view.human_seat == 1 and len(scene.snap.turns) == 3)
    settle(app)
    import pygame
    centre = scene.renderer.layout.centre(*taken)
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=(round(centre[0]), round(centre[1])), button=1))
    settle(app, 0.1)
    save("i42_hex_refused")
    match.stop()
    app.pop()

    robot = registry.plugin("robot")
    options = robot.new_game().spec.resolve_options(None, {"players": 4, "human_time_per_move": 0.3})
    match = Match(robot, options, [HumanSeat(label="Anna")] + [make_seat("bot:1", robot, i) for i in (1, 2, 3)],
                  seed=5)
    scene = app.push(MatchScene(app, match))
    wait_for(app, lambda: len(scene.snap.turns) >= 1)
    settle(app, 0.1)
    save("i42_robot_timeout")
    match.stop()
    app.pop()


def find_screens(app, save) -> None:
    """Home after a match (the samples one click away), the samples shown, Open replay."""
    from ui.scenes.home import HomeScene, sample_records
    from ui.scenes.replay import ReplayScene

    saved = list(app.settings.recent_records)
    app.settings.recent_records = [str(p) for p in sample_records()][:3]
    home = app.push(HomeScene(app))
    settle(app)
    save("i42_home_recent")
    home.showing_samples = True
    home.relayout()
    settle(app)
    save("i42_home_samples")
    app.push(ReplayScene(app, path=None))
    settle(app)
    save("i42_open_replay")
    app.pop()
    app.pop()
    app.settings.recent_records = saved


def replay_screens(app, save) -> None:
    """Robot and Hex sample replays mid-game with the board diff on (its legend), the
    players panel's bot names and the event list."""
    from ui.scenes.replay import ReplayScene

    for game, turn in (("robot", 60), ("hex", 20), ("xiangqi", 12)):
        app.push(ReplayScene(app, path=str(ROOT / "replays" / f"{game}-sample.arena.jsonl")))
        view = app.scene
        view.go(min(turn, view.last))
        view.show_diff = True
        settle(app)
        save(f"i42_replay_{game}_diff")
        app.pop()
    app.push(ReplayScene(app, path=str(ROOT / "replays" / "robot-sample.arena.jsonl")))
    app.scene.go(62)                 # turn 61's two events, the first on a second line
    settle(app)
    save("i42_replay_robot_events")
    app.pop()


def compare_screen(app, save) -> None:
    """Two Robot runs side by side, seats named by long program commands."""
    from games import registry
    from runner.match import Match
    from runner.seats import make_seat
    from ui.scenes.compare import CompareScene

    plugin = registry.plugin("robot")
    runs = []
    for level in (1, 3):
        match = Match(plugin, plugin.new_game().spec.resolve_options(None, {"map": "open-11", "players": 2}),
                      [make_seat(f"bot:{level}", plugin, 1), make_seat("bot:2", plugin, 2)], seed=5)
        match.run()
        replay = match.as_replay()
        replay.seat_names = ["python3 games/robot/examples/greedy.py --depth 3", "./examples/painter_bot"]
        runs.append(replay)
    scene = app.push(CompareScene(app, *runs))
    scene.index = 20
    settle(app)
    save("i42_compare")
    app.pop()


def new_match_screens(app, save) -> None:
    """The New match form of each game (option labels and help)."""
    from ui.scenes.new_match import NewMatchScene

    for game in ("robot", "hex", "xiangqi", "tamquan"):
        app.push(NewMatchScene(app, game=game))
        settle(app)
        save(f"i42_new_match_{game}")
        app.pop()


def settings_screen(app, save) -> None:
    """Settings after Apply (the message beside Clear recent records)."""
    from ui.scenes.settings import SettingsScene

    scene = app.push(SettingsScene(app))
    settle(app)
    scene.message_label.set_text(__import__("runner.i18n", fromlist=["_"])._("Saved."))
    scene.name_entries[1].set_text("Nguyễn Văn An")     # a typed name beside the default hints
    settle(app)
    save("i42_settings")
    app.pop()


def tournament_screen(app, save) -> None:
    """The tournament window before the first standings: the schedule."""
    import json
    import tempfile
    from ui.scenes.tournament import TournamentScene

    folder = Path(tempfile.mkdtemp(prefix="arena-tw-")) / "out"
    (folder / "live").mkdir(parents=True)
    (folder / "event.json").write_text(json.dumps({"name": "Robot Cup 2026", "game": "robot",
                                                   "format": "round-robin", "format_name": "pairs"}))
    (folder / "results.jsonl").write_text("")
    pair = lambda i, a, b: {"id": f"m{i:04d}", "index": i, "round": 1, "contestants": [a, b]}
    (folder / "live" / "schedule.json").write_text(json.dumps({
        "running": [pair(1, "Nguyễn Văn An", "Ada Lovelace"), pair(2, "Alan Turing", "Grace Hopper")],
        "next": [pair(3, "Edsger Dijkstra", "Barbara Liskov"), pair(4, "Donald Knuth", "Nguyễn Văn An")],
        "finished": False}))
    app.push(TournamentScene(app, folder))
    settle(app)
    save("i42_tournament_schedule")
    app.pop()


GROUPS = {"settings": settings_screen, "tournament": tournament_screen, "play": play_screens, "find": find_screens, "replay": replay_screens, "compare": compare_screen,
          "new": new_match_screens}


def shoot(size, out: Path, code: str, only: list[str]) -> list[Path]:
    from runner.i18n import set_language
    from ui.app import App
    from ui.settings import Settings
    set_language(code)
    app = App(Settings(language=code), size=size, fullscreen=False)
    saved: list[Path] = []
    for _theme, save in themed_savers(app, out, size, saved, code):
        for name in only:
            GROUPS[name](app, save)
    app.close()
    return saved


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/issue42")
    parser.add_argument("--sizes", default="1280x720,1920x1080,3840x2160")
    parser.add_argument("--language", default="en")
    parser.add_argument("--only", default=",".join(GROUPS))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("ARENA_HOME", scratch_folder("arena-shots-"))
    for text in args.sizes.split(","):
        width, height = (int(v) for v in text.split("x"))
        for path in shoot((width, height), out, args.language, args.only.split(",")):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
