"""Replay: any record, stepped, sought, played at a chosen speed, with the debug panels.

Keys: Left/Right step, Home/End jump, Page Up/Page Down (or [ and ]) previous/next
event, Space play/pause, F (or Flip) turns the board around.  A file that cannot be
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
from games.replay import Replay
from runner import paths
from runner.records import SUFFIX as RECORD_SUFFIX
from games.fileio import atomic_write
from runner.exports import export_formats, export_text
from runner.i18n import N_, _
from ui.game_texts import game_text
from ui.panels import PlayerLine, clock_texts, seat_score, result_text
from ui.scene import Scene, is_pressed
from ui.scenes.board_scene import BoardScene

SPEEDS = ("0.5", "1", "2", "4", "8", "16")      # turns per second
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
        size = self.app.size
        rect = pygame.Rect(0, 0, min(self.px(800), size[0] - 40), min(self.px(580), size[1] - 40))
        rect.center = (size[0] // 2, size[1] // 2)
        start = Path(self.path).parent if self.path else _records_folder()
        self.dialog = UIFileDialog(rect, self.app.manager, window_title=_("Open a record"),
                                   initial_file_path=str(start), allow_existing_files_only=True)

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

    # ------------------------------------------------------------ data hooks
    def turns(self):
        return self.replay.turns

    def board_state(self):
        return self.replay.states[self.index]

    def final_state(self):
        return self.replay.states[-1]

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
        self.title_label.set_text(" · ".join(x for x in (self.title_label.text, _("replay"),
                                                         short_source(self.replay.source)) if x))
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
        self.play_button.set_text(_("Pause") if self.playing else _("Play"))
        speed_w = 130
        if cx + speed_w <= x + width:
            self.speed_menu = self.dropdown(self.rect(x + width - speed_w, y, speed_w, 42),
                                            [speed_label(s) for s in SPEEDS], speed_label(self.speed))
        else:
            self.speed_menu = None

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
        self.app.dirty = True

    def next_event(self, direction: int) -> None:
        events = self.replay.event_turns()
        if direction > 0:
            target = next((i for i in events if i > self.index), self.last)
        else:
            target = next((i for i in reversed(events) if i < self.index), 0)
        self.go(target)

    def set_playing(self, playing: bool) -> None:
        """Start or stop playback; starting at the end plays again from the start."""
        if playing and self.index >= self.last:
            self.go(0)
        self.playing = playing and self.last > 0
        self.clock = 0.0
        if self.root is not None:
            self.play_button.set_text(_("Pause") if self.playing else _("Play"))

    def wake_interval(self) -> float | None:
        wake = max(0.01, 1 / float(self.speed) - self.clock) if self.playing else None
        return self.animation_wake(wake)

    def update(self, dt: float) -> bool:
        frame_due = self.tick_animation(dt)
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
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.transport:
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
        if not export_formats(self.plugin):
            return []
        return [(N_("Export"), _("save the game (and the position shown) as {formats}").format(
            formats=", ".join(export_formats(self.plugin))))]

    def header_action(self, text: str) -> None:
        if text == "Export":
            self.ask_export_folder()

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
        size = self.app.size
        rect = pygame.Rect(0, 0, min(self.px(800), size[0] - 40), min(self.px(580), size[1] - 40))
        rect.center = (size[0] // 2, size[1] // 2)
        self.export_dialog = UIFileDialog(rect, self.app.manager, window_title=_("Export: choose a folder"),
                                          initial_file_path=str(start), allow_picking_directories=True,
                                          allow_existing_files_only=True)

    def teardown(self) -> None:
        if getattr(self, "export_dialog", None) is not None:
            self.export_dialog.kill()
            self.export_dialog = None
        super().teardown()

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


MARGIN_BOTTOM = 20
