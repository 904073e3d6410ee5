"""Crossed Words Solitaire on screen: the board, the piles, the hand, and a person's play.

Left, the 17x17 board: bonus squares coloured and labelled (``3W`` triple word, ``2W``
double word, ``2L``/``3L`` double/triple letter), tiles with their letter and value,
the last word outlined.  Right, a panel: the total, the last word with its cross
words and their points, the three piles' next letters, the hand.

A person plays with the mouse and keyboard (see HOWTO.md): click the k-th letter of
a pile to draw k letters; click hand tiles to mark them and press Delete to discard
them; click a board square (again to turn across/down) and type the letters to put
down, the move's score or the reason it is illegal shown as you type, Enter to play;
Ctrl+S stops the game.  What is being typed lives in ``view.highlights``; drawing
never changes the state.
"""
from __future__ import annotations

from dataclasses import dataclass

import pygame

from games.api import ArenaError
from games.language import _
from runner.messages import translated
from games.crosswords.rules import (BONUS, COLUMNS, HAND_LIMIT, LETTER_VALUES, SIZE,
                                    CrosswordsState, Discard, Draw, Place, format_move)
from games.render import BoardRenderer, BoardView, contrast_text, elide, font, mix

BONUS_LABEL = {"T": "3W", "D": "2W", "2": "2L", "3": "3L"}
BONUS_COLOUR = {"T": (200, 60, 50), "D": (226, 140, 150), "2": (140, 190, 230), "3": (40, 110, 190)}
TILE = (246, 232, 196)
#: The smallest a tile's value is written, in pixels (readable at 1280x720).
MIN_VALUE_PX = 10
TILE_NEW = (255, 214, 110)


@dataclass
class Layout:
    """Where things are, from the last draw (for hit tests)."""

    board: pygame.Rect
    cell: float
    piles: list          # per pile: list of (rect, count)
    hand: list           # per hand letter: rect


def typed_place(state: CrosswordsState, start, across: bool, typed: str) -> Place | None:
    """The placement a person means by typing ``typed`` from ``start``: typed letters go
    on empty squares in order, letters already on the board are taken into the word,
    and the word runs on over letters just before and after it."""
    if start is None or not typed:
        return None
    dr, dc = (0, 1) if across else (1, 0)
    r, c = start
    while 0 <= r - dr and 0 <= c - dc and state.letter(r - dr, c - dc) != ".":
        r, c = r - dr, c - dc
    row0, col0 = r, c
    word, rest = [], list(typed.upper())
    while r < SIZE and c < SIZE:
        here = state.letter(r, c)
        if here != ".":
            word.append(here)
        elif rest:
            word.append(rest.pop(0))
        else:
            break
        r, c = r + dr, c + dc
    if rest:
        return None
    return Place(row0, col0, across, "".join(word))


class CrosswordsRenderer(BoardRenderer):
    """Draws a :class:`CrosswordsState` and turns a person's input into steps."""

    def __init__(self, game, options, seat_names=None, theme=None):
        from games.render import DARK
        super().__init__(game, options, seat_names, theme or DARK)
        self.layout: Layout | None = None

    # -- geometry ------------------------------------------------------------------------
    @staticmethod
    def split(rect: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
        """The board's square and the panel beside it (below it on a tall rect)."""
        if rect.width >= rect.height * 1.25:
            side = min(rect.height, int(rect.width * 0.62))
            board = pygame.Rect(rect.left, rect.top + (rect.height - side) // 2, side, side)
            panel = pygame.Rect(board.right + 12, rect.top, rect.right - board.right - 12, rect.height)
        else:
            side = min(rect.width, int(rect.height * 0.62))
            board = pygame.Rect(rect.left + (rect.width - side) // 2, rect.top, side, side)
            panel = pygame.Rect(rect.left, board.bottom + 8, rect.width, rect.bottom - board.bottom - 8)
        return board, panel

    def cell_at(self, pos) -> tuple[int, int] | None:
        lay = self.layout
        if lay is None:
            return None
        x, y = pos[0] - lay.board.left, pos[1] - lay.board.top
        if x < 0 or y < 0:
            return None
        c, r = int(x // lay.cell), int(y // lay.cell)
        return (r, c) if r < SIZE and c < SIZE else None

    def annotation_spot(self, cell: tuple[int, int]) -> tuple[float, float, float] | None:
        """Square (row, col), from 0, of the last drawn board: centre and half size."""
        lay, (row, col) = self.layout, cell
        if lay is None or not (0 <= row < SIZE and 0 <= col < SIZE):
            return None
        return (lay.board.left + (col + 0.5) * lay.cell, lay.board.top + (row + 0.5) * lay.cell,
                lay.cell / 2)

    # -- drawing -------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, rect: pygame.Rect, state, view: BoardView) -> None:
        theme = self.theme
        board_area, panel = self.split(rect)
        margin = max(10, board_area.width // 30) if view.show_coordinates else 2
        cell = (board_area.width - margin - 2) / SIZE
        origin = pygame.Rect(board_area.left + margin, board_area.top + margin,
                             int(cell * SIZE), int(cell * SIZE))
        self.layout = Layout(origin, cell, [], [])
        pygame.draw.rect(surface, theme.board, origin.inflate(4, 4))
        typing = view.highlights
        preview = self._preview(state, typing)
        preview_squares = {}
        if preview is not None and preview[0] is not None:
            for (r, c), ch in zip(preview[0].squares(), preview[0].word):
                if state.letter(r, c) == ".":
                    preview_squares[(r, c)] = ch
        last = set(state.last.placed) if state.last else set()
        last_word = set(state.last_squares)
        label_face = font(max(MIN_VALUE_PX, int(cell * 0.32)), bold=True)
        letter_face = font(max(8, int(cell * 0.62)), bold=True)
        value_face = font(max(MIN_VALUE_PX, int(cell * 0.3)))
        for r in range(SIZE):
            for c in range(SIZE):
                box = pygame.Rect(origin.left + int(c * cell), origin.top + int(r * cell),
                                  int((c + 1) * cell) - int(c * cell), int((r + 1) * cell) - int(r * cell))
                bonus = BONUS[r * SIZE + c]
                colour = BONUS_COLOUR.get(bonus, theme.board)
                pygame.draw.rect(surface, colour, box)
                pygame.draw.rect(surface, theme.line, box, 1)
                letter = state.letter(r, c)
                shown = letter if letter != "." else preview_squares.get((r, c))
                if shown:
                    fill = TILE_NEW if (r, c) in last else TILE
                    if (r, c) in preview_squares:
                        fill = mix(TILE, theme.accent, 0.5)
                    tile = box.inflate(-2, -2)
                    pygame.draw.rect(surface, fill, tile, border_radius=max(1, int(cell * 0.12)))
                    ink = (30, 26, 20)
                    img = letter_face.render(shown, True, ink)
                    surface.blit(img, img.get_rect(center=(tile.centerx - cell * 0.06, tile.centery)))
                    val = value_face.render(str(LETTER_VALUES[shown]), True, ink)
                    surface.blit(val, val.get_rect(bottomright=(tile.right - 1, tile.bottom)))
                elif bonus in BONUS_LABEL and cell >= 14:
                    img = label_face.render(BONUS_LABEL[bonus], True, contrast_text(colour))
                    surface.blit(img, img.get_rect(center=box.center))
        for (r, c) in last_word:
            box = pygame.Rect(origin.left + int(c * cell), origin.top + int(r * cell), int(cell) + 1, int(cell) + 1)
            pygame.draw.rect(surface, theme.accent, box, max(2, int(cell * 0.08)))
        start = typing.get("start")
        if start is not None:
            r, c = start
            box = pygame.Rect(origin.left + int(c * cell), origin.top + int(r * cell), int(cell) + 1, int(cell) + 1)
            pygame.draw.rect(surface, theme.seats[0], box, max(2, int(cell * 0.1)))
            # a small triangle pointing the way the word will read
            k = cell * 0.22
            if typing.get("across", True):
                x, y = box.right + 1, box.centery
                points = [(x - k, y - k), (x + k * 0.6, y), (x - k, y + k)]
            else:
                x, y = box.centerx, box.bottom + 1
                points = [(x - k, y - k), (x + k, y - k), (x, y + k * 0.6)]
            pygame.draw.polygon(surface, theme.seats[0], points)
        if view.show_coordinates and cell >= 10:
            face = font(max(7, int(margin * 0.7)))
            for k in range(SIZE):
                img = face.render(COLUMNS[k], True, theme.muted)
                surface.blit(img, img.get_rect(center=(origin.left + (k + 0.5) * cell, origin.top - margin / 2 - 1)))
                img = face.render(str(k + 1), True, theme.muted)
                surface.blit(img, img.get_rect(center=(origin.left - margin / 2 - 1, origin.top + (k + 0.5) * cell)))
        self._panel(surface, panel, state, view, preview)

    def _panel(self, surface, panel: pygame.Rect, state, view: BoardView, preview) -> None:
        theme = self.theme
        if panel.width < 60 or panel.height < 60:
            return
        pygame.draw.rect(surface, theme.panel, panel, border_radius=8)
        inner = panel.inflate(-20, -16)
        unit = max(14, min(inner.height // 28, inner.width // 16))     # grows with the window (4K)
        y = inner.top
        big = font(int(unit * 1.6), bold=True)
        text = font(unit)
        small = font(max(12, int(unit * 0.85)))

        def line(face, words, colour=None, indent=0):
            nonlocal y
            img = face.render(elide(face, words, inner.width - indent), True, colour or theme.text)
            surface.blit(img, (inner.left + indent, y))
            y += face.get_linesize()

        line(big, _("Score {score}").format(score=state.total))
        line(small, _("words {words} · discards {discards} · step {step}").format(
            words=state.moves_points, discards=-state.discarded_points, step=state.turn), theme.muted)
        y += unit // 2
        if state.last:
            s = state.last
            bonus = f" +{s.bonus}" if s.bonus else ""
            line(text, _("Last: {word} {points}{bonus} = {total}").format(word=s.word, points=s.points, bonus=bonus,
                                                                          total=s.total), theme.accent)
            if s.crosses:
                line(small, "  " + "  ".join(f"{w} {p}" for w, p in s.crosses), theme.text)
        else:
            line(text, _("No word yet"), theme.muted)
        y += unit // 2
        tile = max(14, min(int(unit * 2.2), (inner.width - (HAND_LIMIT - 1) * 3) // HAND_LIMIT))
        self.layout.piles = []
        for p, pile in enumerate(state.piles):
            line(small, _("Pile {n} · {count} left").format(n=p + 1, count=len(pile)), theme.muted)
            spots = []
            for k, ch in enumerate(pile[:HAND_LIMIT]):
                box = pygame.Rect(inner.left + k * (tile + 3), y, tile, tile)
                self._tile(surface, box, ch, TILE if ch != "?" else theme.muted)
                spots.append((box, k + 1))
            self.layout.piles.append(spots)
            y += tile + unit // 3
        y += unit // 3
        line(text, _("Hand ({count}/{limit})").format(count=len(state.hand), limit=HAND_LIMIT))
        marked = set(view.highlights.get("discard", ()))
        hand_tile = max(16, min(int(unit * 2.6), (inner.width - (HAND_LIMIT - 1) * 4) // HAND_LIMIT))
        self.layout.hand = []
        for k, ch in enumerate(state.hand):
            box = pygame.Rect(inner.left + k * (hand_tile + 4), y, hand_tile, hand_tile)
            self._tile(surface, box, ch, theme.bad if k in marked else TILE)
            self.layout.hand.append(box)
        if not state.hand:
            line(small, _("(empty: draw from a pile)"), theme.muted)
        else:
            y += hand_tile + unit // 2
        hinted_turn, hints = view.highlights.get("hints", (None, ()))
        for hint in hints if hinted_turn == state.turn else ():    # only for this position
            line(small, hint, theme.good)
        message = None
        if preview is not None:
            place, info = preview
            colour = theme.good if place is not None and not info.startswith("!") else theme.bad
            message = (info.lstrip("!"), colour)
        elif state.stopped:
            out = state.outcome()
            message = (_("Game over: {result} ({detail})").format(result=translated(out.result_text()), detail=translated(out.detail)),
                       theme.text)
        if message:
            words, colour = message
            for part in _wrap(text, words, inner.width):
                if y + text.get_linesize() > inner.bottom:
                    break
                line(text, part, colour)

    def _tile(self, surface, box: pygame.Rect, letter: str, fill) -> None:
        pygame.draw.rect(surface, fill, box, border_radius=max(2, box.width // 8))
        ink = contrast_text(fill)
        face = font(max(8, int(box.height * 0.58)), bold=True)
        img = face.render(letter, True, ink)
        with_value = letter in LETTER_VALUES and box.height >= 24
        shift = box.width * 0.08 if with_value else 0
        surface.blit(img, img.get_rect(center=(box.centerx - shift, box.centery)))
        if with_value:
            val = font(max(MIN_VALUE_PX, int(box.height * 0.32))).render(str(LETTER_VALUES[letter]), True, ink)
            surface.blit(val, val.get_rect(bottomright=(box.right - 2, box.bottom)))

    def _preview(self, state, typing) -> tuple[Place | None, str] | None:
        """(placement, what it scores) for what is typed, or (None/place, "!reason")."""
        typed = typing.get("typed", "")
        if typing.get("start") is None or not typed:
            return None
        place = typed_place(state, typing["start"], typing.get("across", True), typed)
        if place is None:
            return None, "!" + _("the word runs off the board")
        try:
            scored = state.score_place(place)
        except ArenaError as exc:
            return place, f"!{format_move(place)}: {exc}"
        crosses = "".join(f" + {w} {p}" for w, p in scored.crosses)
        bonus = _(" + bonus {bonus}").format(bonus=scored.bonus) if scored.bonus else ""
        return place, f"{scored.word} {scored.points}{crosses}{bonus} = {scored.total} (Enter)"

    # -- a person's input ----------------------------------------------------------------
    def handle_event(self, event, state, view: BoardView) -> str | None:
        if view.human_seat is None or view.human_seat not in state.to_move():
            return None
        typing = view.highlights
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return self._click(event.pos, state, typing)
        if event.type != pygame.KEYDOWN:
            return None
        if event.key == pygame.K_s and event.mod & pygame.KMOD_CTRL:
            typing.clear()
            return "stop"
        if event.key == pygame.K_h and event.mod & pygame.KMOD_CTRL:
            typing["hints"] = (state.turn, hint_lines(state))
            return None
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            preview = self._preview(state, typing)
            if preview and preview[0] is not None and not preview[1].startswith("!"):
                typing.clear()
                return format_move(preview[0])
            return None
        if event.key in (pygame.K_DELETE,) or (event.key == pygame.K_BACKSPACE and not typing.get("typed")):
            marked = sorted(typing.get("discard", ()))
            if marked:
                letters = "".join(state.hand[k] for k in marked if k < len(state.hand))
                typing.clear()
                return format_move(Discard(letters))
            return None
        if event.key == pygame.K_BACKSPACE:
            typing["typed"] = typing.get("typed", "")[:-1]
            return None
        if event.key == pygame.K_SPACE and typing.get("start") is not None:
            typing["across"] = not typing.get("across", True)
            return None
        letter = getattr(event, "unicode", "") or ""
        if len(letter) == 1 and letter.isascii() and letter.isalpha() and typing.get("start") is not None:
            typing["typed"] = typing.get("typed", "") + letter.upper()
        return None

    def _click(self, pos, state, typing) -> str | None:
        lay = self.layout
        if lay is None:
            return None
        for p, spots in enumerate(lay.piles):
            for box, count in spots:
                if box.collidepoint(pos):
                    room = HAND_LIMIT - len(state.hand)
                    count = min(count, room)
                    if count < 1:
                        return None
                    return format_move(Draw(p + 1, state.piles[p][:count]))
        for k, box in enumerate(lay.hand):
            if box.collidepoint(pos):
                marked = set(typing.get("discard", ()))
                marked ^= {k}
                typing["discard"] = tuple(sorted(marked))
                return None
        cell = self.cell_at(pos)
        if cell is not None:
            if typing.get("start") == cell:
                typing["across"] = not typing.get("across", True)
            else:
                typing["start"], typing["typed"] = cell, ""
                typing.setdefault("across", True)
        return None

    def key_help(self, state, seat: int) -> str:
        """What to do now: draw first while the hand is empty, then place or discard."""
        if not state.hand:
            return _("Draw first: click a pile's k-th letter to take its first k letters · "
                     "Ctrl+H hints · Ctrl+S ends the game")
        return _("Click a square (again: across/down), type the word, Enter plays · click hand "
                 "letters, Delete discards them · click a pile to draw · Ctrl+H hints")

    def legend(self, state) -> list[tuple[tuple, str]]:
        return [(BONUS_COLOUR["T"], _("3W triple word")), (BONUS_COLOUR["D"], _("2W double word")),
                (BONUS_COLOUR["3"], _("3L triple letter")), (BONUS_COLOUR["2"], _("2L double letter"))]


def _wrap(face, text: str, width: int) -> list[str]:
    from games.render import wrap
    return wrap(face, text, width, max_lines=4)


def hint_lines(state, count: int = 3) -> list[str]:
    """The best ``count`` words the hand can place now (Ctrl+H), as the panel shows them:
    ``Hint: QUIZ at H8 across, 45``.  Reading the state only; the person still plays."""
    from games.crosswords.movegen import generate
    from games.crosswords.rules import square_name
    if not state.hand:
        return [_("Hint: the hand is empty; draw from a pile")]
    best = generate(state.board, state.hand, state.words, top=count)
    if not best:
        return [_("Hint: no word fits the hand here; draw or discard")]
    return [_("Hint: {word} at {square} {direction}, {score}").format(
        word=c.move.word, square=square_name(c.move.row, c.move.col),
        direction=_("across") if c.move.across else _("down"), score=c.score) for c in best]
