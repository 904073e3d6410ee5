"""A person playing on the match screen: resigning, the keys shown on their turn, clicks
the rules refuse said why, a random placement read as its cell."""
import time

import pytest

from games import registry
from runner.match import Match
from runner.seats import HumanSeat, make_seat

from ui_helpers import click, open_match, pump, wait_until

ROBOT = registry.plugin("robot")


# ---------------------------------------------------------------- resign
def test_resign_in_robot_asks_then_takes_the_person_out(home):
    options = ROBOT.new_game().spec.resolve_options(None, {"players": 3})
    match = Match(ROBOT, options, [make_seat("human", ROBOT, 0), make_seat("bot:1", ROBOT, 1),
                                   make_seat("bot:1", ROBOT, 2)], seed=4)
    match.seats[0].label = "Anna"
    scene = open_match(home, match, full_speed=False)
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    assert scene.resign_button.is_enabled
    click(home, scene.resign_button)
    assert scene.resign_button.text == "Confirm" and "Anna" in scene.message
    time.sleep(0.2)
    pump(home)
    assert len(match.snapshot().turns) == 0, "one press does not resign"
    click(home, scene.resign_button)
    assert wait_until(home, lambda: len(match.snapshot().turns) >= 1)
    turn = match.snapshot().turns[0]
    assert turn.forfeits[0]["reason"] == "resignation"
    assert wait_until(home, lambda: not match.snapshot().state.robots[0].in_game)
    match.stop()


# ---------------------------------------------------------------- keys
def hint_pixels(app, scene) -> int:
    strip = scene.key_hint_rect()
    app.draw()
    area = app.window.subsurface(strip)
    background = app.theme.background
    return sum(1 for x in range(0, strip.width, 2) for y in range(0, strip.height, 2)
               if area.get_at((x, y))[:3] != background[:3])


def test_the_keys_are_shown_on_a_persons_turn_in_every_game(home):
    for plugin in registry.all_plugins():
        game = plugin.new_game()
        if not plugin.bot or not plugin.renderer:
            continue
        options = game.spec.resolve_options(None, {})
        count = game.seats_for(options)
        seats = [make_seat("human", plugin, 0)] + [make_seat("bot:1", plugin, i) for i in range(1, count)]
        scene = open_match(home, Match(plugin, options, seats, seed=1), full_speed=False)
        assert wait_until(home, lambda: scene.view.human_seat == 0), plugin.name
        hint = scene.key_hint()
        if plugin.name == "crosswords":       # no pointer to move: one draws from a pile first
            assert "pile" in hint and "Draw first" in hint, hint
        else:
            assert "arrow" in hint.lower() and "Enter" in hint, (plugin.name, hint)
        assert hint_pixels(home, scene) > 50, f"{plugin.name}: the keys are drawn under the board"
        assert scene.key_hint_rect().top >= scene.board_rect().bottom
        scene.match.stop()
        home.pop()


def test_robot_keys_after_placement_name_shift_and_space(home):
    options = ROBOT.new_game().spec.resolve_options(None, {"players": 2})
    match = Match(ROBOT, options, [make_seat("human", ROBOT, 0), make_seat("bot:1", ROBOT, 1)], seed=4)
    scene = open_match(home, match, full_speed=False)
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    assert "Click an open cell" in scene.key_hint()
    state = scene.snap.state
    cell = next((x, y) for x in range(state.board.height) for y in range(state.board.width)
                if state.is_open(x, y))
    assert scene.try_move(f"{cell[0]} {cell[1]}")
    assert wait_until(home, lambda: len(scene.snap.turns) == 1 and scene.view.human_seat == 0)
    hint = scene.key_hint()
    assert "Shift+arrow" in hint and "Space: stay" in hint
    match.stop()


def test_robot_howto_and_the_new_match_help_mention_the_keys(home):
    from ui.scenes.new_match import SEAT_HINTS
    assert "Shift+arrow" in " ".join(SEAT_HINTS) and "arrow keys" in SEAT_HINTS[0]
    text = ROBOT.howto_text()
    assert "Shift + arrow" in text and "Space" in text and "python main.py" not in text


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


def test_a_random_placement_reads_as_its_cell_in_the_move_list():
    from games.api import Event
    from games.replay import TurnInfo
    from games.robot.render import RobotRenderer
    game = ROBOT.new_game()
    renderer = RobotRenderer(game, game.spec.resolve_options(None, {}))
    turns = [TurnInfo(1, {0: "-1 -1", 1: "3 4"}, events=(Event("placement", "A was placed at random on (7, 9)",
                                                                   (0,), ((7, 9),)),)),
             TurnInfo(2, {0: "7 10", 1: "-1 -1"})]
    assert renderer.move_labels(None, turns, None) == [{0: "random 7 9", 1: "3 4"}, {0: "7 10", 1: "random cell"}]


# ---------------------------------------------------------------- Play: illegal clicks say why
def person_against_bot(game_name, options, person_seat=0, bot="bot:1"):
    plugin = registry.plugin(game_name)
    resolved = plugin.new_game().spec.resolve_options(None, options)
    seats = [make_seat(bot, plugin, 3) for _ in range(plugin.new_game().seats_for(resolved))]
    seats[person_seat] = HumanSeat(label="Anna")
    return Match(plugin, resolved, seats, seed=5)


def click_board(app, scene, pos):
    from ui_helpers import click_at
    scene.message = ""
    click_at(app, (round(pos[0]), round(pos[1])))


def test_clicking_an_occupied_hex_cell_says_why(home):
    match = person_against_bot("hex", {"size": 5, "time_total": 0}, person_seat=1)
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 1, timeout=10)
    home.draw()
    state = scene.snap.state
    taken = next((r, c) for r in range(1, 6) for c in range(1, 6)
                 if scene.renderer.layout.cell_at(*scene.renderer.layout.centre(r, c)) == (r, c)
                 and state.look(r, c) == 1)
    # the bot's first stone may be swapped (pie rule): first take the swap off the table
    scene.try_move(next(m.text() for m in state.legal_moves(1) if not m.is_swap and m.text() != "swap"))
    assert wait_until(home, lambda: scene.view.human_seat == 1 and len(scene.snap.turns) == 3, timeout=10)
    home.draw()
    click_board(home, scene, scene.renderer.layout.centre(*taken))
    assert "is occupied" in scene.message and scene.message_is_error
    assert len(scene.snap.turns) == 3                 # nothing was played
    match.stop()


def test_clicking_an_illegal_xiangqi_target_says_why(home):
    match = person_against_bot("xiangqi", {"time_total": 0})
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 0, timeout=10)
    home.draw()
    layout = scene.renderer.layout
    click_board(home, scene, layout.centre_of("B0"))          # the horse
    assert scene.view.selected == "B0" and scene.message == ""
    click_board(home, scene, layout.centre_of("B5"))
    assert "horse cannot move from B0 to B5" in scene.message, scene.message
    click_board(home, scene, layout.centre_of("E5"))          # nothing picked up
    assert "Pick up one of your pieces first" in scene.message
    assert not scene.snap.turns
    match.stop()


def test_clicking_outside_the_tam_quan_zones_says_why(home):
    match = person_against_bot("tamquan", {})
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 0, timeout=10)
    home.draw()
    state = scene.snap.state
    outside = next((r, c) for r in range(state.layout.size) for c in range(state.layout.size)
                   if not any((r, c) in zone for zone in state.layout.zones))
    click_board(home, scene, scene.renderer.layout.cell_rect(*outside).center)
    assert "is outside the free zones" in scene.message and scene.message_is_error
    match.stop()
