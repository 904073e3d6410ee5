"""Hex rules (RULES.md; IOI 1997 "The Game of Hex"): pure Python, standard library only.

The board is an N×N rhombus, rows and columns 1..N.  Seat 0 is player 1: it moves
first and connects column 1 with column N.  Seat 1 is player 2: it connects row 1 with
row N.  The neighbours of (r, c) are (r-1, c), (r-1, c+1), (r, c-1), (r, c+1),
(r+1, c-1), (r+1, c), as RULES.md fixes them.

Win detection is a union-find over the cells plus four virtual edge nodes, so each
move costs near-constant time.

Move text is the HexGui / GTP form: column letter then row number, ``c3`` = column 3,
row 3 (``a1`` is the corner where row 1 meets column 1).  ``swap`` is the pie rule's
move, allowed only when the ``swap`` option is on.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Iterable, Mapping

from games.api import (Event, Game, GameKind, GameSetupError, GameSpec, IllegalMoveError, Message,
                       MoveSyntaxError, Option, Outcome, State, Termination, Variant,
                       uniform_outcome_two_player)

EMPTY, P1, P2 = 0, 1, 2
MAX_SIZE = 20
LETTERS = "abcdefghijklmnopqrst"
NEIGHBOUR_STEPS = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))


@dataclass(frozen=True, order=True)
class HexMove:
    """A stone at (row, col), both 1-based; ``HexMove.SWAP`` is the pie-rule swap."""

    row: int
    col: int

    @property
    def is_swap(self) -> bool:
        return self.row == 0 and self.col == 0

    def text(self) -> str:
        return "swap" if self.is_swap else f"{LETTERS[self.col - 1]}{self.row}"

    def __repr__(self) -> str:
        return f"HexMove({self.text()})"


HexMove.SWAP = HexMove(0, 0)

_MOVE_RE = re.compile(r"^\s*([a-tA-T])\s*(\d{1,2})\s*$")
_NUMERIC_RE = re.compile(r"^\s*(-?\d+)[\s,]+(-?\d+)\s*$")


def parse_move_text(text: str) -> HexMove:
    """``c3`` (column letter, row number), ``swap``, or ``ROW COL`` as the contest's calls."""
    if text.strip().lower() in ("swap", "swap-pieces"):
        return HexMove.SWAP
    match = _MOVE_RE.match(text)
    if match:
        return HexMove(int(match.group(2)), LETTERS.index(match.group(1).lower()) + 1)
    match = _NUMERIC_RE.match(text)
    if match:
        return HexMove(int(match.group(1)), int(match.group(2)))
    raise MoveSyntaxError(Message("{move} is not a Hex move (expected a cell such as c3, or ROW COL)",
                                  move=repr(text)))


class _UnionFind:
    """Disjoint sets with path halving and union by size."""

    __slots__ = ("parent", "size")

    def __init__(self, count: int):
        self.parent = list(range(count))
        self.size = [1] * count

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        a, b = self.find(a), self.find(b)
        if a == b:
            return
        if self.size[a] < self.size[b]:
            a, b = b, a
        self.parent[b] = a
        self.size[a] += self.size[b]

    def copy(self) -> "_UnionFind":
        twin = _UnionFind.__new__(_UnionFind)
        twin.parent, twin.size = self.parent[:], self.size[:]
        return twin


class HexState(State):
    """A Hex position.  Cells are stored row-major, 0-based: index (r-1)*N + (c-1)."""

    def __init__(self, size: int, swap_allowed: bool = False, max_moves: int = 200, seed: int = 0):
        if not 1 <= size <= MAX_SIZE:
            raise GameSetupError(Message("board size must be 1-{most}, not {size}", most=MAX_SIZE, size=size))
        self.size = size
        self.swap_allowed = swap_allowed
        self.max_moves = max_moves
        self.cells = [EMPTY] * (size * size)
        cells = size * size
        self.LEFT, self.RIGHT, self.TOP, self.BOTTOM = cells, cells + 1, cells + 2, cells + 3
        self._sets = _UnionFind(cells + 4)
        self.current = 0                 # seat to move
        self.turn = 0
        self.history: list[HexMove] = []
        self.p1_moves = 0
        self.last: HexMove | None = None
        self._outcome: Outcome | None = None
        self._events: tuple[Event, ...] = ()
        self.rng = random.Random(seed)
        self.neighbours = [self._neighbours_of(i) for i in range(cells)]

    # ------------------------------------------------------------------ geometry
    def _neighbours_of(self, index: int) -> tuple[int, ...]:
        r, c = divmod(index, self.size)
        result = []
        for dr, dc in NEIGHBOUR_STEPS:
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.size and 0 <= cc < self.size:
                result.append(rr * self.size + cc)
        return tuple(result)

    def index(self, move: HexMove) -> int:
        return (move.row - 1) * self.size + (move.col - 1)

    def move_at(self, index: int) -> HexMove:
        r, c = divmod(index, self.size)
        return HexMove(r + 1, c + 1)

    def on_board(self, row: int, col: int) -> bool:
        return 1 <= row <= self.size and 1 <= col <= self.size

    def look(self, row: int, col: int) -> int:
        """The contest's LookAtBoard: -1 off the board, 0 empty, 1 or 2 a player's stone."""
        if not self.on_board(row, col):
            return -1
        return self.cells[(row - 1) * self.size + (col - 1)]

    # ------------------------------------------------------------------ the API
    def to_move(self) -> tuple[int, ...]:
        return () if self._outcome else (self.current,)

    def legal_moves(self, seat: int) -> list[HexMove]:
        if self._outcome or seat != self.current:
            return []
        moves = [self.move_at(i) for i, v in enumerate(self.cells) if v == EMPTY]
        if self._swap_possible():
            moves.append(HexMove.SWAP)
        return moves

    def _swap_possible(self) -> bool:
        # Only from an empty start: with a start position there is no single stone to take.
        return (self.swap_allowed and self.turn == 1 and self.current == 1
                and self.cells.count(P1) == 1 and self.cells.count(P2) == 0)

    def check_move(self, seat: int, move: HexMove) -> None:
        if self._outcome:
            raise IllegalMoveError(Message("the game is over"))
        if seat != self.current:
            raise IllegalMoveError(Message("it is player {n}'s turn, not player {seat}'s",
                                           n=self.current + 1, seat=seat + 1))
        if move.is_swap:
            if not self._swap_possible():
                raise IllegalMoveError(Message("swap is allowed only as player 2's first move with the swap rule on"))
            return
        if not self.on_board(move.row, move.col):
            raise IllegalMoveError(Message("row {row}, column {col} is off the {size}x{size} board",
                                           row=move.row, col=move.col, size=self.size))
        if self.cells[self.index(move)] != EMPTY:
            raise IllegalMoveError(Message("{move} (row {row}, column {col}) is occupied",
                                           move=move.text(), row=move.row, col=move.col))

    def apply(self, moves: Mapping[int, HexMove]) -> None:
        (seat, move), = moves.items()
        self.push(move)

    def push(self, move: HexMove) -> None:
        """Place the side to move's stone (unchecked: the fast path for bots)."""
        self._events = ()
        if move.is_swap:
            self._swap()
        else:
            self._place(self.index(move), self.current + 1)
        self.history.append(move)
        self.last = move
        if self.current == 0:
            self.p1_moves += 1
        self.turn += 1
        self.current = 1 - self.current
        self._check_end()

    def _swap(self) -> None:
        """Pie rule: player 1's only stone becomes player 2's, mirrored across the diagonal."""
        (index,) = [i for i, v in enumerate(self.cells) if v == P1]
        r, c = divmod(index, self.size)
        self.cells[index] = EMPTY
        self._rebuild_sets()
        self._place(c * self.size + r, P2)

    def _rebuild_sets(self) -> None:
        self._sets = _UnionFind(self.size * self.size + 4)
        for i, v in enumerate(self.cells):
            if v != EMPTY:
                self._place(i, v)

    def _place(self, index: int, player: int) -> None:
        self.cells[index] = player
        sets = self._sets
        for n in self.neighbours[index]:
            if self.cells[n] == player:
                sets.union(index, n)
        r, c = divmod(index, self.size)
        if player == P1:
            if c == 0:
                sets.union(index, self.LEFT)
            if c == self.size - 1:
                sets.union(index, self.RIGHT)
        else:
            if r == 0:
                sets.union(index, self.TOP)
            if r == self.size - 1:
                sets.union(index, self.BOTTOM)

    def winner(self) -> int | None:
        """0 or 1 once a side has connected its edges, else None."""
        sets = self._sets
        if sets.find(self.LEFT) == sets.find(self.RIGHT):
            return 0
        if sets.find(self.TOP) == sets.find(self.BOTTOM):
            return 1
        return None

    def _check_end(self) -> None:
        winner = self.winner()
        if winner is not None:
            last = self.size                    # the edges by the labels on the board
            edges = (Message("columns {first} and {last}", first="a", last=chr(ord('a') + last - 1))
                     if winner == 0 else Message("rows {first} and {last}", first=1, last=last))
            self._outcome = uniform_outcome_two_player(
                winner, Termination.WIN, Message("Player {n} connected {edges}", n=winner + 1, edges=edges))
            self._events = (Event("win", self._outcome.detail, (winner,)),)
        elif EMPTY not in self.cells:
            self._outcome = Outcome((), (0.5, 0.5), Termination.BOARD_FULL, Message("the board is full"))
        elif self.current == 0 and self.p1_moves >= self.max_moves:
            self._outcome = uniform_outcome_two_player(
                1, Termination.MOVE_LIMIT,
                Message("player 1 did not connect within {moves} moves", moves=self.max_moves))

    def forfeit(self, seat: int, reason: Termination, detail: str = "") -> None:
        if self._outcome:
            return
        other = 1 - seat
        why = Message.of(detail) if detail else reason.value
        self._outcome = uniform_outcome_two_player(other, reason,
                                                   Message("Player {n} loses: {reason}", n=seat + 1, reason=why))
        self._events = (Event("verdict", self._outcome.detail, (seat,)),)

    def adjudicate(self, outcome: Outcome) -> None:
        self._outcome = outcome
        self._events = (Event("verdict", outcome.detail, outcome.winners),)

    def outcome(self) -> Outcome | None:
        return self._outcome

    def events(self) -> tuple[Event, ...]:
        return self._events

    def clone(self) -> "HexState":
        twin = HexState.__new__(HexState)
        twin.__dict__.update(self.__dict__)
        twin.cells = self.cells[:]
        twin._sets = self._sets.copy()
        twin.history = self.history[:]
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        return twin

    # ------------------------------------------------------------------ views
    def winning_chain(self) -> set[int]:
        """Cell indices of the winner's group that joins its two edges (empty if none)."""
        winner = self.winner()
        if winner is None:
            return set()
        root = self._sets.find(self.LEFT if winner == 0 else self.TOP)
        return {i for i in range(self.size * self.size)
                if self.cells[i] == winner + 1 and self._sets.find(i) == root}

    def turn_number(self) -> int:
        return self.turn

    def board_text(self) -> str:
        """Rows of ``.``/``1``/``2`` joined by ``/`` (the ``position`` option's format)."""
        rows = []
        for r in range(self.size):
            rows.append("".join(".12"[v] for v in self.cells[r * self.size:(r + 1) * self.size]))
        return "/".join(rows)

    def __eq__(self, other) -> bool:
        return (isinstance(other, HexState) and self.cells == other.cells
                and self.current == other.current and self.turn == other.turn
                and self.p1_moves == other.p1_moves and self._outcome == other._outcome)

    def __repr__(self) -> str:
        return f"HexState({self.size}, {self.board_text()!r}, to_move={self.current})"


def parse_position(text: str, size: int) -> list[int]:
    """Read a ``position`` option: N rows of ``.``, ``1``/``x``, ``2``/``o`` separated by ``/``."""
    rows = [r.strip() for r in re.split(r"[/\n]", text.strip()) if r.strip()]
    if len(rows) != size:
        raise GameSetupError(Message("position has {rows} rows; the board has {size}", rows=len(rows), size=size))
    cells = []
    for number, row in enumerate(rows, start=1):
        row = row.replace(" ", "")
        if len(row) != size:
            raise GameSetupError(Message("position row {number} has {cells} cells, expected {size}",
                                             number=number, cells=len(row), size=size))
        for ch in row.lower():
            if ch not in ".-012xo":
                raise GameSetupError(Message("position row {number}: {char} is not one of . 1 2",
                                                 number=number, char=repr(ch)))
            cells.append({".": 0, "-": 0, "0": 0, "1": 1, "x": 1, "2": 2, "o": 2}[ch])
    if cells.count(P1) not in (cells.count(P2), cells.count(P2) + 1):
        raise GameSetupError(Message("a start position needs equal stone counts (player 1 to move) or one "
                                     "more stone of player 1 (player 2 to move); it has {first} "
                                     "of player 1 and {second} of player 2",
                                     first=cells.count(P1), second=cells.count(P2)))
    return cells


def read_start_file(text: str) -> str:
    """The ``start`` option's file content -> a ``position`` value: ``#`` comment lines
    and blank lines are skipped; the rows may stand one a line or joined by ``/``."""
    rows = [line.strip() for line in text.splitlines()
            if line.strip() and not line.strip().startswith("#")]
    return "/".join(rows)


class HexGame(Game):
    spec = GameSpec(
        name="hex", title="Hex", min_seats=2, max_seats=2,
        seat_names=("Player 1 (columns)", "Player 2 (rows)"),
        summary="Connect your two edges of the rhombus; player 1 moves first.",
        kind=GameKind.ALTERNATING,
        variants=(Variant("11x11", {"size": 11}, "the classic board"),
                  Variant("9x9", {"size": 9}), Variant("7x7", {"size": 7}),
                  Variant("5x5", {"size": 5}), Variant("13x13", {"size": 13}),
                  Variant("19x19", {"size": 19})),
        options=(Option("size", 11, "board size N (1-20)"),
                 Option("position", "", "start position: N rows of . 1 2 separated by /"),
                 Option("start", "", "a start position file (rows of . 1 2, # comments), "
                        "e.g. games/hex/positions/hex5-one-winning-move.txt", file=True),
                 Option("swap", False, "pie rule: player 2 may take player 1's first stone"),
                 Option("max_moves", 200, "most moves player 1 may make (the task: 200)"),
                 Option("time_total", 20.0, "seconds for a program's or bot's whole game (0 = untimed)"),
                 Option("time_per_move", 0.0, "seconds for each answer (0 = no per-move limit)"),
                 Option("human_time_total", 0.0, "seconds for a person's whole game (0 = untimed)")))

    def new_initial_state(self, options: Mapping, seed: int) -> HexState:
        options = {**self.spec.resolve_options(), **options}
        size = int(options["size"])
        state = HexState(size, bool(options["swap"]), int(options["max_moves"]), seed)
        position = options.get("position") or ""
        if options.get("start"):
            if position:
                raise GameSetupError(Message("give the start position either as position or as a start file, "
                                             "not both"))
            if "\n" not in options["start"] and not re.fullmatch(r"[-.012xoXO/ ]+", options["start"]):
                raise GameSetupError(Message("start: {start} is not a file Arena can read", start=options["start"]))
            position = read_start_file(options["start"])
            rows = len([r for r in position.split("/") if r.strip()])
            if rows != size:
                raise GameSetupError(Message("the start file holds a {rows}-row position but the board is "
                                             "{size}x{size}: add size={rows}", rows=rows, size=size))
        if position:
            for index, value in enumerate(parse_position(position, size)):
                if value:
                    state._place(index, value)
            if state.winner() is not None:
                raise GameSetupError(Message("the start position is already won"))
            if state.cells.count(P1) > state.cells.count(P2):
                state.current = 1            # player 1 has a stone more: player 2 moves first
        return state

    def parse_cell(self, text: str) -> tuple[int, int] | None:
        """``c3`` (column letter, row number) -> ``(row, column)``, both from 1."""
        match = _MOVE_RE.match(text) if isinstance(text, str) else None
        if not match:
            return None
        return int(match.group(2)), LETTERS.index(match.group(1).lower()) + 1

    def parse_move(self, text: str, state=None, seat=None) -> HexMove:
        return parse_move_text(text)

    def format_move(self, move: HexMove) -> str:
        return move.text()

    def describe(self, state: HexState) -> str:
        if state.outcome():
            return state.outcome().detail
        return Message("{seat} to move (move {n})", seat=self.spec.seat_name(state.current), n=state.turn + 1)


def neighbours(size: int, row: int, col: int) -> Iterable[tuple[int, int]]:
    """On-board neighbours of (row, col), 1-based, in the order RULES.md lists them."""
    for dr, dc in NEIGHBOUR_STEPS:
        if 1 <= row + dr <= size and 1 <= col + dc <= size:
            yield row + dr, col + dc
