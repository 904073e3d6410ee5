"""Home: the five games with a picture each, the main actions and the recent records.

A game whose package fails to load keeps its tile, veiled, with the error in short."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pygame
import pygame_gui

from games.render import font, luminance, mix, wrap
from ui.catalog import GameEntry, game_entries
from runner.i18n import _
from runner.paths import app_root
from ui.recent import summarize
from ui.scene import Scene

TILE_TOP, TILE_H, PICTURE_H = 92, 392, 176


@lru_cache(maxsize=16)
def _picture(path: str, size: tuple[int, int]) -> pygame.Surface | None:
    """The game's picture scaled to cover ``size`` (cropped to it), or None if unreadable."""
    try:
        image = pygame.image.load(path)
    except (pygame.error, OSError):
        return None
    scale = max(size[0] / image.get_width(), size[1] / image.get_height())
    image = pygame.transform.smoothscale(
        image, (max(1, round(image.get_width() * scale)), max(1, round(image.get_height() * scale))))
    crop = pygame.Rect(0, 0, *size)
    crop.center = image.get_rect().center
    return image.subsurface(crop).copy()


def wrap_anywhere(face: pygame.font.Font, text: str, width: int, max_lines: int) -> list[str]:
    """:func:`wrap`, with a word wider than ``width`` (a path, a dotted name) cut to fit."""
    words = []
    for word in text.split():
        while face.size(word)[0] > width and len(word) > 1:
            cut = max(1, next((n for n in range(len(word), 0, -1) if face.size(word[:n])[0] <= width), 1))
            words.append(word[:cut])
            word = word[cut:]
        words.append(word)
    return wrap(face, " ".join(words), width, max_lines)


class HomeScene(Scene):
    """The first screen: pick a game, open a replay, change settings."""

    title = "Arena"

    def __init__(self, app):
        super().__init__(app)
        self.entries: list[GameEntry] = game_entries()
        self.play_buttons: dict = {}
        self.howto_buttons: dict = {}
        self.recent_buttons: dict = {}
        self.recent_first = 0          # the first recent record on show (the list scrolls)
        self.showing_samples = False   # the samples asked for while there are recent records
        self.switch_button = None
        self.message = ""

    # ------------------------------------------------------------ layout
    def tile_rects(self) -> list[pygame.Rect]:
        count = len(self.entries)
        gap, margin = 16, 24
        width = (self.dw - 2 * margin - gap * (count - 1)) / count
        return [self.rect(margin + i * (width + gap), TILE_TOP, width, TILE_H) for i in range(count)]

    def layout(self) -> None:
        self.label(self.rect(24, 10, 300, 56), _("Arena"), cls="@title")
        right = self.dw - 24
        self.new_button = self.button(self.rect(right - 610, 16, 180, 46), _("New match"), cls="@accent")
        self.open_button = self.button(self.rect(right - 422, 16, 168, 46), _("Open replay"))
        self.settings_button = self.button(self.rect(right - 246, 16, 128, 46), _("Settings"))
        self.quit_button = self.button(self.rect(right - 110, 16, 110, 46), _("Quit"),
                                       tooltip=_("leave Arena (Ctrl+Q)"))
        self.play_buttons, self.howto_buttons, self.recent_buttons = {}, {}, {}
        gap, margin = 16, 24
        width = (self.dw - 2 * margin - gap * (len(self.entries) - 1)) / len(self.entries)
        for index, entry in enumerate(self.entries):
            x = margin + index * (width + gap)
            if not entry.available:
                continue
            inner = width - 24
            self.play_buttons[self.button(self.rect(x + 12, TILE_TOP + TILE_H - 56, inner * 0.42, 44),
                                          _("Play"), cls="@accent")] = entry
            self.howto_buttons[self.button(
                self.rect(x + 12 + inner * 0.42 + 8, TILE_TOP + TILE_H - 56, inner * 0.58 - 8, 44),
                _("How to play"))] = entry
        records, samples = self.records()
        heading = _("Sample records: open one to watch a replay") if samples else _("Recent records")
        self.label(self.rect(24, 500, 600, 34), heading, cls="@heading")
        self.switch_button = None
        if self.has_recent():                  # the samples stay one click away after a match
            heading_width = font(self.px(22), bold=True).size(heading)[0] / self.app.scale
            self.switch_button = self.button(
                self.rect(min(24 + heading_width + 24, 660), 500, 220, 34),
                _("Show recent records") if samples else _("Show sample records"))
        rows = self.recent_rows()
        self.recent_first = max(0, min(self.recent_first, len(records) - rows))
        for index, path in enumerate(records[self.recent_first:self.recent_first + rows]):
            line = summarize(path)
            prefix = _("Sample: ") if samples else ""
            rect = self.rect(24, 540 + index * 42, self.dw - 48, 38)
            button = self.button(rect, prefix + line.text(), cls="@link", tooltip=f"{line.text()}\n{path}")
            room = rect.width - 2 * self.px(12)          # the row's text padding and border
            button.set_text(line.fitted(lambda text: button.font.size(text)[0] <= room, prefix))
            self.recent_buttons[button] = path

    def recent_rows(self) -> int:
        return max(1, int((self.dh - 540 - 12) // 42))

    def has_recent(self) -> bool:
        return any(Path(p).exists() for p in self.app.settings.recent_records)

    def records(self) -> tuple[list[str], bool]:
        """(paths, whether they are the shipped samples): the recent records, or the
        sample records in ``replays/`` for a first-time user or when asked for."""
        recent = [p for p in self.app.settings.recent_records if Path(p).exists()]
        if recent and not self.showing_samples:
            return recent, False
        return [str(p) for p in sample_records()], True

    # ------------------------------------------------------------ events
    def process_event(self, event: pygame.event.Event) -> bool:
        from ui.scenes.howto import HowToScene
        from ui.scenes.new_match import NewMatchScene
        from ui.scenes.replay import ReplayScene
        from ui.scenes.settings import SettingsScene

        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            return self._click_tile(event.pos)
        if event.type == pygame.MOUSEWHEEL and pygame.mouse.get_pos()[1] >= self.px(500):
            return self.scroll_recent(-event.y)
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):
            return self.scroll_recent(self.recent_rows() * (1 if event.key == pygame.K_PAGEDOWN else -1))
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return False
        element = event.ui_element
        if element is self.new_button:
            self.app.push(NewMatchScene(self.app))
        elif element is self.open_button:
            self.app.push(ReplayScene(self.app, path=None))
        elif element is self.settings_button:
            self.app.push(SettingsScene(self.app))
        elif element is self.quit_button:
            self.app.quit()
        elif element in self.play_buttons:
            self.app.push(NewMatchScene(self.app, game=self.play_buttons[element].name))
        elif element in self.howto_buttons:
            self.app.push_slow(HowToScene(self.app, self.howto_buttons[element].plugin),
                               _("Opening How to play…"))
        elif element in self.recent_buttons:
            self.app.open_replay(self.recent_buttons[element])
        elif element is self.switch_button:
            self.showing_samples = not self.records()[1]
            self.recent_first = 0
            self.relayout()
        else:
            return False
        return True

    def scroll_recent(self, rows: int) -> bool:
        """Move the recent list by ``rows`` (the wheel, Page Up/Down); True when it moved."""
        records, _samples = self.records()
        first = max(0, min(self.recent_first + rows, len(records) - self.recent_rows()))
        if first == self.recent_first:
            return False
        self.recent_first = first
        self.relayout()
        return True

    def _click_tile(self, pos) -> bool:
        from ui.scenes.new_match import NewMatchScene
        for entry, rect in zip(self.entries, self.tile_rects()):
            picture = pygame.Rect(rect.x, rect.y, rect.width, self.px(PICTURE_H))
            if picture.collidepoint(pos) and entry.available:
                self.app.push(NewMatchScene(self.app, game=entry.name))
                return True
        return False

    # ------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        surface.fill(theme.background)
        self.draw_text(surface, _("Play, referee and replay programming-contest games"),
                       (self.px(150), self.px(30)), 17, theme.muted)
        for index, (entry, rect) in enumerate(zip(self.entries, self.tile_rects())):
            self._draw_tile(surface, entry, rect, index)
        records, _samples = self.records()
        if not records:
            self.draw_text(surface, _("No records yet: play a match, or open a replay (or drop a file here)."),
                           (self.px(24), self.px(546)), 17, theme.muted)
        elif len(records) > self.recent_rows():
            last = min(len(records), self.recent_first + self.recent_rows())
            self.draw_text(surface, _("{first}–{last} of {count} · scroll for more").format(
                first=self.recent_first + 1, last=last, count=len(records)),
                           (self.px(self.dw - 24), self.px(508)), 15, theme.muted, align="right")

    def _draw_tile(self, surface: pygame.Surface, entry: GameEntry, rect: pygame.Rect, index: int) -> None:
        theme = self.app.theme
        radius = self.px(10)
        pygame.draw.rect(surface, theme.panel, rect, border_radius=radius)
        picture_rect = pygame.Rect(rect.x, rect.y, rect.width, self.px(PICTURE_H))
        path = entry.picture_path(theme.name)
        image = _picture(str(path), picture_rect.size) if path else None
        if image is not None:
            surface.blit(image, picture_rect)
        else:
            self._draw_placeholder(surface, entry, picture_rect, index)
        if not entry.available:
            veil = pygame.Surface(picture_rect.size, pygame.SRCALPHA)
            veil.fill((*theme.background, 140))
            surface.blit(veil, picture_rect)
        pad = self.px(14)
        title_face = font(self.px(21), bold=True)
        y = picture_rect.bottom + self.px(10)
        for line in wrap(title_face, _(entry.title), rect.width - 2 * pad, 2):
            surface.blit(title_face.render(line, True, theme.text), (rect.x + pad, y))
            y += title_face.get_linesize()
        body = font(self.px(15))
        if entry.available:
            for line in wrap(body, _(entry.summary), rect.width - 2 * pad, 4):
                surface.blit(body.render(line, True, theme.muted), (rect.x + pad, y + self.px(4)))
                y += body.get_linesize()
        elif entry.broken:
            self._draw_error(surface, entry.error, rect, y + self.px(6))
        else:
            soon = font(self.px(17), bold=True).render(_("coming soon"), True, theme.muted)
            surface.blit(soon, soon.get_rect(midbottom=(rect.centerx, rect.bottom - self.px(22))))

    def _draw_error(self, surface: pygame.Surface, error: str, rect: pygame.Rect, y: int) -> None:
        """'Cannot load' and the error, wrapped to the tile (long names broken anywhere)."""
        theme = self.app.theme
        pad = self.px(14)
        width = rect.width - 2 * pad
        heading = font(self.px(17), bold=True)
        surface.blit(heading.render(_("Cannot load"), True, theme.bad), (rect.x + pad, y))
        y += heading.get_linesize() + self.px(4)
        body = font(self.px(14))
        room = max(1, (rect.bottom - pad - y) // body.get_linesize())
        for line in wrap_anywhere(body, error, width, room):
            surface.blit(body.render(line, True, theme.muted), (rect.x + pad, y))
            y += body.get_linesize()

    def _draw_placeholder(self, surface: pygame.Surface, entry: GameEntry, rect: pygame.Rect,
                          index: int) -> None:
        """A tidy stand-in picture: the game's colour, a lattice of discs, its title."""
        theme = self.app.theme
        colour = theme.seats[index % len(theme.seats)]
        clip = surface.get_clip()
        surface.set_clip(rect)
        fill = mix(theme.panel, colour, 0.45 if theme.name == "dark" else 0.85)
        pygame.draw.rect(surface, fill, rect,
                         border_top_left_radius=self.px(10), border_top_right_radius=self.px(10))
        step = self.px(28)
        dot = mix(fill, (255, 255, 255) if luminance(fill) < 0.45 else (0, 0, 0), 0.12)
        for row, y in enumerate(range(rect.y + step // 2, rect.bottom + step, step)):
            offset = step // 2 if row % 2 else 0
            for x in range(rect.x + offset, rect.right + step, step):
                pygame.draw.circle(surface, dot, (x, y), self.px(5))
        surface.set_clip(clip)
        face = font(self.px(26), bold=True)
        lines = wrap(face, _(entry.title), rect.width - self.px(24), 2)
        height = len(lines) * face.get_linesize()
        y = rect.centery - height // 2
        for line in lines:
            light_text = luminance(fill) < 0.6
            image = face.render(line, True, (250, 250, 250) if light_text else (20, 20, 24))
            shadow = face.render(line, True, (20, 20, 20) if light_text else (250, 250, 250))
            place = image.get_rect(midtop=(rect.centerx, y))
            surface.blit(shadow, place.move(self.px(2), self.px(2)))
            surface.blit(image, place)
            y += face.get_linesize()


def sample_records() -> list[Path]:
    """The sample records shipped in ``replays/``, one per built game where there is one."""
    folder = app_root() / "replays"
    return sorted(folder.glob("*-sample.arena.jsonl")) if folder.is_dir() else []
