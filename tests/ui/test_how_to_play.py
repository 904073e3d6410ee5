"""How to play: Markdown drawn (tables, lists, emphasis), opened quickly even at 4K, and
clicks made while it opens dropped."""
from games import registry

from ui_helpers import click, pump


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
