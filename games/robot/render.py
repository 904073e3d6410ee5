"""Robot Đại Chiến in pygame: the painted maze, the robots and a side panel of scores.

The board is a grid of square cells, cell (X, Y) being row X from the top and column
Y from the left, as in MAP.INP.  Painted cells take their player's colour (the
theme's Okabe-Ito seat colours), optionally with the letter A-D on them; sealed
cells are darker and hatched (lower-case letters).  Each robot has its own marker
shape (circle, square, triangle, diamond) so players differ by more than colour;
several robots on one cell stand side by side.  Items are drawn icons: a lightning
bolt for speed ``G``, a burst for the explosion ``E``, a droplet for oil ``F``.

The last turn's explosions and enclosures (``state.turn_marks``) are outlined and
flash, and a still picture shows them too (the flash only changes its strength).
The ring that the coming turn will seal is outlined in the theme's warning colour.
A side panel (right of the board on a wide rect, below it on a tall one) lists each
player's score, item and timer, or why the robot is out, with a line chart of the
scores so far, in letters readable from the back of a room.

Geometry lives in :class:`games.render.GridLayout` and pure helpers (:func:`fit_grid`,
:func:`split_area`, :func:`region_outline`, :func:`shrink_warning_cells`,
:func:`key_target`, :func:`click_target`), tested without a screen.  The floor,
the map's walls and the coordinates are drawn once per (map, size, theme) and cached;
markers and item icons are cached sprites.
"""
from __future__ import annotations

import math
import re
from typing import Iterable

import pygame

from games.render import (ARROWS, CONFIRM_KEYS, BoardRenderer, BoardView, GridCursor, GridLayout, LayerCache,
                          Theme, contrast_text, display_ready, draw_labels, elide, font, grid_labels, mix, wrap)
from games.render.grid import fit_grid as fit_grid_with_margins
from games.robot.rules import COLOURS, RANDOM_PLACEMENT, RobotState, format_move_text
from runner.i18n import _, ngettext
from runner.messages import translated

Cell = tuple[int, int]                 # (X, Y): row, column, 0-based as in MAP.INP
COORD_MARGIN = 0.9                     # room for coordinates left of and above the grid, in cells
PANEL_SHARE = (0.28, 0.45)             # the panel's share of a wide rect's width (or tall rect's height)
NO_PANEL_BELOW = 240                   # no panel when the rect is smaller than this both ways
ITEM_NAMES = {"G": "speed", "E": "explosion", "F": "oil"}
SHAPES = ("circle", "square", "triangle", "diamond")
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


# ---------------------------------------------------------------------------- geometry
def fit_grid(rows: int, cols: int, width: int, height: int, coordinates: bool = True,
             padding: float = 0.03) -> GridLayout:
    """The largest layout of the grid (and its coordinates) centred in a ``width``×``height`` box."""
    margin = COORD_MARGIN if coordinates else 0.0
    return fit_grid_with_margins(rows, cols, width, height, (margin, margin, 0.0, 0.0), padding)


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


def shrink_warning_ring(state: RobotState) -> int | None:
    """The ring (0 = outermost) sealed at the end of the turn about to be played, else None."""
    if state.finished:
        return None
    shrink = state.next_shrink_turn()
    if shrink is None or shrink != state.turn or shrink == 0:
        return None
    return shrink // state.board.period - 1


def shrink_warning_cells(state: RobotState) -> list[Cell]:
    """Cells the coming turn's shrink will seal (open cells of the warned ring); [] when none."""
    ring = shrink_warning_ring(state)
    if ring is None:
        return []
    return [state.board.xy(p) for p in state.board.rings[ring] if state.is_open(*state.board.xy(p))]


def chart_history(state: RobotState) -> list[tuple[int, ...]]:
    """Scores after every turn for the chart: the state's own history when it is whole.

    A state rebuilt from one turn-log entry does not know how it got there; then the
    chart shows only the current scores rather than a made-up climb from zero.
    """
    history = state.score_history() if hasattr(state, "score_history") else []
    return history if len(history) == state.turn + 1 else [state.scores()]


def key_target(state: RobotState, seat: int, step: Cell, double: bool = False) -> Cell | None:
    """The cell an arrow key (``step`` = (dx, dy)) moves ``seat``'s robot to, or None.

    ``double`` (Shift) asks for a two-cell step; without an active speed item it is a
    single step.  A step into a forbidden cell is only possible with unused oil.
    """
    here = state.position(seat)
    if here is None or seat not in state.to_move():
        return None
    legal = set(state.legal_moves(seat))
    dx, dy = step
    if double and state.robots[seat].speed_turns > 0:
        far = (here[0] + 2 * dx, here[1] + 2 * dy)
        if far in legal:
            return far
    near = (here[0] + dx, here[1] + dy)
    return near if near in legal else None


def click_target(state: RobotState, seat: int, cell: Cell | None) -> Cell | None:
    """The move a click on ``cell`` makes for ``seat``, or None when it is not one.

    Placing: any open cell.  Later: the robot's own cell (stay), a neighbour it may
    enter, two cells away in a straight line with speed, the adjacent forbidden cell
    with unused oil.
    """
    if cell is None or seat not in state.to_move():
        return None
    if state.placing(seat):
        return cell if state.is_open(*cell) else None
    if cell == state.position(seat) and state.robots[seat].on_oil:
        return None                       # staying on an oiled wall would end the game
    return cell if cell in state.legal_moves(seat) else None


def stay_target(state: RobotState, seat: int) -> Cell | None:
    """Staying put, unless placing (nothing to stay on) or standing on an oiled wall."""
    if seat not in state.to_move() or state.placing(seat) or state.robots[seat].on_oil:
        return None
    return state.position(seat)


# ---------------------------------------------------------------------------- drawing helpers
def short_command(text: str) -> str:
    """A command with its folders dropped ("A: python3 …/greedy.py --depth 3"), so that a
    program's seat keeps the name of its file when its line must be shortened."""
    return re.sub(r"(?:[^\s/\\]*[/\\])+(?=[^\s/\\])", "…/", text)


def fitting_size(text: str, size: int, smallest: int, width: int, bold: bool = False) -> int:
    """The largest font size from ``size`` down to ``smallest`` at which ``text`` fits
    ``width`` pixels (``smallest`` when none does).  Text width grows with the size,
    so one estimate and a step or two load few fonts."""
    wide = font(size, bold=bold).size(text)[0]
    if wide <= width or width <= 0:
        return size
    size = max(smallest, min(size - 1, int(size * width / wide)))
    while size > smallest and font(size, bold=bold).size(text)[0] > width:
        size -= 1
    return size


def placed_label(events, seat: int) -> str:
    """What the move list says for ``seat``'s random placement: the cell its placement
    event names ("random 13 4"), or the words alone when the record has no such event."""
    for event in events:
        if event.kind == "placement" and seat in event.seats and event.squares:
            return _("random {cell}").format(cell=format_move_text(tuple(event.squares[0])))
    return _("random cell")


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


def _supersampled(size: int, paint) -> pygame.Surface:
    """A ``size``×``size`` sprite painted 4× larger by ``paint(surface, big_size)`` and smoothed."""
    scale = 4
    big = pygame.Surface((size * scale, size * scale), pygame.SRCALPHA)
    paint(big, size * scale)
    return pygame.transform.smoothscale(big, (size, size))


def _marker_sprite(shape: str, size: int, colour: tuple, ghost: bool = False) -> pygame.Surface:
    """A robot marker: the seat's shape in its colour inside a white and a dark rim."""
    def paint(big: pygame.Surface, n: int) -> None:
        c = n / 2
        if ghost:
            pygame.draw.polygon(big, (30, 30, 35, 150), shape_points(shape, c, c, c * 0.96))
            pygame.draw.polygon(big, (*colour[:3], 200), shape_points(shape, c, c, c * 0.96), max(2, n // 9))
            w = max(2, n // 10)
            pygame.draw.line(big, (245, 245, 245, 230), (c - c * 0.45, c - c * 0.45), (c + c * 0.45, c + c * 0.45), w)
            pygame.draw.line(big, (245, 245, 245, 230), (c - c * 0.45, c + c * 0.45), (c + c * 0.45, c - c * 0.45), w)
            return
        pygame.draw.polygon(big, (20, 20, 26), shape_points(shape, c, c, c * 0.98))
        pygame.draw.polygon(big, (250, 250, 250), shape_points(shape, c, c, c * 0.80))
        pygame.draw.polygon(big, colour, shape_points(shape, c, c, c * 0.62))
    return _supersampled(max(4, size), paint)


def _item_sprite(kind: str, size: int) -> pygame.Surface:
    """An item icon on a light disc: lightning (G), burst (E), droplet (F)."""
    def paint(big: pygame.Surface, n: int) -> None:
        c = n / 2
        pygame.draw.circle(big, (30, 30, 36), (c, c), c * 0.98)
        pygame.draw.circle(big, (252, 250, 240), (c, c), c * 0.86)

        def at(points):
            return [(n * (0.14 + 0.72 * px), n * (0.14 + 0.72 * py)) for px, py in points]
        if kind == "G":
            bolt = at([(0.62, 0.0), (0.12, 0.58), (0.45, 0.58), (0.32, 1.0), (0.88, 0.38), (0.55, 0.38), (0.72, 0.0)])
            pygame.draw.polygon(big, (255, 200, 0), bolt)
            pygame.draw.polygon(big, (40, 30, 10), bolt, max(2, n // 28))
        elif kind == "E":
            star = [(c + (c * (0.72 if i % 2 == 0 else 0.34)) * math.cos(math.pi * i / 8 - math.pi / 2),
                     c + (c * (0.72 if i % 2 == 0 else 0.34)) * math.sin(math.pi * i / 8 - math.pi / 2))
                    for i in range(16)]
            pygame.draw.polygon(big, (225, 50, 30), star)
            pygame.draw.polygon(big, (60, 10, 5), star, max(2, n // 28))
            pygame.draw.circle(big, (255, 215, 60), (c, c), c * 0.26)
        else:
            top = (c, n * 0.14)
            drop = [top] + [(c + c * 0.42 * math.cos(a), n * 0.60 + c * 0.42 * math.sin(a))
                            for a in [math.radians(d) for d in range(-30, 211, 10)]]
            pygame.draw.polygon(big, (55, 40, 95), drop)
            pygame.draw.polygon(big, (15, 10, 30), drop, max(2, n // 28))
            pygame.draw.circle(big, (200, 190, 240), (c - c * 0.16, n * 0.60), c * 0.1)
    return _supersampled(max(4, size), paint)


class RobotRenderer(BoardRenderer):
    """Draws a :class:`games.robot.rules.RobotState`; arrows, Space and clicks make moves (``X Y``)."""

    _LAYER_CACHE_SIZE = 6
    _STAY_KEYS = (pygame.K_SPACE, pygame.K_PERIOD, pygame.K_KP_PERIOD)

    def __init__(self, game, options, seat_names=None, theme: Theme | None = None):
        super().__init__(game, options, seat_names, **({"theme": theme} if theme else {}))
        self._layers = LayerCache(self._LAYER_CACHE_SIZE)       # (layer, layout) per map, size, theme
        self._sprites: dict[tuple, pygame.Surface] = {}
        self.layout: GridLayout | None = None        # the last drawn grid, in surface pixels

    # ------------------------------------------------------------------ colours
    @property
    def floor(self) -> tuple:
        return mix(self.theme.board, (255, 255, 255), 0.55)

    @property
    def wall(self) -> tuple:
        return (58, 62, 72)

    def sealed_colour(self, seat: int | None) -> tuple:
        if seat is None:
            return (34, 36, 42)
        return mix(self.seat_colour(seat), (0, 0, 0), 0.5)

    def seat_name(self, seat: int) -> str:
        if seat < len(self.seat_names) and self.seat_names[seat]:
            return self.seat_names[seat]
        return COLOURS[seat]

    def _sprite(self, key: tuple, make) -> pygame.Surface:
        sprite = self._sprites.get(key)
        if sprite is None:
            sprite = self._sprites[key] = make()
            if len(self._sprites) > 96:
                self._sprites.pop(next(iter(self._sprites)))
        return sprite

    def marker(self, seat: int, size: int, ghost: bool = False) -> pygame.Surface:
        colour = self.seat_colour(seat)
        shape = SHAPES[seat % len(SHAPES)]
        return self._sprite(("marker", shape, size, colour, ghost),
                            lambda: _marker_sprite(shape, size, colour, ghost))

    def item_icon(self, kind: str, size: int) -> pygame.Surface:
        return self._sprite(("item", kind, size), lambda: _item_sprite(kind, size))

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, rect: pygame.Rect, state: RobotState, view: BoardView) -> None:
        """The board, and the side panel unless ``view.highlights["panel"]`` is False."""
        rect = pygame.Rect(rect)
        if rect.width < 8 or rect.height < 8:
            return
        b = state.board
        if view.highlights.get("panel", True):
            board_rect, panel_rect, _ = split_area(rect, b.height, b.width, view.show_coordinates)
        else:
            board_rect, panel_rect = rect, None
        layer, local = self._static_layer(b, board_rect.size, view.show_coordinates)
        grid = local.grid_rect()
        margin = int(local.cell * COORD_MARGIN) + 3 if view.show_coordinates else 3
        used = pygame.Rect(grid.x - margin, grid.y - margin, grid.width + margin + 3,
                           grid.height + margin + 3).clip(layer.get_rect())
        surface.blit(layer, (board_rect.x + used.x, board_rect.y + used.y), used)
        layout = local.translated(*board_rect.topleft)
        self.layout = layout
        clip = surface.get_clip()
        surface.set_clip(board_rect.clip(clip) if clip else board_rect)
        try:
            self._draw_cells(surface, layout, state, view.letters)
            self._draw_shrink_warning(surface, layout, state, view.time)
            self._draw_marks(surface, layout, state, view.time)
            self._draw_targets(surface, layout, state, view)
            self._draw_items(surface, layout, state)
            self._draw_robots(surface, layout, state, view.letters)
        finally:
            surface.set_clip(clip)
        if panel_rect is not None:
            self._draw_panel(surface, panel_rect, state, view)

    def _static_layer(self, board, size: tuple[int, int], coordinates: bool) -> tuple[pygame.Surface, GridLayout]:
        """Floor, the map's own walls, grid lines and coordinates, cached per map and size."""
        return self._layers.get((board.rows, size, coordinates, self.theme),
                                lambda: self._build_layer(board, size, coordinates))

    def _build_layer(self, board, size: tuple[int, int], coordinates: bool) -> tuple[pygame.Surface, GridLayout]:
        layout = fit_grid(board.height, board.width, size[0], size[1], coordinates)
        layer = pygame.Surface(size, pygame.SRCALPHA)
        pygame.draw.rect(layer, self.theme.line, layout.grid_rect().inflate(4, 4))
        for x in range(board.height):
            for y in range(board.width):
                self._paint_cell(layer, layout.cell_rect(x, y), self.floor if board.rows[x][y] != "#" else None)
        if coordinates:
            self._draw_coordinates(layer, layout)
        return display_ready(layer), layout

    def _paint_cell(self, surface: pygame.Surface, cell: pygame.Rect, colour: tuple | None) -> None:
        """An open cell (inset by the grid line) or, with ``colour`` None, a bevelled wall block."""
        gap = 1 if cell.width >= 6 else 0
        inner = cell.inflate(-gap, -gap)
        inner.topleft = (cell.x + gap, cell.y + gap) if gap else cell.topleft
        if colour is not None:
            surface.fill(colour, inner)
            return
        surface.fill(self.wall, inner)
        bevel = max(1, cell.width // 9)
        surface.fill(mix(self.wall, (255, 255, 255), 0.18), (inner.x, inner.y, inner.width, bevel))
        surface.fill(mix(self.wall, (0, 0, 0), 0.35), (inner.x, inner.bottom - bevel, inner.width, bevel))

    def _draw_coordinates(self, layer: pygame.Surface, layout: GridLayout) -> None:
        """Row numbers left of the grid, column numbers above it (every other one when crowded)."""
        size = max(7, int(layout.cell * 0.42))
        step = 1 if layout.cell >= size * 1.3 else 2
        names = [str(i) for i in range(max(layout.rows, layout.cols))]
        labels = grid_labels(layout, names[:layout.rows], names[:layout.cols], COORD_MARGIN / 2, "lt", step=step)
        draw_labels(layer, labels, font(size), self.theme.muted)

    def _draw_cells(self, surface: pygame.Surface, layout: GridLayout, state: RobotState, letters: bool) -> None:
        """Painted and sealed cells (the floor and the map's walls are in the static layer)."""
        rows = state.map_rows(raw=True)
        original = state.board.rows
        letter_font = font(max(7, int(layout.cell * 0.5)), bold=True) if letters and layout.cell >= 10 else None
        hatch_w = max(1, int(layout.cell / 14))
        rects = self._cell_rects(layout)
        for x, row in enumerate(rows):
            for y, ch in enumerate(row):
                if ch == "." or (ch == "#" and original[x][y] == "#"):
                    continue
                cell = rects[x][y]
                if ch in COLOURS:
                    self._paint_cell(surface, cell, self.seat_colour(COLOURS.index(ch)))
                else:                                      # sealed: '*' empty, 'a'-'d' painted
                    seat = COLOURS.index(ch.upper()) if ch != "*" and ch != "#" else None
                    self._paint_sealed(surface, cell, seat, hatch_w)
                if letter_font and ch.upper() in COLOURS:
                    colour = self.seat_colour(COLOURS.index(ch.upper()))
                    ink = contrast_text(colour if ch.isupper() else self.sealed_colour(COLOURS.index(ch.upper())))
                    image = self._sprite(("letter", ch, letter_font.get_height(), ink),
                                         lambda: letter_font.render(ch, True, ink))
                    surface.blit(image, image.get_rect(center=cell.center))

    def _cell_rects(self, layout: GridLayout) -> list[list[pygame.Rect]]:
        """Every cell's rect of ``layout`` (cached: the board is drawn many times at one place)."""
        if getattr(self, "_rects_for", None) != layout:
            self._rects_for = layout
            self._rects = [[layout.cell_rect(x, y) for y in range(layout.cols)] for x in range(layout.rows)]
        return self._rects

    def _paint_sealed(self, surface: pygame.Surface, cell: pygame.Rect, seat: int | None, hatch_w: int) -> None:
        """A sealed cell: darker than its colour, with diagonal hatching (a cached tile)."""
        def make() -> pygame.Surface:
            tile = pygame.Surface(cell.size)
            tile.fill(self.theme.line)              # the grid line, as in the static layer
            local = tile.get_rect()
            base = self.sealed_colour(seat)
            self._paint_cell(tile, local, base)
            ink = mix(base, (255, 255, 255), 0.22 if seat is None else 0.3)
            spacing = max(4, local.width // 3)
            if local.width >= 6:
                tile.set_clip(local.inflate(-1, -1).move(1, 1).clip(local))
            for offset in range(-local.height, local.width, spacing):
                pygame.draw.line(tile, ink, (offset, local.bottom), (offset + local.height, 0), hatch_w)
            tile.set_clip(None)
            return tile.convert() if pygame.display.get_surface() is not None else tile
        surface.blit(self._sprite(("sealed", seat, cell.size, hatch_w, self.theme), make), cell.topleft)

    def _outline(self, surface: pygame.Surface, layout: GridLayout, cells: Iterable[Cell], colour: tuple,
                 width: int) -> None:
        segments = region_outline(cells)
        corners = {}
        for a, b in segments:
            for end in (a, b):
                if end not in corners:
                    corners[end] = layout.corner(*end)
            pygame.draw.line(surface, colour, corners[a], corners[b], width)
        if width >= 4:                              # round the joints of thick lines
            for point in corners.values():
                pygame.draw.circle(surface, colour, point, width // 2)

    def _overlay(self, surface: pygame.Surface, layout: GridLayout, cells: Iterable[Cell], colour: tuple,
                 alpha: int) -> None:
        tint = pygame.Surface((max(1, int(layout.cell) + 2),) * 2, pygame.SRCALPHA)
        for x, y in cells:
            cell = layout.cell_rect(x, y)
            tint = tint if tint.get_size() == cell.size else pygame.Surface(cell.size, pygame.SRCALPHA)
            tint.fill((*colour[:3], alpha))
            surface.blit(tint, cell.topleft)

    def _draw_shrink_warning(self, surface: pygame.Surface, layout: GridLayout, state: RobotState,
                             time: float) -> None:
        """The ring the coming turn seals: hatched warning tint and a thick outline."""
        cells = shrink_warning_cells(state)
        if not cells:
            return
        ring = [state.board.xy(p) for p in state.board.rings[shrink_warning_ring(state)]]
        pulse = 0.5 + 0.5 * math.sin(time * 4.0)
        frame = max(1, int(layout.cell / 24 * (1 + pulse)))
        inset = max(2, int(layout.cell / 5))
        for cell in cells:                 # a frame, not a tint: the cells keep their colours
            inner = layout.cell_rect(*cell).inflate(-inset, -inset)
            pygame.draw.rect(surface, self.theme.bad, inner, frame)
        self._outline(surface, layout, ring, self.theme.bad, max(2, int(layout.cell / 7)))

    def _draw_marks(self, surface: pygame.Surface, layout: GridLayout, state: RobotState, time: float) -> None:
        """Last turn's explosions (white flash, burst outline) and enclosures (seat-coloured outline)."""
        marks = getattr(state, "turn_marks", ())
        if not marks:
            return
        pulse = 0.5 + 0.5 * math.cos(time * 5.0)
        width = max(2, int(layout.cell / 8))
        for kind, seat, cells in marks:
            if kind == "explosion":
                self._overlay(surface, layout, cells, (255, 240, 200), int(25 + 45 * pulse))
                self._outline(surface, layout, cells, (255, 210, 40), width + 1)
                self._outline(surface, layout, cells, (120, 20, 10), max(1, width // 2))
            else:
                self._overlay(surface, layout, cells, (255, 255, 255), int(25 + 50 * pulse))
                self._outline(surface, layout, cells, (20, 20, 26), width + 2)
                self._outline(surface, layout, cells, mix(self.seat_colour(seat), (255, 255, 255), 0.55), width)

    def _draw_targets(self, surface: pygame.Surface, layout: GridLayout, state: RobotState,
                      view: BoardView) -> None:
        """For the person to move: dots on the cells they may go to, a frame on the hovered one."""
        seat = view.human_seat
        if seat is None or seat not in state.to_move():
            return
        ink = contrast_text(self.floor)
        if not state.placing(seat):
            radius = max(2, int(layout.cell * 0.12))
            for cell in state.legal_moves(seat):
                if click_target(state, seat, cell) is not None and cell != state.position(seat):
                    cx, cy = layout.centre(*cell)
                    pygame.draw.circle(surface, (250, 250, 250), (round(cx), round(cy)), radius + 2)
                    pygame.draw.circle(surface, (25, 25, 30), (round(cx), round(cy)), radius)
        hover = view.hover if isinstance(view.hover, tuple) else None
        if hover is not None and state.placing(seat) and click_target(state, seat, hover) is not None:
            sprite = self.marker(seat, max(4, int(layout.cell * 0.8))).copy()
            sprite.set_alpha(170)
            surface.blit(sprite, sprite.get_rect(center=layout.cell_rect(*hover).center))
        if hover is not None and click_target(state, seat, hover) is not None:
            width = max(2, int(layout.cell / 9))
            pygame.draw.rect(surface, ink, layout.cell_rect(*hover), width)
            pygame.draw.rect(surface, self.seat_colour(seat), layout.cell_rect(*hover).inflate(-2 * width, -2 * width),
                             max(1, width // 2))

    def _draw_items(self, surface: pygame.Surface, layout: GridLayout, state: RobotState) -> None:
        size = max(6, int(layout.cell * 0.78))
        for item in state.item_list():
            icon = self.item_icon(item.kind, size)
            cx, cy = layout.centre(item.x, item.y)
            surface.blit(icon, icon.get_rect(center=(round(cx), round(cy))))

    def _draw_robots(self, surface: pygame.Surface, layout: GridLayout, state: RobotState, letters: bool) -> None:
        """Robots in play side by side on their cells; robots out as a crossed ghost where they left."""
        standing: dict[Cell, list[int]] = {}
        ghosts: dict[Cell, list[int]] = {}
        for robot in state.robots:
            if robot.pos is not None:
                standing.setdefault(state.board.xy(robot.pos), []).append(robot.seat)
            elif robot.last_pos is not None and not robot.in_game and not state.finished:
                ghosts.setdefault(state.board.xy(robot.last_pos), []).append(robot.seat)
        for cells, ghost in ((ghosts, True), (standing, False)):
            for (x, y), seats in cells.items():
                self._draw_group(surface, layout, x, y, seats, ghost, letters)

    def _draw_group(self, surface, layout: GridLayout, x: int, y: int, seats: list[int], ghost: bool,
                    letters: bool) -> None:
        count = len(seats)
        cols = 1 if count == 1 else 2
        rows = (count + cols - 1) // cols
        share = layout.cell / max(cols, rows)
        size = max(4, int(share * (0.92 if count == 1 else 0.98)))
        cell = layout.cell_rect(x, y)
        label = font(max(7, int(size * 0.42)), bold=True) if letters and size >= 14 else None
        for index, seat in enumerate(seats):
            r, c = divmod(index, cols)
            cx = cell.x + (c + 0.5) * cell.width / cols
            cy = cell.y + (r + 0.5) * cell.height / rows if rows > 1 else cell.centery
            sprite = self.marker(seat, size, ghost)
            surface.blit(sprite, sprite.get_rect(center=(round(cx), round(cy))))
            if label and not ghost:
                ink = contrast_text(self.seat_colour(seat))
                image = label.render(COLOURS[seat], True, ink)
                dy = size * 0.08 if SHAPES[seat % 4] == "triangle" else 0
                surface.blit(image, image.get_rect(center=(round(cx), round(cy + dy))))

    # ------------------------------------------------------------------ side panel
    def _draw_panel(self, surface: pygame.Surface, rect: pygame.Rect, state: RobotState, view: BoardView) -> None:
        """Turn and shrink line, one block per player, and the score chart."""
        # a short panel (debug log open) still has room for every player's block
        unit = max(11, min(rect.width // 13, surface.get_height() // 30, rect.height // 9,
                           int(rect.height / (5 + 3.5 * state.players))))
        if rect.height < rect.width * 0.6:             # a strip below the board: players | chart
            unit = max(11, min(rect.height // 13, rect.width // 32))
        pad = max(4, unit // 2)
        box = rect.inflate(-pad, -pad)
        pygame.draw.rect(surface, self.theme.panel, box, border_radius=max(2, unit // 3))
        inner = box.inflate(-pad, -pad)
        clip = surface.get_clip()
        surface.set_clip(box.clip(clip) if clip else box)
        try:
            if rect.height < rect.width * 0.6:
                left = pygame.Rect(inner.x, inner.y, int(inner.width * 0.55), inner.height)
                chart = pygame.Rect(left.right + pad, inner.y, inner.right - left.right - pad, inner.height)
                # a strip has room for every player's name and score, not for their "in play" lines
                self._panel_text(surface, left, state, unit, compact=state.players > 2)
                self._draw_chart(surface, chart, state, unit)
            else:
                bottom = self._panel_text(surface, inner, state, unit)
                chart = pygame.Rect(inner.x, bottom + unit // 2, inner.width, inner.bottom - bottom - unit // 2)
                if chart.height >= unit * 3:
                    self._draw_chart(surface, chart, state, unit)
        finally:
            surface.set_clip(clip)

    def _text(self, surface, text: str, size: int, colour: tuple, x: int, y: int, bold: bool = False,
              right: int | None = None) -> pygame.Rect:
        image = font(size, bold=bold).render(text, True, colour)
        place = image.get_rect(topleft=(x, y)) if right is None else image.get_rect(topright=(right, y))
        surface.blit(image, place)
        return place

    def move_labels(self, state, turns, notation: str | None) -> list[dict[int, str]]:
        """The record's move texts, but a random placement's "-1 -1" (a person's or a
        program's time-out on turn 1, or a bad cell) reads as the cell it drew: "random 13 4"."""
        labels = super().move_labels(state, turns, notation)
        random_text = format_move_text(RANDOM_PLACEMENT)
        for turn, texts in zip(turns, labels):
            for seat, text in texts.items():
                if text.strip() == random_text:
                    texts[seat] = placed_label(turn.events, seat)
        return labels

    def headline(self, state: RobotState) -> tuple[str, str, bool]:
        """(turn line, shrink line, whether the shrink line is a warning) for the panel."""
        if state.finished:
            outcome = state.outcome()
            if outcome and outcome.winners:
                names = ", ".join(self.seat_name(s) for s in outcome.winners)
                return (_("Game over after {turns} turns").format(turns=state.turn),
                        _("Winner: {names}").format(names=names), False)
            return _("Game over after {turns} turns").format(turns=state.turn), _("Draw"), False
        turn = _("Turn 0: placement") if state.turn == 0 else _("Turn {n}").format(n=state.turn)
        shrink = state.next_shrink_turn()
        if shrink is None:
            return turn, _("No more shrinks"), False
        if shrink_warning_ring(state) is not None:
            return turn, _("Outlined ring is sealed after this turn!"), True
        left = shrink - state.turn
        return turn, _("Shrink after turn {turn} (in {count} turns)").format(turn=shrink, count=left + 1), False

    def status(self, state: RobotState, seat: int) -> tuple[str, str | None, bool]:
        """(text, item icon kind or None, whether it is bad news) for one player's status line."""
        robot = state.robots[seat]
        if not robot.in_game and not state.finished:
            when = _(" (turn {n})").format(n=robot.left_turn) if robot.left_turn is not None else ""
            return _("Out{when}: {why}").format(when=when, why=translated(robot.why) or _("left the game")), None, True
        if state.finished:
            return "", None, False
        if robot.on_oil:
            return _("On oil: must step off now"), "F", True
        if robot.speed_turns > 0:
            return ngettext("Speed: {n} turn left", "Speed: {n} turns left",
                            robot.speed_turns).format(n=robot.speed_turns), "G", False
        if robot.oil_turns > 0:
            return ngettext("Oil: {n} turn to use", "Oil: {n} turns to use",
                            robot.oil_turns).format(n=robot.oil_turns), "F", False
        if robot.pos is None:
            return _("Choosing a start cell"), None, False
        x, y = state.board.xy(robot.pos)
        return _("In play at {x} {y}").format(x=x, y=y), None, False

    def _panel_text(self, surface, rect: pygame.Rect, state: RobotState, unit: int, compact: bool = False) -> int:
        """Headline and player blocks from the top of ``rect``; returns the y below them.
        ``compact`` keeps one shrink line and, per player, only a robot-out line."""
        theme = self.theme
        y = rect.y
        turn, shrink, warning = self.headline(state)
        head_size = int(unit * 1.25)
        wide = font(head_size, bold=True).size(turn)[0]
        if wide > rect.width:               # a smaller headline before an ellipsis: text width
            head_size = max(unit, int(head_size * rect.width / wide))      # scales with the size,
            while head_size > unit and font(head_size, bold=True).size(turn)[0] > rect.width:
                head_size -= 1              # so this rarely loads a second size
        for line in wrap(font(head_size, bold=True), turn, rect.width)[:2]:    # then two lines
            line = self._fit(line, head_size, rect.width, bold=True)
            y = self._text(surface, line, head_size, theme.text, rect.x, y, bold=True).bottom
        for line in wrap(font(int(unit * 0.85), bold=warning), shrink, rect.width)[:1 if compact else 2]:
            line = self._fit(line, int(unit * 0.85), rect.width, bold=warning)   # a word wider than the panel
            y = self._text(surface, line, int(unit * 0.85), theme.bad if warning else theme.muted, rect.x, y,
                           bold=warning).bottom
        y += unit // 3
        scores = state.scores()
        best = max(scores) if scores else 0
        line_size = int(unit * 0.8)
        # compact: tighter rows, so four players fit the strip of a small picture
        score_size, row_step = (int(unit * 1.05), int(unit * 1.3)) if compact else (int(unit * 1.3), int(unit * 1.5))
        gap = unit // 8 if compact else unit // 3
        rows = max(1, (rect.bottom - y) // (row_step + gap))
        if compact and state.players > rows:       # two columns of names and scores, no status lines
            half = rect.width // 2
            per_column = -(-state.players // 2)
            for seat in range(state.players):
                column, row = divmod(seat, per_column)
                cell = pygame.Rect(rect.x + column * half, y + row * (row_step + gap), half - unit, row_step)
                if cell.bottom <= rect.bottom + gap:
                    self._seat_line(surface, cell, state, seat, unit, score_size,
                                    state.finished and scores[seat] == best > 0)
            return y + per_column * (row_step + gap)
        for seat in range(state.players):
            if y + unit * 1.4 > rect.bottom:
                break
            cell = pygame.Rect(rect.x, y, rect.width, row_step)
            score_bottom = self._seat_line(surface, cell, state, seat, unit, score_size,
                                           state.finished and scores[seat] == best > 0)
            y = max(score_bottom, y + row_step)
            text, icon, bad = self.status(state, seat)
            if text and (bad or not compact):
                x = rect.x + int(unit * 1.5)
                if icon:
                    sprite = self.item_icon(icon, int(line_size * 1.2))
                    surface.blit(sprite, sprite.get_rect(midleft=(x, y + line_size * 0.7)))
                    x += int(line_size * 1.4)
                for line in wrap(font(line_size), text, rect.right - x)[:1 if compact else 2]:
                    line = self._fit(line, line_size, rect.right - x)
                    y = self._text(surface, line, line_size, theme.bad if bad else theme.muted, x, y).bottom
            y += gap
        return y

    def _seat_line(self, surface, cell: pygame.Rect, state: RobotState, seat: int, unit: int,
                   score_size: int, starred: bool) -> int:
        """One player's marker, name and score across ``cell`` (a star before a winner's
        score); returns the score's bottom."""
        theme = self.theme
        marker = self.marker(seat, int(unit * 1.2), ghost=not state.robots[seat].in_game and not state.finished)
        surface.blit(marker, marker.get_rect(midleft=(cell.x, cell.y + int(unit * 0.75))))
        score_rect = self._text(surface, str(state.scores()[seat]), score_size, theme.text, 0, cell.y, bold=True,
                                right=cell.right)
        name_x = cell.x + int(unit * 1.5)
        name = self.seat_name(seat)
        if name != COLOURS[seat] and not name.startswith(f"{COLOURS[seat]}:"):
            name = f"{COLOURS[seat]}: {name}"      # "B: Bot (level 1)", not "Bot (level 1)"
        name_right = score_rect.x - (int(unit * 1.2) if starred else unit // 3)   # clear of the star
        size = fitting_size(name, unit, max(8, int(unit * 0.72)), name_right - name_x, bold=True)
        if font(size, bold=True).size(name)[0] > name_right - name_x:
            name = short_command(name)           # a program's command: its file's name, not its folders
        name = self._fit(name, size, name_right - name_x, bold=True)          # smaller, then cut
        self._text(surface, name, size, theme.text, name_x, cell.y + int(unit * 0.12) + (unit - size) // 2,
                   bold=True)
        if starred:                                                   # drawn: the font has no ★
            pygame.draw.polygon(surface, theme.accent, star_points(score_rect.x - unit * 0.6,
                                                                   score_rect.centery, unit * 0.45))
        return score_rect.bottom

    def _fit(self, text: str, size: int, width: int, bold: bool = False) -> str:
        """``text`` cut with an ellipsis to fit ``width`` pixels."""
        if width <= 0:
            return text
        return elide(font(size, bold=bold), text, width)       # a binary search, not a letter at a time


    def _draw_chart(self, surface, rect: pygame.Rect, state: RobotState, unit: int) -> None:
        """Each player's score after every turn, as lines ending in the player's marker."""
        history = chart_history(state)
        theme = self.theme
        small = max(9, int(unit * 0.7))
        heading = (_("Cells painted") if len(history) == state.turn + 1
                   else _("Cells painted (no history in this record)"))
        title = self._text(surface, self._fit(heading, small, rect.width), small, theme.muted, rect.x, rect.y)
        top_value = max(1, max(max(s) for s in history))
        label_w = font(small).size(str(top_value))[0] + unit // 3
        area = pygame.Rect(rect.x + label_w, title.bottom + unit // 3, rect.width - label_w - unit // 2,
                           rect.bottom - title.bottom - unit // 3 - font(small).get_linesize())
        if area.width < 10 or area.height < 10:
            return
        axis_w = max(1, unit // 14)
        pygame.draw.line(surface, theme.muted, area.bottomleft, area.bottomright, axis_w)
        pygame.draw.line(surface, theme.muted, area.topleft, area.bottomleft, axis_w)
        self._text(surface, str(top_value), small, theme.muted, 0, area.y - small // 2, right=area.x - unit // 6)
        self._text(surface, "0", small, theme.muted, 0, area.bottom - small // 2 - 2, right=area.x - unit // 6)
        self._text(surface, _("turn {n}").format(n=state.turn), small, theme.muted, 0, area.bottom + 2, right=area.right)
        if state.turn == 0:
            return
        turns = max(1, len(history) - 1)
        first = 0 if len(history) > 1 else 1          # a lone point (no history) sits at the right

        def point(i: int, value: int) -> tuple[int, int]:
            return (round(area.x + area.width * (i + first) / turns),
                    round(area.bottom - area.height * value / top_value))
        width = max(2, unit // 7)
        for seat in range(state.players):
            shift = round((seat - (state.players - 1) / 2) * width)      # equal scores: parallel lines
            points = [(px, py + shift) for px, py in (point(i, scores[seat]) for i, scores in enumerate(history))]
            if len(points) > 1:
                pygame.draw.lines(surface, self.seat_colour(seat), False, points, width)
            sprite = self.marker(seat, max(8, int(unit * 0.8)))
            surface.blit(sprite, sprite.get_rect(center=points[-1]))

    # ------------------------------------------------------------------ input
    def cell_at(self, pos: tuple[int, int]) -> Cell | None:
        """The cell under a pixel of the last drawn board."""
        return self.layout.cell_at(*pos) if self.layout else None

    def animates(self, state: RobotState) -> bool:
        """Last turn's explosion and enclosure marks and the shrink warning pulse."""
        return bool(getattr(state, "turn_marks", ())) or bool(shrink_warning_cells(state))

    def handle_event(self, event: pygame.event.Event, state: RobotState, view: BoardView) -> str | None:
        if event.type == pygame.MOUSEMOTION:
            view.hover = self.cell_at(event.pos)
            return None
        seat = view.human_seat
        if seat is None or seat not in state.to_move():
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            cell = self.cell_at(event.pos)
            view.hover = cell
            return self._text_of(click_target(state, seat, cell))
        if event.type == pygame.KEYDOWN:
            return self._handle_key(event, state, seat, view)
        return None

    def _handle_key(self, event, state: RobotState, seat: int, view: BoardView) -> str | None:
        """Arrows step (Shift: double step with speed), Space/``.`` stays; placing, arrows move a pointer."""
        if state.placing(seat):
            if event.key in CONFIRM_KEYS:
                hover = view.hover if isinstance(view.hover, tuple) else None
                return self._text_of(click_target(state, seat, hover))
            b = state.board
            hover = view.hover if isinstance(view.hover, tuple) else None
            moved = GridCursor(b.height, b.width).move(hover, event.key, home=(b.height // 2, b.width // 2))
            if moved is not None:
                view.hover = moved
            return None
        if event.key in self._STAY_KEYS:
            return self._text_of(stay_target(state, seat))
        step = ARROWS.get(event.key)
        if step is not None:
            double = bool(getattr(event, "mod", 0) & pygame.KMOD_SHIFT)
            return self._text_of(key_target(state, seat, step, double))
        return None

    def key_help(self, state: RobotState, seat: int) -> str:
        if seat in state.to_move() and state.placing(seat):
            return _("Click an open cell to start there · or arrow keys move the pointer,"
                     " Enter or Space places the robot")
        return _("Arrow keys: one step · Shift+arrow: two steps while the speed item (G) lasts,"
                 " else one · Space: stay · or click the cell to go to")

    @staticmethod
    def _text_of(cell: Cell | None) -> str | None:
        return None if cell is None else format_move_text(cell)

    def legend(self, state) -> list[tuple[tuple, str]]:
        return [((255, 200, 0), _("G speed: 1 or 2 cells a turn for 5 turns")),
                ((225, 50, 30), _("E explosion: paints the 3×3 square around it")),
                ((55, 40, 95), _("F oil: once, step onto a forbidden cell")),
                (self.theme.bad, _("Outlined ring: sealed at the end of this turn"))]
