"""Robot Đại Chiến's side panel: the turn and shrink lines, a block per player (marker,
name, score, item and timer, or why the robot is out) and the line chart of the scores so
far, in letters readable from the back of a room.

:class:`RobotPanel` is a part of :class:`games.robot.render.RobotRenderer` (it uses the
renderer's theme, markers, item icons and seat names).
"""
from __future__ import annotations

import re

import pygame

from games.render import BoardView, elide, font, wrap
from games.render.shapes import star_points
from games.robot.render_geometry import chart_history, shrink_warning_ring
from games.robot.rules import COLOURS, RobotState
from games.language import _, ngettext
from runner.messages import translated


def short_command(text: str) -> str:
    """A command with its folders dropped ("A: python3 …/greedy.py --depth 3"), so that a
    program's seat keeps the name of its file when its line must be shortened."""
    return re.sub(r"(?:[^\s/\\]*[/\\])+(?=[^\s/\\])", "…/", text)


def fitting_size(text: str, size: int, smallest: int, width: int, bold: bool = False) -> int:
    """The largest font size from ``size`` down to ``smallest`` at which ``text`` fits
    ``width`` pixels (``smallest`` when none does).  Text width grows with the size,
    so one estimate and a step or two load few fonts."""
    wide = font(size, bold=bold).size(text)[0]
    if wide <= width or width <= 0:
        return size
    size = max(smallest, min(size - 1, int(size * width / wide)))
    while size > smallest and font(size, bold=bold).size(text)[0] > width:
        size -= 1
    return size


class RobotPanel:
    """The side panel's drawing and texts, for :class:`games.robot.render.RobotRenderer`."""

    # ------------------------------------------------------------------ side panel
    def _draw_panel(self, surface: pygame.Surface, rect: pygame.Rect, state: RobotState, view: BoardView) -> None:
        """Turn and shrink line, one block per player, and the score chart."""
        # a short panel (debug log open) still has room for every player's block
        unit = max(11, min(rect.width // 13, surface.get_height() // 30, rect.height // 9,
                           int(rect.height / (5 + 3.5 * state.players))))
        if rect.height < rect.width * 0.6:             # a strip below the board: players | chart
            unit = max(11, min(rect.height // 13, rect.width // 32))
        pad = max(4, unit // 2)
        box = rect.inflate(-pad, -pad)
        pygame.draw.rect(surface, self.theme.panel, box, border_radius=max(2, unit // 3))
        inner = box.inflate(-pad, -pad)
        clip = surface.get_clip()
        surface.set_clip(box.clip(clip) if clip else box)
        try:
            if rect.height < rect.width * 0.6:
                left = pygame.Rect(inner.x, inner.y, int(inner.width * 0.55), inner.height)
                chart = pygame.Rect(left.right + pad, inner.y, inner.right - left.right - pad, inner.height)
                # a strip has room for every player's name and score, not for their "in play" lines
                self._panel_text(surface, left, state, unit, compact=state.players > 2)
                self._draw_chart(surface, chart, state, unit)
            else:
                bottom = self._panel_text(surface, inner, state, unit)
                chart = pygame.Rect(inner.x, bottom + unit // 2, inner.width, inner.bottom - bottom - unit // 2)
                if chart.height >= unit * 3:
                    self._draw_chart(surface, chart, state, unit)
        finally:
            surface.set_clip(clip)

    def _text(self, surface, text: str, size: int, colour: tuple, x: int, y: int, bold: bool = False,
              right: int | None = None) -> pygame.Rect:
        image = font(size, bold=bold).render(text, True, colour)
        place = image.get_rect(topleft=(x, y)) if right is None else image.get_rect(topright=(right, y))
        surface.blit(image, place)
        return place

    def headline(self, state: RobotState) -> tuple[str, str, bool]:
        """(turn line, shrink line, whether the shrink line is a warning) for the panel."""
        if state.finished:
            outcome = state.outcome()
            if outcome and outcome.winners:
                names = ", ".join(self.seat_name(s) for s in outcome.winners)
                return (_("Game over after {turns} turns").format(turns=state.turn),
                        _("Winner: {names}").format(names=names), False)
            return _("Game over after {turns} turns").format(turns=state.turn), _("Draw"), False
        turn = _("Turn 0: placement") if state.turn == 0 else _("Turn {n}").format(n=state.turn)
        shrink = state.next_shrink_turn()
        if shrink is None:
            return turn, _("No more shrinks"), False
        if shrink_warning_ring(state) is not None:
            return turn, _("Outlined ring is sealed after this turn!"), True
        left = shrink - state.turn
        return turn, _("Shrink after turn {turn} (in {count} turns)").format(turn=shrink, count=left + 1), False

    def status(self, state: RobotState, seat: int) -> tuple[str, str | None, bool]:
        """(text, item icon kind or None, whether it is bad news) for one player's status line."""
        robot = state.robots[seat]
        if not robot.in_game and not state.finished:
            when = _(" (turn {n})").format(n=robot.left_turn) if robot.left_turn is not None else ""
            return _("Out{when}: {why}").format(when=when, why=translated(robot.why) or _("left the game")), None, True
        if state.finished:
            return "", None, False
        if robot.on_oil:
            return _("On oil: must step off now"), "F", True
        if robot.speed_turns > 0:
            return ngettext("Speed: {n} turn left", "Speed: {n} turns left",
                            robot.speed_turns).format(n=robot.speed_turns), "G", False
        if robot.oil_turns > 0:
            return ngettext("Oil: {n} turn to use", "Oil: {n} turns to use",
                            robot.oil_turns).format(n=robot.oil_turns), "F", False
        if robot.pos is None:
            return _("Choosing a start cell"), None, False
        x, y = state.board.xy(robot.pos)
        return _("In play at {x} {y}").format(x=x, y=y), None, False

    def _panel_text(self, surface, rect: pygame.Rect, state: RobotState, unit: int, compact: bool = False) -> int:
        """Headline and player blocks from the top of ``rect``; returns the y below them.
        ``compact`` keeps one shrink line and, per player, only a robot-out line."""
        theme = self.theme
        y = rect.y
        turn, shrink, warning = self.headline(state)
        head_size = int(unit * 1.25)
        wide = font(head_size, bold=True).size(turn)[0]
        if wide > rect.width:               # a smaller headline before an ellipsis: text width
            head_size = max(unit, int(head_size * rect.width / wide))      # scales with the size,
            while head_size > unit and font(head_size, bold=True).size(turn)[0] > rect.width:
                head_size -= 1              # so this rarely loads a second size
        for line in wrap(font(head_size, bold=True), turn, rect.width)[:2]:    # then two lines
            line = self._fit(line, head_size, rect.width, bold=True)
            y = self._text(surface, line, head_size, theme.text, rect.x, y, bold=True).bottom
        for line in wrap(font(int(unit * 0.85), bold=warning), shrink, rect.width)[:1 if compact else 2]:
            line = self._fit(line, int(unit * 0.85), rect.width, bold=warning)   # a word wider than the panel
            y = self._text(surface, line, int(unit * 0.85), theme.bad if warning else theme.muted, rect.x, y,
                           bold=warning).bottom
        y += unit // 3
        scores = state.scores()
        best = max(scores) if scores else 0
        line_size = int(unit * 0.8)
        # compact: tighter rows, so four players fit the strip of a small picture
        score_size, row_step = (int(unit * 1.05), int(unit * 1.3)) if compact else (int(unit * 1.3), int(unit * 1.5))
        gap = unit // 8 if compact else unit // 3
        rows = max(1, (rect.bottom - y) // (row_step + gap))
        if compact and state.players > rows:       # two columns of names and scores, no status lines
            half = rect.width // 2
            per_column = -(-state.players // 2)
            for seat in range(state.players):
                column, row = divmod(seat, per_column)
                cell = pygame.Rect(rect.x + column * half, y + row * (row_step + gap), half - unit, row_step)
                if cell.bottom <= rect.bottom + gap:
                    self._seat_line(surface, cell, state, seat, unit, score_size,
                                    state.finished and scores[seat] == best > 0)
            return y + per_column * (row_step + gap)
        for seat in range(state.players):
            if y + unit * 1.4 > rect.bottom:
                break
            cell = pygame.Rect(rect.x, y, rect.width, row_step)
            score_bottom = self._seat_line(surface, cell, state, seat, unit, score_size,
                                           state.finished and scores[seat] == best > 0)
            y = max(score_bottom, y + row_step)
            text, icon, bad = self.status(state, seat)
            if text and (bad or not compact):
                x = rect.x + int(unit * 1.5)
                if icon:
                    sprite = self.item_icon(icon, int(line_size * 1.2))
                    surface.blit(sprite, sprite.get_rect(midleft=(x, y + line_size * 0.7)))
                    x += int(line_size * 1.4)
                for line in wrap(font(line_size), text, rect.right - x)[:1 if compact else 2]:
                    line = self._fit(line, line_size, rect.right - x)
                    y = self._text(surface, line, line_size, theme.bad if bad else theme.muted, x, y).bottom
            y += gap
        return y

    def _seat_line(self, surface, cell: pygame.Rect, state: RobotState, seat: int, unit: int,
                   score_size: int, starred: bool) -> int:
        """One player's marker, name and score across ``cell`` (a star before a winner's
        score); returns the score's bottom."""
        theme = self.theme
        marker = self.marker(seat, int(unit * 1.2), ghost=not state.robots[seat].in_game and not state.finished)
        surface.blit(marker, marker.get_rect(midleft=(cell.x, cell.y + int(unit * 0.75))))
        score_rect = self._text(surface, str(state.scores()[seat]), score_size, theme.text, 0, cell.y, bold=True,
                                right=cell.right)
        name_x = cell.x + int(unit * 1.5)
        name = self.seat_name(seat)
        if name != COLOURS[seat] and not name.startswith(f"{COLOURS[seat]}:"):
            name = f"{COLOURS[seat]}: {name}"      # "B: Bot (level 1)", not "Bot (level 1)"
        name_right = score_rect.x - (int(unit * 1.2) if starred else unit // 3)   # clear of the star
        size = fitting_size(name, unit, max(8, int(unit * 0.72)), name_right - name_x, bold=True)
        if font(size, bold=True).size(name)[0] > name_right - name_x:
            name = short_command(name)           # a program's command: its file's name, not its folders
        name = self._fit(name, size, name_right - name_x, bold=True)          # smaller, then cut
        self._text(surface, name, size, theme.text, name_x, cell.y + int(unit * 0.12) + (unit - size) // 2,
                   bold=True)
        if starred:                                                   # drawn: the font has no ★
            pygame.draw.polygon(surface, theme.accent, star_points(score_rect.x - unit * 0.6,
                                                                   score_rect.centery, unit * 0.45))
        return score_rect.bottom

    def _fit(self, text: str, size: int, width: int, bold: bool = False) -> str:
        """``text`` cut with an ellipsis to fit ``width`` pixels."""
        if width <= 0:
            return text
        return elide(font(size, bold=bold), text, width)       # a binary search, not a letter at a time


    def _draw_chart(self, surface, rect: pygame.Rect, state: RobotState, unit: int) -> None:
        """Each player's score after every turn, as lines ending in the player's marker."""
        history = chart_history(state)
        theme = self.theme
        small = max(9, int(unit * 0.7))
        heading = (_("Cells painted") if len(history) == state.turn + 1
                   else _("Cells painted (no history in this record)"))
        title = self._text(surface, self._fit(heading, small, rect.width), small, theme.muted, rect.x, rect.y)
        top_value = max(1, max(max(s) for s in history))
        label_w = font(small).size(str(top_value))[0] + unit // 3
        area = pygame.Rect(rect.x + label_w, title.bottom + unit // 3, rect.width - label_w - unit // 2,
                           rect.bottom - title.bottom - unit // 3 - font(small).get_linesize())
        if area.width < 10 or area.height < 10:
            return
        axis_w = max(1, unit // 14)
        pygame.draw.line(surface, theme.muted, area.bottomleft, area.bottomright, axis_w)
        pygame.draw.line(surface, theme.muted, area.topleft, area.bottomleft, axis_w)
        self._text(surface, str(top_value), small, theme.muted, 0, area.y - small // 2, right=area.x - unit // 6)
        self._text(surface, "0", small, theme.muted, 0, area.bottom - small // 2 - 2, right=area.x - unit // 6)
        self._text(surface, _("turn {n}").format(n=state.turn), small, theme.muted, 0, area.bottom + 2, right=area.right)
        if state.turn == 0:
            return
        turns = max(1, len(history) - 1)
        first = 0 if len(history) > 1 else 1          # a lone point (no history) sits at the right

        def point(i: int, value: int) -> tuple[int, int]:
            return (round(area.x + area.width * (i + first) / turns),
                    round(area.bottom - area.height * value / top_value))
        width = max(2, unit // 7)
        for seat in range(state.players):
            shift = round((seat - (state.players - 1) / 2) * width)      # equal scores: parallel lines
            points = [(px, py + shift) for px, py in (point(i, scores[seat]) for i, scores in enumerate(history))]
            if len(points) > 1:
                pygame.draw.lines(surface, self.seat_colour(seat), False, points, width)
            sprite = self.marker(seat, max(8, int(unit * 0.8)))
            surface.blit(sprite, sprite.get_rect(center=points[-1]))
