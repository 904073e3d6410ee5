"""The replay's event timeline and board diff: what happened at which turn, and what changed.

:func:`timeline_marks` reads a replay's turns into :class:`Mark` objects: the game's own
events (``State.events()``: captures, eliminations, pickups, enclosures, verdicts, any
kind a game declares), the referee's view of each answer (illegal or late answers,
repairs, forfeits, rulings) and a branched game's branch point.  Kinds come from the
API, so a game landing later needs no change here; a kind not listed in
:data:`KIND_COLOURS` gets a steady colour from its name.

:func:`changed_regions` finds what changed on the board between two positions without
knowing the game: both are drawn off screen by the game's own renderer and the pixels
compared, so it works for any board, hexagons and intersections included.  Boards that
keep a side panel inside their rectangle (Robot, Tam Quân) expose their grid as
``renderer.layout`` (a :class:`games.render.GridLayout`) and the comparison keeps to it.
"""
from __future__ import annotations

import colorsys
import copy
import zlib
from dataclasses import dataclass
from typing import Iterable

import pygame

from games.render import BoardView, GridLayout
from games.replay import Replay
from runner.i18n import N_, _

#: Kinds the referee adds to the game's own events.
LATE, ILLEGAL, REPAIR, FORFEIT, VERDICT, BRANCH = ("late answer", "illegal answer", "repair",
                                                    "forfeit", "verdict", "branch")
#: Kind colours chosen to read on both the dark and the light theme (mid lightness).
KIND_COLOURS: dict[str, tuple[int, int, int]] = {
    "capture": (226, 74, 51), "elimination": (200, 40, 120), "explosion": (240, 120, 20),
    "enclosure": (40, 170, 90), "pickup": (230, 180, 20), "verdict": (150, 90, 230),
    "win": (150, 90, 230), "check": (235, 140, 60), "word": (40, 150, 220),
    "placement": (120, 140, 160), "shrink": (150, 120, 90), "spawn": (110, 170, 60),
    LATE: (250, 60, 60), ILLEGAL: (250, 60, 60), REPAIR: (255, 150, 0), FORFEIT: (210, 30, 30),
    BRANCH: (0, 180, 200),
}
#: Names shown for the kinds (translated where shown); other kinds show as they are.
KIND_NAMES = {"capture": N_("capture"), "elimination": N_("elimination"), "explosion": N_("explosion"),
              "enclosure": N_("enclosure"), "pickup": N_("pickup"), "verdict": N_("verdict"),
              "win": N_("win"), "check": N_("check"), "word": N_("word"), "placement": N_("placement"),
              "shrink": N_("shrink"), "spawn": N_("spawn"), LATE: N_("late answer"),
              ILLEGAL: N_("illegal answer"), REPAIR: N_("repair"), FORFEIT: N_("forfeit"),
              BRANCH: N_("branch")}
#: Colours of the board marks: the diff, the recorded answer and a re-run's answer.
DIFF_COLOUR = (236, 64, 200)
RECORDED_COLOUR = (255, 176, 0)
NEW_COLOUR = (0, 200, 255)


@dataclass(frozen=True)
class Mark:
    """One thing on the timeline: at state ``index`` (after turn ``index``), of ``kind``."""

    index: int
    kind: str
    seats: tuple[int, ...]
    text: str


def kind_name(kind: str) -> str:
    """The kind as shown to people."""
    return _(KIND_NAMES[kind]) if kind in KIND_NAMES else kind.replace("_", " ").replace("-", " ")


def kind_colour(kind: str) -> tuple[int, int, int]:
    """The kind's colour; an unknown kind gets a steady one from its name."""
    if kind in KIND_COLOURS:
        return KIND_COLOURS[kind]
    hue = (zlib.crc32(kind.encode("utf-8")) % 360) / 360
    r, g, b = colorsys.hls_to_rgb(hue, 0.5, 0.7)
    return round(r * 255), round(g * 255), round(b * 255)


def timeline_marks(replay: Replay) -> list[Mark]:
    """Every mark of ``replay`` in turn order (several may share a turn)."""
    marks: list[Mark] = []
    for index, turn in enumerate(replay.turns, start=1):
        for event in turn.events:
            marks.append(Mark(index, event.kind, tuple(event.seats), event.text))
        for seat, answer in sorted(turn.answers.items()):
            marks += _answer_marks(index, seat, answer, turn.forfeits, turn.moves)
        for seat, forfeit in sorted(turn.forfeits.items()):
            marks.append(Mark(index, FORFEIT, (seat,), f"{forfeit.get('reason', '')}: {forfeit.get('detail', '')}"))
        if turn.ruling and not any(e.kind == VERDICT for e in turn.events):
            marks.append(Mark(index, VERDICT, tuple(turn.ruling.get("winners") or ()),
                              str(turn.ruling.get("detail") or "")))
    branch = replay.branch_turn()
    if branch is not None:
        marks.append(Mark(branch, BRANCH, (), _("branched here")))
    return sorted(marks, key=lambda m: m.index)


def _answer_marks(index: int, seat: int, answer: dict, forfeits: dict, moves: dict) -> list[Mark]:
    """A late or illegal answer (and its repair, when the game repaired it)."""
    failure = answer.get("failure") if isinstance(answer, dict) else None
    if not failure or failure in ("resignation", "aborted"):
        return []
    detail = str(answer.get("detail") or failure)
    marks = [Mark(index, LATE if failure == "timeout" else ILLEGAL, (seat,), detail)]
    if seat in moves and seat not in forfeits:
        marks.append(Mark(index, REPAIR, (seat,), "; ".join(answer.get("notes") or ()) or detail))
    return marks


def mark_kinds(marks: Iterable[Mark]) -> list[str]:
    """The kinds present, in order of first appearance."""
    return list(dict.fromkeys(m.kind for m in marks))


def jump_target(marks: list[Mark], index: int, direction: int, kind: str | None) -> int | None:
    """The state index of the next (``direction`` > 0) or previous mark of ``kind``
    (None: any kind) from ``index``; None when there is none."""
    turns = sorted({m.index for m in marks if kind is None or m.kind == kind})
    if direction > 0:
        return next((i for i in turns if i > index), None)
    return next((i for i in reversed(turns) if i < index), None)


def draw_marks(surface: pygame.Surface, strip: pygame.Rect, marks: list[Mark], last: int,
               seat_colours: list[tuple], outline: tuple, kind: str | None = None) -> list[pygame.Rect]:
    """Ticks along ``strip`` (the slider's track, ``last`` states wide): each a bar of its
    kind's colour whose foot is its first seat's colour, outlined in ``outline`` so it
    reads on either theme; several kinds on one turn stand side by side (three at most).
    Marks not of ``kind`` (when given) are drawn short and faint.  Returns the ticks'
    rectangles (tests and hit testing)."""
    if last <= 0 or not marks:
        return []
    width = max(4, strip.height // 3)
    drawn = []
    kinds_at: dict[int, list[str]] = {}
    for mark in marks:
        kinds = kinds_at.setdefault(mark.index, [])
        if mark.kind in kinds or len(kinds) >= 3:
            continue
        kinds.append(mark.kind)
        x = strip.x + round(mark.index / last * (strip.width - 1))
        faint = kind is not None and mark.kind != kind
        tick = pygame.Rect(0, 0, width, strip.height // 2 if faint else strip.height)
        tick.midbottom = (x + (len(kinds) - 1) * width, strip.bottom)
        colour = kind_colour(mark.kind)
        if faint:
            colour = tuple((c + o) // 2 for c, o in zip(colour, (128, 128, 128)))
        pygame.draw.rect(surface, colour, tick)
        if mark.seats and 0 <= mark.seats[0] < len(seat_colours) and not faint:
            foot = pygame.Rect(tick.x, tick.bottom - tick.height // 3, tick.width, tick.height // 3)
            pygame.draw.rect(surface, seat_colours[mark.seats[0]], foot)
        pygame.draw.rect(surface, outline, tick, 1)
        drawn.append(tick)
    return drawn


# ------------------------------------------------------------------ board diff
def plain_view(view: BoardView) -> BoardView:
    """``view`` without what the pointer adds (hover, a picked piece) and frozen in time."""
    plain = copy.copy(view)
    plain.hover = plain.selected = None
    plain.human_seat = None
    plain.highlights = dict(view.highlights)
    plain.time = 0.0
    return plain


def draw_offscreen(renderer, size: tuple[int, int], state, view: BoardView) -> pygame.Surface:
    """``state`` as ``renderer`` draws it on a new surface of ``size``."""
    surface = pygame.Surface(size)
    surface.fill(renderer.theme.background)
    renderer.draw(surface, surface.get_rect(), state, view)
    return surface


def changed_regions(renderer, size: tuple[int, int], before, after, view: BoardView,
                    share: float = 0.3) -> list[pygame.Rect]:
    """The blocks of a board drawn at (0, 0) in ``size`` where ``after`` looks different
    from ``before``: the grid's cells when the renderer keeps a :class:`GridLayout` (a
    cell counts when at least ``share`` of it changed, so a thin outline drawn across it
    does not), else squares of about a fortieth of the board."""
    view = plain_view(view)
    first = draw_offscreen(renderer, size, before, view)
    second = draw_offscreen(renderer, size, after, view)
    changed = pygame.mask.from_threshold(first, (0, 0, 0, 255), (24, 24, 24, 255), second)
    changed.invert()
    if not changed.count():
        return []
    regions = []
    for block in _blocks(renderer, size):
        probe = pygame.mask.Mask(block.size, fill=True)
        if changed.overlap_area(probe, block.topleft) >= share * block.width * block.height:
            regions.append(block)
    return regions


def _blocks(renderer, size: tuple[int, int]) -> list[pygame.Rect]:
    """The cells of the renderer's grid (last drawn), or even squares over ``size``."""
    layout = getattr(renderer, "layout", None)
    bounds = pygame.Rect((0, 0), size)
    if isinstance(layout, GridLayout):
        cells = [layout.cell_rect(r, c) for r in range(layout.rows) for c in range(layout.cols)]
        return [c for c in cells if bounds.contains(c) and c.width > 0 and c.height > 0]
    side = max(4, min(size) // 40)
    return [pygame.Rect(x, y, min(side, size[0] - x), min(side, size[1] - y))
            for y in range(0, size[1], side) for x in range(0, size[0], side)]


def outline_regions(surface: pygame.Surface, origin: tuple[int, int], rects: list[pygame.Rect],
                    colour: tuple, width: int, fill_alpha: int = 60, dashed: bool = False) -> int:
    """Fill the blocks (moved by ``origin``) faintly in ``colour`` and outline each
    connected group of them; the number of groups."""
    if not rects:
        return 0
    bounds = rects[0].unionall(rects[1:])
    union = pygame.mask.Mask(bounds.size)
    for rect in rects:
        union.draw(pygame.mask.Mask(rect.size, fill=True), (rect.x - bounds.x, rect.y - bounds.y))
    corner = (bounds.x + origin[0], bounds.y + origin[1])
    if fill_alpha:
        surface.blit(union.to_surface(setcolor=(*colour, fill_alpha), unsetcolor=(0, 0, 0, 0)), corner)
    groups = union.connected_components()
    for group in groups:
        points = [(x + corner[0], y + corner[1]) for x, y in group.outline()]
        if len(points) < 2:
            continue
        if dashed:
            for n in range(0, len(points) - 1, 6):
                pygame.draw.line(surface, colour, points[n], points[min(n + 3, len(points) - 1)], width)
        else:
            pygame.draw.lines(surface, colour, True, points, width)
    return len(groups)


def ghost_regions(surface: pygame.Surface, origin: tuple[int, int], image: pygame.Surface,
                  rects: list[pygame.Rect], alpha: int = 200) -> None:
    """Show ``image`` (another position drawn off screen) through the blocks ``rects``, so
    a move that was not played is seen where it would stand."""
    for rect in rects:
        piece = image.subsurface(rect.clip(image.get_rect())).copy()
        piece.set_alpha(alpha)
        surface.blit(piece, (rect.x + origin[0], rect.y + origin[1]))
