"""The contract between the ui shell and each game's board renderer (pygame).

A game's ``render.py`` subclasses :class:`BoardRenderer`.  It draws a state into a
rectangle of a surface it is given, reading the state only (like
``chess.svg.board(board, orientation=..., lastmove=...)``), and turns a person's
clicks and keys into move text.  View choices that are not part of the game (flipped,
hover, selection, coordinates shown) live in :class:`BoardView`, owned by the ui.

The kit renderers share lives in the modules of this package, and what they commonly
need is re-exported here:

* :mod:`games.render.theme`: :class:`Theme` (``DARK``, ``LIGHT``), :func:`font`, colour
  helpers :func:`mix`, :func:`luminance`, :func:`contrast_text`;
* :mod:`games.render.text`: :func:`wrap`, :func:`elide`;
* :mod:`games.render.layers`: :class:`LayerCache`, the static board drawn once and reused;
* :mod:`games.render.grid`: :class:`GridLayout` and :func:`fit_grid`, an N×M board in a rectangle;
  :func:`~games.render.grid.split_area`, a board and its side panel sharing a rectangle;
* :mod:`games.render.shapes`: markers' polygons, a star, the outline of a region of cells;
* :mod:`games.render.cursor`: :class:`GridCursor`, the arrow-key pointer, and the shared keys;
* :mod:`games.render.coords`: :func:`grid_labels`, :func:`draw_labels`, coordinate labels.

Only renderers and the ui import this package: it needs pygame, which the rules,
protocols and referee never import.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import pygame

from games.api import ArenaError
from games.render.coords import draw_labels, grid_labels
from games.render.cursor import ARROWS, CANCEL_KEYS, CONFIRM_KEYS, GridCursor
from games.render.grid import GridLayout, fit_grid
from games.render.layers import LayerCache, display_ready
from games.render.text import elide, wrap
from games.render.theme import DARK, LIGHT, THEMES, Theme, contrast_text, font, luminance, mix
from games.language import _, ngettext

__all__ = ["ARROWS", "BoardRenderer", "BoardView", "CANCEL_KEYS", "CONFIRM_KEYS", "DARK", "GridCursor",
           "GridLayout", "LIGHT", "LayerCache", "THEMES", "Theme", "contrast_text", "display_ready",
           "draw_labels", "elide", "fit_grid", "font", "grid_labels", "luminance", "mix", "wrap"]


@dataclass
class BoardView:
    """The ui's view choices for one board; renderers read it and may update hover/selection."""

    flipped: bool = False
    show_coordinates: bool = True
    hover: Any = None                 # the cell under the mouse, in the game's own terms
    selected: Any = None              # a picked-up piece / first click of a two-click move
    human_seat: int | None = None     # seat the person may move for now (None: not their turn)
    highlights: dict[str, Any] = field(default_factory=dict)   # game-defined extras
    letters: bool = False             # a letter on each colour (colour-blind aid)
    time: float = 0.0                 # seconds, for animations
    #: Why the person's last click or key did nothing (translated), for the ui to show as
    #: typed moves' errors are shown; the renderer sets it, the ui shows and clears it.
    refusal: str = ""


class BoardRenderer:
    """Base of every game's renderer.  Subclasses override :meth:`draw` and the input hooks."""

    def __init__(self, game, options: Mapping[str, Any], seat_names: list[str] | None = None,
                 theme: Theme = DARK):
        self.game, self.options = game, dict(options)
        self.seat_names = list(seat_names or [])
        self.theme = theme

    def seat_colour(self, seat: int) -> tuple:
        return self.theme.seats[seat % len(self.theme.seats)]

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, state, view: BoardView) -> None:
        """Draw ``state`` inside ``rect``; must not change ``state``."""
        raise NotImplementedError

    def handle_event(self, event: pygame.event.Event, state, view: BoardView) -> str | None:
        """A person's input while ``view.human_seat`` may move: the move text once complete.

        Updates ``view.hover``/``view.selected`` as the person points and clicks, and
        ``view.refusal`` when a click cannot be taken (:meth:`refuse`).
        """
        return None

    def refuse(self, view: BoardView, state, seat: int, text: str) -> None:
        """Note in ``view.refusal`` why the move ``text`` a click made is refused, in the
        rules' own words ("c3 (row 3, column 3) is occupied"), as a typed move's error is
        shown; the ui translates and shows it.  Nothing is noted for a legal move."""
        try:
            state.check_move(seat, self.game.parse_move(text, state, seat))
        except ArenaError as exc:
            view.refusal = str(exc)

    def legend(self, state) -> list[tuple[tuple, str]]:
        """(colour, text) lines the side panel shows under the players (optional)."""
        return []

    def key_help(self, state, seat: int) -> str:
        """The keys (and clicks) a person uses to move now, in one line for the screen."""
        return _("Click a cell to play there · arrow keys move the pointer, Enter or Space plays it"
                 " · or type the move and press Enter")

    #: Move notations the move list may use for this game, the plain move texts first
    #: (e.g. ``("ICCS", "WXF")``); empty when there is only one.  The Settings screen
    #: offers a choice for each game whose renderer names more than one.
    notations: tuple[str, ...] = ()

    def move_labels(self, state, turns, notation: str | None) -> list[dict[int, str]]:
        """For each of ``turns``, seat -> the text the move list shows for that seat's move.

        ``state`` is the position after the last of ``turns`` (the whole game so far),
        ``notation`` one of :attr:`notations` (None or the first: the plain texts).
        The default is the plain move texts of the record.
        """
        return [dict(turn.moves) for turn in turns]

    def annotation_spot(self, cell: tuple[int, int]) -> tuple[float, float, float] | None:
        """Where a cell named by :meth:`games.api.Game.parse_cell` was drawn by the last
        :meth:`draw`: its pixel centre and half its size, or None when the board has no
        such cell.  Bot annotations are placed with it (:mod:`games.render.annotations`).

        The default serves renderers that keep their last :class:`GridLayout` as
        ``self.layout`` and name cells (row, col) on it; others override it.
        """
        layout = getattr(self, "layout", None)
        if not isinstance(layout, GridLayout):
            return None
        row, col = cell
        if not (0 <= row < layout.rows and 0 <= col < layout.cols):
            return None
        x, y = layout.centre(row, col)
        return x, y, layout.cell / 2
    def line_labels(self, state, moves, notation: str | None) -> list[str]:
        """The texts of a line of moves played from ``state`` (an engine's principal
        variation), in ``notation`` as the move list shows it; default: as given."""
        return [str(move) for move in moves]

    def animates(self, state) -> bool:
        """True when :meth:`draw` of ``state`` changes with ``view.time`` (a pulsing mark).

        The ui then redraws a few dozen times a second, but only while the match runs,
        the replay plays, or for a second after the shown state changed.
        """
        return False
