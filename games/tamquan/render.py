"""Cờ Tam Quân in pygame: the grid, the zones, the teams' pieces and a side panel.

Cell ``(row, col)`` is row ``row`` from the top, column ``col`` from the left, as in
STATE.INP.  Each team has the theme's colour for its seat (Okabe-Ito, colour-blind
safe), its own marker shape (circle, square, triangle, diamond) and its letter on the
piece, so teams differ by more than colour.

During setup the free zones are shaded and numbered; a taken zone is tinted with its
team's colour.  After a turn the board shows what it did (``state.marks``): each
member's step as an arrow with its number in the order, and each capture as a cross
in the captured team's colour with the capturing pieces ringed.  A replay therefore
shows the order of the steps and who took what.

A person plays by clicks: during setup, a cell of a free zone (choosing the zone and
placing a member there; click a placed piece again to lift it) until the team is
placed; during a turn, a member then an empty neighbouring cell, for each member in
the order wanted (a member with no empty neighbour is clicked to make it stay;
members left with no empty neighbour stay on their own).  Backspace takes back the
last placement or step; right click drops the selection.  The keyboard does the same:
the arrows move a pointer over the cells and Enter or Space clicks the cell under it.
The move is sent when complete.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from games.render import (CONFIRM_KEYS, BoardRenderer, BoardView, GridCursor, GridLayout, Theme,
                          contrast_text, draw_labels, elide, font, grid_labels, mix, wrap)
from games.render.grid import fit_grid
from games.language import _, ngettext
from runner.messages import translated
from games.render.grid import split_area
from games.render.shapes import region_outline, shape_points
from games.tamquan.rules import (EMPTY, LETTERS, Placement, Steps, TamQuanState, cell_text,
                                 format_move)

Cell = tuple[int, int]
SHAPES = ("circle", "square", "triangle", "diamond")
COORD_MARGIN = 0.9


@dataclass
class Pending:
    """A person's move being built: for which position and team, and what so far."""

    key: tuple
    zone: int | None = None
    cells: list[Cell] = field(default_factory=list)
    steps: list[tuple[Cell, Cell]] = field(default_factory=list)


def board_after(state: TamQuanState, team: int, steps) -> list[int]:
    """The board after ``steps`` of ``team`` (unchecked; for the person's input)."""
    board = list(state.cells)
    L = state.layout
    for a, b in steps:
        board[L.index(a)] = EMPTY
        board[L.index(b)] = team
    return board


def free_neighbours(state: TamQuanState, board: list[int], cell: Cell) -> list[Cell]:
    L = state.layout
    return [L.cell(q) for q in L.neighbours[L.index(cell)] if board[q] < 0]


def waiting_members(state: TamQuanState, team: int, steps) -> list[Cell]:
    """Members of ``team`` that have not stepped yet, in reading order."""
    board = board_after(state, team, steps)
    done = {b for _, b in steps}
    L = state.layout
    return [L.cell(p) for p in range(len(board)) if board[p] == team and L.cell(p) not in done]


def close_turn(state: TamQuanState, team: int, steps: list) -> list:
    """Let the waiting members stay when none of them has an empty neighbour."""
    board = board_after(state, team, steps)
    waiting = waiting_members(state, team, steps)
    if waiting and all(not free_neighbours(state, board, c) for c in waiting):
        steps = steps + [(c, c) for c in waiting]
    return steps


def _step_refusal(state: TamQuanState, board: list[int], waiting: list[Cell], selected, cell: Cell) -> str:
    """Why a click during a team's turn did nothing (translated)."""
    if selected in waiting:
        return _("{cell} is not an empty cell beside {piece} (up, down, left or right).").format(
            cell=cell_text(cell), piece=cell_text(selected))
    if board[state.layout.index(cell)] >= 0:
        return _("{cell} is not one of your pieces still to step: click one of them.").format(
            cell=cell_text(cell))
    return _("Click one of your pieces still to step first, then an empty cell beside it.")


def zone_of_cell(state: TamQuanState, cell: Cell) -> int | None:
    for k, zone in enumerate(state.layout.zones):
        if cell in zone:
            return k
    return None


class TamQuanRenderer(BoardRenderer):
    """Draws a :class:`games.tamquan.rules.TamQuanState`; clicks build a team's move."""

    def __init__(self, game, options, seat_names=None, theme: Theme | None = None):
        super().__init__(game, options, seat_names, **({"theme": theme} if theme else {}))
        self.layout: GridLayout | None = None
        self.pending: Pending | None = None
        self._sprites: dict[tuple, pygame.Surface] = {}

    # ------------------------------------------------------------ helpers
    @property
    def floor(self) -> tuple:
        return mix(self.theme.board, (255, 255, 255), 0.45)

    def team_name(self, team: int) -> str:
        return f"Team {LETTERS[team]}"

    def _pending_for(self, state: TamQuanState, seat: int | None) -> Pending | None:
        if seat is None or seat not in state.to_move():
            return None
        key = (id(state.layout), state.turns, seat, tuple(state.cells))
        if self.pending is None or self.pending.key != key:
            self.pending = Pending(key)
        return self.pending

    def piece_sprite(self, team: int, size: int, ghost: bool = False) -> pygame.Surface:
        colour = self.seat_colour(team)
        key = ("piece", team, size, colour, ghost)
        sprite = self._sprites.get(key)
        if sprite is None:
            sprite = self._sprites[key] = self._make_piece(team, size, colour, ghost)
            if len(self._sprites) > 64:
                self._sprites.pop(next(iter(self._sprites)))
        return sprite

    @staticmethod
    def _make_piece(team: int, size: int, colour: tuple, ghost: bool) -> pygame.Surface:
        scale = 4
        n = max(4, size) * scale
        big = pygame.Surface((n, n), pygame.SRCALPHA)
        c = n / 2
        shape = SHAPES[team % len(SHAPES)]
        if ghost:
            pygame.draw.polygon(big, (*colour[:3], 110), shape_points(shape, c, c, c * 0.9))
            pygame.draw.polygon(big, (*colour[:3], 230), shape_points(shape, c, c, c * 0.9), max(2, n // 14))
        else:
            pygame.draw.polygon(big, (20, 20, 26), shape_points(shape, c, c, c * 0.98))
            pygame.draw.polygon(big, (250, 250, 250), shape_points(shape, c, c, c * 0.86))
            pygame.draw.polygon(big, colour, shape_points(shape, c, c, c * 0.74))
        small = pygame.transform.smoothscale(big, (max(4, size), max(4, size)))
        if not ghost and size >= 14:
            face = font(max(7, int(size * 0.36)), bold=True)
            ink = contrast_text(colour)
            letter = face.render(LETTERS[team], True, ink)
            dy = size * 0.08 if shape == "triangle" else 0
            small.blit(letter, letter.get_rect(center=(size / 2, size / 2 + dy)))
        return small

    # ------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, rect: pygame.Rect, state: TamQuanState, view: BoardView) -> None:
        rect = pygame.Rect(rect)
        if rect.width < 8 or rect.height < 8:
            return
        n = state.layout.size
        if view.highlights.get("panel", True):
            board_rect, panel_rect, _ = split_area(rect, n, n, view.show_coordinates)
        else:
            board_rect, panel_rect = rect, None
        margin = COORD_MARGIN if view.show_coordinates else 0.0
        local = fit_grid(n, n, board_rect.width, board_rect.height, (margin, margin, 0.0, 0.0), 0.03)
        layout = local.translated(*board_rect.topleft)
        self.layout = layout
        pending = self._pending_for(state, view.human_seat)
        self._draw_grid(surface, layout, state, view)
        if state.setup:
            self._draw_zones(surface, layout, state, pending)
        board = list(state.cells)
        if pending is not None and not state.setup:
            board = board_after(state, view.human_seat, pending.steps)
        self._draw_pieces(surface, layout, state, board)
        if pending is None or (not pending.steps and not pending.cells):
            self._draw_marks(surface, layout, state)
        if pending is not None:
            self._draw_pending(surface, layout, state, view, pending, board)
        if panel_rect is not None:
            self._draw_panel(surface, panel_rect, state, view, pending)

    def _draw_grid(self, surface, layout: GridLayout, state, view) -> None:
        n = state.layout.size
        grid = layout.grid_rect()
        pygame.draw.rect(surface, self.theme.line, grid.inflate(4, 4))
        for r in range(n):
            for c in range(n):
                cell = layout.cell_rect(r, c)
                inner = pygame.Rect(cell.x + 1, cell.y + 1, cell.width - 1, cell.height - 1)
                surface.fill(self.floor, inner)
        if view.show_coordinates:
            names = [str(i) for i in range(n)]
            labels = grid_labels(layout, names, names, COORD_MARGIN / 2, sides="lt")
            draw_labels(surface, labels, font(max(7, int(layout.cell * 0.3))), self.theme.muted)

    def _tint(self, surface, layout: GridLayout, cell: Cell, colour: tuple, alpha: int) -> None:
        rect = layout.cell_rect(*cell)
        inner = pygame.Rect(rect.x + 1, rect.y + 1, rect.width - 1, rect.height - 1)
        tint = pygame.Surface(inner.size, pygame.SRCALPHA)
        tint.fill((*colour[:3], alpha))
        surface.blit(tint, inner.topleft)

    def _draw_zones(self, surface, layout: GridLayout, state: TamQuanState, pending) -> None:
        owner = {k: t for t, k in enumerate(state.zone_of) if k is not None}
        free = set(state.free_zones())
        label_face = font(max(8, int(layout.cell * 0.26)), bold=True)
        for k, zone in enumerate(state.layout.zones):
            chosen = pending is not None and pending.zone == k
            if k in owner:
                colour, alpha = self.seat_colour(owner[k]), 70
            elif k in free:
                colour, alpha = self.theme.accent, 120 if chosen else 70
            else:
                continue
            for cell in zone:
                self._tint(surface, layout, cell, colour, alpha)
            if k in owner:
                continue
            width = max(2, int(layout.cell / (12 if chosen else 18)))
            for a, b in region_outline(zone):
                pygame.draw.line(surface, self.theme.accent, layout.corner(*a), layout.corner(*b), width)
            first = min(zone)
            rect = layout.cell_rect(*first)
            label = label_face.render(_("zone {n}").format(n=k + 1), True, (25, 25, 30))
            back = label.get_rect(topleft=(rect.x + 3, rect.y + 2)).inflate(6, 2)
            back.topleft = (rect.x + 2, rect.y + 2)
            pygame.draw.rect(surface, mix(self.floor, (255, 255, 255), 0.5), back, border_radius=3)
            surface.blit(label, label.get_rect(center=back.center))

    def _draw_pieces(self, surface, layout: GridLayout, state: TamQuanState, board: list[int]) -> None:
        size = max(4, int(layout.cell * 0.78))
        n = state.layout.size
        for p, team in enumerate(board):
            if team < 0:
                continue
            r, c = divmod(p, n)
            sprite = self.piece_sprite(team, size)
            surface.blit(sprite, sprite.get_rect(center=layout.cell_rect(r, c).center))

    def _arrow(self, surface, layout: GridLayout, a: Cell, b: Cell, colour: tuple, number: int) -> None:
        start = layout.centre(*a)
        end = layout.centre(*b)
        width = max(2, int(layout.cell / 14))
        if a != b:
            dx, dy = end[0] - start[0], end[1] - start[1]
            length = math.hypot(dx, dy) or 1
            ux, uy = dx / length, dy / length
            tip = (end[0] - ux * layout.cell * 0.36, end[1] - uy * layout.cell * 0.36)
            base = start
            pygame.draw.line(surface, (20, 20, 26), base, tip, width + 3)
            pygame.draw.line(surface, colour, base, tip, width)
            head = layout.cell * 0.2
            left = (tip[0] - ux * head - uy * head * 0.7, tip[1] - uy * head + ux * head * 0.7)
            right = (tip[0] - ux * head + uy * head * 0.7, tip[1] - uy * head - ux * head * 0.7)
            pygame.draw.polygon(surface, (20, 20, 26), [tip, left, right])
            pygame.draw.polygon(surface, colour, [tip, left, right], 0)
            badge = start
        else:
            badge = (start[0] + layout.cell * 0.3, start[1] - layout.cell * 0.3)
        radius = max(8, int(layout.cell * 0.18))
        pygame.draw.circle(surface, (20, 20, 26), badge, radius + 2)
        pygame.draw.circle(surface, colour, badge, radius)
        face = font(max(9, int(radius * 1.6)), bold=True)
        label = face.render(str(number), True, contrast_text(colour))
        surface.blit(label, label.get_rect(center=(round(badge[0]), round(badge[1]))))

    def _draw_marks(self, surface, layout: GridLayout, state: TamQuanState) -> None:
        marks = state.marks
        if marks.team < 0:
            return
        colour = mix(self.seat_colour(marks.team), (255, 255, 255), 0.35)
        for index, (a, b) in enumerate(marks.steps, 1):
            self._arrow(surface, layout, a, b, colour, index)
        ring_w = max(2, int(layout.cell / 12))
        cross_w = max(3, int(layout.cell / 9))
        for phase, team, victim, victim_team, helpers in marks.captures:
            centre = layout.centre(*victim)
            for h in helpers:
                rect = layout.cell_rect(*h).inflate(-2, -2)
                pygame.draw.rect(surface, self.theme.bad, rect, ring_w, border_radius=max(2, rect.width // 6))
                towards = layout.centre(*h)
                mid = ((towards[0] + centre[0]) / 2, (towards[1] + centre[1]) / 2)
                pygame.draw.line(surface, (20, 20, 26), mid, centre, ring_w + 3)
                pygame.draw.line(surface, self.theme.bad, mid, centre, ring_w)
            rect = layout.cell_rect(*victim)
            ghost = self.piece_sprite(victim_team, max(4, int(layout.cell * 0.78)), ghost=True)
            surface.blit(ghost, ghost.get_rect(center=rect.center))
            s = layout.cell * 0.28
            cx, cy = rect.center
            for d in (1, -1):
                pygame.draw.line(surface, (20, 20, 26), (cx - s, cy - d * s), (cx + s, cy + d * s), cross_w + 3)
                pygame.draw.line(surface, self.theme.bad, (cx - s, cy - d * s), (cx + s, cy + d * s), cross_w)

    def _draw_pending(self, surface, layout: GridLayout, state, view, pending: Pending, board) -> None:
        team = view.human_seat
        colour = self.theme.accent
        if state.setup:
            for cell in pending.cells:
                ghost = self.piece_sprite(team, max(4, int(layout.cell * 0.78)))
                surface.blit(ghost, ghost.get_rect(center=layout.cell_rect(*cell).center))
            self._draw_pointer(surface, layout, view)
            return
        for index, (a, b) in enumerate(pending.steps, 1):
            self._arrow(surface, layout, a, b, colour, index)
        selected = view.selected
        width = max(2, int(layout.cell / 14))
        self._draw_pointer(surface, layout, view)
        waiting = waiting_members(state, team, pending.steps)
        for cell in waiting:
            rect = layout.cell_rect(*cell).inflate(-4, -4)
            pygame.draw.rect(surface, colour if cell == selected else self.theme.muted, rect,
                             width + (2 if cell == selected else 0), border_radius=4)
        if selected in waiting:
            for cell in free_neighbours(state, board, selected):
                pygame.draw.circle(surface, colour, layout.centre(*cell), max(3, int(layout.cell * 0.12)))

    def _draw_pointer(self, surface, layout: GridLayout, view) -> None:
        """The cell under the mouse or the keyboard pointer: a dashed-looking thin frame."""
        cell = view.hover
        if not (isinstance(cell, tuple) and len(cell) == 2 and 0 <= cell[0] < layout.rows
                and 0 <= cell[1] < layout.cols):
            return
        rect = layout.cell_rect(*cell).inflate(-max(2, int(layout.cell / 10)), -max(2, int(layout.cell / 10)))
        pygame.draw.rect(surface, self.theme.text, rect, max(1, int(layout.cell / 30)), border_radius=3)

    # ------------------------------------------------------------ panel
    def _draw_panel(self, surface, rect: pygame.Rect, state: TamQuanState, view, pending) -> None:
        theme = self.theme
        pad = max(6, rect.width // 28)
        inner = rect.inflate(-2 * pad, -2 * pad)
        if inner.width < 40 or inner.height < 40:
            return
        pygame.draw.rect(surface, theme.panel, rect.inflate(-pad // 2, -pad // 2), border_radius=8)
        line_h = max(22, min(inner.height // 11, inner.width // 8))
        big = font(int(line_h * 0.6), bold=True)
        small = font(max(13, int(line_h * 0.5)))
        y = inner.top
        counts = state.piece_counts()
        L = state.layout
        for team in range(L.teams):
            sprite = self.piece_sprite(team, int(line_h * 0.9))
            surface.blit(sprite, sprite.get_rect(midleft=(inner.left, y + line_h / 2)))
            on_turn = team in state.to_move()
            if state.out[team]:
                status = "left"
            elif not state.setup and counts[team] == 0:
                status = "out"
            elif state.setup and state.zone_of[team] is None:
                status = "to place"
            else:
                status = f"{counts[team]} piece" + ("s" if counts[team] != 1 else "")
            name = LETTERS[team]
            if team < len(self.seat_names) and self.seat_names[team]:
                name += f" · {self.seat_names[team]}"
            colour = theme.accent if on_turn else theme.text
            x = inner.left + int(line_h * 1.1)
            right = small.render(status, True, theme.muted if status in ("out", "left") else theme.text)
            room = inner.right - x - right.get_width() - pad
            label = big.render(elide(big, name, max(10, room)), True, colour)
            surface.blit(label, label.get_rect(midleft=(x, y + line_h / 2)))
            surface.blit(right, right.get_rect(midright=(inner.right, y + line_h / 2)))
            y += line_h
        y += line_h // 3
        if state.setup:
            status = _("Setup: {team} picks a zone").format(team=self.team_name(state.current))
        elif state.finished:
            status = translated(state.finished.detail)
        else:
            status = _("Turn {n} of {last}: {team}").format(n=state.play_turns + 1, last=L.turn_limit,
                                                             team=self.team_name(state.current))
        for line in wrap(small, status, inner.width, 3):
            surface.blit(small.render(line, True, theme.text), (inner.left, y))
            y += small.get_linesize()
        y += line_h // 4
        lines = self.turn_lines(state, pending, view)
        for text in lines:
            for line in wrap(small, text, inner.width):
                if y + small.get_linesize() > inner.bottom:
                    return
                surface.blit(small.render(line, True, theme.muted), (inner.left, y))
                y += small.get_linesize()

    def turn_lines(self, state: TamQuanState, pending, view) -> list[str]:
        """What the panel says under the teams: the person's task, or the last turn."""
        if pending is not None:
            if state.setup:
                need = state.layout.members - len(pending.cells)
                if pending.zone is None:
                    return [_("Click a cell of a shaded zone to take it and place a piece there.")]
                return [ngettext("Zone {zone}: place {n} more piece. Click a placed piece to lift it; "
                                 "Backspace undoes.",
                                 "Zone {zone}: place {n} more pieces. Click a placed piece to lift it; "
                                 "Backspace undoes.", need).format(zone=pending.zone + 1, n=need)]
            left = len(waiting_members(state, view.human_seat, pending.steps))
            return [ngettext("{n} piece still to step: click a piece, then an empty neighbouring cell. "
                             "Backspace undoes a step.",
                             "{n} pieces still to step: click a piece, then an empty neighbouring cell. "
                             "Backspace undoes a step.", left).format(n=left)]
        marks = state.marks
        if marks.team < 0:
            return []
        lines = []
        if marks.placement is not None:
            lines.append(_("{team} took zone {zone}.").format(team=self.team_name(marks.team),
                                                               zone=marks.placement.zone + 1))
        if marks.steps:
            lines.append(_("{team} stepped: ").format(team=self.team_name(marks.team))
                         + ", ".join(f"{i}. {cell_text(a)}-{cell_text(b)}"
                                     for i, (a, b) in enumerate(marks.steps, 1)))
        for phase, team, victim, victim_team, helpers in marks.captures:
            when = _("after moving") if phase == "after" else _("before moving")
            lines.append(_("{team} took {victim} at {cell} {when}").format(
                team=self.team_name(team), victim=LETTERS[victim_team], cell=cell_text(victim), when=when))
        return lines

    # ------------------------------------------------------------ input
    def handle_event(self, event: pygame.event.Event, state: TamQuanState, view: BoardView) -> str | None:
        seat = view.human_seat
        pending = self._pending_for(state, seat)
        if pending is None or self.layout is None:
            return None
        if event.type == pygame.KEYDOWN and event.key == pygame.K_BACKSPACE:
            if pending.cells:
                pending.cells.pop()
                if not pending.cells:
                    pending.zone = None
            elif pending.steps:
                pending.steps.pop()
            view.selected = None
            return None
        if event.type == pygame.KEYDOWN:
            n = state.layout.size
            cursor = GridCursor(n, n)
            if event.key in CONFIRM_KEYS and cursor.contains(view.hover):
                return self.click(state, seat, view.hover, view)
            moved = cursor.move(view.hover if cursor.contains(view.hover) else None, event.key,
                                self._home(state, seat))
            if moved is not None:
                view.hover = moved
            return None
        if event.type == pygame.MOUSEMOTION:
            view.hover = self.layout.cell_at(*event.pos)
            return None
        if event.type != pygame.MOUSEBUTTONDOWN:
            return None
        if event.button == 3:
            view.selected = None
            return None
        if event.button != 1:
            return None
        cell = self.layout.cell_at(*event.pos)
        if cell is None:
            return None
        return self.click(state, seat, cell, view)

    @staticmethod
    def _home(state: TamQuanState, seat: int) -> Cell:
        """Where the keyboard pointer appears: the first free zone cell, or a piece of ``seat``."""
        if state.setup:
            free = state.free_zones()
            return min(state.layout.zones[free[0]]) if free else (0, 0)
        pieces = state.pieces(seat)
        return pieces[0] if pieces else (0, 0)

    def click(self, state: TamQuanState, seat: int, cell: Cell, view: BoardView) -> str | None:
        """A person's click on ``cell``; the move text once the move is complete."""
        pending = self._pending_for(state, seat)
        if pending is None:
            return None
        if state.setup:
            zone = zone_of_cell(state, cell)
            if cell in pending.cells:
                pending.cells.remove(cell)
                if not pending.cells:
                    pending.zone = None
                return None
            if zone is None or zone not in state.free_zones():
                view.refusal = (_("{cell} is outside the free zones: place your team in a shaded zone.")
                                if zone is None else
                                _("That zone is taken: place your team in a shaded zone.")).format(
                                    cell=cell_text(cell))
                return None
            if pending.zone is not None and zone != pending.zone:
                if pending.cells:
                    view.refusal = _("All your members go in one zone: finish the zone you started "
                                     "(Backspace takes a piece back).")
                    return None
            pending.zone = zone
            pending.cells.append(cell)
            if len(pending.cells) == state.layout.members:
                move = Placement(zone, tuple(pending.cells))
                return format_move(move)
            return None
        board = board_after(state, seat, pending.steps)
        waiting = waiting_members(state, seat, pending.steps)
        if cell in waiting:
            if not free_neighbours(state, board, cell):
                pending.steps.append((cell, cell))
                view.selected = None
            else:
                view.selected = cell
        elif view.selected in waiting and cell in free_neighbours(state, board, view.selected):
            pending.steps.append((view.selected, cell))
            view.selected = None
        else:
            view.refusal = _step_refusal(state, board, waiting, view.selected, cell)
            return None
        pending.steps = close_turn(state, seat, pending.steps)
        if not waiting_members(state, seat, pending.steps):
            return format_move(Steps(tuple(pending.steps)))
        return None
