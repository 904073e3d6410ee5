"""Watching bots play: a pace that can be changed, none (and undo) in a person's match, and
the pace kept by a match projected from the command line."""
from games import registry
from runner.match import Match
from runner.seats import make_seat

from ui_helpers import click, open_match, wait_until

HEX = registry.plugin("hex")
ROBOT = registry.plugin("robot")


# ---------------------------------------------------------------- watching at a pace
def test_a_watched_match_plays_at_a_pace_that_can_be_changed(home):
    from ui.scenes.match import WATCH_PACE
    options = ROBOT.new_game().spec.resolve_options(None, {"players": 4})
    match = Match(ROBOT, options, [make_seat("bot:1", ROBOT, i) for i in range(4)], seed=5)
    scene = open_match(home, match, full_speed=False)
    assert scene.pace_menu is not None and scene.pace_menu.selected_option[0] == f"{WATCH_PACE} / s"
    assert not scene.undo_button.visible
    wait_until(home, lambda: False, timeout=1.5)
    played = len(match.snapshot().turns)
    assert 2 <= played <= 1.5 * float(WATCH_PACE) + 2, played
    click(home, scene.pause_button)                      # pause, then one turn at a time
    held = len(match.snapshot().turns)
    wait_until(home, lambda: False, timeout=0.6)
    assert len(match.snapshot().turns) <= held + 1
    held = len(match.snapshot().turns)
    click(home, scene.step_button)
    assert wait_until(home, lambda: len(match.snapshot().turns) == held + 1)
    click(home, scene.pause_button)                      # resume, as fast as it goes
    menu = scene.pace_menu
    click(home, menu)
    fastest = next(b for b in menu.current_state.options_selection_list.item_list_container.elements
                   if b.text == "max")
    click(home, fastest)
    assert scene.pace == "max"
    assert wait_until(home, lambda: scene.finished, timeout=20)
    assert scene.replay_button.visible and not scene.pace_menu.visible


def test_a_person_s_match_has_undo_and_no_pace(home):
    match = Match(HEX, HEX.new_game().spec.resolve_options(None, {"size": 5}),
                  [make_seat("human", HEX, 0), make_seat("bot:1", HEX, 1)], seed=2)
    scene = open_match(home, match, full_speed=False)
    assert scene.pace_menu is None and scene.undo_button.visible
    match.stop()


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
