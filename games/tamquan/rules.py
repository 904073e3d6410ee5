"""Cờ Tam Quân rules: pure Python, standard library only (no files, clocks or screen).

Teams of pieces share an n×n board.  Setup: each team in turn picks a free zone and
places all its members in it.  Then the teams take turns; a turn is an opening capture
phase, every member stepping once (in the order the team chooses), and a closing
capture phase.  ``games/tamquan/RULES.md`` states the rules in full.

Representation: the board is a flat list of ``n * n`` ints, ``-1`` for an empty cell
and the team index (0 = ``A``, 1 = ``B``, 2 = ``C``, 3 = ``D``) for a piece; cell
``(row, col)`` is index ``row * n + col``, row 0 at the top.

The opening capture phase of a team's turn needs no decision, so it is played as soon
as the previous turn ends: the state a team is asked to move in already shows the
board after its opening captures.  ``apply`` therefore plays the mover's steps, its
closing captures, then the next team's opening captures.

Moves (values with a text form that round-trips through ``parse_move``/``format_move``):

* :class:`Placement` ``zone 2: 4,0 4,2 4,4`` — the zone number (1-based, in the
  variant's zone order) and the cells of all members (kept sorted);
* :class:`Steps` ``1,0-2,0 1,2-1,1 3,3-3,3`` — each member's ``from-to`` in the order
  played; ``from == to`` means the member stays, which is allowed only when it has no
  empty neighbour at its moment in the order.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from games.api import (Event, Game, GameKind, GameSetupError, GameSpec, IllegalMoveError, Message,
                       MoveSyntaxError, Option, Outcome, State, Termination, Variant)

LETTERS = "ABCD"
NAMES = ("A", "B", "C", "D")
EMPTY = -1
DEFAULT_TURN_LIMIT = 200

Cell = tuple[int, int]


# ---------------------------------------------------------------------- moves
@dataclass(frozen=True)
class Placement:
    """A team's setup move: the zone it takes (0-based index) and its members' cells."""

    zone: int
    cells: tuple[Cell, ...]

    def __post_init__(self):
        object.__setattr__(self, "cells", tuple(sorted(self.cells)))


@dataclass(frozen=True)
class Steps:
    """A team's turn: ``(from, to)`` for every member, in the order they step."""

    steps: tuple[tuple[Cell, Cell], ...]


_CELL = r"(\d{1,3}),(\d{1,3})"
_PLACEMENT_RE = re.compile(r"^\s*zone\s+(\d{1,3})\s*:((?:\s+\d{1,3},\d{1,3})*)\s*$", re.I)
_STEP_RE = re.compile(rf"^{_CELL}-{_CELL}$")
_CELL_RE = re.compile(rf"^{_CELL}$")
_ANY_CELL_RE = re.compile(r"^(\d{1,3})(?:,|\s+)(\d{1,3})$")


def cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def format_move(move: Placement | Steps) -> str:
    """``zone 2: 4,0 4,2 4,4`` or ``1,0-2,0 1,2-1,1`` (see the module docstring)."""
    if isinstance(move, Placement):
        return f"zone {move.zone + 1}:" + "".join(" " + cell_text(c) for c in move.cells)
    if isinstance(move, Steps):
        return " ".join(f"{cell_text(a)}-{cell_text(b)}" for a, b in move.steps)
    raise TypeError(f"not a Tam Quan move: {move!r}")


def parse_move(text: str) -> Placement | Steps:
    """Read :func:`format_move`'s text back (raise :class:`MoveSyntaxError`)."""
    if not isinstance(text, str):
        raise MoveSyntaxError("a move is text")
    match = _PLACEMENT_RE.match(text)
    if match:
        zone = int(match.group(1))
        if zone < 1:
            raise MoveSyntaxError(Message("zones are numbered from 1"))
        cells = []
        for word in match.group(2).split():
            r, c = word.split(",")
            cells.append((int(r), int(c)))
        return Placement(zone - 1, tuple(cells))
    words = text.split()
    steps = []
    for word in words:
        m = _STEP_RE.match(word)
        if not m:
            raise MoveSyntaxError(Message("expected 'zone K: R,C ...' or steps 'R,C-R,C ...', got {found}",
                                          found=repr(word[:30])))
        steps.append(((int(m.group(1)), int(m.group(2))), (int(m.group(3)), int(m.group(4)))))
    return Steps(tuple(steps))


_NUMBER = re.compile(r"(?<!\d)-?\d{1,6}")
MAX_ANSWER_CHARS = 4096


def loose_numbers(text: str, limit: int = 400) -> list[int]:
    """The whole numbers in ``text`` in order (at most ``limit``): what a repair reads,
    from a move's text (``1,0-2,0``) or a program's answer (``1 0 2 0``) alike."""
    return [int(x) for x in _NUMBER.findall(text[:MAX_ANSWER_CHARS])[:limit]]


# ---------------------------------------------------------------------- variant data
@dataclass(frozen=True)
class Layout:
    """The fixed data of one game: board size, teams, members, zones, turn limit."""

    size: int
    teams: int
    members: int
    zones: tuple[tuple[Cell, ...], ...]
    turn_limit: int = DEFAULT_TURN_LIMIT
    neighbours: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self):
        n = self.size
        if not 2 <= n <= 26:
            raise GameSetupError(Message("board size must be 2-26, not {size}", size=n))
        if not 2 <= self.teams <= len(LETTERS):
            raise GameSetupError(Message("Tam Quan takes 2-{most} teams, not {teams}", most=len(LETTERS),
                                         teams=self.teams))
        if self.members < 1:
            raise GameSetupError(Message("a team needs at least one member, not {members}", members=self.members))
        if self.turn_limit < 1:
            raise GameSetupError(Message("turn_limit must be at least 1, not {limit}", limit=self.turn_limit))
        if len(self.zones) < self.teams:
            raise GameSetupError(Message("{teams} teams need {teams} zones; only {zones} are defined",
                                         teams=self.teams, zones=len(self.zones)))
        seen: set[Cell] = set()
        for k, zone in enumerate(self.zones):
            for r, c in zone:
                if not (0 <= r < n and 0 <= c < n):
                    raise GameSetupError(Message("zone {zone}: cell {cell} is off the {size}x{size} board",
                                                 zone=k + 1, cell=f"{r},{c}", size=n))
                if (r, c) in seen:
                    raise GameSetupError(Message("zone {zone}: cell {cell} is in two zones",
                                                 zone=k + 1, cell=f"{r},{c}"))
                seen.add((r, c))
            if len(zone) < self.members:
                raise GameSetupError(Message("zone {zone} has {cells} cells for {members} members",
                                             zone=k + 1, cells=len(zone), members=self.members))
        table = []
        for p in range(n * n):
            r, c = divmod(p, n)
            # Reading order: up, left, right, down.
            table.append(tuple(q * n + d for q, d in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
                               if 0 <= q < n and 0 <= d < n))
        object.__setattr__(self, "neighbours", tuple(table))

    def index(self, cell: Cell) -> int:
        return cell[0] * self.size + cell[1]

    def cell(self, p: int) -> Cell:
        return divmod(p, self.size)

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.size and 0 <= cell[1] < self.size


def standard_zones(size: int, teams: int, members: int) -> tuple[tuple[Cell, ...], ...]:
    """The default zones: two teams get the top and bottom rows; more teams get the
    corners, each the smallest k×k square holding the members (k at least 2)."""
    if teams == 2 and size >= members:
        return (tuple((0, c) for c in range(size)), tuple((size - 1, c) for c in range(size)))
    k = 2
    while k * k < members:
        k += 1
    if 2 * k > size:
        raise GameSetupError(Message("a {size}x{size} board has no room for {teams} corner zones of {k}x{k} cells",
                                     size=size, teams=teams, k=k))
    corners = ((0, 0), (0, size - k), (size - k, size - k), (size - k, 0))   # clockwise
    return tuple(tuple((r0 + r, c0 + c) for r in range(k) for c in range(k))
                 for r0, c0 in corners[:max(teams, 4 if teams > 2 else 2)])


def parse_zones(text: str) -> tuple[tuple[Cell, ...], ...]:
    """Zones as text: zones separated by ``/``, cells by spaces: ``0,0 0,1 / 4,0 4,1``."""
    zones = []
    for part in text.split("/"):
        cells = []
        for word in part.split():
            m = _CELL_RE.match(word)
            if not m:
                raise GameSetupError(Message("zones: {word} is not a cell 'ROW,COL'", word=repr(word)))
            cells.append((int(m.group(1)), int(m.group(2))))
        if cells:
            zones.append(tuple(sorted(cells)))
    return tuple(zones)


def layout_from_options(options: Mapping[str, Any]) -> Layout:
    try:
        size = int(options.get("size", 5))
        teams = int(options.get("teams", 2))
        members = int(options.get("members", 3))
        limit = int(options.get("turn_limit", DEFAULT_TURN_LIMIT))
    except (TypeError, ValueError) as exc:
        raise GameSetupError(Message("Tam Quan options must be whole numbers: {error}", error=str(exc))) from None
    zones_text = str(options.get("zones", "") or "").strip()
    zones = parse_zones(zones_text) if zones_text else standard_zones(size, teams, members)
    return Layout(size, teams, members, zones, limit)


# ---------------------------------------------------------------------- capture
def capture_phase(layout: Layout, cells: Sequence[int], team: int) -> list[int]:
    """Cells whose pieces ``team`` captures now (decided together on ``cells``).

    A piece P of another team is captured when among its four neighbours the pieces
    not of P's team number more than 1 and more than P's own team's pieces, and at
    least one of those neighbours is of ``team``.
    """
    nbrs = layout.neighbours
    seen = set()
    captured = []
    for p in range(len(cells)):
        if cells[p] != team:
            continue
        for q in nbrs[p]:
            owner = cells[q]
            if owner < 0 or owner == team or q in seen:
                continue
            seen.add(q)
            foes = friends = 0
            for s in nbrs[q]:
                v = cells[s]
                if v < 0:
                    continue
                if v == owner:
                    friends += 1
                else:
                    foes += 1
            if foes > 1 and foes > friends:
                captured.append(q)
    captured.sort()
    return captured


def capturers(layout: Layout, cells: Sequence[int], victim: int) -> list[int]:
    """The pieces around ``victim`` that are not of its team (who made a capture)."""
    owner = cells[victim]
    return [q for q in layout.neighbours[victim] if cells[q] >= 0 and cells[q] != owner]


def reachable(layout: Layout, cells: Sequence[int], team: int) -> dict[frozenset, tuple]:
    """Every end position of ``team``'s members after one turn of steps.

    Returns ``{frozenset(final cells): steps}`` with one representative ordered step
    list (as ``(from_index, to_index)`` pairs) for each distinct end position; the
    order of members matters only through which cells are empty when each steps.
    """
    nbrs = layout.neighbours
    board = list(cells)
    start = tuple(p for p in range(len(board)) if board[p] == team)
    results: dict[frozenset, tuple] = {}
    visited = set()

    def walk(unmoved: tuple, moved: tuple, path: tuple) -> None:
        key = (unmoved, frozenset(moved))
        if key in visited:
            return
        visited.add(key)
        if not unmoved:
            final = frozenset(moved)
            if final not in results:
                results[final] = path
            return
        for i, p in enumerate(unmoved):
            rest = unmoved[:i] + unmoved[i + 1:]
            targets = [q for q in nbrs[p] if board[q] < 0]
            if not targets:
                walk(rest, moved + (p,), path + ((p, p),))
                continue
            for q in targets:
                board[p], board[q] = EMPTY, team
                walk(rest, moved + (q,), path + ((p, q),))
                board[p], board[q] = team, EMPTY

    walk(start, (), ())
    return results


# ---------------------------------------------------------------------- state
@dataclass(frozen=True)
class TurnMarks:
    """What the last ``apply`` did, for the renderer and the readable record
    (not part of the position: ``==`` ignores it).

    ``captures`` lists ``(phase, team, victim cell, victim team, capturer cells)`` with
    ``phase`` ``"after"`` for the mover's closing captures and ``"before"`` for the next
    team's opening captures.
    """

    team: int = -1
    placement: Placement | None = None
    steps: tuple[tuple[Cell, Cell], ...] = ()
    captures: tuple[tuple[str, int, Cell, int, tuple[Cell, ...]], ...] = ()


class TamQuanState(State):
    """One position: the board, who is on turn, the setup progress and the turn count."""

    def __init__(self, layout: Layout):
        self.layout = layout
        self.cells = [EMPTY] * (layout.size * layout.size)
        self.zone_of: list[int | None] = [None] * layout.teams
        self.out = [False] * layout.teams          # left by forfeit
        self.current = 0
        self.setup = True
        self.turns = 0                             # every apply (placements included)
        self.play_turns = 0                        # team turns after setup
        self.finished: Outcome | None = None
        self._events: tuple[Event, ...] = ()
        self.marks = TurnMarks()

    # ------------------------------------------------------------ queries
    def piece_counts(self) -> tuple[int, ...]:
        counts = [0] * self.layout.teams
        for v in self.cells:
            if v >= 0:
                counts[v] += 1
        return tuple(counts)

    def at(self, cell: Cell) -> int:
        return self.cells[self.layout.index(cell)]

    def pieces(self, team: int) -> list[Cell]:
        """Cells of ``team``'s pieces in reading order."""
        n = self.layout.size
        return [divmod(p, n) for p, v in enumerate(self.cells) if v == team]

    def alive(self, team: int) -> bool:
        """Still in the game: not forfeited, and (after setup) with pieces left."""
        if self.out[team]:
            return False
        return self.setup or team in self.cells

    def free_zones(self) -> list[int]:
        """Zones no team has taken yet (indices into ``layout.zones``)."""
        taken = {z for z in self.zone_of if z is not None}
        return [k for k in range(len(self.layout.zones)) if k not in taken]

    def rows(self) -> list[str]:
        n = self.layout.size
        text = "".join("." if v < 0 else LETTERS[v] for v in self.cells)
        return [text[i:i + n] for i in range(0, n * n, n)]

    def board_text(self) -> str:
        return "\n".join(self.rows())

    def __str__(self) -> str:
        return self.board_text()

    # ------------------------------------------------------------ State API
    def to_move(self) -> tuple[int, ...]:
        return () if self.finished else (self.current,)

    def turn_number(self) -> int:
        return self.turns

    def live_scores(self) -> tuple[float, ...]:
        return tuple(float(x) for x in self.piece_counts())

    def events(self) -> tuple[Event, ...]:
        return self._events

    def outcome(self) -> Outcome | None:
        return self.finished

    def legal_moves(self, seat: int) -> list:
        """Every placement; for a turn, one move per distinct end position (orders that
        end in the same position are equivalent: :meth:`check_move` accepts them all)."""
        if seat not in self.to_move():
            return []
        if self.setup:
            return self._placements(seat)
        n = self.layout.size
        moves = []
        for path in reachable(self.layout, self.cells, seat).values():
            moves.append(Steps(tuple((divmod(a, n), divmod(b, n)) for a, b in path)))
        moves.sort(key=format_move)
        return moves

    def _placements(self, seat: int) -> list[Placement]:
        from itertools import combinations
        moves = []
        for k in self.free_zones():
            for cells in combinations(sorted(self.layout.zones[k]), self.layout.members):
                moves.append(Placement(k, cells))
        return moves

    def check_move(self, seat: int, move) -> None:
        if seat not in self.to_move():
            raise IllegalMoveError(Message("it is not team {team}'s turn", team=LETTERS[seat]))
        if self.setup:
            self._check_placement(move)
        else:
            self._run_steps(seat, move, list(self.cells))

    def _check_placement(self, move) -> None:
        L = self.layout
        if not isinstance(move, Placement):
            raise IllegalMoveError(Message("setup: expected a placement 'zone K: R,C ...'"))
        if move.zone not in self.free_zones():
            if 0 <= move.zone < len(L.zones):
                raise IllegalMoveError(Message("zone {zone} is already taken", zone=move.zone + 1))
            raise IllegalMoveError(Message("there is no zone {zone}", zone=move.zone + 1))
        if len(move.cells) != L.members:
            raise IllegalMoveError(Message("place exactly {members} members, not {count}",
                                           members=L.members, count=len(move.cells)))
        if len(set(move.cells)) != len(move.cells):
            raise IllegalMoveError(Message("two members on one cell"))
        zone = set(L.zones[move.zone])
        for cell in move.cells:
            if cell not in zone:
                raise IllegalMoveError(Message("cell {cell} is not in zone {zone}", cell=cell_text(cell),
                                               zone=move.zone + 1))

    def _run_steps(self, team: int, move, board: list[int]) -> list[int]:
        """Play ``move``'s steps on ``board`` (checked); returns the board."""
        L = self.layout
        if not isinstance(move, Steps):
            raise IllegalMoveError(Message("expected each member's steps 'R,C-R,C ...'"))
        own = board.count(team)
        if len(move.steps) != own:
            raise IllegalMoveError(Message("team {team} has {count} members; {steps} steps were given",
                                           team=LETTERS[team], count=own, steps=len(move.steps)))
        moved: set[int] = set()
        for a, b in move.steps:
            if not (L.on_board(a) and L.on_board(b)):
                raise IllegalMoveError(Message("{step} leaves the board", step=f"{cell_text(a)}-{cell_text(b)}"))
            p, q = L.index(a), L.index(b)
            if board[p] != team or p in moved:
                raise IllegalMoveError(Message("no member of {team} waits to step at {cell}",
                                               team=LETTERS[team], cell=cell_text(a)))
            empty = [s for s in L.neighbours[p] if board[s] < 0]
            if p == q:
                if empty:
                    raise IllegalMoveError(Message("the member at {cell} must step: {free} is free",
                                                   cell=cell_text(a), free=cell_text(L.cell(empty[0]))))
                moved.add(p)
                continue
            if q not in L.neighbours[p]:
                raise IllegalMoveError(Message("{step} is not one orthogonal step",
                                               step=f"{cell_text(a)}-{cell_text(b)}"))
            if board[q] >= 0:
                raise IllegalMoveError(Message("{cell} is not empty", cell=cell_text(b)))
            board[p], board[q] = EMPTY, team
            moved.add(q)
        return board

    # ------------------------------------------------------------ applying
    def apply(self, moves: Mapping[int, Any]) -> None:
        team = self.current
        move = moves[team]
        events: list[Event] = []
        self.turns += 1
        if self.setup:
            k = move.zone
            self.zone_of[team] = k
            for cell in move.cells:
                self.cells[self.layout.index(cell)] = team
            events.append(Event("placement", Message("{team} took zone {zone}", team=NAMES[team], zone=k + 1),
                                (team,),
                                tuple(move.cells)))
            nxt = self._next_team(team, setup=True)
            captures: list = []
            if nxt is not None and nxt > team:
                self.current = nxt
            else:
                self.setup = False
                self._start_turn(self._first_alive(), events, captures)
            self.marks = TurnMarks(team, placement=move, captures=tuple(captures))
            self._events = tuple(events)
            return
        captures: list = []
        steps = []
        for a, b in move.steps:
            p, q = self.layout.index(a), self.layout.index(b)
            self.cells[p] = EMPTY
            self.cells[q] = team
            steps.append((a, b))
        self._capture("after", team, events, captures)
        self.play_turns += 1
        if not self._check_end(events):
            if self.play_turns >= self.layout.turn_limit:
                self._finish_by_limit(events)
            else:
                nxt = self._next_team(team, setup=False)
                self._start_turn(nxt, events, captures)
        self.marks = TurnMarks(team, steps=tuple(steps), captures=tuple(captures))
        self._events = tuple(events)

    def _start_turn(self, team: int, events: list, captures: list) -> None:
        self.current = team
        self._capture("before", team, events, captures)
        self._check_end(events)

    def _capture(self, phase: str, team: int, events: list, captures: list) -> None:
        L = self.layout
        victims = capture_phase(L, self.cells, team)
        if not victims:
            return
        found = []
        for p in victims:
            helpers = capturers(L, self.cells, p)
            found.append((p, self.cells[p], helpers))
        before = self.piece_counts()
        for p, owner, helpers in found:
            victim_cell = L.cell(p)
            helper_cells = tuple(L.cell(q) for q in helpers)
            captures.append((phase, team, victim_cell, owner, helper_cells))
            seats = tuple(sorted({team, owner, *(self.cells[q] for q in helpers)}))
            said = ("{team} captured {victim} at {cell} before moving" if phase == "before"
                    else "{team} captured {victim} at {cell} after moving")
            events.append(Event("capture", Message(said, team=NAMES[team], victim=NAMES[owner],
                                                   cell=cell_text(victim_cell)), seats,
                                (victim_cell, *helper_cells)))
        for p, _, _ in found:
            self.cells[p] = EMPTY
        after = self.piece_counts()
        for t in range(L.teams):
            if before[t] and not after[t]:
                events.append(Event("elimination", Message("{team} has no pieces left", team=NAMES[t]), (t,)))

    def _next_team(self, team: int, setup: bool) -> int | None:
        teams = self.layout.teams
        for step in range(1, teams + 1):
            t = (team + step) % teams
            if setup:
                if t <= team:
                    return None
                if not self.out[t]:
                    return t
            elif self.alive(t):
                return t
        return None

    def _first_alive(self) -> int:
        for t in range(self.layout.teams):
            if self.alive(t):
                return t
        return 0

    def _check_end(self, events: list) -> bool:
        if self.finished:
            return True
        alive = [t for t in range(self.layout.teams) if self.alive(t)]
        if self.setup and len(alive) > 1:
            return False
        if len(alive) <= 1:
            counts = self.piece_counts()
            if alive:
                detail = Message("{team} is the last team on the board ({counts})", team=NAMES[alive[0]],
                                 counts=self._count_text())
            else:
                detail = Message("no team is left ({counts})", counts=self._count_text())
            self.finished = Outcome.ranked(counts, Termination.ELIMINATION, detail)
            if alive:
                # The last team in the game wins whatever the counts (during setup every
                # count is 0); the teams that left are ranked after it by pieces left.
                keys = [(t in alive, counts[t]) for t in range(self.layout.teams)]
                ranks = tuple(1 + sum(k > mine for k in keys) for mine in keys)
                self.finished = Outcome((alive[0],), tuple(float(c) for c in counts),
                                        Termination.ELIMINATION, detail, ranks)
            events.append(Event("verdict", self.finished.detail, tuple(alive)))
            return True
        return False

    def _finish_by_limit(self, events: list) -> None:
        self.finished = Outcome.ranked(self.piece_counts(), Termination.MOVE_LIMIT,
                                       Message("turn limit {limit} reached; pieces left: {counts}",
                                               limit=self.layout.turn_limit, counts=self._count_text()))
        events.append(Event("verdict", self.finished.detail))

    def _count_text(self) -> str:
        counts = self.piece_counts()
        return ", ".join(f"{NAMES[t]} {counts[t]}" for t in range(self.layout.teams))

    def forfeit(self, seat: int, reason: Termination, detail: str = "") -> None:
        """The team leaves the game: its pieces are taken off the board."""
        events: list[Event] = []
        self.out[seat] = True
        for p, v in enumerate(self.cells):
            if v == seat:
                self.cells[p] = EMPTY
        left = (Message("{team} left the game: {reason} ({detail})", team=NAMES[seat], reason=reason.value,
                        detail=Message.of(detail)) if detail
                else Message("{team} left the game: {reason}", team=NAMES[seat], reason=reason.value))
        events.append(Event("elimination", left, (seat,)))
        captures: list = []
        if not self._check_end(events) and self.current == seat:
            if self.setup:
                nxt = self._next_team(seat, setup=True)
                if nxt is not None and nxt > seat:
                    self.current = nxt
                else:
                    self.setup = False
                    self._start_turn(self._first_alive(), events, captures)
            else:
                self._start_turn(self._next_team(seat, setup=False), events, captures)
        self.marks = TurnMarks(seat, captures=tuple(captures))
        self._events = tuple(events)

    def adjudicate(self, outcome: Outcome) -> None:
        """The referee ends the game with ``outcome`` (an organizer's ruling)."""
        self.finished = outcome
        self._events = (Event("verdict", outcome.detail or outcome.reason.value),)

    # ------------------------------------------------------------ copying
    def clone(self) -> "TamQuanState":
        other = TamQuanState.__new__(TamQuanState)
        other.layout = self.layout
        other.cells = list(self.cells)
        other.zone_of = list(self.zone_of)
        other.out = list(self.out)
        other.current, other.setup = self.current, self.setup
        other.turns, other.play_turns = self.turns, self.play_turns
        other.finished = self.finished
        other._events = self._events
        other.marks = self.marks
        return other

    def key(self) -> tuple:
        return (self.layout, tuple(self.cells), tuple(self.zone_of), tuple(self.out),
                self.current, self.setup, self.turns, self.play_turns, self.finished)

    def __eq__(self, other) -> bool:
        if not isinstance(other, TamQuanState):
            return NotImplemented
        return self.key() == other.key()

    __hash__ = None


def state_from_rows(rows: Sequence[str], to_move: int = 0, teams: int | None = None,
                    members: int | None = None, turn_limit: int = DEFAULT_TURN_LIMIT,
                    play_turns: int = 0) -> TamQuanState:
    """A play-phase position from board rows (``.`` and team letters), for tests and
    tools.  No opening captures are played: the rows are the position ``to_move`` sees."""
    rows = [r.strip() for r in rows if r.strip()]
    size = len(rows)
    if any(len(r) != size for r in rows):
        raise GameSetupError(Message("board rows must make a square"))
    used = {LETTERS.index(ch) for r in rows for ch in r if ch != "."}
    teams = teams or max(2, max(used, default=0) + 1)
    counts = [sum(r.count(LETTERS[t]) for r in rows) for t in range(teams)]
    members = members or max(1, max(counts))
    layout = Layout(size, teams, members, _spare_zones(size, teams, members), turn_limit)
    state = TamQuanState(layout)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                state.cells[r * size + c] = LETTERS.index(ch)
    state.setup = False
    state.zone_of = list(range(teams))
    state.current = to_move
    state.play_turns = play_turns
    state.turns = teams + play_turns
    return state


def _spare_zones(size: int, teams: int, members: int) -> tuple:
    """Zones for a position built from rows: whatever fits (they are not used after setup)."""
    try:
        return standard_zones(size, teams, members)
    except GameSetupError:
        cells = [(r, c) for r in range(size) for c in range(size)]
        per = max(members, 1)
        return tuple(tuple(cells[i * per:(i + 1) * per]) for i in range(teams))


# ---------------------------------------------------------------------- game
class TamQuanGame(Game):
    """Cờ Tam Quân: 2-4 teams capture by outnumbering."""

    spec = GameSpec(
        name="tamquan", title="Cờ Tam Quân", min_seats=2, max_seats=4,
        variants=(Variant("5x5-2teams", {"size": 5, "teams": 2, "members": 3},
                          "5x5 board, two teams of three, zones top and bottom row"),
                  Variant("8x8-4teams", {"size": 8, "teams": 4, "members": 5},
                          "8x8 board, four teams of five, zones the four 3x3 corners")),
        options=(Option("size", 5, "board size n (an n x n board)"),
                 Option("teams", 2, "number of teams", (2, 3, 4)),
                 Option("members", 3, "pieces in each team"),
                 Option("zones", "", "cells R,C; '/' between zones"),
                 Option("turn_limit", DEFAULT_TURN_LIMIT, "team turns, then rank by pieces"),
                 Option("human_time_per_move", 0.0, "a person's seconds a turn (0: none)")),
        seat_names=NAMES,
        summary="Teams step every piece each turn; outnumber a piece to capture it.",
        can_undo=True, kind=GameKind.TEAM_TURNS, live_scores=True, seats_option="teams",
        seat_word="team")

    def new_initial_state(self, options: Mapping[str, Any], seed: int) -> TamQuanState:
        return TamQuanState(layout_from_options(options))

    def parse_cell(self, text: str) -> tuple[int, int] | None:
        """``R,C`` (the move text's form) or ``R C`` (MOVE.OUT's), row and column from 0,
        -> ``(R, C)``."""
        match = _ANY_CELL_RE.match(text.strip()) if isinstance(text, str) else None
        return (int(match.group(1)), int(match.group(2))) if match else None

    def parse_move(self, text: str, state: State | None = None, seat: int | None = None):
        return parse_move(text)

    def format_move(self, move) -> str:
        return format_move(move)

    def default_move(self, state: TamQuanState, seat: int):
        """What a team that gave no usable answer plays (see :meth:`repair`)."""
        return self.repair(state, seat, None)[0]

    def repair(self, state: TamQuanState, seat: int, text: str | None):
        """Keep the valid parts of a bad answer; fill in the rest in reading order.

        Setup: the answered zone if it is free (else the first free zone), its valid
        answered cells, then the zone's first free cells.  A turn: the answered steps
        that are valid when their turn comes are played in the answered order; then each
        member that was not given a valid step, in reading order, takes its first valid
        step (neighbours in reading order: up, left, right, down), or stays if blocked.
        """
        numbers = loose_numbers(text or "")
        L = state.layout
        if state.setup:
            free = state.free_zones()
            zone = numbers[0] - 1 if numbers and numbers[0] - 1 in free else free[0]
            cells: list[Cell] = []
            allowed = set(L.zones[zone])
            kept = 0
            for i in range(1, len(numbers) - 1, 2):
                cell = (numbers[i], numbers[i + 1])
                if cell in allowed and cell not in cells and len(cells) < L.members:
                    cells.append(cell)
                    kept += 1
            for cell in sorted(L.zones[zone]):
                if len(cells) >= L.members:
                    break
                if cell not in cells:
                    cells.append(cell)
            move = Placement(zone, tuple(cells))
            note = (Message("kept zone {zone} and {kept} answered cell(s)", zone=zone + 1, kept=kept)
                    if numbers and numbers[0] - 1 == zone else Message("took zone {zone}", zone=zone + 1))
            return move, Message("the referee played {move} ({note})", move=format_move(move), note=note)
        board = list(state.cells)
        moved: set[int] = set()
        steps: list[tuple[Cell, Cell]] = []
        kept = 0
        for i in range(0, len(numbers) - 3, 4):
            a, b = (numbers[i], numbers[i + 1]), (numbers[i + 2], numbers[i + 3])
            if not (L.on_board(a) and L.on_board(b)):
                continue
            p, q = L.index(a), L.index(b)
            if board[p] != seat or p in moved:
                continue
            empty = [s for s in L.neighbours[p] if board[s] < 0]
            if (p == q and not empty) or (q in empty):
                board[p] = EMPTY
                board[q] = seat
                moved.add(q)
                steps.append((a, b))
                kept += 1
        waiting = [p for p in range(len(board)) if board[p] == seat and p not in moved]
        for p in waiting:
            empty = [s for s in L.neighbours[p] if board[s] < 0]
            q = empty[0] if empty else p
            board[p] = EMPTY
            board[q] = seat
            moved.add(q)
            steps.append((L.cell(p), L.cell(q)))
        move = Steps(tuple(steps))
        note = Message("kept {kept} answered step(s), {waiting} member(s) took their first free step",
                       kept=kept, waiting=len(waiting))
        return move, Message("the referee played {move} ({note})", move=format_move(move), note=note)

    def describe(self, state: TamQuanState) -> str:
        if state.finished:
            return state.finished.detail
        team = NAMES[state.current]
        if state.setup:
            return Message("Setup: team {team} chooses a zone and places {count} pieces", team=team,
                           count=state.layout.members)
        return Message("Turn {n} of {last}: {seat} to move · {rest}", n=state.play_turns + 1,
                       last=state.layout.turn_limit, seat=team, rest=state._count_text())
