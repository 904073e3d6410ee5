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
scores so far, in letters readable from the back of a room
(:mod:`games.robot.render_panel`).

Geometry lives in :class:`games.render.GridLayout` and pure helpers (the kit's
:func:`~games.render.grid.split_area` and :func:`~games.render.shapes.region_outline`;
:mod:`games.robot.render_geometry`: :func:`fit_grid`, :func:`shrink_warning_cells`,
:func:`key_target`, :func:`click_target`), tested without a screen.  The floor, the map's walls and the
coordinates are drawn once per (map, size, theme) and cached; markers and item icons are
cached sprites (:mod:`games.robot.render_sprites`).
"""
from __future__ import annotations

import math
from typing import Iterable

import pygame

from games.render import (ARROWS, CONFIRM_KEYS, BoardRenderer, BoardView, GridCursor, GridLayout, LayerCache,
                          Theme, contrast_text, display_ready, draw_labels, font, grid_labels, mix)
from games.render.grid import split_area
from games.render.shapes import region_outline
# chart_history, short_command, split_area, region_outline and the targets are also
# imported from here by the tests
from games.robot.render_geometry import (COORD_MARGIN, Cell, chart_history, click_target, fit_grid,  # noqa: F401
                                         key_target, shrink_warning_cells, shrink_warning_ring, stay_target)
from games.robot.render_panel import RobotPanel, short_command  # noqa: F401
from games.robot.render_sprites import SHAPES, _item_sprite, _marker_sprite
from games.robot.rules import COLOURS, RANDOM_PLACEMENT, RobotState, format_move_text
from games.language import _


# ---------------------------------------------------------------------------- move list
def placed_label(events, seat: int) -> str:
    """What the move list says for ``seat``'s random placement: the cell its placement
    event names ("random 13 4"), or the words alone when the record has no such event."""
    for event in events:
        if event.kind == "placement" and seat in event.seats and event.squares:
            return _("random {cell}").format(cell=format_move_text(tuple(event.squares[0])))
    return _("random cell")




class RobotRenderer(RobotPanel, BoardRenderer):
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

    # ------------------------------------------------------------------ move list
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
