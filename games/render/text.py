"""Text that must fit: shorten with an ellipsis, greedy word wrap (pixel widths)."""
from __future__ import annotations

import pygame


def elide(face: pygame.font.Font, text: str, max_width: int) -> str:
    """``text`` shortened with "…" to fit ``max_width`` pixels."""
    if face.size(text)[0] <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if face.size(text[:mid] + "…")[0] <= max_width:
            low = mid
        else:
            high = mid - 1
    return text[:low] + "…"


def wrap(face: pygame.font.Font, text: str, width: int, max_lines: int | None = None) -> list[str]:
    """Greedy word wrap to ``width`` pixels (a longer word stays whole), at most
    ``max_lines`` lines (the last then elided)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if face.size(trial)[0] <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = elide(face, lines[-1] + " …", width)
    return lines
