"""A person plays a four-team 8x8 game against three bots from the window (headless):
choosing a zone and placing by clicks, then stepping each member by clicks."""
import os
from functools import partial

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from games.tamquan import PLUGIN  # noqa: E402
from games.tamquan.render import free_neighbours, board_after, waiting_members  # noqa: E402
from runner.match import Match  # noqa: E402
from runner.seats import HumanSeat, make_seat  # noqa: E402
import ui_helpers  # noqa: E402
from ui_helpers import click_at, pump  # noqa: E402


@pytest.fixture
def app(arena_home):
    from ui.app import App
    from ui.scenes.home import HomeScene
    from ui.settings import Settings
    shell = App(Settings(), size=(1280, 720), fullscreen=False)
    shell.push(HomeScene(shell))
    pump(shell)
    yield shell
    shell.close()


#: Up to 10 s for the bots' turns (generous on a loaded machine).
wait_until = partial(ui_helpers.wait_until, timeout=10.0)


def test_a_person_plays_four_teams_against_three_bots(app):
    from ui.scenes.match import MatchScene
    options = PLUGIN.new_game().spec.resolve_options("8x8-4teams", {"turn_limit": 8})
    seats = [HumanSeat(label="Anna")] + [make_seat(f"bot:{lv}", PLUGIN, lv) for lv in (1, 2, 3)]
    match = Match(PLUGIN, options, seats, seed=7)
    scene = app.push(MatchScene(app, match))
    pump(app)
    assert wait_until(app, lambda: scene.view.human_seat == 0)
    app.draw()
    layout = scene.renderer.layout
    # Setup: the first click takes zone 1 and places there; a click outside every free
    # zone does nothing; a second click on a placed piece lifts it.
    click_at(app, layout.cell_rect(4, 4).center)
    assert scene.renderer.pending.zone is None
    for cell in ((0, 0), (0, 1), (0, 1), (0, 1), (1, 0), (1, 1)):
        click_at(app, layout.cell_rect(*cell).center)
    assert scene.renderer.pending.cells == [(0, 0), (0, 1), (1, 0), (1, 1)]
    click_at(app, layout.cell_rect(2, 2).center)
    assert wait_until(app, lambda: len(scene.snap.turns) >= 4)
    assert scene.snap.turns[0].moves[0] == "zone 1: 0,0 0,1 1,0 1,1 2,2"
    for turn in range(2):
        assert wait_until(app, lambda: scene.view.human_seat == 0)
        state = scene.snap.state
        before = len(scene.snap.turns)
        app.draw()
        expected = []
        for _ in range(5):
            steps = scene.renderer.pending.steps
            waiting = waiting_members(state, 0, steps)
            if not waiting or scene.view.human_seat is None:
                break
            board = board_after(state, 0, steps)
            member = next((c for c in waiting if free_neighbours(state, board, c)), waiting[0])
            click_at(app, layout.cell_rect(*member).center)
            free = free_neighbours(state, board, member)
            if free:
                click_at(app, layout.cell_rect(*free[0]).center)
                expected.append(f"{member[0]},{member[1]}-{free[0][0]},{free[0][1]}")
        assert wait_until(app, lambda: len(scene.snap.turns) > before)
        played = scene.snap.turns[before]
        assert played.moves[0].startswith(" ".join(expected))
        assert "failure" not in played.answers[0]
        assert len(played.moves[0].split()) == 5
    match.stop()


def test_two_people_share_the_screen(app):
    from ui.scenes.match import MatchScene
    options = PLUGIN.new_game().spec.resolve_options("5x5-2teams", {"turn_limit": 4})
    match = Match(PLUGIN, options, [HumanSeat(label="Anna"), HumanSeat(label="Binh")], seed=1)
    scene = app.push(MatchScene(app, match))
    pump(app)
    assert wait_until(app, lambda: scene.view.human_seat == 0)
    app.draw()
    layout = scene.renderer.layout
    for cell in ((0, 0), (0, 1), (0, 2)):
        click_at(app, layout.cell_rect(*cell).center)
    assert wait_until(app, lambda: scene.view.human_seat == 1)
    app.draw()
    click_at(app, layout.cell_rect(0, 3).center)          # zone 1 is taken: nothing happens
    assert scene.renderer.pending.cells == []
    for cell in ((4, 2), (4, 3), (4, 4)):
        click_at(app, layout.cell_rect(*cell).center)
    assert wait_until(app, lambda: len(scene.snap.turns) == 2 and scene.view.human_seat == 0)
    assert [t.moves for t in scene.snap.turns] == [{0: "zone 1: 0,0 0,1 0,2"},
                                                   {1: "zone 2: 4,2 4,3 4,4"}]
    # Team A: 0,0 steps down, 0,1 down, 0,2 right.
    app.draw()
    for a, b in (((0, 0), (1, 0)), ((0, 1), (1, 1)), ((0, 2), (0, 3))):
        click_at(app, layout.cell_rect(*a).center)
        click_at(app, layout.cell_rect(*b).center)
    assert wait_until(app, lambda: len(scene.snap.turns) == 3 and scene.view.human_seat == 1)
    assert scene.snap.turns[2].moves == {0: "0,0-1,0 0,1-1,1 0,2-0,3"}
    match.stop()


def key(code):
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)


def test_the_keyboard_places_and_steps_without_a_window():
    from games.render import BoardView
    from games.tamquan.render import TamQuanRenderer
    from games.tamquan.rules import TamQuanGame
    pygame.init()
    game = TamQuanGame()
    state = game.new_initial_state(game.spec.resolve_options("5x5-2teams"), 0)
    renderer = TamQuanRenderer(game, {}, [])
    surface = pygame.Surface((800, 500))
    view = BoardView(human_seat=0)
    renderer.draw(surface, surface.get_rect(), state, view)
    assert renderer.handle_event(key(pygame.K_RIGHT), state, view) is None
    assert view.hover == (0, 0)                     # the first press shows the pointer
    answer = None
    for code in (pygame.K_SPACE, pygame.K_RIGHT, pygame.K_RETURN, pygame.K_RIGHT, pygame.K_SPACE):
        answer = renderer.handle_event(key(code), state, view)
    assert answer == "zone 1: 0,0 0,1 0,2"
    state.play({0: game.parse_move(answer)})
    state.play({1: game.parse_move("zone 2: 4,0 4,1 4,2")})
    view = BoardView(human_seat=0)
    renderer.draw(surface, surface.get_rect(), state, view)
    texts = [renderer.handle_event(key(code), state, view) for code in (
        pygame.K_UP,                                 # pointer on 0,0
        pygame.K_SPACE, pygame.K_DOWN, pygame.K_SPACE,          # 0,0 -> 1,0
        pygame.K_UP, pygame.K_RIGHT, pygame.K_SPACE, pygame.K_DOWN, pygame.K_SPACE,   # 0,1 -> 1,1
        pygame.K_UP, pygame.K_RIGHT, pygame.K_SPACE, pygame.K_DOWN, pygame.K_SPACE)]  # 0,2 -> 1,2
    assert texts[-1] == "0,0-1,0 0,1-1,1 0,2-1,2" and not any(texts[:-1])
