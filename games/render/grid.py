"""Where the cells (or the intersections) of an N×M board fall in pixels.

:class:`GridLayout` is a ``rows``×``cols`` grid of square cells with its top-left
corner at ``origin``.  Boards whose pieces stand in the cells (Robot) use
:meth:`~GridLayout.cell_rect`, :meth:`~GridLayout.centre` and :meth:`~GridLayout.cell_at`;
boards whose pieces stand on the lines (Xiangqi, Go) use a grid one cell smaller each
way and its corners, :meth:`~GridLayout.point` and :meth:`~GridLayout.point_at`.

:func:`fit_grid` finds the largest such grid that fits a rectangle with room (in
cells) on each side for coordinates or a frame; :func:`split_area` shares a rectangle
between a board and its side panel (Robot, Tam quan).  Everything is pure geometry: it is
tested without a screen.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import pygame

Cell = tuple[int, int]       # (row, col), 0-based from the top left
COORD_MARGIN = 0.9                     # room for coordinates left of and above the grid, in cells
PANEL_SHARE = (0.28, 0.45)             # the panel's share of a wide rect's width (or tall rect's height)
NO_PANEL_BELOW = 240                   # no panel when the rect is smaller than this both ways


@dataclass(frozen=True)
class GridLayout:
    """Where a ``rows``×``cols`` grid's cells fall in pixels.

    Cell edges are rounded to whole pixels, so neighbouring cells tile without gaps or
    overlaps, and :meth:`cell_at` is exact: a pixel belongs to the cell whose
    :meth:`cell_rect` holds it.  A cell is named (row, col), 0-based from the top left
    of the screen; a renderer turns its own names (flipped boards, 1-based rows) into these.
    """

    rows: int
    cols: int
    cell: float
    origin: tuple[float, float]        # pixel of the grid's top-left corner

    # ---- lines and corners
    def edge_x(self, col: int) -> int:
        """Pixel x of the left edge of column ``col`` (``cols`` gives the right edge)."""
        return int(round(self.origin[0] + col * self.cell))

    def edge_y(self, row: int) -> int:
        """Pixel y of the top edge of row ``row`` (``rows`` gives the bottom edge)."""
        return int(round(self.origin[1] + row * self.cell))

    def corner(self, row: int, col: int) -> tuple[int, int]:
        """Pixel of grid corner (row, col): the top-left corner of cell (row, col)."""
        return self.edge_x(col), self.edge_y(row)

    def point(self, row: float, col: float) -> tuple[float, float]:
        """Exact pixel of grid corner (row, col); fractional and off-grid values are fine
        (a label half a cell outside, a river between two lines)."""
        return self.origin[0] + col * self.cell, self.origin[1] + row * self.cell

    def point_at(self, px: float, py: float) -> Cell | None:
        """The grid corner (intersection) nearest pixel (px, py), or None more than half a
        cell outside the grid."""
        col = round((px - self.origin[0]) / self.cell)
        row = round((py - self.origin[1]) / self.cell)
        if 0 <= row <= self.rows and 0 <= col <= self.cols:
            return row, col
        return None

    # ---- cells
    def cell_rect(self, row: int, col: int) -> pygame.Rect:
        """The cell's pixels (a new Rect each call: callers may change it)."""
        left, top = self.edge_x(col), self.edge_y(row)
        return pygame.Rect(left, top, self.edge_x(col + 1) - left, self.edge_y(row + 1) - top)

    def centre(self, row: float, col: float) -> tuple[float, float]:
        """Exact pixel centre of cell (row, col) (fractional values are fine)."""
        return self.origin[0] + (col + 0.5) * self.cell, self.origin[1] + (row + 0.5) * self.cell

    def grid_rect(self) -> pygame.Rect:
        """The whole grid's pixels."""
        return pygame.Rect(self.edge_x(0), self.edge_y(0), self.edge_x(self.cols) - self.edge_x(0),
                           self.edge_y(self.rows) - self.edge_y(0))

    @staticmethod
    def _index(pixel: float, origin: float, cell: float, count: int, edge) -> int | None:
        guess = math.floor((pixel - origin) / cell)
        if pixel < edge(guess):
            guess -= 1
        elif pixel >= edge(guess + 1):
            guess += 1
        return guess if 0 <= guess < count else None

    def cell_at(self, px: float, py: float) -> Cell | None:
        """The cell under pixel (px, py), or None off the grid."""
        col = self._index(px, self.origin[0], self.cell, self.cols, self.edge_x)
        row = self._index(py, self.origin[1], self.cell, self.rows, self.edge_y)
        return None if row is None or col is None else (row, col)

    def cells(self):
        """Every cell, row by row."""
        return ((row, col) for row in range(self.rows) for col in range(self.cols))

    def translated(self, dx: float, dy: float) -> "GridLayout":
        return GridLayout(self.rows, self.cols, self.cell, (self.origin[0] + dx, self.origin[1] + dy))


Margins = tuple[float, float, float, float]


def margins_of(margins: float | Sequence[float]) -> Margins:
    """(left, top, right, bottom) from one number (all four sides) or four."""
    if isinstance(margins, (int, float)):
        return (float(margins),) * 4
    left, top, right, bottom = margins
    return float(left), float(top), float(right), float(bottom)


def fit_grid(rows: int, cols: int, width: float, height: float, margins: float | Sequence[float] = 0.0,
             padding: float = 0.0) -> GridLayout:
    """The largest ``rows``×``cols`` grid, with ``margins`` cells of room outside it
    (one number, or left, top, right, bottom), centred in a ``width``×``height`` box
    whose top-left corner is (0, 0); ``padding`` is a share of the box kept free on
    each side.
    """
    left, top, right, bottom = margins_of(margins)
    span_w, span_h = cols + (left + right), rows + (top + bottom)
    room_w, room_h = width * (1 - 2 * padding), height * (1 - 2 * padding)
    cell = max(1e-3, min(room_w / span_w, room_h / span_h))
    return GridLayout(rows, cols, cell, (_start(width, cols, cell, left, right),
                                         _start(height, rows, cell, top, bottom)))


def _start(length: float, count: int, cell: float, before: float, after: float) -> float:
    """Where a centred run of ``count`` cells starts, ``before``/``after`` cells of margin round it."""
    if before == after:               # the grid's own centre on the box's centre
        return length / 2.0 - count * cell / 2.0
    return (length - (count + (before + after)) * cell) / 2 + before * cell


def split_area(rect: pygame.Rect, rows: int, cols: int, coordinates: bool = True
               ) -> tuple[pygame.Rect, pygame.Rect | None, str]:
    """Board rect, panel rect (None when the rect is too small) and where the panel went.

    A wide rect puts the panel on the right, a tall one below.  The board keeps the
    room its grid needs; the panel takes the rest, within :data:`PANEL_SHARE`.
    """
    rect = pygame.Rect(rect)
    if rect.width < NO_PANEL_BELOW and rect.height < NO_PANEL_BELOW:
        return rect.copy(), None, "none"
    margin = COORD_MARGIN if coordinates else 0.0
    aspect = (cols + margin) / (rows + margin)
    low, high = PANEL_SHARE
    if rect.width >= rect.height * aspect * 1.1:
        spare = rect.width - rect.height * aspect
        panel_w = int(min(max(spare, rect.width * low), rect.width * high))
        board = pygame.Rect(rect.x, rect.y, rect.width - panel_w, rect.height)
        return board, pygame.Rect(board.right, rect.y, panel_w, rect.height), "right"
    spare = rect.height - rect.width / aspect
    panel_h = int(min(max(spare, rect.height * low), rect.height * high))
    board = pygame.Rect(rect.x, rect.y, rect.width, rect.height - panel_h)
    return board, pygame.Rect(rect.x, board.bottom, rect.width, panel_h), "below"
