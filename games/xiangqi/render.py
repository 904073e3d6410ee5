"""The Xiangqi board in pygame: the traditional 9×10 board and disc pieces.

Pieces stand on the intersections of 9 files (A-I, left to right as Red sees them)
and 10 ranks (0-9, bottom to top).  The board shows the river with its words
(楚河 漢界), the two palaces with their diagonals and the small marks at the soldiers'
and cannons' starting points; the pieces are wooden discs with their Chinese
characters, red or black.  ``view.flipped`` turns the board round (Black at the
bottom).

Options the renderer reads (all optional):

* ``options["pieces"] == "latin"`` (or ``options["latin"]`` true, or
  ``view.highlights["latin"]`` true): discs with Latin letters K A E H R C P (WXF),
  red or black discs, for people who do not read the characters.
* ``view.highlights["arrows"]``: ICCS moves (``"H2E2"``) drawn as arrows, e.g. a
  bot's intended line.
* ``view.letters`` (colour-blind aid): a small corner tag R or B on every piece.

Input: a person moves by click-click or drag-and-drop; :meth:`XiangqiRenderer.handle_event`
returns ICCS text (``"H2E2"``) once a legal move is complete; an illegal target
clears the selection.  Arrow keys move the pointer; Enter or Space acts as a click.
``view.hover`` and ``view.selected`` hold square names (``"H2"``).

The geometry is :class:`XiangqiLayout` (pixel <-> square, unit-tested without a
screen), the intersections of a :class:`games.render.GridLayout` of 8×9 cells.  The
wooden board, lines, river and coordinates are drawn once per (size, orientation,
coordinates, theme) and cached; piece sprites are cached per size.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache

import pygame

from games.render import (CANCEL_KEYS, CONFIRM_KEYS, BoardRenderer, BoardView, GridCursor, GridLayout, LayerCache,
                          Theme, draw_labels, fit_grid, font, grid_labels, mix)
from games.language import _
from games.assets import asset

FILES, RANKS = 9, 10
FILE_LETTERS = "ABCDEFGHI"
PIECE_RADIUS = 0.45        # of the spacing between intersections
FRAME_GAP = 0.58           # the outer frame line, past the outermost grid lines (outside the pieces)
LABEL_DISTANCE = 1.0       # coordinates, past the outermost grid lines, in cells
WOOD_MARGIN = (1.42, 0.8)  # wood past the grid lines, with / without coordinates, in cells
PIECE_FONT_FILE = "xiangqi-pieces.otf"
_COLOUR_KEY = (255, 0, 255)      # outside the wood's rounded corners in the cached layer

# FEN letter (upper case) -> (Red's character, Black's character, WXF letter)
PIECES = {"K": ("帥", "將", "K"), "A": ("仕", "士", "A"), "B": ("相", "象", "E"),
          "N": ("傌", "馬", "H"), "R": ("俥", "車", "R"), "C": ("炮", "砲", "C"),
          "P": ("兵", "卒", "P")}
RIVER_WORDS = ("楚河", "漢界")

RED_INK = (184, 28, 24)
BLACK_INK = (26, 26, 28)
WOOD = (226, 190, 132)
PIECE_FACE = (246, 228, 190)
PIECE_EDGE = (176, 128, 72)
CANNON_POINTS = ("B2", "H2", "B7", "H7")
SOLDIER_POINTS = tuple(f"{f}{r}" for r in (3, 6) for f in "ACEGI")

Square = str   # "H2"


def square_name(file: int, rank: int) -> Square:
    return f"{FILE_LETTERS[file]}{rank}"


def square_coords(name: Square) -> tuple[int, int]:
    """(file, rank) of a square name like ``"H2"``."""
    return FILE_LETTERS.index(name[0].upper()), int(name[1:])


# ---------------------------------------------------------------------------- geometry
@dataclass(frozen=True)
class XiangqiLayout:
    """Where the 90 intersections fall in pixels.

    ``origin`` is the pixel of the top-left intersection on screen (A9, or I0 when
    ``flipped``); ``cell`` is the spacing between neighbouring intersections.
    """

    cell: float
    origin: tuple[float, float]
    flipped: bool = False

    @cached_property
    def grid(self) -> GridLayout:
        """The board's 8×9 cells; the pieces stand on their corners."""
        return GridLayout(RANKS - 1, FILES - 1, self.cell, self.origin)

    def screen_grid(self, file: float, rank: float) -> tuple[float, float]:
        """(column, row) on screen, 0-based from the top left, of a (possibly fractional) point."""
        if self.flipped:
            return FILES - 1 - file, rank
        return file, RANKS - 1 - rank

    def centre(self, file: float, rank: float) -> tuple[float, float]:
        column, row = self.screen_grid(file, rank)
        return self.grid.point(row, column)

    def centre_of(self, name: Square) -> tuple[float, float]:
        return self.centre(*square_coords(name))

    def square_at(self, x: float, y: float) -> Square | None:
        """The intersection nearest pixel (x, y), or None more than half a cell off the grid."""
        point = self.grid.point_at(x, y)
        if point is None:
            return None
        row, column = point
        if self.flipped:
            return square_name(FILES - 1 - column, row)
        return square_name(column, RANKS - 1 - row)

    def translated(self, dx: float, dy: float) -> "XiangqiLayout":
        return XiangqiLayout(self.cell, (self.origin[0] + dx, self.origin[1] + dy), self.flipped)

    def wood_rect(self, coordinates: bool) -> pygame.Rect:
        margin = WOOD_MARGIN[0 if coordinates else 1] * self.cell
        left, top = self.origin[0] - margin, self.origin[1] - margin
        return pygame.Rect(round(left), round(top), round((FILES - 1) * self.cell + 2 * margin),
                           round((RANKS - 1) * self.cell + 2 * margin))


def fit_layout(width: int, height: int, coordinates: bool = True, flipped: bool = False,
               padding: float = 0.015) -> XiangqiLayout:
    """The largest board centred in a ``width``×``height`` box (origin at the box's corner)."""
    grid = fit_grid(RANKS - 1, FILES - 1, width, height, WOOD_MARGIN[0 if coordinates else 1], padding)
    return XiangqiLayout(grid.cell, grid.origin, flipped)


# ---------------------------------------------------------------------------- drawing helpers


@lru_cache(maxsize=32)
def piece_font(size: int) -> pygame.font.Font:
    """The shipped subset of Noto Serif CJK TC Bold (piece characters and river words only)."""
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(str(asset("fonts", PIECE_FONT_FILE)), max(6, int(size)))


def _blit_centred_glyph(target: pygame.Surface, text_font: pygame.font.Font, char: str, colour: tuple,
                        centre: tuple[float, float]) -> None:
    """Blit one character so its ink (not its line box) is centred on ``centre``."""
    image = text_font.render(char, True, colour)
    metrics = text_font.metrics(char)[0]
    ink_middle = text_font.get_ascent() - (metrics[2] + metrics[3]) / 2.0 if metrics else image.get_height() / 2.0
    target.blit(image, (round(centre[0] - image.get_width() / 2.0), round(centre[1] - ink_middle)))


def _point(p: tuple[float, float]) -> tuple[int, int]:
    return round(p[0]), round(p[1])


def _translucent_circle(surface: pygame.Surface, colour: tuple, alpha: int, centre: tuple[float, float],
                        radius: float, width: int = 0) -> None:
    """A circle blended onto ``surface`` (pygame.draw ignores alpha on plain surfaces)."""
    r = max(1, int(round(radius)))
    patch = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
    pygame.draw.circle(patch, (*colour[:3], alpha), (r + 1, r + 1), r, width)
    surface.blit(patch, (round(centre[0]) - r - 1, round(centre[1]) - r - 1))


def _piece_sprite(radius: int, red: bool, label: str, latin: bool, tag: str = "") -> pygame.Surface:
    """A wooden disc with its character (or a red/black disc with a Latin letter).

    The disc is drawn 4× larger and smoothed down; the text is drawn at its final
    size so it stays crisp.
    """
    scale, ink = 4, RED_INK if red else BLACK_INK
    big_r = radius * scale
    size = 2 * big_r + 2
    big = pygame.Surface((size, size), pygame.SRCALPHA)
    centre = (big_r + 1, big_r + 1)
    shadow = (centre[0] + big_r // 24, centre[1] + big_r // 14)
    pygame.draw.circle(big, (0, 0, 0, 90), shadow, int(big_r * 0.97))
    if latin:
        body = ink if not red else (200, 44, 36)
        pygame.draw.circle(big, mix(body, (0, 0, 0), 0.35), centre, int(big_r * 0.95))
        pygame.draw.circle(big, body, centre, int(big_r * 0.88))
        pygame.draw.circle(big, (240, 232, 214), centre, int(big_r * 0.76), max(1, big_r // 24))
    else:
        pygame.draw.circle(big, PIECE_EDGE, centre, int(big_r * 0.95))
        pygame.draw.circle(big, PIECE_FACE, centre, int(big_r * 0.87))
        pygame.draw.circle(big, mix(PIECE_FACE, (255, 255, 255), 0.35),
                           (centre[0] - big_r // 10, centre[1] - big_r // 10), int(big_r * 0.55))
        pygame.draw.circle(big, PIECE_FACE, centre, int(big_r * 0.62))
        pygame.draw.circle(big, ink, centre, int(big_r * 0.76), max(1, big_r // 22))
    sprite = pygame.transform.smoothscale(big, (2 * radius + 1, 2 * radius + 1))
    if latin:
        _blit_centred_glyph(sprite, font(max(6, int(radius * 1.05)), bold=True), label, (248, 244, 234),
                            (radius + 0.5, radius + 0.5))
    else:
        _blit_centred_glyph(sprite, piece_font(max(6, int(radius * 1.1))), label, ink, (radius + 0.5, radius + 0.5))
    if tag:
        tag_font = font(max(6, int(radius * 0.42)), bold=True)
        badge = tag_font.render(tag, True, (255, 255, 255))
        spot = (int(radius * 1.62), int(radius * 0.38))
        pygame.draw.circle(sprite, ink if not latin else (20, 20, 20), spot, max(3, int(radius * 0.3)))
        sprite.blit(badge, badge.get_rect(center=spot))
    return sprite


class XiangqiRenderer(BoardRenderer):
    """Draws a :class:`games.xiangqi.rules.XiangqiState`; turns clicks and drags into ICCS moves."""

    _LAYER_CACHE_SIZE = 6
    _SPRITE_CACHE_SIZE = 96

    def __init__(self, game, options, seat_names=None, theme: Theme | None = None):
        super().__init__(game, options, seat_names, **({"theme": theme} if theme else {}))
        self._layers = LayerCache(self._LAYER_CACHE_SIZE)     # (layer, layout) per size, orientation, theme
        self._sprites: dict[tuple, pygame.Surface] = {}
        self.layout: XiangqiLayout | None = None     # the last drawn board, in surface pixels
        self._drag_origin: Square | None = None      # the square a held mouse button picked up
        self._drag_pos: tuple[int, int] | None = None
        self._drag_moved = False
        self._press_was_selected = False

    def seat_colour(self, seat: int) -> tuple:
        """Red for seat 0; Black for seat 1 (light grey on a dark theme, so it shows)."""
        if seat % 2 == 0:
            return (214, 48, 40)
        return (24, 24, 28) if self.theme.name == "light" else (205, 205, 212)

    def latin(self, view: BoardView) -> bool:
        return (str(self.options.get("pieces", "")).lower() == "latin" or bool(self.options.get("latin"))
                or bool(view.highlights.get("latin")))

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, rect: pygame.Rect, state, view: BoardView) -> None:
        rect = pygame.Rect(rect)
        if rect.width < 16 or rect.height < 16:
            return
        layer, local = self._static_layer(rect.size, view.flipped, view.show_coordinates)
        layout = local.translated(rect.x, rect.y)
        self.layout = layout
        wood = layout.wood_rect(view.show_coordinates)
        drop, corner = max(1, int(layout.cell / 16)), self._corner(layout)
        shadow = pygame.Rect(wood.x, wood.bottom - 2 * corner, wood.width, 2 * corner + drop)
        pygame.draw.rect(surface, mix(WOOD, (0, 0, 0), 0.55), shadow, border_radius=corner)
        surface.blit(layer, wood.topleft)
        board = self._pieces_of(state)
        moving = self._moving_seat(state, view)
        self._draw_last_move(surface, layout, state)
        self._draw_check(surface, layout, state, board)
        selected = view.selected if moving is not None and self._owns(board, view.selected, moving) else None
        targets = self._targets(state, moving, selected)
        self._draw_pieces(surface, layout, board, view, selected)
        self._draw_targets(surface, layout, board, targets, view.hover)
        self._draw_hover(surface, layout, board, view, moving, selected, targets)
        self._draw_arrows(surface, layout, view.highlights.get("arrows") or ())
        self._draw_dragged(surface, layout, board, view)

    def _static_layer(self, size: tuple[int, int], flipped: bool,
                      coordinates: bool) -> tuple[pygame.Surface, XiangqiLayout]:
        return self._layers.get((size, flipped, coordinates, self.theme),
                                lambda: self._build_layer(size, flipped, coordinates))

    def _build_layer(self, size: tuple[int, int], flipped: bool,
                     coordinates: bool) -> tuple[pygame.Surface, XiangqiLayout]:
        layout = fit_layout(size[0], size[1], coordinates, flipped)
        wood = layout.wood_rect(coordinates)
        # An opaque layer the size of the wood (rounded corners keyed out): blitting it is
        # several times faster than a whole-rect per-pixel-alpha layer at 4K.
        layer = pygame.Surface(wood.size)
        layer.fill(_COLOUR_KEY)
        local = layout.translated(-wood.x, -wood.y)
        self._draw_wood(layer, local, coordinates)
        self._draw_grid(layer, local)
        self._draw_point_marks(layer, local)
        self._draw_river_words(layer, local)
        if coordinates:
            self._draw_coordinates(layer, local)
        layer.set_colorkey(_COLOUR_KEY, pygame.RLEACCEL)
        return layer, layout

    def _line_width(self, layout: XiangqiLayout) -> int:
        return max(1, int(round(layout.cell / 30)))

    @staticmethod
    def _corner(layout: XiangqiLayout) -> int:
        return max(2, int(layout.cell * 0.12))

    def _draw_wood(self, layer: pygame.Surface, layout: XiangqiLayout, coordinates: bool) -> None:
        wood = layout.wood_rect(coordinates)
        radius = self._corner(layout)
        pygame.draw.rect(layer, WOOD, wood, border_radius=radius)
        # a few faint horizontal grain bands
        for index in range(1, 24):
            y = wood.top + wood.height * index / 24
            band = mix(WOOD, (160, 110, 60), 0.04 + 0.03 * ((index * 7) % 3))
            pygame.draw.line(layer, band, (wood.left + radius, round(y)), (wood.right - radius, round(y)),
                             max(1, int(layout.cell / 24)))
        pygame.draw.rect(layer, mix(WOOD, (0, 0, 0), 0.45), wood, max(1, int(layout.cell / 40)),
                         border_radius=radius)

    def _draw_grid(self, layer: pygame.Surface, layout: XiangqiLayout) -> None:
        colour, width = self.theme.line, self._line_width(layout)

        def line(a: tuple[float, float], b: tuple[float, float], w: int = width) -> None:
            pygame.draw.line(layer, colour, _point(layout.centre(*a)), _point(layout.centre(*b)), w)

        for rank in range(RANKS):
            line((0, rank), (FILES - 1, rank))
        for file in range(FILES):
            if file in (0, FILES - 1):
                line((file, 0), (file, RANKS - 1))
            else:
                line((file, 0), (file, 4))
                line((file, 5), (file, RANKS - 1))
        for low, high in ((0, 2), (7, 9)):               # palace diagonals
            line((3, low), (5, high))
            line((5, low), (3, high))
        # the frame: a thicker line a little outside the grid
        gap = FRAME_GAP
        corners = [layout.centre(-gap, -gap), layout.centre(FILES - 1 + gap, -gap),
                   layout.centre(FILES - 1 + gap, RANKS - 1 + gap), layout.centre(-gap, RANKS - 1 + gap)]
        pygame.draw.lines(layer, colour, True, [_point(p) for p in corners], max(2, width * 2 + 1))

    def _draw_point_marks(self, layer: pygame.Surface, layout: XiangqiLayout) -> None:
        """Little corner brackets round the soldiers' and cannons' starting points."""
        colour, width = self.theme.line, self._line_width(layout)
        gap, length = layout.cell * 0.07, layout.cell * 0.16
        for name in CANNON_POINTS + SOLDIER_POINTS:
            file, rank = square_coords(name)
            cx, cy = layout.centre(file, rank)
            for df in (-1, 1):
                if not 0 <= file + df < FILES:
                    continue
                sx = -df if layout.flipped else df
                for sy in (-1, 1):
                    corner = (cx + sx * gap, cy + sy * gap)
                    pygame.draw.line(layer, colour, _point(corner), _point((corner[0] + sx * length, corner[1])), width)
                    pygame.draw.line(layer, colour, _point(corner), _point((corner[0], corner[1] + sy * length)), width)

    def _draw_river_words(self, layer: pygame.Surface, layout: XiangqiLayout) -> None:
        words_font = piece_font(max(6, int(layout.cell * 0.62)))
        ink = mix(WOOD, self.theme.line, 0.7)
        left_word, right_word = RIVER_WORDS
        for word, first_file in ((left_word, 1.5), (right_word, 5.5)):
            for offset, char in enumerate(word):
                file = first_file + offset if not layout.flipped else FILES - 1 - (first_file + offset)
                _blit_centred_glyph(layer, words_font, char, ink, layout.centre(file, 4.5))

    def _draw_coordinates(self, layer: pygame.Surface, layout: XiangqiLayout) -> None:
        """File letters above and below the board, rank numbers left and right of it."""
        files = list(FILE_LETTERS[::-1] if layout.flipped else FILE_LETTERS)
        ranks = [str(rank) for rank in (range(RANKS) if layout.flipped else range(RANKS - 1, -1, -1))]
        labels = grid_labels(layout.grid, ranks, files, LABEL_DISTANCE, on_lines=True)
        draw_labels(layer, labels, font(max(7, int(layout.cell * 0.36)), bold=True), mix(WOOD, self.theme.line, 0.85))

    # ---- the dynamic part
    @staticmethod
    def _pieces_of(state) -> dict[Square, str]:
        """Square name -> FEN letter of every piece on the board (read from ``state.fen()``)."""
        board = {}
        for row, text in enumerate(state.fen().split()[0].split("/")):
            rank, file = RANKS - 1 - row, 0
            for char in text:
                if char.isdigit():
                    file += int(char)
                    continue
                if file < FILES:
                    board[square_name(file, rank)] = char
                file += 1
        return board

    @staticmethod
    def _moving_seat(state, view: BoardView) -> int | None:
        seat = view.human_seat
        return seat if seat is not None and state.outcome() is None and seat in state.to_move() else None

    @staticmethod
    def _owns(board: dict[Square, str], name, seat: int | None) -> bool:
        letter = board.get(name) if isinstance(name, str) else None
        return bool(letter) and seat is not None and letter.isupper() == (seat == 0)

    @staticmethod
    def _targets(state, seat: int | None, selected: Square | None) -> dict[Square, str]:
        """Destination square -> ICCS move, for the selected piece's legal moves."""
        if seat is None or not selected:
            return {}
        origin = selected.upper()
        return {move[2:]: move for move in state.legal_moves(seat) if move[:2] == origin}

    def _sprite(self, letter: str, radius: int, latin: bool, tag: bool) -> pygame.Surface:
        red = letter.isupper()
        key = (letter, radius, latin, tag)
        sprite = self._sprites.get(key)
        if sprite is None:
            red_char, black_char, wxf = PIECES[letter.upper()]
            label = wxf if latin else (red_char if red else black_char)
            sprite = _piece_sprite(radius, red, label, latin, ("R" if red else "B") if tag else "")
            self._sprites[key] = sprite
            if len(self._sprites) > self._SPRITE_CACHE_SIZE:
                self._sprites.pop(next(iter(self._sprites)))
        return sprite

    def _piece_radius(self, layout: XiangqiLayout) -> int:
        return max(3, int(layout.cell * PIECE_RADIUS))

    def _draw_pieces(self, surface: pygame.Surface, layout: XiangqiLayout, board: dict[Square, str],
                     view: BoardView, selected: Square | None) -> None:
        radius, latin = self._piece_radius(layout), self.latin(view)
        dragging = self._drag_origin if self._drag_moved else None
        for name, letter in board.items():
            sprite = self._sprite(letter, radius, latin, view.letters)
            centre = _point(layout.centre_of(name))
            if name == dragging:
                ghost = sprite.copy()
                ghost.set_alpha(90)
                surface.blit(ghost, ghost.get_rect(center=centre))
                continue
            if name == selected:
                _translucent_circle(surface, self.theme.accent, 230, centre, radius * 1.1,
                                    max(2, int(layout.cell / 14)))
            surface.blit(sprite, sprite.get_rect(center=centre))

    def _draw_last_move(self, surface: pygame.Surface, layout: XiangqiLayout, state) -> None:
        moves = getattr(state, "moves", None)
        if not moves:
            return
        last = str(moves[-1]).upper()
        colour = self.theme.accent
        for name in (last[:2], last[2:]):
            self._draw_brackets(surface, layout, name, colour)
        cx, cy = layout.centre_of(last[:2])
        _translucent_circle(surface, colour, 110, (cx, cy), layout.cell * 0.14)

    def _draw_brackets(self, surface: pygame.Surface, layout: XiangqiLayout, name: Square,
                       colour: tuple) -> None:
        """Four corner brackets just outside a piece at ``name``."""
        cx, cy = layout.centre_of(name)
        half, length = layout.cell * 0.49, layout.cell * 0.17
        width = max(2, int(round(layout.cell / 16)))
        for sx in (-1, 1):
            for sy in (-1, 1):
                corner = (cx + sx * half, cy + sy * half)
                pygame.draw.line(surface, colour, _point(corner), _point((corner[0] - sx * length, corner[1])), width)
                pygame.draw.line(surface, colour, _point(corner), _point((corner[0], corner[1] - sy * length)), width)

    def _draw_check(self, surface: pygame.Surface, layout: XiangqiLayout, state,
                    board: dict[Square, str]) -> None:
        """A red glow under the general of the side to move when it is in check."""
        if not state.in_check():
            return
        king = "K" if getattr(state, "side", 0) == 0 else "k"
        name = next((sq for sq, letter in board.items() if letter == king), None)
        if name is None:
            return
        centre = layout.centre_of(name)
        for step in range(5):
            _translucent_circle(surface, self.theme.bad, 60 + 25 * step, centre,
                                layout.cell * (0.78 - 0.06 * step))

    def _draw_targets(self, surface: pygame.Surface, layout: XiangqiLayout, board: dict[Square, str],
                      targets: dict[Square, str], hover) -> None:
        """Dots on the free squares the selected piece may go to, rings round its captures."""
        colour = mix(self.theme.good, (0, 0, 0), 0.2)
        radius = self._piece_radius(layout)
        for name in targets:
            centre = layout.centre_of(name)
            if name in board:
                _translucent_circle(surface, colour, 230, centre, radius * 1.08, max(2, int(layout.cell / 12)))
            else:
                big = name == hover
                _translucent_circle(surface, colour, 230 if big else 200, centre,
                                    layout.cell * (0.22 if big else 0.15))

    def _draw_hover(self, surface: pygame.Surface, layout: XiangqiLayout, board: dict[Square, str],
                    view: BoardView, moving: int | None, selected: Square | None,
                    targets: dict[Square, str]) -> None:
        """A faint ring round the person's own piece under the pointer."""
        hover = view.hover if isinstance(view.hover, str) else None
        if moving is None or hover is None or hover == selected or hover in targets:
            return
        if self._owns(board, hover, moving):
            _translucent_circle(surface, self.theme.accent, 150, layout.centre_of(hover),
                                self._piece_radius(layout) * 1.08, max(2, int(layout.cell / 20)))

    def _draw_arrows(self, surface: pygame.Surface, layout: XiangqiLayout, moves) -> None:
        """Translucent arrows for ICCS moves given in ``view.highlights["arrows"]``."""
        if not moves:
            return
        patch = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        colour = (*self.theme.seats[0][:3], 170)
        width = max(3, int(layout.cell * 0.13))
        for move in moves:
            try:
                start, end = layout.centre_of(move[:2]), layout.centre_of(move[2:4])
            except (ValueError, IndexError):
                continue
            dx, dy = end[0] - start[0], end[1] - start[1]
            length = math.hypot(dx, dy)
            if length < 1:
                continue
            ux, uy = dx / length, dy / length
            head = min(layout.cell * 0.42, length * 0.5)
            stem_end = (end[0] - ux * head, end[1] - uy * head)
            pygame.draw.line(patch, colour, _point(start), _point(stem_end), width)
            wing = head * 0.6
            tip = [_point(end), _point((stem_end[0] - uy * wing, stem_end[1] + ux * wing)),
                   _point((stem_end[0] + uy * wing, stem_end[1] - ux * wing))]
            pygame.draw.polygon(patch, colour, tip)
        surface.blit(patch, (0, 0))

    def _draw_dragged(self, surface: pygame.Surface, layout: XiangqiLayout, board: dict[Square, str],
                      view: BoardView) -> None:
        if not (self._drag_moved and self._drag_origin in board and self._drag_pos):
            return
        sprite = self._sprite(board[self._drag_origin], int(self._piece_radius(layout) * 1.08),
                              self.latin(view), view.letters)
        surface.blit(sprite, sprite.get_rect(center=self._drag_pos))

    # ------------------------------------------------------------------ input
    def annotation_spot(self, cell: tuple[int, int]) -> tuple[float, float, float] | None:
        """Point (rank, file) of the last drawn board: centre and half the spacing."""
        rank, file = cell
        if self.layout is None or not (0 <= rank <= 9 and 0 <= file <= 8):
            return None
        x, y = self.layout.centre(file, rank)
        return x, y, self.layout.cell * 0.48

    def square_at(self, pos: tuple[int, int]) -> Square | None:
        """The intersection under a pixel of the last drawn board."""
        return self.layout.square_at(*pos) if self.layout else None

    def handle_event(self, event: pygame.event.Event, state, view: BoardView) -> str | None:
        if event.type == pygame.MOUSEMOTION:
            view.hover = self.square_at(event.pos)
            if self._drag_origin is not None:
                if not getattr(event, "buttons", (1,))[0]:
                    self._end_drag()          # the button came up outside the board
                else:
                    self._drag_pos = tuple(event.pos)
                    self._drag_moved = self._drag_moved or view.hover != self._drag_origin
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            view.hover = self.square_at(event.pos)
            return self._press(view.hover, tuple(event.pos), state, view)
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            view.hover = self.square_at(event.pos)
            return self._release(view.hover, state, view)
        if event.type == pygame.KEYDOWN:
            return self._handle_key(event.key, state, view)
        return None

    def _legal(self, state, view: BoardView, origin: Square | None, target: Square | None) -> str | None:
        """The ICCS move origin->target if the person may play it now, else None."""
        seat = self._moving_seat(state, view)
        if seat is None or not origin or not target:
            return None
        move = f"{origin}{target}".upper()
        return move if move in state.legal_moves(seat) else None

    def _press(self, name: Square | None, pos: tuple[int, int], state, view: BoardView) -> str | None:
        """Mouse down: finish a click-click move, or pick up one's own piece, or clear."""
        self._end_drag()
        seat = self._moving_seat(state, view)
        if seat is None:
            view.selected = None
            return None
        if view.selected and name and name != view.selected:
            move = self._legal(state, view, view.selected, name)
            if move:
                view.selected = None
                return move
        board_letter = state.piece_at(name) if name else ""
        if board_letter and board_letter.isupper() == (seat == 0):
            self._press_was_selected = view.selected == name
            view.selected = name
            self._drag_origin, self._drag_pos, self._drag_moved = name, pos, False
            return None
        origin, view.selected = view.selected, None
        if origin and name:                       # an illegal target: the rules say why
            self.refuse(view, state, seat, f"{origin}{name}".upper())
        elif name:
            view.refusal = _("Pick up one of your pieces first: click it, then the point it goes to.")
        return None

    def _release(self, name: Square | None, state, view: BoardView) -> str | None:
        """Mouse up: drop a dragged piece; a click on the selected piece again deselects it."""
        origin, moved, was_selected = self._drag_origin, self._drag_moved, self._press_was_selected
        self._end_drag()
        if origin is None:
            return None
        if name == origin:
            if was_selected and not moved:
                view.selected = None
            return None
        move = self._legal(state, view, origin, name)
        view.selected = None
        seat = self._moving_seat(state, view)
        if move is None and name and moved and seat is not None:
            self.refuse(view, state, seat, f"{origin}{name}".upper())    # dropped where it may not go
        return move

    def _end_drag(self) -> None:
        self._drag_origin, self._drag_pos, self._drag_moved = None, None, False
        self._press_was_selected = False

    def _handle_key(self, key: int, state, view: BoardView) -> str | None:
        """Arrow keys move the pointer (screen directions); Enter or Space clicks; Escape deselects."""
        if key in CANCEL_KEYS:
            view.selected = None
            return None
        if key in CONFIRM_KEYS:
            hover = view.hover if isinstance(view.hover, str) else None
            move = self._press(hover, (0, 0), state, view)
            self._end_drag()
            return move
        # the pointer as (rank, file); from nowhere it steps from the mover's general's file
        cursor = GridCursor(RANKS, FILES, rows_up=not view.flipped, cols_left=view.flipped)
        here = square_coords(view.hover)[::-1] if isinstance(view.hover, str) else None
        home = (0, 4) if view.human_seat != 1 else (9, 4)
        moved = cursor.move(here, key, home, show_first=False)
        if moved is not None:
            view.hover = square_name(moved[1], moved[0])
        return None

    def key_help(self, state, seat: int) -> str:
        return _("Click a piece, then where it goes (or drag it) · arrow keys move the pointer,"
                 " Enter or Space picks up and puts down · Esc drops the piece · or type e.g. H2E2")

    notations = ("ICCS", "WXF")

    def move_labels(self, state, turns, notation: str | None) -> list[dict[int, str]]:
        """ICCS as recorded, or WXF (``games.xiangqi.notation``) worked out from the game's moves."""
        plain = super().move_labels(state, turns, notation)
        if notation != "WXF":
            return plain
        from games.xiangqi.notation import wxf_history
        try:
            texts = iter(wxf_history(state))
            labels = [{seat: next(texts) for seat in moves} for moves in plain]
        except Exception:          # a position the notation cannot follow: the record's own texts
            return plain
        return labels

    def line_labels(self, state, moves, notation: str | None) -> list[str]:
        """An engine's principal variation from ``state`` in WXF when the move list uses it
        (the record's ICCS otherwise, or when the line is not playable from ``state``)."""
        moves = [str(m) for m in moves]
        if notation != "WXF":
            return moves
        from games.xiangqi.notation import wxf_line
        try:
            return wxf_line(state, moves)
        except Exception:          # a line an engine got wrong: its own texts
            return moves

    def legend(self, state) -> list[tuple[tuple, str]]:
        return [(self.seat_colour(0), _("Red starts, at the bottom")),
                (self.seat_colour(1), _("Black plays from the top")),
                (self.theme.muted, _("Moves: from + to, e.g. H2E2"))]
