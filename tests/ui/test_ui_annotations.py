"""Bot annotations on screen: for every game, a replay of the shipped example program's
match draws what it wrote over the board, the layer changes pixels only where its
commands point, and the per-seat toggle (button, or Ctrl+N) takes it away; a live
match draws them too."""
import sys
from pathlib import Path

import pygame
import pytest

from ui_helpers import click, pump, wait_until
from waiting import play_turns

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
EXAMPLES = {
    "robot": (None, ["robot/examples/greedy_bot.py", "bot:1"]),
    "xiangqi": (None, ["xiangqi/examples/greedy_mover.py", "bot:1"]),
    "hex": ("7x7", ["hex/examples/shortest_path.py", "bot:1"]),
    "tamquan": (None, ["tamquan/examples/greedy_bot.py", "bot:1"]),
    "crosswords": (None, ["crosswords/examples/simple_player.py"]),
}


def new_match(game, folder):
    from games import registry
    from runner.match import Match
    from runner.seats import make_seat
    plugin = registry.plugin(game)
    variant, specs = EXAMPLES[game]
    specs = [s if s.startswith("bot") else f"ext:{PY} {ROOT / 'games' / s}" for s in specs]
    options = plugin.new_game().spec.resolve_options(variant, {"seconds": "5"} if game == "crosswords" else {})
    seats = [make_seat(spec, plugin, i) for i, spec in enumerate(specs)]
    return Match(plugin, options, seats, seed=3, variant=variant,
                 record_path=Path(folder) / f"{game}.arena.jsonl")


def record_of(game, folder, turns=6):
    match = new_match(game, folder)
    play_turns(match, turns)
    return match.record_path


def board_picture(app, scene) -> pygame.Surface:
    app.draw()
    return app.window.subsurface(scene.board_rect()).copy()


def changed(a: pygame.Surface, b: pygame.Surface) -> pygame.mask.Mask:
    """The pixels where two pictures differ."""
    forward, backward = a.copy(), b.copy()
    forward.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    backward.blit(a, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    forward.blit(backward, (0, 0), special_flags=pygame.BLEND_RGB_ADD)
    same = pygame.mask.from_threshold(forward, (0, 0, 0, 255), (1, 1, 1, 255))
    same.invert()
    return same


def where_expected(scene, commands, size) -> pygame.mask.Mask:
    """Where the commands may change pixels: round their cells (and between the two
    cells of a line), and the text box in the board's top-left corner."""
    board = scene.board_rect()
    allowed = pygame.mask.Mask(size)
    def allow(rect):
        allowed.draw(pygame.mask.Mask(rect.size, fill=True), rect.topleft)
    for command in commands:
        cells = [command[1]] + ([command[2]] if command[0] in ("line", "arrow") else [])
        spots = [scene.renderer.annotation_spot(tuple(c)) for c in cells if command[0] != "text"]
        spots = [s for s in spots if s]
        if not spots:
            continue
        xs, ys = [s[0] - board.x for s in spots], [s[1] - board.y for s in spots]
        half = max(s[2] for s in spots) * 1.3 + 4
        wide = half + (len(command[3]) * spots[0][2] * 0.4 if command[0] == "mark" else 0)  # its label
        allow(pygame.Rect(min(xs) - wide, min(ys) - half, max(xs) - min(xs) + 2 * wide,
                          max(ys) - min(ys) + 2 * half))
    allow(pygame.Rect(0, 0, int(board.width * 0.6), board.height // 3))
    return allowed


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_a_replay_draws_the_annotations_where_they_point_and_hides_them_per_seat(app, tmp_path, game):
    from ui.scenes.replay import ReplayScene
    record = record_of(game, tmp_path)
    app.push(ReplayScene(app, path=str(record)))
    pump(app)
    view = app.scene
    number = next(t.number for t in view.replay.turns if t.answers.get(0, {}).get("debug"))
    view.go(number)
    pump(app)
    commands = view.shown_annotations()[0]
    assert view.marks_buttons, "the Marks toggles are shown when a seat annotated"
    shown = board_picture(app, view)
    assert view.draw_marks(app.window, view.board_rect()) > 0
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_1, mod=pygame.KMOD_CTRL,
                                         unicode="", scancode=0))
    pump(app)
    assert 0 in view.marks_hidden
    hidden = board_picture(app, view)
    diff = changed(shown, hidden)
    assert diff.count() > 50, "the layer draws something"
    outside = diff.overlap_mask(where_expected(view, commands, shown.get_size()), (0, 0))
    stray = diff.count() - outside.count()
    assert stray == 0, f"{stray} pixels changed away from every annotated cell"
    view.toggle_debug(0)
    panel_words = " ".join(view.debug_text(0).split())      # the panel wraps long rows
    assert f"Annotations: {len(commands)} drawing command" in panel_words
    view.toggle_debug(0)                     # closed again: the board takes its room back
    button = next(b for b, seat in view.marks_buttons.items() if seat == 0)
    click(app, button)
    assert 0 not in view.marks_hidden
    assert changed(shown, board_picture(app, view)).count() == 0, "shown again, as before"


def test_a_live_match_draws_the_latest_annotations(app, tmp_path):
    from ui.scenes.match import MatchScene
    match = new_match("robot", tmp_path)
    scene = app.push(MatchScene(app, match))
    try:
        assert scene.marks_buttons, "a program seat gets its toggle before it draws anything"
        assert wait_until(app, lambda: scene.shown_annotations().get(0), timeout=30)
        match.pause()
        pump(app)
        assert scene.draw_marks(app.window, scene.board_rect()) > 0
        scene.toggle_marks(0)
        assert scene.shown_annotations() == {} and scene.draw_marks(app.window, scene.board_rect()) == 0
    finally:
        match.stop()
        match.join(10)


def test_no_marks_toggles_when_nobody_annotates(app, tmp_path):
    from games import registry
    from runner.match import Match
    from runner.seats import make_seat
    from ui.scenes.replay import ReplayScene
    plugin = registry.plugin("hex")
    match = Match(plugin, plugin.new_game().spec.resolve_options("7x7", {}),
                  [make_seat("bot:1", plugin, 0), make_seat("bot:1", plugin, 1)], seed=1)
    match.run()
    app.push(ReplayScene(app, replay=match.as_replay()))
    pump(app)
    assert app.scene.marks_buttons == {} and app.scene.shown_annotations() == {}
