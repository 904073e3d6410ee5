"""Which display the window is on, for fullscreen (F11) and for coming back from it.

pygame tells the window's position and each display's desktop size
(``pygame.display.get_desktop_sizes()``) but not where the displays sit relative to each
other.  The arena takes the usual arrangement: displays side by side, left to right in
SDL's order, tops aligned at y = 0.  A window belongs to the display that holds most of
it (its centre, when it overlaps none).  Going back to a window, SDL itself centres it on
that display (:func:`centred_on`), so the centring is right whatever the arrangement.

Pure functions, no pygame: tested directly.
"""
from __future__ import annotations

#: SDL_WINDOWPOS_CENTERED_DISPLAY(0): a window position SDL reads as "centred on display N"
#: when N is or-ed into it.
SDL_CENTRED_ON_DISPLAY = 0x2FFF0000


def display_origins(desktop_sizes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Top-left corner of each display, displays side by side from x = 0."""
    origins, x = [], 0
    for width, _height in desktop_sizes:
        origins.append((x, 0))
        x += width
    return origins


def display_of(position: tuple[int, int], size: tuple[int, int],
               desktop_sizes: list[tuple[int, int]]) -> int:
    """The index of the display holding most of the window at ``position`` of ``size``."""
    if not desktop_sizes:
        return 0
    left, top = position
    right, bottom = left + size[0], top + size[1]
    centre = (left + size[0] / 2, top + size[1] / 2)

    def overlap(index: int) -> float:
        (x, y), (w, h) = display_origins(desktop_sizes)[index], desktop_sizes[index]
        return max(0, min(right, x + w) - max(left, x)) * max(0, min(bottom, y + h) - max(top, y))

    def distance(index: int) -> float:
        (x, y), (w, h) = display_origins(desktop_sizes)[index], desktop_sizes[index]
        return (max(x - centre[0], 0, centre[0] - x - w) ** 2
                + max(y - centre[1], 0, centre[1] - y - h) ** 2)

    indexes = range(len(desktop_sizes))
    best = max(indexes, key=overlap)
    return best if overlap(best) > 0 else min(indexes, key=distance)


def centred_on(display: int) -> tuple[int, int]:
    """The window position that makes SDL centre the window on ``display``."""
    return SDL_CENTRED_ON_DISPLAY | display, SDL_CENTRED_ON_DISPLAY | display


def centred_position(size: tuple[int, int], display: int,
                     desktop_sizes: list[tuple[int, int]]) -> tuple[int, int]:
    """Where a window of ``size`` centred on ``display`` has its top-left corner."""
    (x, y), (w, h) = display_origins(desktop_sizes)[display], desktop_sizes[display]
    return x + (w - size[0]) // 2, y + (h - size[1]) // 2
