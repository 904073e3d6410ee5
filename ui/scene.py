"""A scene is one screen of the shell, living on the app's scene stack.

Life cycle (after Tuxemon's ``state.py``): ``enter`` when pushed, ``pause`` when
another scene covers it, ``resume`` when it is on top again, ``exit`` when popped.
Each frame the app offers it events (``process_event`` returns whether it used the
event), calls ``update`` (which returns whether anything visible changed) and, only
when something changed, ``draw``, which must not change any state.

Widgets (pygame_gui) live in one root container per scene, built by :meth:`layout`
for the current window size and scale, and killed when the scene is paused or the
window is resized; the scene's own state lives in plain attributes, never in widgets.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import pygame
import pygame_gui
from pygame_gui.core import ObjectID, UIContainer
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UITextEntryLine

from games.render import elide, font
from runner.i18n import _

if TYPE_CHECKING:
    from ui.app import App


class Scene:
    """Base of every screen; subclasses override :meth:`layout` and the event hooks."""

    title = ""

    def __init__(self, app: "App"):
        self.app = app
        self.root: UIContainer | None = None

    # ------------------------------------------------------------ life cycle
    def enter(self) -> None:
        """Pushed on the stack: build the widgets."""
        self.build()

    def pause(self) -> None:
        """Another scene covers this one."""
        self.teardown()

    def resume(self) -> None:
        """On top again (also after a resize or a theme change)."""
        self.build()

    def exit(self) -> None:
        """Popped: release widgets and anything running."""
        self.teardown()

    def build(self) -> None:
        self.root = UIContainer(pygame.Rect((0, 0), self.app.size), self.app.manager)
        self.layout()

    def teardown(self) -> None:
        if self.root is not None:
            self.root.kill()
            self.root = None

    def relayout(self) -> None:
        self.teardown()
        self.build()

    # ------------------------------------------------------------ frame hooks
    def layout(self) -> None:
        """Create the widgets for ``self.app.size`` (in ``self.root``)."""

    def process_event(self, event: pygame.event.Event) -> bool:
        """React to one event; True when it was used (the app then ignores it)."""
        return False

    def update(self, dt: float) -> bool | list[pygame.Rect]:
        """Advance time-driven state: True when the screen must be redrawn, or a list of
        the only rectangles that changed (painted by :meth:`draw_region`)."""
        return False

    def draw_region(self, surface: pygame.Surface, rect: pygame.Rect) -> bool:
        """Repaint just ``rect`` if this scene can (no widget may lie there); False: it cannot.

        Must not change any state.
        """
        return False

    def wake_interval(self) -> float | None:
        """Seconds until this scene needs ``update`` again without input (None: only on input)."""
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the background and the scene's own drawings (widgets come after).

        Must not change any state.
        """
        surface.fill(self.app.theme.background)

    # ------------------------------------------------------------ helpers
    def px(self, value: float) -> int:
        return self.app.px(value)

    @property
    def dw(self) -> float:
        """Window width in design units (1280 at the base scale; more on wide windows)."""
        return self.app.size[0] / self.app.scale

    @property
    def dh(self) -> float:
        """Window height in design units."""
        return self.app.size[1] / self.app.scale

    def rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        """A rectangle in design units (1280x720 layout), scaled to the window."""
        return pygame.Rect(self.px(x), self.px(y), self.px(w), self.px(h))

    def button(self, rect: pygame.Rect, text: str, tooltip: str | None = None,
               cls: str | None = None, enabled: bool = True) -> UIButton:
        button = UIButton(rect, text, self.app.manager, container=self.root,
                          tool_tip_text=tooltip, object_id=ObjectID(class_id=cls) if cls else None)
        if not enabled:
            button.disable()
        return button

    def label(self, rect: pygame.Rect, text: str, cls: str | None = None) -> UILabel:
        return UILabel(rect, text, self.app.manager, container=self.root,
                       object_id=ObjectID(class_id=cls) if cls else None)

    def entry(self, rect: pygame.Rect, text: str = "", placeholder: str = "") -> UITextEntryLine:
        kind = HintedEntry if placeholder else UITextEntryLine
        line = kind(rect, self.app.manager, container=self.root,
                    placeholder_text=placeholder or None, initial_text=text or None)
        return line

    def dropdown(self, rect: pygame.Rect, options: Sequence[str], current: str) -> UIDropDownMenu:
        options = list(options) or ["-"]
        if current not in options:
            current = options[0]
        limit, direction = self.menu_room(rect, len(options))
        menu = UIDropDownMenu(options, current, rect, self.app.manager, container=self.root,
                              expansion_height_limit=limit)
        if direction == "up":
            menu.expand_direction = direction
            for state in menu.menu_states.values():
                state.expand_direction = direction
            menu.current_state.finish()          # the closed state's arrow now points up
            menu.current_state.start()
        return menu

    def menu_room(self, rect: pygame.Rect, count: int) -> tuple[int, str]:
        """(list height limit, "up" or "down"): a menu opens where its list fits in the
        window, downwards unless there is more room above (the replay's speed menu)."""
        try:
            item = int(self.app.manager.get_theme().get_misc_data("list_item_height", ["drop_down_menu"]))
        except (LookupError, TypeError, ValueError, AttributeError):
            item = self.px(20)
        wanted = min(self.px(320), count * item + self.px(8))
        below = self.app.size[1] - rect.bottom - self.px(4)
        above = rect.top - self.px(4)
        if wanted > below and above > below:
            return max(item, min(self.px(320), above)), "up"
        return max(item, min(self.px(320), below)), "down"

    def top_bar(self, title: str, back: bool = True, right: float | None = None) -> UIButton | None:
        """The standard header: Back on the left, then the screen's title (up to ``right``)."""
        self.back_button = self.button(self.rect(16, 12, 110, 44), _("Back")) if back else None
        left = 142 if back else 24
        width = 900 if right is None else max(120, right - left)
        self.title_label = self.label(self.rect(left, 8, width, 52), title, cls="@title")
        return self.back_button

    def draw_text(self, surface: pygame.Surface, text: str, pos: tuple[int, int], size: float,
                  colour: tuple, bold: bool = False, mono: bool = False, max_width: int | None = None,
                  align: str = "left") -> pygame.Rect:
        """Blit one line at design ``size`` (scaled), clipped with an ellipsis to ``max_width``."""
        face = font(self.px(size), bold=bold, mono=mono)
        if max_width is not None and face.size(text)[0] > max_width:
            text = elide(face, text, max_width)
        image = face.render(text, True, colour)
        rect = image.get_rect()
        if align == "right":
            rect.topright = pos
        elif align == "center":
            rect.midtop = pos
        else:
            rect.topleft = pos
        surface.blit(image, rect)
        return rect




class HintedEntry(UITextEntryLine):
    """A text line whose placeholder (a hint such as a default name) is drawn in the
    theme's faint disabled-text colour, so it does not look like typed text: while the
    line is empty and not focused it wears the ``@hint`` class."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.showing_hint = False
        self.restyle()

    def restyle(self) -> None:
        hint = not self.get_text() and not self.is_focused
        if hint != self.showing_hint:
            self.showing_hint = hint
            self.change_object_id(ObjectID(class_id="@hint") if hint else None)
            if self.is_focused:        # the rebuild laid the hint out again: clear it, as a focus does
                super().focus()

    def update(self, time_delta: float) -> None:
        super().update(time_delta)
        self.restyle()


def is_pressed(event: pygame.event.Event, widget) -> bool:
    """True when ``event`` is a click on ``widget`` (a pygame_gui button)."""
    return (event.type == pygame_gui.UI_BUTTON_PRESSED and widget is not None
            and event.ui_element is widget)


