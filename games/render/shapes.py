"""Shapes the boards draw: a marker's polygon (circle, square, triangle, diamond), a
five-pointed star, and the outline of a region of grid cells, as pure geometry (Robot's
and Tam quan's boards use them)."""
from __future__ import annotations

import math
from typing import Iterable

Cell = tuple[int, int]       # (row, col), 0-based from the top left


def star_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """A five-pointed star of outer radius ``r``, point up."""
    radii = [r if i % 2 == 0 else r * 0.45 for i in range(10)]
    return [(cx + radii[i] * math.sin(math.pi * i / 5), cy - radii[i] * math.cos(math.pi * i / 5))
            for i in range(10)]


def shape_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Polygon of a marker shape of radius ``r`` (a circle is a 32-gon)."""
    if shape == "square":
        s = r * 0.86
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape == "triangle":
        return [(cx, cy - r), (cx + r * 0.95, cy + r * 0.72), (cx - r * 0.95, cy + r * 0.72)]
    if shape == "diamond":
        return [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    return [(cx + r * math.cos(a * math.pi / 16), cy + r * math.sin(a * math.pi / 16)) for a in range(32)]


def region_outline(cells: Iterable[Cell]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The border of a set of cells as unit segments between grid corners (row, col).

    A cell's side is on the border when the cell across it is not in the set.
    """
    cells = set(cells)
    segments = []
    for x, y in sorted(cells):
        if (x - 1, y) not in cells:
            segments.append(((x, y), (x, y + 1)))
        if (x + 1, y) not in cells:
            segments.append(((x + 1, y), (x + 1, y + 1)))
        if (x, y - 1) not in cells:
            segments.append(((x, y), (x + 1, y)))
        if (x, y + 1) not in cells:
            segments.append(((x, y + 1), (x + 1, y + 1)))
    return segments
