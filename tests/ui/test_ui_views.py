"""Match and Replay screens: banner bar, Flip, board animation, move notations, Robot by keys."""
import time

import pygame
import pytest

from games import registry
from games.replay import Replay
from runner.match import Match
from runner.seats import Answer, HumanSeat, Seat, make_seat
from ui_helpers import click, click_at, open_match, press, pump, wait_until

HEX = registry.plugin("hex")
XIANGQI = registry.plugin("xiangqi")
ROBOT = registry.plugin("robot")


class ScriptedSeat(Seat):
    """Plays the given move texts in order (then the first legal move), after a short pause."""

    kind = "bot"

    def __init__(self, moves=(), delay: float = 0.01):
        super().__init__("scripted", "Scripted")
        self.moves, self.delay = list(moves), delay

    def ask(self, state, seat, time_limit):
        time.sleep(self.delay)
        if self.moves:
            return Answer(text=self.moves.pop(0), elapsed=self.delay)
        return Answer(move=sorted(state.legal_moves(seat), key=str)[0], elapsed=self.delay)


def open_replay(app, replay: Replay):
    from ui.scenes.replay import ReplayScene
    app.push(ReplayScene(app, replay=replay))
    pump(app)
    assert type(app.scene).__name__ == "ReplayView"
    return app.scene


def xiangqi_replay(moves) -> Replay:
    options = XIANGQI.new_game().spec.resolve_options(None, {})
    match = Match(XIANGQI, options, [ScriptedSeat(moves[0::2]), ScriptedSeat(moves[1::2])])
    for _ in moves:
        match._next_turn()
    return match.as_replay()


def text_pixels(surface: pygame.Surface, rect: pygame.Rect, colour: tuple) -> int:
    """How many pixels in ``rect`` have exactly ``colour`` (glyph cores of text drawn in it)."""
    rect = rect.clip(surface.get_rect())
    pixels = pygame.PixelArray(surface)
    try:
        mapped = surface.map_rgb(colour)
        return sum(1 for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)
                   if pixels[x, y] == mapped)
    finally:
        pixels.close()


# ---------------------------------------------------------------- the banner
def test_the_matchs_banner_stays_on_show_in_a_status_bar(home):
    seats = [HumanSeat(label="Anna"), ScriptedSeat()]
    options = HEX.new_game().spec.resolve_options(None, {"size": 5, "time_total": 0})
    match = Match(HEX, options, seats, seed=3)
    match.banner = "Trang Co 2.5 - Nguyen Van A\nHa Noi, Viet Nam"
    scene = open_match(home, match)
    assert scene.status_bar_lines() == ["Trang Co 2.5 - Nguyen Van A", "Ha Noi, Viet Nam"]
    bar = scene.status_bar_rect()
    width, height = home.size
    assert bar.bottom == height and bar.width == width and bar.height >= 2 * 20   # two legible lines
    assert scene.board_rect().bottom <= bar.top and scene.moves.rect.bottom <= bar.top
    assert all(w.rect.bottom <= bar.top for w in scene.root.elements if w.visible)

    def lines_drawn() -> list[int]:
        home.draw()
        line = scene.px(24)
        top = bar.top + scene.px(10)
        return [text_pixels(home.window, pygame.Rect(0, top + i * line, width, line), home.theme.text)
                for i in range(2)]

    assert all(count > 100 for count in lines_drawn()), "both banner lines are drawn"
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    home.draw()
    click_at(home, scene.renderer.layout.centre(3, 3))     # the person plays: still on show
    assert wait_until(home, lambda: len(scene.snap.turns) >= 2)
    assert all(count > 100 for count in lines_drawn())
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    click(home, scene.resign_button)
    click(home, scene.resign_button)             # confirmed
    assert wait_until(home, lambda: scene.finished)
    assert scene.status_bar_rect() == bar and all(count > 100 for count in lines_drawn())


def test_a_long_sandbox_warning_wraps_in_the_bar_instead_of_being_cut(home, monkeypatch):
    """The basic sandbox's warning names everything it leaves open, which is wider than
    a 1280-pixel window: it takes more rows of the bar, none cut with an ellipsis."""
    from games.render import font
    options = HEX.new_game().spec.resolve_options(None, {"size": 5, "time_total": 0})
    match = Match(HEX, options, [ScriptedSeat(), ScriptedSeat()], seed=3)
    warning = ("WARNING: basic sandbox (asked for): no namespaces: it sees every process; UDP "
               "and Unix sockets are open; own uid: /root cannot be reached by other users "
               "(install bubblewrap for the strict sandbox)")
    monkeypatch.setattr(match, "sandbox_line", lambda: warning)
    scene = open_match(home, match)
    rows = scene.status_bar_rows()
    width = home.size[0] - 2 * scene.px(20)
    assert len(rows) >= 2, "the warning does not fit one row at 1280x720"
    assert " ".join(text for text, _ in rows) == warning, "every word is on show, none elided"
    assert all(font(scene.px(17), bold=True).size(text)[0] <= width for text, _ in rows)
    bar = scene.status_bar_rect()
    assert bar.height >= len(rows) * scene.px(24) and scene.board_rect().bottom <= bar.top
    scene.match.stop()


def test_without_a_banner_there_is_no_bar(home):
    options = HEX.new_game().spec.resolve_options(None, {"size": 5, "time_total": 0})
    scene = open_match(home, Match(HEX, options, [ScriptedSeat(), ScriptedSeat()], seed=3))
    assert scene.status_bar_rect() is None
    assert scene.moves.rect.bottom == home.size[1] - scene.px(20)
    scene.match.stop()


# ---------------------------------------------------------------- flip
def test_f_and_the_flip_button_turn_the_board_on_match_and_replay(home):
    view = open_replay(home, xiangqi_replay(["H2E2", "H9G7"]))
    home.draw()
    corner = view.renderer.layout.centre_of("A0")
    press(home, pygame.K_f)
    assert view.view.flipped
    home.draw()
    turned = view.renderer.layout.centre_of("A0")
    assert turned[0] > corner[0] and turned[1] < corner[1]     # Red's left corner is now top right
    click(home, view.flip_button)
    assert not view.view.flipped
    home.pop()
    pump(home)

    seats = [ScriptedSeat(), HumanSeat(label="Anna")]
    scene = open_match(home, Match(XIANGQI, XIANGQI.new_game().spec.resolve_options(None, {}), seats))
    assert wait_until(home, lambda: scene.view.human_seat == 1)
    press(home, pygame.K_f)                            # the board takes keys while a person moves
    assert scene.view.flipped
    click(home, scene.move_entry)                      # typing "f" in the move box does not flip
    press(home, pygame.K_f, unicode="f")
    assert scene.view.flipped
    click(home, scene.flip_button)
    assert not scene.view.flipped
    scene.match.stop()


# ---------------------------------------------------------------- animation
def run_for(app, seconds: float) -> None:
    """The real loop (blocking waits) for ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.frame()


@pytest.fixture(scope="module")
def robot_replay() -> Replay:
    options = ROBOT.new_game().spec.resolve_options(None, {"players": 4, "map": "open-11"})
    seats = [make_seat("bot:1", ROBOT, seed) for seed in range(4)]
    match = Match(ROBOT, options, seats, seed=5)
    match.run()
    return match.as_replay()


def test_robot_marks_animate_for_a_moment_then_the_screen_is_idle(home, robot_replay):
    from ui.scenes.board_scene import ANIMATION_FRAME, SETTLE
    view = open_replay(home, robot_replay)
    marked = [i for i, s in enumerate(robot_replay.states) if view.renderer.animates(s)]
    still = [i for i, s in enumerate(robot_replay.states) if not view.renderer.animates(s)]
    assert marked and still
    view.go(still[0])
    run_for(home, 0.3)
    home.last_input = -1e9                 # no tooltip wake-ups: only the board may ask for frames
    view.go(marked[0])
    start_time, start_frames = view.view.time, home.frames_drawn
    run_for(home, 0.5)
    assert 0.4 < view.view.time - start_time < 0.7, "view.time follows the loop's clock"
    assert home.frames_drawn - start_frames >= 8, "the marks pulse: the board redraws"
    assert view.wake_interval() <= ANIMATION_FRAME
    run_for(home, SETTLE)                  # a paused replay settles after a second
    assert view.wake_interval() is None
    settled = home.frames_drawn
    run_for(home, 0.5)
    assert home.frames_drawn == settled, "a settled screen does not redraw"
    view.go(still[-1])                     # an unmarked state never asks for frames
    assert view.wake_interval() is None


def test_a_playing_replay_animates_throughout(home, robot_replay):
    view = open_replay(home, robot_replay)
    view.speed = "0.5"
    view.set_playing(True)
    marked = next(i for i, s in enumerate(robot_replay.states) if view.renderer.animates(s))
    view.index = marked
    view.shown_at = time.monotonic() - 10          # long after the change: still in motion
    assert view.animating() and view.wake_interval() <= 1 / 30


# ---------------------------------------------------------------- notation
def move_list_text(scene) -> list[str]:
    return ["".join(t for t, _ in row) for row in scene.moves.rows]


def choose_in_dropdown(app, menu, option: str) -> None:
    """Open a pygame_gui drop-down with a click and click one of its options."""
    click(app, menu)
    items = menu.current_state.options_selection_list.item_list
    button = next(item["button_element"] for item in items if item["text"] == option)
    click(app, button)


def test_settings_switch_the_xiangqi_move_list_to_wxf(home):
    from games.xiangqi.notation import wxf_history
    replay = xiangqi_replay(["H2E2", "H9G7", "H0G2"])
    view = open_replay(home, replay)
    rows = move_list_text(view)
    assert "H2E2" in rows[1] and "H9G7" in rows[2]        # ICCS by default
    click(home, home.scene.back_button)
    pump(home)
    click(home, home.scene.settings_button)
    settings = home.scene
    menu = next(m for m, game in settings.notation_menus.items() if game == "xiangqi")
    choose_in_dropdown(home, menu, "WXF")
    click(home, settings.apply_button)
    assert home.settings.notations == {"xiangqi": "WXF"}
    home.pop()
    pump(home)
    view = open_replay(home, replay)
    rows = move_list_text(view)
    assert wxf_history(replay.states[-1]) == ["C2=5", "H8+7", "H2+3"]
    assert "C2=5" in rows[1] and "H8+7" in rows[2] and "H2+3" in rows[3]
    assert not any("H2E2" in row for row in rows)
    home.pop()
    hex_view = open_replay(home, Match(HEX, HEX.new_game().spec.resolve_options(None, {"size": 5}),
                                       [ScriptedSeat(["c3"]), ScriptedSeat(["b2"])]).as_replay())
    assert hex_view.renderer.notations == ()          # games without a choice show their texts


# ---------------------------------------------------------------- Robot: a person's seat
def test_a_person_plays_four_player_robot_by_keys_with_a_countdown(home):
    from games.robot.render import key_target
    options = ROBOT.new_game().spec.resolve_options(None, {"players": 4, "map": "open-11",
                                                           "human_time_per_move": 30})
    seats = [HumanSeat(label="Anna")] + [make_seat("bot:1", ROBOT, seed) for seed in (1, 2, 3)]
    match = Match(ROBOT, options, seats, seed=7)
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    line = scene.player_lines()[0]
    assert line.clock_note.startswith("to move")
    assert line.clock == "0:30.0" or line.clock.startswith("0:2")    # 30 s, counting down
    state = scene.snap.state
    assert state.placing(0)
    home.draw()
    cell = next((x, y) for x in range(state.board.height) for y in range(state.board.width)
                if state.is_open(x, y) and 3 <= x <= 7 and 3 <= y <= 7)
    click_at(home, scene.renderer.layout.cell_rect(*cell).center)     # placing: a click
    assert wait_until(home, lambda: len(scene.snap.turns) == 1, timeout=10)
    assert scene.snap.turns[0].moves[0] == f"{cell[0]} {cell[1]}"
    assert len(scene.snap.turns[0].moves) == 4                         # four robots at once
    keys = {pygame.K_UP: (-1, 0), pygame.K_DOWN: (1, 0), pygame.K_LEFT: (0, -1), pygame.K_RIGHT: (0, 1)}
    for _ in range(3):
        if scene.snap.outcome is not None or 0 not in scene.snap.state.to_move():
            break
        assert wait_until(home, lambda: match.human_waiting() == (0,) and scene.view.human_seat == 0,
                          timeout=10)
        turn, state = len(scene.snap.turns), scene.snap.state
        key, target = next((k, key_target(state, 0, step)) for k, step in keys.items()
                           if key_target(state, 0, step) is not None)
        press(home, key, frames=1)
        # Level-1 bots answer at once, so the next turn may already be asking the person.
        assert scene.view.human_seat is None or len(scene.snap.turns) > turn, \
            f"one move per turn ({scene.message!r})"
        if len(scene.snap.turns) == turn:
            press(home, key)                                            # a second press is ignored
        assert wait_until(home, lambda: len(scene.snap.turns) > turn, timeout=10)
        assert scene.snap.turns[turn].moves[0] == f"{target[0]} {target[1]}"
        assert "failure" not in (scene.snap.turns[turn].answers.get(0) or {})
    assert len(scene.snap.turns) >= 3
    match.stop()


# ---------------------------------------------------------------- How to play text
def test_a_list_items_wrapped_lines_join_into_one_bullet():
    from ui.scenes.howto import markdown_to_html
    html = markdown_to_html("Intro line one\nline two.\n\n- **First** item that\n  goes on.\n- Second.\n\nAfter.",
                            28, 18)
    assert "Intro line one line two.<br><br>" in html
    assert "• <b>First</b> item that goes on.<br>• Second.<br>" in html
    assert html.endswith("After.<br><br>")
