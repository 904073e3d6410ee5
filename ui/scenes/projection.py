"""Projection mode: a running event on a hall's screen, for hours, with nobody at the keys.

``arena tournament EVENT.toml --project [--display N]`` (the event runs here) and
``arena project EVENT_FOLDER`` (another arena writes the folder, e.g. on a shared drive)
open it fullscreen; the tournament screen's Project button opens it in the window.

It only reads the event folder (:class:`runner.live.EventFollower`): each running match's
record, flushed turn by turn, the results file and the standings.  The current match is
followed at the event's pace (``[projection] pace``, turns a second; the organizer's
matches are played at that pace too), its final position stays up for ``hold`` seconds,
then an intermission card (the result, the next pairing, the standings) for
``intermission`` seconds, then the next running match.  ``layout = "grid"`` shows every
running match at once instead, each cell following its own match.

Type is sized from the screen's height (1080p and 4K alike) so names, clocks and scores
can be read from the back of a hall; there are no widgets and no debug text.  Drawing
happens only when something shown changed; while waiting the scene wakes twice a second.

Keys: Up/+ faster, Down/- slower (and the organizer's matches with it), G grid/focus,
S standings, N next match now, Esc leaves.
"""
from __future__ import annotations

import time
import traceback
from pathlib import Path

import pygame

from games.render import BoardView, contrast_text, elide, font, mix
from runner.i18n import _, ngettext
from runner.live import LiveMatch
from runner.projection import Playback, ProjectionModel
from ui.game_texts import rules_text
from ui.scene import Scene

#: Bytes of rendered words kept for reuse (clocks and counters change, so the cache is
#: emptied when full rather than kept growing).
TEXT_CACHE_BYTES = 6 << 20
#: The smallest type projected, in units of a 1080-pixel-high screen (readable from the
#: back of a room); a name too long for its place is written smaller down to this, then cut.
MIN_TEXT = 24


def board_view(coordinates: bool) -> BoardView:
    """The view a projected board is drawn with: no side panel of the game's own (the
    projection shows names, clocks and scores itself, in hall-sized type)."""
    return BoardView(show_coordinates=coordinates, highlights={"panel": False})


class ProjectionScene(Scene):
    """A running (or finished) event, projected: see the module's docstring."""

    def __init__(self, app, folder: str | Path, thread=None, fullscreen: bool = False,
                 claim_pace: bool = False):
        super().__init__(app)
        self.model = ProjectionModel(folder, thread, claim_pace, now=time.monotonic())
        self.want_fullscreen = fullscreen
        self.was_fullscreen = app.fullscreen
        self._text: dict = {}
        self._text_bytes = 0

    # ------------------------------------------------------------ life cycle
    def enter(self) -> None:
        if self.want_fullscreen and not self.app.fullscreen:
            self.app.toggle_fullscreen()
        super().enter()
        self.model.start(time.monotonic())

    def exit(self) -> None:
        self.model.close()
        if self.want_fullscreen and self.app.fullscreen and not self.was_fullscreen:
            self.app.toggle_fullscreen()
        super().exit()

    def layout(self) -> None:
        """No widgets: nothing on the screen but the event."""
        self._text.clear()
        self._text_bytes = 0

    def update(self, dt: float) -> bool:
        return self.model.update(dt, time.monotonic())

    def wake_interval(self) -> float | None:
        return self.model.wake_interval()

    # ------------------------------------------------------------ input
    def process_event(self, event: pygame.event.Event) -> bool:
        if event.type != pygame.KEYDOWN:
            return False
        key = event.key
        if key in (pygame.K_UP, pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.model.step_pace(+1, time.monotonic())
        elif key in (pygame.K_DOWN, pygame.K_MINUS, pygame.K_KP_MINUS):
            self.model.step_pace(-1, time.monotonic())
        elif key == pygame.K_g:
            self.model.toggle_layout(time.monotonic())
        elif key == pygame.K_s:
            self.model.show_standings = not self.model.show_standings
        elif key == pygame.K_n:
            self.model.skip(time.monotonic())
        elif key == pygame.K_ESCAPE:
            if len(self.app.scenes) > 1:
                self.app.pop()
            else:
                self.app.quit()
        else:
            return False
        self.app.dirty = True
        return True

    # ------------------------------------------------------------ drawing helpers
    def u(self, value: float) -> int:
        """Pixels from units of a 1080-pixel-high screen (type stays the same share of it)."""
        return max(1, round(value * self.app.size[1] / 1080))

    def text(self, surface, text: str, pos, size: float, colour, bold: bool = False,
             width: int | None = None, align: str = "left", mono: bool = False) -> pygame.Rect:
        """Blit one line at ``size`` units, never under :data:`MIN_TEXT`; with ``width``, a
        line too long is written smaller (down to the minimum), then cut (cached: a
        projection draws the same words for hours)."""
        pixels = self.u(max(size, MIN_TEXT))
        key = (text, pixels, bold, mono, colour, width)
        image = self._text.get(key)
        if image is None:
            face = font(pixels, bold=bold, mono=mono)
            wide = face.size(text)[0]
            if width and wide > width:
                smallest = self.u(MIN_TEXT)
                pixels = max(smallest, min(pixels - 1, int(pixels * width / wide)))
                face = font(pixels, bold=bold, mono=mono)
                while pixels > smallest and face.size(text)[0] > width:
                    pixels -= 1
                    face = font(pixels, bold=bold, mono=mono)
            shown = elide(face, text, width) if width and face.size(text)[0] > width else text
            image = face.render(shown, True, colour)
            size = image.get_width() * image.get_height() * image.get_bytesize()
            if self._text_bytes + size > TEXT_CACHE_BYTES:
                self._text.clear()
                self._text_bytes = 0
            self._text[key] = image
            self._text_bytes += size
        rect = image.get_rect()
        setattr(rect, {"left": "topleft", "right": "topright", "center": "midtop"}[align], pos)
        surface.blit(image, rect)
        return rect

    def fit_units(self, text: str, size: float, width: int, bold: bool = False) -> float:
        """The largest size in units, from ``size`` down to :data:`MIN_TEXT`, at which
        ``text`` fits ``width`` pixels (the minimum when none does)."""
        while size > MIN_TEXT and font(self.u(size), bold=bold).size(text)[0] > width:
            size = max(MIN_TEXT, size - 2)
        return size

    def fit_lines(self, text: str, size: float, width: int, bold: bool = False) -> tuple[list[str], float]:
        """``text`` fitted to ``width`` pixels where there is room for two lines: one line
        at ``size`` when it fits, else two (broken at the space that evens them) at
        ``size``, else those two smaller down to :data:`MIN_TEXT` (:meth:`text` cuts what
        still does not fit).  A single word is written smaller, then cut."""
        face = font(self.u(size), bold=bold)
        if face.size(text)[0] <= width:
            return [text], size
        lines = two_lines(text, lambda line: face.size(line)[0])
        if len(lines) == 1:
            return lines, self.fit_units(text, size, width, bold)
        return lines, min(self.fit_units(line, size, width, bold) for line in lines)

    def text_lines(self, surface, lines: list[str], pos, size: float, colour, bold: bool = False,
                   width: int | None = None, align: str = "left") -> int:
        """Blit ``lines`` one under the other from ``pos``; the y under the last."""
        x, y = pos
        step = font(self.u(max(size, MIN_TEXT)), bold=bold).get_linesize()
        for line in lines:
            self.text(surface, line, (x, y), size, colour, bold=bold, width=width, align=align)
            y += step
        return y

    def colour_of(self, playback: Playback, seat: int):
        """A seat's colour as its board draws it (the colour players are known by)."""
        try:
            return self.board_of(playback).seat_colour(seat)
        except Exception:
            seats = self.app.theme.seats
            return seats[seat % len(seats)]

    # ------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """The current view; a bug in it is printed and the frame left plain, since a
        projection runs unattended for hours and must not close on one bad frame."""
        try:
            self.draw_view(surface)
        except Exception:
            traceback.print_exc()
            surface.fill(self.app.theme.background)
            self.draw_header(surface)

    def draw_view(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        surface.fill(theme.background)
        width, height = surface.get_size()
        self.draw_header(surface)
        body = pygame.Rect(self.u(40), self.u(112), width - self.u(80), height - self.u(112 + 36))
        if self.model.show_standings or self.model.phase == "final":
            self.draw_standings_page(surface, body)
        elif self.model.current_layout() == "grid" and any(self.model.cells):
            self.draw_grid(surface, body)
        elif self.model.phase in ("playing", "holding") and self.model.main is not None:
            self.draw_focus(surface, body)
        elif self.model.phase == "intermission":
            self.draw_intermission(surface, body)
        else:
            self.draw_waiting(surface, body)
        if self.model.toast[0]:
            face = font(self.u(36), bold=True)
            pad = pygame.Rect(0, 0, face.size(self.model.toast[0])[0] + self.u(40), self.u(66))
            pad.midtop = (width // 2, height - self.u(104))
            pygame.draw.rect(surface, theme.panel, pad, border_radius=self.u(12))
            self.text(surface, self.model.toast[0], (width // 2, height - self.u(96)), 36, theme.text,
                      bold=True, align="center")

    def draw_header(self, surface) -> None:
        theme = self.app.theme
        width = surface.get_width()
        event = self.model.follower.event
        name = str(event.get("name") or self.model.folder.name)
        played, planned = self.model.follower.counts()
        running = len(self.model.follower.running())
        right = _("{played} of {planned} matches").format(played=played, planned=planned) if planned else ""
        if running and planned:
            right += " · " + ngettext("{n} playing", "{n} playing", running).format(n=running)
        right_rect = self.text(surface, right, (width - self.u(40), self.u(30)), 38, theme.muted,
                               align="right")
        self.text(surface, name, (self.u(40), self.u(20)), 56, theme.text, bold=True,
                  width=right_rect.left - self.u(80))
        pygame.draw.line(surface, theme.panel, (self.u(40), self.u(96)), (width - self.u(40), self.u(96)),
                         self.u(3))

    def draw_focus(self, surface, body: pygame.Rect) -> None:
        from ui.boards import safe_draw
        theme = self.app.theme
        play = self.model.main
        others = [m for m in self.model.follower.running() if m.id != play.match.id][:3]
        board_w = min(round(body.width * 0.54), body.height * 4 // 3)
        board = pygame.Rect(body.left, body.top, board_w, body.height)
        if play.state is not None:
            safe_draw(self.board_of(play), surface, board, play.state, play.view)
        panel = pygame.Rect(board.right + self.u(48), body.top, body.right - board.right - self.u(48),
                            body.height)
        y = self.draw_players(surface, play, panel)
        if play.ended:
            y = self.draw_result_banner(surface, play, panel, y)
        else:
            slow = self.model.slow_seat(play, time.monotonic())
            if slow:
                waited = int(time.monotonic() - play.match.updated)
                self.text(surface, _("Waiting for {name} ({s} s)").format(name=slow, s=waited),
                          (panel.left, y), 32, theme.accent, width=panel.width)
                y += self.u(52)
        thumbs_h = self.u(250) if others else 0
        table = pygame.Rect(panel.left, y + self.u(16), panel.width, panel.bottom - y - self.u(16) - thumbs_h)
        self.draw_table(surface, table, compact=True)
        if others:
            self.draw_thumbs(surface, others, pygame.Rect(panel.left, panel.bottom - thumbs_h + self.u(20),
                                                          panel.width, thumbs_h - self.u(20)))

    def draw_players(self, surface, play: Playback, panel: pygame.Rect) -> int:
        """A card per seat: colour, name, clock and score; returns the y below them."""
        theme = self.app.theme
        names = play.match.names
        many = len(names) > 2
        big = 40 if many else 54                      # the name; the clock and score below it
        small = 34 if many else 46
        # two seats: name, then clock and score; more: all on one line, to leave room
        card_h = self.u(big * 1.4 + 36) if many else self.u(big * 1.4 + small * 1.4 + 40)
        y = panel.top
        clocks = play.clocks()
        total = play.match.total_time
        scores = ()
        if play.state is not None and getattr(play.match.game.spec, "live_scores", False):
            try:
                scores = play.state.live_scores()
            except Exception:
                scores = ()
        try:
            to_move = () if play.ended or play.state is None else play.state.to_move()
        except Exception:
            to_move = ()
        for seat, name in enumerate(names):
            card = pygame.Rect(panel.left, y, panel.width, card_h - self.u(12))
            colour = self.colour_of(play, seat)
            pygame.draw.rect(surface, theme.panel, card, border_radius=self.u(14))
            if seat in to_move:
                pygame.draw.rect(surface, theme.accent, card, width=self.u(4), border_radius=self.u(14))
            chip = pygame.Rect(card.left + self.u(18), card.top + self.u(18), self.u(24), card.height - self.u(36))
            pygame.draw.rect(surface, colour, chip, border_radius=self.u(8))
            used = clocks.get(seat)
            clock = ""
            if isinstance(used, (int, float)):
                clock = _clock(max(0.0, total - used) if total else used)
            score = _number(scores[seat]) if seat < len(scores) else ""
            left = chip.right + self.u(20)
            if many:
                right = card.right - self.u(20)
                if score:
                    right = self.text(surface, score, (right, card.top + self.u(12)), big, theme.text,
                                      bold=True, align="right").left - self.u(24)
                if clock:
                    right = self.text(surface, clock, (right, card.top + self.u(18)), small, theme.muted,
                                      mono=True, align="right").left - self.u(24)
                self.text(surface, name, (left, card.top + self.u(12)), big, theme.text, bold=True,
                          width=right - left)
                y += card_h
                continue
            self.text(surface, name, (left, card.top + self.u(10)), big, theme.text, bold=True,
                      width=card.right - self.u(20) - left)
            second = card.top + self.u(10 + big * 1.4)
            if clock:
                self.text(surface, clock, (left, second), small, theme.muted, mono=True)
            if score:
                self.text(surface, _("score {n}").format(n=score), (card.right - self.u(20), second), small,
                          theme.text, bold=True, align="right")
            y += card_h
        return y

    def draw_result_banner(self, surface, play: Playback, panel: pygame.Rect, y: int) -> int:
        theme = self.app.theme
        text = _result(play.match.names, play.match.outcome, play.match.error)
        rect = pygame.Rect(panel.left, y, panel.width, self.u(84))
        pygame.draw.rect(surface, theme.accent, rect, border_radius=self.u(14))
        self.text(surface, text, (rect.centerx, rect.top + self.u(12)), 40, contrast_text(theme.accent),
                  bold=True, align="center", width=rect.width - self.u(32))
        return rect.bottom + self.u(8)

    def draw_thumbs(self, surface, matches: list[LiveMatch], area: pygame.Rect) -> None:
        from ui.boards import safe_draw
        theme = self.app.theme
        gap = self.u(16)
        width = (area.width - gap * (len(matches) - 1)) // len(matches)
        for i, match in enumerate(matches):
            cell = pygame.Rect(area.left + i * (width + gap), area.top, width, area.height)
            renderer = self._thumb_renderer(match)
            caption = caption_lines(match.names, lambda text: self.fit_units(text, 26, cell.width) > MIN_TEXT
                                    or font(self.u(MIN_TEXT)).size(text)[0] <= cell.width)
            board = pygame.Rect(cell.left, cell.top, cell.width, cell.height - self.u(40) * len(caption))
            if match.state is not None:
                safe_draw(renderer, surface, board, match.state, board_view(False))
            for row, line in enumerate(caption):         # two lines, smaller, then cut
                self.text(surface, line, (cell.centerx, board.bottom + self.u(4 + 36 * row)), 26,
                          theme.muted, align="center", width=cell.width)

    def board_of(self, play: Playback):
        """The renderer of a board the model follows, made the first time it is drawn."""
        if play.renderer is None:
            from ui.boards import make_renderer
            match = play.match
            play.renderer = make_renderer(match.plugin, match.game, match.options, match.names, self.app.theme)
            play.view = board_view(False)      # the boards' own coordinates are small print
        return play.renderer

    def _thumb_renderer(self, match: LiveMatch):
        renderer = getattr(match, "_projection_renderer", None)
        if renderer is None or renderer.theme is not self.app.theme:
            from ui.boards import make_renderer
            renderer = make_renderer(match.plugin, match.game, match.options, match.names, self.app.theme)
            match._projection_renderer = renderer          # dropped with the match
        return renderer

    def draw_grid(self, surface, body: pygame.Rect) -> None:
        from ui.boards import safe_draw
        theme = self.app.theme
        table_w = round(body.width * 0.34)
        area = pygame.Rect(body.left, body.top, body.width - table_w - self.u(40), body.height)
        self.draw_table(surface, pygame.Rect(area.right + self.u(40), body.top, table_w, body.height),
                        compact=True)
        count = len(self.model.cells)
        cols = 1 if count == 1 else 2
        rows = (count + cols - 1) // cols
        gap = self.u(24)
        cw, ch = (area.width - gap * (cols - 1)) // cols, (area.height - gap * (rows - 1)) // rows
        for i, play in enumerate(self.model.cells):
            cell = pygame.Rect(area.left + (i % cols) * (cw + gap), area.top + (i // cols) * (ch + gap), cw, ch)
            line_h = self.u(58)
            if play is None:
                pygame.draw.rect(surface, theme.panel, cell, border_radius=self.u(14))
                nxt = self.model.follower.next_pairings(1)
                self.text(surface, _("Next match"), (cell.centerx, cell.centery - self.u(60)), 34,
                          theme.muted, align="center")
                lines, size = self.fit_lines(" – ".join(nxt[0]) if nxt else "…", 40, cell.width - self.u(32),
                                             bold=True)            # the cell has room for two lines
                self.text_lines(surface, lines, (cell.centerx, cell.centery), size, theme.text, bold=True,
                                align="center", width=cell.width - self.u(32))
                continue
            names = play.match.names
            # a name a line while the board keeps its width (boards are mostly square)
            per_line = 1 if cell.height - len(names) * line_h >= cell.width * 0.9 else 2
            share = cell.width // per_line
            for seat, name in enumerate(names):
                x = cell.left + (seat % per_line) * share
                top = cell.top + (seat // per_line) * line_h
                chip = pygame.Rect(x, top + self.u(10), self.u(18), self.u(36))
                pygame.draw.rect(surface, self.colour_of(play, seat), chip, border_radius=self.u(5))
                self.text(surface, name, (chip.right + self.u(12), top + self.u(4)), 36, theme.text,
                          bold=True, width=share - self.u(48))
            head = line_h * ((len(names) + per_line - 1) // per_line)
            board = pygame.Rect(cell.left, cell.top + head, cell.width, cell.height - head)
            if play.state is not None:
                safe_draw(self.board_of(play), surface, board, play.state, play.view)
            if play.ended:
                banner = pygame.Rect(cell.left, cell.bottom - self.u(70), cell.width, self.u(70))
                pygame.draw.rect(surface, theme.accent, banner, border_radius=self.u(12))
                self.text(surface, _result(names, play.match.outcome, play.match.error),
                          (banner.centerx, banner.top + self.u(10)), 36, contrast_text(theme.accent),
                          bold=True, align="center", width=banner.width - self.u(24))

    def draw_intermission(self, surface, body: pygame.Rect) -> None:
        theme = self.app.theme
        y = body.top + self.u(10)
        self.text(surface, _("Intermission"), (body.left, y), 40, theme.accent, bold=True)
        length = self.model.follower.setting("intermission", 8.0) or 1.0
        done = min(1.0, (time.monotonic() - self.model.phase_since) / length)
        bar = pygame.Rect(body.right - self.u(400), y + self.u(22), self.u(400), self.u(12))
        pygame.draw.rect(surface, theme.panel, bar, border_radius=self.u(6))
        pygame.draw.rect(surface, theme.accent, (bar.left, bar.top, round(bar.width * done), bar.height),
                         border_radius=self.u(6))
        y += self.u(76)
        if self.model.last:
            self.text(surface, _("Last match"), (body.left, y), 32, theme.muted)
            width = body.width - self.u(260)
            lines, size = self.fit_lines(_result(self.model.last["names"], self.model.last["outcome"], self.model.last["error"]),
                                         44, width, bold=True)
            bottom = self.text_lines(surface, lines, (body.left + self.u(260), y - self.u(6)), size, theme.text,
                                     bold=True, width=width)
            y = max(y + self.u(72), bottom + self.u(16))
        nxt = self.model.follower.next_pairings(1)
        running = [m for m in self.model.follower.running() if m.id not in self.model.seen]
        pairing = running[0].names if running else nxt[0] if nxt else []
        self.text(surface, _("Next match"), (body.left, y + self.u(14)), 32, theme.muted)
        used = self.u(80)
        if pairing:
            used = self.draw_pairing(surface, pairing, pygame.Rect(body.left + self.u(260), y,
                                                                  body.width - self.u(260), self.u(80)))
        else:
            self.text(surface, _("the last match is under way") if self.model.event_running() else _("none: the event is over"),
                      (body.left + self.u(260), y + self.u(6)), 44, theme.text, bold=True)
        y += used + self.u(30)
        self.draw_table(surface, pygame.Rect(body.left, y, body.width, body.bottom - y), compact=False)

    def draw_pairing(self, surface, names: list[str], rect: pygame.Rect) -> int:
        """``A vs B`` in big type, each name beside its contestant's colour, in one size for
        all (the longest name's); a name too long for its share takes two lines (the card
        grows), then smaller type, then is cut.  The height used (at least ``rect``'s)."""
        theme = self.app.theme
        x = rect.left
        share = rect.width // max(1, len(names))
        room = share - self.u(90)
        size = min((self.fit_lines(name, 60, room, bold=True)[1] for name in names), default=60)
        used = rect.height
        for i, name in enumerate(names):
            lines, _size = self.fit_lines(name, size, room, bold=True)
            chip = pygame.Rect(x, rect.top + self.u(12), self.u(26), self.u(56))
            pygame.draw.rect(surface, theme.seats[i % len(theme.seats)], chip, border_radius=self.u(7))
            bottom = self.text_lines(surface, lines, (chip.right + self.u(16), rect.top + self.u(60 - size) // 2),
                                     size, theme.text, bold=True, width=room)
            used = max(used, bottom - rect.top)
            x += share
        return used

    def draw_waiting(self, surface, body: pygame.Rect) -> None:
        theme = self.app.theme
        nxt = self.model.follower.next_pairings(1)
        message = (_("Waiting for the next match…") if self.model.event_running()
                   else _("The event is over"))
        self.text(surface, message, (body.left, body.top + self.u(10)), 44, theme.muted)
        y = body.top + self.u(80)
        if nxt:
            self.text(surface, _("Next match"), (body.left, y + self.u(14)), 32, theme.muted)
            used = self.draw_pairing(surface, nxt[0], pygame.Rect(body.left + self.u(260), y,
                                                                  body.width - self.u(260), self.u(80)))
            y += used + self.u(30)
        self.draw_table(surface, pygame.Rect(body.left, y, body.width, body.bottom - y), compact=False)

    def draw_standings_page(self, surface, body: pygame.Rect) -> None:
        theme = self.app.theme
        title = _("Final standings") if self.model.phase == "final" else _("Standings")
        self.text(surface, title, (body.left, body.top + self.u(6)), 48, theme.accent, bold=True)
        self.draw_table(surface, pygame.Rect(body.left, body.top + self.u(90), body.width,
                                             body.height - self.u(90)), compact=False)

    def draw_table(self, surface, area: pygame.Rect, compact: bool) -> None:
        """The standings as big as the area allows: rank, colour, name, points, W-D-L
        and the rating (the last two left out where the area is narrow)."""
        theme = self.app.theme
        table = self.model.follower.standings if isinstance(self.model.follower.standings, dict) else {}
        rows = table.get("standings")
        rows = [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []
        if not rows or area.height < self.u(60):
            if area.height >= self.u(60):
                self.text(surface, _("No results yet"), (area.left, area.top), 34, theme.muted)
            return
        size = 34 if compact else 42
        line = self.u(size * 1.55)
        wide = area.width > self.u(900)
        columns = [("rank", _("#"), 70), ("name", _("Contestant"), 0), ("points", _("Points"), 170)]
        if wide:
            columns += [("wdl", _("W-D-L"), 230), ("rating", _("Rating"), 320)]
        fixed = sum(self.u(w) for _k, _h, w in columns)
        name_w = max(self.u(120), area.width - fixed)
        xs, x = [], area.left
        for key, _head, w in columns:
            xs.append(x)
            x += name_w if key == "name" else self.u(w)
        y = area.top
        for (key, head, w), cx in zip(columns, xs):
            align = "left" if key in ("name", "rank") else "right"
            pos = (cx + (self.u(w) - self.u(16) if align == "right" else self.u(12)), y)
            self.text(surface, head, pos, size * 0.75, theme.muted, bold=True, align=align)
        y += self.u(size * 1.2)
        for index, row in enumerate(rows):
            more_room = self.u(size) if index < len(rows) - 1 else 0     # for "and N more"
            if y + line + more_room > area.bottom:
                more = len(rows) - index
                self.text(surface, _("and {n} more").format(n=more), (area.left + self.u(12), y), size * 0.7,
                          theme.muted)
                break
            if index % 2 == 0:
                pygame.draw.rect(surface, theme.panel, (area.left, y, area.width, line - self.u(4)),
                                 border_radius=self.u(8))
            name = str(row.get("name", ""))
            values = {"rank": str(row.get("rank", "")), "name": name,
                      "points": _number(row.get("points", 0)),
                      "wdl": f"{row.get('wins', 0)}-{row.get('draws', 0)}-{row.get('losses', 0)}",
                      "rating": _rating(row)}
            ty = y + (line - self.u(4) - self.u(size * 1.36)) // 2
            for (key, _head, w), cx in zip(columns, xs):
                colour = theme.accent if values["rank"] == "1" and key in ("rank", "name") else theme.text
                if key == "name":       # no colour here: a contestant's colour is its seat's
                    self.text(surface, name, (cx + self.u(12), ty), size, colour, bold=True,
                              width=name_w - self.u(24))
                elif key == "rank":
                    self.text(surface, values[key], (cx + self.u(12), ty), size, colour, bold=True)
                else:
                    self.text(surface, values[key], (cx + self.u(w) - self.u(16), ty), size, colour,
                              align="right", mono=key != "points")
            y += line


def two_lines(text: str, width) -> list[str]:
    """``text`` broken at the space that makes its longer half shortest (``width``
    measures a line); one line when it has no space."""
    words = text.split(" ")
    if len(words) < 2:
        return [text]
    splits = [(" ".join(words[:n]), " ".join(words[n:])) for n in range(1, len(words))]
    return list(min(splits, key=lambda pair: max(width(pair[0]), width(pair[1]))))


def caption_lines(names: list[str], fits) -> list[str]:
    """A match's names as one line when ``fits`` says it does, else two (the first half
    of the names, then the rest)."""
    whole = " – ".join(names)
    if fits(whole) or len(names) < 2:
        return [whole]
    half = (len(names) + 1) // 2
    return [" – ".join(names[:half]), " – ".join(names[half:])]


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    return f"{seconds // 60}:{seconds % 60:02d}"


def _number(value) -> str:
    try:
        value = float(value)
    except (TypeError, ValueError):
        return ""
    return str(int(value)) if value.is_integer() else f"{value:.1f}"


def _rating(row: dict) -> str:
    try:
        if "elo" in row:
            elo = round(float(row["elo"])) or 0
            return f"{elo:+d} ± {float(row['elo_error']):.0f}"
        if "mu" in row:
            return f"{float(row['mu']):.1f} ± {float(row['sigma']):.1f}"
    except (TypeError, ValueError, KeyError):
        pass
    return ""


def _result(names: list[str], outcome, error: str) -> str:
    """One line for a finished match: who won (or the scores), or why it could not be read."""
    if outcome is None:
        return _("Record unreadable: {why}").format(why=error[:80]) if error else ""
    if len(names) == 2 and len(outcome.ranks) == 2:
        first, second = outcome.ranks
        if first == second:
            return _("{a} and {b} draw").format(a=names[0], b=names[1])
        winner, loser = (names[0], names[1]) if first < second else (names[1], names[0])
        return _("{winner} beats {loser}").format(winner=winner, loser=loser)
    try:
        return rules_text(outcome.result_text(names))
    except Exception:
        return ""


def open_projection(args, request) -> "object":
    """The window for ``arena project`` / ``arena tournament --project``: fullscreen on the
    chosen display (or windowed), the tournament screen beneath the projection."""
    from ui.app import App, parse_window_size
    from ui.scenes.home import HomeScene
    from ui.scenes.tournament import TournamentScene
    from ui.settings import load_settings
    settings = load_settings()
    size = parse_window_size(getattr(args, "size", None))     # `arena --size WxH project` or `project --size`
    windowed = getattr(request, "windowed", False) or size is not None
    app = App(settings, size=size, fullscreen=not windowed, display=request.display)
    app.push(HomeScene(app))
    app.push(TournamentScene(app, request.folder, request.thread, request.log, request.error))
    app.push(ProjectionScene(app, request.folder, request.thread))
    return app
