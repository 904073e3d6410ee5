"""How to play: a game's HOWTO page, in the interface's language, in a scrolling text box.

The page is ``HOWTO.<language>.md`` when the game has one (``HOWTO.vi.md``), else the
English ``HOWTO.md``.  Xiangqi's piece characters (車, 俥 ...) are drawn with the font
the board uses (``assets/fonts/xiangqi-pieces.otf``): the interface's Noto has no CJK.
"""
from __future__ import annotations

import html
import re

import pygame
from pygame_gui.elements import UITextBox

from games.registry import GamePlugin
from runner import i18n
from runner.i18n import _
from runner.paths import asset
from ui.catalog import game_title
from ui.scene import Scene, is_pressed

#: The pygame_gui font name of the Xiangqi piece font, and its file under ``assets/fonts``.
PIECE_FONT = "xiangqi_pieces"
PIECE_FONT_FILE = "xiangqi-pieces.otf"
#: Characters the interface's Noto lacks (CJK ideographs): drawn with the piece font.
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")


def markdown_to_html(text: str, heading_px: int, body_px: int) -> str:
    """The small Markdown subset the HOWTO files use, as pygame_gui's HTML subset.

    Headings become bold larger lines, ``**bold**`` bold, list items bullets, and a
    paragraph's wrapped lines are joined (the text box wraps to its own width).
    """
    out: list[str] = []
    paragraph: list[str] = []
    in_code = False
    in_item = False                   # the paragraph is a list item (its end is one line break)
    table_rows: list[list[str]] = []  # the rows of the table being read (drawn one a line)

    def flush() -> None:
        nonlocal in_item
        if paragraph:
            # Inline marks are read on the whole paragraph: **bold** may span a line break.
            out.append(inline(" ".join(paragraph)) + ("<br>" if in_item else "<br><br>"))
            paragraph.clear()
        in_item = False

    for raw in text.splitlines():
        line = raw.rstrip()
        if line.strip().startswith("```"):
            flush()
            in_code = not in_code
            continue
        if in_code:
            out.append(inline(line) + "<br>")
            continue
        heading = re.match(r"^(#{1,6})\s+(.*)$", line)
        item = re.match(r"^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$", line)
        if line.lstrip().startswith("|"):
            flush()
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if all(re.fullmatch(r":?-{3,}:?", c) for c in cells if c):
                continue                       # the header's rule
            if not table_rows:
                out.append("<b>" + " · ".join(inline(c) for c in cells) + "</b><br>")
            else:
                rest = " · ".join(inline(c) for c in cells[1:])
                out.append(f"<b>{inline(cells[0])}</b>" + (f" — {rest}" if rest else "") + "<br>")
            table_rows.append(cells)
            continue
        if table_rows:
            table_rows.clear()
            out.append("<br>")                # one blank line after the table
            if not line.strip():
                continue
        if heading:
            flush()
            size = heading_px if len(heading.group(1)) <= 2 else body_px + 2
            out.append(f"<font pixel_size={size}><b>{inline(heading.group(2))}</b></font><br>")
        elif item:
            flush()
            nested = len(item.group(1).expandtabs(4)) >= 2
            paragraph.append(("\u2003\u2003– " if nested else "• ") + item.group(2))
            in_item = True
        elif in_item and line[:1].isspace():          # an item's wrapped continuation line
            paragraph.append(line.strip())
        elif not line.strip():
            flush()
            if out and not out[-1].endswith("<br><br>"):
                out.append("<br>")
        else:
            paragraph.append(line.strip())
    flush()
    return "".join(out)


def localized_howto(plugin: GamePlugin, code: str) -> str | None:
    """The text of the game's ``HOWTO.<code>.md``, or None when it has none."""
    import importlib
    from pathlib import Path

    folder = Path(importlib.import_module(f"games.{plugin.name}").__file__).parent
    path = folder / Path(plugin.howto).with_suffix(f".{code}.md").name
    return path.read_text(encoding="utf-8") if path.is_file() else None


def inline(text: str) -> str:
    text = html.escape(text, quote=False)
    text = CJK.sub(lambda m: f"<font face={PIECE_FONT}>{m.group(0)}</font>", text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    text = re.sub(r"`([^`]+)`", r"<b>\1</b>", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)([^*]+?)(?<!\s)\*(?![\w*])", r"<b>\1</b>", text)
    text = re.sub(r"(?<!\w)_(?!\s)([^_]+?)(?<!\s)_(?!\w)", r"<b>\1</b>", text)
    return text


class HowToScene(Scene):
    """The game's guide (``plugin.howto_text()``), reachable from home and the match screen."""

    def __init__(self, app, plugin: GamePlugin, language: str | None = None):
        """``language`` fixes the page's language (screenshots); by default it follows
        the interface's."""
        super().__init__(app)
        self.plugin = plugin
        self.fixed_language = language
        self.language = ""
        self.text = ""
        self.html = ""

    def read_page(self) -> None:
        """Read the page for the interface's language (again when the language changed)."""
        language = self.fixed_language or i18n.language()
        if language == self.language and self.text:
            return
        self.language = language
        try:
            self.text = self.plugin.howto_text(language)
        except Exception as exc:           # a missing package file is a message, not a crash
            self.text = _("The guide could not be read: {error}").format(error=exc)

    def layout(self) -> None:
        self.read_page()
        self.top_bar(_("How to play {game}").format(game=_(game_title(self.plugin.name))))
        heading, body = self.px(28), self.px(19)
        self.preload_fonts(heading, body)
        self.html = markdown_to_html(self.text, heading, body)
        width = min(1100, self.dw - 48)
        area = self.rect((self.dw - width) / 2, 76, width, self.dh - 76 - 20)
        self.box = UITextBox(self.html, area, self.app.manager, container=self.root)

    def preload_fonts(self, heading: int, body: int) -> None:
        """Load the page's fonts before the text box asks (pygame_gui warns on a late load)."""
        fonts = self.app.manager.get_theme().get_font_dictionary()
        fonts.add_font_path(PIECE_FONT, str(asset("fonts", PIECE_FONT_FILE)))
        default = self.app.manager.get_theme().get_font(["text_box"]).get_point_size()
        sizes = {heading, body + 2, body, default}
        wanted = [("noto", size, True) for size in sizes]
        if CJK.search(self.text):
            wanted += [(PIECE_FONT, size, bold) for size in sizes for bold in (False, True)]
        self.app.manager.preload_fonts([
            {"name": name, "point_size": size, "style": "bold" if bold else "regular"}
            for name, size, bold in wanted
            if not fonts.check_font_preloaded(fonts.create_font_id(size, name, bold=bold, italic=False))])

    def process_event(self, event: pygame.event.Event) -> bool:
        if is_pressed(event, self.back_button):
            self.app.pop()
            return True
        return False
