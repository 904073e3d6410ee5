"""Compare two runs: two records of the same game side by side, stepping together.

A bot developer opens the game their old build played and the one the new build played
on the same map or opening: both boards move turn by turn in step (the shorter game
stays on its last position), each with its players and the turn's caption, and for games
that keep running scores (``GameSpec.live_scores``: Robot's cells, a solitaire's total)
one chart plots both runs' scores, the old run dashed.

    arena compare OLD.arena.jsonl NEW.arena.jsonl

Keys: Left/Right step, Home/End jump, PageUp/PageDown ten turns, Escape goes back.
"""
from __future__ import annotations

import pygame

from games import registry
from games.api import ArenaError
from games.render import BoardView, font, wrap
from games.replay import Replay
from runner.i18n import _
from ui.boards import safe_draw
from ui.scene import Scene, is_pressed
from ui.snapshot import turn_caption

STEP_KEYS = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1, pygame.K_PAGEUP: -10, pygame.K_PAGEDOWN: 10}


class CompareScene(Scene):
    """Two replays of one game, stepping together (see the module's doc)."""

    def __init__(self, app, left: Replay, right: Replay):
        super().__init__(app)
        if left.game != right.game:
            raise ArenaError(f"{left.source} is {left.game} and {right.source} is {right.game}: "
                             "only records of the same game compare")
        self.replays = (left, right)
        self.plugin = registry.plugin(left.game)
        self.game = self.plugin.new_game()
        renderer_class = self.plugin.load("renderer")
        self.renderers = [renderer_class(self.game, r.header.get("options") or {},
                                         r.seat_names or None, app.theme) for r in self.replays]
        self.views = [BoardView(), BoardView()]
        self.index = 0
        self.dirty = True
        self.title = _("{game} · compare two runs").format(game=_(self.game.spec.title))

    @property
    def last(self) -> int:
        return max(len(r.states) for r in self.replays) - 1

    def position(self, side: int) -> int:
        """The index shown on ``side``: the shared turn, or that game's end if it is shorter."""
        return min(self.index, len(self.replays[side].states) - 1)

    # ------------------------------------------------------------ widgets
    def layout(self) -> None:
        self.top_bar(self.title)
        y = self.dh - 56
        self.step_buttons = {}
        for i, (text, step) in enumerate((("|<", -10 ** 6), ("<", -1), (">", 1), (">|", 10 ** 6))):
            self.step_buttons[self.button(self.rect(16 + i * 72, y, 64, 44), text)] = step

    # ------------------------------------------------------------ events
    def process_event(self, event: pygame.event.Event) -> bool:
        if is_pressed(event, getattr(self, "back_button", None)):
            self.app.pop()
            return True
        for button, step in getattr(self, "step_buttons", {}).items():
            if is_pressed(event, button):
                return self.go(self.index + step)
        if event.type == pygame.KEYDOWN:
            if event.key in STEP_KEYS:
                return self.go(self.index + STEP_KEYS[event.key])
            if event.key == pygame.K_HOME:
                return self.go(0)
            if event.key == pygame.K_END:
                return self.go(self.last)
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
                return True
        return False

    def go(self, index: int) -> bool:
        self.index = max(0, min(self.last, index))
        self.dirty = True
        return True

    def update(self, dt: float) -> bool:
        """Redraw only after a step (the boards do not animate here)."""
        changed, self.dirty = self.dirty, False
        return changed

    # ------------------------------------------------------------ drawing
    def areas(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect | None]:
        """The two board areas and the chart strip (None for games with no running score)."""
        top, bottom = self.px(68), self.app.size[1] - self.px(68)
        chart = None
        if self.game.spec.live_scores:
            chart = pygame.Rect(self.px(16), bottom - self.px(150), self.app.size[0] - self.px(32), self.px(140))
            bottom = chart.top - self.px(8)
        half = (self.app.size[0] - self.px(48)) // 2
        left = pygame.Rect(self.px(16), top, half, bottom - top)
        right = pygame.Rect(left.right + self.px(16), top, half, bottom - top)
        return left, right, chart

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        surface.fill(theme.background)
        left, right, chart = self.areas()
        for side, area in enumerate((left, right)):
            self.draw_side(surface, side, area)
        if chart is not None:
            self.draw_chart(surface, chart)
        self.draw_text(surface, _("Turn {n} of {last}").format(n=self.index, last=self.last),
                       (self.px(16 + 4 * 72 + 16), self.app.size[1] - self.px(46)), 18, theme.text,
                       bold=True)

    def draw_side(self, surface: pygame.Surface, side: int, area: pygame.Rect) -> None:
        theme, replay = self.app.theme, self.replays[side]
        index = self.position(side)
        pygame.draw.rect(surface, theme.panel, area, border_radius=self.px(8))
        head = font(self.px(17), bold=True)
        name = replay.source.rsplit("/", 1)[-1] or "record"
        x, y, width = area.x + self.px(10), area.y + self.px(6), area.width - self.px(20)
        self.draw_text(surface, (_("Old: ") if side == 0 else _("New: ")) + name, (x, y), 17, theme.text,
                       bold=True, max_width=width)
        y += head.get_linesize()
        small = font(self.px(14))
        caption = turn_caption(replay, index)
        if index < self.index:
            caption = [_("Ended at turn {n}").format(n=index)] + caption[1:]
        lines = [line for text in caption[:3] for line in wrap(small, text, width, 1)]
        for line in lines:
            surface.blit(small.render(line, True, theme.muted), (x, y))
            y += small.get_linesize()
        board = pygame.Rect(area.x + self.px(6), y + self.px(4), area.width - self.px(12),
                            area.bottom - y - self.px(10))
        if board.width > 20 and board.height > 20:
            safe_draw(self.renderers[side], surface, board, replay.states[index], self.views[side])

    def draw_chart(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """Each seat's running score in both runs: old dashed, new solid, one colour a seat."""
        theme = self.app.theme
        pygame.draw.rect(surface, theme.panel, rect, border_radius=self.px(8))
        series = [[state.live_scores() for state in replay.states] for replay in self.replays]
        top = max((max(row) for run in series for row in run if row), default=1) or 1
        inner = pygame.Rect(rect.x + self.px(44), rect.y + self.px(24), rect.width - self.px(56),
                            rect.height - self.px(34))
        self.draw_text(surface, _("Running score: old dashed, new solid"), (rect.x + self.px(10), rect.y + self.px(4)),
                       13, theme.muted)
        for value, y in ((top, inner.top), (0, inner.bottom)):
            self.draw_text(surface, f"{value:g}", (inner.x - self.px(6), y - self.px(8)), 12, theme.muted,
                           align="right")
        span = max(1, self.last)
        for side, run in enumerate(series):
            for seat in range(len(run[0]) if run else 0):
                points = [(inner.x + inner.width * i / span, inner.bottom - inner.height * row[seat] / top)
                          for i, row in enumerate(run)]
                colour = self.renderers[side].seat_colour(seat)
                if len(points) > 1:
                    if side == 0:
                        for a, b in zip(points[::2], points[1::2]):
                            pygame.draw.line(surface, colour, a, b, max(1, self.px(2)))
                    else:
                        pygame.draw.lines(surface, colour, False, points, max(1, self.px(2)))
        marker = inner.x + inner.width * self.index / span
        pygame.draw.line(surface, theme.accent, (marker, inner.top), (marker, inner.bottom), max(1, self.px(1)))
