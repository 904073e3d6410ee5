"""Finding a game's board renderer, with a plain stand-in while a game has none.

A renderer is imported through ``plugin.load("renderer")`` only when a board is shown.
When the import fails (the game's ``render.py`` is not written yet) the shell still
works: :class:`PlaceholderRenderer` draws the position's text and the person types
moves.  A renderer that raises while drawing is reported on the board, never a crash.
"""
from __future__ import annotations

import traceback

import pygame

from games.api import ArenaError
from games.registry import GamePlugin
from games.render import BoardRenderer, BoardView, DARK, Theme, elide, font
from runner.i18n import _


class PlaceholderRenderer(BoardRenderer):
    """Draws the game's title, the status line and the state's text form."""

    def draw(self, surface, rect, state, view) -> None:
        theme = self.theme
        pygame.draw.rect(surface, theme.panel, rect, border_radius=8)
        pygame.draw.rect(surface, theme.muted, rect, width=2, border_radius=8)
        size = max(12, rect.height // 22)
        title = font(size * 2, bold=True).render(self.game.spec.title, True, theme.text)
        surface.blit(title, title.get_rect(midtop=(rect.centerx, rect.top + size)))
        note = font(size).render(_("board drawing coming soon; a person types moves at the right"), True, theme.muted)
        surface.blit(note, note.get_rect(midtop=(rect.centerx, rect.top + size * 4)))
        mono = font(size, mono=True)
        lines = state_lines(self.game, state)
        y = rect.top + size * 6
        for line in lines:
            if y + mono.get_linesize() > rect.bottom - size:
                break
            image = mono.render(elide(mono, line, rect.width - 2 * size), True, theme.text)
            surface.blit(image, image.get_rect(midtop=(rect.centerx, y)))
            y += mono.get_linesize()


def state_lines(game, state) -> list[str]:
    """The position as text: the state's ``board_text()``, else its status line."""
    text = state.board_text()
    if text:
        return text.replace("/", "\n").splitlines()
    try:
        return [game.describe(state)]
    except Exception:
        return []


def make_renderer(plugin: GamePlugin, game, options, seat_names: list[str],
                  theme: Theme = DARK) -> BoardRenderer:
    """The game's own renderer if it can be imported, else the placeholder."""
    try:
        cls = plugin.load("renderer")
    except (ImportError, AttributeError, ArenaError):
        return PlaceholderRenderer(game, options, seat_names, theme)
    try:
        return cls(game, options, seat_names, theme)
    except Exception:              # a renderer that cannot start still leaves a usable shell
        traceback.print_exc()
        return PlaceholderRenderer(game, options, seat_names, theme)


def fit_rect(area: pygame.Rect, aspect: float | None = None) -> pygame.Rect:
    """The largest rectangle of ``aspect`` (width/height) centred in ``area``."""
    if not aspect:
        return area.copy()
    width = min(area.width, round(area.height * aspect))
    height = min(area.height, round(width / aspect))
    rect = pygame.Rect(0, 0, width, height)
    rect.center = area.center
    return rect


def safe_draw(renderer: BoardRenderer, surface: pygame.Surface, rect: pygame.Rect, state,
              view: BoardView) -> str:
    """Draw the board; on a renderer bug, draw the error instead and return its text."""
    clip = surface.get_clip()
    surface.set_clip(rect)
    try:
        renderer.draw(surface, rect, state, view)
        return ""
    except Exception as exc:       # a renderer bug must not close the arena
        message = _("board drawing failed: {error}").format(error=f"{type(exc).__name__}: {exc}")
        traceback.print_exc()
        pygame.draw.rect(surface, renderer.theme.panel, rect)
        image = font(max(12, rect.height // 30)).render(message, True, renderer.theme.bad)
        surface.blit(image, image.get_rect(center=rect.center))
        return message
    finally:
        surface.set_clip(clip)


def safe_handle(renderer: BoardRenderer, event, state, view: BoardView) -> str | None:
    try:
        return renderer.handle_event(event, state, view)
    except Exception:
        traceback.print_exc()
        return None
