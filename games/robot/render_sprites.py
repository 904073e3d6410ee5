"""Robot Đại Chiến's sprites: each robot's marker shape and the item icons, supersampled.

A robot's marker is its seat's shape (circle, square, triangle, diamond) in its colour
inside a white and a dark rim, or a ghost (a crossed outline) once it is out; the items
are a lightning bolt for speed ``G``, a burst for the explosion ``E`` and a droplet for
oil ``F``.  The renderer caches what these paint.
"""
from __future__ import annotations

import math

import pygame

from games.render.shapes import shape_points

ITEM_NAMES = {"G": "speed", "E": "explosion", "F": "oil"}
SHAPES = ("circle", "square", "triangle", "diamond")


def _supersampled(size: int, paint) -> pygame.Surface:
    """A ``size``×``size`` sprite painted 4× larger by ``paint(surface, big_size)`` and smoothed."""
    scale = 4
    big = pygame.Surface((size * scale, size * scale), pygame.SRCALPHA)
    paint(big, size * scale)
    return pygame.transform.smoothscale(big, (size, size))


def _marker_sprite(shape: str, size: int, colour: tuple, ghost: bool = False) -> pygame.Surface:
    """A robot marker: the seat's shape in its colour inside a white and a dark rim."""
    def paint(big: pygame.Surface, n: int) -> None:
        c = n / 2
        if ghost:
            pygame.draw.polygon(big, (30, 30, 35, 150), shape_points(shape, c, c, c * 0.96))
            pygame.draw.polygon(big, (*colour[:3], 200), shape_points(shape, c, c, c * 0.96), max(2, n // 9))
            w = max(2, n // 10)
            pygame.draw.line(big, (245, 245, 245, 230), (c - c * 0.45, c - c * 0.45), (c + c * 0.45, c + c * 0.45), w)
            pygame.draw.line(big, (245, 245, 245, 230), (c - c * 0.45, c + c * 0.45), (c + c * 0.45, c - c * 0.45), w)
            return
        pygame.draw.polygon(big, (20, 20, 26), shape_points(shape, c, c, c * 0.98))
        pygame.draw.polygon(big, (250, 250, 250), shape_points(shape, c, c, c * 0.80))
        pygame.draw.polygon(big, colour, shape_points(shape, c, c, c * 0.62))
    return _supersampled(max(4, size), paint)


def _item_sprite(kind: str, size: int) -> pygame.Surface:
    """An item icon on a light disc: lightning (G), burst (E), droplet (F)."""
    def paint(big: pygame.Surface, n: int) -> None:
        c = n / 2
        pygame.draw.circle(big, (30, 30, 36), (c, c), c * 0.98)
        pygame.draw.circle(big, (252, 250, 240), (c, c), c * 0.86)

        def at(points):
            return [(n * (0.14 + 0.72 * px), n * (0.14 + 0.72 * py)) for px, py in points]
        if kind == "G":
            bolt = at([(0.62, 0.0), (0.12, 0.58), (0.45, 0.58), (0.32, 1.0), (0.88, 0.38), (0.55, 0.38), (0.72, 0.0)])
            pygame.draw.polygon(big, (255, 200, 0), bolt)
            pygame.draw.polygon(big, (40, 30, 10), bolt, max(2, n // 28))
        elif kind == "E":
            star = [(c + (c * (0.72 if i % 2 == 0 else 0.34)) * math.cos(math.pi * i / 8 - math.pi / 2),
                     c + (c * (0.72 if i % 2 == 0 else 0.34)) * math.sin(math.pi * i / 8 - math.pi / 2))
                    for i in range(16)]
            pygame.draw.polygon(big, (225, 50, 30), star)
            pygame.draw.polygon(big, (60, 10, 5), star, max(2, n // 28))
            pygame.draw.circle(big, (255, 215, 60), (c, c), c * 0.26)
        else:
            top = (c, n * 0.14)
            drop = [top] + [(c + c * 0.42 * math.cos(a), n * 0.60 + c * 0.42 * math.sin(a))
                            for a in [math.radians(d) for d in range(-30, 211, 10)]]
            pygame.draw.polygon(big, (55, 40, 95), drop)
            pygame.draw.polygon(big, (15, 10, 30), drop, max(2, n // 28))
            pygame.draw.circle(big, (200, 190, 240), (c - c * 0.16, n * 0.60), c * 0.1)
    return _supersampled(max(4, size), paint)
