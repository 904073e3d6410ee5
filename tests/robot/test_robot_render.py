"""Robot Đại Chiến's board: geometry, hit test, shrink warning, drawing and a person's input (offscreen)."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from games.robot.maps import new_state  # noqa: E402
from games.render import DARK, LIGHT, BoardView
from games.robot.bot import PainterBot
from games.robot.render import (GridLayout, RobotRenderer, click_target, fit_grid, key_target, region_outline,
                                shrink_warning_cells, shrink_warning_ring, split_area, stay_target)
from games.robot.rules import Item, RobotGame, state_from_rows

RECTS = [(1280, 720), (1920, 1080), (3840, 2160), (300, 900), (200, 120), (97, 61), (500, 500)]
OPEN_7 = ["......."] * 7
GAME = RobotGame()


pytestmark = pytest.mark.usefixtures("pygame_ready")


def bot_game(players: int, seed: int, turns: int, map_name: str = "rooms-17"):
    """A state after ``turns`` turns of the painter bots (deterministic)."""
    state = new_state({"players": players, "map": map_name}, seed)
    bots = [PainterBot(seed * 10 + seat) for seat in range(players)]   # the painter, no random turns
    while not state.finished and state.turn < turns:
        state.apply({seat: bots[seat].choose(state.clone(), seat, 1.0) for seat in state.to_move()})
    return state


def placed(rows, positions, period: int = 5, players: int | None = None):
    """A state on ``rows`` after turn 0 put robot i on ``positions[i]`` (no items)."""
    state = state_from_rows(rows, period, players or len(positions))
    state.injected_spawns = [[]]
    state.apply(dict(enumerate(positions)))
    return state


def key(code: int, shift: bool = False) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=pygame.KMOD_LSHIFT if shift else 0)


# ------------------------------------------------------------------ pure geometry
@pytest.mark.parametrize("width,height", RECTS)
def test_every_pixel_of_a_cell_maps_back_to_it(width, height):
    for rows, cols in ((3, 3), (7, 7), (11, 21), (21, 15), (21, 21)):
        layout = fit_grid(rows, cols, width, height).translated(13, 7)
        for x in range(rows):
            for y in range(cols):
                rect = layout.cell_rect(x, y)
                for px, py in ((rect.left, rect.top), (rect.right - 1, rect.bottom - 1), rect.center):
                    if rect.width and rect.height:
                        assert layout.cell_at(px, py) == (x, y), (rows, cols, x, y, px, py)
                cx, cy = layout.centre(x, y)
                assert layout.cell_at(cx, cy) == (x, y)


def test_cells_tile_the_grid_without_gaps_or_overlaps():
    layout = GridLayout(5, 7, 13.37, (10.4, 20.6))
    grid = layout.grid_rect()
    covered = {}
    for x in range(5):
        for y in range(7):
            rect = layout.cell_rect(x, y)
            for px in range(rect.left, rect.right):
                for py in range(rect.top, rect.bottom):
                    assert (px, py) not in covered
                    covered[(px, py)] = (x, y)
    assert len(covered) == grid.width * grid.height
    for px in range(grid.left - 3, grid.right + 3):
        for py in range(grid.top - 3, grid.bottom + 3):
            assert layout.cell_at(px, py) == covered.get((px, py))


def test_fit_grid_stays_inside_its_box_and_leaves_room_for_coordinates():
    for width, height in RECTS:
        for coordinates in (True, False):
            layout = fit_grid(11, 21, width, height, coordinates)
            grid = layout.grid_rect()
            assert grid.left >= 0 and grid.top >= 0 and grid.right <= width and grid.bottom <= height
            if coordinates:
                assert grid.left >= layout.cell * 0.8 and grid.top >= layout.cell * 0.8


def test_split_area_puts_the_panel_right_of_wide_rects_below_tall_ones_and_none_in_tiny_ones():
    board, panel, where = split_area(pygame.Rect(0, 0, 1280, 720), 17, 17)
    assert where == "right" and board.right == panel.left and panel.right == 1280
    assert board.width + panel.width == 1280 and panel.width >= 1280 * 0.28
    board, panel, where = split_area(pygame.Rect(5, 5, 600, 1000), 17, 17)
    assert where == "below" and board.bottom == panel.top and panel.bottom == 1005
    assert split_area(pygame.Rect(0, 0, 200, 120), 17, 17)[1:] == (None, "none")


def test_region_outline_of_an_l_shape():
    segments = region_outline([(0, 0), (1, 0), (1, 1)])
    assert len(segments) == 8                      # perimeter of an L of three unit squares
    edges = {frozenset(s) for s in segments}
    assert frozenset({(1, 1), (2, 1)}) not in edges     # the side between (1, 0) and (1, 1) is inside
    assert frozenset({(0, 0), (0, 1)}) in edges and frozenset({(1, 1), (1, 2)}) in edges
    assert region_outline([]) == []


# ------------------------------------------------------------------ shrink warning
def test_shrink_warning_only_on_the_turn_that_ends_with_a_shrink():
    state = placed(OPEN_7, [(3, 3), (3, 4)], period=3)      # K = 3: rings sealed after turns 3, 6, 9, 12
    seen = {}
    while not state.finished:
        seen[state.turn] = (shrink_warning_ring(state), len(shrink_warning_cells(state)))
        before = state.next_shrink_turn()
        state.apply({s: state.position(s) for s in state.to_move()})     # everybody stays
        if seen[state.turn - 1][0] is not None:
            assert any(e.kind == "shrink" for e in state.events()), state.turn - 1
            assert before == state.turn - 1
        if state.turn > 12:
            break
    assert seen[1] == (None, 0) and seen[2] == (None, 0) and seen[4] == (None, 0)
    assert seen[3] == (0, 24)               # the whole outer ring of a 7x7 map is still open
    assert seen[6] == (1, 16)               # ring 1 (5x5 perimeter), all still open
    assert all(ring is None for t, (ring, _) in seen.items() if t not in (3, 6, 9, 12))
    assert seen[9][0] == 2


def test_shrink_warning_lists_only_cells_that_will_change():
    state = placed(["#......", "......."] + ["......."] * 5, [(3, 3), (3, 4)], period=2)
    state.apply({0: (3, 3), 1: (3, 4)})
    assert state.turn == 2 and shrink_warning_ring(state) == 0
    cells = shrink_warning_cells(state)
    assert (0, 0) not in cells and (0, 1) in cells and (6, 6) in cells and len(cells) == 23
    assert (3, 3) not in cells


# ------------------------------------------------------------------ a person's moves
def test_arrow_keys_step_and_space_or_dot_stays():
    state = placed(OPEN_7, [(3, 3), (0, 0)])
    renderer = RobotRenderer(GAME, {"players": 2})
    view = BoardView(human_seat=0)
    assert renderer.handle_event(key(pygame.K_UP), state, view) == "2 3"
    assert renderer.handle_event(key(pygame.K_DOWN), state, view) == "4 3"
    assert renderer.handle_event(key(pygame.K_LEFT), state, view) == "3 2"
    assert renderer.handle_event(key(pygame.K_RIGHT), state, view) == "3 4"
    assert renderer.handle_event(key(pygame.K_SPACE), state, view) == "3 3"
    assert renderer.handle_event(key(pygame.K_PERIOD), state, view) == "3 3"
    assert renderer.handle_event(key(pygame.K_RIGHT, shift=True), state, view) == "3 4"   # no speed: one cell
    view1 = BoardView(human_seat=1)                       # robot B in the corner: off the map is no move
    assert renderer.handle_event(key(pygame.K_UP), state, view1) is None
    assert renderer.handle_event(key(pygame.K_LEFT), state, view1) is None
    assert renderer.handle_event(key(pygame.K_a), state, view) is None
    assert renderer.handle_event(key(pygame.K_UP), state, BoardView(human_seat=None)) is None
    for text in ("2 3", "4 3", "3 2", "3 4", "3 3"):      # every answer is a legal move text
        state.check_move(0, GAME.parse_move(text, state, 0))


def test_walls_block_steps_unless_oil_is_held():
    rows = ["...#...", "...#...", "...#...", "..#.#..", "...#...", "...#...", "...#..."]
    state = placed(rows, [(3, 3), (0, 0)])
    assert key_target(state, 0, (0, -1)) is None and key_target(state, 0, (-1, 0)) is None
    state.robots[0].oil_turns = 3
    assert key_target(state, 0, (0, -1)) == (3, 2)
    assert click_target(state, 0, (2, 3)) == (2, 3)       # the adjacent forbidden cell with oil
    assert click_target(state, 0, (1, 3)) is None         # not two away, even with oil


def test_shift_arrow_is_a_double_step_only_with_speed():
    state = placed(OPEN_7, [(3, 3), (0, 0)])
    renderer = RobotRenderer(GAME, {"players": 2})
    view = BoardView(human_seat=0)
    state.robots[0].speed_turns = 2
    assert renderer.handle_event(key(pygame.K_RIGHT, shift=True), state, view) == "3 5"
    assert renderer.handle_event(key(pygame.K_UP, shift=True), state, view) == "1 3"
    assert renderer.handle_event(key(pygame.K_RIGHT), state, view) == "3 4"
    state.robots[0].pos = state.board.index(3, 5)          # next to the edge: a double step falls back
    assert renderer.handle_event(key(pygame.K_RIGHT, shift=True), state, view) == "3 6"
    state.check_move(0, (3, 6))


def test_clicks_make_moves_and_everything_else_is_none():
    state = placed(OPEN_7, [(3, 3), (0, 0)])
    renderer = RobotRenderer(GAME, {"players": 2})
    surface = pygame.Surface((800, 500))
    renderer.draw(surface, pygame.Rect(0, 0, 800, 500), state, BoardView())
    layout = renderer.layout
    view = BoardView(human_seat=0)

    def click(cell):
        pos = layout.cell_rect(*cell).center
        return renderer.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos), state, view)
    assert click((2, 3)) == "2 3" and click((3, 4)) == "3 4" and click((3, 3)) == "3 3"
    assert click((1, 3)) is None and click((2, 2)) is None and click((6, 6)) is None
    state.robots[0].speed_turns = 3
    assert click((1, 3)) == "1 3" and click((3, 5)) == "3 5" and click((1, 1)) is None
    off_board = renderer.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(799, 499)),
                                      state, view)
    assert off_board is None
    right_button = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=3, pos=layout.cell_rect(2, 3).center)
    assert renderer.handle_event(right_button, state, view) is None
    renderer.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=layout.cell_rect(4, 5).center, rel=(0, 0),
                                             buttons=(0, 0, 0)), state, view)
    assert view.hover == (4, 5)


def test_placement_accepts_any_open_cell_by_click_or_pointer_keys():
    state = state_from_rows(["...#...", "......."] + ["......."] * 5, 5, 2)
    renderer = RobotRenderer(GAME, {"players": 2})
    renderer.draw(pygame.Surface((640, 480)), pygame.Rect(0, 0, 640, 480), state, BoardView())
    view = BoardView(human_seat=1)
    click = lambda cell: renderer.handle_event(           # noqa: E731
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=renderer.layout.cell_rect(*cell).center), state, view)
    assert click((6, 6)) == "6 6" and click((0, 0)) == "0 0" and click((0, 3)) is None
    view.hover = None
    assert renderer.handle_event(key(pygame.K_RIGHT), state, view) is None and view.hover == (3, 3)
    renderer.handle_event(key(pygame.K_UP), state, view)
    renderer.handle_event(key(pygame.K_UP), state, view)
    renderer.handle_event(key(pygame.K_UP), state, view)
    assert view.hover == (0, 3)
    assert renderer.handle_event(key(pygame.K_RETURN), state, view) is None     # a wall
    renderer.handle_event(key(pygame.K_LEFT), state, view)
    assert renderer.handle_event(key(pygame.K_SPACE), state, view) == "0 2"


def test_on_an_oiled_wall_staying_is_refused_and_only_steps_off_are_offered():
    rows = ["......."] * 3 + ["...#..."] + ["......."] * 3
    state = placed(rows, [(3, 2), (0, 0)])
    state.robots[0].oil_turns = 4
    state.apply({0: (3, 3), 1: (0, 0)})
    assert state.robots[0].on_oil and state.position(0) == (3, 3)
    assert stay_target(state, 0) is None and click_target(state, 0, (3, 3)) is None
    assert key_target(state, 0, (0, 1)) == (3, 4) and click_target(state, 0, (2, 3)) == (2, 3)


# ------------------------------------------------------------------ drawing
def interesting_states():
    """Placement, a middle game with an explosion and an enclosure, a shrunk map with robots out."""
    middle = bot_game(4, 3, 24)
    assert {kind for kind, _, _ in middle.turn_marks} == {"explosion", "enclosure"}
    late = bot_game(4, 2, 45)
    assert sum(not r.in_game for r in late.robots) == 2 and any(ch.islower() for ch in str(late))
    assert late.items
    warned = bot_game(4, 2, 24)
    assert shrink_warning_ring(warned) is not None
    return [new_state({"players": 3, "map": "maze-19"}, 1), middle, late, warned,
            bot_game(2, 0, 999, "open-11")]


@pytest.mark.parametrize("theme", [DARK, LIGHT])
def test_drawing_never_changes_the_state_in_any_rect(theme):
    renderer = RobotRenderer(GAME, {}, ["A: Alice", "B: a very long program name that will not fit", "C", "D"],
                             theme)
    states = interesting_states()
    assert states[-1].finished
    surface = pygame.Surface((1920, 1080))
    for state in states:
        copy = state.clone()
        for width, height in RECTS[:5]:
            for view in (BoardView(), BoardView(letters=True, show_coordinates=False, time=1.3),
                         BoardView(human_seat=0, hover=(4, 4)), BoardView(human_seat=1, hover=(99, 99))):
                surface.fill((0, 0, 0))
                renderer.draw(surface, pygame.Rect(0, 0, min(width, 1920), min(height, 1080)), state, view)
        assert state == copy and str(state) == str(copy)
        assert state.score_history() == copy.score_history()


def test_the_board_stays_inside_its_rect_and_shows_the_players_colours():
    state = bot_game(4, 2, 45)
    renderer = RobotRenderer(GAME, {})
    surface = pygame.Surface((1400, 900))
    surface.fill((1, 2, 3))
    rect = pygame.Rect(100, 60, 1200, 760)
    renderer.draw(surface, rect, state, BoardView(letters=True))
    for x in range(0, 1400, 5):
        for y in (0, 59, 821, 899):
            assert tuple(surface.get_at((x, y)))[:3] == (1, 2, 3)
    colours = {tuple(surface.get_at(renderer.layout.cell_rect(x, y).topleft + pygame.Vector2(3, 3)))[:3]
               for x in range(17) for y in range(17)}
    painted = set("".join(state.map_rows())) & set("ABCD")
    assert len(painted) >= 2
    for letter in painted:
        assert DARK.seats["ABCD".index(letter)] in colours
    assert renderer.layout.grid_rect().right <= rect.centerx + rect.width // 4


def test_sealed_cells_look_darker_than_painted_ones():
    state = bot_game(4, 2, 45)
    renderer = RobotRenderer(GAME, {})
    surface = pygame.Surface((800, 600))
    renderer.draw(surface, surface.get_rect(), state, BoardView(show_coordinates=False))
    rows = state.map_rows(raw=True)
    for x, row in enumerate(rows):
        for y, ch in enumerate(row):
            if ch in "abcd":
                pixel = surface.get_at(renderer.layout.cell_rect(x, y).topleft + pygame.Vector2(2, 2))
                seat = "abcd".index(ch)
                assert sum(tuple(pixel)[:3]) < sum(DARK.seats[seat]) * 0.8


def test_score_history_follows_the_game_and_is_kept_by_clones():
    state = bot_game(2, 0, 10, "open-11")
    history = state.score_history()
    assert len(history) == state.turn + 1 and history[0] == (0, 0) and history[-1] == state.scores()
    copy = state.clone()
    copy.apply({s: copy.position(s) for s in copy.to_move()})
    assert len(copy.score_history()) == len(history) + 1 and state.score_history() == history


def test_items_are_drawn_on_their_cells():
    state = placed(OPEN_7, [(0, 0), (6, 6)])
    state.items = [(state.board.index(3, 3), "G"), (state.board.index(3, 5), "F"), (state.board.index(5, 1), "E")]
    renderer = RobotRenderer(GAME, {})
    surface = pygame.Surface((700, 700))
    renderer.draw(surface, pygame.Rect(0, 0, 700, 500), state, BoardView())
    floor = renderer.floor
    for item in state.item_list():
        centre = renderer.layout.cell_rect(item.x, item.y).center
        assert tuple(surface.get_at(centre))[:3] != floor
    empty = renderer.layout.cell_rect(1, 1).center
    assert tuple(surface.get_at(empty))[:3] == floor
    assert [i.kind for i in state.item_list()] == ["G", "F", "E"] and Item(3, 3, "G") in state.item_list()


def test_the_panel_can_be_hidden_and_then_the_board_uses_the_whole_rect():
    state = bot_game(2, 0, 5, "open-11")
    renderer = RobotRenderer(GAME, {})
    surface = pygame.Surface((1280, 720))
    renderer.draw(surface, surface.get_rect(), state, BoardView(show_coordinates=False))
    assert renderer.layout.grid_rect().right < 1280 * 0.72
    renderer.draw(surface, surface.get_rect(), state, BoardView(show_coordinates=False, highlights={"panel": False}))
    assert abs(renderer.layout.grid_rect().centerx - 640) <= 1
    renderer.draw(surface, pygame.Rect(0, 0, 600, 1000), state, BoardView(show_coordinates=False))
    assert renderer.layout.grid_rect().bottom < 1000 * 0.75
    renderer.draw(surface, pygame.Rect(0, 0, 600, 1000), state,
                  BoardView(show_coordinates=False, highlights={"panel": False}))
    assert abs(renderer.layout.grid_rect().centery - 500) <= 1


def test_panel_lines_say_what_each_robot_holds_and_why_it_left():
    state = placed(OPEN_7, [(3, 3), (0, 0), (6, 6)])
    renderer = RobotRenderer(GAME, {})
    state.robots[0].speed_turns = 3
    state.robots[1].oil_turns = 1
    assert renderer.status(state, 0) == ("Speed: 3 turns left", "G", False)
    assert renderer.status(state, 1) == ("Oil: 1 turn to use", "F", False)
    assert renderer.status(state, 2) == ("In play at 6 6", None, False)
    state.forfeit(2, __import__("games.api", fromlist=["Termination"]).Termination.TIMEOUT, "no answer")
    text, icon, bad = renderer.status(state, 2)
    assert bad and text.startswith("Out (turn 1):") and "no answer" in text
    assert renderer.headline(state)[0] == "Turn 1"


def test_the_chart_uses_a_whole_history_only():
    from games.robot.render import chart_history
    state = bot_game(2, 0, 8, "open-11")
    assert chart_history(state) == state.score_history() and len(chart_history(state)) == 9
    rebuilt = state_from_rows(list(state.board.rows), state.board.period, 2)    # as a turn-log reader does
    rebuilt.grid, rebuilt.turn = bytearray(state.grid), state.turn
    assert chart_history(rebuilt) == [state.scores()]
    renderer = RobotRenderer(GAME, {})
    renderer.draw(pygame.Surface((1280, 720)), pygame.Rect(0, 0, 1280, 720), rebuilt, BoardView())


def test_a_long_seat_name_stops_short_of_the_winners_star_and_no_line_leaves_the_panel(monkeypatch):
    """The panel's name line is cut before the star drawn beside a winner's score, not
    under it (a program's long path used to run into the star), and a winner line naming
    such a path is cut at the panel's edge, not drawn past it."""
    import games.robot.render as robot_render

    state = bot_game(2, seed=3, turns=400, map_name="rooms-17")
    assert state.finished and state.outcome().winners
    long_name = "/home/contest/entries/a-very-long-folder-name/build/release/robot_bot --fast"
    renderer = RobotRenderer(GAME, {}, seat_names=[long_name, long_name])
    texts, stars = [], []
    real_text, real_polygon = RobotRenderer._text, robot_render.pygame.draw.polygon

    def text(self, surface, shown, size, colour, x, y, *args, **kwargs):
        rect = real_text(self, surface, shown, size, colour, x, y, *args, **kwargs)
        texts.append((shown, rect))
        return rect

    def polygon(surface, colour, points, *args):
        if len(points) == 10:                       # a five-pointed star
            stars.append((min(x for x, _ in points), sum(y for _, y in points) / 10))
        return real_polygon(surface, colour, points, *args)

    monkeypatch.setattr(RobotRenderer, "_text", text)
    monkeypatch.setattr(robot_render.pygame.draw, "polygon", polygon)
    for size in RECTS[:3]:
        texts.clear(), stars.clear()
        renderer.draw(pygame.Surface(size), pygame.Rect((0, 0), size), state, BoardView())
        names = [rect for shown, rect in texts if shown.startswith(("A: ", "B: "))]
        assert stars and len(names) == 2, size
        for star_left, star_y in stars:
            row = [rect for rect in names if rect.top <= star_y <= rect.bottom]
            assert row and all(rect.right < star_left for rect in row), (size, names, stars)
        assert all(rect.right <= size[0] for _, rect in texts), [t for t in texts if t[1].right > size[0]]


@pytest.mark.parametrize("picture", [(640, 360), (960, 540), (1280, 720)])
def test_every_player_of_a_four_player_game_is_named_in_an_exported_picture(picture, monkeypatch):
    """An exported picture's board panel (a strip below the board at the smallest size)
    names all four players with their scores, and no line of it leaves the picture."""
    from pathlib import Path

    from games import registry
    from runner.records import open_replay
    from ui.snapshot import render_state, turn_caption

    replay = open_replay(Path(__file__).resolve().parents[2] / "replays" / "robot-sample.arena.jsonl")
    last = len(replay.states) - 1
    assert replay.states[last].players == 4 and replay.states[last].finished
    drawn = []
    real_text = RobotRenderer._text

    def text(self, surface, shown, size, colour, x, y, *args, **kwargs):
        rect = real_text(self, surface, shown, size, colour, x, y, *args, **kwargs)
        drawn.append((shown, rect))
        return rect

    monkeypatch.setattr(RobotRenderer, "_text", text)
    render_state(registry.plugin("robot"), replay.states[last], replay.header.get("options") or {},
                 replay.seat_names, picture, turn_caption(replay, last))
    names = {shown.split(":")[0] for shown, _ in drawn}      # "A" or "A: Bot 4 · strongest"
    assert {"A", "B", "C", "D"} <= names, drawn
    scores = [str(score) for score in replay.states[last].scores()]
    assert all(score in [shown for shown, _ in drawn] for score in scores)
    assert all(0 <= rect.left and rect.right <= picture[0] and rect.bottom <= picture[1] for _, rect in drawn)
