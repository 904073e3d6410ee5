"""The Hex board's geometry, hit test, drawing and input (offscreen, no window)."""
from __future__ import annotations

import math
import os
import random

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from games.hex.render import (LABEL_DISTANCE, SQRT3, HexLayout, HexRenderer, _label_centres, axial_round,
                              connected_group, fit_layout, layout_extent, winning_path)
from games.hex.rules import LETTERS, HexGame, HexMove, neighbours
from games.render import DARK, BoardView

RECTS = [(1280, 720), (1920, 1080), (3840, 2160), (300, 900), (200, 120), (97, 61)]


pytestmark = pytest.mark.usefixtures("pygame_ready")


def random_game(size: int, seed: int, moves: int | None = None):
    """A state after ``moves`` random moves (None: to the end)."""
    state = HexGame().new_initial_state({"size": size}, seed)
    rng = random.Random(seed)
    while state.outcome() is None and (moves is None or state.turn < moves):
        state.push(rng.choice(state.legal_moves(state.current)))
    return state


# ------------------------------------------------------------------ pure geometry
def test_axial_round_is_identity_on_lattice_points_and_picks_nearest():
    for q in range(-3, 4):
        for r in range(-3, 4):
            assert axial_round(q, r) == (q, r)
            assert axial_round(q + 0.3, r - 0.2) == (q, r)
    assert axial_round(0.6, 0.0) == (1, 0)


@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("width,height", RECTS)
def test_every_cell_centre_maps_back_to_its_cell(width, height, transposed):
    for n in range(1, 21):
        layout = fit_layout(n, width, height, transposed=transposed)
        for row in range(1, n + 1):
            for col in range(1, n + 1):
                x, y = layout.centre(row, col)
                assert layout.cell_at(x, y) == (row, col), (n, row, col)


@pytest.mark.parametrize("transposed", [False, True])
def test_points_inside_a_hexagon_map_to_it_and_points_just_outside_do_not(transposed):
    layout = HexLayout(9, 30.0, (100.0, 80.0), transposed)
    inradius = layout.radius * SQRT3 / 2
    for row in range(1, 10):
        for col in range(1, 10):
            cx, cy = layout.centre(row, col)
            for k in range(12):
                # 97% of the way to the boundary towards every edge midpoint (0, 60, ... degrees)
                # and every corner (30, 90, ... degrees)
                angle = math.radians(k * 30)
                reach = (layout.radius if k % 2 else inradius) * 0.97
                assert layout.cell_at(cx + reach * math.cos(angle), cy + reach * math.sin(angle)) == (row, col)


def test_hit_test_is_exact_not_a_bounding_box():
    """A point inside the cell's bounding box but outside the hexagon belongs to the neighbour."""
    layout = HexLayout(5, 40.0, (200.0, 200.0))
    cx, cy = layout.centre(3, 3)
    corner_of_box = (cx + 0.8 * layout.radius * SQRT3 / 2, cy - 0.85 * layout.radius)
    # up and to the right on screen is row - 1, col + 1 (a RULEBOOK neighbour)
    assert layout.cell_at(*corner_of_box) == (2, 4)
    transposed = HexLayout(5, 40.0, (200.0, 200.0), transposed=True)
    cx, cy = transposed.centre(3, 3)
    assert transposed.cell_at(cx + 0.8 * 40 * SQRT3 / 2, cy - 0.85 * 40) == (4, 2)


@pytest.mark.parametrize("transposed", [False, True])
def test_screen_neighbours_are_exactly_the_rulebook_neighbours(transposed):
    """Touching hexagons (centres one inradius×2 apart) <=> neighbours in the rules."""
    n = 6
    layout = HexLayout(n, 10.0, (0.0, 0.0), transposed)
    touching = 2 * layout.radius * SQRT3 / 2
    cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
    for a in cells:
        rule = set(neighbours(n, *a))
        ax, ay = layout.centre(*a)
        for b in cells:
            if a == b:
                continue
            bx, by = layout.centre(*b)
            assert (abs(math.hypot(ax - bx, ay - by) - touching) < 1e-6) == (b in rule), (a, b)


def test_cells_outside_the_board_are_none():
    layout = fit_layout(7, 1280, 720)
    for row, col in ((0, 3), (8, 3), (3, 0), (3, 8), (0, 0), (8, 8), (-4, 20)):
        assert layout.cell_at(*layout.centre(row, col)) is None
    assert layout.cell_at(0, 0) is None


@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("coordinates", [True, False])
@pytest.mark.parametrize("width,height", RECTS)
def test_layout_fits_inside_the_rect(width, height, coordinates, transposed):
    for n in (1, 2, 7, 11, 19, 20):
        layout = fit_layout(n, width, height, coordinates, transposed)
        left, top, right, bottom = layout_extent(n, coordinates, transposed)
        x0, y0 = layout.origin
        r = layout.radius
        assert x0 + left * r >= -1e-6 and y0 + top * r >= -1e-6
        assert x0 + right * r <= width + 1e-6 and y0 + bottom * r <= height + 1e-6
        # and uses the room: one side is within a few percent of the rect
        used = max((right - left) * r / width, (bottom - top) * r / height)
        assert used > 0.9


@pytest.mark.parametrize("transposed", [False, True])
def test_coordinate_labels_name_the_cells_they_stand_by(transposed):
    """Side labels level with their screen row, top/bottom ones straight over their column's end
    cell; letters name the game's columns and numbers its rows, whichever way the board is shown."""
    n = 6
    layout = fit_layout(n, 1280, 720, transposed=transposed)
    d = LABEL_DISTANCE
    labels = _label_centres(n, transposed)
    assert len(labels) == 4 * n
    for text, screen_row, screen_col in labels:
        x, y = layout.screen_centre(screen_row, screen_col)
        if float(screen_row).is_integer():                      # left or right of a screen row
            line = int(screen_row)
            assert y == pytest.approx(layout.screen_centre(line, 1)[1])
            side_is_rows = not transposed
        else:                                                   # above or below a screen column
            top = screen_row < 1
            line = round(screen_col - d / 2) if top else round(screen_col + d / 2)
            end_x = layout.screen_centre(1 if top else n, line)[0]
            assert x == pytest.approx(end_x)
            side_is_rows = transposed
        assert text == (str(line) if side_is_rows else LETTERS[line - 1])


def test_winning_path_and_group():
    # Player 1 (columns) on a 3x3 board: a1 b1 c1 across row 1, plus a dangling a2 and a stray c3.
    game = HexGame()
    state = game.new_initial_state({"size": 3}, 0)
    for text in ("a1", "a3", "b1", "b3", "c1"):
        state.push(game.parse_move(text))
    assert state.outcome() is not None and state.outcome().winners == (0,)
    chain = state.winning_chain()
    path = winning_path(3, state.neighbours, chain, 1)
    assert path == [0, 1, 2]
    assert connected_group(state.neighbours, chain, path) == {0, 1, 2}
    assert winning_path(3, state.neighbours, {0, 1}, 1) == []


# ------------------------------------------------------------------ drawing
@pytest.mark.parametrize("width,height", [(160, 100), (3840, 2160)])
def test_drawing_every_size_does_not_raise(width, height):
    game = HexGame()
    surface = pygame.Surface((width, height))
    for n in range(1, 21):
        renderer = HexRenderer(game, {"size": n})
        # a 4K board layer takes ~0.1 s: there, one orientation per size and the finished game only
        small = width < 1000
        orientations = (False, True) if small else (n % 2 == 1,)
        states = (random_game(n, n, 0), random_game(n, n, n), random_game(n, n)) if small else (random_game(n, n),)
        for state in states:
            for flipped in orientations:
                view = BoardView(flipped=flipped, human_seat=0, hover=(1, 1), letters=flipped)
                renderer.draw(surface, surface.get_rect(), state, view)


def test_tiny_rect_draws_nothing_and_does_not_raise():
    surface = pygame.Surface((50, 50))
    renderer = HexRenderer(HexGame(), {"size": 11})
    renderer.draw(surface, pygame.Rect(0, 0, 3, 3), random_game(11, 1, 5), BoardView())


def band_point(layout: HexLayout, top_middle: bool) -> tuple[int, int]:
    """A pixel in the coloured band above row 1 (or left of column 1) on screen."""
    n = layout.n
    middle = (n + 1) / 2
    display_row, display_col = (1 - 0.8, middle) if top_middle else (middle, 1 - 0.8)
    if layout.transposed:
        display_row, display_col = display_col, display_row
    x, y = layout.centre(display_row, display_col)
    return round(x), round(y)


@pytest.mark.parametrize("flipped", [False, True])
def test_edges_carry_the_players_colours(flipped):
    """Player 2 owns the top edge and player 1 the left one; flipped swaps them."""
    game = HexGame()
    renderer = HexRenderer(game, {"size": 9})
    surface = pygame.Surface((1280, 720))
    renderer.draw(surface, surface.get_rect(), random_game(9, 2, 0), BoardView(flipped=flipped))
    top = surface.get_at(band_point(renderer.layout, True))[:3]
    left = surface.get_at(band_point(renderer.layout, False))[:3]
    p1, p2 = DARK.seats[0], DARK.seats[1]
    assert (top, left) == ((p1, p2) if flipped else (p2, p1))


def test_draw_reads_state_only():
    state = random_game(11, 5, 30)
    before = (state.cells[:], state.current, state.turn, state.last)
    surface = pygame.Surface((800, 600))
    HexRenderer(HexGame(), {"size": 11}).draw(surface, surface.get_rect(), state, BoardView(hover=(1, 1), human_seat=1))
    assert (state.cells, state.current, state.turn, state.last) == before


def test_hover_preview_shows_only_for_a_person_on_an_empty_cell():
    game = HexGame()
    state = random_game(7, 3, 0)
    renderer = HexRenderer(game, {"size": 7})

    def pixel(view):
        surface = pygame.Surface((640, 480))
        renderer.draw(surface, surface.get_rect(), state, view)
        return surface.get_at(tuple(round(v) for v in renderer.layout.centre(4, 4)))[:3]

    plain = pixel(BoardView())
    assert pixel(BoardView(hover=(4, 4))) == plain                      # nobody to move for
    previewed = pixel(BoardView(hover=(4, 4), human_seat=0))
    assert previewed != plain


def test_drawing_a_full_19x19_board_is_fast():
    import time
    game = HexGame()
    renderer = HexRenderer(game, {"size": 19})
    state = random_game(19, 11)
    surface = pygame.Surface((1920, 1080))
    renderer.draw(surface, surface.get_rect(), state, BoardView())   # fills the caches
    start = time.perf_counter()
    for _ in range(10):
        renderer.draw(surface, surface.get_rect(), state, BoardView())
    assert (time.perf_counter() - start) / 10 < 0.1     # a few ms normally; lenient on a busy machine


# ------------------------------------------------------------------ input
def click(pos, button=1):
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)


@pytest.mark.parametrize("flipped", [False, True])
def test_click_on_a_cell_centre_gives_its_move_text(flipped):
    game = HexGame()
    for n in (1, 5, 11, 19):
        state = game.new_initial_state({"size": n}, 0)
        renderer = HexRenderer(game, {"size": n})
        surface = pygame.Surface((1280, 720))
        rect = pygame.Rect(100, 50, 900, 600)
        view = BoardView(human_seat=0, flipped=flipped)
        renderer.draw(surface, rect, state, view)
        for row in range(1, n + 1):
            for col in range(1, n + 1):
                x, y = renderer.layout.centre(row, col)
                assert renderer.handle_event(click((round(x), round(y))), state, view) == HexMove(row, col).text()
                assert game.parse_move(HexMove(row, col).text()) == HexMove(row, col)


def test_click_on_occupied_outside_or_not_my_turn_gives_none():
    game = HexGame()
    state = game.new_initial_state({"size": 7}, 0)
    state.push(HexMove(4, 4))                 # player 1 took d4; player 2 to move
    renderer = HexRenderer(game, {"size": 7})
    surface = pygame.Surface((1280, 720))
    view = BoardView(human_seat=1)
    renderer.draw(surface, surface.get_rect(), state, view)
    centre = tuple(round(v) for v in renderer.layout.centre(4, 4))
    assert renderer.handle_event(click(centre), state, view) is None          # occupied
    assert renderer.handle_event(click((2, 2)), state, view) is None          # outside the board
    empty = tuple(round(v) for v in renderer.layout.centre(1, 1))
    assert renderer.handle_event(click(empty, button=3), state, view) is None  # right button
    assert renderer.handle_event(click(empty), state, BoardView(human_seat=0)) is None   # not their turn
    assert renderer.handle_event(click(empty), state, BoardView()) is None              # nobody's
    assert renderer.handle_event(click(empty), state, view) == "a1"


def test_clicking_the_first_stone_swaps_when_the_pie_rule_is_on():
    game = HexGame()
    state = game.new_initial_state({"size": 7, "swap": True}, 0)
    state.push(HexMove(2, 3))
    renderer = HexRenderer(game, {"size": 7, "swap": True})
    surface = pygame.Surface((1280, 720))
    view = BoardView(human_seat=1)
    renderer.draw(surface, surface.get_rect(), state, view)
    stone = tuple(round(v) for v in renderer.layout.centre(2, 3))
    assert renderer.handle_event(click(stone), state, view) == "swap"


def test_mouse_motion_sets_hover_and_keys_move_and_play_it():
    game = HexGame()
    state = game.new_initial_state({"size": 5}, 0)
    renderer = HexRenderer(game, {"size": 5})
    surface = pygame.Surface((640, 480))
    view = BoardView(human_seat=0)
    renderer.draw(surface, surface.get_rect(), state, view)
    pos = tuple(round(v) for v in renderer.layout.centre(2, 5))
    assert renderer.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                                 state, view) is None
    assert view.hover == (2, 5)
    renderer.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=(1, 1), rel=(0, 0), buttons=(0, 0, 0)),
                          state, view)
    assert view.hover is None
    key = lambda k: pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)  # noqa: E731
    renderer.handle_event(key(pygame.K_DOWN), state, view)      # from nowhere: the centre cell
    assert view.hover == (3, 3)
    renderer.handle_event(key(pygame.K_RIGHT), state, view)
    assert view.hover == (3, 4)
    assert renderer.handle_event(key(pygame.K_RETURN), state, view) == "d3"


def test_legend_names_each_players_edges():
    renderer = HexRenderer(HexGame(), {"size": 11})
    legend = renderer.legend(random_game(11, 1, 0))
    assert [colour for colour, _ in legend] == [DARK.seats[0], DARK.seats[1]]
    assert "columns a and k" in legend[0][1] and "rows 1 and 11" in legend[1][1]
