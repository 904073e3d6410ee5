"""The replay screen: the speed menu and the track, a quick seek in a long record, controls
scaled at 4K, the diff legend, and whole event lines and names."""
import pygame

from games import registry
from games.render import font
from runner.match import Match
from runner.seats import make_seat
from ui.game_texts import rules_text

from ui_helpers import click, open_sample, pump


# ---------------------------------------------------------------- replay: menus and the slider
def test_the_replay_speed_menu_opens_inside_the_window_and_the_track_jumps(home):
    from ui.scenes.replay import ReplayScene
    from ui_helpers import click_at
    home.push(ReplayScene(home, path=str(__import__("pathlib").Path(__file__).parents[2]
                                         / "replays" / "hex-sample.arena.jsonl")))
    pump(home)
    view = home.scene
    menu = view.speed_menu
    click(home, menu)
    listed = menu.current_state.options_selection_list.rect
    assert listed.top >= 0 and listed.bottom <= home.size[1], listed
    click(home, next(b for b in menu.current_state.options_selection_list.item_list_container.elements
                     if b.text == "8 / s"))
    assert view.speed == "8"
    slider = view.slider
    left, right = slider.left_button.rect.right, slider.right_button.rect.left
    knob = slider.sliding_button.rect.width
    click_at(home, (left + knob / 2 + 0.75 * (right - left - knob), slider.rect.centery))
    assert abs(view.index - round(0.75 * view.last)) <= 1, (view.index, view.last)
    assert slider.get_current_value() == view.index


def test_at_4k_the_slider_and_menu_arrows_are_scaled(arena_home):
    from ui.app import App
    from ui.scenes.home import HomeScene
    from ui.scenes.replay import ReplayScene
    from ui.settings import Settings
    app = App(Settings(), size=(3840, 2160), fullscreen=False)
    try:
        app.push(HomeScene(app))
        app.push(ReplayScene(app, path=str(__import__("pathlib").Path(__file__).parents[2]
                                          / "replays" / "hex-sample.arena.jsonl")))
        pump(app)
        view = app.scene
        assert view.slider.left_button.rect.width >= app.px(20)
        slider = view.slider
        left, right = slider.left_button.rect.right, slider.right_button.rect.left
        knob = slider.sliding_button.rect.width
        from ui_helpers import click_at
        click_at(app, (left + knob / 2 + 0.5 * (right - left - knob), slider.rect.centery))
        assert abs(view.index - round(0.5 * view.last)) <= 1 and slider.get_current_value() == view.index
        click(app, slider.right_button)
        assert view.index == round(0.5 * view.last) + 1 or abs(view.index - round(0.5 * view.last)) <= 2
        font = app.manager.get_theme().get_font(["drop_down_menu.#expand_button", "drop_down_menu"])
        assert font.size("▼")[1] >= app.px(14)
    finally:
        app.close()


# ---------------------------------------------------------------- Find and read: a long replay's seek
def long_robot_replay():
    robot = registry.plugin("robot")
    options = robot.new_game().spec.resolve_options(None, {"players": 4, "map": "scatter-21",
                                                           "respawn": "on", "period": 21})
    match = Match(robot, options, [make_seat("bot:2", robot, i) for i in range(4)], seed=3)
    match.run()
    return match.as_replay()


def test_a_seek_to_the_end_of_a_long_robot_replay_at_4k_is_one_frame(arena_home, monkeypatch):
    """bench/screen_bench.py measures 10-12 ms of CPU (goal 16 ms); here: no font file is
    loaded letter by letter or size by size while seeking (the headline's fit loaded
    one font per pixel size, the names were cut one letter at a time), and the seek
    stays well inside a frame budget on a busy machine."""
    import time
    from games.render import theme
    from ui.app import App
    from ui.scenes.replay import ReplayScene
    from ui.settings import Settings
    replay = long_robot_replay()
    assert len(replay.turns) >= 222
    app = App(Settings(), size=(3840, 2160), fullscreen=False)
    try:
        app.push(ReplayScene(app, replay=replay))
        view = app.scene
        pump(app, 2)
        app.draw()
        loads = []
        real_font = pygame.font.Font
        monkeypatch.setattr(pygame.font, "Font", lambda *a: loads.append(a[1:]) or real_font(*a))
        best = None
        for _ in range(3):
            start = time.thread_time()
            view.go(view.last)
            app.draw()
            view.go(view.last - 1)
            app.draw()
            spent = (time.thread_time() - start) / 2
            best = spent if best is None else min(best, spent)
            view.go(0)
            app.draw()
        assert len(loads) <= 3, loads
        assert best < 0.05, f"a seek took {best * 1000:.0f} ms of CPU at 3840x2160"
    finally:
        app.close()


# ---------------------------------------------------------------- Find and read: replay legend, names
def test_the_diff_legend_stands_above_the_board_not_on_its_coordinates(home):
    for game, turn in (("hex", 20), ("robot", 60), ("xiangqi", 12)):
        view = open_sample(home, game, turn)
        view.toggle_diff()
        pump(home)
        home.draw()
        board, legend = view.board_rect(), view.legend_rect
        assert legend.bottom <= board.top, (game, legend, board)      # the column letters are in the board rect
        assert legend.top >= view.px(60) and legend.right <= board.right
        size_with = board.size
        view.go(turn + 1)
        home.draw()
        assert view.board_rect().size == size_with                    # stepping does not resize the board
        home.pop()


def test_a_robot_turns_event_in_the_move_list_is_whole_on_a_second_line(home):
    """'ring 4 sealed (shrink 2 of 5)' beside four moves is wider than the move list at
    1280×720: the row takes a second line for it, keeps its index, and nothing is cut."""
    view = open_sample(home, "robot", 12)
    turns = view.turns()
    evented = [i for i in range(1, len(turns) + 1) if turns[i - 1].events]
    assert evented
    moves = view.moves
    two = [i for i in evented if moves.lines_of(i) == 2]
    assert two, "no event took a second line"
    face = font(moves.size)
    for row in evented:
        assert not moves.is_cut(row), row
        event = rules_text(turns[row - 1].events[0].text)
        drawn = "".join(text for line in moves.spans[row] for text, _ in line)
        assert event in " ".join(drawn.split()), (event, drawn)
        room = moves.rect.width - 2 * (moves.size // 2) - moves.number_column(moves.rows[row])
        for line in moves.spans[row][1:]:
            assert sum(face.size(text)[0] for text, _ in line) <= room
    row = two[0]
    view.go(row)
    pump(home)
    below = moves.row_top(row + 1)
    assert below == moves.row_top(row) + 2 * moves.line_height()   # the next row starts under both lines
    assert moves.row_at((moves.rect.centerx, moves.row_top(row) + moves.line_height() + 2)) == row
    assert moves.row_at((moves.rect.centerx, below + 2)) == row + 1
    home.draw()
    home.pop()


def test_robot_panel_names_fit_smaller_before_they_are_cut(arena_home, monkeypatch):
    from games.robot import render as robot_render
    from ui.app import App
    from ui.settings import Settings
    shown = []
    real_text = robot_render.RobotRenderer._text
    monkeypatch.setattr(robot_render.RobotRenderer, "_text",
                        lambda self, surface, text, *a, **k: shown.append(text) or real_text(self, surface, text, *a, **k))
    for size in ((1280, 720), (3840, 2160)):
        app = App(Settings(), size=size, fullscreen=False)
        try:
            open_sample(app, "robot", 60)
            shown.clear()
            app.draw()
            names = [t for t in shown if t.startswith(("A: ", "B: ", "C: ", "D: "))]
            assert "A: Bot 4 · strongest" in names and "B: Bot 3 · territory" in names, (size, names)
        finally:
            app.close()
