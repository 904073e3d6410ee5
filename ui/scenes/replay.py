"""Replay: any record, stepped, sought, played at a chosen speed, with the debug panels.

Keys: Left/Right step, Home/End jump, Page Up/Page Down (or [ and ]) previous/next
event (of the kind chosen in the events menu; K cycles the kinds), D shows what changed
on the board since the turn before, Space play/pause, F (or Flip) turns the board around.
The events are marked above the slider (:mod:`ui.timeline`); Re-run, Branch and
Picture open their panes (:mod:`ui.scenes.replay_tools`) in the right column.  A file that cannot be
read shows the reader's message (it names the file and the line) instead of the board.
"""
from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import UIHorizontalSlider
from pygame_gui.windows import UIFileDialog

from games import registry
from games.api import ArenaError
from games.render import elide, font
from games.replay import Replay
from runner import paths
from runner.records import SUFFIX as RECORD_SUFFIX
from games.fileio import atomic_write
from runner.exports import export_formats, export_text
from runner.i18n import N_, _, ngettext
from ui.boards import make_renderer
from ui.game_texts import game_text, rules_text
from ui.panels import PlayerLine, clock_texts, seat_score, result_text
from ui.scene import Scene, is_pressed
from ui.scenes.board_scene import BoardScene, COLUMN_W
from ui.scenes.replay_tools import BranchPane, FilmPane, RerunPane, ToolPane, file_dialog
from ui.timeline import (DIFF_COLOUR, NEW_COLOUR, RECORDED_COLOUR, changed_regions, draw_marks, jump_target,
                         draw_offscreen, ghost_regions, kind_name, mark_kinds, outline_regions, plain_view,
                         timeline_marks)

SPEEDS = ("0.5", "1", "2", "4", "8", "16")      # turns per second
PICTURE = N_("Picture")
ALL_EVENTS = N_("All events")
FOOTER = 100


class ReplayScene(Scene):
    """Opens a record (given, or chosen in a file dialog), then shows it with :class:`ReplayView`.

    This wrapper exists so that opening can fail politely: the error screen and the
    file dialog need no game, while the viewer needs one.
    """

    def __init__(self, app, path: str | None = None, replay: Replay | None = None):
        super().__init__(app)
        self.path = path
        self.replay = replay
        self.error = ""
        self.dialog: UIFileDialog | None = None
        if replay is None and path:
            self.load(path)

    def load(self, path: str) -> bool:
        from runner.records import open_replay
        self.path = path
        try:
            self.replay = open_replay(path)
        except ArenaError as exc:
            self.replay, self.error = None, str(exc)
            return False
        except Exception as exc:         # a reader bug is still a message, never a crash
            self.replay, self.error = None, _("{path}: could not be read ({error})").format(
                path=path, error=f"{type(exc).__name__}: {exc}")
            return False
        self.error = ""
        self.app.remember_record(path)
        return True

    def enter(self) -> None:
        if self.replay is not None and self._show():
            return
        super().enter()
        if not self.error:
            self.open_dialog()

    def layout(self) -> None:
        self.top_bar(_("Open a replay"))
        self.open_button = self.button(self.rect(40, 96, 260, 48), _("Choose a file…"), cls="@accent")
        self.error_label = None
        if self.error:
            self.error_label = self.label(self.rect(40, 160, self.dw - 80, 40),
                                          _("This file could not be opened:"), cls="@heading")
        self.hint = self.label(self.rect(320, 100, self.dw - 360, 40),
                               _("or drop a record file onto this window"), cls="@muted")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.error:
            face_y = self.px(210)
            from games.render import font
            face = font(self.px(19), mono=True)
            width = self.app.size[0] - self.px(80)
            for line in _wrap_chars(self.error, face, width):
                surface.blit(face.render(line, True, self.app.theme.bad), (self.px(40), face_y))
                face_y += face.get_linesize()

    def open_dialog(self) -> None:
        if self.dialog is not None:
            return
        from runner.paths import records_dir
        from ui.scenes.home import sample_records
        samples = sample_records()
        start = Path(self.path).parent if self.path else _records_folder()
        if not self.path and not records_dir().is_dir() and samples:
            start = samples[0].parent                    # no records yet: the samples first
        shortcuts = [(_("Recent records"), _records_folder())]
        if samples:
            shortcuts.append((_("Sample records"), samples[0].parent))
        self.dialog = file_dialog(self, _("Open a record"), start, shortcuts=shortcuts)

    def teardown(self) -> None:
        if self.dialog is not None:
            self.dialog.kill()
            self.dialog = None
        super().teardown()

    def process_event(self, event: pygame.event.Event) -> bool:
        if is_pressed(event, self.back_button):
            self.app.pop()
        elif is_pressed(event, self.open_button):
            self.open_dialog()
        elif event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is self.dialog:
            self.dialog = None
            self.open_file(event.text)
        elif event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.dialog:
            self.dialog = None
        elif event.type == pygame.DROPFILE:
            self.open_file(event.file)
        else:
            return False
        return True

    def open_file(self, path: str) -> None:
        if not (self.load(path) and self._show()):
            self.relayout()

    def _show(self) -> bool:
        """Swap this screen for the viewer; False (with the reason kept) if it cannot show it."""
        try:
            view = ReplayView(self.app, self.replay)
        except ArenaError as exc:          # e.g. a record of a game that is not installed
            source = self.path or self.replay.source
            self.replay, self.error = None, f"{source}: {exc}"
            return False
        self.app.replace(view)
        return True


def speed_label(speed: str) -> str:
    """ "2 / s": turns a second, as the speed menu shows it (the number first)."""
    return _("{pace} / s").format(pace=speed)


def short_source(source: str, limit: int = 22) -> str:
    """The record's file name for the title: the arena suffix dropped, the middle elided."""
    name = Path(source).name if source else ""
    name = name[:-len(RECORD_SUFFIX)] if name.endswith(RECORD_SUFFIX) else name
    if len(name) > limit:
        name = name[:limit // 2 - 1] + "…" + name[-(limit - limit // 2):]
    return name


def _records_folder() -> Path:
    from runner.paths import records_dir
    folder = records_dir()
    return folder if folder.is_dir() else Path.cwd()


def _wrap_chars(text: str, face: pygame.font.Font, width: int) -> list[str]:
    lines = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for ch in paragraph:
            if face.size(line + ch)[0] > width and line:
                lines.append(line)
                line = ""
            line += ch
        lines.append(line)
    return lines


class ReplayView(BoardScene):
    """The replay viewer proper: one state at a time, moved by keys, buttons and the slider."""

    board_footer = FOOTER

    def __init__(self, app, replay: Replay):
        plugin = registry.plugin(replay.game)
        spec = plugin.new_game().spec
        labels = list(replay.seat_names) or [_(spec.seat_name(i)) for i in range(spec.min_seats)]
        super().__init__(app, plugin, replay.header.get("options", {}), labels)
        self.replay = replay
        self.index = 0
        self.playing = False
        self.speed = "2"
        self.clock = 0.0
        self.selected = 0
        self.export_dialog: UIFileDialog | None = None
        self.saved_where = ""          # the last export's folder and files (the status bar)
        self.marks = timeline_marks(replay)
        self.kind_filter: str | None = None      # jump between marks of this kind (None: any)
        self.show_diff = False
        self.regions: dict[tuple, list[pygame.Rect]] = {}   # board diffs drawn, by what they show
        self.diff_renderer = None                # a renderer of its own for the off-screen boards
        self.tool: ToolPane | None = None        # the open pane (re-run, branch, picture)
        self.rerun_shown = None                  # the re-run drawn on the board, when one is
        self.branched = None                     # the last match branched from here
        self.mark_rects: list[pygame.Rect] = []

    # ------------------------------------------------------------ data hooks
    def turns(self):
        return self.replay.turns

    def board_state(self):
        return self.replay.states[self.index]

    def final_state(self):
        return self.replay.states[-1]

    def seat_description(self, seat: int) -> dict:
        seats = self.replay.header.get("seats") or []
        return seats[seat] if seat < len(seats) and isinstance(seats[seat], dict) else {}

    def state_before(self, turn):
        index = self.replay.turns.index(turn) if turn in self.replay.turns else -1
        return self.replay.states[index] if index >= 0 else None

    def board_in_motion(self) -> bool:
        return self.playing

    @property
    def last(self) -> int:
        return len(self.replay.states) - 1

    def status_text(self) -> str:
        state = self.board_state()
        where = _("Turn {n} of {last}").format(n=self.index, last=self.last)
        branch = self.replay.branch_turn()
        if branch is not None:
            where += (_(" · as recorded up to turn {n}") if self.index <= branch
                      else _(" · branched at turn {n}")).format(n=branch)
        if self.index == self.last and self.replay.outcome is not None:
            return f"{where} · {result_text(self.replay.outcome, self.seat_name)}"
        try:
            text = self.game.describe(state)
        except Exception:
            return where
        own = f"Turn {self.index}"          # the game's own words (English)
        if text.startswith(own):              # the game says the turn itself: say it once
            text = text[len(own):].lstrip(" ,:·")
        return f"{where} · {game_text(text)}" if text else where

    def player_lines(self) -> list[PlayerLine]:
        clocks = self.replay.turns[self.index - 1].clocks if self.index else {}
        outcome = self.replay.outcome if self.index == self.last else None
        state = self.board_state()
        try:
            to_move = set(state.to_move())
        except Exception:
            to_move = set()
        lines = []
        for seat in range(self.seat_count()):
            big, small = clock_texts(clocks[seat], None) if seat in clocks else ("", "")
            score = seat_score(self.game.spec, outcome, state, seat)
            lines.append(PlayerLine(self.seat_name(seat), self.seat_labels[seat],
                                    self.renderer.seat_colour(seat), big, small, score,
                                    to_move=seat in to_move and outcome is None,
                                    winner=bool(outcome and seat in outcome.winners),
                                    out=bool(outcome and outcome.winners and seat not in outcome.winners)))
        return lines

    # ------------------------------------------------------------ layout
    def layout(self) -> None:
        super().layout()
        title = self.title_label.text
        for limit in (22, 16, 12, 0):             # the record's name shortened to fit beside the buttons
            text = " · ".join(x for x in (title, _("replay"), short_source(self.replay.source, limit) if limit else "")
                              if x)
            face = getattr(self.title_label, "font", None)
            if face is None or face.size(text)[0] <= self.title_label.rect.width - self.px(8):
                break
        self.title_label.set_text(text)
        self.layout_tool()
        area = self.left_area()
        x, width = area.x / self.app.scale, area.width / self.app.scale
        y = self.dh - MARGIN_BOTTOM - FOOTER + 14 - self.status_bar_height()
        self.slider = UIHorizontalSlider(self.rect(x, y, width, 32), self.index, (0, max(1, self.last)),
                                         self.app.manager, container=self.root, click_increment=1)
        if self.app.scale > 1:              # the arrows' width is fixed at 20 px: scale it with the ui
            self.slider.default_button_width = self.px(22)
            for side in ("left_button", "right_button"):
                getattr(self.slider, side).kill()
                setattr(self.slider, side, None)
            self.slider.rebuild()
            self.slider.set_current_value(self.index, warn=False)
        y += 42
        names = [("|<", N_("start (Home)")), ("<", N_("previous turn (Left)")),
                 ("Play", N_("play / pause (Space)")), (">", N_("next turn (Right)")), (">|", N_("end (End)")),
                 ("< event", N_("previous event (Page Up)")), ("event >", N_("next event (Page Down)"))]
        shown = {"Play": _("Play"), "< event": _("< event"), "event >": _("event >")}
        widths = [56, 56, 96, 56, 56, 104, 104]
        gap = 8
        self.transport = {}
        cx = x
        for (text, tip), w in zip(names, widths):
            button = self.button(self.rect(cx, y, w, 42), shown.get(text, text), tooltip=_(tip))
            self.transport[button] = text
            cx += w + gap
        self.play_button = next(b for b, t in self.transport.items() if t == "Play")
        self.show_play_state()
        speed_w = 130
        if cx + speed_w <= x + width:
            self.speed_menu = self.dropdown(self.rect(x + width - speed_w, y, speed_w, 42),
                                            [speed_label(s) for s in SPEEDS], speed_label(self.speed))
        else:
            self.speed_menu = None

    def layout_controls(self, x: float, y: float) -> float:
        """The events menu (which kind Page Up/Down jump to), Diff, Re-run and Branch."""
        kinds = mark_kinds(self.marks)
        self.kind_choices = {_(ALL_EVENTS): None, **{kind_name(k): k for k in kinds}}
        current = next((t for t, k in self.kind_choices.items() if k == self.kind_filter), _(ALL_EVENTS))
        gap, small = 8, 80
        menu_w = COLUMN_W - 3 * (small + gap)
        self.kind_menu = self.dropdown(self.rect(x, y, menu_w, 36), list(self.kind_choices), current)
        self.tool_buttons = {}
        cx = x + menu_w + gap
        for text, tip, action in ((_("Diff"), _("mark what changed on the board this turn (D)"), "diff"),
                                  (_("Re-run"), _("run a program on this turn's input"), RerunPane),
                                  (_("Branch"), _("play on from this position with new seats"), BranchPane)):
            on = (action == "diff" and self.show_diff) or (action is not None and type(self.tool) is action)
            button = self.button(self.rect(cx, y, small, 36), text, tooltip=tip,
                                 cls="@toggle_on" if on else None)
            self.tool_buttons[button] = action
            cx += small + gap
        return y + 46

    def layout_tool(self) -> None:
        """The open pane takes the move list's place, under the controls."""
        if self.tool is None:
            return
        top = self.moves.rect.y / self.app.scale
        bottom = top + self.moves.rect.height / self.app.scale
        self.tool.top = self.tool.layout(self.column_x() + 10, top + 4, COLUMN_W - 20) + 4
        self.tool_rect = pygame.Rect(self.moves.rect.x, self.moves.rect.y, self.moves.rect.width,
                                     self.px(bottom - top))
        self.moves.rect = pygame.Rect(self.moves.rect.x, self.moves.rect.y, self.moves.rect.width, 0)

    def open_tool(self, action) -> None:
        """A pane by its class (again: close it), or the Diff toggle."""
        if action == "diff":
            self.toggle_diff()
            return
        if type(self.tool) is action:
            self.close_tool()
            return
        self.close_tool(relayout=False)
        self.tool = action(self)
        self.relayout()

    def close_tool(self, relayout: bool = True) -> None:
        if self.tool is not None:
            self.tool.close()
        self.tool = None
        self.rerun_shown = None
        if relayout:
            self.relayout()

    def toggle_diff(self) -> None:
        self.show_diff = not self.show_diff
        self.relayout()

    def cycle_kind(self) -> None:
        """K: the next kind in the events menu (after the last: all events)."""
        kinds = list(self.kind_choices.values())
        self.kind_filter = kinds[(kinds.index(self.kind_filter) + 1) % len(kinds)]
        self.message = _("Page Up / Page Down jump to: {kind}").format(
            kind=kind_name(self.kind_filter) if self.kind_filter else _(ALL_EVENTS))
        self.message_is_error = False
        self.relayout()

    def rerun_finished(self, rerun) -> None:
        """A re-run came back: draw both answers on the board."""
        self.rerun_shown = rerun

    def track_index(self, pos) -> int | None:
        """The turn a click at ``pos`` on the slider's track (not its knob or arrows) means."""
        slider = getattr(self, "slider", None)
        if self.root is None or slider is None or not slider.rect.collidepoint(pos):
            return None
        knob = slider.sliding_button.rect
        left, right = slider.left_button.rect.right, slider.right_button.rect.left
        if knob.collidepoint(pos) or not left <= pos[0] < right:
            return None
        travel = max(1, right - left - knob.width)
        share = min(1.0, max(0.0, (pos[0] - left - knob.width / 2) / travel))
        return round(share * self.last)

    # ------------------------------------------------------------ moving
    def go(self, index: int) -> None:
        index = max(0, min(self.last, index))
        if index == self.index:
            return
        self.index = index
        self.state_shown()
        self.select(index)
        self.moves.reveal(index)
        if self.root is not None:
            self.slider.set_current_value(index, warn=False)
        if isinstance(self.tool, (RerunPane, BranchPane)):
            self.relayout()                          # the pane speaks of the turn shown
        self.app.dirty = True

    def next_event(self, direction: int) -> None:
        """Jump to the next or previous mark of the chosen kind (any kind: also the ends)."""
        target = jump_target(self.marks, self.index, direction, self.kind_filter)
        if target is None:
            if self.kind_filter is not None:
                self.message, self.message_is_error = _("No more {kind} that way.").format(
                    kind=kind_name(self.kind_filter)), True
                return
            target = self.last if direction > 0 else 0
        self.go(target)
        here = [m for m in self.marks if m.index == self.index
                and (self.kind_filter is None or m.kind == self.kind_filter)]
        self.message = " · ".join(f"{kind_name(m.kind)}: {rules_text(m.text)}" for m in here[:3])
        self.message_is_error = False

    def set_playing(self, playing: bool) -> None:
        """Start or stop playback; starting at the end plays again from the start."""
        if playing and self.index >= self.last:
            self.go(0)
        self.playing = playing and self.last > 0
        self.clock = 0.0
        if self.root is not None:
            self.show_play_state()

    def show_play_state(self) -> None:
        """The Play button and its tooltip say what a press does now (Play or Pause)."""
        self.play_button.set_text(_("Pause") if self.playing else _("Play"))
        self.play_button.set_tooltip(_("pause (Space)") if self.playing else _("play (Space)"))

    def wake_interval(self) -> float | None:
        wake = max(0.01, 1 / float(self.speed) - self.clock) if self.playing else None
        if self.tool is not None and (getattr(self.tool, "job", None) is not None
                                      or getattr(self.tool, "busy", lambda: False)()):
            wake = 0.01 if getattr(self.tool, "job", None) is not None else 0.1
        return self.animation_wake(wake)

    def update(self, dt: float) -> bool:
        frame_due = self.tick_animation(dt) | self.fit_status()
        if self.tool is not None and self.tool.update():
            frame_due = True
        if not self.playing:
            return frame_due
        self.clock += dt
        period = 1 / float(self.speed)
        if self.clock < period:
            return frame_due
        self.clock -= period
        self.go(self.index + 1)
        if self.index >= self.last:
            self.set_playing(False)
        return True

    # ------------------------------------------------------------ events
    KEYS = {pygame.K_LEFT: "<", pygame.K_RIGHT: ">", pygame.K_HOME: "|<", pygame.K_END: ">|",
            pygame.K_PAGEUP: "< event", pygame.K_PAGEDOWN: "event >", pygame.K_LEFTBRACKET: "< event",
            pygame.K_RIGHTBRACKET: "event >", pygame.K_SPACE: "Play"}

    def act(self, name: str) -> None:
        """One transport action by its button text; anything but Play stops playback."""
        if name == "Play":
            self.set_playing(not self.playing)
            return
        self.set_playing(False)
        {"|<": lambda: self.go(0), "<": lambda: self.go(self.index - 1),
         ">": lambda: self.go(self.index + 1), ">|": lambda: self.go(self.last),
         "< event": lambda: self.next_event(-1), "event >": lambda: self.next_event(1)}[name]()

    def process_event(self, event: pygame.event.Event) -> bool:
        if self.tool is not None and self.tool.process_event(event):
            return True
        if self.tool is not None and is_pressed(event, self.tool.close_button):
            self.close_tool()
        elif event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.tool_buttons:
            self.open_tool(self.tool_buttons[event.ui_element])
        elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.kind_menu:
            self.kind_filter = self.kind_choices.get(event.text)
        elif event.type == pygame.KEYDOWN and self.app.text_focused():
            return False                            # typing in a pane's field
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_d:
            self.toggle_diff()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_k:
            self.cycle_kind()
        elif event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.transport:
            self.act(self.transport[event.ui_element])
        elif event.type == pygame.KEYDOWN and event.key in self.KEYS:
            self.act(self.KEYS[event.key])
        elif event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and event.ui_element is self.slider:
            self.set_playing(False)
            self.go(int(round(event.value)))
        elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.speed_menu:
            self.speed = event.text.split(" ")[0]
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.track_index(event.pos) is not None:
            self.set_playing(False)
            self.go(self.track_index(event.pos))
        elif event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is self.export_dialog:
            self.export_dialog = None
            self.export(Path(event.text))
        elif event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.export_dialog:
            self.export_dialog = None
        elif event.type == pygame.DROPFILE:
            self.app.replace(ReplayScene(self.app, path=event.file))
        else:
            return super().process_event(event)
        return True

    def on_move_clicked(self, row: int) -> None:
        self.set_playing(False)
        self.go(row)
        self.select(row)

    # ------------------------------------------------------------ export
    def extra_header_buttons(self) -> list[tuple[str, str]]:
        picture = (_(PICTURE), _("save the position shown as PNG, or turns as a GIF or MP4 film"))
        if not export_formats(self.plugin):
            return [picture]
        return [picture, (N_("Export"), _("save the game (and the position shown) as {formats}").format(
            formats=", ".join(export_formats(self.plugin))))]

    def header_action(self, text: str) -> None:
        if text == "Export":
            self.ask_export_folder()
        elif text == _(PICTURE):
            self.open_tool(FilmPane)

    def export_stem(self) -> str:
        return Path(self.replay.source).name.split(".")[0] if self.replay.source else self.plugin.name

    def ask_export_folder(self) -> None:
        """Save as: a folder dialog, opened where the last export went (first time: the
        records folder's ``exports``)."""
        if self.export_dialog is not None:
            return
        start = Path(self.app.settings.export_folder or paths.records_dir() / "exports")
        try:
            start.mkdir(parents=True, exist_ok=True)
        except OSError:
            start = Path.home()
        self.export_dialog = file_dialog(self, _("Export: choose a folder"), start, pick_dirs=True)

    def teardown(self) -> None:
        if getattr(self, "export_dialog", None) is not None:
            self.export_dialog.kill()
            self.export_dialog = None
        super().teardown()

    def exit(self) -> None:
        if self.tool is not None:
            self.tool.close()
        super().exit()

    def export(self, folder: Path | None = None) -> list[Path]:
        """Write the game's exports for the position shown into ``folder`` (default: the
        last export folder), named after the record; the message says where."""
        folder = Path(folder or self.app.settings.export_folder or paths.records_dir() / "exports")
        if folder.is_file():
            folder = folder.parent
        stem = self.export_stem()
        written = []
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for fmt in export_formats(self.plugin):
                name, text = export_text(self.plugin, self.replay, self.index, fmt)
                path = folder / f"{stem}-{name}"
                atomic_write(path, text)
                written.append(path)
        except (OSError, ArenaError) as exc:
            self.message, self.message_is_error = _("Export failed: {error}").format(error=exc), True
        else:
            self.message = _("Saved {files}").format(files=", ".join(p.name for p in written))
            self.message_is_error = False
            self.saved_where = _("Exported to {folder}: ").format(folder=folder) + ", ".join(p.name for p in written)
            self.app.settings.export_folder = str(folder)
            self.app.save_settings()
        self.relayout()
        return written

    def status_bar_lines(self) -> list[str]:
        """After an export, where the files went, whole, across the bottom."""
        return [self.saved_where] if self.saved_where else []

    # ------------------------------------------------------------ timeline and board marks
    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        self.mark_rects = draw_marks(surface, self.marks_strip(), self.marks, self.last,
                                     self.seat_colours(), self.app.theme.text, self.kind_filter)
        if self.tool is not None and getattr(self, "tool_rect", None) is not None:
            self.tool.draw(surface, self.tool_rect)

    def marks_strip(self) -> pygame.Rect:
        """The band just above the slider's track where the marks stand, aligned with
        the knob's centre at each turn."""
        slider = getattr(self, "slider", None)
        if slider is None or slider.left_button is None:
            return pygame.Rect(0, 0, 0, 0)
        knob = slider.sliding_button.rect.width
        left = slider.left_button.rect.right + knob // 2
        right = slider.right_button.rect.left - knob // 2
        height = self.px(14)
        return pygame.Rect(left, slider.rect.top - height - 1, max(1, right - left), height)

    def board_regions(self, board: pygame.Rect, before, after) -> list[pygame.Rect]:
        """Where ``after`` differs from ``before`` on a board of ``board``'s size (cached)."""
        key = (id(before), id(after), board.size, self.view.flipped, self.app.theme.name)
        if key not in self.regions:
            if self.diff_renderer is None or self.diff_renderer.theme != self.app.theme:
                self.diff_renderer = make_renderer(self.plugin, self.game, self.options, self.seat_labels,
                                                   self.app.theme)
            try:
                self.regions[key] = changed_regions(self.diff_renderer, board.size, before, after, self.view)
            except Exception as exc:            # a renderer bug costs the marks, not the window
                self.message, self.message_is_error = f"board diff failed: {exc}", True
                self.regions[key] = []
            if len(self.regions) > 64:
                self.regions.pop(next(iter(self.regions)))
        return self.regions[key]

    def draw_overlay(self, surface: pygame.Surface, board: pygame.Rect) -> None:
        """The board diff (D) and a re-run's two answers, outlined over the board."""
        legend = []
        width = max(2, self.px(3))
        if self.show_diff and self.index > 0:
            states = self.replay.states
            regions = self.board_regions(board, states[self.index - 1], states[self.index])
            groups = outline_regions(surface, board.topleft, regions, DIFF_COLOUR, width)
            legend.append((DIFF_COLOUR, ngettext("changed on turn {n}: {k} place", "changed on turn {n}: {k} places",
                                                  groups).format(n=self.index, k=groups)))
        rerun = self.rerun_shown
        if rerun is not None and rerun.turn == self.index:
            before = self.replay.states[self.index - 1]
            after_rec, after_new = self.replay.states[self.index], self.rerun_state(rerun)
            recorded, new = self.board_regions(board, before, after_rec), []
            if after_new is not None:              # only where the two results differ
                apart = {tuple(r) for r in self.board_regions(board, after_rec, after_new)}
                recorded = [r for r in recorded if tuple(r) in apart]
                new = [r for r in self.board_regions(board, before, after_new) if tuple(r) in apart]
                ghost_regions(surface, board.topleft, self.rerun_picture(board.size, after_new), new)
                outline_regions(surface, board.topleft, new, NEW_COLOUR, width, fill_alpha=0, dashed=True)
            outline_regions(surface, board.topleft, recorded, RECORDED_COLOUR, width)
            legend.append((RECORDED_COLOUR, _("recorded: {m}").format(m=rerun.recorded.get("text") or "-")))
            legend.append((NEW_COLOUR, _("new: {m}").format(m=rerun.new.text or "-")
                           + ("" if after_new is not None else " " + _("(not playable)"))
                           + (" " + _("(no change on the board)") if after_new is not None and not new else "")))
        if legend:
            self.draw_legend(surface, board, legend)

    def rerun_state(self, rerun):
        """The position the re-run's answer leads to (the other seats as recorded); None
        when the new answer is not a legal move."""
        cached = getattr(self, "_rerun_state", None)
        if cached is not None and cached[0] is rerun:
            return cached[1]
        from runner.referee import resolve_answer
        from runner.seats import Answer
        before = self.replay.states[rerun.turn - 1]
        state = before.clone()
        moves = {}
        recorded = self.replay.turns[rerun.turn - 1].moves
        for seat in before.to_move():
            answer = rerun.new if seat == rerun.seat else Answer(text=recorded.get(seat))
            probe = Answer(move=answer.move, text=answer.text, failure=answer.failure)
            move = resolve_answer(self.game, before.clone(), seat, probe)
            if move is None:
                break
            moves[seat] = move
        after = None
        if len(moves) == len(before.to_move()):
            try:
                state.apply(moves)
                after = state
            except Exception:
                after = None
        self._rerun_state = (rerun, after)
        return after

    def rerun_picture(self, size: tuple[int, int], state) -> pygame.Surface:
        """The re-run's position drawn off screen at ``size`` (kept while it is shown)."""
        key = (id(state), size, self.view.flipped, self.app.theme.name)
        cached = getattr(self, "_rerun_picture", None)
        if cached is None or cached[0] != key:
            cached = (key, draw_offscreen(self.diff_renderer, size, state, plain_view(self.view)))
            self._rerun_picture = cached
        return cached[1]

    def legend_lines(self) -> int:
        """Lines the overlay's legend may take: the diff's, a re-run's two."""
        return (1 if self.show_diff else 0) + (2 if self.rerun_shown is not None else 0)

    def banner_height(self) -> int:
        """A strip above the board for the legend while the diff or a re-run is on, so
        that it covers neither the board nor its coordinates.  It depends on what is
        switched on, not on the turn shown: the board keeps its size while stepping."""
        lines = self.legend_lines()
        if not lines:
            return 0
        return lines * font(self.px(16), bold=True).get_linesize() + 2 * self.px(4)

    def draw_legend(self, surface: pygame.Surface, board: pygame.Rect, items: list[tuple[tuple, str]]) -> None:
        """Swatch and text lines in the strip above the board, on a panel."""
        face = font(self.px(16), bold=True)
        pad, box = self.px(4), self.px(14)
        texts = [elide(face, text, board.width - box - 3 * pad) for _colour, text in items]
        width = max(face.size(t)[0] for t in texts) + box + 3 * pad
        height = len(texts) * face.get_linesize() + 2 * pad
        top = board.y - self.banner_height() - self.px(8) if self.banner_height() else board.y + pad
        panel = pygame.Rect(board.x, top, width, height)
        self.legend_rect = panel
        pygame.draw.rect(surface, self.app.theme.panel, panel, border_radius=self.px(6))
        pygame.draw.rect(surface, self.app.theme.muted, panel, 1, border_radius=self.px(6))
        y = panel.y + pad
        for (colour, _text), text in zip(items, texts):
            swatch = pygame.Rect(panel.x + pad, y + (face.get_linesize() - box) // 2, box, box)
            pygame.draw.rect(surface, colour, swatch)
            surface.blit(face.render(text, True, self.app.theme.text), (swatch.right + pad, y))
            y += face.get_linesize()


MARGIN_BOTTOM = 20
