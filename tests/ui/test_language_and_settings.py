"""A live language switch reaches every screen and back; Settings' default names, hints and
messages; Vietnamese results and tooltips; a window kept on its display."""
import pygame

from games import registry
from runner.match import Match

from tournament_events import write_event_folder
from ui_helpers import SAMPLES, open_sample, pump, wait_until


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
