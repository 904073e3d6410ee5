"""Replay screen: keys, buttons, slider, events, playback, drag and drop, bad files."""
import time

import pygame
import pytest

from games import registry
from runner.match import Match, default_record_path
from runner.paths import records_dir
from runner.seats import make_seat
from ui_helpers import click, press, pump

HEX = registry.plugin("hex")


@pytest.fixture
def record(arena_home):
    """A finished bot-vs-bot Hex record on disk."""
    options = HEX.new_game().spec.resolve_options(None, {"size": 5, "time_total": 0})
    path = default_record_path(records_dir(), "hex")
    match = Match(HEX, options, [make_seat("bot:1", HEX, 1), make_seat("bot:1", HEX, 2)], seed=4,
                  record_path=path)
    match.run()
    return path


def open_view(app, path):
    app.open_replay(path)
    pump(app)
    assert type(app.scene).__name__ == "ReplayView", getattr(app.scene, "error", "")
    return app.scene


def test_keys_step_and_jump(home, record):
    view = open_view(home, record)
    assert view.index == 0 and view.last >= 9
    press(home, pygame.K_RIGHT)
    press(home, pygame.K_RIGHT)
    assert view.index == 2
    press(home, pygame.K_LEFT)
    assert view.index == 1
    press(home, pygame.K_END)
    assert view.index == view.last
    assert view.board_state().is_terminal()
    press(home, pygame.K_HOME)
    assert view.index == 0
    press(home, pygame.K_PAGEDOWN)                        # next event: the winning move
    assert view.index == view.replay.event_turns()[0]


def test_buttons_and_the_timeline_slider(home, record):
    view = open_view(home, record)
    buttons = {text: button for button, text in view.transport.items()}
    click(home, buttons[">"])
    click(home, buttons[">"])
    assert view.index == 2
    click(home, buttons[">|"])
    assert view.index == view.last
    click(home, buttons["|<"])
    assert view.index == 0
    click(home, view.slider.right_button)
    assert view.index == 1
    assert view.slider.get_current_value() == 1
    click(home, buttons["< event"])
    assert view.index == 0


def test_playback_advances_on_its_own_and_stops_at_the_end(home, record):
    view = open_view(home, record)
    view.speed = "16"
    buttons = {text: button for button, text in view.transport.items()}
    click(home, buttons["Play"])
    assert view.playing and view.play_button.text == "Pause"
    start = view.index
    end = time.monotonic() + 0.4
    while time.monotonic() < end:
        home.frame(block=True)                            # sleeps until the next step is due
    assert view.index >= start + 3
    while view.playing:
        home.frame(block=True)
    assert view.index == view.last and view.play_button.text == "Play"


def test_move_list_click_and_debug_panel(home, record):
    view = open_view(home, record)
    view.toggle_debug(1)
    pump(home)
    view.go(4)
    text = view.debug_text(1)
    assert "Turn 4" in text and "accepted" in text
    assert view.moves.selected == 4


def test_a_dropped_file_opens_in_the_replay_viewer(home, record):
    pygame.event.post(pygame.event.Event(pygame.DROPFILE, file=str(record)))
    pump(home)
    assert type(home.scene).__name__ == "ReplayView"
    assert home.settings.recent_records[0] == str(record.resolve())


def test_an_unreadable_record_shows_the_readers_message(home, record, tmp_path):
    lines = record.read_text(encoding="utf-8").splitlines()
    lines[2] = "{this is not json"
    broken = tmp_path / "broken.arena.jsonl"
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    home.open_replay(broken)
    pump(home)
    scene = home.scene
    assert type(scene).__name__ == "ReplayScene"
    assert str(broken) in scene.error and "line 3" in scene.error
    home.draw()                                           # drawing the message must not fail
    press(home, pygame.K_ESCAPE)
    assert type(home.scene).__name__ == "HomeScene"


def test_the_file_dialog_opens_the_chosen_record(home, record):
    from pathlib import Path
    click(home, home.scene.open_button)
    scene = home.scene
    assert type(scene).__name__ == "ReplayScene" and scene.dialog is not None
    dialog = scene.dialog
    dialog.current_file_path = Path(record)          # as picking it in the list does
    dialog.ok_button.enable()
    click(home, dialog.ok_button)
    assert type(home.scene).__name__ == "ReplayView"
    assert Path(home.scene.replay.source) == Path(record)


def test_a_replay_of_a_game_that_is_not_installed_is_a_message(home):
    from games.api import Outcome, Termination
    from games.replay import Replay
    from ui.scenes.replay import ReplayScene
    state = registry.plugin("hex").new_game().new_initial_state({"size": 3}, 0)
    replay = Replay("no-such-game", "test", "made-up.txt", {}, [state], [],
                    Outcome((), (0.5, 0.5), Termination.DRAW))
    home.push(ReplayScene(home, replay=replay))
    pump(home)
    assert type(home.scene).__name__ == "ReplayScene"
    assert "made-up.txt" in home.scene.error and "no-such-game" in home.scene.error


def test_export_button_saves_the_game_and_the_position_shown(home, arena_home):
    xiangqi = registry.plugin("xiangqi")
    path = default_record_path(records_dir(), "xiangqi")
    match = Match(xiangqi, xiangqi.new_game().spec.resolve_options(None, {"no_capture_limit": "20"}),
                  [make_seat("bot:1", xiangqi, 1), make_seat("bot:1", xiangqi, 2)], seed=5, record_path=path)
    match.run()
    view = open_view(home, path)
    for _ in range(6):
        press(home, pygame.K_RIGHT)
    (button,) = [b for b, text in view.extra_buttons.items() if text == "Export"]
    click(home, button)                             # Save as: a folder dialog, OK takes the one shown
    assert view.export_dialog is not None
    click(home, view.export_dialog.ok_button)
    folder = records_dir() / "exports"
    stem = path.name.split(".")[0]
    assert (folder / f"{stem}-position-6.fen").read_text().strip() == view.replay.states[6].fen()
    pgn = (folder / f"{stem}-game.pgn").read_text()
    assert '[Game "Chinese Chess"]' in pgn and match.states[-1].moves[0][:2] + "-" in pgn
    assert f"Saved {stem}-game.pgn, {stem}-position-6.fen" in view.message and not view.message_is_error
    assert view.status_bar_lines() == [f"Exported to {folder}: {stem}-game.pgn, {stem}-position-6.fen"]


def test_games_without_exports_show_no_export_button(home, arena_home):
    robot = registry.plugin("robot")
    path = default_record_path(records_dir(), "robot")
    Match(robot, robot.new_game().spec.resolve_options(None, {"map": "open-11"}),
          [make_seat("bot:1", robot, 1), make_seat("bot:1", robot, 2)], seed=5, record_path=path).run()
    view = open_view(home, path)
    assert "Export" not in view.extra_buttons.values(), "no game formats: only Picture (PNG, GIF, MP4)"


def test_a_branched_game_shows_where_it_branched(home, record, tmp_path):
    from runner.match import Branch
    from runner.records import open_replay
    origin = open_replay(record)
    path = tmp_path / "branch.arena.jsonl"
    Match(HEX, origin.header["options"], [make_seat("bot:2", HEX, 1), make_seat("bot:2", HEX, 2)],
          seed=origin.header["seed"], record_path=path, branch=Branch.of(origin, 3)).run()
    view = open_view(home, path)
    press(home, pygame.K_PAGEDOWN)                        # the first mark is the branch point
    assert view.index == 3 and "as recorded up to turn 3" in view.status_text()
    press(home, pygame.K_RIGHT)
    assert "branched at turn 3" in view.status_text()
