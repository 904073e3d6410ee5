"""One name for one thing: the debug panel's toggle, bot levels, Hex's colours, and the
Pause/Play buttons' tooltips (which say what a press does now)."""
import colorsys
import re
from pathlib import Path

from games import registry
from runner.match import Match
from runner.seats import make_seat
from ui_helpers import click, press, pump, wait_until

ROOT = Path(__file__).resolve().parents[2]
HEX = registry.plugin("hex")


def test_no_old_variant_of_a_name_is_left_in_the_interface():
    old = re.compile(r"Debug seat|Hide seat|f\"Log \{|'Log \{|\"orange\"|\(orange\)")
    files = [*ROOT.joinpath("ui").rglob("*.py"), *ROOT.joinpath("games").glob("*/HOWTO*.md")]
    found = [f"{f.relative_to(ROOT)}:{n}" for f in files
             for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1) if old.search(line)]
    assert not found


def open_match(app, seats, size=5):
    from ui.scenes.match import MatchScene
    match = Match(HEX, HEX.new_game().spec.resolve_options(None, {"size": size}),
                  [make_seat(s, HEX, i) for i, s in enumerate(seats)], seed=2)
    scene = app.push(MatchScene(app, match))
    pump(app)
    return scene, match


def test_the_debug_toggles_have_one_name_open_or_closed(home):
    from ui.scenes.replay import ReplayScene
    scene, match = open_match(home, ["bot:1", "bot:1"])
    names = lambda: sorted(b.text for b in scene.toggle_buttons)       # noqa: E731
    assert names() == ["Debug 1", "Debug 2"]
    click(home, next(b for b, s in scene.toggle_buttons.items() if s == 0))
    assert scene.debug_open == {0} and names() == ["Debug 1", "Debug 2"]
    lit = next(b for b, s in scene.toggle_buttons.items() if s == 0)
    assert lit.tool_tip_text.startswith("hide what") and "@toggle_on" in lit.get_class_ids()
    match.stop()
    home.pop()
    home.push(ReplayScene(home, path=str(ROOT / "replays" / "robot-sample.arena.jsonl")))
    pump(home)
    assert sorted(b.text for b in home.scene.toggle_buttons) == ["Debug 1", "Debug 2", "Debug 3", "Debug 4"]


def pick_kind(app, menu, text):
    click(app, menu)
    item = next(b for b in menu.current_state.options_selection_list.item_list_container.elements
                if b.text.startswith(text))
    click(app, item)


def test_every_game_s_bot_levels_read_number_then_name(home):
    from ui.scenes.new_match import NewMatchScene
    for plugin in registry.all_plugins():
        if not plugin.bot_levels:
            continue
        form = home.push(NewMatchScene(home, game=plugin.name))
        pump(home)
        if not any("level" in w for w in form.seat_widgets):      # Crossed Words starts with a person
            pick_kind(home, form.seat_widgets[0]["kind"], "Built-in bot")
            form = home.scene
        menu = next(w["level"] for w in form.seat_widgets if "level" in w)
        options = [o[0] if isinstance(o, tuple) else o for o in menu.options_list]
        assert options == [f"{n} · {name}" for n, name in enumerate(plugin.bot_levels, 1)], options
        assert all(not name[0].isdigit() for name in plugin.bot_levels), plugin.name
        home.pop()


def test_the_hex_pages_name_player_2_by_the_colour_the_board_shows():
    from games.render import THEMES
    red, green, blue = (c / 255 for c in THEMES["dark"].seats[1])
    hue = colorsys.rgb_to_hsv(red, green, blue)[0] * 360
    assert 38 <= hue <= 62, hue                         # amber-yellow, not orange (~25°)
    assert "(yellow)" in HEX.howto_text("en") and "orange" not in HEX.howto_text("en")
    assert "(vàng)" in HEX.howto_text("vi") and "cam" not in HEX.howto_text("vi")


def test_the_pause_tooltip_says_resume_when_the_button_does(home):
    scene, match = open_match(home, ["bot:1", "bot:1"], size=11)
    assert scene.pause_button.tool_tip_text == "pause the match (P)"
    click(home, scene.pause_button)
    assert scene.pause_button.text == "Resume" and scene.pause_button.tool_tip_text == "resume the match (P)"
    click(home, scene.pause_button)
    assert scene.pause_button.text == "Pause" and scene.pause_button.tool_tip_text == "pause the match (P)"
    match.stop()


def test_the_replay_play_tooltip_follows_the_button(home):
    import pygame
    from ui.scenes.replay import ReplayScene
    home.push(ReplayScene(home, path=str(ROOT / "replays" / "hex-sample.arena.jsonl")))
    pump(home)
    view = home.scene
    assert view.play_button.text == "Play" and view.play_button.tool_tip_text == "play (Space)"
    press(home, pygame.K_SPACE)
    assert wait_until(home, lambda: view.playing)
    assert view.play_button.text == "Pause" and view.play_button.tool_tip_text == "pause (Space)"


def test_a_bot_seat_is_named_by_its_level_as_the_new_match_form_names_it(home):
    """The seat card, Home's recent list and the form all say "2 · easy" (not "level 2")."""
    from ui.catalog import level_label, who_text
    from ui.recent import summarize
    scene, match = open_match(home, ["bot:2", "bot:5 "])
    cards = [line.label for line in scene.player_lines()]
    assert cards == ["Bot 2 · easy", "Bot 5 · strongest"], cards
    assert level_label(2, HEX.bot_levels[1]) in cards[0]
    match.stop()
    line = summarize(ROOT / "replays" / "hex-sample.arena.jsonl")
    assert line.players == "Bot 1 · random vs Bot 1 · random", line.players
    line = summarize(ROOT / "replays" / "robot-sample.arena.jsonl")       # four seats: the same labels
    assert line.players == ("Bot 4 · strongest vs Bot 3 · territory vs Bot 2 · painter vs Bot 1 · random"), line.players
    assert who_text("Bot (level 2, depth=6)", registry.plugin("xiangqi").bot_levels) == "Bot 2 · novice, depth=6"
    assert who_text("Bot (level 9)", HEX.bot_levels) == "Bot 9"
    assert who_text("Anna", HEX.bot_levels) == "Anna"
