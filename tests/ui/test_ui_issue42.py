"""Issue 42, what a newcomer still hit: each point checked on the screen it was seen on."""
import pygame

from games import registry
from runner.match import Match
from runner.seats import HumanSeat, make_seat
from games.render import font
from ui.game_texts import rules_text
from ui_helpers import pump, wait_until

ROBOT = registry.plugin("robot")


def open_match(app, match):
    from ui.scenes.match import MatchScene
    scene = app.push(MatchScene(app, match))
    match.set_pace(None)
    pump(app)
    return scene


# ---------------------------------------------------------------- Play: Robot's person clock
def test_a_person_plays_robot_untimed_by_default():
    options = ROBOT.new_game().spec.resolve_options(None, {})
    assert float(options["human_time_per_move"]) == 0
    hex_default = registry.plugin("hex").new_game().spec.resolve_options(None, {})
    assert float(hex_default["human_time_total"]) == 0          # the same as the other games


def test_a_persons_time_out_in_robot_is_said_in_full(home):
    options = ROBOT.new_game().spec.resolve_options(None, {"players": 4, "human_time_per_move": 0.3})
    seats = [HumanSeat(label="Anna")] + [make_seat("bot:1", ROBOT, i) for i in (1, 2, 3)]
    match = Match(ROBOT, options, seats, seed=7)
    scene = open_match(home, match)
    assert wait_until(home, lambda: len(scene.snap.turns) >= 1, timeout=10)
    pump(home)
    match.pause()                       # a busy machine may play more turns meanwhile
    pump(home)
    message = scene.message
    said = __import__("re").match(r"Time ran out for Anna \(A\) on turn (\d+) after 0\.\d s\. (.+)\.$", message)
    assert said, message
    if said.group(1) == "1":            # the first move: placed at random, and where
        assert "A was placed at random on (" in message, message
    else:
        assert "The referee played" in message, message
    home.draw()
    lines = [text for text, face, _colour in scene.status_lines() if face.get_bold() is False]
    assert " ".join(lines).startswith("Time ran out for Anna (A) on turn ")
    assert not any(line.endswith("…") for line in lines), lines    # in full, wrapped
    status = [text for text, face, _colour in scene.status_lines() if face.get_bold()]
    assert not any(line.endswith("…") for line in status), status  # the status is not cut for it
    row = scene.moves.rows[1]
    assert any("time-out" in text for text, _colour in row)      # the move list says so too
    words = "".join(text for text, _colour in row)
    assert "-1 -1" not in words, words                          # the placed cell, not the code
    placed = __import__("re").search(r"time-out: random (\d+) (\d+)", words)
    assert placed, words
    assert tuple(int(v) for v in placed.groups()) in [tuple(e.squares[0]) for e in scene.turns()[0].events
                                                     if e.kind == "placement"]
    match.stop()


def test_a_random_placement_reads_as_its_cell_in_the_move_list():
    from games.api import Event
    from games.replay import TurnInfo
    from games.robot.render import RobotRenderer
    game = ROBOT.new_game()
    renderer = RobotRenderer(game, game.spec.resolve_options(None, {}))
    turns = [TurnInfo(1, {0: "-1 -1", 1: "3 4"}, events=(Event("placement", "A was placed at random on (7, 9)",
                                                                   (0,), ((7, 9),)),)),
             TurnInfo(2, {0: "7 10", 1: "-1 -1"})]
    assert renderer.move_labels(None, turns, None) == [{0: "random 7 9", 1: "3 4"}, {0: "7 10", 1: "random cell"}]


# ---------------------------------------------------------------- Play: illegal clicks say why
def person_against_bot(game_name, options, person_seat=0, bot="bot:1"):
    plugin = registry.plugin(game_name)
    resolved = plugin.new_game().spec.resolve_options(None, options)
    seats = [make_seat(bot, plugin, 3) for _ in range(plugin.new_game().seats_for(resolved))]
    seats[person_seat] = HumanSeat(label="Anna")
    return Match(plugin, resolved, seats, seed=5)


def click_board(app, scene, pos):
    from ui_helpers import click_at
    scene.message = ""
    click_at(app, (round(pos[0]), round(pos[1])))


def test_clicking_an_occupied_hex_cell_says_why(home):
    match = person_against_bot("hex", {"size": 5, "time_total": 0}, person_seat=1)
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 1, timeout=10)
    home.draw()
    state = scene.snap.state
    taken = next((r, c) for r in range(1, 6) for c in range(1, 6)
                 if scene.renderer.layout.cell_at(*scene.renderer.layout.centre(r, c)) == (r, c)
                 and state.look(r, c) == 1)
    # the bot's first stone may be swapped (pie rule): first take the swap off the table
    scene.try_move(next(m.text() for m in state.legal_moves(1) if not m.is_swap and m.text() != "swap"))
    assert wait_until(home, lambda: scene.view.human_seat == 1 and len(scene.snap.turns) == 3, timeout=10)
    home.draw()
    click_board(home, scene, scene.renderer.layout.centre(*taken))
    assert "is occupied" in scene.message and scene.message_is_error
    assert len(scene.snap.turns) == 3                 # nothing was played
    match.stop()


def test_clicking_an_illegal_xiangqi_target_says_why(home):
    match = person_against_bot("xiangqi", {"time_total": 0})
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 0, timeout=10)
    home.draw()
    layout = scene.renderer.layout
    click_board(home, scene, layout.centre_of("B0"))          # the horse
    assert scene.view.selected == "B0" and scene.message == ""
    click_board(home, scene, layout.centre_of("B5"))
    assert "horse cannot move from B0 to B5" in scene.message, scene.message
    click_board(home, scene, layout.centre_of("E5"))          # nothing picked up
    assert "Pick up one of your pieces first" in scene.message
    assert not scene.snap.turns
    match.stop()


def test_clicking_outside_the_tam_quan_zones_says_why(home):
    match = person_against_bot("tamquan", {})
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 0, timeout=10)
    home.draw()
    state = scene.snap.state
    outside = next((r, c) for r in range(state.layout.size) for c in range(state.layout.size)
                   if not any((r, c) in zone for zone in state.layout.zones))
    click_board(home, scene, scene.renderer.layout.cell_rect(*outside).center)
    assert "is outside the free zones" in scene.message and scene.message_is_error
    match.stop()


# ---------------------------------------------------------------- Play: Crossed Words
def test_crossed_words_title_hint_and_tile_text_sizes(home, monkeypatch):
    import games.crosswords.render as words_render
    from ui.catalog import game_title
    plugin = registry.plugin("crosswords")
    assert game_title("crosswords") == plugin.new_game().spec.title == "Crossed Words Solitaire"
    match = Match(plugin, plugin.new_game().spec.resolve_options(None, {}), [HumanSeat(label="Anna")], seed=4)
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 0, timeout=10)
    assert scene.title_text() == "Crossed Words Solitaire"
    assert scene.key_hint().startswith("Anna: Draw first")              # not "Click a cell to play there"
    sizes = []
    real_font = words_render.font
    monkeypatch.setattr(words_render, "font", lambda size, **kw: sizes.append(size) or real_font(size, **kw))
    home.draw()
    layout = scene.renderer.layout
    pile_tile = layout.piles[0][0][0]
    assert pile_tile.height >= 24                     # room for a letter and its value at 1280x720
    assert min(sizes) >= 10, sorted(set(sizes))       # pile letters, tile values, labels: no 6-9 px text
    match.stop()


# ---------------------------------------------------------------- Find and read: How to play
def test_how_to_play_opens_at_4k_within_a_third_of_a_second_of_cpu(arena_home):
    """It took 2-5 s of CPU at 3840x2160 (the text box's rounded background was drawn
    supersampled); the goal is 0.3 s, checked here with room for a slow machine."""
    import time
    from ui.app import App
    from ui.scenes.home import HomeScene
    from ui.scenes.howto import HowToScene
    from ui.settings import Settings
    app = App(Settings(), size=(3840, 2160), fullscreen=False)
    try:
        app.push(HomeScene(app))
        pump(app, 2)
        best = None
        for _ in range(3):                    # the best of three: a busy machine's hiccups
            start = time.thread_time()
            app.push(HowToScene(app, registry.plugin("robot")))
            app.frame(block=False)
            app.draw()
            spent = time.thread_time() - start
            best = spent if best is None else min(best, spent)
            app.pop()
            if best < 0.6:
                break
        assert best < 0.6, f"How to play took {best:.2f} s of CPU at 3840x2160"
    finally:
        app.close()


def test_how_to_play_says_it_is_opening_and_drops_clicks_made_meanwhile(home, monkeypatch):
    from ui_helpers import click
    notes = []
    real_note = home.show_note
    monkeypatch.setattr(home, "show_note", lambda note: notes.append(note) or real_note(note))
    button = next(b for b, entry in home.scene.howto_buttons.items() if entry.name == "hex")
    click(home, button)
    assert type(home.scene).__name__ == "HowToScene"
    assert notes == ["Opening How to play…"]
    box = real_note("Opening How to play…")
    assert box.width < home.window.get_width() and box.collidepoint(home.window.get_rect().center)


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


# ---------------------------------------------------------------- Find and read: samples, Recent
def test_the_samples_stay_one_click_away_after_a_first_match(home, tmp_path):
    from ui.scenes.home import sample_records
    from ui_helpers import click
    record = tmp_path / "mine.arena.jsonl"
    record.write_text("{}\n", encoding="utf-8")
    home.settings.add_recent(record)
    home.scene.relayout()
    pump(home)
    scene = home.scene
    assert list(scene.recent_buttons.values()) == [str(record)]
    assert scene.switch_button is not None and scene.switch_button.text == "Show sample records"
    click(home, scene.switch_button)
    shown = list(home.scene.recent_buttons.values())
    assert shown and set(shown) <= {str(p) for p in sample_records()}
    assert home.scene.switch_button.text == "Show recent records"
    heading_right = home.scene.switch_button.rect.left
    assert heading_right < home.window.get_width()
    click(home, home.scene.switch_button)
    assert list(home.scene.recent_buttons.values()) == [str(record)]


def test_open_replay_has_one_click_buttons_for_the_records_and_the_samples(home):
    from ui.scenes.home import sample_records
    from ui_helpers import click
    click(home, home.scene.open_button)
    dialog = home.scene.dialog
    labels = {button.text: folder for button, folder in dialog.shortcut_buttons.items()}
    assert set(labels) == {"Recent records", "Sample records"}
    sample_button = next(b for b, f in dialog.shortcut_buttons.items() if f == sample_records()[0].parent)
    click(home, sample_button)
    assert dialog.current_directory_path == str(sample_records()[0].parent.resolve())
    assert sample_button.rect.bottom <= dialog.rect.bottom and not sample_button.rect.colliderect(dialog.ok_button.rect)


def test_a_match_stopped_before_its_first_move_goes_to_the_end_of_recent_records(home, tmp_path):
    hexp = registry.plugin("hex")
    options = hexp.new_game().spec.resolve_options(None, {"size": 5, "time_total": 0})
    match = Match(hexp, options, [HumanSeat(label="Anna"), make_seat("bot:1", hexp, 1)], seed=1,
                  record_path=tmp_path / "first.arena.jsonl")
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 0, timeout=10)
    home.settings.add_recent(SAMPLES / "hex-sample.arena.jsonl")
    home.pop()
    assert match.record_path.exists()                      # the record is written all the same
    assert home.settings.recent_records[-1].endswith("first.arena.jsonl")
    assert home.settings.recent_records[0].endswith("hex-sample.arena.jsonl")
    match = Match(hexp, options, [HumanSeat(label="Anna"), make_seat("bot:1", hexp, 1)], seed=1,
                  record_path=tmp_path / "second.arena.jsonl")
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 0, timeout=10)
    scene.try_move("c3")
    assert wait_until(home, lambda: len(scene.snap.turns) >= 1, timeout=10)
    home.pop()
    assert home.settings.recent_records[0].endswith("second.arena.jsonl")   # played: first in the list


# ---------------------------------------------------------------- Find and read: replay legend, names
SAMPLES = __import__("pathlib").Path(__file__).resolve().parents[2] / "replays"


def open_sample(app, game, turn):
    from ui.scenes.replay import ReplayScene
    app.push(ReplayScene(app, path=str(SAMPLES / f"{game}-sample.arena.jsonl")))
    view = app.scene
    view.go(turn)
    pump(app)
    return view


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


# ---------------------------------------------------------------- Find and read: disabled buttons
def test_disabled_buttons_look_disabled_in_both_themes():
    """A disabled button lies flat on the window: its fill is not brighter than the
    window (in the light theme the panel colour made Step and Undo the brightest
    buttons on screen) and its words are fainter than an enabled button's."""
    from games.render import THEMES, luminance
    from ui.theme import gui_theme

    def colour(text):
        text = text.lstrip("#")
        return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))

    for name, theme in THEMES.items():
        colours = gui_theme(theme, 1.0)["defaults"]["colours"]
        fill, normal = colour(colours["disabled_bg"]), colour(colours["normal_bg"])
        assert luminance(fill) <= luminance(theme.background) + 0.01, name
        assert abs(luminance(fill) - luminance(theme.background)) < abs(luminance(normal) - luminance(theme.background)) + 0.01
        faint = abs(luminance(colour(colours["disabled_text"])) - luminance(fill))
        plain = abs(luminance(colour(colours["normal_text"])) - luminance(normal))
        assert faint < 0.6 * plain, (name, faint, plain)


def test_a_programs_long_command_keeps_its_file_name_when_shortened(home):
    from games.robot.render import RobotRenderer, short_command
    assert short_command("A: python3 games/robot/examples/greedy.py --depth 3") == "A: python3 …/greedy.py --depth 3"
    assert short_command("Bot 4 · strongest") == "Bot 4 · strongest"
    plugin = registry.plugin("robot")
    from runner.setup import load_option_files
    options = plugin.new_game().spec.resolve_options(None, {"map": "open-11", "players": 2})
    options, _files = load_option_files(plugin, plugin.new_game(), options)
    state = plugin.new_game().new_initial_state(options, 1)
    renderer = RobotRenderer(plugin.new_game(), options, ["python3 games/robot/examples/greedy.py --depth 3",
                                                          "./examples/painter_bot"])
    shown = []
    real_text = renderer._text
    renderer._text = lambda surface, text, *a, **k: shown.append(text) or real_text(surface, text, *a, **k)
    surface = pygame.Surface((620, 420))
    from games.render import BoardView
    renderer.draw(surface, surface.get_rect(), state, BoardView())
    names = [t for t in shown if t.startswith(("A: ", "B: "))]
    assert any("greedy.py" in t for t in names), names


# ---------------------------------------------------------------- New match: whole help, choices fit (en, vi)
def test_new_match_descriptions_are_whole_and_choices_fit_their_menus(home):
    from games.render import font, wrap
    from runner.i18n import _, set_language
    from ui.scenes.new_match import OPTION_W, NewMatchScene, choice_text
    try:
        for code in ("en", "vi"):
            set_language(code)
            for game in ("xiangqi", "robot", "hex", "tamquan"):
                form = home.push(NewMatchScene(home, game=game))
                pump(home)
                help_face = font(form.px(14))
                for option in form.visible_options():
                    lines = wrap(help_face, _(option.help), form.help_width())
                    if game in ("xiangqi", "robot") and len(lines) <= 3:    # room for these
                        assert not form.help_is_cut(option), (code, option.name, lines)
                    for choice in option.choices or ():
                        room = form.px(OPTION_W) - form.px(40)          # the arrow and the padding
                        text = choice_text(choice)
                        assert font(form.px(18)).size(text)[0] <= room, (code, game, text)
                home.pop()
            form = home.push(NewMatchScene(home, game="xiangqi"))
            from ui.seat_settings import ENGINE_FIELDS, field_unit_label
            depth = field_unit_label(ENGINE_FIELDS[1], _)
            assert depth == ("Depth (plies)" if code == "en" else "Độ sâu (nửa nước)"), depth
            home.pop()
    finally:
        set_language("en")


# ---------------------------------------------------------------- Vietnamese
def test_a_stopped_matchs_result_reads_in_vietnamese():
    from games.api import Outcome, Termination
    from runner.i18n import set_language
    from ui.panels import result_text
    try:
        set_language("vi")
        text = result_text(Outcome((), (0.0, 0.0), Termination.ABORTED, "the match was stopped"), str)
        assert "the match was stopped" not in text and "ván đã bị dừng" in text, text
    finally:
        set_language("en")


def test_settings_follow_a_live_language_switch_and_keep_default_names_default(home, arena_home):
    import json
    from ui.scenes.settings import SettingsScene
    from ui_helpers import click
    scene = home.push(SettingsScene(home))
    pump(home)
    assert [e.get_text() for e in scene.name_entries] == ["", "", "", ""]     # defaults are hints
    scene.language = "vi"
    click(home, scene.apply_button)
    scene = home.scene
    labels = [e.placeholder_text for e in scene.name_entries]
    assert labels[0] == "Người chơi 1", labels                              # at once, no restart
    texts = [w.text for w in scene.root.elements if hasattr(w, "text") and isinstance(w.text, str)]
    assert "Ký hiệu Cờ tướng" in texts and not any("Xiangqi notation" in t for t in texts), texts
    scene.names[1] = "Người chơi 2"                   # a default typed in: still the default
    scene.language = "en"
    click(home, scene.apply_button)
    scene = home.scene
    assert [e.placeholder_text for e in scene.name_entries][0] == "Player 1"
    assert any("Xiangqi notation" == w.text for w in scene.root.elements if hasattr(w, "text"))
    saved = json.loads((arena_home / "settings.json").read_text(encoding="utf-8")) if (arena_home / "settings.json").exists() else None
    names = home.settings.names
    assert names == ["Player 1", "Player 2", "Player 3", "Player 4"], names
    assert home.settings.name(1) == "Player 2"
    home.settings.names[0] = "Người chơi 1"           # written by an older version: a default too
    assert home.settings.name(0) == "Player 1"
    assert saved is None or "Người chơi" not in json.dumps(saved, ensure_ascii=False)


def test_default_name_hints_in_settings_are_drawn_faint_not_as_typed_text(home, arena_home):
    """A default seat name is a placeholder: drawn in the theme's disabled-text colour,
    while a typed name (and the line being typed in) takes the text colour."""
    from ui.scenes.settings import SettingsScene
    from ui.theme import palette
    for theme in ("dark", "light"):
        home.set_theme(theme)
        scene = home.push(SettingsScene(home))
        pump(home)
        colours = palette(home.theme)
        faint, ink = pygame.Color(*colours["disabled_text"]), pygame.Color(*colours["text"])
        hint, typed = scene.name_entries[0], scene.name_entries[1]
        assert hint.get_text() == "" and hint.placeholder_text == "Player 1"
        assert hint.text_colour == faint, (theme, hint.text_colour, faint)
        typed.set_text("Anna")
        pump(home)
        assert typed.text_colour == ink and hint.text_colour == faint
        home.draw()
        area = hint.get_abs_rect()
        seen = {tuple(home.window.get_at((x, y)))[:3] for x in range(area.left, area.right, 1)
                for y in range(area.top, area.bottom, 2)}
        assert faint[:3] in seen and ink[:3] not in seen, theme          # the hint's letters are faint
        hint.focus()
        pump(home)
        assert hint.text_colour == ink                                   # typing: real text colour
        home.pop()
    home.set_theme("dark")


def test_vietnamese_settings_say_saved_clear_of_the_clear_button(home):
    from runner.i18n import set_language
    from ui.scenes.settings import SettingsScene
    try:
        set_language("vi")
        home.settings.language = "vi"
        scene = home.push(SettingsScene(home))
        pump(home)
        scene.apply()
        pump(home)
        assert scene.message_label.text == "Đã lưu."
        assert not scene.message_label.rect.colliderect(scene.clear_button.rect)
        assert not scene.message_label.rect.colliderect(scene.apply_button.rect)
        assert home.window.get_rect().contains(scene.message_label.rect)
    finally:
        set_language("en")


def test_a_window_grown_past_its_display_is_moved_back_onto_it(home, monkeypatch):
    class FakeWindow:
        position, size = (900, 400), (1920, 1080)
    window = FakeWindow()
    monkeypatch.setattr(pygame, "Window", type("FakeWindowType", (), {"from_display_module": staticmethod(lambda: window)}))
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(2560, 1440), (1920, 1080)])
    assert home.keep_on_display() == (640, 360)          # right and bottom edges on the first display
    window.position, window.size = (2700, 100), (1280, 720)
    assert home.keep_on_display() is None                # already whole on the second display
    window.position = (4000, 500)
    assert home.keep_on_display() == (2560 + 1920 - 1280, 360)


def test_a_vietnamese_tooltip_keeps_its_last_word_on_its_line(home):
    from runner.i18n import set_language
    try:
        set_language("vi")
        home.set_language("vi")
        view = open_sample(home, "robot", 5)
        button = next(b for b in view.root.elements if "Page Down" in (getattr(b, "tool_tip_text", "") or ""))
        pos = button.rect.center
        pygame.mouse.set_pos(pos)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        assert wait_until(home, lambda: button.tool_tip is not None, timeout=4)
        rows = button.tool_tip.text_block.text_box_layout.layout_rows
        shown = "".join(chunk.text for row in rows[:1] for chunk in row.items if hasattr(chunk, "text"))
        layout = button.tool_tip.text_block.text_box_layout
        assert len(rows) == 1 and shown.endswith("(Page Down)")
        assert rows[0].x + rows[0].width <= layout.layout_rect.width    # not drawn past the box's edge
    finally:
        set_language("en")


# ---------------------------------------------------------------- Organizers
def test_the_global_size_reaches_arena_project(arena_home, tmp_path):
    import main
    from runner.tournament import ShowStandings
    from ui.scenes.projection import open_projection
    parser = main.build_parser()
    for argv in (["--size", "1600x900", "project", str(tmp_path)], ["project", str(tmp_path), "--size", "1600x900"]):
        args = parser.parse_args(argv)
        assert args.size == "1600x900", argv
        app = open_projection(args, ShowStandings(tmp_path, None, [], {}, project=True))
        try:
            assert app.size == (1600, 900) and not app.fullscreen, argv
        finally:
            app.close()
    assert parser.parse_args(["project", str(tmp_path)]).size is None


def write_event_folder(folder, results: int, planned: int | None, running: list[str], upcoming: int,
                       finished: bool = False):
    import json
    (folder / "live").mkdir(parents=True)
    result_lines = [json.dumps({"id": f"m{i:04d}", "contestants": ["Ada", "Alan"], "result": "1-0"})
                    for i in range(1, results + 1)]
    (folder / "results.jsonl").write_text("".join(line + "\n" for line in result_lines))
    if planned is not None:
        (folder / "standings.json").write_text(json.dumps({"matches": {"played": results, "planned": planned}}))
    sample = (SAMPLES / "hex-sample.arena.jsonl").read_text().splitlines()[:6]
    for match_id in running:
        (folder / "live" / f"{match_id}.arena.jsonl").write_text("".join(line + "\n" for line in sample))
    describe = lambda i: {"id": f"n{i}", "index": i, "round": 1, "contestants": ["Ada", "Alan"]}
    (folder / "live" / "schedule.json").write_text(json.dumps(
        {"running": [{"id": m, "index": 1, "round": 1, "contestants": ["Ada", "Alan"]} for m in running],
         "next": [describe(i) for i in range(upcoming)], "finished": finished}))


def test_the_live_header_counts_running_and_scheduled_matches_before_the_first_standings(tmp_path):
    from runner.live import EventFollower
    write_event_folder(tmp_path / "event", results=0, planned=None, running=["m0001", "m0002"], upcoming=2)
    follower = EventFollower(tmp_path / "event")
    follower.poll(0.0)
    assert len(follower.running()) == 2
    assert follower.counts() == (0, 4)                      # was "0 of 0 matches"
    assert not follower.finished()


def test_a_finished_folder_resumed_headless_shows_no_stale_running_match(tmp_path):
    from runner.live import EventFollower
    write_event_folder(tmp_path / "event", results=12, planned=12, running=["m0005"], upcoming=3)
    follower = EventFollower(tmp_path / "event")
    follower.poll(0.0)
    assert follower.counts() == (12, 12)
    assert follower.running() == [] and follower.next_pairings() == []
    assert follower.finished()


def test_the_tournament_window_shows_the_event_and_its_schedule_from_the_first_second(home, tmp_path):
    import json
    from ui.scenes.tournament import TournamentScene
    folder = tmp_path / "out-folder"
    write_event_folder(folder, results=0, planned=None, running=["m0001", "m0002"], upcoming=2)
    (folder / "event.json").write_text(json.dumps({"name": "Robot Cup", "game": "robot", "format": "round-robin"}))
    scene = home.push(TournamentScene(home, folder))
    pump(home)
    assert scene.title_name() == "Robot Cup"                        # not the --out folder's name
    lines = [text for text, _playing in scene.schedule_lines()]
    assert lines[:2] == ["Playing: Ada vs Alan · turn 5"] * 2 and lines[2] == "Next: Ada vs Alan", lines
    assert "0 of 4 matches" in scene.status()
    home.draw()


def test_the_tournament_window_names_the_format_as_the_event_file_did(home, tmp_path):
    """Robot's 'pairs' runs as a round robin; the window says 'pairs', as the file did."""
    import json
    from runner.tournament import _write_event_json, load_event
    from ui.scenes.tournament import TournamentScene
    root = __import__("pathlib").Path(__file__).resolve().parents[2]
    folder = tmp_path / "robot-pairs"
    event = load_event(root / "games" / "robot" / "events" / "robot-pairs.toml", out=folder)
    assert event.format == "round-robin" and event.format_name == "pairs"
    write_event_folder(folder, results=0, planned=None, running=["m0001"], upcoming=2)
    _write_event_json(event)
    assert json.loads((folder / "event.json").read_text())["format_name"] == "pairs"
    scene = home.push(TournamentScene(home, folder))
    pump(home)
    assert " · pairs · " in scene.status() and "round-robin" not in scene.status(), scene.status()
    home.draw()
    home.pop()


def test_the_rating_column_is_one_kind_and_empty_for_who_has_not_played(home, tmp_path):
    import json
    from ui.scenes.tournament import TournamentScene
    folder = tmp_path / "event"
    folder.mkdir()
    table = {"event": "E", "game": "robot", "format": "round-robin", "matches": {"played": 1, "planned": 6},
             "standings": [
                 {"rank": 1, "name": "Ada", "played": 1, "points": 3, "score": 1, "elo": 120.0, "elo_error": 300.0,
                  "mu": 27.1, "sigma": 7.9},
                 {"rank": 2, "name": "Alan", "played": 1, "points": 0, "score": 0, "elo": -120.0, "elo_error": 300.0,
                  "mu": 22.9, "sigma": 7.9},
                 {"rank": 3, "name": "Grace", "played": 0, "points": 0, "score": 0, "mu": 25.0, "sigma": 8.3}]}
    (folder / "standings.json").write_text(json.dumps(table))
    scene = home.push(TournamentScene(home, folder))
    pump(home)
    ratings = [row["rating"] for row in scene.rows()]
    assert ratings == ["+120 ± 300", "-120 ± 300", "—"], ratings


def test_nothing_projected_at_1080p_is_under_24_pixels_and_long_names_fit_smaller(arena_home, tmp_path, monkeypatch):
    """Every font the projection (and the boards it draws) makes while showing the
    focus view, the grid, an intermission and the standings is at least 24 px at
    1920x1080; a long name is written smaller before it is cut."""
    import json
    from games.render import theme as render_theme
    from ui.app import App
    from runner.projection import Playback
    from ui.scenes.projection import ProjectionScene
    from ui.settings import Settings
    folder = tmp_path / "event"
    write_event_folder(folder, results=2, planned=12, running=["m0003", "m0004"], upcoming=3)
    long_names = ["Ada Lovelace of the Analytical Engine", "Alan Turing", "Grace Hopper", "Edsger Dijkstra"]
    (folder / "standings.json").write_text(json.dumps({"event": "Cup", "matches": {"played": 2, "planned": 12},
        "standings": [{"rank": i + 1, "name": n, "played": 1, "points": 3 - i, "wins": 1, "draws": 0,
                       "losses": 0} for i, n in enumerate(long_names)]}))
    app = App(Settings(), size=(1920, 1080), fullscreen=False)
    try:
        scene = app.push(ProjectionScene(app, folder))
        pump(app, 3)
        sizes = []
        real_font = pygame.font.Font
        render_theme.font.cache_clear()
        monkeypatch.setattr(pygame.font, "Font", lambda path, size: sizes.append(size) or real_font(path, size))
        scene._text.clear()
        running = scene.model.follower.running()
        assert running, "the live records were read"
        scene.model.main = Playback(running[0])
        scene.model.main.state = running[0].state_after(len(running[0].turns)) or scene.model.main.state
        scene.model.phase = "playing"
        app.draw()                                           # focus, with a thumbnail
        scene.model.layout_name = "grid"
        scene.model.cells = [Playback(m) for m in running]
        app.draw()
        scene.model.layout_name, scene.model.cells, scene.model.main = "focus", [], None
        import ui.scenes.projection as projection
        cut = []
        real_elide = projection.elide
        monkeypatch.setattr(projection, "elide", lambda face, text, width: cut.append(text) or real_elide(face, text, width))
        scene.model.phase = "intermission"
        from games.api import Outcome, Termination
        scene.model.last = {"names": long_names[:2], "outcome": Outcome((0,), (1.0, 0.0), Termination.WIN, ""), "error": ""}
        monkeypatch.setattr(scene.model.follower, "next_pairings", lambda limit=3: [long_names[:2]])
        monkeypatch.setattr(scene.model.follower, "running", lambda: [])
        app.draw()
        assert long_names[0] not in cut, cut                  # the intermission card: smaller, not cut
        scene.model.show_standings = True
        app.draw()
        assert sizes and min(sizes) >= 24, sorted(set(sizes))
    finally:
        app.close()


def test_a_thumbnail_caption_too_long_for_one_line_takes_two():
    from ui.scenes.projection import caption_lines
    names = ["Ada Lovelace (Python)", "Alan Turing", "Edsger Dijkstra", "Grace Hopper (C, -O2)"]
    assert caption_lines(names, lambda text: len(text) < 200) == [" – ".join(names)]
    assert caption_lines(names, lambda text: len(text) < 40) == ["Ada Lovelace (Python) – Alan Turing",
                                                                 "Edsger Dijkstra – Grace Hopper (C, -O2)"]


def test_the_intermission_card_gives_a_long_name_two_lines_before_smaller_type(arena_home, tmp_path, monkeypatch):
    """At 1280×720 the next match's long names and the last match's line take two lines
    in big type (the card grows, the standings start under it), not one line smaller or cut."""
    import json
    import ui.scenes.projection as projection
    from games.api import Outcome, Termination
    from ui.app import App
    from ui.scenes.projection import ProjectionScene
    from ui.settings import Settings
    folder = tmp_path / "event"
    write_event_folder(folder, results=2, planned=12, running=[], upcoming=3)
    names = ["Ada Lovelace of the Analytical Engine", "Alan Turing of Bletchley Park"]
    (folder / "standings.json").write_text(json.dumps({"event": "Cup", "matches": {"played": 2, "planned": 12},
        "standings": [{"rank": i + 1, "name": n, "played": 1, "points": 3 - i, "wins": 1, "draws": 0,
                       "losses": 0} for i, n in enumerate(names)]}))
    app = App(Settings(), size=(1280, 720), fullscreen=False)
    try:
        scene = app.push(ProjectionScene(app, folder))
        pump(app, 3)
        scene.model.phase = "intermission"
        scene.model.last = {"names": names, "outcome": Outcome((0,), (1.0, 0.0), Termination.WIN, ""), "error": ""}
        monkeypatch.setattr(scene.model.follower, "next_pairings", lambda limit=3: [names])
        monkeypatch.setattr(scene.model.follower, "running", lambda: [])
        drawn, cut = [], []
        real_text, real_elide = scene.text, projection.elide
        monkeypatch.setattr(scene, "text", lambda surface, text, pos, size, *a, **k:
                            drawn.append((text, pos, size)) or real_text(surface, text, pos, size, *a, **k))
        monkeypatch.setattr(projection, "elide", lambda face, text, width: cut.append(text) or real_elide(face, text, width))
        scene._text.clear()
        app.draw()
        texts = [text for text, _pos, _size in drawn]
        last_line = drawn[texts.index("Last match") + 1:texts.index("Next match")]
        table = drawn[texts.index("#"):]
        drawn = drawn[texts.index("Next match") + 1:texts.index("#")]      # the next match's card
        texts = [text for text, _pos, _size in drawn]
        share = (app.size[0] - 2 * scene.u(40) - scene.u(260)) // 2 - scene.u(90)
        for name in names:
            assert name not in texts, texts                              # not on one line
            parts = [(t, pos, size) for t, pos, size in drawn if t and t in name and t != name]
            assert " ".join(t for t, _p, _s in parts[:2]) == name, parts  # but whole on two
            assert parts[1][1][1] > parts[0][1][1]                       # one under the other
            one_line = scene.fit_units(name, 60, share, bold=True)
            assert parts[0][2] > one_line, (parts[0][2], one_line)        # bigger than one line allowed
        result = projection._result(names, scene.model.last["outcome"], "")
        assert " ".join(t for t, _p, _s in last_line) == result and len(last_line) == 2, last_line
        assert not any(t in cut for t in names + [result]), cut
        bottom_of_names = max(pos[1] for t, pos, _s in drawn if t and t in names[0] + names[1])
        header_y = next(pos[1] for t, pos, _s in table if t == "Contestant")
        assert header_y > bottom_of_names + scene.u(40)                    # the table starts under the card
    finally:
        app.close()


def widget_texts(scene) -> list[str]:
    return [w.text for w in scene.root.elements if isinstance(getattr(w, "text", None), str)]


def test_every_screen_follows_a_live_language_switch_there_and_back(home, tmp_path):
    """English -> Vietnamese -> English in Settings, without a restart: Home, New match,
    a Match, a Replay (its drawn move list and panel too), How to play and the tournament
    window each speak the language chosen last."""
    import json
    from runner.seats import make_seat
    from ui.scenes.howto import HowToScene
    from ui.scenes.new_match import NewMatchScene
    from ui.scenes.replay import ReplayScene
    from ui.scenes.settings import SettingsScene
    from ui.scenes.tournament import TournamentScene
    from ui_helpers import click
    hexp = registry.plugin("hex")
    match = Match(hexp, hexp.new_game().spec.resolve_options(None, {"size": 5}),
                  [make_seat("bot:1", hexp, 1), make_seat("bot:1", hexp, 2)], seed=3)
    match.run()
    folder = tmp_path / "cup"
    write_event_folder(folder, results=0, planned=None, running=[], upcoming=1)
    (folder / "event.json").write_text(json.dumps({"name": "Cup", "game": "hex", "format": "round-robin"}))

    def switch(code):
        scene = home.push(SettingsScene(home))
        pump(home)
        scene.language = code
        click(home, scene.apply_button)
        home.pop()
        pump(home)

    def seen() -> dict[str, list[str]]:
        shown = {"home": widget_texts(home.scene)}
        screens = {"new": lambda: NewMatchScene(home, game="hex"), "match": lambda: __import__(
                       "ui.scenes.match", fromlist=["MatchScene"]).MatchScene(home, match),
                   "replay": lambda: ReplayScene(home, path=str(SAMPLES / "robot-sample.arena.jsonl")),
                   "howto": lambda: HowToScene(home, hexp), "tournament": lambda: TournamentScene(home, folder)}
        for name, make in screens.items():
            home.push(make())
            pump(home)
            scene = home.scene
            shown[name] = widget_texts(scene)
            if name in ("match", "replay"):
                if name == "replay":
                    scene.go(12)
                pump(home)
                shown[name] += ["".join(t for t, _c in scene.moves.rows[0])]       # drawn: the list's first row
                if name == "replay":                                                # drawn: the panel
                    shown[name] += list(scene.renderer.headline(scene.replay.states[scene.index])[:1])
            if name == "howto":
                shown[name] += [scene.box.html_text[:200]]
            home.pop()
            pump(home)
        return shown

    seen()                                  # the records opened now go to Home's Recent records
    english = seen()
    switch("vi")
    vietnamese = seen()
    switch("en")
    again = seen()
    assert again == english                                       # back to English, all of it
    expect_vi = {"home": ["Ván mới", "Cài đặt"], "new": ["Quay lại", "Bắt đầu ván", "Trò chơi"], "match": ["Lật bàn", "Bắt đầu"],
                 "replay": ["Cách chơi", "Bắt đầu", "Lượt 12"], "howto": ["Quay lại"],
                 "tournament": ["Quay lại", "Giải đấu: Cup"]}
    expect_en = {"home": ["New match", "Settings"], "new": ["Back", "Start match", "Game"], "match": ["Flip", "Start"],
                 "replay": ["How to play", "Start", "Turn 12"], "howto": ["Back"], "tournament": ["Back", "Tournament: Cup"]}
    for name in expect_vi:
        assert all(word in vietnamese[name] for word in expect_vi[name]), (name, vietnamese[name])
        assert all(word in english[name] for word in expect_en[name]), (name, english[name])
        assert not any(word in vietnamese[name] for word in expect_en[name]), (name, vietnamese[name])
    assert english["howto"][-1] != vietnamese["howto"][-1]          # the guide itself is the Vietnamese one


def test_the_tournament_windows_schedule_joins_names_in_the_interfaces_language(home, tmp_path):
    from runner import i18n
    from ui.scenes.tournament import TournamentScene
    folder = tmp_path / "out-folder"
    write_event_folder(folder, results=0, planned=None, running=["m0001"], upcoming=1)
    i18n.set_language("vi")
    scene = home.push(TournamentScene(home, folder))
    pump(home)
    lines = [text for text, _playing in scene.schedule_lines()]
    assert lines and all("Ada gặp Alan" in line for line in lines), lines
