"""New match and Match screens: real clicks reach the match, the match reaches the screen."""
import json
import time

import pygame

from games import registry
from runner.match import Match
from runner.seats import Answer, HumanSeat, Seat, make_seat
from ui_helpers import click, click_at, open_match, press, pump, wait_until

HEX = registry.plugin("hex")


class ScriptedSeat(Seat):
    """A slow, predictable program stand-in: plays the first empty cell and logs what it saw."""

    kind = "bot"

    def __init__(self, delay: float = 0.02):
        super().__init__("scripted", "Scripted")
        self.delay = delay

    def ask(self, state, seat, time_limit):
        time.sleep(self.delay)
        move = sorted(m for m in state.legal_moves(seat) if not m.is_swap)[0]
        return Answer(move=move, given=f"GIVEN-MARKER turn {state.turn}\nsize {state.size}",
                      answered=move.text(), stderr=f"thinking about turn {state.turn}",
                      elapsed=self.delay)


def hex_match(seats, size=5, **kwargs) -> Match:
    options = HEX.new_game().spec.resolve_options(None, {"size": size, "time_total": 0})
    return Match(HEX, options, seats, seed=11, **kwargs)


def row_centre(scene, row: int) -> tuple[int, int]:
    moves = scene.moves
    y = moves.rect.y + moves.size // 4 + (row - moves.first) * moves.line_height() + moves.line_height() // 2
    return moves.rect.x + moves.rect.width // 3, y


# ---------------------------------------------------------------- new match
def test_new_match_validates_options_inline_and_starts_a_match(home, arena_home):
    scene = home.scene
    hex_play = next(b for b, e in scene.play_buttons.items() if e.name == "hex")
    click(home, hex_play)
    form = home.scene
    assert type(form).__name__ == "NewMatchScene" and form.game_name == "hex"
    size_entry = next(w for w, o in form.option_widgets.items() if o.name == "size")
    click(home, size_entry)
    for _ in range(len(size_entry.get_text())):
        press(home, pygame.K_BACKSPACE, frames=1)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="x"))
    pump(home)
    assert "size" in form.error and not form.start_button.is_enabled
    assert "size" in form.error_label.text
    press(home, pygame.K_BACKSPACE, frames=1)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="5"))
    pump(home)
    assert form.error == "" and form.start_button.is_enabled
    assert [s.spec() for s in form.seats] == ["human", "bot:2"]
    click(home, form.start_button)
    match_scene = home.scene
    assert type(match_scene).__name__ == "MatchScene"
    assert match_scene.match.options["size"] == 5
    saved = json.loads((arena_home / "settings.json").read_text(encoding="utf-8"))
    assert saved["last_seats"]["hex"] == ["human", "bot:2"]
    assert wait_until(home, lambda: match_scene.view.human_seat == 0)
    match_scene.match.stop()


def test_an_external_seat_without_a_command_is_an_inline_error(home):
    from ui.scenes.new_match import NewMatchScene
    form = home.push(NewMatchScene(home, game="hex"))
    form.seats[1].kind = "ext"
    form.relayout()
    pump(home)
    assert "command" in form.error and not form.start_button.is_enabled
    assert form.start() is None and type(home.scene).__name__ == "NewMatchScene"


# ---------------------------------------------------------------- a person plays by clicking
def test_a_person_plays_hex_against_a_bot_by_clicking_cells(home):
    human = HumanSeat(label="Anna")
    match = hex_match([human, make_seat("bot:1", HEX, 5)], size=5)
    scene = open_match(home, match)
    renderer = scene.renderer
    assert type(renderer).__name__ == "HexRenderer"
    played = 0
    while match.snapshot().outcome is None:
        assert wait_until(home, lambda: scene.view.human_seat == 0 or match.snapshot().outcome), \
            "the person should be asked to move"
        if match.snapshot().outcome:
            break
        home.draw()                                      # the renderer knows where cells are
        state = scene.snap.state
        row, col = next((r, c) for r in range(1, 6) for c in range(1, 6) if state.look(r, c) == 0)
        before = len(scene.snap.turns)
        click_at(home, renderer.layout.centre(row, col))
        assert wait_until(home, lambda: len(scene.snap.turns) > before), "the click must reach the match"
        turn = scene.snap.turns[before]
        assert turn.moves[0] == f"{'abcde'[col - 1]}{row}"
        assert scene.snap.state.look(row, col) == 1 or scene.snap.outcome
        played += 1
    assert played >= 3
    assert wait_until(home, lambda: scene.finished)
    assert scene.replay_button.visible and not scene.pause_button.visible
    click(home, scene.replay_button)
    view = home.scene
    assert type(view).__name__ == "ReplayView"
    assert len(view.replay.states) == len(match.turns) + 1


def test_an_illegal_typed_move_is_refused_without_costing_the_game(home):
    match = hex_match([HumanSeat(label="Anna"), make_seat("bot:1", HEX, 5)], size=5)
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    assert not scene.try_move("z9")
    assert scene.message and match.snapshot().outcome is None
    assert scene.try_move("c3")
    assert wait_until(home, lambda: len(scene.snap.turns) >= 1)
    assert scene.snap.turns[0].moves == {0: "c3"}
    match.stop()


def test_undo_and_resign(home):
    match = hex_match([HumanSeat(label="Anna"), make_seat("bot:1", HEX, 5)], size=7)
    scene = open_match(home, match)
    for move in ("d4", "c3"):
        assert wait_until(home, lambda: scene.view.human_seat == 0)
        assert scene.try_move(move) or scene.try_move("a1")
    assert wait_until(home, lambda: len(scene.snap.turns) == 4 and scene.view.human_seat == 0)
    assert scene.undo_button.is_enabled
    click(home, scene.undo_button)
    assert wait_until(home, lambda: len(scene.snap.turns) == 2 and scene.view.human_seat == 0)
    click(home, scene.resign_button)             # the first press only asks
    assert scene.resign_button.text == "Confirm" and "Resign this game as Anna?" in scene.message
    assert match.snapshot().outcome is None
    press(home, pygame.K_ESCAPE)                 # Esc takes the question back, stays on the match
    assert scene.resign_button.text == "Resign" and scene.message == "" and home.scene is scene
    click(home, scene.resign_button)
    click(home, scene.resign_button)
    assert wait_until(home, lambda: scene.finished)
    assert scene.snap.outcome.winners == (1,)
    assert scene.snap.outcome.reason.value == "resignation"


# ---------------------------------------------------------------- watching
def test_pause_stops_the_match_and_step_plays_exactly_one_turn(home):
    match = hex_match([ScriptedSeat(0.02), ScriptedSeat(0.02)], size=11)
    scene = open_match(home, match)
    assert wait_until(home, lambda: len(scene.snap.turns) >= 2)
    click(home, scene.pause_button)
    assert scene.pause_button.text == "Resume"
    time.sleep(0.1)                                       # a turn in flight may still land
    pump(home)
    paused_at = len(match.snapshot().turns)
    time.sleep(0.25)
    pump(home)
    assert len(match.snapshot().turns) == paused_at, "a paused match must not advance"
    assert scene.step_button.is_enabled
    click(home, scene.step_button)
    assert wait_until(home, lambda: len(scene.snap.turns) == paused_at + 1)
    time.sleep(0.15)
    assert len(match.snapshot().turns) == paused_at + 1
    click(home, scene.pause_button)                       # resume
    assert wait_until(home, lambda: len(scene.snap.turns) >= paused_at + 3)
    match.stop()


def test_the_debug_panel_shows_what_a_seat_was_given_for_the_clicked_turn(home):
    match = hex_match([ScriptedSeat(0.0), ScriptedSeat(0.0)], size=5)
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.finished)
    toggle = next(b for b, seat in scene.toggle_buttons.items() if seat == 0)
    click(home, toggle)
    assert scene.debug_open == {0}
    scene.moves.scroll(-1000)
    home.draw()
    click_at(home, row_centre(scene, 3))                  # turn 3: seat 0's second move
    assert scene.selected == 3
    text = scene.debug_text(0)
    assert "GIVEN-MARKER turn 2" in text
    assert "thinking about turn 2" in text               # the stderr tail
    assert "accepted" in text
    click_at(home, row_centre(scene, 1))
    assert "GIVEN-MARKER turn 0" in scene.debug_text(0)


def test_back_asks_twice_before_stopping_a_running_match(home):
    match = hex_match([ScriptedSeat(0.05), ScriptedSeat(0.05)], size=11)
    scene = open_match(home, match)
    click(home, scene.back_button)
    assert home.scene is scene and "again" in scene.message
    click(home, scene.back_button)
    assert type(home.scene).__name__ == "HomeScene"
    match.join(5)
    assert match.outcome is not None and match.outcome.reason.value == "aborted"


def test_a_running_match_is_polled_not_redrawn_every_frame(home):
    match = hex_match([ScriptedSeat(0.0), ScriptedSeat(0.0)], size=5)
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.finished)
    home.last_input = -1e9
    pump(home)
    drawn = home.frames_drawn
    assert scene.wake_interval() is None                  # finished: nothing to poll
    for _ in range(5):
        home.frame(block=False)
    assert home.frames_drawn == drawn


def test_how_to_play_from_the_match_and_back_keeps_the_match(home):
    match = hex_match([ScriptedSeat(0.01), ScriptedSeat(0.01)], size=7)
    scene = open_match(home, match)
    click(home, scene.howto_button)
    assert type(home.scene).__name__ == "HowToScene" and scene.root is None
    before = len(match.snapshot().turns)
    assert wait_until(home, lambda: len(match.snapshot().turns) > before + 2), "the match plays on"
    press(home, pygame.K_ESCAPE)
    assert home.scene is scene and scene.pause_button.alive()
    assert wait_until(home, lambda: len(scene.snap.turns) == len(match.snapshot().turns))
    match.stop()


def test_up_and_down_keys_walk_the_move_list(home):
    match = hex_match([ScriptedSeat(0.0), ScriptedSeat(0.0)], size=5)
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.finished)
    last = len(scene.snap.turns)
    press(home, pygame.K_UP)
    press(home, pygame.K_UP)
    assert scene.selected == last - 2 and scene.moves.selected == last - 2
    press(home, pygame.K_DOWN)
    press(home, pygame.K_DOWN)
    assert scene.selected is None and scene.moves.selected == last       # back to following


def test_a_running_clock_repaints_only_the_players_panel(home):
    match = hex_match([HumanSeat(label="Anna"), make_seat("bot:1", HEX, 5)], size=5)
    scene = open_match(home, match)
    assert wait_until(home, lambda: scene.view.human_seat == 0)
    home.last_input = -1e9
    pump(home)
    full, regions = home.frames_drawn, home.regions_drawn
    end = time.monotonic() + 0.5
    while time.monotonic() < end:
        home.frame(block=True)
    assert home.regions_drawn - regions >= 3, "the clock must keep running on screen"
    assert home.frames_drawn == full, "nothing but the clock changed"
    match.stop()


def test_a_match_started_from_the_window_writes_the_contest_files_and_result(home, arena_home):
    """As headless matches do: HEX.OUT, the SGF and result.json in the match's folder."""
    from ui.scenes.new_match import NewMatchScene
    form = home.push(NewMatchScene(home, game="hex"))
    for seat in form.seats:
        seat.kind, seat.level = "bot", 1
    form.option_texts["size"] = "4"
    form.relayout()
    pump(home)
    assert form.error == "", form.error
    scene = form.start()
    assert type(scene).__name__ == "MatchScene" and scene.match.options["size"] == 4
    assert wait_until(home, lambda: scene.match.snapshot().outcome is not None, timeout=20)
    scene.match.join(5)
    record = scene.match.record_path
    assert record.parent == arena_home / "records" and record.is_file()
    folder = record.with_name(record.name.removesuffix(".arena.jsonl"))
    assert {"HEX.OUT", "hex.sgf", "result.json"} <= {p.name for p in folder.iterdir()}
    result = json.loads((folder / "result.json").read_text())
    assert result["result"] in ("1-0", "0-1") and result["record"] == str(record)
