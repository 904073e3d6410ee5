"""The replay viewer's bot-developer tools, driven as a person would: the event marks on
the slider and the kind filter, the board diff, re-running a turn, branching from a
turn, and saving a picture or a film (issue 16, points 1, 2, 4 and 5 in the window)."""
import sys
from pathlib import Path

import pygame
import pytest
from PIL import Image

from games import registry
from runner.match import Match, default_record_path
from runner.paths import records_dir
from runner.records import open_replay
from runner.seats import make_seat
from ui.timeline import NEW_COLOUR, RECORDED_COLOUR, kind_colour, timeline_marks
from ui_helpers import click, press, pump, wait_until

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
SAMPLES = {game: ROOT / "replays" / f"{game}-sample.arena.jsonl"
           for game in ("hex", "xiangqi", "robot", "tamquan", "crosswords")}
#: Each game's deterministic example program (and the options of a short game).
EXAMPLES = {
    "robot": ({"map": "open-11", "players": 2}, f"{PY} {ROOT / 'games/robot/examples/greedy_bot.py'}", "ext"),
    "hex": ({"size": 6}, f"{PY} {ROOT / 'games/hex/examples/shortest_path.py'}", "ext"),
    "tamquan": ({}, f"{PY} {ROOT / 'games/tamquan/examples/greedy_bot.py'}", "ext"),
    "crosswords": ({}, f"{PY} {ROOT / 'games/crosswords/examples/simple_player.py'}", "ext"),
    "xiangqi": ({"no_capture_limit": 8}, f"{PY} {ROOT / 'tests/xiangqi/programs/fake_engine.py'}", "uci"),
}


def choose_in_dropdown(app, menu, option: str) -> None:
    """Open a pygame_gui drop-down with a click and click one of its options."""
    click(app, menu)
    items = menu.current_state.options_selection_list.item_list
    button = next(item["button_element"] for item in items if item["text"] == option)
    click(app, button)


def open_view(app, path):
    app.open_replay(path)
    pump(app)
    assert type(app.scene).__name__ == "ReplayView", getattr(app.scene, "error", "")
    return app.scene


def tool_button(view, text):
    return next(b for b, action in view.tool_buttons.items() if b.text == text)


def step_to(app, view, index):
    press(app, pygame.K_HOME)
    for _ in range(index):
        press(app, pygame.K_RIGHT, frames=1)
    assert view.index == index


def colour_shown(surface, rect, colour, tolerance=40) -> int:
    """How many pixels in ``rect`` are within ``tolerance`` of ``colour`` (every 2nd pixel)."""
    count = 0
    for y in range(rect.top, rect.bottom, 2):
        for x in range(rect.left, rect.right, 2):
            pixel = surface.get_at((x, y))
            if all(abs(pixel[i] - colour[i]) <= tolerance for i in range(3)):
                count += 1
    return count


# ---------------------------------------------------------------- timeline and diff
@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_event_marks_the_kind_filter_and_the_board_diff(home, game):
    view = open_view(home, SAMPLES[game])
    marks = timeline_marks(view.replay)
    assert marks, f"the {game} sample has events"
    assert view.mark_rects, "the marks are drawn above the slider"
    strip = view.marks_strip()
    assert all(strip.inflate(view.px(30), 0).contains(r) for r in view.mark_rects)
    tick = view.mark_rects[0]
    assert colour_shown(home.window, tick, kind_colour(marks[0].kind), 10), "a tick shows its kind's colour"
    # K picks the first kind; Page Down goes to its marks only, in order
    press(home, pygame.K_k)
    kind = view.kind_filter
    assert kind == marks[0].kind
    wanted = sorted({m.index for m in marks if m.kind == kind})
    for index in wanted[:3]:
        press(home, pygame.K_PAGEDOWN)
        assert view.index == index, (kind, wanted)
    visited = wanted[:3]
    if len(visited) > 1:
        press(home, pygame.K_PAGEUP)
        assert view.index == visited[-2]
    # D marks what changed on the board on this turn; D again hides it
    step_to(home, view, 1)
    press(home, pygame.K_d)
    assert view.show_diff
    board = view.board_rect()
    regions = view.board_regions(board, view.replay.states[0], view.replay.states[1])
    assert regions, "the first turn changed something on the board"
    from ui.timeline import DIFF_COLOUR
    pump(home)
    assert colour_shown(home.window, board, DIFF_COLOUR, 12) > 5, "the diff is drawn on the board"
    same = view.board_regions(board, view.replay.states[1], view.replay.states[1])
    assert same == [], "a position compared with itself has no change"
    click(home, tool_button(view, "Diff"))
    assert not view.show_diff


def test_the_events_menu_filters_and_the_buttons_jump(home):
    view = open_view(home, SAMPLES["xiangqi"])
    choose_in_dropdown(home, view.kind_menu, "check")
    assert view.kind_filter == "check"
    checks = sorted({m.index for m in view.marks if m.kind == "check"})
    (forward,) = [b for b, t in view.transport.items() if t == "event >"]
    click(home, forward)
    assert view.index == checks[0]
    click(home, forward)
    assert view.index == checks[1]
    (back,) = [b for b, t in view.transport.items() if t == "< event"]
    click(home, back)
    assert view.index == checks[0]
    assert "check" in view.message


def test_late_illegal_and_repaired_answers_are_marks():
    from games.replay import Replay, TurnInfo
    replay = open_replay(SAMPLES["tamquan"])
    turns = list(replay.turns)
    turns[0] = TurnInfo(1, dict(turns[0].moves), {0: {"text": "x", "failure": "timeout", "detail": "late"}})
    turns[1] = TurnInfo(2, dict(turns[1].moves) or {1: "m"},
                        {1: {"text": "?", "failure": "illegal-move", "detail": "bad", "notes": ["fixed"]}})
    made = Replay(replay.game, replay.format, replay.source, replay.header, replay.states, turns)
    kinds = {(m.index, m.kind) for m in timeline_marks(made)}
    assert {(1, "late answer"), (2, "illegal answer"), (2, "repair")} <= kinds


# ---------------------------------------------------------------- re-run
def program_record(game, seed=2):
    options, command, kind = EXAMPLES[game]
    plugin = registry.plugin(game)
    options = plugin.new_game().spec.resolve_options(None, options)
    specs = [f"{kind}:{command}"] + ["bot:1"] * (plugin.new_game().seats_for(options) - 1)
    path = default_record_path(records_dir(), game)
    Match(plugin, options, [make_seat(s, plugin, seed + i) for i, s in enumerate(specs)], seed=seed,
          record_path=path).run()
    return path


def run_in_pane(app, view, command=None):
    pane = view.tool
    if command is not None:
        pane.entry.set_text(command)
    click(app, pane.run_button)
    assert wait_until(app, lambda: pane.thread is None and (pane.result or pane.error), timeout=60), "re-run finished"
    pump(app)
    return pane


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_rerun_in_the_window_reproduces_the_example_bots_answer(home, game):
    path = program_record(game)
    view = open_view(home, path)
    turn = next(t for t in range(2, len(view.replay.turns) + 1) if 0 in view.replay.states[t - 1].to_move())
    step_to(home, view, turn)
    click(home, tool_button(view, "Re-run"))
    pane = view.tool
    assert pane.seat == 0 and EXAMPLES[game][1] in pane.entry.get_text(), "the recorded program is offered"
    pane = run_in_pane(home, view)
    assert not pane.error, pane.error
    assert pane.result.same_move, (pane.result.recorded.get("text"), pane.result.new.text)
    assert pane.result.new.text == view.replay.turns[turn - 1].answers[0]["text"]
    assert any("same move" in text for text, _c, _s in pane.lines())
    assert view.rerun_shown is pane.result


def test_a_changed_build_shows_both_moves_on_the_board(home, tmp_path):
    from bench.viewer_screenshots import changed_build, first_different_turn
    path = program_record("robot")
    program = changed_build(tmp_path)              # the example bot, neighbours searched otherwise
    turn = first_different_turn(path, program)
    view = open_view(home, path)
    step_to(home, view, turn)
    click(home, tool_button(view, "Re-run"))
    pane = run_in_pane(home, view, f"{PY} {program}")
    assert pane.result is not None and not pane.result.same_move, pane.error
    lines = [text for text, _c, _s in pane.lines()]
    assert lines[0].startswith("recorded: ") and lines[1].startswith("new: ") and "different move" in lines
    board, legend = view.board_rect(), view.legend_rect

    def on_board(colour):
        return colour_shown(home.window, board, colour, 12) - colour_shown(home.window, legend, colour, 12)
    assert on_board(RECORDED_COLOUR) > 5, "the recorded move is outlined"
    assert on_board(NEW_COLOUR) > 5, "the new move is outlined"
    press(home, pygame.K_RIGHT)                      # another turn: the marks go
    assert colour_shown(home.window, board, NEW_COLOUR, 12) == 0


def test_a_program_that_fails_is_a_line_not_a_crash(home, tmp_path):
    path = program_record("robot")
    view = open_view(home, path)
    step_to(home, view, 2)
    click(home, tool_button(view, "Re-run"))
    crash = tmp_path / "crash.py"
    crash.write_text("raise SystemExit(3)\n")
    pane = run_in_pane(home, view, f"{PY} {crash}")
    assert pane.result is not None and pane.result.new.failure is not None
    assert "different move" in [t for t, _c, _s in pane.lines()]
    pane = run_in_pane(home, view, "nosuchkind:whatever")
    assert pane.error and view.rerun_shown is None


# ---------------------------------------------------------------- branch
def test_branch_from_the_window_is_a_new_match_that_names_its_origin(home):
    hexgame = registry.plugin("hex")
    options = hexgame.new_game().spec.resolve_options(None, {"size": 5, "time_total": 0})
    origin = default_record_path(records_dir(), "hex")
    Match(hexgame, options, [make_seat("bot:1", hexgame, 1), make_seat("bot:1", hexgame, 2)], seed=4,
          record_path=origin).run()
    view = open_view(home, origin)
    step_to(home, view, 3)
    click(home, tool_button(view, "Branch"))
    pane = view.tool
    assert [m.selected_option[0] for m in pane.menus] == ["Bot", "Bot"]
    click(home, pane.start_button)
    match = view.branched
    assert type(home.scene).__name__ == "MatchScene" and home.scene.match is match
    assert wait_until(home, lambda: match.outcome is not None, timeout=30)
    branched = open_replay(match.record_path)
    assert branched.header["branch"] == {"record": str(origin), "turn": 3}
    assert [t.moves for t in branched.turns[:3]] == [t.moves for t in view.replay.turns[:3]]
    click(home, home.scene.back_button)
    click(home, home.scene.back_button) if type(home.scene).__name__ == "MatchScene" else None
    shown = open_view(home, match.record_path)
    assert any(m.kind == "branch" and m.index == 3 for m in shown.marks)
    press(home, pygame.K_PAGEDOWN)
    assert shown.index == 3 and "as recorded up to turn 3" in shown.status_text()


def test_a_bad_branch_seat_is_a_message(home):
    view = open_view(home, SAMPLES["hex"])
    step_to(home, view, 2)
    click(home, tool_button(view, "Branch"))
    pane = view.tool
    pane.kinds[0], pane.values[0] = "Program", ""
    home.scene.relayout()
    pane = view.tool
    next(e for e, s in pane.entries.items() if s == 0).set_text("nosuchkind:x")
    pane.values[0] = "nosuchkind:x"
    click(home, pane.start_button)
    assert type(home.scene).__name__ == "ReplayView" and pane.error


# ---------------------------------------------------------------- pictures and films
def save_through_dialog(app, view, out: Path):
    pane = view.tool
    click(app, pane.save_button)
    dialog = pane.dialog
    assert dialog is not None and dialog.window_display_title == "Save as"
    assert Path(dialog.current_file_path).name == pane.default_name(), "the record's name is offered"
    dialog.current_file_path = out                  # as typing the name in the dialog does
    dialog.file_path_text_line.set_text(str(out))
    dialog.ok_button.enable()
    click(app, dialog.ok_button)
    assert wait_until(app, lambda: pane.job is None, timeout=60)
    pump(app)
    assert not pane.error, pane.error
    return pane


@pytest.mark.parametrize("fmt", ["PNG", "GIF", "MP4"])
def test_picture_and_film_through_save_as(home, tmp_path, fmt):
    view = open_view(home, SAMPLES["robot"])
    step_to(home, view, 5)
    (button,) = [b for b, text in view.extra_buttons.items() if text == "Picture"]
    click(home, button)
    pane = view.tool
    if fmt != "PNG":
        choose_in_dropdown(home, pane.format_menu, fmt)
        pane = view.tool
        pane.range_entries["first"].set_text("2")
        pane.range_entries["last"].set_text("13")
    pane.size_entry.set_text("480x270")
    out = tmp_path / "films" / f"robot.{fmt.lower()}"
    out.parent.mkdir()
    pane = save_through_dialog(home, view, out)
    assert out.is_file()
    assert str(out) in pane.done and str(out) in view.status_bar_lines()[0], "the message says where, whole"
    assert home.settings.export_folder == str(out.parent), "the folder is remembered"
    if fmt == "PNG":
        assert Image.open(out).size == (480, 270)
    elif fmt == "GIF":
        assert Image.open(out).n_frames == 12
    else:
        assert "12 frames" in pane.done and out.stat().st_size > 1000


def test_film_settings_that_make_no_sense_are_messages(home, tmp_path):
    view = open_view(home, SAMPLES["hex"])
    (button,) = [b for b, text in view.extra_buttons.items() if text == "Picture"]
    click(home, button)
    pane = view.tool
    pane.size_entry.set_text("big")
    pane.read_fields()
    pane.start(tmp_path / "x.png")
    assert "WIDTHxHEIGHT" in pane.error and not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_every_game_branches_from_the_window(home, game):
    view = open_view(home, SAMPLES[game])
    step_to(home, view, 2)
    click(home, tool_button(view, "Branch"))
    pane = view.tool
    for entry, seat in pane.entries.items():         # the quickest bots, typed as a person would
        entry.set_text("1")
    click(home, pane.start_button)
    match = view.branched
    assert match is not None, pane.error
    assert wait_until(home, lambda: match.outcome is not None, timeout=90), f"the {game} branch finished"
    branched = open_replay(match.record_path)
    assert branched.header["branch"]["turn"] == 2 and branched.branch_turn() == 2
    assert [t.moves for t in branched.turns[:2]] == [t.moves for t in view.replay.turns[:2]]


def test_a_whole_game_program_cannot_take_over_a_branch(home):
    view = open_view(home, SAMPLES["crosswords"])
    step_to(home, view, 2)
    click(home, tool_button(view, "Branch"))
    pane = view.tool
    pane.kinds[0], pane.values[0] = "Program", f"{PY} {ROOT / 'games/crosswords/examples/simple_player.py'}"
    view.relayout()
    click(home, view.tool.start_button)
    assert type(home.scene).__name__ == "ReplayView" and view.branched is None
    assert "cannot take over at turn 2" in pane.error
