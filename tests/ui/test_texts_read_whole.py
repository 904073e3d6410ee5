"""Texts the window shows read whole and right: errors, questions and results, seat cards,
shortened commands, tile texts, tooltips and disabled buttons."""
import pygame

from games import registry
from runner.match import Match
from runner.seats import HumanSeat, make_seat

from ui_helpers import click, open_match, press, pump, wait_until

HEX = registry.plugin("hex")
ROBOT = registry.plugin("robot")


def test_a_hex_win_names_the_real_edges(home):
    match = Match(HEX, HEX.new_game().spec.resolve_options(None, {"size": 5}),
                  [make_seat("bot:1", HEX, 0), make_seat("bot:1", HEX, 1)], seed=2)
    scene = open_match(home, match, full_speed=False)
    match.set_pace(None)
    assert wait_until(home, lambda: scene.finished, timeout=20)
    detail = match.outcome.detail
    assert detail in ("Player 1 connected columns a and e", "Player 2 connected rows 1 and 5"), detail
    assert "N" not in detail


# ---------------------------------------------------------------- whole texts
def test_a_typed_move_error_and_the_resign_question_are_shown_whole(home):
    match = Match(HEX, HEX.new_game().spec.resolve_options(None, {"size": 5}),
                  [make_seat("human", HEX, 0), make_seat("bot:1", HEX, 1)], seed=2)
    match.seats[0].label = "Annabelle-Marguerite"
    scene = open_match(home, match, full_speed=False)
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
    scene = open_match(home, match, full_speed=False)
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
            scene = open_match(app, match, full_speed=False)
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
