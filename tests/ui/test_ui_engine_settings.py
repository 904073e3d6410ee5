"""Engines as a player sees them, through the window: the New match form's engine and
bot settings, the engines' repetition default, the rule in the match header, and the
debug panel's engine name, author and search (live and in the replay)."""
import json
import shlex
import sys
from pathlib import Path

import pygame

from ui_helpers import click, pump, wait_until

ROOT = Path(__file__).resolve().parents[2]
ENGINE = " ".join(shlex.quote(x) for x in (sys.executable, str(ROOT / "tests" / "xiangqi" / "programs"
                                                                / "fake_engine.py")))
GTP = " ".join(shlex.quote(x) for x in (sys.executable, str(ROOT / "tests" / "hex" / "gtp_engine.py")))


def choose(app, menu, text: str) -> None:
    """Open a drop-down menu and click the item ``text``, as a user would."""
    click(app, menu)
    items = menu.current_state.options_selection_list.item_list
    item = next(i for i in items if i["text"] == text)
    button = item["button_element"]
    assert button is not None, f"{text!r} is not on screen in the open menu"
    click(app, button)


def type_into(app, entry, text: str) -> None:
    """Click a text entry, clear it and type ``text``."""
    click(app, entry)
    for _ in range(len(entry.get_text())):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0,
                                             unicode="", scancode=0))
        pump(app, 1)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    pump(app)


def open_form(home, game: str):
    scene = home.scene
    click(home, next(b for b, e in scene.play_buttons.items() if e.name == game))
    form = home.scene
    assert type(form).__name__ == "NewMatchScene" and form.game_name == game
    return form


def setting_entry(form, seat: int, key: str):
    return next(w for w, f in form.seat_widgets[seat]["settings"].items() if f.key == key)


def option_widget(form, name: str):
    return next(w for w, o in form.option_widgets.items() if o.name == name)


def test_an_engine_seat_from_the_form_gets_its_settings_and_the_usual_repetition_count(home, arena_home):
    form = open_form(home, "xiangqi")
    assert option_widget(form, "repetition_count").selected_option[0] == "2"     # the contest's rule
    choose(home, form.seat_widgets[1]["kind"], "UCI engine")
    assert [f.key for f in form.seat_widgets[1]["settings"].values()] == ["movetime", "depth", "nodes",
                                                                          "options"]
    type_into(home, form.seat_widgets[1]["command"], ENGINE)
    type_into(home, setting_entry(form, 1, "movetime"), "40")
    type_into(home, setting_entry(form, 1, "options"), "Threads=2 Hash=16")
    assert form.error == "", form.error
    # The form shows what the match will use: an engine plays the third-occurrence rule.
    assert option_widget(form, "repetition_count").selected_option[0] == "3"
    click(home, form.start_button)
    scene = home.scene
    assert type(scene).__name__ == "MatchScene"
    match = scene.match
    try:
        assert match.options["repetition_count"] == 3
        assert match.seats[1].settings == {"movetime": "40", "option.Threads": "2", "option.Hash": "16"}
        assert "third repetition ends the game" in scene.title_label.text
        saved = json.loads((arena_home / "settings.json").read_text(encoding="utf-8"))
        assert saved["last_seats"]["xiangqi"][1].endswith("movetime=40 option.Threads=2 option.Hash=16")
    finally:
        match.stop()


def test_the_forms_own_repetition_choice_wins_over_the_engines_default(home):
    form = open_form(home, "xiangqi")
    choose(home, form.seat_widgets[1]["kind"], "UCCI engine")
    type_into(home, form.seat_widgets[1]["command"], ENGINE + " --ucci")
    choose(home, option_widget(form, "repetition_count"), "2")
    click(home, form.start_button)
    scene = home.scene
    try:
        assert scene.match.options["repetition_count"] == 2
        assert "first repeat ends the game" in scene.title_label.text
    finally:
        scene.match.stop()


def test_a_bad_engine_setting_is_an_inline_error_naming_it(home):
    form = open_form(home, "xiangqi")
    choose(home, form.seat_widgets[1]["kind"], "UCI engine")
    type_into(home, form.seat_widgets[1]["command"], ENGINE)
    type_into(home, setting_entry(form, 1, "depth"), "deep")
    assert "Depth (plies)" in form.error and "'deep'" in form.error
    assert not form.start_button.is_enabled
    type_into(home, setting_entry(form, 1, "depth"), "4")
    type_into(home, setting_entry(form, 1, "options"), "Threads")
    assert "NAME=VALUE" in form.error
    type_into(home, setting_entry(form, 1, "options"), "")
    assert form.error == "" and form.start_button.is_enabled


def test_bot_and_gtp_seats_offer_their_settings_with_units(home):
    from ui.scenes.new_match import SeatChoice
    form = open_form(home, "xiangqi")
    assert form.seats[1].kind == "bot"               # the form's default second seat
    labels = [f.unit for f in form.seat_widgets[1]["settings"].values()]
    assert labels == ["ms", "plies", ""]
    type_into(home, setting_entry(form, 1, "depth"), "3")
    assert form.seats[1].spec(form.chosen.plugin).endswith("depth=3")
    click(home, form.back_button)
    form = open_form(home, "hex")
    choose(home, form.seat_widgets[1]["kind"], "GTP engine")
    assert [(f.key, f.unit) for f in form.seat_widgets[1]["settings"].values()] == [
        ("time_per_move", "s"), ("config", "")]
    type_into(home, form.seat_widgets[1]["command"], GTP)
    type_into(home, setting_entry(form, 1, "time_per_move"), "1.5")
    assert form.error == ""
    spec = form.seats[1].spec(form.chosen.plugin)
    assert spec.endswith("time_per_move=1.5")
    again = SeatChoice.from_spec(spec, form.chosen.plugin)          # remembered and shown again
    assert again.settings == {"time_per_move": "1.5"} and again.command == GTP


def test_the_debug_panel_shows_the_engine_and_its_search_live_and_in_the_replay(home, tmp_path):
    from games import registry
    from runner.match import Match, default_record_path
    from runner.records import open_replay
    from runner.seats import make_seat
    from ui.scenes.match import MatchScene
    from ui.scenes.replay import ReplayView
    plugin = registry.plugin("xiangqi")
    seats = [make_seat(f"uci:{ENGINE} movetime=20", plugin, 1), make_seat("bot:2 depth=1", plugin, 2)]
    options = plugin.new_game().spec.resolve_options(None, {"no_capture_limit": "6"})
    match = Match(plugin, options, seats, seed=1, record_path=default_record_path(tmp_path, "xiangqi"))
    home.settings.notations["xiangqi"] = "WXF"
    scene = home.push(MatchScene(home, match))
    match.set_pace(None)
    assert wait_until(home, lambda: match.outcome is not None, timeout=60)
    pump(home)
    scene.toggle_debug(0)
    scene.toggle_debug(1)
    scene.select(1)
    pump(home)
    live = " ".join(scene.debug_text(0).split())           # the panel wraps long lines
    assert "Engine: Fake engine · by Arena test suite" in live
    assert "depth 2/7" in live and "+0.17 pawns" in live and "420 nodes" in live
    first = match.turns[0].moves[0]                             # ICCS in the record
    from games.xiangqi.notation import wxf_line
    assert f"Best line: {wxf_line(match.states[0], [first])[0]}" in live
    scene.select(2)                                             # the bot's first move
    bot = " ".join(scene.debug_text(1).split())
    assert "Search: depth 1 · score" in bot and "Engine:" not in bot
    scene.select(1)
    record = json.loads(match.record_path.read_text().splitlines()[2])
    assert record["answers"]["0"]["search"]["pv"] == [first]
    home.pop()
    view = home.push(ReplayView(home, open_replay(str(match.record_path))))
    pump(home)
    view.toggle_debug(0)
    view.go(1)
    pump(home)
    replayed = " ".join(view.debug_text(0).split())
    head = live.split("— Given —")[0]                          # engine, verdict, search, best line
    assert "Best line:" in head and replayed.startswith(head)


# ---------------------------------------------------------------- real engines (locally)
import os  # noqa: E402

import pytest  # noqa: E402

ELEPHANTEYE = os.environ.get("ARENA_ELEPHANTEYE", "")
MOHEX = os.environ.get("ARENA_MOHEX", "")


@pytest.mark.skipif(not (ELEPHANTEYE and Path(ELEPHANTEYE).is_file()),
                    reason="set ARENA_ELEPHANTEYE to an ElephantEye binary to run this test")
def test_elephanteye_from_the_form_shows_its_name_and_search(home):
    form = open_form(home, "xiangqi")
    choose(home, form.seat_widgets[1]["kind"], "UCCI engine")
    type_into(home, form.seat_widgets[1]["command"], shlex.quote(ELEPHANTEYE))
    type_into(home, setting_entry(form, 1, "depth"), "3")
    choose(home, form.seat_widgets[0]["kind"], "Built-in bot")
    type_into(home, setting_entry(form, 0, "depth"), "1")
    assert "takes no settings" in form.error              # level 1 plays at random
    levels = [o[0] if isinstance(o, tuple) else o for o in form.seat_widgets[0]["level"].options_list]
    choose(home, form.seat_widgets[0]["level"], levels[1])
    assert form.error == "", form.error
    click(home, form.start_button)
    scene = home.scene
    match = scene.match
    try:
        match.set_pace(None)
        assert wait_until(home, lambda: len(scene.snap.turns) >= 2, timeout=60)
        assert match.options["repetition_count"] == 3 and "go depth 3" in match.turns[1].answers[1]["given"]
        scene.toggle_debug(1)
        scene.select(2)
        pump(home)
        text = " ".join(scene.debug_text(1).split())
        assert "Engine: ElephantEye · by ElephantEye Development Team" in text
        assert "Search: depth 3" in text and "Best line: " in text
    finally:
        match.stop()


@pytest.mark.skipif(not (MOHEX and Path(MOHEX).is_file()),
                    reason="set ARENA_MOHEX to a MoHex binary to run this test")
def test_mohex_from_the_form_is_told_its_time_a_move(home):
    form = open_form(home, "hex")
    choose(home, form.seat_widgets[1]["kind"], "GTP engine")
    type_into(home, form.seat_widgets[1]["command"], shlex.quote(MOHEX))
    type_into(home, setting_entry(form, 1, "time_per_move"), "0.5")
    choose(home, form.seat_widgets[0]["kind"], "Built-in bot")
    type_into(home, option_widget(form, "size"), "7")
    assert form.error == "", form.error
    click(home, form.start_button)
    match = home.scene.match
    try:
        match.set_pace(None)
        assert wait_until(home, lambda: len(match.turns) >= 2 or match.outcome is not None, timeout=60)
        assert not match.error, match.error
        assert match.seats[1].settings.time_per_move == 0.5
        # Told the GTP way, and MoHex's own way (whatever MoHex then does with its move).
        told = match.turns[1].answers[1]["given"]
        assert "time_settings" in told and "param_mohex max_time 0.5" in told, told
    finally:
        match.stop()


def test_the_hex_bot_offers_its_time_a_move_and_playouts(home):
    form = open_form(home, "hex")
    choose(home, form.seat_widgets[1]["kind"], "Built-in bot")
    assert [(f.key, f.unit) for f in form.seat_widgets[1]["settings"].values()] == [
        ("movetime", "ms"), ("playouts", "")]
    type_into(home, setting_entry(form, 1, "movetime"), "700")
    type_into(home, setting_entry(form, 1, "playouts"), "lots")
    assert "Playouts" in form.error and "'lots'" in form.error
    type_into(home, setting_entry(form, 1, "playouts"), "20000")
    assert form.error == ""
    click(home, form.start_button)
    scene = home.scene
    try:
        assert scene.match.seats[1].settings == {"movetime": "700", "playouts": "20000"}
        assert scene.match.seats[1].bot.move_seconds == 0.7
    finally:
        scene.match.stop()
