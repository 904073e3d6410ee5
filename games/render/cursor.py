"""The keyboard pointer: arrow keys move a cell cursor over a board, clamped to it;
Enter or Space acts on the cell under it, as a click would.

Arrow keys mean screen directions.  :class:`GridCursor` turns them into steps in the
renderer's own cell numbering (rows counted from the bottom, a flipped or transposed
board, 1-based numbers), so the pointer always goes the way the arrow points.
"""
from __future__ import annotations

from dataclasses import dataclass

import pygame

Cell = tuple[int, int]

#: Arrow key -> (rows, columns) it moves on screen: Up is one row up.
ARROWS: dict[int, Cell] = {pygame.K_UP: (-1, 0), pygame.K_DOWN: (1, 0),
                           pygame.K_LEFT: (0, -1), pygame.K_RIGHT: (0, 1)}
#: Keys that act on the cell under the pointer, as a click there would.
CONFIRM_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
#: Keys that drop a selection.
CANCEL_KEYS = (pygame.K_ESCAPE,)


def screen_step(key: int) -> Cell | None:
    """(rows, columns) an arrow key moves on screen; None for other keys."""
    return ARROWS.get(key)


def is_confirm(key: int) -> bool:
    return key in CONFIRM_KEYS


def is_cancel(key: int) -> bool:
    return key in CANCEL_KEYS


@dataclass(frozen=True)
class GridCursor:
    """A cursor over cells (row, col) with ``rows``×``cols`` cells numbered from ``first``.

    How the cells lie on screen: ``transposed``, the cells' rows run across the screen
    (left/right arrows change the row); ``rows_up``, row numbers grow upwards (Down
    lowers the row); ``cols_left``, column numbers grow to the left.  These apply after
    the transposition, in the cells' own terms.
    """

    rows: int
    cols: int
    first: int = 0
    transposed: bool = False
    rows_up: bool = False
    cols_left: bool = False

    def step(self, key: int) -> Cell | None:
        """(rows, columns) an arrow key moves in the cells' own numbering; None for other keys."""
        screen = ARROWS.get(key)
        if screen is None:
            return None
        dr, dc = (screen[1], screen[0]) if self.transposed else screen
        return (-dr if self.rows_up else dr), (-dc if self.cols_left else dc)

    def clamp(self, cell: Cell) -> Cell:
        """The nearest cell on the board."""
        row, col = cell
        return (min(max(row, self.first), self.first + self.rows - 1),
                min(max(col, self.first), self.first + self.cols - 1))

    def contains(self, cell) -> bool:
        return (isinstance(cell, tuple) and len(cell) == 2
                and self.first <= cell[0] < self.first + self.rows and self.first <= cell[1] < self.first + self.cols)

    def move(self, cell: Cell | None, key: int, home: Cell, show_first: bool = True) -> Cell | None:
        """Where an arrow ``key`` puts a pointer now at ``cell``; None when ``key`` is no arrow.

        Without a pointer yet (``cell`` None), the pointer appears at ``home``; with
        ``show_first`` that press only shows it, otherwise it steps from ``home``.
        """
        step = self.step(key)
        if step is None:
            return None
        if cell is None:
            if show_first:
                return self.clamp(home)
            cell = home
        return self.clamp((cell[0] + step[0], cell[1] + step[1]))
