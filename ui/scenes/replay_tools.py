"""The replay viewer's tool panes: re-run a turn, branch from a turn, save a picture or film.

A pane takes the right column's lower part (where the move list is) while it is open,
so the board stays in view beside it.  Its widgets live in the scene's root container
and are rebuilt with the scene's layout; what the person chose is kept on the pane.
Slow work never blocks the window: a re-run goes to a worker thread (a program is an
outside process: nothing in pygame is touched there), a film is drawn one frame per
slice of the frame loop (drawing stays on the window's thread, as SDL wants).
"""
from __future__ import annotations

import shlex
import sys
import threading
import time
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.windows import UIFileDialog

from games.api import ArenaError
from games.render import font, wrap
from runner.i18n import N_, _
from ui.scene import is_pressed
from ui.timeline import NEW_COLOUR, RECORDED_COLOUR

ROW = 46                  # design height of a row of widgets
PERSON, BOT, PROGRAM = N_("Person"), N_("Bot"), N_("Program")
#: Seconds of the frame loop a film may take per frame drawn (keeps the window live).
FILM_SLICE = 0.03


def program_spec(text: str) -> str:
    """A typed command as a seat spec: ``bot:2``, ``uci:...`` stay; a bare command is ``ext:``."""
    text = text.strip()
    first = text.split()[0] if text.split() else ""
    if ":" in first or first in ("human", "bot"):
        return text
    return f"ext:{text}"


def command_for_file(path: str) -> str:
    """The command that runs a picked file: Python files through this Python."""
    quoted = shlex.quote(path)
    return f"{shlex.quote(sys.executable)} {quoted}" if path.endswith(".py") else quoted


class ScaledFileDialog(UIFileDialog):
    """pygame_gui's file dialog with its inner widgets scaled with the ui (its own layout
    is in fixed pixels: on a 4K window the path line and the buttons were cut off)."""

    scale = 1.0
    #: (label, folder) buttons at the bottom left that jump to a folder ("Sample records").
    shortcuts: tuple = ()

    def _setup_ui_elements(self):
        super()._setup_ui_elements()
        s = self.scale
        self.shortcut_buttons = {}
        x = 10
        for label, folder in self.shortcuts:
            width = round(self.ui_manager.get_theme().get_font(["button"]).size(label)[0] / s) + 24
            button = pygame_gui.elements.UIButton(
                pygame.Rect(round(x * s), round(-42 * s), round(width * s), round(32 * s)), label,
                manager=self.ui_manager, container=self, tool_tip_text=str(folder),
                anchors={"left": "left", "right": "left", "top": "bottom", "bottom": "bottom"})
            self.shortcut_buttons[button] = Path(folder)
            x += width + 8
        if s == 1:
            return
        for button, width in ((self.cancel_button, 100), (self.ok_button, 70)):
            button.set_dimensions((round(width * s), round(32 * s)))
            button.set_relative_position((round(-(10 + width) * s), round(-42 * s)))   # its left edge
        for n, button in enumerate((self.home_button, self.delete_button, self.parent_directory_button,
                                    self.refresh_button)):
            button.set_dimensions((round(20 * s), round(20 * s)))
            button.set_relative_position((round((10 + 22 * n) * s), round(10 * s)))
        width, height = self.get_container().get_size()
        self.file_path_text_line.set_relative_position((round(10 * s), round(40 * s)))
        self.file_path_text_line.set_dimensions((width - round(20 * s), round(32 * s)))
        self.file_selection_list.set_relative_position((round(10 * s), round(80 * s)))
        self.file_selection_list.set_dimensions((width - round(20 * s), height - round(130 * s)))


    def process_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.shortcut_buttons:
            self._change_directory_path(self.shortcut_buttons[event.ui_element])
            return True
        return super().process_event(event)


def file_dialog(view, title: str, start: Path, pick_dirs: bool = False,
                existing: bool = True, shortcuts: tuple = ()) -> UIFileDialog:
    """pygame_gui's file dialog, centred and sized for the window, its widgets scaled;
    ``shortcuts``: (label, folder) buttons that open a folder in one click."""
    size = view.app.size
    rect = pygame.Rect(0, 0, min(view.px(800), size[0] - 40), min(view.px(580), size[1] - 40))
    rect.center = (size[0] // 2, size[1] // 2)
    dialog_class = type("ScaledFileDialog", (ScaledFileDialog,), {"scale": view.app.scale,
                                                                  "shortcuts": tuple(shortcuts)})
    return dialog_class(rect, view.app.manager, window_title=title, initial_file_path=str(start),
                        allow_picking_directories=pick_dirs, allow_existing_files_only=existing)


class ToolPane:
    """One pane: widgets from :meth:`layout`, text from :meth:`lines`, work in :meth:`update`."""

    def __init__(self, view):
        self.view = view
        self.dialog: UIFileDialog | None = None
        self.close_button = None
        self.top = 0.0             # design y where the pane's text starts (after its widgets)

    def heading(self) -> str:
        raise NotImplementedError

    def layout(self, x: float, y: float, width: float) -> float:
        """Place the pane's widgets from ``y``; return where its text starts."""
        raise NotImplementedError

    def lines(self) -> list[tuple[str, tuple | None, tuple | None]]:
        """(text, colour or None for the theme's, swatch colour or None) under the widgets."""
        return []

    def process_event(self, event: pygame.event.Event) -> bool:
        return False

    def update(self) -> bool:
        """Poll background work; True when the screen must be redrawn."""
        return False

    def close(self) -> None:
        """Stop what can be stopped and drop the dialog."""
        self.kill_dialog()

    def kill_dialog(self) -> None:
        if self.dialog is not None:
            self.dialog.kill()
            self.dialog = None

    def draw(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """The heading over the pane and its lines under the widgets, wrapped to ``rect``."""
        theme = self.view.app.theme
        pygame.draw.rect(surface, theme.panel, rect, border_radius=6)
        px = self.view.px
        title = font(px(19), bold=True)
        surface.blit(title.render(self.heading(), True, theme.text), (rect.x + px(10), rect.y + px(6)))
        face = font(px(16))
        y = px(self.top)
        clip = surface.get_clip()
        surface.set_clip(rect)
        for text, colour, swatch in self.lines():
            x = rect.x + px(10)
            width = rect.width - px(20)
            if swatch is not None:
                box = pygame.Rect(x, y + px(3), px(14), px(14))
                pygame.draw.rect(surface, swatch, box)
                pygame.draw.rect(surface, theme.text, box, 1)
                x += px(20)
                width -= px(20)
            for line in wrap(face, text, width) or [""]:
                if y + face.get_linesize() > rect.bottom:
                    break
                surface.blit(face.render(line, True, colour or theme.text), (x, y))
                y += face.get_linesize()
        surface.set_clip(clip)


class RerunPane(ToolPane):
    """Re-run the shown turn (the one that led to the position shown) for one seat with a
    chosen program, on exactly the input that turn had (:mod:`runner.rerun`)."""

    def __init__(self, view):
        super().__init__(view)
        self.seat: int | None = None
        self.command = ""
        self.thread: threading.Thread | None = None
        self.outcome: dict = {}              # filled by the worker: "rerun" or "error"
        self.result = None                   # the last Rerun shown
        self.error = ""
        self.started = 0.0

    def heading(self) -> str:
        return _("Re-run turn {n}").format(n=self.view.index) if self.view.index else _("Re-run a turn")

    def seats(self) -> list[int]:
        """The seats that moved on the shown turn."""
        index = self.view.index
        if index < 1:
            return []
        try:
            return sorted(self.view.replay.states[index - 1].to_move())
        except Exception:
            return []

    def recorded_spec(self, seat: int) -> str:
        seats = self.view.replay.header.get("seats") or []
        spec = seats[seat].get("spec", "") if seat < len(seats) and isinstance(seats[seat], dict) else ""
        return spec[4:] if spec.startswith("ext:") else spec

    def layout(self, x: float, y: float, width: float) -> float:
        view = self.view
        seats = self.seats()
        if self.seat not in seats:
            self.seat = seats[0] if seats else None
            self.command = self.recorded_spec(self.seat) if self.seat is not None else self.command
        names = [self.seat_option(s) for s in seats] or [_("no turn shown")]
        y += 34
        self.seat_menu = view.dropdown(view.rect(x, y, 150, 40), names,
                                       self.seat_option(self.seat) if self.seat is not None else names[0])
        self.entry = view.entry(view.rect(x + 158, y, width - 158, 40), self.command,
                                _("program command, e.g. python3 bot.py"))
        y += ROW
        self.browse_button = view.button(view.rect(x, y, 120, 40), _("Browse…"),
                                         tooltip=_("choose the program's file"))
        self.run_button = view.button(view.rect(x + 128, y, 110, 40), _("Run"), cls="@accent",
                                      tooltip=_("run it on this turn's input (R)"),
                                      enabled=self.seat is not None and not self.busy())
        self.close_button = view.button(view.rect(x + width - 100, y, 100, 40), _("Close"))
        return y + ROW

    def seat_option(self, seat: int) -> str:
        return _("Seat {n}").format(n=seat + 1)

    def busy(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def process_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.seat_menu:
            for seat in self.seats():
                if self.seat_option(seat) == event.text:
                    self.seat = seat
                    self.command = self.recorded_spec(seat)
            self.view.relayout()
        elif event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element is self.entry:
            self.command = self.entry.get_text()
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.entry:
            self.command = self.entry.get_text()
            self.run()
        elif is_pressed(event, self.run_button):
            self.command = self.entry.get_text()
            self.run()
        elif is_pressed(event, self.browse_button):
            start = Path(self.command.split()[-1]).parent if self.command.split() else Path.cwd()
            self.kill_dialog()
            self.dialog = file_dialog(self.view, _("Choose a program"), start if start.is_dir() else Path.cwd())
        elif event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is self.dialog:
            self.dialog = None
            self.command = command_for_file(event.text)
            self.view.relayout()
        elif event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.dialog:
            self.dialog = None
        else:
            return False
        return True

    def run(self) -> None:
        """Start the re-run on a worker thread (the window keeps drawing)."""
        if self.busy() or self.seat is None or not self.command.strip():
            if not self.command.strip():
                self.error = _("Type a command or choose a program first.")
            return
        from runner.rerun import rerun_turn
        replay, turn, seat, spec = self.view.replay, self.view.index, self.seat, program_spec(self.command)
        outcome: dict = {}
        self.outcome, self.error, self.result = outcome, "", None
        self.view.rerun_shown = None

        def work() -> None:
            try:
                outcome["rerun"] = rerun_turn(replay, turn, seat, spec)
            except ArenaError as exc:
                outcome["error"] = str(exc)
            except Exception as exc:            # a hostile program never takes the window down
                outcome["error"] = f"{type(exc).__name__}: {exc}"

        self.started = time.monotonic()
        self.thread = threading.Thread(target=work, name="arena-rerun", daemon=True)
        self.thread.start()
        self.view.relayout()

    def update(self) -> bool:
        if self.thread is None or self.thread.is_alive():
            return self.thread is not None        # the "running… N s" line ticks
        self.thread = None
        if "rerun" in self.outcome:
            self.result = self.outcome["rerun"]
            self.view.rerun_finished(self.result)
        else:
            self.error = self.outcome.get("error", _("the re-run gave no answer"))
        self.view.relayout()
        return True

    def lines(self):
        muted = self.view.app.theme.muted
        if self.view.index < 1:
            return [(_("Step to a turn first: the re-run uses the input of the turn that led to "
                       "the position shown."), muted, None)]
        if self.busy():
            return [(_("Running… {s:.1f} s").format(s=time.monotonic() - self.started), muted, None)]
        if self.error:
            return [(self.error, self.view.app.theme.bad, None)]
        if self.result is None:
            return [(_("The program gets exactly what seat {n} was given on this turn; its answer "
                       "is shown beside the recorded one and on the board.").format(n=(self.seat or 0) + 1),
                     muted, None)]
        return rerun_lines(self.result, self.view.app.theme)


def rerun_lines(result, theme) -> list[tuple[str, tuple | None, tuple | None]]:
    """The recorded and the new answer side by side (move, time, failure, output)."""
    rec, new = result.recorded, result.new
    rec_fail = f"  {rec.get('failure')}: {rec.get('detail', '')}" if rec.get("failure") else ""
    new_fail = f"  {new.failure.value}: {new.detail}" if new.failure else ""
    lines = [(_("recorded: {move}  ({s:.3f} s)").format(move=rec.get("text") or "-", s=rec.get("elapsed", 0))
              + rec_fail, None, RECORDED_COLOUR),
             (_("new: {move}  ({s:.3f} s)").format(move=new.text or "-", s=new.elapsed) + new_fail,
              None, NEW_COLOUR),
             (_("same move") if result.same_move else _("different move"),
              theme.good if result.same_move else theme.bad, None)]
    for title, text in ((_("recorded output:"), (rec.get("stdout") or "") + (rec.get("stderr") or "")),
                        (_("new output:"), new.stdout + new.stderr)):
        tail = text.strip().splitlines()[-4:]
        if tail:
            lines.append((title, theme.muted, None))
            lines += [(line, theme.muted, None) for line in tail]
    return lines


class BranchPane(ToolPane):
    """Continue the game live from the shown position with new seats (:class:`runner.match.Branch`)."""

    def __init__(self, view):
        super().__init__(view)
        seats = view.replay.header.get("seats") or []
        self.kinds: list[str] = []
        self.values: list[str] = []
        for seat in range(view.seat_count()):
            spec = seats[seat].get("spec", "") if seat < len(seats) and isinstance(seats[seat], dict) else ""
            kind, _sep, rest = spec.partition(":")
            if kind == "bot":
                self.kinds.append(BOT)
                self.values.append(rest or "1")
            elif kind == "human" or not spec:
                self.kinds.append(PERSON)
                self.values.append("")
            else:
                self.kinds.append(PROGRAM)
                self.values.append(rest if kind == "ext" else spec)
        self.error = ""

    def heading(self) -> str:
        return _("Branch from turn {n}").format(n=self.view.index)

    def layout(self, x: float, y: float, width: float) -> float:
        view = self.view
        y += 34
        self.menus, self.entries = {}, {}
        count = view.seat_count()
        columns = 2 if count > 2 else 1             # four seats still leave room for the text
        cell = (width - 8 * (columns - 1)) / columns
        label_w = 90 if columns == 1 else 28
        menu_w = 130 if columns == 1 else 108
        for seat in range(count):
            cx = x + (seat % columns) * (cell + 8)
            view.label(view.rect(cx, y, label_w, 40),
                       _("Seat {n}").format(n=seat + 1) if columns == 1 else str(seat + 1))
            menu = view.dropdown(view.rect(cx + label_w + 4, y, menu_w, 40), [_(PERSON), _(BOT), _(PROGRAM)],
                                 _(self.kinds[seat]))
            self.menus[menu] = seat
            if self.kinds[seat] != PERSON:
                hint = _("level") if self.kinds[seat] == BOT else _("command")
                left = label_w + menu_w + 12
                entry = view.entry(view.rect(cx + left, y, cell - left, 40), self.values[seat], hint)
                self.entries[entry] = seat
            if seat % columns == columns - 1 or seat == count - 1:
                y += ROW
        self.start_button = view.button(view.rect(x, y, 150, 40), _("Play from here"), cls="@accent",
                                        tooltip=_("a new match from this position, recorded with its origin"))
        self.close_button = view.button(view.rect(x + width - 100, y, 100, 40), _("Close"))
        return y + ROW

    def specs(self) -> list[str]:
        specs = []
        for kind, value in zip(self.kinds, self.values):
            if kind == PERSON:
                specs.append("human")
            elif kind == BOT:
                specs.append(f"bot:{value.strip() or 1}")
            else:
                specs.append(program_spec(value))
        return specs

    def process_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element in self.menus:
            seat = self.menus[event.ui_element]
            self.kinds[seat] = {_(k): k for k in (PERSON, BOT, PROGRAM)}.get(event.text, PERSON)
            self.values[seat] = "1" if self.kinds[seat] == BOT else ""
            self.view.relayout()
        elif event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element in self.entries:
            self.values[self.entries[event.ui_element]] = event.ui_element.get_text()
        elif is_pressed(event, self.start_button):
            self.start()
        else:
            return False
        return True

    def start(self) -> None:
        """Make the branched match and show it (a failure is a line in the pane)."""
        from runner import paths
        from runner.build import MatchPlan, build_match
        from runner.match import default_record_path
        from ui.scenes.match import MatchScene
        replay = self.view.replay
        for entry, seat in self.entries.items():
            self.values[seat] = entry.get_text()
        try:
            plan = MatchPlan.from_record(replay, self.specs(), turn=self.view.index)
            match = build_match(plan, record_path=default_record_path(paths.records_dir(), plan.game))
        except (ArenaError, ValueError, KeyError) as exc:
            self.error = str(exc)
            self.view.relayout()
            return
        self.view.branched = match
        self.view.app.push(MatchScene(self.view.app, match))

    def lines(self):
        theme = self.view.app.theme
        if self.error:
            return [(self.error, theme.bad, None)]
        return [(_("The first {n} turns are kept as recorded; the new record names this one and "
                   "the turn.").format(n=self.view.index), theme.muted, None)]


class FilmPane(ToolPane):
    """Save the shown position as a PNG, or a range of turns as a GIF or MP4 (:mod:`ui.media`)."""

    FORMATS = ("PNG", "GIF", "MP4")

    def __init__(self, view):
        super().__init__(view)
        self.format = "PNG"
        self.size = "960x540"
        self.fps = "4"
        self.first, self.last = "0", str(view.last)
        self.job = None                  # the film being made (a generator), or None
        self.progress = (0, 0)
        self.done = ""                   # the last "saved ..." sentence, whole
        self.error = ""
        self.out: Path | None = None

    def heading(self) -> str:
        return _("Picture or film")

    def layout(self, x: float, y: float, width: float) -> float:
        view = self.view
        y += 34
        self.format_menu = view.dropdown(view.rect(x, y, 110, 40), self.FORMATS, self.format)
        view.label(view.rect(x + 116, y, 50, 40), _("size"))
        self.size_entry = view.entry(view.rect(x + 168, y, 130, 40), self.size, "960x540")
        view.label(view.rect(x + 304, y, 50, 40), _("fps"))
        self.fps_entry = view.entry(view.rect(x + 356, y, width - 356, 40), self.fps, "4")
        y += ROW
        film = self.format != "PNG"
        self.range_entries = {}
        if film:
            view.label(view.rect(x, y, 110, 40), _("turns"))
            self.range_entries["first"] = view.entry(view.rect(x + 116, y, 100, 40), self.first, "0")
            view.label(view.rect(x + 220, y, 40, 40), "–")
            self.range_entries["last"] = view.entry(view.rect(x + 264, y, 100, 40), self.last, str(view.last))
            y += ROW
        self.save_button = view.button(view.rect(x, y, 150, 40), _("Save as…"), cls="@accent",
                                       enabled=self.job is None)
        self.close_button = view.button(view.rect(x + width - 100, y, 100, 40), _("Close"))
        return y + ROW

    def read_fields(self) -> None:
        self.size, self.fps = self.size_entry.get_text(), self.fps_entry.get_text()
        if self.range_entries:
            self.first = self.range_entries["first"].get_text()
            self.last = self.range_entries["last"].get_text()

    def default_name(self) -> str:
        """The record's name and the turns: ``hex-20261123-101500-1a2b3c-turn-12.png``."""
        stem = self.view.export_stem()
        if self.format == "PNG":
            return f"{stem}-turn-{self.view.index}.png"
        return f"{stem}-turns-{self.first.strip()}-{self.last.strip()}.{self.format.lower()}"

    def process_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.format_menu:
            self.read_fields()
            self.format = event.text
            self.view.relayout()
        elif is_pressed(event, self.save_button):
            self.read_fields()
            self.ask_where()
        elif event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is self.dialog:
            self.dialog = None
            self.start(Path(event.text))
        elif event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.dialog:
            self.dialog = None
        else:
            return False
        return True

    def folder(self) -> Path:
        from runner import paths
        return Path(self.view.app.settings.export_folder or paths.records_dir() / "exports")

    def ask_where(self) -> None:
        """Save as: the file dialog in the last folder used, with the record's name."""
        folder = self.folder()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            folder = Path.home()
        self.kill_dialog()
        self.dialog = file_dialog(self.view, _("Save as"), folder / self.default_name(), existing=False)

    def settings(self):
        """The chosen size, pace and turns as :class:`ui.media.FilmSettings` (ValueError: which is wrong)."""
        from ui.media import FilmSettings
        try:
            width, height = (int(v) for v in self.size.lower().replace("×", "x").split("x"))
        except ValueError:
            raise ValueError(_("size: {v!r} is not WIDTHxHEIGHT, e.g. 960x540").format(v=self.size)) from None
        if not (64 <= width <= 7680 and 64 <= height <= 4320):
            raise ValueError(_("size: {w}x{h} is outside 64x64 to 7680x4320").format(w=width, h=height))
        try:
            fps = float(self.fps)
        except ValueError:
            raise ValueError(_("fps: {v!r} is not a number").format(v=self.fps)) from None
        if self.format == "PNG":
            return FilmSettings(self.view.index, self.view.index, (width, height), fps if fps > 0 else 4.0)
        try:
            first, last = int(self.first), int(self.last)
        except ValueError:
            raise ValueError(_("turns: {a!r} to {b!r} are not whole numbers").format(a=self.first, b=self.last)) from None
        return FilmSettings(first, last, (width, height), fps)

    def start(self, out: Path) -> None:
        """Begin drawing the picture or film to ``out``, a slice of frames per loop."""
        from ui.media import export_steps
        if out.is_dir():
            out = out / self.default_name()
        if out.suffix.lower() != f".{self.format.lower()}":
            out = out.with_name(out.name + f".{self.format.lower()}")
        self.error, self.done = "", ""
        try:
            self.job = export_steps(self.view.replay, self.format, out, self.settings())
        except (ValueError, ArenaError) as exc:
            self.error = str(exc)
            self.view.relayout()
            return
        self.out, self.progress = out, (0, 0)
        self.view.app.settings.export_folder = str(out.parent)
        self.view.app.save_settings()
        self.view.relayout()

    def update(self) -> bool:
        if self.job is None:
            return False
        end = time.monotonic() + FILM_SLICE
        try:
            while time.monotonic() < end:
                self.progress = next(self.job)
        except StopIteration as stop:
            self.job = None
            self.done = stop.value or f"saved {self.out}"
            self.view.saved_where = self.done
            self.view.relayout()
        except (ArenaError, OSError) as exc:
            self.job = None
            self.error = str(exc)
            self.view.relayout()
        return True

    def close(self) -> None:
        if self.job is not None:
            self.job.close()
            self.job = None
        super().close()

    def lines(self):
        theme = self.view.app.theme
        if self.error:
            return [(self.error, theme.bad, None)]
        if self.job is not None:
            done, total = self.progress
            return [(_("Drawing frame {d} of {t}…").format(d=done, t=total), theme.muted, None)]
        if self.done:
            return [(self.done, theme.good, None)]
        return [(_("PNG: the position shown. GIF and MP4: the turns chosen, with the players' "
                   "panel and each turn's caption."), theme.muted, None)]
