"""Regenerate the home screen's game pictures from the games' own renderers.

    python bench/make_pictures.py            # writes assets/pictures/<game>.png and <game>-light.png

Each picture is a fixed, hand-picked position (not a bot's game, so it does not change
when a bot gets stronger), drawn without coordinates at the tile's size.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from games import registry  # noqa: E402
from games.render import DARK, LIGHT, BoardView  # noqa: E402
from ui.snapshot import render_state  # noqa: E402

TILE = (480, 300)
THEME = DARK            # the theme being drawn (main draws both)

# A 9x9 middle game: player 1 (blue, left-right) has the centre, player 2 (orange,
# top-bottom) is blocking it; the last move (player 2's f3) is marked.
HEX_MOVES = ["e5", "f4", "d6", "e3", "c7", "g2", "f5", "g4", "c5", "d8", "b7", "h3",
             "b4", "e8", "a6", "d3", "g5", "h4", "h5", "f3"]


def hex_picture() -> pygame.Surface:
    plugin = registry.plugin("hex")
    game = plugin.new_game()
    options = game.spec.resolve_options("9x9")
    state = game.new_initial_state(options, 0)
    for text in HEX_MOVES:
        state.push(game.parse_move(text, state, state.current))
    return render_state(plugin, state, options, size=TILE, theme=THEME, view=BoardView(show_coordinates=False))


# A Xiangqi middle game (central cannon against screen horses, both sides developed);
# the last move (Black's cannon to B3, pinning the horse line) is marked.  The board is
# tall, so the picture is a close-up of its middle: the river and the armies meeting.
XIANGQI_MOVES = ["H2E2", "H9G7", "H0G2", "I9H9", "I0H0", "B9C7", "C3C4", "H7H3",
                 "B0C2", "B7B3"]


def xiangqi_picture() -> pygame.Surface:
    plugin = registry.plugin("xiangqi")
    game = plugin.new_game()
    options = game.spec.resolve_options(None)
    state = game.new_initial_state(options, 0)
    for text in XIANGQI_MOVES:
        state.apply({state.side: game.parse_move(text, state, state.side)})
    width = TILE[0]
    full = render_state(plugin, state, options, size=(width, int(width * 1.1)), theme=THEME,
                        view=BoardView(show_coordinates=False))
    top = (full.get_height() - TILE[1]) // 2
    return full.subsurface(pygame.Rect(0, top, *TILE)).copy()


# A 4-player Robot Đại Chiến game on rooms-17 after turn 36 (written out, so it does not
# change when a bot does): three rings sealed (hatched), every colour holding a room, a
# speed and an oil item on the map.  The picture is the middle of the board, no panel.
ROBOT_GRID = ["********#********", "******aa#***bb***", "******aa****bb***", "***aaaaa****bb***",
              "***aAAAA#...Bb***", "***aAAAA#..BBc***", "***aAAAA#.BBBb***", "***aAAAA#.BBBb***",
              "##*a#########c*##", "***aDDD.#DDCCc***", "***aADDD#D.CCc***", "***dADDD#D.CCc***",
              "***dAADD#D.CCc***", "***ddddddd**cc***", "****dd******cb***", "****dd**#***cc***",
              "****dd**#***cc***"]
ROBOT_POSITIONS = [(12, 5), (7, 10), (12, 11), (9, 10)]
ROBOT_ITEMS = [(9, 7, "F"), (4, 11, "G")]


def robot_picture() -> pygame.Surface:
    from games.robot.rules import Board, RobotState
    plugin = registry.plugin("robot")
    game = plugin.new_game()
    from games.robot.maps import load_files
    options, _ = load_files(game.spec.resolve_options("4 players", {"map": "rooms-17"}))
    start = game.new_initial_state(options, 0)
    state = RobotState(Board(start.board.height, start.board.width, start.board.period, start.board.rows), 4, 0)
    state.grid = bytearray("".join(row + "\n" for row in ROBOT_GRID), "ascii")
    for robot, (x, y) in zip(state.robots, ROBOT_POSITIONS):
        robot.pos = state.board.index(x, y)
    state.items = [(state.board.index(x, y), kind) for x, y, kind in ROBOT_ITEMS]
    state.turn = 36
    width = TILE[0]
    full = render_state(plugin, state, options, size=(width, width), theme=THEME,
                        view=BoardView(show_coordinates=False, highlights={"panel": False}))
    top = (full.get_height() - TILE[1]) // 2
    return full.subsurface(pygame.Rect(0, top, *TILE)).copy()


def sample_picture(game: str, turn: int) -> pygame.Surface:
    """A position from the game's shipped sample record (``replays/GAME-sample.arena.jsonl``),
    which never changes once shipped."""
    from runner.records import open_replay
    replay = open_replay(ROOT / "replays" / f"{game}-sample.arena.jsonl")
    plugin = registry.plugin(game)
    return render_state(plugin, replay.states[turn], replay.header.get("options") or {}, replay.seat_names,
                        size=TILE, theme=THEME, view=BoardView(show_coordinates=False, highlights={"panel": False}))


PICTURES = {"hex": hex_picture, "xiangqi": xiangqi_picture, "robot": robot_picture,
            "tamquan": lambda: sample_picture("tamquan", 12),
            "crosswords": lambda: sample_picture("crosswords", 110)}


def main() -> int:
    pygame.init()
    folder = ROOT / "assets" / "pictures"
    folder.mkdir(parents=True, exist_ok=True)
    global THEME
    for THEME, suffix in ((DARK, ""), (LIGHT, "-light")):
        for name, make in PICTURES.items():
            path = folder / f"{name}{suffix}.png"
            pygame.image.save(make(), str(path))
            print(f"{path.relative_to(ROOT)}: {TILE[0]}x{TILE[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
