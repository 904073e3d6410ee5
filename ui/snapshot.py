"""Pictures of positions without a window: ``python main.py render`` and screenshots.

:func:`render_state` draws any game's state with its own renderer, plus an optional
caption panel, onto an offscreen surface; :func:`render_record_turn` does that for
one turn of any record the arena can open and saves a PNG.  Nothing here opens a
display: ``main.py`` sets ``SDL_VIDEODRIVER=dummy`` and we only need fonts and
surfaces.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pygame

from games import registry
from games.api import ArenaError, kept_message
from games.registry import GamePlugin
from games.render import DARK, BoardView, Theme, font, wrap
from runner.i18n import _
from ui.catalog import who_text
from ui.game_texts import rules_text

PANEL_MIN_WIDTH = 260
#: The smallest caption text (pixels) a crowded panel shrinks to before lines are left out.
MIN_PANEL_UNIT = 9


class TurnOutOfRangeError(ArenaError, ValueError):
    """A turn number the record does not have."""


class PictureError(ArenaError):
    """The picture could not be made or saved (bad size, unwritable path)."""


def _init_pygame() -> None:
    if not pygame.get_init():
        pygame.init()
    if not pygame.font.get_init():
        pygame.font.init()


def render_state(plugin: GamePlugin, state, options, seat_names: Sequence[str] | None = None,
                 size: tuple[int, int] = (1280, 720), caption: Sequence[str] | str | None = None,
                 theme: Theme = DARK, view: BoardView | None = None,
                 title: str | None = None) -> pygame.Surface:
    """A new surface of ``size`` showing ``state`` drawn by ``plugin``'s renderer.

    With a ``caption`` (lines of text, or one string with newlines) a side panel (a
    bottom panel on tall pictures) shows the game's title, each seat's colour and
    name, then the caption lines; without one the board fills the picture.  The title
    and seat names are in the interface's language; a caption too long for the panel
    is drawn smaller (down to :data:`MIN_PANEL_UNIT`) so that no line is left out.
    """
    _init_pygame()
    width, height = size
    if width < 16 or height < 16:
        raise PictureError(f"picture size {width}x{height} is too small (at least 16x16)")
    lines = caption.splitlines() if isinstance(caption, str) else list(caption or [])
    renderer, panel = _Panel.of(plugin, options, seat_names, lines, theme, title, height,
                                board_names_only=caption is not None)
    surface = pygame.Surface((width, height))
    surface.fill(theme.background)
    board_rect, panel_rect = _split(surface.get_rect(), panel.height_at if caption is not None else None)
    renderer.draw(surface, board_rect, state, view or BoardView())
    if panel_rect is not None:
        panel.draw(surface, panel_rect, panel.fitting_unit(panel_rect))
    return surface


def caption_overflow(plugin: GamePlugin, options, seat_names: Sequence[str] | None,
                     size: tuple[int, int], caption: Sequence[str], theme: Theme = DARK) -> int:
    """How many pixels of ``caption``'s panel would not fit in a picture of ``size``
    (0: every line is shown whole), laid out exactly as :func:`render_state` does."""
    _init_pygame()
    width, height = size
    _renderer, panel = _Panel.of(plugin, options, seat_names, list(caption), theme, None, height)
    _board, rect = _split(pygame.Rect(0, 0, width, height), panel.height_at)
    return max(0, panel.draw(None, rect, panel.fitting_unit(rect)) - rect.height)


class _Panel:
    """The caption panel's content: title, seats (colour and name), caption lines."""

    def __init__(self, title: str, colours: list[tuple], names: list[str], lines: list[str],
                 theme: Theme, picture_height: int):
        self.title, self.colours, self.names, self.lines = title, colours, names, lines
        self.theme, self.picture_height = theme, picture_height

    @classmethod
    def of(cls, plugin: GamePlugin, options, seat_names, lines, theme, title, picture_height,
           board_names_only: bool = False):
        """The game's renderer and the panel of a picture of it.  With
        ``board_names_only`` the renderer names the seats by their roles alone ("A"):
        the panel beside it names the players in full, which the renderer's narrower
        side panel would cut."""
        game = plugin.new_game()
        names = _seat_names(game, seat_names, options, plugin.bot_levels)
        shown = _seat_names(game, None, options) if board_names_only else names
        renderer = plugin.load("renderer")(game, options, shown, theme)
        colours = [renderer.seat_colour(seat) for seat in range(len(names))]
        return renderer, cls(title or _(game.spec.title), colours, names, lines, theme, picture_height)

    def height_at(self, panel_width: int) -> int:
        """The height the whole panel needs at ``panel_width`` with the usual text size."""
        probe = pygame.Rect(0, 0, panel_width, 10 ** 6)
        return self.draw(None, probe, _panel_unit(panel_width, self.picture_height))

    def fitting_unit(self, rect: pygame.Rect) -> int:
        """The text size in ``rect``: the usual one (:func:`_panel_unit`), or smaller when
        the whole caption would not fit (a long Vietnamese verdict, many events), but
        never below :data:`MIN_PANEL_UNIT`."""
        unit = _panel_unit(rect.width, self.picture_height)
        while unit > MIN_PANEL_UNIT and self.draw(None, rect, unit) > rect.height:
            unit -= 1
        return unit

    def draw(self, surface: pygame.Surface | None, rect: pygame.Rect, unit: int) -> int:
        """Draw into ``rect`` (only measure when ``surface`` is None); the height needed."""
        return _layout_panel(surface, rect, unit, self.title, self.colours, self.names, self.lines,
                             self.theme)


def _seat_names(game, given: Sequence[str] | None, options, levels: tuple[str, ...] = ()) -> list[str]:
    """The record's names for the seats ("A: Bot 4 · strongest", as the match screen and
    Home name them, given the game's bot ``levels``), falling back to the game's own seat
    names, in the interface's language."""
    count = max(game.seats_for(options), len(given or []))
    names = []
    for seat in range(count):
        label = given[seat] if given and seat < len(given) and given[seat] else ""
        role = game.spec.seat_name(seat)
        names.append(f"{_(role)}: {who_text(label, levels)}" if label and label != role else _(role))
    return names


def _split(area: pygame.Rect, panel_height_for_width) -> tuple[pygame.Rect, pygame.Rect | None]:
    """Board and caption panel rectangles: panel on the right of wide pictures, below tall ones.

    ``panel_height_for_width(width)`` says how tall the panel's text is at a width (None: no panel).
    """
    if panel_height_for_width is None:
        return area.copy(), None
    if area.width >= area.height * 1.15:
        panel_w = max(min(PANEL_MIN_WIDTH, area.width // 2), int(area.width * 0.27))
        board = pygame.Rect(area.x, area.y, area.width - panel_w, area.height)
        return board, pygame.Rect(board.right, area.y, panel_w, area.height)
    panel_h = min(panel_height_for_width(area.width), int(area.height * 0.45))
    board = pygame.Rect(area.x, area.y, area.width, area.height - panel_h)
    return board, pygame.Rect(area.x, board.bottom, area.width, panel_h)


def _panel_unit(width: int, picture_height: int) -> int:
    """The panel's text size: readable on a projector, scaled with the picture."""
    return max(12, min(width // 14, picture_height // 34))


def _layout_panel(surface: pygame.Surface | None, rect: pygame.Rect, unit: int, title: str,
                  colours: list[tuple], names: list[str], lines: list[str], theme: Theme) -> int:
    """Draw the caption panel into ``rect`` with text of ``unit`` pixels (or only measure
    it when ``surface`` is None).

    Returns the height the panel's whole content needs.
    """
    inner = rect.inflate(-2 * unit, -2 * unit)
    if surface is not None:
        pygame.draw.rect(surface, theme.panel, rect.inflate(-unit, -unit), border_radius=unit // 2)
    y = inner.y
    title_font, body_font = font(int(unit * 1.7), bold=True), font(unit)
    y = _blit_lines(surface, wrap_whole(title_font, title, inner.width), title_font, theme.text, inner.x, y)
    y += unit // 2
    swatch = int(unit * 0.9)
    for colour, name in zip(colours, names):
        wrapped = wrap_whole(body_font, name, inner.width - swatch - unit // 2)
        if surface is not None:
            pygame.draw.circle(surface, colour, (inner.x + swatch // 2, y + body_font.get_linesize() // 2),
                               swatch // 2)
        y = _blit_lines(surface, wrapped, body_font, theme.text, inner.x + swatch + unit // 2, y)
    y += unit // 2
    if surface is not None:
        pygame.draw.line(surface, theme.muted, (inner.x, y), (inner.right, y), max(1, unit // 12))
    y += unit // 2
    for line in lines:
        wrapped = wrap_whole(body_font, line, inner.width)
        if surface is not None and y + body_font.get_linesize() * len(wrapped) > inner.bottom:
            break                   # no half-shown lines at the bottom of a full panel
        y = _blit_lines(surface, wrapped, body_font, theme.text, inner.x, y)
    return y - rect.y + unit


def wrap_whole(face: pygame.font.Font, text: str, width: int) -> list[str]:
    """``text`` wrapped at words to ``width`` pixels, a word longer than the width (a
    file's path) broken where it reaches the edge, so no line is wider than ``width``."""
    lines = []
    for line in wrap(face, text, width) or [""]:
        while face.size(line)[0] > width and len(line) > 1:
            cut = len(line) - 1
            while cut > 1 and face.size(line[:cut])[0] > width:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
        lines.append(line)
    return lines


def _blit_lines(surface, lines, text_font, colour, x, y) -> int:
    for line in lines:
        if surface is not None:
            surface.blit(text_font.render(line, True, colour), (x, y))
        y += text_font.get_linesize()
    return y


def turn_caption(replay, index: int) -> list[str]:
    """Caption lines for ``replay.states[index]``: turn i of n, the last move, the result,
    in the interface's language (the record's English texts through :func:`rules_text`)."""
    total = len(replay.turns)
    lines = [_("Turn {n} of {last}").format(n=index, last=total) if index
             else _("Start position (0 of {total} turns)").format(total=total)]
    if replay.header.get("variant"):
        lines.insert(0, _("Variant {variant}").format(variant=_(str(replay.header["variant"]))))
    if index:
        turn = replay.turns[index - 1]
        game = registry.plugin(replay.game).new_game()
        for seat, move in sorted(turn.moves.items()):
            lines.append(_("{seat} played {move}").format(seat=_short_seat(game, seat), move=move))
        for seat, verdict in sorted(turn.forfeits.items()):
            why = rules_text(kept_message(verdict, "detail") or verdict.get("reason", ""))
            lines.append(f"{_short_seat(game, seat)}: {why}")
        lines.extend(rules_text(event.text) for event in turn.events if event.kind != "win")
    if index == total and replay.outcome is not None:
        result = rules_text(replay.outcome.detail or replay.outcome.reason.value)
        lines.append(_("Result: {result}").format(result=result))
    return lines


def _short_seat(game, seat: int) -> str:
    """A seat's name without its note ("Player 1 (columns)" -> "Player 1"), translated."""
    return _(game.spec.seat_name(seat)).split(" (")[0]


def render_record_turn(path: str | Path, turn: int, out_png: str | Path,
                       size: tuple[int, int] | None = (1280, 720)) -> str:
    """Draw turn ``turn`` of the record at ``path`` (0 = start, -1 = last) to ``out_png``."""
    from runner.records import open_replay

    replay = open_replay(path)
    count = len(replay.states)
    index = turn + count if turn < 0 else turn
    if not 0 <= index < count:
        raise TurnOutOfRangeError(f"{path}: turn {turn} is out of range; the record has turns 0-{count - 1} "
                                  f"(0 = start, -1 = last)")
    plugin = registry.plugin(replay.game)
    options = replay.header.get("options") or {}
    picture = render_state(plugin, replay.states[index], options, replay.seat_names,
                           tuple(size or (1280, 720)), turn_caption(replay, index))
    out = Path(out_png)
    try:
        if out.parent and not out.parent.exists():
            out.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(picture, str(out))
    except (OSError, pygame.error) as exc:
        raise PictureError(f"cannot save the picture to {out}: {exc}") from None
    return str(out)
