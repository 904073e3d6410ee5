"""The match screen's log lines and status lines say what happened, once; the debug panels
leave the board the main thing and wrap long lines."""
import pygame

from games import registry
from runner.match import Match
from runner.seats import make_seat

from ui_helpers import click, open_match, pump, wait_until

HEX = registry.plugin("hex")
ROBOT = registry.plugin("robot")


# ---------------------------------------------------------------- log lines
def test_log_lines_say_what_happened(home, tmp_path):
    from ui.scenes.replay import ReplayScene
    options = ROBOT.new_game().spec.resolve_options(None, {"players": 2})
    match = Match(ROBOT, options, [make_seat("bot:1", ROBOT, i) for i in range(2)], seed=3,
                  record_path=tmp_path / "r.arena.jsonl", out_dir=tmp_path / "out")
    match.run()
    log = next(p for p in match.written if p.name.endswith(".turnlog.json"))
    home.push(ReplayScene(home, path=str(log)))
    pump(home)
    view = home.scene
    assert type(view).__name__ == "ReplayView", getattr(view, "error", "")
    view.go(5)
    click(home, next(b for b, s in view.toggle_buttons.items() if s == 0))
    text = view.debug_text(0)
    turn = view.replay.turns[4]          # the organizers number turns from 0 (placement)
    assert text.startswith(f"Turn {turn.number}: A played {turn.moves[0]}.") and "did not move" not in text
    home.pop()
    # a person's seat on the bot's turn: the bot moved, the person had no move
    hex_match = Match(HEX, HEX.new_game().spec.resolve_options(None, {"size": 5}),
                      [make_seat("human", HEX, 0), make_seat("bot:1", HEX, 1)], seed=2)
    scene = open_match(home, hex_match, full_speed=False)
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    assert scene.try_move("c3")
    assert wait_until(home, lambda: len(scene.snap.turns) == 2 and scene.view.human_seat == 0)
    click(home, next(b for b, s in scene.toggle_buttons.items() if s == 0))
    scene.select(2)
    assert scene.debug_text(0) == ("Turn 2: Player 2 (rows) moved; Player 1 (columns) had no move "
                                   "this turn.")
    hex_match.stop()


def test_the_debug_panel_leaves_the_board_the_main_thing(home):
    match = Match(HEX, HEX.new_game().spec.resolve_options(None, {"size": 5}),
                  [make_seat("bot:1", HEX, 0), make_seat("bot:1", HEX, 1)], seed=2)
    scene = open_match(home, match, full_speed=False)
    before = scene.board_rect()
    click(home, next(b for b, s in scene.toggle_buttons.items() if s == 0))
    after = scene.board_rect()
    assert scene.debug_area() is not None and after.height >= 0.65 * before.height
    assert scene.debug_area().top > after.bottom          # the wide rhombus keeps the width
    match.stop()


def drawn_box(scene, rect):
    """The bounding box of what the board's renderer draws in ``rect``."""
    surface = pygame.Surface(scene.app.size)
    surface.fill((255, 0, 255))
    scene.renderer.draw(surface, rect, scene.board_state(), scene.view)
    mask = pygame.mask.from_threshold(surface, (255, 0, 255), (1, 1, 1, 255))
    mask.invert()
    boxes = mask.get_bounding_rects()
    return boxes[0].unionall(boxes[1:])


def test_a_tall_board_keeps_its_size_with_the_debug_panel_beside_it(home):
    from ui.scenes.replay import ReplayScene
    home.push(ReplayScene(home, path=str(__import__("pathlib").Path(__file__).parents[2]
                                         / "replays" / "xiangqi-sample.arena.jsonl")))
    pump(home)
    view = home.scene
    before = drawn_box(view, view.board_rect())
    click(home, next(b for b, s in view.toggle_buttons.items() if s == 0))
    after = drawn_box(view, view.board_rect())
    panel = view.debug_area()
    assert after.width * after.height >= 0.9 * before.width * before.height, (before, after)
    assert panel.left > after.right and panel.height >= view.board_rect().height * 0.95
    assert panel.width >= view.px(300)
    assert view.debug_lists[0].rect == panel


def test_the_debug_panels_take_the_side_that_leaves_the_board_bigger():
    from ui.scenes.board_scene import split_for_debug
    area = pygame.Rect(20, 72, 790, 528)
    board, panel, side = split_for_debug(area, 0.9, 300, 158, 10)          # Xiangqi: tall
    assert side == "beside" and board.height == 528 and panel.width >= 300
    assert board.right + 10 == panel.left and panel.right == area.right
    board, panel, side = split_for_debug(area, 1.5, 300, 158, 10)          # Hex: wide
    assert side == "below" and board.width == 790 and panel.height >= 158
    assert board.bottom + 10 == panel.top and panel.bottom == area.bottom
    board, panel, side = split_for_debug(pygame.Rect(0, 0, 600, 900), 1.0, 300, 270, 10)
    assert side == "below"                                                # a tall window


def test_status_lines_say_things_once(home):
    from ui.scenes.replay import ReplayScene
    home.push(ReplayScene(home, path=str(__import__("pathlib").Path(__file__).parents[2]
                                         / "replays" / "robot-sample.arena.jsonl")))
    pump(home)
    view = home.scene
    view.go(56)
    assert view.status_text().startswith("Turn 56 of 111 · next shrink") and view.status_text().count("56") == 1
    home.pop()
    match = Match(HEX, HEX.new_game().spec.resolve_options(None, {"size": 5}),
                  [make_seat("human", HEX, 0), make_seat("bot:1", HEX, 1)], seed=2)
    match.seats[0].label = "Anna"
    scene = open_match(home, match, full_speed=False)
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    assert scene.status_text() == "Your move, Anna · Player 1 (columns) · move 1"
    match.stop()


def test_the_debug_panel_wraps_a_long_verdict_line(home):
    from games.render import font
    from games.replay import TurnInfo
    from ui.panels import ScrollList, debug_rows
    detail = ("illegal move (MOVE.OUT line 1): 17 4 is not a cell the robot can reach from 3 3 this "
              "turn; the referee keeps the robot where it stands")
    turn = TurnInfo(number=7, moves={0: "3 3"}, answers={0: {"failure": "illegal-move", "detail": detail,
                                                              "elapsed": 0.01}})
    panel = ScrollList(follow_end=False, mono=True, wrap=True, size=15)
    panel.rect = pygame.Rect(0, 0, 320, 200)
    panel.set_rows(debug_rows(turn, 0, "A", home.theme))
    face = font(15, mono=True)
    for row in panel.rows:
        assert sum(face.size(t)[0] for t, _ in row) <= 320 - 15 - 8, row
    shown = " ".join("".join(t for t, _ in row).strip() for row in panel.rows)
    assert " ".join(detail.split()) in " ".join(shown.split())
