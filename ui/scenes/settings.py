"""Settings: language, names, theme, window size, fullscreen, move notations, the recent list.  Apply saves."""
from __future__ import annotations

import pygame
import pygame_gui

from games.render import font, wrap
from runner.i18n import LANGUAGES, N_, _, language
from ui.scene import Scene, is_pressed
from ui.settings import MAX_NAMES, THEME_NAMES, WINDOW_SIZES, is_default_name

ROW = 52
#: What the theme and on/off menus show, by the value they stand for.
THEME_WORDS = {"dark": N_("dark"), "light": N_("light")}
SWITCH_WORDS = {False: N_("off"), True: N_("on")}


def notation_choices() -> list[tuple[str, str, tuple[str, ...]]]:
    """(game, title, notations) for each game whose renderer offers more than one notation."""
    from games import registry
    from ui.catalog import game_title
    choices = []
    for plugin in registry.all_plugins():
        try:
            names = tuple(getattr(plugin.load("renderer"), "notations", ()) or ())
        except Exception:          # a game without a renderer has only its plain texts
            continue
        if len(names) > 1:
            choices.append((plugin.name, game_title(plugin.name), names))   # translated where shown
    return choices


def size_text(size) -> str:
    return f"{size[0]} x {size[1]}"


class SettingsScene(Scene):
    """Edits a copy of the settings; Apply writes them and applies theme and window."""

    def __init__(self, app):
        super().__init__(app)
        s = app.settings
        self.names = [s.given_name(i) for i in range(MAX_NAMES)]   # "" for a default: shown as a hint
        self.theme = s.theme
        self.window_size = tuple(s.window_size)
        self.fullscreen = s.fullscreen
        self.clear_recent = False
        self.language = s.interface_language()
        self.message = ""
        self.notation_games = notation_choices()
        self.notations = {game: s.notations.get(game, names[0]) for game, _, names in self.notation_games}

    def layout(self) -> None:
        self.top_bar(_("Settings"))
        x_label, x_field, y = 40, 300, 96
        self.label(self.rect(x_label, y, 240, 40), _("Language"))
        self.language_menu = self.dropdown(self.rect(x_field, y, 260, 40), list(LANGUAGES.values()),
                                           LANGUAGES[self.language])
        y += ROW
        self.label(self.rect(x_label, y, 240, 40), _("Theme"))
        self.theme_menu = self.dropdown(self.rect(x_field, y, 260, 40),
                                        [_(THEME_WORDS[name]) for name in THEME_NAMES],
                                        _(THEME_WORDS[self.theme]))
        y += ROW
        self.label(self.rect(x_label, y, 240, 40), _("Window size"))
        sizes = [size_text(s) for s in WINDOW_SIZES]
        current = size_text(self.window_size)
        if current not in sizes:
            sizes.insert(0, current)
        self.size_menu = self.dropdown(self.rect(x_field, y, 260, 40), sizes, current)
        y += ROW
        self.label(self.rect(x_label, y, 240, 40), _("Start fullscreen"))
        self.fullscreen_menu = self.dropdown(self.rect(x_field, y, 260, 40),
                                             [_(SWITCH_WORDS[False]), _(SWITCH_WORDS[True])],
                                             _(SWITCH_WORDS[self.fullscreen]))
        y += ROW
        self.notation_menus = {}
        for game, title, names in self.notation_games:
            self.label(self.rect(x_label, y, 240, 40), _("{game} notation").format(game=_(title)))
            menu = self.dropdown(self.rect(x_field, y, 260, 40), names, self.notations[game])
            self.notation_menus[menu] = game
            y += ROW
        y += 12
        self.label(self.rect(x_label, y, 600, 36), _("Names of people at this screen"),
                   cls="@heading")
        y += 44
        self.name_entries = []
        for index in range(MAX_NAMES):
            self.label(self.rect(x_label, y, 240, 40), _("Seat {n}").format(n=index + 1))
            entry = self.entry(self.rect(x_field, y, 360, 40), self.names[index],
                               _("Player {n}").format(n=index + 1))     # the default, in this language
            entry.set_text_length_limit(40)
            self.name_entries.append(entry)
            y += ROW
        y += 8
        count = len(self.app.settings.recent_records)
        self.clear_button = self.button(self.rect(x_label, y, 320, 44),
                                        _("Clear recent records ({count})").format(count=count),
                                        enabled=bool(count) and not self.clear_recent)
        self.apply_button = self.button(self.rect(self.dw - 40 - 200, self.dh - 72, 200, 52),
                                        _("Apply"), cls="@accent")
        message_x = x_label + 340                  # beside Clear recent records, which may reach down here
        self.message_label = self.label(self.rect(message_x, self.dh - 66, self.dw - 40 - 200 - 20 - message_x, 40),
                                        self.message or " ", cls="@muted")

    def draw(self, surface: pygame.Surface) -> None:
        """The form's background, and where Arena keeps its files (organizers ask)."""
        from runner import paths
        theme = self.app.theme
        surface.fill(theme.background)
        panel = self.rect(720, 96, self.dw - 720 - 40, 300)
        pygame.draw.rect(surface, theme.panel, panel, border_radius=self.px(10))
        x, y, width = panel.x + self.px(20), panel.y + self.px(16), panel.width - self.px(40)
        self.draw_text(surface, _("Where Arena keeps things"), (x, y), 22, theme.text, bold=True)
        y += self.px(44)
        face = font(self.px(15), mono=True)
        for title, value in ((N_("Data folder"), paths.data_dir()), (N_("Match records"), paths.records_dir()),
                             (N_("This file"), paths.settings_path())):
            self.draw_text(surface, _(title), (x, y), 16, theme.muted)
            y += self.px(24)
            for line in wrap(face, str(value), width, 2):
                surface.blit(face.render(line, True, theme.text), (x, y))
                y += face.get_linesize()
            y += self.px(10)
        self.draw_text(surface, _("Set ARENA_HOME to keep them elsewhere."), (x, y), 15, theme.muted,
                       max_width=width)

    def process_event(self, event: pygame.event.Event) -> bool:
        if is_pressed(event, self.back_button):
            self.app.pop()
        elif is_pressed(event, self.apply_button):
            self.apply()
        elif is_pressed(event, self.clear_button):
            self.clear_recent = True
            self.clear_button.disable()
            self._say(_("The recent list will be cleared when you apply."))
        elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if event.ui_element is self.language_menu:
                self.language = next(c for c, name in LANGUAGES.items() if name == event.text)
            elif event.ui_element is self.theme_menu:
                self.theme = next(n for n in THEME_NAMES if _(THEME_WORDS[n]) == event.text)
            elif event.ui_element is self.size_menu:
                width, height = (int(v) for v in event.text.split("x"))
                self.window_size = (width, height)
            elif event.ui_element is self.fullscreen_menu:
                self.fullscreen = event.text == _(SWITCH_WORDS[True])
            elif event.ui_element in self.notation_menus:
                self.notations[self.notation_menus[event.ui_element]] = event.text
            else:
                return False
        elif event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element in self.name_entries:
            self.names[self.name_entries.index(event.ui_element)] = event.text.strip()
        else:
            return False
        return True

    def _say(self, text: str) -> None:
        self.message = text
        self.message_label.set_text(text)

    def apply(self) -> None:
        """Save, then apply what shows now: the theme and (when windowed) the window size."""
        s = self.app.settings
        s.names = [f"Player {i + 1}" if is_default_name(n, i) else n      # a default stays a default,
                   for i, n in enumerate(self.names)]                    # in any language
        language_changed = self.language != language()
        s.language = self.language
        theme_changed = s.theme != self.theme
        size_changed = tuple(s.window_size) != self.window_size
        s.theme, s.window_size, s.fullscreen = self.theme, self.window_size, self.fullscreen
        s.notations.update(self.notations)
        if self.clear_recent:
            s.recent_records = []
            self.clear_recent = False
        self.app.save_settings()
        self.message = _("Saved.")
        resized = size_changed and not self.app.fullscreen
        if resized:
            self.app.windowed_size = self.window_size
            self.app.window = pygame.display.set_mode(self.window_size, pygame.RESIZABLE)
            self.app.keep_on_display()
            self.app.window_resized()
        if language_changed:
            self.app.set_language(self.language)      # rebuilds this form in the new language
            self.message_label.set_text(_("Saved."))
            self.message = _("Saved.")
        if theme_changed:
            self.app.set_theme(self.theme)
        elif not resized and not language_changed:
            self.relayout()
