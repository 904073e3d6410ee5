"""The shell's frame loop, scene stack, settings and the simple screens, driven by real events."""
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from ui_helpers import click, click_at, press, pump

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- import and settings
def test_importing_the_ui_opens_no_window_and_creates_no_folder(tmp_path):
    home = tmp_path / "home-not-created"
    code = ("import ui.app, ui.scenes.home, ui.scenes.match, ui.scenes.replay, ui.scenes.new_match, "
            "ui.scenes.settings, ui.scenes.howto, pygame; "
            "assert not pygame.display.get_init(); print('ok')")
    env = {**os.environ, "ARENA_HOME": str(home), "SDL_VIDEODRIVER": "dummy"}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "ok" in result.stdout
    assert not home.exists()


def test_settings_round_trip_and_recent_list_order(arena_home):
    from ui.settings import MAX_RECENT, Settings, load_settings, save_settings
    settings = Settings(theme="light", window_size=(1600, 900))
    for i in range(MAX_RECENT + 3):
        settings.add_recent(arena_home / f"r{i}.arena.jsonl")
    settings.add_recent(arena_home / "r5.arena.jsonl")            # again: moves to the front
    path = save_settings(settings)
    assert path == arena_home / "settings.json"
    again = load_settings()
    assert again.theme == "light" and again.window_size == (1600, 900)
    assert len(again.recent_records) == MAX_RECENT
    assert Path(again.recent_records[0]).name == "r5.arena.jsonl"
    assert Path(again.recent_records[1]).name == f"r{MAX_RECENT + 2}.arena.jsonl"
    assert [p.name for p in arena_home.iterdir()] == ["settings.json"]     # no temp file left


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"theme": 7, "window_size": "big"}', ""])
def test_a_corrupt_settings_file_gives_the_defaults(arena_home, content):
    from ui.settings import Settings, load_settings
    arena_home.mkdir(parents=True, exist_ok=True)
    (arena_home / "settings.json").write_text(content, encoding="utf-8")
    assert load_settings() == Settings()


# ---------------------------------------------------------------- the loop
def test_an_idle_screen_sleeps_in_the_event_wait_and_does_not_redraw(home, monkeypatch):
    import ui.app
    monkeypatch.setattr(ui.app, "IDLE_WAKE", 0.3)
    home.last_input = -1e9
    home.draw()
    drawn = home.frames_drawn
    # A full collection of the suite's large heap can take tens of ms of this thread's
    # CPU; it is not the loop's doing, so it is kept out of the measurement.
    gc.collect()
    gc.disable()
    try:
        cpu, wall = time.thread_time(), time.monotonic()
        home.frame(block=True)
        home.frame(block=True)
        cpu, wall = time.thread_time() - cpu, time.monotonic() - wall
    finally:
        gc.enable()
    assert home.frames_drawn == drawn, "nothing changed, so nothing may be drawn"
    assert wall >= 0.5, "the loop must wait for events, not spin"
    assert cpu < 0.05 * wall, "a loop that spins uses the whole wait's CPU"


def test_input_while_idle_is_handled_promptly(home, monkeypatch):
    import threading

    import ui.app
    monkeypatch.setattr(ui.app, "IDLE_WAKE", 2.0)
    click(home, home.scene.settings_button)
    home.last_input = -1e9
    home.draw()
    posted = []

    def press_escape():
        posted.append(time.monotonic())
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="",
                                             scancode=0))

    threading.Timer(0.2, press_escape).start()
    home.frame(block=True)
    handled = time.monotonic()
    assert posted and handled - posted[0] < 0.1, "an idle loop must still answer input at once"
    assert type(home.scene).__name__ == "HomeScene"


def test_input_marks_the_screen_dirty_and_it_is_redrawn(home):
    drawn = home.frames_drawn
    click_at(home, (640, 700))
    assert home.frames_drawn > drawn


def test_window_resize_rescales_the_layout(home):
    before = home.scene.new_button.rect.copy()
    pygame.display.set_mode((1920, 1080), pygame.RESIZABLE)
    home.window_resized()
    pump(home)
    after = home.scene.new_button.rect
    assert home.scale == 1.5
    assert after.width == pytest.approx(before.width * 1.5, abs=2)
    click(home, home.scene.settings_button)                  # still clickable at the new size
    assert type(home.scene).__name__ == "SettingsScene"


def test_f11_toggles_fullscreen_and_back(home):
    press(home, pygame.K_F11)
    assert home.fullscreen
    press(home, pygame.K_F11)
    assert not home.fullscreen
    assert home.size == (1280, 720)


# ---------------------------------------------------------------- home
def test_home_lists_all_five_games_and_vietnamese_letters_render(home):
    from games.render import font
    titles = [e.title for e in home.scene.entries]
    for title in ("Hex", "Xiangqi", "Robot Đại Chiến", "Crossed Words Solitaire", "Cờ Tam Quân"):
        assert title in titles
    missing = font(24).metrics("\U0001F600")[0]             # an emoji: not in Noto Sans
    for ch in "ĐạếờâÂ":
        assert font(24).metrics(ch)[0] != missing, f"{ch!r} has no glyph"
    installed = {e.name for e in home.scene.entries if e.available}
    assert {p.name for p in home.scene.play_buttons.values()} == installed
    assert "hex" in installed


def test_home_shows_a_broken_game_with_its_error_and_the_others_still_play(broken_game, app):
    """One bad import in a new game's package, one game whose rules fail to load: both keep
    their tiles with a short error; every other game still plays."""
    from ui.scenes.home import HomeScene
    broken_game()
    broken_game("halfdone", source=('from games.registry import GamePlugin\n'
                                    'PLUGIN = GamePlugin(name="halfdone", game="games.halfdone.rules:Game")\n'),
                files={"rules.py": "raise NotImplementedError('rules not written yet')\n"})
    app.push(HomeScene(app))
    pump(app)
    entries = {e.name: e for e in app.scene.entries}
    assert entries["brokenx"].broken and not entries["brokenx"].available
    assert "No module named 'games.brokenx.rulez'" in entries["brokenx"].error
    assert entries["halfdone"].error.startswith("NotImplementedError: rules not written yet")
    assert {e.name for e in app.scene.play_buttons.values()} >= {"hex", "xiangqi", "robot"}
    app.draw()
    rects = dict(zip(entries, app.scene.tile_rects()))
    tile = app.window.subsurface(rects["brokenx"])
    bad = app.theme.bad[:3]
    assert any(tile.get_at((x, y))[:3] == bad for x in range(0, tile.get_width(), 2)
               for y in range(tile.get_height())), "the tile says 'Cannot load'"
    click_at(app, rects["brokenx"].center)
    assert type(app.scene).__name__ == "HomeScene"          # nothing to open
    click(app, next(b for b, e in app.scene.play_buttons.items() if e.name == "hex"))
    assert type(app.scene).__name__ == "NewMatchScene"


def test_home_buttons_open_their_screens_and_escape_goes_back(home):
    for name, expected in (("new_button", "NewMatchScene"), ("settings_button", "SettingsScene"),
                           ("open_button", "ReplayScene")):
        click(home, getattr(home.scene, name))
        assert type(home.scene).__name__ == expected
        press(home, pygame.K_ESCAPE)
        if type(home.scene).__name__ != "HomeScene":        # a file dialog takes the first Esc
            press(home, pygame.K_ESCAPE)
            click(home, home.scene.back_button)
        assert type(home.scene).__name__ == "HomeScene"
    assert len(home.scenes) == 1


def test_how_to_play_shows_the_games_guide(home):
    button = next(b for b, e in home.scene.howto_buttons.items() if e.name == "hex")
    click(home, button)
    scene = home.scene
    assert type(scene).__name__ == "HowToScene"
    guide = scene.plugin.howto_text()
    first_words = next(line for line in guide.splitlines() if line.strip() and not line.startswith("#"))
    assert first_words.split()[0] in scene.box.html_text
    click(home, scene.back_button)
    assert type(home.scene).__name__ == "HomeScene"


def test_recent_records_are_listed_and_open(home, arena_home, tmp_path):
    record = tmp_path / "broken.arena.jsonl"
    record.write_text("not a record\n", encoding="utf-8")
    home.settings.add_recent(record)
    home.scene.relayout()
    pump(home)
    (button, path), = home.scene.recent_buttons.items()
    click(home, button)
    assert type(home.scene).__name__ == "ReplayScene"
    assert "broken.arena.jsonl" in home.scene.error and "line 1" in home.scene.error


# ---------------------------------------------------------------- settings
def test_settings_apply_saves_the_file_and_switches_the_theme(home, arena_home):
    from games.render import LIGHT
    click(home, home.scene.settings_button)
    scene = home.scene
    click(home, scene.name_entries[0])                       # focus, then type
    entry = scene.name_entries[0]
    for _ in range(len(entry.get_text())):
        press(home, pygame.K_BACKSPACE, frames=1)
    for ch in "Lưu":
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    pump(home)
    assert scene.names[0] == "Lưu"
    scene.theme = "light"                                     # as the dropdown would set it
    click(home, scene.apply_button)
    saved = json.loads((arena_home / "settings.json").read_text(encoding="utf-8"))
    assert saved["names"][0] == "Lưu" and saved["theme"] == "light"
    assert home.theme == LIGHT
    assert type(home.scene).__name__ == "SettingsScene" and home.scene.apply_button.alive()


# ---------------------------------------------------------------- the entry point
def test_run_app_opens_a_match_and_quitting_stops_it(arena_home):
    from argparse import Namespace

    from games import registry
    from runner.match import Match
    from runner.seats import HumanSeat, make_seat
    from ui.app import run_app
    plugin = registry.plugin("hex")
    match = Match(plugin, plugin.new_game().spec.resolve_options("5x5"),
                  [HumanSeat(), make_seat("bot:1", plugin, 1)], seed=1)
    pygame.display.init()                               # so the event can wait in the queue
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert run_app(Namespace(fullscreen=False, size="1024x640"), match=match) == 0
    match.join(5)
    assert match.outcome is not None and match.outcome.reason.value == "aborted"


def test_run_app_with_a_bad_replay_path_returns_normally(arena_home, tmp_path):
    from argparse import Namespace

    from ui.app import run_app
    pygame.display.init()                               # so the event can wait in the queue
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert run_app(Namespace(fullscreen=False, size=None), replay_path=str(tmp_path / "missing.txt")) == 0
