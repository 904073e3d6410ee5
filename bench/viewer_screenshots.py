"""Screenshots of the replay viewer's tools: event marks, board diff, a re-run beside the
recorded answer, the Picture pane's Save-as dialog (dark and light, several sizes).

    python bench/viewer_screenshots.py [--out out/viewer] [--sizes 1280x720,1920x1080,3840x2160]

The re-run uses a changed build of the Robot example bot (it searches its neighbours in
another order) on the first turn where its answer differs, so both show on the board.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

#: The example bot's search with its neighbours in another order: a "new build" whose
#: moves differ from the recorded ones on some turns.
NEIGHBOURS = "((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))"
CHANGED = "((r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c))"


def changed_build(folder: Path) -> Path:
    """A copy of the Robot example bot with :data:`CHANGED` neighbours."""
    text = (ROOT / "games/robot/examples/greedy_bot.py").read_text(encoding="utf-8")
    assert NEIGHBOURS in text, "the example bot changed: update this bench"
    path = folder / "greedy_bot_v2.py"
    path.write_text(text.replace(NEIGHBOURS, CHANGED), encoding="utf-8")
    return path


def first_different_turn(record: Path, program: Path) -> int:
    """The first turn where ``program`` answers otherwise than the recorded seat 1."""
    from runner.records import open_replay
    from runner.rerun import rerun_turn
    replay = open_replay(record)
    for turn in range(2, len(replay.turns) + 1):
        if 0 in replay.states[turn - 1].to_move() and \
                not rerun_turn(replay, turn, 0, f"ext:{sys.executable} {program}").same_move:
            return turn
    raise SystemExit("the changed build plays like the recorded one on every turn")


def robot_program_record(folder: Path) -> Path:
    """A two-robot match of the example bot against a built-in bot."""
    from games import registry
    from runner.match import Match
    from runner.seats import make_seat
    plugin = registry.plugin("robot")
    options = plugin.new_game().spec.resolve_options(None, {"map": "open-11", "players": 2})
    command = f"{sys.executable} {ROOT / 'games/robot/examples/greedy_bot.py'}"
    path = folder / "robot-greedy-vs-bot.arena.jsonl"
    Match(plugin, options, [make_seat(f"ext:{command}", plugin, 2), make_seat("bot:2", plugin, 3)],
          seed=2, record_path=path).run()
    return path


def shoot(size: tuple[int, int], theme: str, out: Path, record: Path, program: Path, turn: int) -> list[Path]:
    import pygame
    from screenshots import settle
    from ui.app import App
    from ui.scenes.home import HomeScene
    from ui.scenes.replay_tools import BranchPane, FilmPane, RerunPane
    from ui.settings import Settings

    app = App(Settings(), size=size, fullscreen=False)
    app.set_theme(theme)
    app.push(HomeScene(app))
    saved = []

    def save(name: str) -> None:
        settle(app)
        path = out / f"{name}_{theme}_{size[0]}x{size[1]}.png"
        pygame.image.save(app.window, str(path))
        saved.append(path)

    app.open_replay(ROOT / "replays/xiangqi-sample.arena.jsonl")
    view = app.scene
    view.go(12)
    view.toggle_diff()
    save("viewer_xiangqi_marks_diff")
    app.pop()
    app.open_replay(record)
    view = app.scene
    view.go(turn)
    view.toggle_diff()
    save("viewer_robot_marks_diff")
    view.toggle_diff()
    view.open_tool(RerunPane)
    view.tool.command = f"{sys.executable} {program}"
    view.relayout()
    view.tool.run()
    end = time.monotonic() + 30
    while view.tool.thread is not None and time.monotonic() < end:
        app.frame(block=False)
        time.sleep(0.02)
    save("viewer_robot_rerun")
    view.open_tool(FilmPane)
    view.tool.ask_where()
    save("viewer_save_as")
    view.tool.kill_dialog()
    app.pop()
    app.open_replay(ROOT / "replays/robot-sample.arena.jsonl")       # four seats
    view = app.scene
    view.go(10)
    view.open_tool(BranchPane)
    save("viewer_robot4_branch")
    app.close()
    return saved


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/viewer")
    parser.add_argument("--sizes", default="1280x720,1920x1080,3840x2160")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="arena-viewer-shots-"))
    os.environ.setdefault("ARENA_HOME", str(folder / "home"))
    record = robot_program_record(folder)
    program = changed_build(folder)
    turn = first_different_turn(record, program)
    for text in args.sizes.split(","):
        size = tuple(int(v) for v in text.split("x"))
        for theme in ("dark", "light"):
            for path in shoot(size, theme, out, record, program, turn):
                print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
