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


def test_a_move_list_note_not_shown_whole_is_shown_under_the_pointer(home):
    view = open_replay(home, "robot-sample.arena.jsonl")
    view.go(12)
    pump(home)
    turns = view.turns()
    shown = range(max(1, view.moves.first), view.moves.first + view.moves.visible_rows())
    # a row whose notes the list does not show whole: several events (the first is shown,
    # on a line of its own when the row is long) or, in a narrower list, one cut
    row = next(i for i in shown if i <= len(turns) and turns[i - 1].events and view.move_note(i))
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


def test_every_option_of_every_game_is_on_the_form_and_its_description_is_whole_on_hover(home):
    from games import registry
    from games.render import wrap
    from ui.scenes.new_match import NewMatchScene
    from ui_helpers import wait_until
    for plugin in registry.all_plugins():
        form = home.push(NewMatchScene(home, game=plugin.name))
        pump(home)
        shown = list(form.option_widgets.values())
        assert [o.name for o in shown] == [o.name for o in form.visible_options()], plugin.name
        face = font(form.px(14))
        for widget, option in form.option_widgets.items():
            lines = wrap(face, option.help, form.help_width())
            if len(lines) > form.help_lines(option):
                assert form.help_is_cut(option)
                assert option.help in (widget.tool_tip_text or ""), (plugin.name, option.name)
        home.pop()
    form = home.push(NewMatchScene(home, game="hex"))
    pump(home)
    widget = next(w for w, o in form.option_widgets.items() if o.name == "human_time_total")
    pos = widget.rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.mouse.set_pos(pos)
    assert wait_until(home, lambda: widget.tool_tip is not None, timeout=4)
    assert "0 = untimed" in widget.tool_tip.text_block.html_text
    assert home.window.get_rect().contains(widget.tool_tip.rect)


def test_a_winning_engine_seat_card_shows_its_name_and_score_whole_in_vietnamese(monkeypatch):
    """The players panel at its 1280×720 width, in Vietnamese (the longest clock note):
    the seat's label (engine name and score) is never elided; " · winner" is dropped
    where it does not fit (the name's colour says it)."""
    import ui.panels as panels
    from games.render import Theme
    from runner import i18n

    i18n.set_language("vi")
    elided = []
    real_elide = panels.elide

    def watching_elide(face, text, width):
        shown = real_elide(face, text, width)
        if shown != text:
            elided.append(text)
        return shown

    monkeypatch.setattr(panels, "elide", watching_elide)
    clock, note = panels.clock_texts(0.04, 20.0)
    player = panels.PlayerLine(name=i18n._("Player {n}").format(n=1), label="MoHex 2.0.CMake",
                               colour=(0, 110, 190), clock=clock, clock_note=note, score="1",
                               winner=True)
    surface = pygame.Surface((440, 140))
    panels.draw_players(surface, pygame.Rect(0, 0, 440, 140), [player, player], Theme(), 1.0)
    assert elided == []
