"""Bullets of the newcomers' issue that had no test of their own, driven as a user would."""
import time

import pygame
import pytest

from games import registry
from runner import paths
from runner.match import Match
from runner.seats import make_seat
from ui_helpers import click, pump, wait_until


def pick(app, menu, text):
    click(app, menu)
    item = next(b for b in menu.current_state.options_selection_list.item_list_container.elements
                if b.text == text)
    click(app, item)


def play_button(home, game):
    return next(b for b, e in home.scene.play_buttons.items() if e.name == game)


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


# ---------------------------------------------------------------- Resign in every game
@pytest.mark.parametrize("game", ["xiangqi", "tamquan", "crosswords"])
def test_resign_asks_then_ends_the_persons_game_in_every_game(home, game):
    from ui.scenes.match import MatchScene
    plugin = registry.plugin(game)
    options = plugin.new_game().spec.resolve_options(None, {})
    seats = [make_seat("human", plugin, 0)]
    if plugin.new_game().spec.min_seats > 1:
        seats.append(make_seat("bot:1", plugin, 1))
    match = Match(plugin, options, seats, seed=3)
    match.seats[0].label = "Anna"
    scene = home.push(MatchScene(home, match))
    pump(home)
    assert wait_until(home, lambda: scene.view.human_seat == 0, timeout=10)
    click(home, scene.resign_button)
    assert scene.resign_button.text == "Confirm" and "Anna" in scene.message
    time.sleep(0.2)
    pump(home)
    assert match.snapshot().outcome is None, "one press does not resign"
    click(home, scene.resign_button)
    assert wait_until(home, lambda: scene.finished, timeout=10), game
    outcome = scene.snap.outcome
    assert 0 not in outcome.winners
    if len(seats) > 1:
        assert outcome.winners == (1,), outcome                # the other side wins, no tie
    said = [t.forfeits.get(0, {}).get("reason") for t in match.snapshot().turns]
    assert outcome.reason.value == "resignation" or "resignation" in said, (outcome, said)
    match.stop()


# ---------------------------------------------------------------- records folder
def test_a_match_without_programs_leaves_no_seat_folders(home):
    click(home, play_button(home, "hex"))
    form = home.scene
    click(home, form.start_button)
    scene = home.scene
    assert type(scene).__name__ == "MatchScene"
    assert wait_until(home, lambda: scene.view.human_seat == 0, timeout=10)
    click(home, scene.resign_button)
    click(home, scene.resign_button)
    assert wait_until(home, lambda: scene.finished, timeout=10)
    scene.match.stop()
    folders = [p for p in paths.records_dir().rglob("seat*") if p.is_dir()]
    assert paths.records_dir().is_dir() and folders == []


# ---------------------------------------------------------------- the form remembers
def test_the_form_remembers_seats_and_levels_and_a_new_seat_plays_like_the_others(home):
    click(home, play_button(home, "robot"))
    form = home.scene
    for widgets in form.seat_widgets[1:]:
        pick(home, widgets["level"], "3 · territory")
    assert [s.level for s in form.seats if s.kind == "bot"] == [3]
    pick(home, form.variant_menu, "4 players")
    assert [s.kind for s in form.seats] == ["human", "bot", "bot", "bot"]
    assert [s.level for s in form.seats[1:]] == [3, 3, 3], "new seats take the others' level"
    click(home, form.start_button)
    home.scene.match.stop()
    home.pop()
    click(home, play_button(home, "robot"))
    again = home.scene
    assert again.variant == "4 players"
    assert [(s.kind, s.level) for s in again.seats[1:]] == [("bot", 3)] * 3
    assert [w["level"].selected_option[0] for w in again.seat_widgets[1:]] == ["3 · territory"] * 3


# ---------------------------------------------------------------- the organizers' projection
def test_a_match_projected_from_the_command_line_keeps_the_watching_pace(arena_home):
    from argparse import Namespace

    from ui.app import open_app
    from ui.scenes.match import WATCH_PACE
    robot = registry.plugin("robot")
    options = robot.new_game().spec.resolve_options(None, {"players": 4})
    match = Match(robot, options, [make_seat("bot:1", robot, i) for i in range(4)], seed=5)
    app = open_app(Namespace(fullscreen=False, size="1280x720"), match=match)
    try:
        scene = app.scene
        assert type(scene).__name__ == "MatchScene" and scene.pace == WATCH_PACE
        wait_until(app, lambda: False, timeout=1.5)
        played = len(match.snapshot().turns)
        assert 2 <= played <= 1.5 * float(WATCH_PACE) + 2, played
    finally:
        match.stop()
        app.close()
