"""Text that does not fit its widget: a helper for the headless ui tests.

:func:`clipped_widgets` walks every label and button the ui manager holds (the
drop-down menus' buttons included) and measures its text with the widget's own font
against the room inside its border and shadow, so a longer translation that
pygame_gui would cut or squeeze is reported by name."""
from __future__ import annotations

from pygame_gui.elements import UIButton, UILabel


def _edge(value) -> int:
    """A border or shadow width: an int, or pygame_gui's per-side dict (left + right)."""
    if isinstance(value, dict):
        return int(value.get("left", 0)) + int(value.get("right", 0))
    return 2 * int(value or 0)


def text_room(element) -> int:
    """Pixels across that ``element``'s text may take: inside its border and shadow (the
    alignment padding may shrink, as pygame_gui lets it, without cutting a letter)."""
    return (element.rect.width - _edge(getattr(element, "border_width", 0))
            - _edge(getattr(element, "shadow_width", 0)))


def clipped_widgets(manager) -> list[str]:
    """``"kind 'text': needs N px, has M"`` for each visible label or button whose words
    are wider than its room (arrow glyphs such as a scroll bar's are not words)."""
    problems = []
    for element in manager.get_sprite_group().sprites():
        if not isinstance(element, (UILabel, UIButton)) or not element.visible or not element.alive():
            continue
        text = element.text or ""
        if not any(ch.isalpha() for ch in text) or element.font is None or getattr(element, "dynamic_width", False):
            continue                 # a label that grows to its text (a check box's) is never cut
        needed = element.font.size(text)[0]
        room = text_room(element)
        if needed > room:
            problems.append(f"{type(element).__name__} {text!r}: needs {needed} px, has {room}")
    return problems
