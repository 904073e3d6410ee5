"""Pictures of the projection and the tournament screen, no window needed.

Plays a small real event (Hex 7x7 or Robot with four seats, built-in bots), then feeds
its records back into ``live/`` to show the projection during a match (with the other
matches as thumbnails, and in the grid layout), at an intermission and on the final
standings, in both themes; and the tournament screen with its Project button.

    python bench/projection_screenshots.py [--out /tmp/shots_projection]
        [--sizes 1280x720,1920x1080,3840x2160] [--game hex|robot] [--language vi]

Look at the pictures after a layout change: text cut off or overlapping is a bug.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

NAMES = ["Grace Hopper (C, -O2)", "Ada Lovelace (Python)", "Alan Turing", "Edsger Dijkstra",
         "Barbara Liskov (engine)", "Donald Knuth"]


def play_event(folder: Path, game: str) -> Path:
    """A finished event in ``folder/out`` (its records stay in matches/)."""
    from runner.tournament import load_event, run_event
    people = "".join(f'[[contestant]]\nname = "{n}"\nseat = "bot:{1 + i % 2 if game == "hex" else 1 + i % 4}"\n'
                     for i, n in enumerate(NAMES if game == "hex" else NAMES[:4]))
    setup = ('game = "hex"\nvariant = "7x7"\n' if game == "hex"
             else 'game = "robot"\nformat = "all-in"\nrounds = 2\n')
    path = folder / "event.toml"
    path.write_text(f'name = "Spring Cup 2026"\n{setup}seed = 7\nconcurrency = 2\n'
                    f'[projection]\npace = 0\nhold = 0.3\nintermission = 30\n{people}')
    event = load_event(path, folder / "out")
    run_event(event, log=lambda _: None)
    return folder / "out"


def stage(out: Path, count: int, share: float) -> list[tuple[Path, list[str]]]:
    """Put the first ``share`` of ``count`` finished records into live/ (matches under way)."""
    live = out / "live"
    live.mkdir(exist_ok=True)
    staged = []
    for record in sorted(out.glob("matches/*/*.arena.jsonl"))[:count]:
        lines = record.read_text().splitlines(keepends=True)
        body = [line for line in lines if '"type": "result"' not in line]
        keep = max(2, int(len(body) * share))
        target = live / record.name
        target.write_text("".join(body[:keep]))
        staged.append((target, lines[keep:]))
    ids = {target.name[:-len(".arena.jsonl")] for target, _rest in staged}
    results = out / "results.jsonl"          # the staged matches have no result yet: under way
    kept = [line for line in results.read_text().splitlines(keepends=True)
            if not any(f'"id": "{i}"' in line for i in ids)]
    results.write_text("".join(kept))
    (live / "schedule.json").write_text(json.dumps({"running": [], "next": [
        {"contestants": [NAMES[4], NAMES[1]]}], "finished": False}))     # long names: two lines
    return staged


def shoot(app, name: str, out: Path) -> None:
    import pygame
    app.draw()
    pygame.image.save(app.window, str(out / name))
    print(out / name)


def frames(app, until, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end and not until():
        app.frame(block=False)
        time.sleep(0.01)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="/tmp/shots_projection")
    parser.add_argument("--sizes", default="1280x720,1920x1080,3840x2160")
    parser.add_argument("--game", choices=("hex", "robot"), default="hex")
    parser.add_argument("--language", default="en")
    args = parser.parse_args(argv)
    from runner.i18n import set_language
    set_language(args.language)
    from ui.app import App
    from ui.scenes.projection import ProjectionScene
    from ui.scenes.tournament import TournamentScene
    from ui.settings import Settings
    shots = Path(args.out)
    shots.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="arena-projshots-"))
    try:
        played = play_event(work, args.game)
        for size in args.sizes.split(","):
            w, h = (int(x) for x in size.split("x"))
            for theme in ("dark", "light"):
                tag = f"{args.game}_{args.language}_{size}_{theme}"
                folder = work / f"copy-{tag}"
                shutil.copytree(played, folder)
                shutil.rmtree(folder / "live", ignore_errors=True)
                staged = stage(folder, 3, 0.6)
                app = App(Settings(language=args.language), size=(w, h), fullscreen=False)
                app.set_theme(theme)
                try:
                    screen = TournamentScene(app, folder, log=["[15/15] m0014 Alan Turing vs Donald Knuth: 1-0"])
                    app.push(screen)
                    frames(app, lambda: False, 0.1)
                    shoot(app, f"tournament_{tag}.png", shots)
                    scene = ProjectionScene(app, folder)
                    app.push(scene)
                    frames(app, lambda: scene.model.phase == "playing", 5)
                    frames(app, lambda: False, 0.6)
                    shoot(app, f"projection_match_{tag}.png", shots)
                    scene.model.layout_name = "grid"
                    scene.model.seen.clear()
                    frames(app, lambda: sum(1 for c in scene.model.cells if c) >= 2, 5)
                    frames(app, lambda: False, 0.6)
                    shoot(app, f"projection_grid_{tag}.png", shots)
                    scene.model.layout_name, scene.model.cells = "focus", []
                    scene.model.main = None
                    scene.model.set_phase("waiting", time.monotonic())
                    scene.model.seen.clear()
                    frames(app, lambda: scene.model.phase == "playing", 5)
                    followed = scene.model.main.match.path
                    for target, rest in staged:
                        if target == followed:
                            with open(target, "a") as fh:
                                fh.write("".join(rest))
                    frames(app, lambda: scene.model.phase == "intermission", 10)
                    shoot(app, f"projection_intermission_{tag}.png", shots)
                    long_names = ["Ada Lovelace of the Analytical Engine", "Alan Turing of Bletchley Park"]
                    from games.api import Outcome, Termination
                    last = scene.model.last
                    scene.model.last = {"names": long_names, "error": "",
                                        "outcome": Outcome((0,), (1.0, 0.0), Termination.WIN, "")}
                    scene.model.follower.next_pairings = lambda limit=3: [long_names]   # names too long for a line
                    scene.model.follower.running = lambda: []
                    shoot(app, f"projection_intermission_long_{tag}.png", shots)
                    del scene.model.follower.next_pairings, scene.model.follower.running
                    scene.model.last = last
                    for target, _rest in staged:
                        target.unlink(missing_ok=True)
                    (folder / "live" / "schedule.json").write_text('{"finished": true}')
                    for _ in range(10):      # matches still under way end from matches/ID
                        scene.model.skip(time.monotonic())
                        frames(app, lambda: scene.model.phase in ("final", "holding"), 2)
                        if scene.model.phase == "final":
                            break
                    shoot(app, f"projection_standings_{tag}.png", shots)
                finally:
                    app.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
