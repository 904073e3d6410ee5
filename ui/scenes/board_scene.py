"""What the Match and Replay screens share: board, players, move list, debug panels.

Layout (design units; the right column is fixed width, the board takes the rest):

    [Back] Title ............................... [Flip] [How to play]
    +------------------------------+  +--------------------------+
    |                              |  | players (colour, clock)  |
    |   board (scaled to fit)      |  | status line              |
    |                              |  | controls                 |
    |------------------------------|  | debug toggles per seat   |
    | debug panel per open seat    |  | move list (click = turn) |
    +------------------------------+  +--------------------------+
    [ status bar: the match's banner lines (contest authors), when it has any ]

The board animates (``view.time`` advances with the loop's clock and the board is
redrawn ANIMATION_FPS times a second) only when its renderer says the shown state
animates, and then only while the board is in motion (a match running, a replay
playing) or for SETTLE seconds after the shown state changed: a waiting screen
stays idle.
"""
from __future__ import annotations

import time

import pygame
import pygame_gui

from games.api import State
from games.replay import TurnInfo
from games.registry import GamePlugin
from games.render import BoardView, elide, font, wrap
from runner.i18n import _
from ui.boards import make_renderer, safe_draw
from ui.catalog import game_title, who_text
from runner.i18n import language
from ui.panels import PlayerLine, ScrollList, debug_rows, draw_players, move_rows
from ui.scene import Scene, is_pressed

COLUMN_W = 440
MARGIN = 20
TOP = 72
PLAYER_ROW = 66
STATUS_H = 84          # status (two lines) and a message line under the players
HOWTO_W, FLIP_W, EXTRA_W = 170, 80, 110
BAR_LINE = 24          # design height of one status-bar line
BAR_PAD = 10
ANIMATION_FRAME = 1 / 30
#: Share of the board area's height the debug panels take: the board stays the main thing.
DEBUG_SHARE = 0.3
SETTLE = 1.0           # seconds a new state's marks keep animating on a waiting screen


class BoardScene(Scene):
    """Base of the Match and Replay screens; subclasses supply the data and the controls."""

    #: Design-unit height reserved under the board (the replay's transport bar).
    board_footer = 0

    def __init__(self, app, plugin: GamePlugin, options, seat_labels: list[str]):
        super().__init__(app)
        self.plugin = plugin
        self.game = plugin.new_game()
        self.options = dict(options)
        self.raw_labels = list(seat_labels)            # as the match or record has them
        self.seat_labels = [who_text(label) for label in seat_labels]
        self.language = language()
        self.renderer = make_renderer(plugin, self.game, self.options, self.seat_labels, app.theme)
        self.view = BoardView()
        self.moves = ScrollList()
        self.debug_open: set[int] = set()
        self.debug_lists: dict[int, ScrollList] = {}
        self.selected: int | None = None        # state index picked in the move list (None: latest)
        self.message = ""                       # a transient line under the status (bad move ...)
        self.message_is_error = True
        self.shown_at = time.monotonic()        # when the shown state last changed
        self.since_animation = 0.0

    # ------------------------------------------------------------ data hooks
    def seat_count(self) -> int:
        return len(self.seat_labels)

    def turns(self) -> list[TurnInfo]:
        raise NotImplementedError

    def board_state(self) -> State:
        raise NotImplementedError

    def status_text(self) -> str:
        raise NotImplementedError

    def player_lines(self) -> list[PlayerLine]:
        raise NotImplementedError

    def final_state(self) -> State:
        """The state after the last turn (the move list's notation works from the whole game)."""
        return self.board_state()

    def status_bar_lines(self) -> list[str]:
        """Lines kept on show at the bottom of the screen (none: no bar)."""
        return []

    def board_in_motion(self) -> bool:
        """True while the shown state changes by itself (a running match, a playing replay)."""
        return False

    def seat_name(self, seat: int) -> str:
        return _(self.game.spec.seat_name(seat))

    def seat_colours(self) -> list[tuple]:
        return [self.renderer.seat_colour(i) for i in range(max(1, self.seat_count()))]

    # ------------------------------------------------------------ geometry
    def column_x(self) -> float:
        return self.dw - MARGIN - COLUMN_W

    def left_area(self) -> pygame.Rect:
        return self.rect(MARGIN, TOP, self.column_x() - 2 * MARGIN + MARGIN // 2,
                         self.dh - TOP - MARGIN - self.board_footer - self.status_bar_height())

    def status_bar_height(self) -> float:
        """Design height of the status bar, with the gap above it (0 without lines)."""
        lines = self.status_bar_lines()
        return len(lines) * BAR_LINE + 2 * BAR_PAD if lines else 0

    def status_bar_rect(self) -> pygame.Rect | None:
        height = self.status_bar_height()
        if not height:
            return None
        return self.rect(0, self.dh - height, self.dw, height)

    def debug_area(self) -> pygame.Rect | None:
        if not self.debug_open:
            return None
        area = self.left_area()
        height = round(area.height * DEBUG_SHARE)
        return pygame.Rect(area.x, area.bottom - height, area.width, height)

    def banner_height(self) -> int:
        """Pixels reserved above the board for a banner (the match's result)."""
        return 0

    def key_hint(self) -> str:
        """The keys a person may use now, shown under the board ("" when none)."""
        return ""

    def key_hint_lines(self) -> int:
        """Lines reserved under the board for :meth:`key_hint` (0: no strip)."""
        return 0

    def key_hint_rect(self) -> pygame.Rect | None:
        lines = self.key_hint_lines()
        if not lines:
            return None
        area = self.left_area()
        debug = self.debug_area()
        bottom = debug.y - self.px(10) if debug else area.bottom
        height = lines * font(self.px(16)).get_linesize() + self.px(6)
        return pygame.Rect(area.x, bottom - height, area.width, height)

    def board_rect(self) -> pygame.Rect:
        area = self.left_area()
        debug = self.debug_area()
        if debug:
            area.height -= debug.height + self.px(10)
        hint = self.key_hint_rect()
        if hint:
            area.height = hint.y - area.y - self.px(4)
        banner = self.banner_height()
        if banner:
            area.y += banner + self.px(8)
            area.height -= banner + self.px(8)
        return area

    def players_height(self) -> float:
        return PLAYER_ROW * min(4, self.seat_count())

    # ------------------------------------------------------------ layout
    def layout(self) -> None:
        if self.language != language():                   # the language changed in Settings
            self.language = language()
            self.seat_labels = [who_text(label) for label in self.raw_labels]
            self.renderer = make_renderer(self.plugin, self.game, self.options, self.seat_labels,
                                          self.app.theme)
        if self.renderer.theme != self.app.theme:        # dark/light changed in Settings
            self.renderer = make_renderer(self.plugin, self.game, self.options, self.seat_labels,
                                          self.app.theme)
        flip_x = self.dw - MARGIN - HOWTO_W - 8 - FLIP_W
        extra_x = flip_x
        self.extra_buttons = {}
        for text, tooltip in reversed(self.extra_header_buttons()):
            width = EXTRA_W
            extra_x -= width + 8
            button = self.button(self.rect(extra_x, 14, width, 42), _(text), tooltip=_(tooltip))
            self.extra_buttons[button] = text
        self.top_bar(_(game_title(self.plugin.name)), right=extra_x - 8)
        self.flip_button = self.button(self.rect(flip_x, 14, FLIP_W, 42), _("Flip"),
                                       tooltip=_("turn the board around (F)"))
        self.howto_button = self.button(self.rect(self.dw - MARGIN - HOWTO_W, 14, HOWTO_W, 42), _("How to play"))
        y = TOP + self.players_height() + STATUS_H
        y = self.layout_controls(self.column_x(), y)
        self.toggle_buttons = {}
        count = self.seat_count()
        gap = 8
        width = (COLUMN_W - gap * (count - 1)) / max(1, count)
        for seat in range(count):
            is_open = seat in self.debug_open
            text = ((_("Hide seat {n}") if is_open else _("Debug seat {n}")) if width >= 150
                    else _("Log {n}")).format(n=seat + 1)
            button = self.button(self.rect(self.column_x() + seat * (width + gap), y, width, 36), text,
                                 cls="@toggle_on" if is_open else None,
                                 tooltip=_("what {seat} was given and answered").format(seat=self.seat_name(seat)))
            self.toggle_buttons[button] = seat
        y += 46
        self.moves.rect = self.rect(self.column_x(), y, COLUMN_W,
                                    self.dh - y - MARGIN - self.status_bar_height())
        self.moves.size = self.px(18)
        self.refresh_moves()
        self.moves.reveal(self.selected if self.selected is not None else len(self.turns()))
        self._layout_debug_lists()

    def layout_controls(self, x: float, y: float) -> float:
        """Subclasses place their buttons from ``y``; return the next free ``y``."""
        return y

    def _layout_debug_lists(self) -> None:
        area = self.debug_area()
        seats = sorted(self.debug_open)
        if not area or not seats:
            return
        gap = self.px(10)
        width = (area.width - gap * (len(seats) - 1)) // len(seats)
        for n, seat in enumerate(seats):
            panel = self.debug_lists.setdefault(seat, ScrollList(follow_end=False, mono=True, wrap=True))
            panel.rect = pygame.Rect(area.x + n * (width + gap), area.y, width, area.height)
            panel.size = self.px(15)
        self.refresh_debug()

    # ------------------------------------------------------------ refresh
    def selected_index(self) -> int:
        """The state index whose turn the debug panel shows (latest when none is picked)."""
        return len(self.turns()) if self.selected is None else self.selected

    def selected_turn(self) -> TurnInfo | None:
        index = self.selected_index()
        turns = self.turns()
        return turns[index - 1] if 1 <= index <= len(turns) else None

    def refresh_moves(self) -> None:
        turns = self.turns()
        notation = self.app.settings.notations.get(self.plugin.name)
        try:
            labels = self.renderer.move_labels(self.final_state(), turns, notation)
        except Exception:             # a renderer bug must not empty the move list
            labels = None
        self.moves.set_rows(move_rows(turns, self.seat_colours(), self.app.theme, labels))
        self.moves.selected = self.selected_index()

    def refresh_debug(self) -> None:
        turn = self.selected_turn()
        for seat in self.debug_open:
            panel = self.debug_lists.get(seat)
            if panel is not None:
                panel.set_rows(debug_rows(turn, seat, self.seat_name(seat), self.app.theme, self.seat_name))
                panel.first = 0

    def debug_text(self, seat: int) -> str:
        """The debug panel's text for ``seat`` (tests and screen readers)."""
        panel = self.debug_lists.get(seat)
        return "\n".join("".join(t for t, _colour in row) for row in panel.rows) if panel else ""

    def select(self, index: int | None) -> None:
        self.selected = index
        self.moves.selected = self.selected_index()
        self.moves.reveal(self.moves.selected)
        self.refresh_debug()

    def toggle_debug(self, seat: int) -> None:
        self.debug_open ^= {seat}
        self.relayout()

    # ------------------------------------------------------------ animation
    def state_shown(self) -> None:
        """Note that the shown state changed (its marks animate for a moment)."""
        self.shown_at = time.monotonic()

    def animating(self) -> bool:
        try:
            animates = self.renderer.animates(self.board_state())
        except Exception:
            return False
        return animates and (self.board_in_motion() or time.monotonic() - self.shown_at < SETTLE)

    def tick_animation(self, dt: float) -> bool:
        """Advance ``view.time`` with the loop's clock; True when an animation frame is due."""
        self.view.time += dt
        if not self.animating():
            self.since_animation = 0.0
            return False
        self.since_animation += dt
        if self.since_animation < ANIMATION_FRAME:
            return False
        self.since_animation = 0.0
        return True

    def animation_wake(self, wake: float | None) -> float | None:
        """``wake`` shortened to the next animation frame while the board animates."""
        if not self.animating():
            return wake
        due = max(0.005, ANIMATION_FRAME - self.since_animation)
        return due if wake is None else min(wake, due)

    # ------------------------------------------------------------ events
    def flip_requested(self, event: pygame.event.Event) -> bool:
        """The Flip button or F (not while typing) turns the board around; True when used."""
        key = (event.type == pygame.KEYDOWN and event.key == pygame.K_f
               and not (getattr(event, "mod", 0) & (pygame.KMOD_CTRL | pygame.KMOD_ALT))
               and not self.app.text_focused())
        if not (key or is_pressed(event, self.flip_button)):
            return False
        self.view.flipped = not self.view.flipped
        self.view.hover = None
        return True

    def extra_header_buttons(self) -> list[tuple[str, str]]:
        """(text, tooltip) of buttons a scene adds left of Flip; see :meth:`header_action`."""
        return []

    def header_action(self, text: str) -> None:
        """One of :meth:`extra_header_buttons` was pressed."""

    def process_event(self, event: pygame.event.Event) -> bool:
        if self.flip_requested(event):
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.extra_buttons:
            self.header_action(self.extra_buttons[event.ui_element])
            return True
        if is_pressed(event, self.back_button):
            self.leave()
            return True
        if is_pressed(event, self.howto_button):
            from ui.scenes.howto import HowToScene
            self.app.push(HowToScene(self.app, self.plugin))
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.toggle_buttons:
            self.toggle_debug(self.toggle_buttons[event.ui_element])
            return True
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_UP, pygame.K_DOWN):
            step = -1 if event.key == pygame.K_UP else 1
            self.on_move_clicked(max(0, min(len(self.turns()), self.selected_index() + step)))
            return True
        if event.type == pygame.MOUSEWHEEL:
            return self.moves.handle_wheel(event) or any(
                p.handle_wheel(event) for s, p in self.debug_lists.items() if s in self.debug_open)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            row = self.moves.row_at(event.pos)
            if row is not None:
                self.on_move_clicked(row)
                return True
        return False

    def on_move_clicked(self, row: int) -> None:
        self.select(row)

    def leave(self) -> None:
        self.app.pop()

    # ------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        surface.fill(theme.background)
        board = self.board_rect()
        safe_draw(self.renderer, surface, board, self.board_state(), self.view)
        self.draw_overlay(surface, board)
        self.draw_key_hint(surface)
        x = self.px(self.column_x())
        players = self.players_rect()
        draw_players(surface, players, self.player_lines(), theme, self.app.scale)
        y = players.bottom + self.px(2)
        for line, face, colour in self.status_lines():
            surface.blit(face.render(line, True, colour), (x, y))
            y += face.get_linesize()
        self.moves.draw(surface, theme)
        for seat in sorted(self.debug_open):
            panel = self.debug_lists.get(seat)
            if panel is not None:
                panel.draw(surface, theme)
                strip = pygame.Rect(panel.rect.x, panel.rect.y, panel.rect.width, self.px(4))
                pygame.draw.rect(surface, self.renderer.seat_colour(seat), strip)

        self.draw_status_bar(surface)

    def draw_key_hint(self, surface: pygame.Surface) -> None:
        strip = self.key_hint_rect()
        text = self.key_hint()
        if strip is None or not text:
            return
        face = font(self.px(16))
        y = strip.y + self.px(3)
        for line in wrap(face, text, strip.width, self.key_hint_lines()):
            image = face.render(line, True, self.app.theme.muted)
            surface.blit(image, image.get_rect(midtop=(strip.centerx, y)))
            y += face.get_linesize()

    def status_lines(self) -> list[tuple[str, pygame.font.Font, tuple]]:
        """(text, font, colour) of the lines under the players: the status, then the
        message (a bad move, a question), both wrapped whole into the room between the
        players and the controls (the message takes the lines the status leaves)."""
        theme = self.app.theme
        width = self.px(COLUMN_W)
        status = font(self.px(18), bold=True)
        note = font(self.px(16))
        room = self.px(STATUS_H - 4)
        message = wrap(note, self.message, width) if self.message else []
        keep = max(1, min(2, (room - len(message) * note.get_linesize()) // status.get_linesize()))
        lines = [(line, status, theme.text) for line in wrap(status, self.status_text(), width, keep)]
        left = max(1, (room - len(lines) * status.get_linesize()) // note.get_linesize())
        colour = theme.bad if self.message_is_error else theme.good
        lines += [(line, note, colour) for line in (wrap(note, self.message, width, left) if message else [])]
        return lines

    def draw_status_bar(self, surface: pygame.Surface) -> None:
        """The banner lines across the bottom, on a panel strip, always legible."""
        bar = self.status_bar_rect()
        if bar is None:
            return
        theme = self.app.theme
        pygame.draw.rect(surface, theme.panel, bar)
        pygame.draw.rect(surface, theme.accent, (bar.x, bar.y, bar.width, max(2, self.px(3))))
        x, y = self.px(MARGIN), bar.y + self.px(BAR_PAD)
        for index, line in enumerate(self.status_bar_lines()):
            face = font(self.px(17), bold=index == 0)
            image = face.render(elide(face, line, bar.width - 2 * x), True, theme.text)
            surface.blit(image, (x, y + (self.px(BAR_LINE) - image.get_height()) // 2))
            y += self.px(BAR_LINE)

    def players_rect(self) -> pygame.Rect:
        return pygame.Rect(self.px(self.column_x()), self.px(TOP), self.px(COLUMN_W),
                           self.px(self.players_height()))

    def draw_region(self, surface: pygame.Surface, rect: pygame.Rect) -> bool:
        """Repaint only the players panel (the running clocks); no widget lies there."""
        if rect != self.players_rect():
            return False
        surface.fill(self.app.theme.background, rect)
        draw_players(surface, rect, self.player_lines(), self.app.theme, self.app.scale)
        return True

    def draw_overlay(self, surface: pygame.Surface, board: pygame.Rect) -> None:
        """Extra drawing over the board (the match's result banner)."""
