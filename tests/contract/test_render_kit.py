"""The renderers' shared kit (games.render): grid layout, cursor, coordinate labels, layer cache."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from games.render import (ARROWS, CONFIRM_KEYS, DARK, LIGHT, BoardView, GridCursor, GridLayout, LayerCache,
                          draw_labels, fit_grid, font, grid_labels)
from games.render.coords import letters, numbers
from games.render.grid import margins_of

RECTS = [(1280, 720), (720, 1280), (1920, 1080), (333, 517), (500, 500), (97, 61), (40, 40)]
BOARDS = [(17, 17), (5, 5), (21, 15), (15, 21), (1, 1)]
MARGINS = [0.0, 1.0, (0.9, 0.9, 0.0, 0.0), (1.42, 0.5, 0.3, 2.0)]


pytestmark = pytest.mark.usefixtures("pygame_ready")


# ---------------------------------------------------------------------------- GridLayout
@pytest.mark.parametrize("width,height", RECTS)
@pytest.mark.parametrize("margins", MARGINS, ids=["none", "one", "left-top", "uneven"])
def test_fit_grid_is_the_largest_grid_that_fits_with_its_margins(width, height, margins):
    left, top, right, bottom = margins_of(margins)
    for rows, cols in BOARDS:
        layout = fit_grid(rows, cols, width, height, margins, padding=0.02)
        assert (layout.rows, layout.cols) == (rows, cols)
        span_w, span_h = (cols + left + right) * layout.cell, (rows + top + bottom) * layout.cell
        # the grid and its margins fit inside the padded box ...
        assert span_w <= width * 0.96 + 1e-6 and span_h <= height * 0.96 + 1e-6
        # ... and touch it on one side: no bigger cell would fit
        assert max(span_w / (width * 0.96), span_h / (height * 0.96)) == pytest.approx(1.0)
        # the margins are there, and the whole is centred
        x0, y0 = layout.origin
        assert x0 - left * layout.cell == pytest.approx(width - (x0 + (cols + right) * layout.cell))
        assert y0 - top * layout.cell == pytest.approx(height - (y0 + (rows + bottom) * layout.cell))
        grid = layout.grid_rect()
        assert grid.left >= 0 and grid.top >= 0 and grid.right <= width and grid.bottom <= height


def test_fit_grid_with_even_margins_puts_the_grid_centre_on_the_box_centre():
    for rows, cols in BOARDS:
        layout = fit_grid(rows, cols, 1000, 700, 1.42)
        assert layout.origin[0] + cols * layout.cell / 2 == pytest.approx(500)
        assert layout.origin[1] + rows * layout.cell / 2 == pytest.approx(350)


def test_margins_of_one_number_or_four():
    assert margins_of(0.5) == (0.5, 0.5, 0.5, 0.5)
    assert margins_of((1, 2, 3, 4)) == (1.0, 2.0, 3.0, 4.0)


@pytest.mark.parametrize("width,height", RECTS)
def test_hit_test_round_trips_cell_centre_cell(width, height):
    for rows, cols in BOARDS:
        layout = fit_grid(rows, cols, width, height, 0.9).translated(11, 5)
        for row, col in layout.cells():
            assert layout.cell_at(*layout.centre(row, col)) == (row, col)
            rect = layout.cell_rect(row, col)
            assert layout.cell_at(*rect.center) == (row, col)
            if rect.width and rect.height:
                assert layout.cell_at(rect.left, rect.top) == (row, col)
                assert layout.cell_at(rect.right - 1, rect.bottom - 1) == (row, col)


@pytest.mark.parametrize("rows,cols", BOARDS)
def test_points_outside_the_grid_are_none(rows, cols):
    layout = fit_grid(rows, cols, 800, 600, 1.0).translated(30, 20)
    grid = layout.grid_rect()
    outside = [(grid.left - 1, grid.centery), (grid.right, grid.centery), (grid.centerx, grid.top - 1),
               (grid.centerx, grid.bottom), (grid.left - 1, grid.top - 1), (grid.right, grid.bottom),
               (-5, -5), (0, 0), (10 ** 5, grid.centery), (grid.centerx, -10 ** 5)]
    for point in outside:
        assert layout.cell_at(*point) is None, point
    assert layout.cell_at(grid.left, grid.top) == (0, 0)
    assert layout.cell_at(grid.right - 1, grid.bottom - 1) == (rows - 1, cols - 1)


def test_cells_tile_the_grid_exactly():
    layout = GridLayout(17, 17, 23.71, (12.3, 40.6))
    grid = layout.grid_rect()
    area = sum(layout.cell_rect(row, col).width * layout.cell_rect(row, col).height for row, col in layout.cells())
    assert area == grid.width * grid.height
    for row in range(17):
        assert layout.cell_rect(row, 0).left == grid.left and layout.cell_rect(row, 16).right == grid.right
        if row:
            assert layout.cell_rect(row, 3).top == layout.cell_rect(row - 1, 3).bottom


def test_intersections_round_trip_and_half_a_cell_outside_is_none():
    layout = fit_grid(9, 8, 900, 1000, 1.42)        # a Xiangqi board: 9×10 points
    for row in range(10):
        for col in range(9):
            x, y = layout.point(row, col)
            assert layout.point_at(x, y) == (row, col)
            assert layout.point_at(x + 0.45 * layout.cell, y - 0.45 * layout.cell) == (row, col)
    x0, y0 = layout.point(0, 0)
    assert layout.point_at(x0 - 0.6 * layout.cell, y0) is None
    x1, y1 = layout.point(9, 8)
    assert layout.point_at(x1, y1 + 0.6 * layout.cell) is None
    assert layout.point(0, 0) == layout.origin and layout.corner(9, 8) == (round(x1), round(y1))
    assert layout.point(0.5, 0.5) == layout.centre(0, 0)


# ---------------------------------------------------------------------------- cursor
def test_arrows_and_confirm_keys():
    assert ARROWS[pygame.K_UP] == (-1, 0) and ARROWS[pygame.K_RIGHT] == (0, 1)
    assert pygame.K_RETURN in CONFIRM_KEYS and pygame.K_SPACE in CONFIRM_KEYS


@pytest.mark.parametrize("orientation,up,right", [
    ({}, (-1, 0), (0, 1)),
    ({"transposed": True}, (0, -1), (1, 0)),
    ({"rows_up": True}, (1, 0), (0, 1)),
    ({"cols_left": True}, (-1, 0), (0, -1)),
    ({"rows_up": True, "cols_left": True}, (1, 0), (0, -1)),
])
def test_cursor_steps_go_the_way_the_arrow_points_on_screen(orientation, up, right):
    cursor = GridCursor(9, 9, **orientation)
    assert cursor.step(pygame.K_UP) == up and cursor.step(pygame.K_RIGHT) == right
    assert cursor.step(pygame.K_DOWN) == (-up[0], -up[1]) and cursor.step(pygame.K_LEFT) == (-right[0], -right[1])
    assert cursor.step(pygame.K_a) is None and cursor.step(pygame.K_RETURN) is None


def test_cursor_is_clamped_to_the_board():
    cursor = GridCursor(17, 15)
    assert cursor.move((0, 0), pygame.K_UP, home=(8, 7)) == (0, 0)
    assert cursor.move((0, 0), pygame.K_LEFT, home=(8, 7)) == (0, 0)
    assert cursor.move((16, 14), pygame.K_DOWN, home=(8, 7)) == (16, 14)
    assert cursor.move((16, 14), pygame.K_RIGHT, home=(8, 7)) == (16, 14)
    assert cursor.move((16, 13), pygame.K_RIGHT, home=(8, 7)) == (16, 14)
    one_based = GridCursor(5, 5, first=1)
    assert one_based.clamp((0, 9)) == (1, 5) and one_based.clamp((3, 3)) == (3, 3)
    assert one_based.contains((1, 5)) and not one_based.contains((0, 1)) and not one_based.contains("c3")


def test_cursor_from_nowhere_shows_home_or_steps_from_it():
    cursor = GridCursor(10, 9, rows_up=True)
    assert cursor.move(None, pygame.K_UP, home=(0, 4)) == (0, 4)
    assert cursor.move(None, pygame.K_UP, home=(0, 4), show_first=False) == (1, 4)
    assert cursor.move(None, pygame.K_DOWN, home=(0, 4), show_first=False) == (0, 4)     # clamped
    assert cursor.move(None, pygame.K_a, home=(0, 4)) is None
    assert cursor.move((5, 5), pygame.K_ESCAPE, home=(0, 4)) is None


def test_a_walk_round_the_board_stops_at_its_edges():
    cursor = GridCursor(5, 5, first=1)
    cell, seen = (3, 3), []
    for key in [pygame.K_UP] * 4 + [pygame.K_LEFT] * 4 + [pygame.K_DOWN] * 6 + [pygame.K_RIGHT] * 6:
        cell = cursor.move(cell, key, home=(3, 3))
        seen.append(cell)
    assert seen[:4] == [(2, 3), (1, 3), (1, 3), (1, 3)]
    assert seen[7] == (1, 1) and seen[13] == (5, 1) and cell == (5, 5)
    assert all(cursor.contains(c) for c in seen)


# ---------------------------------------------------------------------------- coordinates
def test_labels_by_the_cells_on_the_sides_asked_for():
    layout = GridLayout(3, 4, 10.0, (20.0, 30.0))
    labels = grid_labels(layout, numbers(3), letters(4), 0.5, "lt")
    assert labels[:3] == [("0", (15.0, 35.0)), ("1", (15.0, 45.0)), ("2", (15.0, 55.0))]
    assert labels[3:] == [("a", (25.0, 25.0)), ("b", (35.0, 25.0)), ("c", (45.0, 25.0)), ("d", (55.0, 25.0))]
    right_bottom = dict((text + side, spot) for side in "rb"
                        for text, spot in grid_labels(layout, numbers(3), letters(4), 1.0, side))
    assert right_bottom["2r"] == (70.0, 55.0) and right_bottom["db"] == (55.0, 70.0)
    assert [text for text, _ in grid_labels(layout, numbers(3), letters(4), 0.5, "t", step=2)] == ["a", "c"]


def test_labels_by_the_lines_of_an_intersection_board():
    layout = GridLayout(9, 8, 10.0, (0.0, 0.0))
    ranks, files = numbers(10, descending=True), letters(9, upper=True)
    labels = grid_labels(layout, ranks, files, 1.0, on_lines=True)
    assert len(labels) == 2 * 10 + 2 * 9
    spots = {(text, spot) for text, spot in labels}
    assert ("9", (-10.0, 0.0)) in spots and ("0", (90.0, 90.0)) in spots
    assert ("A", (0.0, -10.0)) in spots and ("I", (80.0, 100.0)) in spots


def test_draw_labels_centres_each_text_on_its_spot():
    surface = pygame.Surface((200, 100))
    surface.fill((0, 0, 0))
    draw_labels(surface, [("W", (50.4, 50.4)), ("W", (150, 50))], font(30, bold=True), (255, 255, 255))
    for cx in (50, 150):
        box = [(x, y) for x in range(cx - 30, cx + 30) for y in range(20, 80) if surface.get_at((x, y))[0] > 128]
        xs, ys = [p[0] for p in box], [p[1] for p in box]
        assert abs((min(xs) + max(xs)) / 2 - cx) <= 2 and abs((min(ys) + max(ys)) / 2 - 50) <= 6


# ---------------------------------------------------------------------------- layer cache
def test_layer_cache_builds_once_per_key_and_drops_the_least_recently_used():
    cache, built = LayerCache(2), []

    def build(name):
        return lambda: built.append(name) or pygame.Surface((4, 4))

    a = cache.get("a", build("a"))
    assert cache.get("a", build("a")) is a and built == ["a"]
    b = cache.get("b", build("b"))
    assert cache.get("a", build("a")) is a                 # "a" is now the most recently used
    cache.get("c", build("c"))                             # drops "b"
    assert built == ["a", "b", "c"] and "b" not in cache and "a" in cache and len(cache) == 2
    assert cache.get("b", build("b")) is not b and cache.builds == 4
    cache.clear()
    assert len(cache) == 0


def _renderers():
    from games import registry
    from games.hex.rules import HexMove
    from runner.setup import load_option_files
    cases = []
    for name in ("hex", "xiangqi", "robot"):
        plugin = registry.plugin(name)
        game = plugin.new_game()
        options = load_option_files(plugin, game, {"size": 7} if name == "hex" else {})[0]
        state = game.new_initial_state(options, 1)
        if name == "hex":
            state.push(HexMove(2, 3))
        cases.append(pytest.param(plugin.load("renderer"), game, options, state, id=name))
    return cases


@pytest.mark.parametrize("renderer_class,game,options,state", _renderers())
def test_each_renderer_reuses_its_layer_until_size_theme_or_flip_changes(renderer_class, game, options, state):
    renderer = renderer_class(game, options, None, DARK)
    surface = pygame.Surface((900, 700))
    rect, view = pygame.Rect(0, 0, 800, 600), BoardView()
    renderer.draw(surface, rect, state, view)
    assert renderer._layers.builds == 1
    first = next(iter(renderer._layers.values()))[0]
    for _ in range(3):                                          # the same picture again: no rebuild
        renderer.draw(surface, rect, state, BoardView(time=1.5, hover=None))
    renderer.draw(surface, rect.move(50, 40), state, view)      # moved, same size: no rebuild
    assert renderer._layers.builds == 1 and next(iter(renderer._layers.values()))[0] is first
    renderer.draw(surface, pygame.Rect(0, 0, 640, 480), state, view)
    assert renderer._layers.builds == 2                         # a new size
    renderer.theme = LIGHT
    renderer.draw(surface, pygame.Rect(0, 0, 640, 480), state, view)
    assert renderer._layers.builds == 3                         # a new theme
    renderer.draw(surface, pygame.Rect(0, 0, 640, 480), state, BoardView(show_coordinates=False))
    assert renderer._layers.builds == 4                         # coordinates hidden
    renderer.draw(surface, pygame.Rect(0, 0, 640, 480), state, BoardView(flipped=True))
    flips = 1 if game.spec.name != "robot" else 0               # Robot's board has no flipped view
    assert renderer._layers.builds == 4 + flips
    renderer.theme = DARK
    renderer.draw(surface, rect, state, view)                   # back to the first: still cached
    assert renderer._layers.builds == 4 + flips
    assert len(renderer._layers) <= renderer._LAYER_CACHE_SIZE
