"""Coordinate labels round a board: names of the files/ranks/rows/columns, placed
beside the grid and drawn centred on their spots.

:func:`grid_labels` says where the labels of a :class:`~games.render.grid.GridLayout`
go (on which sides, how far out, one per cell or one per line); :func:`draw_labels`
draws any list of (text, spot), so boards with their own geometry (Hex) share the
drawing only.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import pygame

from games.render.grid import GridLayout

Label = tuple[str, tuple[float, float]]      # text, pixel of its centre

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def letters(count: int, upper: bool = False) -> list[str]:
    """``a``, ``b``, ... (``A``, ``B``, ... when ``upper``) for ``count`` lines."""
    names = list(LETTERS[:count])
    return [n.upper() for n in names] if upper else names


def numbers(count: int, first: int = 0, descending: bool = False) -> list[str]:
    """``first``, ``first + 1``, ... for ``count`` lines (highest first when ``descending``)."""
    names = [str(first + i) for i in range(count)]
    return names[::-1] if descending else names


def grid_labels(layout: GridLayout, row_names: Sequence[str] | None, col_names: Sequence[str] | None,
                distance: float, sides: str = "ltrb", on_lines: bool = False, step: int = 1) -> list[Label]:
    """Where the coordinates of ``layout`` go, as (text, pixel centre) pairs.

    ``row_names`` are shown left (``l``) and right (``r``) of the rows, top to bottom
    on screen; ``col_names`` above (``t``) and below (``b``) the columns, left to right.
    ``distance`` is how far a label's centre is outside the grid's edge, in cells.
    ``on_lines``: one name per grid line (pieces on intersections) rather than per
    cell.  ``step`` 2 names every other line or cell (a crowded small board).
    """
    shift = 0.0 if on_lines else 0.5
    labels: list[Label] = []
    for side in sides:
        if side in "lr" and row_names:
            col = -distance if side == "l" else layout.cols + distance
            for index in range(0, len(row_names), step):
                labels.append((row_names[index], layout.point(index + shift, col)))
        elif side in "tb" and col_names:
            row = -distance if side == "t" else layout.rows + distance
            for index in range(0, len(col_names), step):
                labels.append((col_names[index], layout.point(row, index + shift)))
    return labels


def draw_labels(surface: pygame.Surface, labels: Iterable[Label], face: pygame.font.Font, colour: tuple) -> None:
    """Each label's text in ``face`` and ``colour``, centred on its spot (rounded to a pixel)."""
    images: dict[str, pygame.Surface] = {}
    for text, (x, y) in labels:
        image = images.get(text)
        if image is None:
            image = images[text] = face.render(text, True, colour)
        surface.blit(image, image.get_rect(center=(round(x), round(y))))
