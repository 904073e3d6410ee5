"""Nothing a user must read is cut at 1280×720: move-list notes are shown whole when
pointed at, and the debug panels beside a tall board wrap their lines inside the panel."""
from pathlib import Path

import pygame

from games.render import font
from ui_helpers import pump

ROOT = Path(__file__).resolve().parents[2]


def open_replay(app, name):
    from ui.scenes.replay import ReplayScene
    app.push(ReplayScene(app, path=str(ROOT / "replays" / name)))
    pump(app)
    return app.scene


def point_at(app, pos):
    pos = (int(pos[0]), int(pos[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pump(app)


def test_a_cut_move_list_note_is_shown_whole_under_the_pointer(home):
    view = open_replay(home, "robot-sample.arena.jsonl")
    view.go(12)
    pump(home)
    turns = view.turns()
    shown = range(max(1, view.moves.first), view.moves.first + view.moves.visible_rows())
    row = next(i for i in shown if i <= len(turns) and turns[i - 1].events and view.moves.is_cut(i))
    note = "; ".join(e.text for e in turns[row - 1].events)
    point_at(home, (view.moves.rect.centerx, view.moves.row_top(row) + view.moves.line_height() // 2))
    assert view.pointed_row == row
    box, lines = view.move_note_box()
    assert " ".join(lines) == " ".join(f"Turn {turns[row - 1].number}: {note}".split())
    face = font(view.px(16))
    assert all(face.size(line)[0] <= box.width - 2 * view.px(8) for line in lines)
    assert home.window.get_rect().contains(box)
    home.draw()
    accent = home.theme.accent
    assert home.window.get_at((box.x + box.width // 2, box.y + 1))[:3] == accent[:3]
    point_at(home, (5, 5))                                 # pointer away: the note goes
    assert view.move_note_box() is None


def test_a_note_that_fits_needs_no_box(home):
    view = open_replay(home, "xiangqi-sample.arena.jsonl")
    view.go(12)
    pump(home)
    row = next(i for i, t in enumerate(view.turns(), 1) if len(t.events) == 1)
    assert not view.moves.is_cut(row) and view.move_note(row) == ""


def test_debug_panels_beside_a_tall_board_keep_their_text_inside(home):
    view = open_replay(home, "xiangqi-sample.arena.jsonl")
    view.go(12)
    view.toggle_debug(0)
    pump(home)
    panel = view.debug_lists[0]
    face = font(panel.size, mono=True)
    assert panel.rows
    for row in panel.rows:
        assert sum(face.size(t)[0] for t, _ in row) <= panel.rect.width - panel.size // 2, row
