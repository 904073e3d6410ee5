"""The window in Vietnamese: switched in Settings without restarting, remembered, and with
no word cut at 1280x720 (Vietnamese runs longer than English)."""
from __future__ import annotations

import json
import time

import pygame
import pytest
from ui_helpers import click, pump, wait_until

from clipping import clipped_widgets


def _choose(app, menu, text: str) -> None:
    """Open a drop-down menu and click its item ``text``, as a person would."""
    click(app, menu)
    items = menu.current_state.options_selection_list.item_list_container.elements
    click(app, next(item for item in items if item.text == text))


def _settings_language(app, name: str) -> None:
    """From Home: Settings, pick the language ``name``, Apply, and back to Home."""
    click(app, app.scene.settings_button)
    _choose(app, app.scene.language_menu, name)
    click(app, app.scene.apply_button)
    click(app, app.scene.back_button)


def test_switching_to_vietnamese_in_settings_changes_home_and_a_match_at_once(home, arena_home):
    from runner import i18n
    assert home.scene.new_button.text == "New match"
    click(home, home.scene.settings_button)
    settings = home.scene
    _choose(home, settings.language_menu, "Tiếng Việt")
    click(home, settings.apply_button)
    assert i18n.language() == "vi"
    assert home.scene.title_label.text == "Cài đặt"            # this very screen, rebuilt
    assert home.scene.message_label.text == "Đã lưu."
    saved = json.loads((arena_home / "settings.json").read_text(encoding="utf-8"))
    assert saved["language"] == "vi"
    click(home, home.scene.back_button)
    assert home.scene.new_button.text == "Ván mới" and home.scene.quit_button.text == "Thoát"
    assert "Cách chơi" in [b.text for b in home.scene.howto_buttons]
    play = next(b for b, entry in home.scene.play_buttons.items() if entry.name == "hex")
    click(home, play)
    form = home.scene
    assert form.start_button.text == "Bắt đầu ván" and form.title_label.text == "Ván mới"
    click(home, form.start_button)
    match = home.scene
    assert wait_until(home, lambda: match.view.human_seat == 0)
    pump(home)
    assert match.pause_button.text == "Tạm dừng" and match.resign_button.text == "Xin thua"
    assert match.status_text().startswith("Đến lượt bạn, Người chơi 1 · Người chơi 1 (cột)")
    assert "English" not in match.status_text() and "to move" not in match.status_text()
    assert match.player_lines()[1].label == "Máy 2 · dễ"
    surface = pygame.Surface(home.size)
    match.draw(surface)                                        # the drawn words render too
    click(home, match.back_button)
    click(home, match.back_button)                             # a running match asks twice
    _settings_language(home, "English")
    assert i18n.language() == "en" and home.scene.new_button.text == "New match"


def test_the_language_chosen_is_the_next_starts_language(arena_home, monkeypatch):
    from runner import i18n
    from ui.app import App
    from ui.settings import Settings, load_settings, save_settings
    monkeypatch.setenv("LANGUAGE", "en")
    save_settings(Settings(language="vi"))
    app = App(load_settings(), size=(1280, 720), fullscreen=False)
    try:
        assert i18n.language() == "vi" and app.manager.get_locale() == "vi"
    finally:
        app.close()


def test_without_a_choice_the_window_follows_the_system_locale(arena_home, monkeypatch):
    from runner import i18n
    from ui.app import App
    from ui.scenes.home import HomeScene
    from ui.settings import Settings
    monkeypatch.setenv("LANGUAGE", "vi_VN")
    app = App(Settings(), size=(1280, 720), fullscreen=False)
    try:
        app.push(HomeScene(app))
        pump(app)
        assert i18n.language() == "vi" and app.scene.settings_button.text == "Cài đặt"
    finally:
        app.close()


# ---------------------------------------------------------------- (d) no clipping at 720p
def _screens(app, tmp_path):
    """(name, open it) for the main screens; each leaves its screen on top."""
    from games import registry
    from runner.match import Match
    from runner.seats import make_seat
    from ui.scenes.home import HomeScene
    from ui.scenes.howto import HowToScene
    from ui.scenes.match import MatchScene
    from ui.scenes.new_match import NewMatchScene, SeatChoice
    from ui.scenes.replay import ReplayScene
    from ui.scenes.settings import SettingsScene
    from ui.scenes.tournament import TournamentScene

    def new_match(game):
        def open_form():
            form = app.push(NewMatchScene(app, game=game))
            if len(form.seats) > 1:          # every kind of seat row: person, bot, program
                form.seats[-1] = SeatChoice("ext", command="./no-such-player")
                form.relayout()
        return open_form

    def person_match():
        hexp = registry.plugin("hex")
        match = Match(hexp, hexp.new_game().spec.resolve_options("11x11"),
                      [make_seat("human", hexp, 1), make_seat("bot:1", hexp, 2)], seed=3)
        scene = app.push(MatchScene(app, match))
        wait_until(app, lambda: scene.view.human_seat == 0)
        scene.resign()                         # the armed button reads Confirm

    def watched_match():
        robot = registry.plugin("robot")
        options = robot.new_game().spec.resolve_options(None, {"players": 4})
        app.push(MatchScene(app, Match(robot, options, [make_seat("bot:1", robot, i) for i in range(4)],
                                       seed=5)))

    def replay():
        from runner.paths import app_root
        app.push(ReplayScene(app, path=str(app_root() / "replays" / "robot-sample.arena.jsonl")))
        app.scene.toggle_debug(0)

    def tournament():
        (tmp_path / "standings.json").write_text(json.dumps({
            "event": "cup", "game": "hex", "format": "round-robin", "matches": {"planned": 2, "played": 1},
            "standings": [{"rank": 1, "name": "An", "played": 1, "points": 1, "score": 1, "wins": 1,
                           "draws": 0, "losses": 0, "elo": 10.0, "elo_error": 300.0}]}))
        app.push(TournamentScene(app, tmp_path))

    return [("home", lambda: app.push(HomeScene(app)))] + [
        (f"new match {game}", new_match(game)) for game in ("hex", "xiangqi", "robot", "tamquan", "crosswords")
    ] + [("settings", lambda: app.push(SettingsScene(app))),
         ("how to play", lambda: app.push(HowToScene(app, registry.plugin("robot")))),
         ("person's match", person_match), ("watched match", watched_match), ("replay", replay),
         ("tournament", tournament)]


@pytest.mark.parametrize("code", ["vi", "en"])
def test_no_label_or_button_is_cut_at_720p(code, arena_home, tmp_path):
    from runner import i18n
    from ui.app import App
    from ui.settings import Settings
    app = App(Settings(language=code), size=(1280, 720), fullscreen=False)
    try:
        assert i18n.language() == code
        problems = []
        for name, open_screen in _screens(app, tmp_path):
            open_screen()
            pump(app)
            problems += [f"{name}: {p}" for p in clipped_widgets(app.manager)]
            while len(app.scenes) > 1:          # back to Home (Home itself stays)
                app.pop()
        assert not problems, "\n".join(problems)
    finally:
        app.close()


def test_the_clipping_check_finds_a_cut_button(app):
    from pygame_gui.elements import UIButton
    from ui.scenes.home import HomeScene
    app.push(HomeScene(app))
    UIButton(pygame.Rect(10, 10, 60, 40), "Xóa danh sách ván gần đây", app.manager)
    pump(app)
    assert [p for p in clipped_widgets(app.manager) if "Xóa danh sách" in p]


def test_option_labels_fit_their_column_in_vietnamese(arena_home):
    """The New match form draws option names (not widgets) with an ellipsis when too long:
    none may need it in Vietnamese."""
    from games import registry
    from games.render import font
    from runner import i18n
    from ui.app import App
    from ui.scenes.new_match import OPTION_W, NewMatchScene, option_label
    from ui.settings import Settings
    app = App(Settings(language="vi"), size=(1280, 720), fullscreen=False)
    try:
        assert i18n.language() == "vi"
        cut = []
        for plugin in registry.all_plugins():
            form = app.push(NewMatchScene(app, game=plugin.name))
            width = form.px(form.options_right() - 16 - OPTION_W - 12 - 700)
            face = font(form.px(18), bold=True)
            cut += [option_label(o) for o in form.visible_options() if face.size(option_label(o))[0] > width]
            app.pop()
        assert not cut, cut
    finally:
        app.close()


def test_how_to_play_shows_the_guide_in_the_interface_language(app, broken_game):
    """HOWTO.vi.md when the game has one (its English HOWTO.md otherwise), following a
    switch made while the page is open."""
    from games.registry import GamePlugin
    from ui.scenes.howto import HowToScene
    name = broken_game("guided", source='"""A game with guides."""\n',
                       files={"HOWTO.md": "# Moving\n\nClick a cell.\n",
                              "HOWTO.vi.md": "# Cách đi\n\nBấm vào một ô.\n"})
    plain = broken_game("plainguide", source='"""A game with an English guide only."""\n',
                        files={"HOWTO.md": "# Moving\n\nClick a cell.\n"})
    page = app.push(HowToScene(app, GamePlugin(name=name, game="x:y")))
    pump(app)
    assert "Click a cell." in page.html and page.title_label.text.startswith("How to play")
    app.set_language("vi")
    pump(app)
    assert "Bấm vào một ô." in page.html and page.title_label.text.startswith("Cách chơi")
    other = app.push(HowToScene(app, GamePlugin(name=plain, game="x:y")))
    pump(app)
    assert "Click a cell." in other.html                       # no Vietnamese guide: English


def test_every_option_the_form_offers_has_a_label_in_words():
    """An option without an entry would show its identifier (in any language)."""
    from games import registry
    from ui.scenes.new_match import OPTION_LABELS
    raw = [f"{plugin.name}.{option.name}" for plugin in registry.all_plugins()
           for option in plugin.new_game().spec.options if not option.hidden and option.name not in OPTION_LABELS]
    assert raw == []


def test_the_games_status_words_are_said_in_vietnamese():
    """Each game's status line is a Message, said from its id and parts (no pattern reads
    the English back); "Your move" leaves out whose move it is by the same parts."""
    from games import registry
    from games.api import Message
    from runner import i18n
    from ui.game_texts import after_the_seat, game_text
    i18n.set_language("vi")
    try:
        assert game_text(Message("{seat} to move", seat="Red")) == "Đỏ đi"
        assert game_text(Message("{seat} to move (move {n})", seat="Player 1 (columns)", n=3)) \
            == "Người chơi 1 (cột) đi (nước 3)"
        assert game_text(Message("{seat} to move", seat="A, C")) == "A, C đi"
        assert game_text("Something no game says") == "Something no game says"
        hexp = registry.plugin("hex")
        game = hexp.new_game()
        state = game.new_initial_state(game.spec.resolve_options("5x5"), 0)
        assert game_text(game.describe(state)) == "Người chơi 1 (cột) đi (nước 1)"
        assert after_the_seat(game.describe(state), "Player 1 (columns)") == "nước 1"
        assert after_the_seat(game.describe(state), "Player 2 (rows)") is None
        shrink = Message("Turn {n}, next shrink after turn {shrink}: {rest}", n=12, shrink=20,
                         rest="A 5, B 3")
        assert game_text(shrink).startswith("Lượt 12, thu hẹp tiếp sau lượt 20: ")
        check = Message("{side} to move (check) · {rule}", side="Red", rule="first repeat ends the game")
        assert after_the_seat(check, "Red") == "(đang bị chiếu) · lặp lại lần đầu là hết ván"
        assert after_the_seat("Red to move (move 4)", "Red") == "move 4"       # plain English: cut by its words
        tamquan = registry.game("tamquan")
        setup = tamquan.new_initial_state(tamquan.spec.resolve_options(None, {}), seed=1)
        assert game_text(tamquan.describe(setup)).startswith("Chuẩn bị: đội A chọn vùng")
    finally:
        i18n.set_language("en")
    assert game_text(Message("{seat} to move", seat="Red")) == "Red to move"


def test_homes_recent_records_say_the_date_in_the_interface_language(tmp_path):
    import datetime
    import json
    from runner import i18n
    from ui.recent import format_when, summarize
    record = tmp_path / "m.arena.jsonl"
    record.write_text(json.dumps({"type": "header", "game": "hex", "started": "2026-11-03T14:05:09",
                                  "seats": [{"label": "bot:1"}, {"label": "bot:2"}]}) + "\n", encoding="utf-8")
    assert summarize(record).when == "3 Nov 2026 14:05"
    i18n.set_language("vi")
    assert summarize(record).when == "3 thg 11, 2026 14:05"
    assert format_when(datetime.datetime(2027, 5, 31, 9, 7)) == "31 thg 5, 2027 09:07"
    i18n.set_language("en")
    assert format_when(datetime.datetime(2027, 5, 31, 9, 7)) == "31 May 2027 09:07"
