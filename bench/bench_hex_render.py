"""How long the Hex renderer takes to draw a board (cached board layer, full board of stones).

    python bench/bench_hex_render.py
"""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402
from render_timing import time_draw  # noqa: E402

from games.hex.render import HexRenderer  # noqa: E402
from games.hex.rules import HexGame  # noqa: E402
from games.render import BoardView  # noqa: E402


def finished_game(size: int, seed: int):
    state = HexGame().new_initial_state({"size": size}, seed)
    rng = random.Random(seed)
    while state.outcome() is None:
        state.push(rng.choice(state.legal_moves(state.current)))
    return state


def main() -> None:
    pygame.init()
    game = HexGame()
    print(f"{'board':>6} {'picture':>10} {'first draw ms':>14} {'cached draw ms':>15}")
    for size in (11, 19):
        state = finished_game(size, 1)
        for width, height in ((1280, 720), (1920, 1080), (3840, 2160)):
            surface = pygame.Surface((width, height))
            renderer = HexRenderer(game, {"size": size})
            view = BoardView(human_seat=None)
            first, cached = time_draw(renderer, surface, state, view)
            print(f"{size:>3}x{size:<2} {width:>5}x{height:<4} {first * 1000:>14.1f} {cached * 1000:>15.2f}")


if __name__ == "__main__":
    main()
