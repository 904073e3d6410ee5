"""The Hex board in pygame: a rhombus of pointy-top hexagons with the players' edges.

Cell (row, col) sits on an axial hexagon lattice: column ``q = col - 1`` runs to the
right and row ``r = row - 1`` runs down and to the right by half a cell per row, so
the six lattice neighbours are exactly those of RULES.md, (r-1, c), (r-1, c+1), (r, c-1),
(r, c+1), (r+1, c-1), (r+1, c).  Player 1 joins the left and right edges (columns 1
and N), player 2 the top and bottom edges (rows 1 and N).  ``view.flipped`` shows
the board transposed (mirrored across its long diagonal), which keeps every
neighbour a neighbour and puts player 2's edges left and right.

The geometry lives in :class:`HexLayout` and a few pure functions, so the hit test
(pixel -> cell, exact on the hexagons rather than on bounding boxes) is unit-tested
without a screen.  The board background, edges and coordinates are drawn once per
(size, rect, orientation, theme) and cached; stones are cached sprites.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from games.hex.rules import EMPTY, LETTERS, HexMove
from games.language import _
from games.render import (CONFIRM_KEYS, BoardRenderer, BoardView, GridCursor, LayerCache, Theme, contrast_text,
                          display_ready, draw_labels, font, mix)

SQRT3 = math.sqrt(3.0)
STONE_RADIUS = 0.80        # of a hexagon's circumradius (the inscribed circle is 0.866)
EDGE_DEPTH = 0.95          # how far the coloured edge bands reach past the outer cells, in cells
LABEL_DISTANCE = 1.45      # where coordinates sit outside the board, in cells
LABEL_HALF = 0.55          # room a coordinate label needs around its centre, in radii
Cell = tuple[int, int]     # (row, col), 1-based, as HexMove


# ---------------------------------------------------------------------------- geometry
def axial_round(q: float, r: float) -> tuple[int, int]:
    """The lattice hexagon containing fractional axial point (q, r) (cube rounding)."""
    x, z = q, r
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return int(rx), int(rz)


def lattice_point(q: float, r: float) -> tuple[float, float]:
    """Axial lattice coordinates to pixels for hexagons of circumradius 1 (centre of (0, 0) at 0)."""
    return SQRT3 * (q + r / 2.0), 1.5 * r


def lattice_of_point(x: float, y: float) -> tuple[float, float]:
    """Inverse of :func:`lattice_point`: fractional axial (q, r) of a pixel offset."""
    r = y / 1.5
    return x / SQRT3 - r / 2.0, r


def hexagon_corners(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hexagon, clockwise from the top."""
    return [(cx + radius * math.cos(math.radians(angle)), cy + radius * math.sin(math.radians(angle)))
            for angle in (-90, -30, 30, 90, 150, 210)]


@dataclass(frozen=True)
class HexLayout:
    """Where an N×N board's cells fall in pixels.

    ``origin`` is the pixel centre of display lattice point (0, 0); ``radius`` is a
    hexagon's circumradius.  ``transposed`` swaps rows and columns on screen.
    """

    n: int
    radius: float
    origin: tuple[float, float]
    transposed: bool = False

    def display(self, row: float, col: float) -> tuple[float, float]:
        """Game (row, col), 1-based and possibly fractional or off-board, to lattice (q, r)."""
        if self.transposed:
            row, col = col, row
        return col - 1.0, row - 1.0

    def screen_centre(self, screen_row: float, screen_col: float) -> tuple[float, float]:
        """Pixel centre of a lattice point named by its place on screen (ignores ``transposed``)."""
        x, y = lattice_point(screen_col - 1.0, screen_row - 1.0)
        return self.origin[0] + x * self.radius, self.origin[1] + y * self.radius

    def centre(self, row: float, col: float) -> tuple[float, float]:
        """Pixel centre of cell (row, col); off-board or fractional cells are fine."""
        x, y = lattice_point(*self.display(row, col))
        return self.origin[0] + x * self.radius, self.origin[1] + y * self.radius

    def corners(self, row: float, col: float, scale: float = 1.0) -> list[tuple[float, float]]:
        cx, cy = self.centre(row, col)
        return hexagon_corners(cx, cy, self.radius * scale)

    def cell_at(self, x: float, y: float) -> Cell | None:
        """The cell whose hexagon contains pixel (x, y), or None off the board."""
        q, r = lattice_of_point((x - self.origin[0]) / self.radius, (y - self.origin[1]) / self.radius)
        q, r = axial_round(q, r)
        row, col = (q + 1, r + 1) if self.transposed else (r + 1, q + 1)
        if 1 <= row <= self.n and 1 <= col <= self.n:
            return row, col
        return None

    def edge_rhombus(self, depth: float = EDGE_DEPTH) -> dict[str, tuple]:
        """Corners of the coloured rhombus behind the board, ``depth`` cells past the outer cells."""
        low, high = 1 - depth, self.n + depth
        return {"a1": self.centre(low, low), "aN": self.centre(low, high),
                "N1": self.centre(high, low), "NN": self.centre(high, high)}

    def translated(self, dx: float, dy: float) -> "HexLayout":
        return HexLayout(self.n, self.radius, (self.origin[0] + dx, self.origin[1] + dy), self.transposed)


def _label_centres(n: int, transposed: bool = False,
                   distance: float = LABEL_DISTANCE) -> list[tuple[str, float, float]]:
    """(text, screen row, screen column) of every coordinate label, in lattice cells.

    Labels for the screen's columns sit straight above and below their end cells (not
    along the column's slant); labels for its rows sit left and right.  Columns are
    named by letters and rows by numbers, so a transposed board swaps which is where.
    """
    labels = []
    for index in range(1, n + 1):
        letter, number = LETTERS[index - 1], str(index)
        across, down = (number, letter) if transposed else (letter, number)
        labels.append((across, 1 - distance, index + distance / 2))
        labels.append((across, n + distance, index - distance / 2))
        labels.append((down, index, 1 - distance))
        labels.append((down, index, n + distance))
    return labels


def layout_extent(n: int, coordinates: bool = True, transposed: bool = False) -> tuple[float, float, float, float]:
    """Bounding box (left, top, right, bottom) of everything drawn, for radius 1, origin 0."""
    unit = HexLayout(n, 1.0, (0.0, 0.0), transposed)
    points = list(unit.edge_rhombus().values())
    for row, col in ((1, 1), (1, n), (n, 1), (n, n)):
        points.extend(unit.corners(row, col))
    if coordinates:
        for _, row, col in _label_centres(n, transposed):
            x, y = unit.screen_centre(row, col)
            points.extend([(x - LABEL_HALF * 1.6, y - LABEL_HALF), (x + LABEL_HALF * 1.6, y + LABEL_HALF)])
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def fit_layout(n: int, width: int, height: int, coordinates: bool = True, transposed: bool = False,
               padding: float = 0.02) -> HexLayout:
    """The largest layout of an N×N board centred in a ``width``×``height`` box (origin at its corner)."""
    left, top, right, bottom = layout_extent(n, coordinates, transposed)
    room_w, room_h = width * (1 - 2 * padding), height * (1 - 2 * padding)
    radius = max(1e-3, min(room_w / (right - left), room_h / (bottom - top)))
    origin_x = width / 2.0 - (left + right) / 2.0 * radius
    origin_y = height / 2.0 - (top + bottom) / 2.0 * radius
    return HexLayout(n, radius, (origin_x, origin_y), transposed)


# ---------------------------------------------------------------------------- drawing helpers
def _stone_sprite(radius: int, colour: tuple, outline: tuple, alpha: int = 255) -> pygame.Surface:
    """An antialiased shaded stone (drawn 4× larger and smoothed down)."""
    scale = 4
    big_r = radius * scale
    big = pygame.Surface((2 * big_r + 2, 2 * big_r + 2), pygame.SRCALPHA)
    centre = (big_r + 1, big_r + 1)
    pygame.draw.circle(big, mix(colour, outline, 0.55), centre, big_r)
    pygame.draw.circle(big, colour, centre, int(big_r * 0.90))
    # a soft highlight towards the top left, as light from above
    steps = 16
    for step in range(steps):
        t = step / steps
        shade = mix(colour, (255, 255, 255), 0.04 + 0.26 * t)
        r = int(big_r * (0.66 - 0.56 * t))
        offset = int(big_r * 0.24 * t)
        pygame.draw.circle(big, shade, (centre[0] - offset, centre[1] - offset), r)
    small = pygame.transform.smoothscale(big, (2 * radius + 1, 2 * radius + 1))
    if alpha < 255:
        small.set_alpha(alpha)
    return small


def winning_path(n: int, neighbours, group: set[int], player: int) -> list[int]:
    """Shortest path of cell indices through ``group`` joining ``player``'s two edges (BFS).

    Player 1 joins column 1 to column N, player 2 row 1 to row N; [] if the group does not.
    """
    def on_start(index: int) -> bool:
        return (index % n == 0) if player == 1 else (index // n == 0)

    def on_goal(index: int) -> bool:
        return (index % n == n - 1) if player == 1 else (index // n == n - 1)

    came_from: dict[int, int | None] = {i: None for i in sorted(group) if on_start(i)}
    frontier = list(came_from)
    while frontier:
        following = []
        for index in frontier:
            if on_goal(index):
                path = [index]
                while came_from[path[-1]] is not None:
                    path.append(came_from[path[-1]])
                return path[::-1]
            for other in neighbours[index]:
                if other in group and other not in came_from:
                    came_from[other] = index
                    following.append(other)
        frontier = following
    return []


def connected_group(neighbours, cells: set[int], seeds: list[int]) -> set[int]:
    """Every cell of ``cells`` reachable from ``seeds`` through neighbouring cells of ``cells``."""
    group, frontier = set(seeds), list(seeds)
    while frontier:
        index = frontier.pop()
        for other in neighbours[index]:
            if other in cells and other not in group:
                group.add(other)
                frontier.append(other)
    return group


class HexRenderer(BoardRenderer):
    """Draws a :class:`games.hex.rules.HexState` and turns clicks into move text (``c3``)."""

    _LAYER_CACHE_SIZE = 8

    def __init__(self, game, options, seat_names=None, theme: Theme | None = None):
        super().__init__(game, options, seat_names, **({"theme": theme} if theme else {}))
        self._layers = LayerCache(self._LAYER_CACHE_SIZE)     # (layer, layout, used rect) per size, orientation, theme
        self._stones: dict[tuple, pygame.Surface] = {}
        self.layout: HexLayout | None = None       # the last drawn board, in surface pixels

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, rect: pygame.Rect, state, view: BoardView) -> None:
        rect = pygame.Rect(rect)
        if rect.width < 8 or rect.height < 8:
            return
        layer, local, used = self._static_layer(state.size, rect.size, view.flipped, view.show_coordinates)
        surface.blit(layer, (rect.x + used.x, rect.y + used.y), used)
        layout = local.translated(rect.x, rect.y)
        self.layout = layout
        chain, path = self._winning_cells(state)
        if chain:
            self._draw_chain_under(surface, layout, state, chain)
        self._draw_stones(surface, layout, state, view, chain)
        if path:
            self._draw_chain_path(surface, layout, state, path)
        self._draw_last_move(surface, layout, state, view.letters)
        self._draw_hover(surface, layout, state, view)

    def _static_layer(self, n: int, size: tuple[int, int], transposed: bool,
                      coordinates: bool) -> tuple[pygame.Surface, HexLayout, pygame.Rect]:
        """The board without stones, its layout, and the part of it that is not transparent."""
        return self._layers.get((n, size, transposed, coordinates, self.theme),
                                lambda: self._build_layer(n, size, transposed, coordinates))

    def _build_layer(self, n: int, size: tuple[int, int], transposed: bool,
                     coordinates: bool) -> tuple[pygame.Surface, HexLayout, pygame.Rect]:
        layout = fit_layout(n, size[0], size[1], coordinates, transposed)
        layer = pygame.Surface(size, pygame.SRCALPHA)
        self._draw_edges(layer, layout)
        self._draw_cells(layer, layout)
        if coordinates:
            self._draw_coordinates(layer, layout)
        layer = display_ready(layer)
        left, top, right, bottom = layout_extent(n, coordinates, transposed)
        ox, oy, r = layout.origin[0], layout.origin[1], layout.radius
        used = pygame.Rect(int(ox + left * r) - 2, int(oy + top * r) - 2,
                           int((right - left) * r) + 5, int((bottom - top) * r) + 5).clip(layer.get_rect())
        return layer, layout, used

    def _draw_edges(self, layer: pygame.Surface, layout: HexLayout) -> None:
        """Four triangles meeting at the board's centre; the cells cover all but the edge bands."""
        corners = layout.edge_rhombus()
        middle = layout.centre((layout.n + 1) / 2.0, (layout.n + 1) / 2.0)
        p1, p2 = self.seat_colour(0), self.seat_colour(1)
        triangles = ((p2, corners["a1"], corners["aN"]),      # row 1: player 2
                     (p2, corners["N1"], corners["NN"]),      # row N: player 2
                     (p1, corners["a1"], corners["N1"]),      # column 1: player 1
                     (p1, corners["aN"], corners["NN"]))      # column N: player 1
        for colour, a, b in triangles:
            pygame.draw.polygon(layer, colour, [middle, a, b])
        outline = list(corners[k] for k in ("a1", "aN", "NN", "N1"))
        pygame.draw.aalines(layer, mix(self.theme.line, (0, 0, 0), 0.3), True, outline)

    def _draw_cells(self, layer: pygame.Surface, layout: HexLayout) -> None:
        width = max(1, int(round(layout.radius / 12)))
        board, shade = self.theme.board, mix(self.theme.board, (255, 255, 255), 0.12)
        for row in range(1, layout.n + 1):
            for col in range(1, layout.n + 1):
                points = layout.corners(row, col)
                pygame.draw.polygon(layer, board, points)
                inner = layout.corners(row, col, 0.78)
                pygame.draw.polygon(layer, mix(board, shade, 0.6), inner)
        for row in range(1, layout.n + 1):
            for col in range(1, layout.n + 1):
                points = layout.corners(row, col)
                if width > 1:
                    pygame.draw.polygon(layer, self.theme.line, points, width)
                pygame.draw.aalines(layer, self.theme.line, True, points)

    def _draw_coordinates(self, layer: pygame.Surface, layout: HexLayout) -> None:
        labels = [(text, layout.screen_centre(row, col))
                  for text, row, col in _label_centres(layout.n, layout.transposed)]
        draw_labels(layer, labels, font(max(8, int(layout.radius * 0.75)), bold=True), self.theme.text)

    def _stone(self, colour: tuple, radius: int, alpha: int = 255) -> pygame.Surface:
        key = (colour, radius, alpha, self.theme.line)
        sprite = self._stones.get(key)
        if sprite is None:
            sprite = self._stones[key] = _stone_sprite(radius, colour, self.theme.line, alpha)
            if len(self._stones) > 64:
                self._stones.pop(next(iter(self._stones)))
        return sprite

    def _draw_stones(self, surface: pygame.Surface, layout: HexLayout, state, view: BoardView,
                     chain: set[int]) -> None:
        radius = max(2, int(layout.radius * STONE_RADIUS))
        sprites = {player: self._stone(self.seat_colour(player - 1), radius) for player in (1, 2)}
        # stones outside the winning group are shaded darker (not paler, which would melt into the board)
        dim = chain and {player: self._stone(mix(self.seat_colour(player - 1), (40, 40, 40), 0.4), radius)
                         for player in (1, 2)}
        label_font = font(max(8, int(layout.radius * 0.8)), bold=True) if view.letters else None
        n = state.size
        for index, value in enumerate(state.cells):
            if value == EMPTY:
                continue
            row, col = divmod(index, n)
            cx, cy = layout.centre(row + 1, col + 1)
            sprite = sprites[value] if not chain or index in chain else dim[value]
            surface.blit(sprite, sprite.get_rect(center=(round(cx), round(cy))))
            if label_font:
                text = label_font.render(str(value), True, contrast_text(self.seat_colour(value - 1)))
                surface.blit(text, text.get_rect(center=(round(cx), round(cy))))

    def _draw_chain_under(self, surface: pygame.Surface, layout: HexLayout, state, chain: set[int]) -> None:
        """The winning group's cells take a light accent tint under their stones."""
        n = state.size
        tint = mix(self.theme.accent, (255, 255, 255), 0.45)
        for index in chain:
            row, col = divmod(index, n)
            pygame.draw.polygon(surface, tint, layout.corners(row + 1, col + 1, 0.93))

    @staticmethod
    def _winning_cells(state) -> tuple[set[int], list[int]]:
        """The winner's connected group that joins its edges, and a shortest path through it.

        ``state.winning_chain()`` also holds stones joined only through a virtual edge
        node (any stone on the winner's edge), so the group is regrown from the path.
        """
        if state.outcome() is None:
            return set(), []
        chain = state.winning_chain()
        if not chain:
            return set(), []
        path = winning_path(state.size, state.neighbours, chain, state.cells[next(iter(chain))])
        return connected_group(state.neighbours, chain, path), path

    def _draw_chain_path(self, surface: pygame.Surface, layout: HexLayout, state, path: list[int]) -> None:
        """A line along the shortest edge-to-edge path through the winning group."""
        n = state.size
        points = [layout.centre(*(v + 1 for v in divmod(index, n))) for index in path]
        colour = contrast_text(self.seat_colour(state.cells[path[0]] - 1))
        width = max(2, int(round(layout.radius * 0.14)))
        if len(points) > 1:
            pygame.draw.lines(surface, colour, False, points, width)
        for x, y in points:
            pygame.draw.circle(surface, colour, (round(x), round(y)), max(2, int(width * 0.9)))

    def _draw_last_move(self, surface: pygame.Surface, layout: HexLayout, state, letters: bool = False) -> None:
        """A ring on the last stone; with digits on the stones, an outline round its cell instead."""
        last = state.last
        if last is None or last.is_swap or not state.on_board(last.row, last.col):
            return
        player = state.look(last.row, last.col)
        if player <= 0:
            return
        if letters:
            width = max(2, int(round(layout.radius * 0.12)))
            pygame.draw.polygon(surface, contrast_text(self.theme.board), layout.corners(last.row, last.col, 0.92),
                                width)
            return
        cx, cy = layout.centre(last.row, last.col)
        mark = contrast_text(self.seat_colour(player - 1))
        radius = max(3, int(layout.radius * 0.3))
        pygame.draw.circle(surface, mark, (round(cx), round(cy)), radius, max(1, radius // 3))

    def _draw_hover(self, surface: pygame.Surface, layout: HexLayout, state, view: BoardView) -> None:
        if view.human_seat is None or not isinstance(view.hover, tuple) or state.outcome() is not None:
            return
        row, col = view.hover
        if state.look(row, col) != EMPTY:
            return
        radius = max(2, int(layout.radius * STONE_RADIUS))
        sprite = self._stone(self.seat_colour(view.human_seat), radius, 165)
        cx, cy = layout.centre(row, col)
        surface.blit(sprite, sprite.get_rect(center=(round(cx), round(cy))))

    # ------------------------------------------------------------------ input
    def annotation_spot(self, cell: tuple[int, int]) -> tuple[float, float, float] | None:
        """Cell (row, col), both from 1, of the last drawn board: centre and half size."""
        layout = self.layout
        if layout is None or not all(1 <= v <= layout.n for v in cell):
            return None
        x, y = layout.centre(*cell)
        return x, y, layout.radius * 0.8

    def cell_at(self, pos: tuple[int, int]) -> Cell | None:
        """The cell under a pixel of the last drawn board."""
        return self.layout.cell_at(*pos) if self.layout else None

    def handle_event(self, event: pygame.event.Event, state, view: BoardView) -> str | None:
        if event.type == pygame.MOUSEMOTION:
            view.hover = self.cell_at(event.pos)
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            cell = self.cell_at(event.pos)
            view.hover = cell
            return self._choose(cell, state, view)
        if event.type == pygame.KEYDOWN:
            return self._handle_key(event.key, state, view)
        return None

    def _choose(self, cell: Cell | None, state, view: BoardView) -> str | None:
        """Move text for a person picking ``cell``; None when it is not their move to make."""
        if cell is None or view.human_seat is None or view.human_seat not in state.to_move():
            return None
        row, col = cell
        value = state.look(row, col)
        if value == EMPTY:
            return HexMove(row, col).text()
        if value != view.human_seat + 1 and HexMove.SWAP in state.legal_moves(view.human_seat):
            return HexMove.SWAP.text()        # pie rule: take the opponent's first stone
        self.refuse(view, state, view.human_seat, HexMove(row, col).text())   # occupied: say why
        return None

    def _handle_key(self, key: int, state, view: BoardView) -> str | None:
        """Arrow keys move the pointer cell (in screen directions); Enter or Space plays it."""
        hover = view.hover if isinstance(view.hover, tuple) else None
        if key in CONFIRM_KEYS:
            return self._choose(hover, state, view)
        n = state.size
        moved = GridCursor(n, n, first=1, transposed=view.flipped).move(hover, key, home=((n + 1) // 2,) * 2)
        if moved is not None:
            view.hover = moved          # the first press only shows the pointer, at the centre
        return None

    def legend(self, state) -> list[tuple[tuple, str]]:
        last = LETTERS[state.size - 1]
        return [(self.seat_colour(0), _("Player 1 joins columns a and {last}").format(last=last)),
                (self.seat_colour(1), _("Player 2 joins rows 1 and {last}").format(last=state.size))]
