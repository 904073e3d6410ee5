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

The debug panels go below the board or beside it, whichever leaves the board bigger
(:func:`split_for_debug`): a wide Hex rhombus keeps the width and gives up some height,
a tall Xiangqi board or a square map keeps its height and gives up unused width.

The board animates (``view.time`` advances with the loop's clock and the board is
redrawn ANIMATION_FPS times a second) only when its renderer says the shown state
animates, and then only while the board is in motion (a match running, a replay
playing) or for SETTLE seconds after the shown state changed: a waiting screen
stays idle.
"""
from __future__ import annotations

import time
import traceback

import pygame
import pygame_gui

from games.api import State
from games.replay import TurnInfo
from games.registry import GamePlugin
from games.render import BoardView, elide, font, wrap
from games.render.annotations import draw_annotations
from runner.i18n import _, language
from ui.boards import make_renderer, safe_draw
from ui.catalog import game_title, who_text
from ui.game_texts import rules_text
from ui.panels import PlayerLine, ScrollList, debug_rows, draw_players, engine_line, move_rows
from ui.scene import Scene, is_pressed

COLUMN_W = 440
MARGIN = 20
TOP = 72
PLAYER_ROW = 66
STATUS_H = 84          # status (two lines) and a message line under the players
HOWTO_W, FLIP_W, EXTRA_W = 170, 80, 110
BAR_LINE = 24          # design height of one status-bar line
BAR_PAD = 10
BAR_WRAP = 3          # rows one status-bar line may take before it is cut
ANIMATION_FRAME = 1 / 30
#: Share of the board area's height the debug panels take at least when below the board.
DEBUG_SHARE = 0.3
#: Design width the debug panels take at least when beside the board (about 34 characters).
DEBUG_MIN_W = 300
#: Side of the square the board is drawn in once to measure its shape.
PROBE = 240
SETTLE = 1.0           # seconds a new state's marks keep animating on a waiting screen


def debug_button_text(seat: int) -> str:
    """The debug panel's toggle for ``seat``: one name at every width and in both states
    (the button's lit style says whether the panel is open)."""
    return _("Debug {n}").format(n=seat + 1)


def split_for_debug(area: pygame.Rect, aspect: float, min_width: int, min_height: int,
                    gap: int) -> tuple[pygame.Rect, pygame.Rect, str]:
    """(board area, debug area, "below" or "beside"): the debug panels take the side that
    leaves the biggest board of shape ``aspect`` (width / height), and on that side all the
    room the board does not use, but at least ``min_width`` or ``min_height``."""
    aspect = aspect if aspect > 0 else 1.0
    # below: the board keeps the width; its height is what fits, at most all but min_height
    below_h = max(1, min(area.height - min_height - gap, round(area.width / aspect)))
    below_scale = min(area.width / aspect, below_h)
    # beside: the board keeps the height; its width is what fits, at most all but min_width
    beside_w = max(1, min(area.width - min_width - gap, round(area.height * aspect)))
    beside_scale = min(beside_w / aspect, area.height)
    if beside_scale > below_scale:
        board = pygame.Rect(area.x, area.y, beside_w, area.height)
        panel = pygame.Rect(board.right + gap, area.y, area.right - board.right - gap, area.height)
        return board, panel, "beside"
    board = pygame.Rect(area.x, area.y, area.width, below_h)
    panel = pygame.Rect(area.x, board.bottom + gap, area.width, area.bottom - board.bottom - gap)
    return board, panel, "below"


def drawn_aspect(renderer, state, view: BoardView) -> float:
    """Width / height of what ``renderer`` draws in a square (1.0 when it fills it, or fails)."""
    probe = pygame.Surface((PROBE, PROBE))
    probe.fill((255, 0, 255))
    try:
        renderer.draw(probe, probe.get_rect(), state, view)
    except Exception:
        return 1.0
    mask = pygame.mask.from_threshold(probe, (255, 0, 255), (1, 1, 1, 255))
    mask.invert()
    boxes = mask.get_bounding_rects()
    if not boxes:
        return 1.0
    box = boxes[0].unionall(boxes[1:])
    return box.width / max(1, box.height)


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
        self.seat_labels = [who_text(label, plugin.bot_levels) for label in seat_labels]
        self.language = language()
        self.renderer = make_renderer(plugin, self.game, self.options, self.seat_labels, app.theme)
        self.view = BoardView()
        self.moves = ScrollList(fit=True)
        self.debug_open: set[int] = set()
        self.debug_lists: dict[int, ScrollList] = {}
        #: Seats whose bot annotations are hidden (all are drawn by default): the "Marks"
        #: buttons under the debug toggles and Ctrl+1..Ctrl+4 switch them.
        self.marks_hidden: set[int] = set()
        self.marks_buttons: dict = {}
        self._annotating: tuple[int, set[int]] = (-1, set())
        self.selected: int | None = None        # state index picked in the move list (None: latest)
        self.message = ""                       # a transient line under the status (bad move ...)
        self.message_is_error = True
        self.shown_at = time.monotonic()        # when the shown state last changed
        self.since_animation = 0.0
        self.board_aspect: float | None = None  # measured when the debug panels first open
        self.pointed_row: int | None = None     # the move-list row under the pointer

    def relabel(self, labels: list[str]) -> None:
        """New seat labels (an engine told its name): the renderer, which may draw
        them, is made again with them."""
        self.raw_labels = list(labels)
        self.seat_labels = [who_text(label) for label in labels]
        self.renderer = make_renderer(self.plugin, self.game, self.options, self.seat_labels,
                                      self.app.theme)
        self.refresh_debug()

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
        rows = self.status_bar_rows()
        return len(rows) * BAR_LINE + 2 * BAR_PAD if rows else 0

    def status_bar_rows(self) -> list[tuple[str, bool]]:
        """The status bar's lines wrapped to the window's width, each as (text, bold):
        a long line (the basic sandbox's warning names everything it leaves open) takes
        up to :data:`BAR_WRAP` rows before it is cut.  Kept until the lines or the size
        change, as the layout asks for it every frame."""
        lines = self.status_bar_lines()
        key = (tuple(lines), self.px(17), self.px(self.dw))
        cached = getattr(self, "_bar_rows", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        width = self.px(self.dw) - 2 * self.px(MARGIN)
        rows = []
        for index, line in enumerate(lines):
            face = font(self.px(17), bold=index == 0)
            rows += [(row, index == 0) for row in wrap(face, line, width, BAR_WRAP)]
        self._bar_rows = (key, rows)
        return rows

    def status_bar_rect(self) -> pygame.Rect | None:
        height = self.status_bar_height()
        if not height:
            return None
        return self.rect(0, self.dh - height, self.dw, height)

    def debug_split(self) -> tuple[pygame.Rect, pygame.Rect, str] | None:
        """(board column, debug area, side) while a debug panel is open (see split_for_debug)."""
        if not self.debug_open:
            return None
        if self.board_aspect is None:
            self.board_aspect = drawn_aspect(self.renderer, self.board_state(), self.view)
        area = self.left_area()
        return split_for_debug(area, self.board_aspect, self.px(DEBUG_MIN_W),
                               round(area.height * DEBUG_SHARE), self.px(10))

    def debug_area(self) -> pygame.Rect | None:
        split = self.debug_split()
        return split[1] if split else None

    def board_column(self) -> pygame.Rect:
        """The part of the left area for the board, its key hint and banner."""
        split = self.debug_split()
        return split[0] if split else self.left_area()

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
        area = self.board_column()
        height = lines * font(self.px(16)).get_linesize() + self.px(6)
        return pygame.Rect(area.x, area.bottom - height, area.width, height)

    def board_rect(self) -> pygame.Rect:
        area = self.board_column()
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
            self.seat_labels = [who_text(label, self.plugin.bot_levels) for label in self.raw_labels]
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
        self.top_bar(self.title_text(), right=extra_x - 8)
        self.flip_button = self.button(self.rect(flip_x, 14, FLIP_W, 42), _("Flip"),
                                       tooltip=_("turn the board around (F)"))
        self.howto_button = self.button(self.rect(self.dw - MARGIN - HOWTO_W, 14, HOWTO_W, 42), _("How to play"))
        self.laid_status_h = self.status_height()
        y = TOP + self.players_height() + self.laid_status_h
        y = self.layout_controls(self.column_x(), y)
        self.toggle_buttons = {}
        count = self.seat_count()
        gap = 8
        width = (COLUMN_W - gap * (count - 1)) / max(1, count)
        for seat in range(count):
            is_open = seat in self.debug_open
            text = debug_button_text(seat)
            tooltip = (_("hide what {seat} was given and answered") if is_open
                       else _("show what {seat} was given and answered"))
            button = self.button(self.rect(self.column_x() + seat * (width + gap), y, width, 36), text,
                                 cls="@toggle_on" if is_open else None,
                                 tooltip=tooltip.format(seat=self.seat_name(seat)))
            self.toggle_buttons[button] = seat
        y += 46
        y = self.layout_marks_buttons(y, width, gap)
        self.moves.rect = self.rect(self.column_x(), y, COLUMN_W,
                                    self.dh - y - MARGIN - self.status_bar_height())
        self.moves.size = self.px(18)
        self.refresh_moves()
        self.moves.reveal(self.selected if self.selected is not None else len(self.turns()))
        self._layout_debug_lists()

    def layout_marks_buttons(self, y: float, width: float, gap: float) -> float:
        """A row of per-seat toggles for the bot annotations, under the debug toggles,
        when some seat can annotate (see :meth:`annotating_seats`); the next free ``y``."""
        self.marks_buttons = {}
        if not self.annotating_seats():
            return y
        for seat in range(self.seat_count()):
            shown = seat not in self.marks_hidden
            text = (_("Marks seat {n}") if width >= 150 else _("Marks {n}")).format(n=seat + 1)
            button = self.button(self.rect(self.column_x() + seat * (width + gap), y, width, 36), text,
                                 cls="@toggle_on" if shown else None,
                                 tooltip=_("show or hide what {seat}'s program drew on the board "
                                           "(Ctrl+{n})").format(seat=self.seat_name(seat), n=seat + 1))
            self.marks_buttons[button] = seat
        return y + 46

    def annotating_seats(self) -> set[int]:
        """Seats that drew annotations in any turn so far (a match adds its program seats)."""
        turns = self.turns()
        if self._annotating[0] != len(turns):
            seats = {seat for turn in turns for seat, answer in turn.answers.items()
                     if isinstance(answer, dict) and answer.get("debug")}
            self._annotating = (len(turns), seats)
        return self._annotating[1]

    def shown_annotations(self) -> dict[int, list]:
        """Seat -> drawing commands over the shown position: each seat's latest answer up
        to it (the turn that led to it in Robot; the seat's own last move in games that
        alternate), for seats whose marks are shown.  An answer that drew nothing shows
        nothing: older drawings never linger."""
        turns = self.turns()[:self.annotation_index()]
        shown, seen = {}, set()
        for turn in reversed(turns):
            for seat, answer in turn.answers.items():
                if seat in seen:
                    continue
                seen.add(seat)
                debug = answer.get("debug") if isinstance(answer, dict) else None
                if debug and debug.get("draw") and seat not in self.marks_hidden:
                    shown[seat] = debug["draw"]
            if len(seen) >= self.seat_count():
                break
        return shown

    def annotation_index(self) -> int:
        """How many turns led to the shown position (the replay's, or the picked one)."""
        return self.selected_index()

    def toggle_marks(self, seat: int) -> None:
        self.marks_hidden ^= {seat}
        self.relayout()
    def title_text(self) -> str:
        """The header's title: the game's name (a match adds the rule in force)."""
        return _(game_title(self.plugin.name))

    def layout_controls(self, x: float, y: float) -> float:
        """Subclasses place their buttons from ``y``; return the next free ``y``."""
        return y

    def _layout_debug_lists(self) -> None:
        split = self.debug_split()
        seats = sorted(self.debug_open)
        if not split or not seats:
            return
        _board, area, side = split
        gap = self.px(10)
        count = len(seats)
        width = (area.width - gap * (count - 1)) // count        # below: side by side
        height = (area.height - gap * (count - 1)) // count      # beside: one above the other
        for n, seat in enumerate(seats):
            panel = self.debug_lists.setdefault(seat, ScrollList(follow_end=False, mono=True, wrap=True))
            if side == "beside":
                panel.rect = pygame.Rect(area.x, area.y + n * (height + gap), area.width, height)
            else:
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
                panel.set_rows(debug_rows(turn, seat, self.seat_name(seat), self.app.theme, self.seat_name,
                                          engine=engine_line(self.seat_description(seat)),
                                          pv_labels=self._pv_labels(turn)))
                panel.first = 0

    def seat_description(self, seat: int) -> dict:
        """What the record says of ``seat`` (an engine's name and author); {} when unknown."""
        return {}

    def state_before(self, turn: TurnInfo) -> State | None:
        """The position ``turn`` was played from (None when the scene does not keep it)."""
        return None

    def _pv_labels(self, turn: TurnInfo | None):
        """A function writing a principal variation from ``turn``'s position in the move
        list's notation (None: the record's texts)."""
        state = self.state_before(turn) if turn is not None else None
        if state is None:
            return None
        notation = self.app.settings.notations.get(self.plugin.name)
        return lambda moves: self.renderer.line_labels(state, moves, notation)

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
        if event.type == pygame.MOUSEMOTION:        # noted, not used up: the board may want it too
            self.pointed_row = self.moves.row_at(event.pos)
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
            self.app.push_slow(HowToScene(self.app, self.plugin), _("Opening How to play…"))
            return True
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.marks_buttons:
            self.toggle_marks(self.marks_buttons[event.ui_element])
            return True
        if (event.type == pygame.KEYDOWN and getattr(event, "mod", 0) & pygame.KMOD_CTRL
                and pygame.K_1 <= event.key <= pygame.K_4
                and event.key - pygame.K_1 < self.seat_count()):
            self.toggle_marks(event.key - pygame.K_1)
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
        self.fit_status()
        theme = self.app.theme
        surface.fill(theme.background)
        board = self.board_rect()
        safe_draw(self.renderer, surface, board, self.board_state(), self.view)
        self.draw_marks(surface, board)
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
        self.draw_move_note(surface)

    def move_note(self, row: int | None) -> str:
        """The notes of move-list row ``row`` in full when the list cuts them or shows only
        the first (several events in one turn); "" when the row shows them whole."""
        turns = self.turns()
        if row is None or not 1 <= row <= len(turns):
            return ""
        turn = turns[row - 1]
        late = [_("{seat}: time-out").format(seat=self.seat_labels[seat]) for seat, answer in
                sorted(turn.answers.items()) if (answer or {}).get("failure") == "timeout"
                and seat < len(self.seat_labels)]
        notes = late + [rules_text(event.text) for event in turn.events]
        if not notes or (len(notes) == 1 and not self.moves.is_cut(row)):
            return ""
        return _("Turn {n}: {notes}").format(n=turns[row - 1].number, notes="; ".join(notes))

    def move_note_box(self) -> tuple[pygame.Rect, list[str]] | None:
        """Where the pointed row's whole note is shown (just under the row, or above it
        near the list's bottom), and its lines wrapped to the list's width."""
        text = self.move_note(self.pointed_row)
        if not text:
            return None
        face = font(self.px(16))
        pad = self.px(8)
        lines = wrap(face, text, self.moves.rect.width - 2 * pad)
        height = len(lines) * face.get_linesize() + 2 * pad
        top = self.moves.row_top(self.pointed_row) + self.moves.line_height()
        if top + height > self.moves.rect.bottom:
            top = self.moves.row_top(self.pointed_row) - height
        box = pygame.Rect(self.moves.rect.x, top, self.moves.rect.width, height)
        return box.clamp(self.app.window.get_rect()), lines

    def draw_move_note(self, surface: pygame.Surface) -> None:
        placed = self.move_note_box()
        if placed is None:
            return
        box, lines = placed
        theme = self.app.theme
        face = font(self.px(16))
        pygame.draw.rect(surface, theme.panel, box, border_radius=6)
        pygame.draw.rect(surface, theme.accent, box, width=max(1, self.px(2)), border_radius=6)
        y = box.y + self.px(8)
        for line in lines:
            surface.blit(face.render(line, True, theme.text), (box.x + self.px(8), y))
            y += face.get_linesize()

    def draw_marks(self, surface: pygame.Surface, board: pygame.Rect) -> int:
        """The bot annotations of the shown turn over the board; how many were drawn."""
        shown = self.shown_annotations()
        if not shown:
            return 0
        try:
            return draw_annotations(surface, self.renderer, board, shown, self.app.theme)
        except Exception:            # a drawing bug must not take the board down
            traceback.print_exc()
            return 0

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

    def status_height(self) -> float:
        """Design height under the players for the status (up to two lines) and the
        message (up to three): :data:`STATUS_H`, or more when they need it, so that a
        time-out's or a refused move's words never push the status into an ellipsis."""
        width = self.px(COLUMN_W)
        status, note = font(self.px(18), bold=True), font(self.px(16))
        lines = min(2, len(wrap(status, self.status_text(), width))) * status.get_linesize()
        if self.message:
            lines += min(3, len(wrap(note, self.message, width))) * note.get_linesize()
        return max(STATUS_H, (lines + self.px(4)) / self.app.scale)

    def fit_status(self) -> bool:
        """Lay the column out again when the status and message need another height
        (called from ``update``, before the widgets are drawn; ``draw`` checks too)."""
        if self.root is not None and abs(self.status_height() - getattr(self, "laid_status_h", STATUS_H)) > 0.5:
            self.relayout()
            return True
        return False

    def status_lines(self) -> list[tuple[str, pygame.font.Font, tuple]]:
        """(text, font, colour) of the lines under the players: the status, then the
        message (a bad move, a question), both wrapped whole into the room between the
        players and the controls (the message takes the lines the status leaves)."""
        theme = self.app.theme
        width = self.px(COLUMN_W)
        status = font(self.px(18), bold=True)
        note = font(self.px(16))
        room = self.px(getattr(self, "laid_status_h", STATUS_H) - 4)
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
        for line, bold in self.status_bar_rows():
            face = font(self.px(17), bold=bold)
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
