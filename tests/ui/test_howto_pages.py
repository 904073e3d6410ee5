"""How to play in both languages: every game has an English and a Vietnamese page of the
same shape, the screen shows the one for the interface's language, and Xiangqi's piece
characters are drawn with a font that has them."""
import re

import pygame
import pytest

from games import registry
from runner import i18n
from ui_helpers import click

GAMES = ("hex", "xiangqi", "robot", "tamquan", "crosswords")
PIECES = "車俥馬傌象相士仕將帥砲炮卒兵"


def shape(text: str) -> dict:
    """What two translations of one page must share: headings (level by level), bold
    paragraph leads, list items, table rows, and every command (`arena ...`, `--option`)."""
    lines = text.splitlines()
    return {
        "headings": [len(m.group(1)) for m in (re.match(r"^(#+)\s", x) for x in lines) if m],
        "leads": sum(1 for x in lines if x.startswith("**")),
        "items": [len(x) - len(x.lstrip()) for x in lines if re.match(r"^\s*[-*+]\s", x)],
        "table_rows": sum(1 for x in lines if x.lstrip().startswith("|")),
        "commands": sorted(c for c in re.findall(r"`([^`]+)`", text)
                           if c.startswith(("arena", "--", "ext:", "gtp:"))),
    }


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_an_english_and_a_vietnamese_page_of_the_same_shape(game):
    plugin = registry.plugin(game)
    english, vietnamese = plugin.howto_path("en"), plugin.howto_path("vi")
    assert english.name == "HOWTO.md" and vietnamese.name == "HOWTO.vi.md"
    assert english.is_file() and vietnamese.is_file()
    en, vi = english.read_text(encoding="utf-8"), vietnamese.read_text(encoding="utf-8")
    assert shape(en) == shape(vi)
    assert shape(en)["headings"] and shape(en)["headings"][0] == 1
    assert "python main.py" not in en + vi
    assert "cách chơi" in vi.splitlines()[0].lower()       # really Vietnamese, not a copy
    assert plugin.howto_path("xx") == english                # a language without a page: English


def test_the_vietnamese_xiangqi_page_names_the_pieces_as_players_say_them():
    text = registry.plugin("xiangqi").howto_text("vi")
    for name, characters in (("Xe", "車 / 俥"), ("Mã", "馬 / 傌"), ("Tượng", "象 / 相"),
                             ("Sĩ", "士 / 仕"), ("Tướng", "將 / 帥"), ("Pháo", "砲 / 炮"),
                             ("Tốt", "卒 / 兵")):
        assert re.search(rf"^\| {name} \(\w\) {characters} \|", text, re.M), name


def open_howto(home, game):
    button = next(b for b, e in home.scene.howto_buttons.items() if e.name == game)
    click(home, button)
    page = home.scene
    assert type(page).__name__ == "HowToScene"
    return page


def test_how_to_play_shows_the_page_of_the_interface_s_language(home, monkeypatch):
    page = open_howto(home, "robot")
    assert page.language == "en" and "Two to four robots" in page.box.html_text
    click(home, page.back_button)
    monkeypatch.setattr(i18n, "language", lambda: "vi")
    page = open_howto(home, "robot")
    assert page.language == "vi"
    assert "Hai đến bốn robot" in page.box.html_text and "Two to four robots" not in page.box.html_text
    assert "<b>Shift + mũi tên</b>" in page.box.html_text


def glyph_is_tofu(font, character: str) -> bool:
    """True when ``font`` draws ``character`` as its missing-glyph box (a private-use
    character no font here has is drawn the same way)."""
    def pixels(text):
        image = font.render_premul(text, pygame.Color("white"))
        return pygame.image.tobytes(image, "RGBA"), image.get_size()
    return pixels(character) == pixels("\ue000")


@pytest.mark.parametrize("language", ["en", "vi"])
def test_the_xiangqi_page_shows_the_piece_characters_in_a_font_that_has_them(home, monkeypatch, language):
    monkeypatch.setattr(i18n, "language", lambda: language)
    page = open_howto(home, "xiangqi")
    chunks = [item for row in page.box.text_box_layout.layout_rows for item in row.items
              if getattr(item, "text", "")]
    shown = "".join(chunk.text for chunk in chunks)
    assert set(PIECES) <= set(shown), set(PIECES) - set(shown)
    for chunk in chunks:
        for character in set(chunk.text) & set(PIECES):
            assert not glyph_is_tofu(chunk.font, character), (character, chunk.text)


def test_the_interface_font_alone_would_draw_the_pieces_as_tofu(home):
    """The check above can fail: Noto (the interface's font) has no CJK glyphs."""
    font = home.manager.get_theme().get_font(["text_box"])
    assert glyph_is_tofu(font, "車") and not glyph_is_tofu(font, "A")
