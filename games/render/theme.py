"""Colours and letters every picture shares: the dark and light themes, the shipped font,
and small colour helpers."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import pygame

from games.assets import asset


@dataclass(frozen=True)
class Theme:
    """Colours with good contrast on a projector; the ui picks dark or light."""

    name: str = "dark"
    background: tuple = (24, 26, 32)
    panel: tuple = (36, 39, 48)
    text: tuple = (235, 236, 240)
    muted: tuple = (150, 155, 170)
    accent: tuple = (255, 196, 64)
    board: tuple = (222, 196, 150)
    line: tuple = (40, 30, 20)
    # Seat colours: blue, orange, green-teal, purple (Okabe-Ito, colour-blind safe).
    seats: tuple = ((0, 114, 178), (230, 159, 0), (0, 158, 115), (204, 121, 167))
    good: tuple = (90, 200, 120)
    bad: tuple = (230, 80, 70)


DARK = Theme()
LIGHT = Theme(name="light", background=(238, 238, 232), panel=(250, 250, 246), text=(20, 22, 28),
              muted=(95, 100, 110), accent=(200, 120, 0), board=(226, 200, 152), line=(40, 30, 20))
THEMES = {"dark": DARK, "light": LIGHT}


@lru_cache(maxsize=256)         # a 4K screen and a projection use many sizes: a miss reloads the file
def font(size: int, bold: bool = False, mono: bool = False) -> pygame.font.Font:
    """The shipped Noto font at ``size`` pixels (Vietnamese letters included)."""
    if not pygame.font.get_init():
        pygame.font.init()
    name = "NotoSansMono-Regular.ttf" if mono else ("NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf")
    return pygame.font.Font(str(asset("fonts", name)), max(6, int(size)))


def mix(a: tuple, b: tuple, t: float) -> tuple[int, int, int]:
    """The colour ``t`` of the way from ``a`` to ``b`` (alpha dropped)."""
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a[:3], b[:3]))


def luminance(colour: tuple) -> float:
    """Relative brightness 0..1 (sRGB weights, good enough to pick black or white text)."""
    r, g, b = colour[:3]
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def contrast_text(colour: tuple) -> tuple[int, int, int]:
    """Near-black text on light colours, near-white on dark ones."""
    return (25, 25, 30) if luminance(colour) > 140 / 255 else (245, 245, 245)
