"""The widgets' look: ``assets/theme.json`` made concrete for one palette and one scale.

``theme.json`` is a pygame_gui theme whose colours are palette names (``"$accent"``)
and whose font paths are relative to ``assets/``.  :func:`gui_theme` replaces the
names with colours derived from a :class:`games.render.Theme` (dark or light),
makes the font paths absolute (Arena may be started from any folder, or frozen), and
multiplies every font size by the ui scale, so the same layout reads well at 720p
and on a 4K projector.
"""
from __future__ import annotations

import copy
import json
from functools import lru_cache

import pygame_gui

from games.render import Theme
from runner.paths import asset

#: The layout is designed for this window; larger windows scale it up.
BASE_SIZE = (1280, 720)


def ui_scale(size: tuple[int, int]) -> float:
    """Scale factor for a window size, in steps of 1/8 (so small resizes keep the fonts)."""
    raw = min(size[0] / BASE_SIZE[0], size[1] / BASE_SIZE[1])
    return max(0.625, min(3.5, round(raw * 8) / 8))


def mix(a: tuple, b: tuple, t: float) -> tuple:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a[:3], b[:3]))


def palette(theme: Theme) -> dict[str, tuple]:
    """Widget colours derived from the board theme, so both always agree."""
    return {
        "bg": theme.background, "panel": theme.panel, "text": theme.text, "muted": theme.muted,
        "accent": theme.accent, "bad": theme.bad, "good": theme.good,
        "raised": mix(theme.panel, theme.text, 0.10),
        "hover": mix(theme.panel, theme.text, 0.22),
        "selected": mix(theme.panel, theme.accent, 0.35),
        "border": mix(theme.panel, theme.text, 0.28),
        "entry": mix(theme.background, theme.text, 0.04),
        "accent_hover": mix(theme.accent, theme.text, 0.3),
        "on_accent": (20, 20, 24),
        # A disabled button lies flat on the window (no raised fill, a faint outline, pale
        # words): in the light theme the panel colour made it brighter than the enabled ones.
        "disabled": theme.background,
        "disabled_border": mix(theme.background, theme.text, 0.14),
        "disabled_text": mix(theme.background, theme.text, 0.42),
    }


def _hex(colour: tuple) -> str:
    return "#" + "".join(f"{v:02x}" for v in colour[:3])


@lru_cache(maxsize=1)
def _template() -> dict:
    return json.loads(asset("theme.json").read_text(encoding="utf-8"))


#: Widget types that take the template's default font (pygame_gui reads only colours from
#: ``defaults``), and those that also take its default shape.
FONT_WIDGETS = ("button", "label", "text_entry_line", "text_entry_box", "drop_down_menu", "text_box",
                "tool_tip", "window", "selection_list", "file_dialog", "check_box", "panel")
SHAPED_WIDGETS = ("button", "drop_down_menu", "text_entry_line", "text_box", "selection_list")


def _spread_defaults(data: dict) -> None:
    """Give each widget type the default font (and shape) unless its block sets one."""
    defaults = data.get("defaults", {})
    font_block, misc = defaults.pop("font", None), defaults.pop("misc", None)
    for name in FONT_WIDGETS:
        block = data.setdefault(name, {})
        if font_block and "font" not in block:
            block["font"] = dict(font_block)
        if misc and name in SHAPED_WIDGETS:
            block["misc"] = {**misc, **block.get("misc", {})}


def gui_theme(theme: Theme, scale: float) -> dict:
    """The pygame_gui theme dictionary for ``theme`` at ``scale``."""
    colours = {f"${k}": _hex(v) for k, v in palette(theme).items()}
    data = copy.deepcopy(_template())
    _spread_defaults(data)
    for block in data.values():
        for key, value in block.get("colours", {}).items():
            if isinstance(value, str) and value.startswith("$"):
                block["colours"][key] = colours[value]
        font = block.get("font")
        if font:
            font["size"] = str(max(8, round(int(font.get("size", "18")) * scale)))
            for key in ("regular_path", "bold_path"):
                if key in font:
                    font[key] = str(asset(*font[key].split("/")))
        misc = block.get("misc", {})
        for key in ("shape_corner_radius", "text_horiz_alignment_padding", "open_button_width",
                    "sliding_button_width", "list_item_height", "title_bar_height"):
            if key in misc:
                misc[key] = str(max(0, round(int(misc[key]) * scale)))
    return data


#: Design width a tooltip wraps at (longer texts take several lines, whole words only).
TOOLTIP_MAX_W = 380
TOOLTIP_FONT = 16
TOOLTIP_PAD = 40            # the text box's padding each side, and its border, in design units


def tooltip_width(text: str, scale: float, face=None) -> int:
    """The pixels a tooltip needs: its text on one line when that fits, else the wrap width.
    ``face`` measures the text (the tooltip's own font; default: Noto at the tooltip size)."""
    if face is None:
        from games.render import font
        face = font(max(8, round(TOOLTIP_FONT * scale)))
    widest = max((face.size(line)[0] for line in text.splitlines() or [""]), default=0)
    # pygame_gui lays the words out a chunk at a time, a few pixels wider than the line
    # measured whole (Vietnamese letters with two marks most): without room to spare the
    # last word went to a second line the tooltip had no height for ("(Page Down" lost ")").
    spare = face.size("  ")[0]
    return min(round(TOOLTIP_MAX_W * scale), widest + round(TOOLTIP_PAD * scale) + spare)


class ArenaUIManager(pygame_gui.UIManager):
    """pygame_gui's manager with tooltips sized to their text (the theme's fixed 170 px
    split words into syllables at 4K and pushed tall tooltips off-screen to the corner)."""

    def __init__(self, size, theme: dict, scale: float, **kwargs):
        super().__init__(size, theme, **kwargs)
        self.scale = scale

    def create_tool_tip(self, text, position, hover_distance, parent_element, object_id, *,
                        wrap_width=None, text_kwargs=None):
        if wrap_width is None:
            wrap_width = tooltip_width(text, self.scale, self._tooltip_font())
        return super().create_tool_tip(text, position, hover_distance, parent_element, object_id,
                                       wrap_width=wrap_width, text_kwargs=text_kwargs)

    def _tooltip_font(self):
        try:
            return self.get_theme().get_font(["tool_tip.text_box", "text_box"])
        except Exception:          # measured with the shipped Noto instead
            return None
