"""The Xiangqi renderer: hit-test geometry, click/drag input, drawing, the piece font."""
import pygame
import pytest

from games.render import BoardView, LIGHT
from games.xiangqi.render import (FILES, PIECES, RANKS, RIVER_WORDS, XiangqiLayout, XiangqiRenderer,
                                  fit_layout, piece_font, square_name)
from games.xiangqi.rules import XiangqiGame

CHECK_LINE = "H2E2 H9G7 E3E4 B9C7 E4E5 I9H9 E5E6".split()      # Red's cannon checks through a pawn
MID_LINE = ["H2E2", "H9G7", "H0G2", "I9H9", "I0H0", "B9C7", "C3C4", "H7H3", "B0C2", "B7B3"]


@pytest.fixture(scope="module", autouse=True)
def pygame_fonts():
    pygame.font.init()
    yield


def new_state(moves=()):
    state = XiangqiGame().new_initial_state({})
    for move in moves:
        state.apply({state.side: move})
    return state


def drawn(state, view, size=(900, 700), theme=None):
    renderer = XiangqiRenderer(XiangqiGame(), {}, ["Red", "Black"], *([theme] if theme else []))
    surface = pygame.Surface(size)
    renderer.draw(surface, surface.get_rect(), state, view)
    return renderer, surface


def click(renderer, state, view, name, button=1):
    pos = tuple(round(v) for v in renderer.layout.centre_of(name))
    down = renderer.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button), state, view)
    up = renderer.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button), state, view)
    return down or up


# ---------------------------------------------------------------------------- geometry
@pytest.mark.parametrize("flipped", [False, True])
@pytest.mark.parametrize("size", [(120, 130), (640, 480), (1920, 1080), (3840, 2160)])
def test_every_intersection_maps_back_to_its_square(size, flipped):
    layout = fit_layout(*size, coordinates=True, flipped=flipped).translated(17, 5)
    for file in range(FILES):
        for rank in range(RANKS):
            name = square_name(file, rank)
            x, y = layout.centre(file, rank)
            assert layout.square_at(x, y) == name
            nudge = layout.cell * 0.45
            for dx, dy in ((nudge, 0), (-nudge, nudge), (0, -nudge)):
                assert layout.square_at(x + dx, y + dy) == name


def test_points_off_the_grid_hit_nothing_and_corners_follow_the_orientation():
    layout = XiangqiLayout(50.0, (100.0, 80.0))
    assert layout.square_at(100, 80) == "A9"
    assert layout.square_at(100 + 8 * 50, 80 + 9 * 50) == "I0"
    assert layout.square_at(100 - 30, 80) is None
    assert layout.square_at(100, 80 + 9 * 50 + 30) is None
    flipped = XiangqiLayout(50.0, (100.0, 80.0), flipped=True)
    assert flipped.square_at(100, 80) == "I0"
    assert flipped.square_at(100 + 8 * 50, 80 + 9 * 50) == "A9"


def test_the_board_fits_inside_its_rect():
    for size in ((300, 900), (900, 300), (480, 300)):
        for coordinates in (True, False):
            layout = fit_layout(*size, coordinates=coordinates)
            wood = layout.wood_rect(coordinates)
            assert pygame.Rect(0, 0, *size).contains(wood)
            assert wood.width >= size[0] * 0.9 or wood.height >= size[1] * 0.9


# ---------------------------------------------------------------------------- input
def test_click_click_plays_a_legal_move():
    state, view = new_state(), BoardView(human_seat=0)
    renderer, _ = drawn(state, view)
    assert click(renderer, state, view, "H2") is None
    assert view.selected == "H2"
    assert click(renderer, state, view, "E2") == "H2E2"
    assert view.selected is None


def test_an_illegal_target_clears_the_selection():
    state, view = new_state(), BoardView(human_seat=0)
    renderer, _ = drawn(state, view)
    for target in ("G4", "A9"):                   # an empty point, an enemy piece out of reach
        click(renderer, state, view, "H2")
        assert click(renderer, state, view, target) is None
        assert view.selected is None


def test_drag_and_drop_plays_a_legal_move_and_an_illegal_drop_plays_nothing():
    state, view = new_state(), BoardView(human_seat=0)
    renderer, _ = drawn(state, view)
    start = tuple(round(v) for v in renderer.layout.centre_of("B0"))
    end = tuple(round(v) for v in renderer.layout.centre_of("C2"))
    renderer.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1), state, view)
    renderer.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(0, 0), buttons=(1, 0, 0)),
                          state, view)
    surface = pygame.Surface((900, 700))
    renderer.draw(surface, surface.get_rect(), state, view)        # the piece follows the pointer
    assert renderer.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1),
                                 state, view) == "B0C2"
    wrong = tuple(round(v) for v in renderer.layout.centre_of("B3"))
    renderer.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1), state, view)
    renderer.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=wrong, rel=(0, 0), buttons=(1, 0, 0)),
                          state, view)
    assert renderer.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=wrong, button=1),
                                 state, view) is None
    assert view.selected is None


def test_clicking_the_selected_piece_again_deselects_it_and_others_switch():
    state, view = new_state(), BoardView(human_seat=0)
    renderer, _ = drawn(state, view)
    click(renderer, state, view, "H2")
    click(renderer, state, view, "H2")
    assert view.selected is None
    click(renderer, state, view, "H2")
    click(renderer, state, view, "B2")            # another own piece: select it instead
    assert view.selected == "B2"


def test_no_move_out_of_turn_or_with_the_other_sides_pieces():
    state = new_state()
    view = BoardView(human_seat=1)                # Black, but Red is to move
    renderer, _ = drawn(state, view)
    assert click(renderer, state, view, "H7") is None and view.selected is None
    view = BoardView(human_seat=0)
    assert click(renderer, state, view, "H7") is None and view.selected is None
    view = BoardView(human_seat=None)             # watching only
    assert click(renderer, state, view, "H2") is None and view.selected is None


def test_black_moves_on_a_flipped_board():
    state = new_state(["H2E2"])
    view = BoardView(human_seat=1, flipped=True)
    renderer, _ = drawn(state, view)
    click(renderer, state, view, "H9")
    assert click(renderer, state, view, "G7") == "H9G7"


def test_keyboard_pointer_and_enter():
    state, view = new_state(), BoardView(human_seat=0)
    renderer, _ = drawn(state, view)
    view.hover = "H2"
    press = lambda key: renderer.handle_event(pygame.event.Event(pygame.KEYDOWN, key=key), state, view)
    assert press(pygame.K_RETURN) is None and view.selected == "H2"
    for _ in range(3):
        press(pygame.K_LEFT)
    assert view.hover == "E2"
    assert press(pygame.K_SPACE) == "H2E2"


def test_motion_sets_the_hover_square():
    state, view = new_state(), BoardView(human_seat=0)
    renderer, _ = drawn(state, view)
    pos = tuple(round(v) for v in renderer.layout.centre_of("C3"))
    renderer.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                          state, view)
    assert view.hover == "C3"
    renderer.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=(1, 1), rel=(0, 0), buttons=(0, 0, 0)),
                          state, view)
    assert view.hover is None


# ---------------------------------------------------------------------------- drawing
@pytest.mark.parametrize("moves", [(), MID_LINE, CHECK_LINE], ids=["start", "middle", "check"])
def test_drawing_in_many_sizes_does_not_raise_or_change_the_state(moves):
    state = new_state(moves)
    fen, legal = state.fen(), list(state.legal_moves())
    renderer = XiangqiRenderer(XiangqiGame(), {}, None)
    surface = pygame.Surface((1920, 1080))
    views = [BoardView(), BoardView(flipped=True, show_coordinates=False),
             BoardView(human_seat=state.side, selected="E0" if state.side == 0 else "E9", hover="E1",
                       letters=True, highlights={"latin": True, "arrows": ["H2E2", "bad"]})]
    for size in ((10, 10), (40, 40), (180, 200), (480, 300), (1280, 720), (1920, 1080)):
        for view in views:
            renderer.draw(surface, pygame.Rect(0, 0, *size), state, view)
    assert state.fen() == fen and list(state.legal_moves()) == legal
    assert len(renderer._layers) <= renderer._LAYER_CACHE_SIZE


def test_static_layer_is_cached_per_size():
    state = new_state()
    renderer = XiangqiRenderer(XiangqiGame(), {}, None)
    surface = pygame.Surface((800, 600))
    renderer.draw(surface, surface.get_rect(), state, BoardView())
    first = next(iter(renderer._layers.values()))[0]
    renderer.draw(surface, surface.get_rect(), state, BoardView())
    assert len(renderer._layers) == 1 and next(iter(renderer._layers.values()))[0] is first


def _pixel_near(renderer, surface, name, dx_cells, dy_cells):
    x, y = renderer.layout.centre_of(name)
    return surface.get_at((round(x + dx_cells * renderer.layout.cell), round(y + dy_cells * renderer.layout.cell)))


def test_the_checked_general_glows_red():
    in_check, _ = new_state(CHECK_LINE), None
    assert in_check.in_check()
    quiet = new_state(CHECK_LINE[:-1] + ["A3A4"])
    r1, checked_surface = drawn(in_check, BoardView())
    r2, quiet_surface = drawn(quiet, BoardView())
    glow = _pixel_near(r1, checked_surface, "E9", 0.0, 0.55)
    plain = _pixel_near(r2, quiet_surface, "E9", 0.0, 0.55)
    assert glow.r - glow.g > plain.r - plain.g + 40


def test_selected_piece_shows_dots_on_its_legal_targets():
    state = new_state()
    r1, with_dots = drawn(state, BoardView(human_seat=0, selected="H2"))
    r2, without = drawn(state, BoardView(human_seat=0))
    for target in ("H3", "H6", "G2", "C2"):                      # the cannon's free targets
        dot, bare = _pixel_near(r1, with_dots, target, 0.06, 0.06), _pixel_near(r2, without, target, 0.06, 0.06)
        assert dot.g > dot.r and bare.r > bare.g
    illegal = _pixel_near(r1, with_dots, "G3", 0.06, 0.06)     # not a target: no dot
    assert illegal.r > illegal.g


def test_last_move_marks_both_squares():
    state = new_state(["H2E2"])
    renderer, surface = drawn(state, BoardView())
    _, before = drawn(new_state(), BoardView())
    for name in ("H2", "E2"):
        corner = _pixel_near(renderer, surface, name, -0.47, -0.47)
        plain = _pixel_near(renderer, before, name, -0.47, -0.47)
        assert corner != plain


def test_light_theme_and_latin_option():
    state = new_state(MID_LINE)
    renderer = XiangqiRenderer(XiangqiGame(), {"pieces": "latin"}, None, LIGHT)
    assert renderer.latin(BoardView())
    surface = pygame.Surface((640, 480))
    renderer.draw(surface, surface.get_rect(), state, BoardView(flipped=True))
    assert renderer.seat_colour(1) != XiangqiRenderer(XiangqiGame(), {}, None).seat_colour(1)


# ---------------------------------------------------------------------------- the piece font
def test_every_piece_and_river_glyph_is_in_the_subset_font():
    face = piece_font(40)
    missing_glyph = face.render("Z", True, (0, 0, 0), (255, 255, 255))   # not in the subset: .notdef
    images = {}
    for char in "".join(red + black for red, black, _ in PIECES.values()) + "".join(RIVER_WORDS):
        assert face.metrics(char)[0] is not None, char
        image = face.render(char, True, (0, 0, 0), (255, 255, 255))
        assert pygame.image.tobytes(image, "RGB") != pygame.image.tobytes(missing_glyph, "RGB") or \
            image.get_size() != missing_glyph.get_size(), f"{char} renders as the missing-glyph box"
        images[char] = pygame.image.tobytes(image, "RGB")
    assert len(set(images.values())) == len(images)     # every character looks different
