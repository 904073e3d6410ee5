"""The clocks on the match screen: a person untimed by default while a bot keeps the
contest clock, the clock stopped while How to play is open, a seat's clock stopped once it
answered, and a person's time-out said in full."""
import time

import pygame

from games import registry
from runner.match import Match
from runner.seats import HumanSeat, make_seat

from ui_helpers import click, open_match, press, pump, wait_until

HEX = registry.plugin("hex")
ROBOT = registry.plugin("robot")


def start_from_form(home, game):
    """Home -> Play on ``game`` -> Start match with the form's defaults."""
    button = next(b for b, e in home.scene.play_buttons.items() if e.name == game)
    click(home, button)
    form = home.scene
    assert type(form).__name__ == "NewMatchScene" and form.error == ""
    click(home, form.start_button)
    scene = home.scene
    assert type(scene).__name__ == "MatchScene"
    return scene


# ---------------------------------------------------------------- default clocks
def test_a_person_is_untimed_by_default_while_the_bot_keeps_the_contest_clock(home):
    scene = start_from_form(home, "hex")
    match = scene.match
    assert [s.kind for s in match.seats] == ["human", "bot"]
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    snap = match.snapshot()
    assert snap.time_left[0] is None, "the person has no game clock"
    assert snap.time_left[1] == 20.0, "the program keeps the contest's 20 s"
    lines = scene.player_lines()
    assert lines[0].clock_note == "used" and "left" in lines[1].clock_note
    match.stop()


def test_the_clock_stops_while_how_to_play_is_open(home):
    match = Match(HEX, HEX.new_game().spec.resolve_options(None, {"size": 5}),
                  [make_seat("human", HEX, 0), make_seat("bot:1", HEX, 1)], seed=2)
    scene = open_match(home, match, full_speed=False)
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    asked = time.monotonic()
    click(home, scene.howto_button)
    assert type(home.scene).__name__ == "HowToScene"
    time.sleep(1.0)                                   # reading, not thinking
    pump(home)
    click(home, home.scene.back_button)
    assert home.scene is scene
    pump(home)
    held = match.snapshot().held[0]
    assert held >= 1.0, held
    assert scene.try_move("c3")
    assert wait_until(home, lambda: len(scene.snap.turns) >= 1)
    charged = match.snapshot().time_used[0]
    assert charged <= time.monotonic() - asked - 1.0, "the time under How to play is not charged"
    match.stop()


# ---------------------------------------------------------------- seat clocks
def test_a_seat_that_answered_stops_its_clock_in_a_simultaneous_turn(home):
    options = ROBOT.new_game().spec.resolve_options(None, {"players": 4})
    match = Match(ROBOT, options, [make_seat("human", ROBOT, 0)]
                  + [make_seat("bot:1", ROBOT, i) for i in (1, 2, 3)], seed=6)
    scene = open_match(home, match, full_speed=False)
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    assert wait_until(home, lambda: match.snapshot().pending == (0,)), "the bots have answered"
    time.sleep(0.7)                                   # the person thinks
    pump(home)
    lines = scene.player_lines()
    assert lines[0].clock >= "0:00.6"
    for bot in lines[1:]:
        assert bot.clock == "0:00.0" and not bot.to_move, bot
    assert lines[0].to_move
    press(home, pygame.K_ESCAPE)          # Back asks first; the match is stopped on leaving
    match.stop()


# ---------------------------------------------------------------- Play: Robot's person clock
def test_a_person_plays_robot_untimed_by_default():
    options = ROBOT.new_game().spec.resolve_options(None, {})
    assert float(options["human_time_per_move"]) == 0
    hex_default = registry.plugin("hex").new_game().spec.resolve_options(None, {})
    assert float(hex_default["human_time_total"]) == 0          # the same as the other games


def test_a_persons_time_out_in_robot_is_said_in_full(home):
    options = ROBOT.new_game().spec.resolve_options(None, {"players": 4, "human_time_per_move": 0.3})
    seats = [HumanSeat(label="Anna")] + [make_seat("bot:1", ROBOT, i) for i in (1, 2, 3)]
    match = Match(ROBOT, options, seats, seed=7)
    scene = open_match(home, match)
    assert wait_until(home, lambda: len(scene.snap.turns) >= 1, timeout=10)
    pump(home)
    match.pause()                       # a busy machine may play more turns meanwhile
    pump(home)
    message = scene.message
    said = __import__("re").match(r"Time ran out for Anna \(A\) on turn (\d+) after 0\.\d s\. (.+)\.$", message)
    assert said, message
    if said.group(1) == "1":            # the first move: placed at random, and where
        assert "A was placed at random on (" in message, message
    else:
        assert "The referee played" in message, message
    home.draw()
    lines = [text for text, face, _colour in scene.status_lines() if face.get_bold() is False]
    assert " ".join(lines).startswith("Time ran out for Anna (A) on turn ")
    assert not any(line.endswith("…") for line in lines), lines    # in full, wrapped
    status = [text for text, face, _colour in scene.status_lines() if face.get_bold()]
    assert not any(line.endswith("…") for line in status), status  # the status is not cut for it
    row = scene.moves.rows[1]
    assert any("time-out" in text for text, _colour in row)      # the move list says so too
    words = "".join(text for text, _colour in row)
    assert "-1 -1" not in words, words                          # the placed cell, not the code
    placed = __import__("re").search(r"time-out: random (\d+) (\d+)", words)
    assert placed, words
    assert tuple(int(v) for v in placed.groups()) in [tuple(e.squares[0]) for e in scene.turns()[0].events
                                                     if e.kind == "placement"]
    match.stop()
