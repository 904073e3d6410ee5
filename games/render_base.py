"""The contract between the ui shell and each game's board renderer (pygame).

A game's ``render.py`` subclasses :class:`BoardRenderer`.  It draws a state into a
rectangle of a surface it is given, reading the state only (like
``chess.svg.board(board, orientation=..., lastmove=...)``), and turns a person's
clicks and keys into move text.  View choices that are not part of the game (flipped,
hover, selection, coordinates shown) live in :class:`BoardView`, owned by the ui.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping

import pygame

from runner.paths import asset


@dataclass
class BoardView:
    """The ui's view choices for one board; renderers read it and may update hover/selection."""

    flipped: bool = False
    show_coordinates: bool = True
    hover: Any = None                 # the cell under the mouse, in the game's own terms
    selected: Any = None              # a picked-up piece / first click of a two-click move
    human_seat: int | None = None     # seat the person may move for now (None: not their turn)
    highlights: dict[str, Any] = field(default_factory=dict)   # game-defined extras
    letters: bool = False             # a letter on each colour (colour-blind aid)
    time: float = 0.0                 # seconds, for animations


@dataclass(frozen=True)
class Theme:
    """Colours with good contrast on a projector; the ui picks dark or light."""

    name: str = "dark"
    background: tuple = (24, 26, 32)
    panel: tuple = (36, 39, 48)
    text: tuple = (235, 236, 240)
    muted: tuple = (150, 155, 170)
    accent: tuple = (255, 196, 64)
    board: tuple = (222, 196, 150)
    line: tuple = (40, 30, 20)
    # Seat colours: blue, orange, green-teal, purple (Okabe-Ito, colour-blind safe).
    seats: tuple = ((0, 114, 178), (230, 159, 0), (0, 158, 115), (204, 121, 167))
    good: tuple = (90, 200, 120)
    bad: tuple = (230, 80, 70)


DARK = Theme()
LIGHT = Theme(name="light", background=(238, 238, 232), panel=(250, 250, 246), text=(20, 22, 28),
              muted=(95, 100, 110), accent=(200, 120, 0), board=(226, 200, 152), line=(40, 30, 20))
THEMES = {"dark": DARK, "light": LIGHT}


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, mono: bool = False) -> pygame.font.Font:
    """The shipped Noto font at ``size`` pixels (Vietnamese letters included)."""
    if not pygame.font.get_init():
        pygame.font.init()
    name = "NotoSansMono-Regular.ttf" if mono else ("NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf")
    return pygame.font.Font(str(asset("fonts", name)), max(6, int(size)))


def mix(a: tuple, b: tuple, t: float) -> tuple[int, int, int]:
    """The colour ``t`` of the way from ``a`` to ``b`` (alpha dropped)."""
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a[:3], b[:3]))


def luminance(colour: tuple) -> float:
    """Relative brightness 0..1 (sRGB weights, good enough to pick black or white text)."""
    r, g, b = colour[:3]
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def contrast_text(colour: tuple) -> tuple[int, int, int]:
    """Near-black text on light colours, near-white on dark ones."""
    return (25, 25, 30) if luminance(colour) > 140 / 255 else (245, 245, 245)


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


class BoardRenderer:
    """Base of every game's renderer.  Subclasses override :meth:`draw` and the input hooks."""

    def __init__(self, game, options: Mapping[str, Any], seat_names: list[str] | None = None,
                 theme: Theme = DARK):
        self.game, self.options = game, dict(options)
        self.seat_names = list(seat_names or [])
        self.theme = theme

    def seat_colour(self, seat: int) -> tuple:
        return self.theme.seats[seat % len(self.theme.seats)]

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, state, view: BoardView) -> None:
        """Draw ``state`` inside ``rect``; must not change ``state``."""
        raise NotImplementedError

    def handle_event(self, event: pygame.event.Event, state, view: BoardView) -> str | None:
        """A person's input while ``view.human_seat`` may move: the move text once complete.

        Updates ``view.hover``/``view.selected`` as the person points and clicks.
        """
        return None

    def legend(self, state) -> list[tuple[tuple, str]]:
        """(colour, text) lines the side panel shows under the players (optional)."""
        return []

    #: Move notations the move list may use for this game, the plain move texts first
    #: (e.g. ``("ICCS", "WXF")``); empty when there is only one.  The Settings screen
    #: offers a choice for each game whose renderer names more than one.
    notations: tuple[str, ...] = ()

    def move_labels(self, state, turns, notation: str | None) -> list[dict[int, str]]:
        """For each of ``turns``, seat -> the text the move list shows for that seat's move.

        ``state`` is the position after the last of ``turns`` (the whole game so far),
        ``notation`` one of :attr:`notations` (None or the first: the plain texts).
        The default is the plain move texts of the record.
        """
        return [dict(turn.moves) for turn in turns]

    def animates(self, state) -> bool:
        """True when :meth:`draw` of ``state`` changes with ``view.time`` (a pulsing mark).

        The ui then redraws a few dozen times a second, but only while the match runs,
        the replay plays, or for a second after the shown state changed.
        """
        return False
