"""The bot-annotation layer: what programs drew (:mod:`games.annotations`), over any board.

:func:`draw_annotations` draws the commands of one turn, seat by seat, over a board a
renderer has just drawn.  It places cells through the renderer's
:meth:`~games.render.BoardRenderer.annotation_spot` (a cell's pixel centre and half its
size, from the last draw), so it works for every game whose renderer says where its cells
are, and sizes everything from that half size (legible at 1280×720 and at 4K).

Legibility on both themes and any board colour: lines and rings get a halo in the
contrasting ink, labels and numbers sit on small opaque tags in the theme's panel
colour, and texts go in a panel box in the board's top-left corner.
"""
from __future__ import annotations

from typing import Iterable, Mapping

import pygame

from games.render.text import elide
from games.render.theme import Theme, contrast_text, font, mix

COLD, HOT = (40, 110, 230), (230, 50, 40)
#: Lines of text shown at most in the corner box (all seats together).
MAX_TEXT_LINES = 8


def hex_colour(text: str, default: tuple) -> tuple:
    """``"#rrggbb"`` as an RGB tuple; ``default`` for ``""`` (the seat's colour)."""
    if not text:
        return tuple(default[:3])
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


def _halo(colour: tuple) -> tuple:
    """The ink that sets ``colour`` off: near-black round light colours, white round dark."""
    return contrast_text(colour)


def draw_annotations(surface: pygame.Surface, renderer, rect: pygame.Rect,
                     by_seat: Mapping[int, Iterable[list]], theme: Theme) -> int:
    """Draw each seat's commands (JSON lists, already type-checked) over the board in
    ``rect``; return how many were drawn (commands naming cells the board does not have
    are skipped)."""
    drawn = 0
    seats = sorted(by_seat)
    commands = {seat: list(by_seat[seat]) for seat in seats}
    clip = surface.get_clip()
    surface.set_clip(rect)
    try:
        for seat in seats:
            drawn += _draw_heat(surface, renderer, [c for c in commands[seat] if c[0] == "heat"], theme)
        for seat in seats:
            ink = renderer.seat_colour(seat)
            for command in commands[seat]:
                if command[0] in ("line", "arrow"):
                    drawn += _draw_link(surface, renderer, command, hex_colour(command[3], ink))
        for seat in seats:
            ink = renderer.seat_colour(seat)
            for command in commands[seat]:
                if command[0] == "mark":
                    drawn += _draw_mark(surface, renderer, command, hex_colour(command[2], ink), theme)
        texts = [(hex_colour(c[1], renderer.seat_colour(seat)), c[2])
                 for seat in seats for c in commands[seat] if c[0] == "text"]
        drawn += _draw_texts(surface, rect, texts, theme)
    finally:
        surface.set_clip(clip)
    return drawn


def _spot(renderer, cell) -> tuple[float, float, float] | None:
    try:
        return renderer.annotation_spot(tuple(cell))
    except Exception:                   # a renderer's bug must not hide the board
        return None


def _tag(surface: pygame.Surface, text: str, size: int, centre: tuple[float, float], theme: Theme,
         edge: tuple | None = None) -> None:
    """``text`` on a small opaque rounded tag (theme panel), readable on any board."""
    face = font(size, bold=True)
    image = face.render(text, True, theme.text)
    pad = max(2, size // 5)
    box = image.get_rect(center=(round(centre[0]), round(centre[1]))).inflate(2 * pad, pad)
    pygame.draw.rect(surface, theme.panel, box, border_radius=max(2, size // 3))
    if edge is not None:
        pygame.draw.rect(surface, edge, box, max(1, size // 10), border_radius=max(2, size // 3))
    surface.blit(image, image.get_rect(center=box.center))


def _draw_heat(surface, renderer, commands: list[list], theme: Theme) -> int:
    """Each cell tinted from cold (lowest value of the seat's turn) to hot (highest),
    its number on a tag."""
    spots = [(s, c[2]) for c in commands if (s := _spot(renderer, c[1])) is not None]
    if not spots:
        return 0
    values = [v for _, v in spots]
    low, high = min(values), max(values)
    for (x, y, half), value in spots:
        share = 0.5 if high == low else (value - low) / (high - low)
        side = max(2, int(half * 1.8))
        tint = pygame.Surface((side, side), pygame.SRCALPHA)
        tint.fill((*mix(COLD, HOT, share), 120))
        surface.blit(tint, tint.get_rect(center=(round(x), round(y))))
        _tag(surface, _number_text(value), max(9, int(half * 0.55)), (x, y), theme)
    return len(spots)


def _number_text(value: float) -> str:
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    return f"{value:.3g}"


def _draw_link(surface, renderer, command: list, colour: tuple) -> int:
    """A line, or an arrow with its head on the second cell, haloed."""
    start, end = _spot(renderer, command[1]), _spot(renderer, command[2])
    if start is None or end is None:
        return 0
    half = min(start[2], end[2])
    width = max(2, int(half * 0.22))
    a = pygame.math.Vector2(start[0], start[1])
    b = pygame.math.Vector2(end[0], end[1])
    arrow = command[0] == "arrow"
    if (b - a).length() < 1:
        pygame.draw.circle(surface, colour, (round(a.x), round(a.y)), width * 2)
        return 1
    direction = (b - a).normalize()
    head = max(6.0, half * 0.8)
    tip = b - direction * half * 0.25 if arrow else b
    shaft_end = tip - direction * head * 0.8 if arrow else b
    halo = _halo(colour)
    pygame.draw.line(surface, halo, a, shaft_end, width + max(2, width // 2))
    pygame.draw.line(surface, colour, a, shaft_end, width)
    if arrow:
        normal = pygame.math.Vector2(-direction.y, direction.x)
        base = tip - direction * head
        points = [tip, base + normal * head * 0.55, base - normal * head * 0.55]
        pygame.draw.polygon(surface, colour, points)
        pygame.draw.polygon(surface, halo, points, max(1, width // 3))
    return 1


def _draw_mark(surface, renderer, command: list, colour: tuple, theme: Theme) -> int:
    """A haloed ring round the cell, its label on a tag at the cell's bottom."""
    spot = _spot(renderer, command[1])
    if spot is None:
        return 0
    x, y, half = spot
    radius = max(4, int(half * 0.86))
    width = max(2, int(half * 0.16))
    centre = (round(x), round(y))
    pygame.draw.circle(surface, _halo(colour), centre, radius + max(1, width // 2), width + max(2, width // 2))
    pygame.draw.circle(surface, colour, centre, radius, width)
    if command[3]:
        size = max(9, int(half * 0.5))
        _tag(surface, command[3], size, (x, y + half * 0.72), theme, edge=colour)
    return 1


def _draw_texts(surface, rect: pygame.Rect, texts: list[tuple[tuple, str]], theme: Theme) -> int:
    """The texts in a panel box in the board's top-left corner, a colour chip per line."""
    if not texts:
        return 0
    shown = texts[:MAX_TEXT_LINES]
    face = font(max(11, rect.height // 42))
    line = face.get_linesize()
    pad = max(4, line // 4)
    chip = max(6, line // 2)
    width = max(60, int(rect.width * 0.55))
    lines = [(colour, elide(face, text, width - chip - 3 * pad)) for colour, text in shown]
    if len(texts) > MAX_TEXT_LINES:
        lines[-1] = (lines[-1][0], elide(face, f"… {len(texts) - MAX_TEXT_LINES + 1} more", width))
    inner = max(face.size(text)[0] for _, text in lines) + chip + pad
    box = pygame.Rect(rect.x + pad, rect.y + pad, inner + 2 * pad, len(lines) * line + pad)
    panel = pygame.Surface(box.size, pygame.SRCALPHA)
    panel.fill((*theme.panel, 225))
    surface.blit(panel, box)
    pygame.draw.rect(surface, theme.muted, box, 1)
    y = box.y + pad // 2
    for colour, text in lines:
        pygame.draw.rect(surface, colour, (box.x + pad, y + (line - chip) // 2, chip, chip))
        surface.blit(face.render(text, True, theme.text), (box.x + 2 * pad + chip, y))
        y += line
    return len(shown)
