"""The layer cache: the static part of a board (background, lines, coordinates) drawn
once to a surface and reused until something it depends on changes.

A renderer names everything a layer depends on in its key, always the target size,
the theme and the orientation (flipped or not), plus its own choices (coordinates
shown, board size, map).  A draw with the same key reuses the surface; any change
builds a new one.  The few most recently used layers are kept, so switching back
and forth (a flip, a resized window) does not rebuild every time.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Hashable, Iterator

import pygame


class LayerCache:
    """The last ``capacity`` built layers, by key, least recently used dropped first.

    A layer is whatever ``build()`` returns: a surface, or a tuple starting with one
    (e.g. the surface and the layout it was drawn for).
    """

    def __init__(self, capacity: int = 6):
        self.capacity = max(1, int(capacity))
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self.builds = 0                  # how many layers were built (for tests and benchmarks)

    def get(self, key: Hashable, build: Callable[[], Any]) -> Any:
        """The layer for ``key``: the cached one, or ``build()``'s result, then kept."""
        cached = self._items.get(key)
        if cached is not None:
            self._items.move_to_end(key)
            return cached
        layer = build()
        self.builds += 1
        self._items[key] = layer
        while len(self._items) > self.capacity:
            self._items.popitem(last=False)
        return layer

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._items

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._items)

    def keys(self):
        return self._items.keys()

    def values(self):
        return self._items.values()


def display_ready(layer: pygame.Surface) -> pygame.Surface:
    """``layer`` (with per-pixel alpha) in the display's pixel format, which blits fastest;
    unchanged when there is no display (pictures drawn offscreen)."""
    if pygame.display.get_surface() is not None:
        return layer.convert_alpha()
    return layer
