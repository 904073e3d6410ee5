"""Home: pictures that follow the theme, the samples and recent records one click away,
quitting."""
import pygame

from games import registry
from runner.match import Match
from runner.seats import HumanSeat, make_seat

from ui_helpers import SAMPLES, click, open_match, play_button, press, pump, wait_until

HEX = registry.plugin("hex")


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
    scene = open_match(home, match, full_speed=False)
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


# ---------------------------------------------------------------- Light theme: home pictures
def picture_brightness(app, game) -> float:
    scene = app.scene
    index = [e.name for e in scene.entries].index(game)
    button = play_button(app, game)
    app.draw()
    tile_x = button.rect.x - app.px(12)
    area = pygame.Rect(tile_x, app.px(92), app.px(200), app.px(170))
    pixels = [app.window.get_at((x, y)) for x in range(area.x, area.right, 7) for y in range(area.y, area.bottom, 7)]
    assert index >= 0
    return sum(sum(p[:3]) / 3 for p in pixels) / len(pixels)


def test_home_pictures_follow_the_theme(home):
    from ui.catalog import game_entries
    for entry in game_entries():
        assert entry.picture_path("light").name == f"{entry.name}-light.png"
        assert entry.picture_path("dark").name == f"{entry.name}.png"
    dark = {g: picture_brightness(home, g) for g in ("hex", "tamquan")}
    home.set_theme("light")
    pump(home)
    light = {g: picture_brightness(home, g) for g in ("hex", "tamquan")}
    for game in dark:
        assert light[game] > dark[game] + 40, (game, dark[game], light[game])


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
