"""Save PNGs of Tam Quan in the app: setup (a person choosing a zone), a capture with
the pieces that made it, a person's turn half entered, and a finished 4-team match in
the replay viewer, at 1280x720 and 1920x1080, dark and light (no window needed).

    python bench/tamquan_screenshots.py [--out out/tamquan-screens]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshots import settle as frames  # noqa: E402  (run frames for a while, then draw)


def wait(app, condition, seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        app.frame(block=False)
        time.sleep(0.01)


def click(app, pos) -> None:
    import pygame
    pos = (int(pos[0]), int(pos[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    frames(app)


def shoot(size, theme: str, out: Path) -> list[Path]:
    import pygame

    from games.tamquan import PLUGIN
    from games.tamquan.render import free_neighbours, waiting_members
    from games.tamquan.rules import parse_move, state_from_rows
    from games.replay import Replay, TurnInfo
    from runner.match import Match
    from runner.seats import HumanSeat, make_seat
    from ui.app import App
    from ui.scenes.match import MatchScene
    from ui.scenes.replay import ReplayScene
    from ui.settings import Settings

    saved = []
    settings = Settings()
    settings.theme = theme
    app = App(settings, size=size, fullscreen=False)
    app.set_theme(theme)

    def save(name: str) -> None:
        path = out / f"tamquan_{name}_{theme}_{size[0]}x{size[1]}.png"
        pygame.image.save(app.window, str(path))
        saved.append(path)

    game = PLUGIN.new_game()
    options = game.spec.resolve_options("8x8-4teams", {"turn_limit": 40})
    seats = [HumanSeat(label="Anna")] + [make_seat(f"bot:{lv}", PLUGIN, lv) for lv in (4, 3, 2)]
    match = Match(PLUGIN, options, seats, seed=3)
    scene = app.push(MatchScene(app, match))
    wait(app, lambda: scene.view.human_seat == 0)
    frames(app, 0.1)
    layout = scene.renderer.layout
    click(app, layout.cell_rect(1, 1).center)
    click(app, layout.cell_rect(1, 2).center)
    frames(app, 0.1)
    save("setup")
    for cell in ((2, 1), (2, 2), (0, 2)):
        click(app, layout.cell_rect(*cell).center)
    wait(app, lambda: len(match.snapshot().turns) >= 4 and scene.view.human_seat == 0)
    frames(app, 0.1)
    state = scene.snap.state
    steps = 0
    for member in waiting_members(state, 0, []):
        free = free_neighbours(state, state.cells, member)
        if free and steps < 2:
            click(app, layout.cell_rect(*member).center)
            click(app, layout.cell_rect(*free[-1]).center)
            steps += 1
    member = waiting_members(state, 0, scene.renderer.pending.steps)[0]
    click(app, layout.cell_rect(*member).center)
    frames(app, 0.1)
    save("person_turn")
    match.stop()
    app.pop()
    # The worked example as a replay: Red (A) captures, Blue (B) with Yellow (C) captures.
    start = state_from_rows(["..C.B", ".A.B.", "A.B..", ".....", "....."], to_move=0, teams=3)
    states, turns, state = [start.clone()], [], start
    for text in ("1,1-1,2 2,0-2,1", "0,4-0,3 1,3-1,2"):
        team = state.current
        state.play({team: parse_move(text)})
        states.append(state.clone())
        turns.append(TurnInfo(len(turns) + 1, {team: text}, events=state.events()))
    replay = Replay("tamquan", "example", "", {"game": "tamquan", "options": {"size": 5, "teams": 3}},
                    states, turns, None, ["Red", "Blue", "Yellow"])
    app.push(ReplayScene(app, replay=replay))
    view = app.scene
    view.go(1)
    frames(app, 0.1)
    save("capture")
    app.pop()
    seats = [make_seat(f"bot:{lv}", PLUGIN, lv) for lv in (4, 3, 2, 1)]
    done = Match(PLUGIN, options, seats, seed=5)
    done.run()
    app.push(ReplayScene(app, replay=done.as_replay()))
    view = app.scene
    view.go(len(view.replay.states) - 1)
    frames(app, 0.1)
    save("end")
    app.close()
    return saved


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/tamquan-screens")
    parser.add_argument("--one", help="WxH:THEME, one picture set in this process")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.one:
        size, theme = args.one.split(":")
        width, height = map(int, size.split("x"))
        for path in shoot((width, height), theme, out):
            print(path)
        return 0
    # One process per picture set: fonts cached by one App do not survive its close.
    import subprocess
    for size in ("1280x720", "1920x1080"):
        for theme in ("dark", "light"):
            subprocess.run([sys.executable, __file__, "--out", str(out), "--one", f"{size}:{theme}"],
                           check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
