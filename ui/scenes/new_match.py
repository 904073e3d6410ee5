"""New match: game, variant, options, who sits in each seat, seed; Start opens the match."""
from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import UICheckBox
from pygame_gui.windows import UIFileDialog

from games.api import ArenaError, GameSetupError, check_seats
from runner import paths
from runner.build import MatchPlan, asked_option_defaults, build_seat, match_options, started_options
from runner.commands import command_problem
from runner.i18n import N_, _, ngettext
from runner.messages import translated
from runner.referee import error_text


from ui.catalog import GameEntry, game_entries, level_label
from ui.level_strength import STRENGTH_WIDTH, level_strength, strength_row
from ui.scenes.replay_tools import file_dialog
from games.render import font, wrap
from ui.scene import Scene, is_pressed
from ui.seat_settings import (field_unit_label, fields_for, join_settings, settings_problem,
                              split_settings)

KIND_NAMES = {"human": N_("Person"), "bot": N_("Built-in bot"), "ext": N_("Program")}
SEAT_HINTS = (
    N_("Person: someone at this screen plays by clicking the board, or with the keys shown under "
       "the board on their turn (arrow keys move; Enter or Space plays; in Robot, Space stays and "
       "Shift+arrow takes two steps with the speed item)."),
    N_("Built-in bot: level 1 is the weakest."),
    N_("Program: a command run the contest's way (its input and output files); Browse picks the file. "
       "Engine kinds (GTP, UCI) speak their own protocol."),
    N_("Each match is recorded; open it later from Home or Open replay."),
)
SEAT_ROW = 56
#: Extra height of a seat that has settings (an engine's time, depth, nodes, options).
SETTINGS_ROW = 66
OPTION_ROW = 70
MIN_OPTION_ROW = 56          # rows shrink to this (one line of help) so every option shows
OPTION_W = 210
FROM_FILE = N_("from a file…")
#: Options in plain words, with their units (a game's other options: their names, spelled out).
OPTION_LABELS = {
    "size": N_("Board size (cells a side)"), "position": N_("Start position"), "swap": N_("Pie rule (swap)"),
    "max_moves": N_("Most moves for player 1"), "time_total": N_("Program's game clock (s)"),
    "human_time_total": N_("Person's game clock (s)"), "time_per_move": N_("Program's time a move (s)"),
    "human_time_per_move": N_("Person's time a move (s)"), "map": N_("Map"), "players": N_("Robots"),
    "respawn": N_("A robot that left comes back"), "period": N_("Map shrinks every (turns)"),
    "fen": N_("Start position (FEN)"), "repetition": N_("A repeated position"),
    "no_capture_limit": N_("No-capture draw (half-moves)"), "start": N_("Start position file"),
    "repetition_count": N_("Repetition ends the game at"), "compat": N_("Rules followed"),
    "teams": N_("Teams"), "members": N_("Pieces a team"), "zones": N_("Zones"),
    "turn_limit": N_("Most team turns"), "piles": N_("Letters file"), "dictionary": N_("Dictionary folder"),
    "seconds": N_("Program's time for the game (s)"),
}
SWITCH_WORDS = (("off", "on"), ("no", "yes"), ("false", "true"))
#: Option values shown in words (the value itself is what the game and the record get).
CHOICE_WORDS = {"perpetual-check-loses": N_("endless check loses"), "draw": N_("draw"),
                "arena": N_("arena"), "organizers": N_("organizers")}


@dataclass
class SeatChoice:
    """One seat as the form shows it."""

    kind: str = "human"          # human, bot, ext, or a game's extra kind (gtp ...)
    level: int = 1
    command: str = ""
    #: The seat's settings by field key (``movetime``, ``depth``, ``options`` ...; see
    #: :mod:`ui.seat_settings`), kept across kind changes, used by the kinds that take them.
    settings: dict = field(default_factory=dict)

    def spec(self, plugin=None) -> str:
        """The seat spec, as on the command line (settings as trailing KEY=VALUE words)."""
        fields = fields_for(plugin, self.kind) if plugin is not None else ()
        if self.kind == "human":
            return "human"
        if self.kind == "bot":
            return join_settings(f"bot:{self.level}", self.settings, fields)
        return f"{self.kind}:" + join_settings(self.command.strip(), self.settings, fields)

    @classmethod
    def from_spec(cls, spec: str, plugin=None) -> "SeatChoice":
        kind, _sep, arg = spec.partition(":")
        kind = kind.strip().lower()
        fields = fields_for(plugin, kind) if plugin is not None else ()
        if kind == "bot":
            level, _sep, rest = arg.strip().partition(" ")
            _rest, settings = split_settings(rest, fields)
            return cls("bot", int(level) if level.isdigit() else 1, settings=settings)
        if kind == "human" or not kind:
            return cls("human")
        command, settings = split_settings(arg, fields)
        return cls(kind, command=command, settings=settings)


def kind_label(kind: str) -> str:
    return _(KIND_NAMES[kind]) if kind in KIND_NAMES else _("{kind} engine").format(kind=kind.upper())


class NewMatchScene(Scene):
    """The form; its state lives in attributes so re-layouts (resize, game change) keep it."""

    def __init__(self, app, game: str | None = None):
        super().__init__(app)
        self.entries: list[GameEntry] = [e for e in game_entries() if e.available]
        self.seed_text = ""
        self.error = ""
        self.dialog: UIFileDialog | None = None
        self.dialog_seat = 0
        self.dialog_option = None
        names = [e.name for e in self.entries]
        self.select_game(game if game in names else (names[0] if names else None))

    # ------------------------------------------------------------ form state
    @property
    def chosen(self) -> GameEntry | None:
        return next((e for e in self.entries if e.name == self.game_name), None)

    def select_game(self, name: str | None) -> None:
        self.game_name = name
        self.option_texts: dict[str, str] = {}
        self.game = self.chosen.plugin.new_game() if self.chosen else None
        self.variant = self.game.spec.variants[0].name if self.game else None
        form = self.app.settings.last_forms.get(name or "", {}) if self.game else {}
        if form.get("variant") in [v.name for v in self.game.spec.variants] if self.game else False:
            self.variant = form["variant"]
        if self.game:
            offered = {o.name for o in self.visible_options()}
            self.option_texts = {k: v for k, v in form.get("options", {}).items() if k in offered}
        last = self.app.settings.last_seats.get(name or "", [])
        self.seats = [SeatChoice.from_spec(s, self.chosen.plugin if self.chosen else None) for s in last]
        self._fit_seats()

    def seat_colour(self, seat: int) -> tuple:
        """The colour the board gives ``seat`` (Xiangqi's Red is red), from the game's renderer."""
        key = (self.game_name, self.app.theme.name)
        if getattr(self, "_renderer_key", None) != key:
            from ui.boards import make_renderer
            self._renderer_key = key
            self._renderer = make_renderer(self.chosen.plugin, self.game, {}, [], self.app.theme)
        try:
            return self._renderer.seat_colour(seat)
        except Exception:          # a renderer that needs options it was not given
            return self.app.theme.seats[seat % len(self.app.theme.seats)]

    def seat_kinds(self) -> list[str]:
        plugin = self.chosen.plugin
        kinds = ["human"]
        if plugin.bot:
            kinds.append("bot")
        if plugin.external:
            kinds.append("ext")
        return kinds + list(plugin.extra_seats)

    def visible_options(self) -> list:
        """The options the form offers (not those the arena sets itself, such as a map's name)."""
        return [o for o in self.game.spec.options if not o.hidden]

    def resolved_options(self) -> dict:
        """The options the match would use; raises GameSetupError with the reason.

        As on the command line (:func:`runner.build.match_options`), the seats' own option
        defaults come first (a Xiangqi engine seat asks for the usual repetition count),
        then what the form says.
        """
        return match_options(self.chosen.plugin, self.variant, self.option_texts,
                             self.seat_option_defaults())

    def seat_option_defaults(self) -> dict:
        """The option defaults the chosen seats ask for (``Seat.option_defaults``).

        Their program and engine seats are made (no program is started) to ask them.  A
        seat that cannot be made yet (no command) asks for nothing.
        """
        plugin = self.chosen.plugin
        return asked_option_defaults(plugin, [seat.spec(plugin) for seat in self.seats])

    def seat_count(self) -> int:
        spec = self.game.spec
        try:
            count = int(self.game.seats_for(self.resolved_options()))
        except (ArenaError, TypeError, ValueError):
            count = spec.min_seats
        return max(spec.min_seats, min(spec.max_seats, count))

    def _fit_seats(self) -> None:
        if not self.game:
            self.seats = []
            return
        count = self.seat_count()
        kinds = set(self.seat_kinds())
        self.seats = [s if s.kind in kinds else SeatChoice("human") for s in self.seats[:count]]
        bot_levels = [s.level for s in self.seats if s.kind == "bot"]
        level = bot_levels[-1] if bot_levels else 2          # a new seat plays like the others
        defaults = [SeatChoice("human")] + [SeatChoice("bot", level) for _ in range(count)]
        self.seats += defaults[len(self.seats):count]
        levels = len(self.chosen.plugin.bot_levels) or 1
        for seat in self.seats:
            seat.level = max(1, min(levels, seat.level))

    def validate(self) -> str:
        """The first problem with the form, or "" when Start can go."""
        if not self.game:
            return _("No game is installed.")
        try:
            options = self.resolved_options()
            check_seats(self.game.spec, len(self.seats))
            started_options(self.chosen.plugin, options)
        except ArenaError as exc:
            return translated(error_text(exc))
        except (TypeError, ValueError, KeyError) as exc:
            return _("options: {error}").format(error=exc)
        for index, seat in enumerate(self.seats):
            if seat.kind not in ("human", "bot") and not seat.command.strip():
                return _("{seat}: give the program's command").format(seat=_(self.game.spec.seat_name(index)))
            problem = command_problem(seat.command) if seat.kind not in ("human", "bot") else ""
            problem = problem or settings_problem(seat.settings, fields_for(self.chosen.plugin, seat.kind), _)
            if not problem and seat.kind == "bot" and any(seat.settings.values()):
                problem = self._bot_problem(seat)
            if problem:
                return f"{_(self.game.spec.seat_name(index))}: {problem}"
        if self.seed_text.strip() and not self.seed_text.strip().lstrip("-").isdigit():
            return _("seed {seed!r} is not a whole number").format(seed=self.seed_text.strip())
        return ""

    def _bot_problem(self, seat: SeatChoice) -> str:
        """What the game's bot says of its settings (level 1 plays at random and takes
        none): "" when it takes them.  Building a bot starts nothing."""
        try:
            build_seat(self.chosen.plugin, seat.spec(self.chosen.plugin), 0, 0).close()
        except ArenaError as exc:
            return translated(error_text(exc))
        return ""

    # ------------------------------------------------------------ layout
    def layout(self) -> None:
        self.top_bar(_("New match"))
        self.seat_widgets: list[dict] = []
        self.option_widgets: dict = {}
        self.file_menus: dict = {}          # a shipped-files menu -> (option, the chosen file's path)
        if not self.game:
            self.label(self.rect(40, 100, 800, 40), _("No game is installed yet."), cls="@error")
            self.start_button = None
            return
        spec = self.game.spec
        x_label, x_field = 40, 170
        self.label(self.rect(x_label, 84, 130, 40), _("Game"))
        self.game_menu = self.dropdown(self.rect(x_field, 84, 330, 40), [_(e.title) for e in self.entries],
                                       _(self.chosen.title))
        self.label(self.rect(x_label, 134, 130, 40), _("Variant"))
        self.variant_menu = self.dropdown(self.rect(x_field, 134, 330, 40),
                                          [_(v.name) for v in spec.variants], _(self.variant) if self.variant else "")
        self.label(self.rect(x_label, 184, 130, 40), _("Seed"))
        self.seed_entry = self.entry(self.rect(x_field, 184, 330, 40), self.seed_text, _("random"))
        self.label(self.rect(x_label, 240, 400, 36), _("Seats"), cls="@heading")
        for index, seat in enumerate(self.seats):
            self.seat_widgets.append(self._seat_row(index, seat, self.seat_y(index)))
        self.label(self.rect(700, 76, 400, 36), _("Options"), cls="@heading")
        self._shown_defaults = self.seat_option_defaults()
        try:
            values = self.resolved_options()
        except ArenaError:
            values = {o.name: o.default for o in spec.options}
        plugin = self.chosen.plugin
        for option, (y, row, _lines) in zip(self.visible_options(), self.option_rows()):
            if y + row > self.dh - 90:
                break
            rect = self.rect(self.options_right() - 16 - OPTION_W, y + 6, OPTION_W, 40)
            text = self.option_texts.get(option.name, _option_text(values.get(option.name, option.default)))
            words = switch_words(option)
            shipped = shipped_files(plugin, option)
            if words:
                on = text.lower() == words[1].lower()
                widget = UICheckBox(self.rect(self.options_right() - 16 - OPTION_W, y + 10, 32, 32),
                                    _("yes") if on else _("no"), self.app.manager, container=self.root,
                                    initial_state=on)
            elif option.choices:
                widget = self.dropdown(rect, [choice_text(c) for c in option.choices], choice_text(text))
            elif shipped:
                current = text if text in shipped else Path(text).name if text else shipped[0]
                items = shipped + ([current] if current not in shipped else []) + [_(FROM_FILE)]
                widget = self.dropdown(rect, items, current)
                self.file_menus[widget] = (option, text if current not in shipped else "")
                if current not in shipped:
                    widget.set_tooltip(text)          # the whole path of one's own file
            else:
                widget = self.entry(rect, text)
            if self.help_is_cut(option) and not widget.tool_tip_text:
                widget.set_tooltip(option.help)      # the whole description, on hover
            self.option_widgets[widget] = option
        self.error_label = self.label(self.rect(40, self.dh - 68, self.dw - 340, 44), " ", cls="@error")
        self.error_label.hide()          # keeps the text; drawn wrapped by error_lines (no cut)
        self.start_button = self.button(self.rect(self.dw - 40 - 240, self.dh - 74, 240, 56),
                                        _("Start match"), cls="@accent")
        self._show_error(self.validate())

    def seat_y(self, index: int) -> float:
        """Design y of seat ``index``'s row (seats with settings are taller)."""
        plugin = self.chosen.plugin
        return 282 + sum(SEAT_ROW + (SETTINGS_ROW if fields_for(plugin, seat.kind) else 0)
                         + strength_row(self.game_name, seat.kind) for seat in self.seats[:index])
    def option_row(self) -> float:
        """Design height of one option's row: shorter rows (one line of help) when that is
        what it takes to show every option."""
        room = self.dh - 90 - 120
        return max(MIN_OPTION_ROW, min(OPTION_ROW, room / max(1, len(self.visible_options()))))

    def help_width(self) -> int:
        return self.px(self.options_right() - 16 - OPTION_W - 12 - 700)

    def option_rows(self) -> list[tuple[float, float, int]]:
        """(design y, design height, help lines) of each shown option's row.  Every row
        first gets up to two lines of description; the room left then goes, a line at a
        time, to the descriptions still cut (up to four lines each).  When even two
        lines each do not fit, every row is as tall as :meth:`option_row` allows (one or
        two lines), as before."""
        options = self.visible_options()
        face = font(self.px(14))
        line = face.get_linesize() / self.app.scale
        needed = [min(4, max(1, len(wrap(face, _(o.help) if o.help else "", self.help_width()))))
                  for o in options]
        room = self.dh - 90 - 120

        def height(lines: int) -> float:
            return max(MIN_OPTION_ROW, 28 + lines * line + 6)
        lines = [min(2, n) for n in needed]
        if sum(height(n) for n in lines) > room:
            row = self.option_row()
            return [(120 + i * row, row, 2 if row >= 66 else 1) for i in range(len(options))]
        while True:
            spare = room - sum(height(n) for n in lines)
            short = [i for i in range(len(options)) if lines[i] < needed[i]
                     and height(lines[i] + 1) - height(lines[i]) <= spare]
            if not short:
                break
            lines[min(short, key=lambda i: needed[i] - lines[i])] += 1     # the nearest to whole first
        tops = [120 + sum(height(n) for n in lines[:i]) for i in range(len(lines))]
        return [(y, height(n), n) for y, n in zip(tops, lines)]

    def help_lines(self, option=None) -> int:
        """Lines of description ``option``'s row shows (without one: the fewest any row shows)."""
        rows = self.option_rows()
        if option is None:
            return min((lines for _y, _h, lines in rows), default=2)
        names = [o.name for o in self.visible_options()]
        return rows[names.index(option.name)][2] if option.name in names else 1

    def help_is_cut(self, option) -> bool:
        """True when the option's description needs more lines than its row shows."""
        return len(wrap(font(self.px(14)), _(option.help), self.help_width())) > self.help_lines(option)

    def options_right(self) -> float:
        """Right edge of the options panel (kept near its labels on very wide windows)."""
        return min(self.dw - 24, 680 + 760)

    def _seat_row(self, index: int, seat: SeatChoice, y: float) -> dict:
        widgets = {"kind": self.dropdown(self.rect(250, y, 170, 42), [kind_label(k) for k in self.seat_kinds()],
                                         kind_label(seat.kind))}
        plugin = self.chosen.plugin
        if seat.kind == "bot":
            levels = [level_label(i + 1, name) for i, name in enumerate(plugin.bot_levels)] or ["1"]
            widgets["level"] = self.dropdown(self.rect(430, y, 230, 42), levels, levels[seat.level - 1])
        elif seat.kind == "human":
            widgets["name"] = self.entry(self.rect(430, y, 230, 42), self.app.settings.name(index))
        else:
            widgets["command"] = self.entry(self.rect(430, y, 140, 42), seat.command, _("command"))
            widgets["browse"] = self.button(self.rect(576, y, 84, 42), _("Browse"),
                                            tooltip=_("choose the program file"))
        widgets["settings"] = {}
        x = 72
        for setting in fields_for(plugin, seat.kind):
            entry = self.entry(self.rect(x, y + 50 + 20, setting.width, 38),
                               seat.settings.get(setting.key, ""), _(setting.hint))
            entry.set_tooltip(self.setting_tooltip(setting))
            widgets["settings"][entry] = setting
            x += setting.width + 10
        return widgets

    def setting_tooltip(self, setting) -> str:
        """What a setting does, in plain words (shown over its field)."""
        return {
            "movetime": _("Thinking time for each move, in milliseconds (1000 = one second)."),
            "depth": _("Search this many half-moves ahead instead of thinking for a time."),
            "nodes": _("Search this many positions instead of thinking for a time."),
            "playouts": _("Play out this many random games a move instead of thinking for a time."),
            "options": _("The engine's own options, e.g. Threads=2 Hash=64 (see its documentation)."),
            "time_per_move": _("Thinking time for each move, in seconds; the engine is told the GTP way."),
            "config": _("A file of GTP commands sent to the engine before the game, one a line."),
        }.get(setting.key, "")

    def teardown(self) -> None:
        if self.dialog is not None:
            self.dialog.kill()
            self.dialog = None
        super().teardown()

    def _show_error(self, text: str) -> None:
        self.error = text
        if self.start_button is None:
            return
        self.error_label.set_text(text or " ")
        if text:
            self.start_button.disable()
        else:
            self.start_button.enable()

    # ------------------------------------------------------------ events
    def process_event(self, event: pygame.event.Event) -> bool:
        if is_pressed(event, self.back_button):
            self.app.pop()
            return True
        if self.game is None:
            return False
        if is_pressed(event, self.start_button):
            self.start()
            return True
        if event.type in (pygame_gui.UI_CHECK_BOX_CHECKED, pygame_gui.UI_CHECK_BOX_UNCHECKED) \
                and event.ui_element in self.option_widgets:
            option = self.option_widgets[event.ui_element]
            on = event.type == pygame_gui.UI_CHECK_BOX_CHECKED
            self.option_texts[option.name] = switch_words(option)[1 if on else 0]
            event.ui_element.set_text(_("yes") if on else _("no"))
            self._options_changed()
            return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element in self.file_menus:
            option, path = self.file_menus[event.ui_element]
            if event.text == _(FROM_FILE):
                self._browse(None, option)
            else:
                self.option_texts[option.name] = path if path and Path(path).name == event.text else event.text
                self._options_changed()
            return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            return self._menu_changed(event)
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            return self._text_changed(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for index, widgets in enumerate(self.seat_widgets):
                if event.ui_element is widgets.get("browse"):
                    self._browse(index)
                    return True
        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is self.dialog:
            if self.dialog_option is not None:
                self.option_texts[self.dialog_option.name] = event.text
            else:
                self.seats[self.dialog_seat].command = shlex.quote(event.text)
            self.dialog = None
            self.relayout()
            return True
        if event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is self.dialog:
            self.dialog = None
            if self.dialog_option is not None:
                self.relayout()          # the menu shows the map chosen before again
            return True
        return False

    def _menu_changed(self, event) -> bool:
        element = event.ui_element
        if element is self.game_menu:
            name = next(e.name for e in self.entries if _(e.title) == event.text)
            if name != self.game_name:
                self.select_game(name)
                self.relayout()
        elif element is self.variant_menu:
            self.variant = next(v.name for v in self.game.spec.variants if _(v.name) == event.text)
            preset = self.game.spec.variant(self.variant).options
            self.option_texts = {k: v for k, v in self.option_texts.items() if k not in preset}
            self._fit_seats()
            self.relayout()
        elif element in self.option_widgets:
            option = self.option_widgets[element]
            self.option_texts[option.name] = next(
                (str(c) for c in option.choices if choice_text(c) == event.text), event.text)
            self._options_changed()
        else:
            for index, widgets in enumerate(self.seat_widgets):
                if element is widgets["kind"]:
                    kind = next(k for k in self.seat_kinds() if kind_label(k) == event.text)
                    self.seats[index].kind = kind
                    self.relayout()
                    return True
                if element is widgets.get("level"):
                    self.seats[index].level = int(event.text.split(" ")[0])
                    self._show_error(self.validate())     # level 1 takes no settings
                    return True
            return False
        return True

    def _text_changed(self, event) -> bool:
        element = event.ui_element
        if element is self.seed_entry:
            self.seed_text = event.text
        elif element in self.option_widgets:
            self.option_texts[self.option_widgets[element].name] = event.text
            self._options_changed()
            return True
        else:
            for index, widgets in enumerate(self.seat_widgets):
                if element is widgets.get("command"):
                    self.seats[index].command = event.text
                    if self.seat_option_defaults() != self._shown_defaults:
                        self._show_new_defaults(index)   # e.g. an engine's repetition count
                        return True
                    break
                if element in widgets.get("settings", {}):
                    self.seats[index].settings[widgets["settings"][element].key] = event.text.strip()
                    break
                if element is widgets.get("name"):
                    names = self.app.settings.names
                    if index < len(names):
                        names[index] = event.text.strip()
                    break
            else:
                return False
        self._show_error(self.validate())
        return True

    def _show_new_defaults(self, seat: int) -> None:
        """The seats now ask for other option defaults: show them (the options panel is
        laid out again), keeping the typing in seat ``seat``'s command field."""
        self.relayout()
        entry = self.seat_widgets[seat].get("command") if seat < len(self.seat_widgets) else None
        if entry is not None:
            self.app.manager.set_focus_set(entry)
            entry.edit_position = len(entry.get_text())

    def _options_changed(self) -> None:
        before = len(self.seats)
        self._fit_seats()
        if len(self.seats) != before:
            self.relayout()
        else:
            self._show_error(self.validate())

    def _browse(self, seat: int | None, option=None) -> None:
        """A file dialog for a seat's program, or for a file option (a map of one's own)."""
        if self.dialog is not None:
            self.dialog.kill()
        self.dialog_seat, self.dialog_option = seat, option
        title = (_("Choose the file: {option}").format(option=option_label(option)) if option
                 else _("Choose the program"))
        self.dialog = file_dialog(self, title, Path.cwd())

    # ------------------------------------------------------------ start
    def plan(self) -> MatchPlan:
        """The form as a :class:`runner.build.MatchPlan` (a random seed unless one is typed);
        a person's seat is named as in Settings."""
        plugin = self.chosen.plugin
        specs = [seat.spec(plugin) for seat in self.seats]
        labels = [self.app.settings.name(index) if spec == "human" else "" for index, spec in enumerate(specs)]
        return MatchPlan.new(plugin.name, specs, seed=int(self.seed_text) if self.seed_text.strip() else None,
                             variant=self.variant, options=dict(self.option_texts), labels=labels)

    def start(self):
        """Build the seats and the match, and open the Match screen (errors stay inline)."""
        from runner.build import build_match
        from runner.match import default_record_path
        from ui.scenes.match import MatchScene

        problem = self.validate()
        if problem:
            self._show_error(problem)
            return None
        plan = self.plan()
        try:
            match = build_match(plan, record_path=default_record_path(paths.records_dir(), plan.game))
        except (ArenaError, OSError, ValueError) as exc:
            self._show_error(str(exc) if isinstance(exc, GameSetupError) else f"{type(exc).__name__}: {exc}")
            return None
        self.app.settings.last_seats[plan.game] = list(plan.specs)
        self.app.settings.last_forms[plan.game] = {"variant": self.variant,
                                                   "options": dict(self.option_texts)}
        self.app.save_settings()
        return self.app.replace(MatchScene(self.app, match))

    # ------------------------------------------------------------ drawing
    def error_lines(self) -> list[str]:
        """The form's problem, wrapped whole into the strip left of Start (up to 3 lines)."""
        if not self.error:
            return []
        face = font(self.px(17), bold=True)
        return wrap(face, self.error, self.px(self.dw - 340), 3)

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        surface.fill(theme.background)
        if not self.game:
            return
        lines = self.error_lines()
        if lines:
            face = font(self.px(17), bold=True)
            y = self.px(self.dh - 46) - len(lines) * face.get_linesize() // 2
            for line in lines:
                surface.blit(face.render(line, True, theme.bad), (self.px(40), y))
                y += face.get_linesize()
        spec = self.game.spec
        panel = self.rect(680, 72, self.options_right() - 680, self.dh - 72 - 92)
        pygame.draw.rect(surface, theme.panel, panel, border_radius=self.px(10))
        plugin = self.chosen.plugin
        for index, seat in enumerate(self.seats):
            y = self.px(self.seat_y(index))
            colour = self.seat_colour(index)
            pygame.draw.circle(surface, colour, (self.px(54), y + self.px(21)), self.px(11))
            self.draw_text(surface, _(spec.seat_name(index)), (self.px(72), y + self.px(9)), 17,
                           theme.text, max_width=self.px(170))
            x = 72
            for setting in fields_for(plugin, seat.kind):
                self.draw_text(surface, field_unit_label(setting, _), (self.px(x), y + self.px(50)), 14,
                               theme.muted, max_width=self.px(setting.width + 6))
                x += setting.width + 10
            if strength_row(self.game_name, seat.kind):      # the level's measured strength
                below = SEAT_ROW + (SETTINGS_ROW if fields_for(plugin, seat.kind) else 0) - 6
                self.draw_text(surface, level_strength(self.game_name, seat.level), (self.px(72), y + self.px(below)),
                               14, theme.muted, max_width=self.px(STRENGTH_WIDTH))
        hint_y = self.seat_y(len(self.seats)) + 16
        face = font(self.px(15))
        y = self.px(hint_y)
        bottom = self.px(self.dh - 96)            # the hints never run into the error line or Start
        for paragraph in SEAT_HINTS:
            lines = wrap(face, _(paragraph), self.px(620), 3)
            if y + len(lines) * face.get_linesize() > bottom:
                break
            for line in lines:
                surface.blit(face.render(line, True, theme.muted), (self.px(40), y))
                y += face.get_linesize()
            y += self.px(6)
        offered = self.visible_options()
        help_face = font(self.px(14))
        for index, (option, (y, row, lines)) in enumerate(zip(offered, self.option_rows())):
            if y + row > self.dh - 90:
                hidden = len(offered) - index
                self.draw_text(surface, ngettext("{n} more option: use the command line",
                                                 "{n} more options: use the command line", hidden).format(n=hidden),
                               (self.px(700), self.px(y)), 15, theme.muted)
                break
            width = self.help_width()
            self.draw_text(surface, option_label(option), (self.px(700), self.px(y + 2)), 18, theme.text,
                           bold=True, max_width=width)
            line_y = self.px(y + 28)
            for line in wrap(help_face, _(option.help) if option.help else "", width, lines):
                surface.blit(help_face.render(line, True, theme.muted), (self.px(700), line_y))
                line_y += help_face.get_linesize()


def _option_text(value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def choice_text(value) -> str:
    """An option's value as the menu shows it: in words where it is a word, else as it is."""
    text = str(value)
    return _(CHOICE_WORDS[text]) if text in CHOICE_WORDS else text


def option_label(option) -> str:
    """The option's name in plain words, with its unit."""
    return _(OPTION_LABELS.get(option.name) or option.name.replace("_", " ").capitalize())


def switch_words(option) -> tuple[str, str] | None:
    """(off, on) texts for a yes/no option (a bool, or choices like off/on), else None."""
    if isinstance(option.default, bool):
        return ("False", "True")
    choices = tuple(str(c).lower() for c in option.choices)
    return tuple(str(c) for c in option.choices) if choices in SWITCH_WORDS else None


def shipped_files(plugin, option) -> list[str]:
    """The files a game ships for a file option (Robot's maps in ``games/robot/maps/``):
    their names, offered in a menu beside "from a file…"."""
    if not option.file:
        return []
    import importlib
    try:
        package = Path(importlib.import_module(f"games.{plugin.name}").__file__).parent
    except (ImportError, TypeError):
        return []
    folder = package / f"{option.name}s"
    return sorted(p.stem for p in folder.glob("*.txt")) if folder.is_dir() else []
