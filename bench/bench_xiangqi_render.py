"""How long the Xiangqi renderer takes to draw a board (cached board layer, pieces, highlights).

    python bench/bench_xiangqi_render.py

Draws a middle-game position in check with a selected piece, its legal-move dots
and the last move marked, at three screen sizes: the first draw (board layer and
piece sprites made) and the mean of 30 cached draws.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402
from render_timing import time_draw  # noqa: E402

from games.render import BoardView  # noqa: E402
from games.xiangqi.render import XiangqiRenderer  # noqa: E402
from games.xiangqi.rules import XiangqiGame  # noqa: E402

CHECK_LINE = "H2E2 H9G7 E3E4 B9C7 E4E5 I9H9 E5E6".split()


def main() -> None:
    pygame.init()
    game = XiangqiGame()
    state = game.new_initial_state({})
    for move in CHECK_LINE:
        state.apply({state.side: move})
    print(f"{'picture':>10} {'pieces':>8} {'first draw ms':>14} {'cached draw ms':>15}")
    for width, height in ((1280, 720), (1920, 1080), (3840, 2160)):
        for latin in (False, True):
            surface = pygame.Surface((width, height))
            renderer = XiangqiRenderer(game, {"latin": latin})
            view = BoardView(human_seat=1, selected="D9", hover="E8")
            first, cached = time_draw(renderer, surface, state, view)
            print(f"{width:>5}x{height:<4} {'latin' if latin else 'chinese':>8} {first * 1000:>14.1f} "
                  f"{cached * 1000:>15.2f}")


if __name__ == "__main__":
    main()
