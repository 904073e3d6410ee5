"""The newcomers' issue, driven as a user would: default clocks, resign, keys, seat clocks."""
import time
from functools import partial

import pygame

from games import registry
from runner.match import Match
from runner.seats import make_seat
import ui_helpers
from ui_helpers import click, press, pump, wait_until

HEX = registry.plugin("hex")
ROBOT = registry.plugin("robot")


#: A match screen at the pace the match comes with (these tests never set it).
open_match = partial(ui_helpers.open_match, full_speed=False)


def start_from_form(home, game):
    """Home -> Play on ``game`` -> Start match with the form's defaults."""
    button = next(b for b, e in home.scene.play_buttons.items() if e.name == game)
    click(home, button)
    form = home.scene
    assert type(form).__name__ == "NewMatchScene" and form.error == ""
    click(home, form.start_button)
    scene = home.scene
    assert type(scene).__name__ == "MatchScene"
    return scene


# ---------------------------------------------------------------- default clocks
def test_a_person_is_untimed_by_default_while_the_bot_keeps_the_contest_clock(home):
    scene = start_from_form(home, "hex")
    match = scene.match
    assert [s.kind for s in match.seats] == ["human", "bot"]
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    snap = match.snapshot()
    assert snap.time_left[0] is None, "the person has no game clock"
    assert snap.time_left[1] == 20.0, "the program keeps the contest's 20 s"
    lines = scene.player_lines()
    assert lines[0].clock_note == "used" and "left" in lines[1].clock_note
    match.stop()


def test_the_clock_stops_while_how_to_play_is_open(home):
    match = Match(HEX, HEX.new_game().spec.resolve_options(None, {"size": 5}),
                  [make_seat("human", HEX, 0), make_seat("bot:1", HEX, 1)], seed=2)
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    asked = time.monotonic()
    click(home, scene.howto_button)
    assert type(home.scene).__name__ == "HowToScene"
    time.sleep(1.0)                                   # reading, not thinking
    pump(home)
    click(home, home.scene.back_button)
    assert home.scene is scene
    pump(home)
    held = match.snapshot().held[0]
    assert held >= 1.0, held
    assert scene.try_move("c3")
    assert wait_until(home, lambda: len(scene.snap.turns) >= 1)
    charged = match.snapshot().time_used[0]
    assert charged <= time.monotonic() - asked - 1.0, "the time under How to play is not charged"
    match.stop()


# ---------------------------------------------------------------- resign
def test_resign_in_robot_asks_then_takes_the_person_out(home):
    options = ROBOT.new_game().spec.resolve_options(None, {"players": 3})
    match = Match(ROBOT, options, [make_seat("human", ROBOT, 0), make_seat("bot:1", ROBOT, 1),
                                   make_seat("bot:1", ROBOT, 2)], seed=4)
    match.seats[0].label = "Anna"
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    assert scene.resign_button.is_enabled
    click(home, scene.resign_button)
    assert scene.resign_button.text == "Confirm" and "Anna" in scene.message
    time.sleep(0.2)
    pump(home)
    assert len(match.snapshot().turns) == 0, "one press does not resign"
    click(home, scene.resign_button)
    assert wait_until(home, lambda: len(match.snapshot().turns) >= 1)
    turn = match.snapshot().turns[0]
    assert turn.forfeits[0]["reason"] == "resignation"
    assert wait_until(home, lambda: not match.snapshot().state.robots[0].in_game)
    match.stop()


# ---------------------------------------------------------------- keys
def hint_pixels(app, scene) -> int:
    strip = scene.key_hint_rect()
    app.draw()
    area = app.window.subsurface(strip)
    background = app.theme.background
    return sum(1 for x in range(0, strip.width, 2) for y in range(0, strip.height, 2)
               if area.get_at((x, y))[:3] != background[:3])


def test_the_keys_are_shown_on_a_persons_turn_in_every_game(home):
    for plugin in registry.all_plugins():
        game = plugin.new_game()
        if not plugin.bot or not plugin.renderer:
            continue
        options = game.spec.resolve_options(None, {})
        count = game.seats_for(options)
        seats = [make_seat("human", plugin, 0)] + [make_seat("bot:1", plugin, i) for i in range(1, count)]
        scene = open_match(home, Match(plugin, options, seats, seed=1))
        assert wait_until(home, lambda: scene.view.human_seat == 0), plugin.name
        hint = scene.key_hint()
        if plugin.name == "crosswords":       # no pointer to move: one draws from a pile first
            assert "pile" in hint and "Draw first" in hint, hint
        else:
            assert "arrow" in hint.lower() and "Enter" in hint, (plugin.name, hint)
        assert hint_pixels(home, scene) > 50, f"{plugin.name}: the keys are drawn under the board"
        assert scene.key_hint_rect().top >= scene.board_rect().bottom
        scene.match.stop()
        home.pop()


def test_robot_keys_after_placement_name_shift_and_space(home):
    options = ROBOT.new_game().spec.resolve_options(None, {"players": 2})
    match = Match(ROBOT, options, [make_seat("human", ROBOT, 0), make_seat("bot:1", ROBOT, 1)], seed=4)
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    assert "Click an open cell" in scene.key_hint()
    state = scene.snap.state
    cell = next((x, y) for x in range(state.board.height) for y in range(state.board.width)
                if state.is_open(x, y))
    assert scene.try_move(f"{cell[0]} {cell[1]}")
    assert wait_until(home, lambda: len(scene.snap.turns) == 1 and scene.view.human_seat == 0)
    hint = scene.key_hint()
    assert "Shift+arrow" in hint and "Space: stay" in hint
    match.stop()


def test_robot_howto_and_the_new_match_help_mention_the_keys(home):
    from ui.scenes.new_match import SEAT_HINTS
    assert "Shift+arrow" in " ".join(SEAT_HINTS) and "arrow keys" in SEAT_HINTS[0]
    text = ROBOT.howto_text()
    assert "Shift + arrow" in text and "Space" in text and "python main.py" not in text


# ---------------------------------------------------------------- seat clocks
def test_a_seat_that_answered_stops_its_clock_in_a_simultaneous_turn(home):
    options = ROBOT.new_game().spec.resolve_options(None, {"players": 4})
    match = Match(ROBOT, options, [make_seat("human", ROBOT, 0)]
                  + [make_seat("bot:1", ROBOT, i) for i in (1, 2, 3)], seed=6)
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    assert wait_until(home, lambda: match.snapshot().pending == (0,)), "the bots have answered"
    time.sleep(0.7)                                   # the person thinks
    pump(home)
    lines = scene.player_lines()
    assert lines[0].clock >= "0:00.6"
    for bot in lines[1:]:
        assert bot.clock == "0:00.0" and not bot.to_move, bot
    assert lines[0].to_move
    press(home, pygame.K_ESCAPE)          # Back asks first; the match is stopped on leaving
    match.stop()


# ---------------------------------------------------------------- a program that does not exist
def test_a_program_seat_whose_command_does_not_exist_is_reported_on_the_form(home, tmp_path):
    from ui.scenes.new_match import kind_label
    button = next(b for b, e in home.scene.play_buttons.items() if e.name == "hex")
    click(home, button)
    form = home.scene
    kind_menu = form.seat_widgets[1]["kind"]
    click(home, kind_menu)                                   # open the seat's kind menu
    option = next(b for b in kind_menu.current_state.options_selection_list.item_list_container.elements
                  if b.text == kind_label("ext"))
    click(home, option)
    assert form.seats[1].kind == "ext"
    entry = form.seat_widgets[1]["command"]
    click(home, entry)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="./no-such-player"))
    pump(home)
    assert form.error == "Player 2 (rows): ./no-such-player: no such file"
    assert form.error_label.text == form.error and not form.start_button.is_enabled
    click(home, form.start_button)
    assert home.scene is form, "no match starts"
    script = tmp_path / "player.py"
    script.write_text("")
    click(home, entry)
    press(home, pygame.K_END, frames=1)
    for _ in range(len("./no-such-player")):
        press(home, pygame.K_BACKSPACE, frames=1)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=f"python3 {script}"))
    pump(home)
    assert form.error == "" and form.start_button.is_enabled


# ---------------------------------------------------------------- watching at a pace
def test_a_watched_match_plays_at_a_pace_that_can_be_changed(home):
    from ui.scenes.match import WATCH_PACE
    options = ROBOT.new_game().spec.resolve_options(None, {"players": 4})
    match = Match(ROBOT, options, [make_seat("bot:1", ROBOT, i) for i in range(4)], seed=5)
    scene = open_match(home, match)
    assert scene.pace_menu is not None and scene.pace_menu.selected_option[0] == f"{WATCH_PACE} / s"
    assert not scene.undo_button.visible
    wait_until(home, lambda: False, timeout=1.5)
    played = len(match.snapshot().turns)
    assert 2 <= played <= 1.5 * float(WATCH_PACE) + 2, played
    click(home, scene.pause_button)                      # pause, then one turn at a time
    held = len(match.snapshot().turns)
    wait_until(home, lambda: False, timeout=0.6)
    assert len(match.snapshot().turns) <= held + 1
    held = len(match.snapshot().turns)
    click(home, scene.step_button)
    assert wait_until(home, lambda: len(match.snapshot().turns) == held + 1)
    click(home, scene.pause_button)                      # resume, as fast as it goes
    menu = scene.pace_menu
    click(home, menu)
    fastest = next(b for b in menu.current_state.options_selection_list.item_list_container.elements
                   if b.text == "max")
    click(home, fastest)
    assert scene.pace == "max"
    assert wait_until(home, lambda: scene.finished, timeout=20)
    assert scene.replay_button.visible and not scene.pace_menu.visible


def test_a_person_s_match_has_undo_and_no_pace(home):
    match = Match(HEX, HEX.new_game().spec.resolve_options(None, {"size": 5}),
                  [make_seat("human", HEX, 0), make_seat("bot:1", HEX, 1)], seed=2)
    scene = open_match(home, match)
    assert scene.pace_menu is None and scene.undo_button.visible
    match.stop()


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
    scene = open_match(home, hex_match)
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
    scene = open_match(home, match)
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


# ---------------------------------------------------------------- the options, in plain words
def pick(app, menu, text):
    click(app, menu)
    item = next(b for b in menu.current_state.options_selection_list.item_list_container.elements
                if b.text == text)
    click(app, item)


def test_robot_options_are_plain_words_a_map_menu_and_a_checkbox_and_are_remembered(home):
    from pygame_gui.elements import UICheckBox
    from ui.scenes.new_match import FROM_FILE
    button = next(b for b, e in home.scene.play_buttons.items() if e.name == "robot")
    click(home, button)
    form = home.scene
    names = {o.name: w for w, o in form.option_widgets.items()}
    assert "map_name" not in names, "options the arena sets are never shown"
    home.draw()
    map_menu = names["map"]
    items = map_menu.options_list
    assert ("rooms-17", "rooms-17") in items and items[-1][0] == FROM_FILE
    pick(home, map_menu, "rooms-17")
    assert form.option_texts["map"] == "rooms-17"
    respawn = names["respawn"]
    assert isinstance(respawn, UICheckBox) and not respawn.is_checked
    click(home, respawn)
    assert form.option_texts["respawn"] == "on" and form.error == ""
    pick(home, form.variant_menu, "3 players")
    assert len(form.seats) == 3
    click(home, form.start_button)
    scene = home.scene
    assert type(scene).__name__ == "MatchScene"
    assert scene.match.options["respawn"] == "on" and scene.match.options["map_name"] == "rooms-17"
    scene.match.stop()
    home.pop()
    button = next(b for b, e in home.scene.play_buttons.items() if e.name == "robot")
    click(home, button)
    again = home.scene
    assert again.variant == "3 players" and again.option_texts == {"map": "rooms-17", "respawn": "on"}
    names = {o.name: w for w, o in again.option_widgets.items()}
    assert names["respawn"].is_checked and names["map"].selected_option[0] == "rooms-17"
    pick(home, names["map"], FROM_FILE)
    assert again.dialog is not None and "map" in again.dialog.window_display_title.lower()


def test_hex_labels_say_what_and_in_which_unit(home):
    from ui.scenes.new_match import NewMatchScene, option_label
    form = home.push(NewMatchScene(home, game="hex"))
    pump(home)
    labels = [option_label(o) for o in form.visible_options()]
    assert "Board size (cells a side)" in labels and "Program's game clock (s)" in labels
    swap = next(w for w, o in form.option_widgets.items() if o.name == "swap")
    click(home, swap)
    assert form.option_texts["swap"] == "True" and form.resolved_options()["swap"] is True


# ---------------------------------------------------------------- Home: records, samples, quitting
def test_a_first_time_user_is_offered_a_sample_of_every_built_game(home):
    scene = home.scene
    assert not home.settings.recent_records
    texts = [b.text for b in scene.recent_buttons]
    for _ in range(len(scene.records()[0])):     # more samples than rows: the list scrolls
        scene.scroll_recent(1)
        pump(home)
        texts += [b.text for b in home.scene.recent_buttons if b.text not in texts]
    scene.recent_first = 0
    scene.relayout()
    pump(home)
    titles = [e.title for e in scene.entries if e.available]
    for title in titles:
        assert any(t.startswith(f"Sample: {title}  ·  ") for t in texts), (title, texts)
    robot = next(b for b in scene.recent_buttons if "Robot" in b.text)
    assert "Bot 4 · strongest vs Bot 3 · territory vs Bot 2 · painter vs Bot 1 · random" in robot.text
    assert "after 111 turns" in robot.text
    click(home, robot)
    assert type(home.scene).__name__ == "ReplayView" and home.scene.replay.game == "robot"


def test_recent_records_say_game_players_result_date_scroll_and_keep_stopped_matches(home, tmp_path):
    from runner.match import default_record_path
    match = Match(HEX, HEX.new_game().spec.resolve_options(None, {"size": 5}),
                  [make_seat("human", HEX, 0), make_seat("bot:1", HEX, 1)], seed=2,
                  record_path=default_record_path(tmp_path, "hex"))
    match.seats[0].label = "Anna"
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    press(home, pygame.K_ESCAPE)
    press(home, pygame.K_ESCAPE)                     # Back twice: the match stops, Home again
    assert type(home.scene).__name__ == "HomeScene"
    match.join(5)
    home.scene.relayout()
    pump(home)
    first = next(iter(home.scene.recent_buttons))
    assert first.text.startswith("Hex  ·  Anna vs Bot 1 · random  ·  Stopped after 0 turns  ·  ")
    for index in range(12):                          # a dozen more: the list scrolls
        home.settings.add_recent(__import__("pathlib").Path(__file__).parents[2] / "replays"
                                 / ("robot-sample.arena.jsonl" if index % 2 else "hex-sample.arena.jsonl"))
        copy = tmp_path / f"r{index}.arena.jsonl"
        copy.write_text((__import__("pathlib").Path(__file__).parents[2] / "replays"
                         / "hex-sample.arena.jsonl").read_text())
        home.settings.add_recent(copy)
    home.scene.relayout()
    pump(home)
    home_scene = home.scene
    shown = [b.text for b in home_scene.recent_buttons]
    assert home_scene.recent_first == 0 and len(shown) == home_scene.recent_rows()
    pygame.mouse.set_pos(home.size[0] // 2, home.size[1] - 20)
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
    pump(home)
    assert home_scene.recent_first == 1
    press(home, pygame.K_PAGEDOWN)
    assert home_scene.recent_first == 1 + home_scene.recent_rows()


def test_ctrl_q_and_home_s_quit_button_leave_the_app(home):
    click(home, home.scene.quit_button)
    assert not home.running
    home.running = True
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=pygame.KMOD_LCTRL,
                                         unicode="q", scancode=0))
    pump(home)
    assert not home.running


def test_a_hex_win_names_the_real_edges(home):
    match = Match(HEX, HEX.new_game().spec.resolve_options(None, {"size": 5}),
                  [make_seat("bot:1", HEX, 0), make_seat("bot:1", HEX, 1)], seed=2)
    scene = open_match(home, match)
    match.set_pace(None)
    assert wait_until(home, lambda: scene.finished, timeout=20)
    detail = match.outcome.detail
    assert detail in ("Player 1 connected columns a and e", "Player 2 connected rows 1 and 5"), detail
    assert "N" not in detail


# ---------------------------------------------------------------- export: save as
def test_export_asks_where_remembers_the_folder_and_says_where(home, tmp_path):
    from ui.scenes.replay import ReplayScene
    home.push(ReplayScene(home, path=str(__import__("pathlib").Path(__file__).parents[2]
                                         / "replays" / "hex-sample.arena.jsonl")))
    pump(home)
    view = home.scene
    target = tmp_path / "my exports"
    target.mkdir()
    (button,) = [b for b, text in view.extra_buttons.items() if text == "Export"]
    click(home, button)
    dialog = view.export_dialog
    assert dialog is not None and "folder" in dialog.window_display_title
    dialog.current_directory_path = str(target)         # as if the person walked there
    dialog.current_file_path = target
    click(home, dialog.ok_button)
    assert view.export_dialog is None
    written = sorted(p.name for p in target.iterdir())
    assert len(written) == 2 and all(n.startswith("hex-sample-") for n in written), written
    assert any(n.endswith(".sgf") for n in written) and any(n.endswith("HEX.OUT") for n in written)
    assert home.settings.export_folder == str(target)
    line = view.status_bar_lines()[0]
    assert line.startswith(f"Exported to {target}: ") and view.status_bar_rect() is not None
    (button,) = [b for b, text in view.extra_buttons.items() if text == "Export"]
    click(home, button)                                  # the next time it opens there
    assert __import__("pathlib").Path(view.export_dialog.current_directory_path) == target


def test_after_an_export_the_bottom_line_sits_below_the_transport_bar(home, tmp_path):
    from ui.scenes.replay import ReplayScene
    home.push(ReplayScene(home, path=str(__import__("pathlib").Path(__file__).parents[2]
                                         / "replays" / "hex-sample.arena.jsonl")))
    pump(home)
    view = home.scene
    view.export(tmp_path)
    pump(home)
    bar = view.status_bar_rect()
    lowest = max(b.rect.bottom for b in view.transport)
    assert lowest <= bar.top and view.slider.rect.bottom <= bar.top
    assert view.speed_menu.rect.bottom <= bar.top


def test_file_dialog_rows_are_readable_in_the_light_theme(home):
    from games.render import LIGHT, luminance
    from ui.theme import gui_theme
    row = gui_theme(LIGHT, 1.0)["file_dialog.#file_display_list.#file_list_item"]["colours"]
    bg = tuple(int(row["normal_bg"][i:i + 2], 16) for i in (1, 3, 5))
    text = tuple(int(row["normal_text"][i:i + 2], 16) for i in (1, 3, 5))
    assert luminance(bg) > 0.7 and luminance(text) < 0.3, row


# ---------------------------------------------------------------- whole texts
def test_a_typed_move_error_and_the_resign_question_are_shown_whole(home):
    match = Match(HEX, HEX.new_game().spec.resolve_options(None, {"size": 5}),
                  [make_seat("human", HEX, 0), make_seat("bot:1", HEX, 1)], seed=2)
    match.seats[0].label = "Annabelle-Marguerite"
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    click(home, scene.move_entry)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="z77 is where I would like to play please"))
    pump(home)
    press(home, pygame.K_RETURN)
    assert scene.message, "the typed move is refused"
    for message in (scene.message, None):
        if message is None:
            click(home, scene.resign_button)
            message = scene.message
            assert "Annabelle-Marguerite" in message
        lines = scene.status_lines()
        shown = " ".join(text for text, _, colour in lines if colour == home.theme.bad)
        assert "…" not in shown and " ".join(message.split()) in shown, (message, lines)
        bottom = scene.players_rect().bottom + scene.px(2) + sum(face.get_linesize() for _, face, _ in lines)
        assert bottom <= scene.resign_button.rect.top, "the lines stay above the controls"
    match.stop()


def test_game_over_status_fits(home):
    match = Match(ROBOT, ROBOT.new_game().spec.resolve_options(None, {"players": 2}),
                  [make_seat("bot:1", ROBOT, i) for i in range(2)], seed=3,
                  record_path=__import__("runner.match", fromlist=["x"]).default_record_path(
                      __import__("runner.paths", fromlist=["x"]).records_dir(), "robot"))
    scene = open_match(home, match)
    match.set_pace(None)
    assert wait_until(home, lambda: scene.finished, timeout=20)
    lines = [text for text, _, _ in scene.status_lines()]
    assert " ".join(lines).startswith(f"Game over after {len(match.turns)} turns") and "…" not in " ".join(lines)


def test_a_program_seat_card_keeps_its_label_clear_of_the_clock_note(home):
    from games.render import font
    from ui.panels import PlayerLine, draw_players
    theme, scale = home.theme, 1.0
    rect = pygame.Rect(0, 0, 440, 60)
    big, small = font(24, bold=True), font(15)
    top = rect.centery - 3 - (big.get_linesize() + small.get_linesize() + 2) // 2
    band = range(top + big.get_linesize() + 2, top + big.get_linesize() + 2 + small.get_linesize())

    def columns(player):
        surface = pygame.Surface(rect.size)
        surface.fill(theme.background)
        draw_players(surface, rect, [player], theme, scale)
        return {x for x in range(rect.width) for y in band
                if surface.get_at((x, y))[:3] not in (theme.panel[:3], theme.background[:3])
                and x > 60}

    def player(label, score, note):
        return PlayerLine("Player 2 (rows)", label, (200, 150, 0), "0:20.0", note, score)

    note_left = min(columns(player("", "", "left · 0:00.0 used")))
    full = columns(player("./a_contest_program_with_a_long_name --level 9", "0", "left · 0:00.0 used"))
    assert max(x for x in full if x < note_left) < note_left - 6, "label and note overlap"


# ---------------------------------------------------------------- How to play
def test_how_to_play_renders_tables_lists_and_emphasis_not_raw_markdown(home):
    for plugin in registry.all_plugins():
        button = next((b for b, e in home.scene.howto_buttons.items() if e.name == plugin.name), None)
        if button is None:
            continue
        click(home, button)
        page = home.scene
        assert type(page).__name__ == "HowToScene"
        html = page.box.html_text
        for raw in ("| --- |", "**", "`", "# ", "\n- "):
            assert raw not in html, (plugin.name, raw)
        assert "python main.py" not in page.text, plugin.name
        if plugin.name == "xiangqi":
            assert ("<b>General (K) <font face=xiangqi_pieces>將</font> / "
                    "<font face=xiangqi_pieces>帥</font></b> — one point up") in html
            assert "<b>palace</b>" in html
        if plugin.name == "robot":
            assert "\u2003\u2003– <b>G</b> (speed)" in html
        click(home, page.back_button)


# ---------------------------------------------------------------- tooltips
def hover_tooltip(app, button):
    pos = button.rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.mouse.set_pos(pos)
    assert wait_until(app, lambda: button.tool_tip is not None, timeout=4), "no tooltip appeared"
    return button.tool_tip


def test_tooltips_fit_their_text_and_sit_by_their_control(arena_home):
    from ui.app import App
    from ui.scenes.home import HomeScene
    from ui.settings import Settings
    for size in ((1280, 720), (3840, 2160)):
        app = App(Settings(), size=size, fullscreen=False)
        try:
            app.push(HomeScene(app))
            pump(app)
            match = Match(HEX, HEX.new_game().spec.resolve_options(None, {"size": 5}),
                          [make_seat("human", HEX, 0), make_seat("bot:1", HEX, 1)], seed=2)
            scene = open_match(app, match)
            for button in (scene.flip_button, scene.resign_button, scene.toggle_buttons and
                           next(iter(scene.toggle_buttons))):
                tip = hover_tooltip(app, button)
                box = tip.text_block
                rows = len(box.text_box_layout.layout_rows)
                short = len(box.html_text) < 40      # short tips on one line, longer on two, whole words
                assert rows == 1 if short else rows <= 2, (size, button.text, box.rect, rows)
                assert app.window.get_rect().contains(tip.rect), (size, tip.rect)
                gap = max(0, tip.rect.top - button.rect.bottom, button.rect.top - tip.rect.bottom)
                assert gap < app.px(40) and tip.rect.x > 0, (size, tip.rect, button.rect)
                pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(1, 1), rel=(0, 0),
                                                     buttons=(0, 0, 0)))
                pygame.mouse.set_pos((1, 1))
                assert wait_until(app, lambda: button.tool_tip is None, timeout=2)
            match.stop()
        finally:
            app.close()


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
    scene = open_match(home, match)
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


def test_a_bad_map_error_is_shown_whole_on_the_form(home, tmp_path):
    from ui.scenes.new_match import NewMatchScene
    bad = tmp_path / "my_own_map_with_a_rather_long_name_for_the_contest.txt"
    bad.write_text("5 5 1\n.....\n.###.\n.#.#.\n.###.\n.....\n")
    form = home.push(NewMatchScene(home, game="robot"))
    form.option_texts["map"] = str(bad)
    form.relayout()
    pump(home)
    assert form.error and not form.start_button.is_enabled
    lines = form.error_lines()
    assert " ".join(lines) == " ".join(form.error.split()) and "…" not in " ".join(lines), lines
    from games.render import font
    face = font(form.px(17), bold=True)
    assert all(face.size(line)[0] <= form.px(form.dw - 340) for line in lines)
    assert form.px(40) + max(face.size(line)[0] for line in lines) < form.start_button.rect.left
