"""Robot Đại Chiến rules (RULES.md): pure Python, standard library only.

2-4 robots paint a maze at the same time.  A turn runs in this order:
placement (turn 0) or movement, painting, pickup (``E`` explodes at once), enclosure
with the largest-region rule, shrink every K turns, item spawning.  ``games/robot/
RULES.md`` states the rules in full.

Representation, chosen for speed: the map is a ``bytearray`` of M rows of N cell
characters, each row followed by a ``\\n`` pad byte (so a row is ``W = N + 1`` bytes and
cell (x, y) is byte ``x * W + y``).  Internally a cell sealed while empty is ``*`` (the
organizers' turn log does the same); MAP.INP shows it as ``#``.  The enclosure flood
works on Python integers used as bit sets: ``bytes.translate`` turns the map into a
string of ``0``/``1`` which ``int(..., 2)`` reads, cell ``p`` being bit ``L - 1 - p``;
the pad column is always 0, so shifting by 1 never wraps from one row to the next.

A move is a target cell ``(x, y)``: the placement cell on turn 0, else the cell to go
to (the current cell to stay, a cell two steps away for a double step).  Its text is
the MOVE.OUT content ``"X Y"``.  Placement ``(-1, -1)`` asks for a random cell drawn
from the state's own generator, which is what the referee substitutes for a bad
placement, so records replay exactly.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import PurePath
from typing import Iterable, Mapping, Sequence

from games.api import (Event, Game, GameKind, GameSetupError, GameSpec, IllegalMoveError, Message,
                       MoveSyntaxError, Option, Outcome, State, Termination, Variant, RecordFormatError)

COLOURS = "ABCD"
ITEM_KINDS = "GEF"           # speed (tăng tốc), explosion (màu nổ), oil (dầu trơn)
ITEM_TURNS = 5               # G lasts, and F may be used within, 5 turns after pickup
ITEMS_PER_SPAWN = 2
RANDOM_PLACEMENT = (-1, -1)

#: The organizers' referee's behaviours where it differs from the statement (RULES.md,
#: "Playing as the organizers' referee").  Option ``compat = organizers`` turns on all
#: of them; the turn-log audit turns them on one at a time to name a divergence's cause.
QUIRKS = {
    "seal-after-all-left": "after every robot has left, one ring is sealed every turn",
    "paint-layers": "an explosion, then a double step's cells, override a robot ending on a cell",
    "enclosure-in-order": "enclosures checked one colour at a time, A to D, repainting as they "
                          "go; a robot whose cell changed colour leaves",
    "explosion-first-robot": "an explosion removes only the first robot on each open cell",
    "spawn-schedule": "items spawn at turns 0, K, 2K, ... before (min(M, N) // 2 - 2) * K "
                      "(one round fewer)",
    "spawn-fair-only": "with 2 players, items spawn only on fair cells (fewer, or none, when "
                       "there are fewer than two)",
    "spawn-distinct-kinds": "the two items of a spawn are of two different kinds",
    "repaint-short-double": "the middle cell of a robot's last double step that ended early "
                            "is repainted its colour every turn after, even once sealed",
}
COMPAT_MODES = ("arena", "organizers")

_PAD = ord("\n")
_EMPTY, _WALL, _SEALED_EMPTY = ord("."), ord("#"), ord("*")
#: Cells a robot may stand on and paint: empty or painted (not forbidden, not sealed).
_OPEN = bytes(ch in b".ABCD" for ch in range(256))


def _mask_table(ones: bytes) -> bytes:
    """A translate table turning the map into a '0'/'1' string (1 for bytes in ``ones``)."""
    return bytes(ord("1") if ch in ones else ord("0") for ch in range(256))


_ALL_CELLS = bytes(range(256)).replace(b"\n", b"")
_OPEN_TABLE = _mask_table(b".ABCD")
#: Per colour: cells the enclosure flood may cross (every map cell not of that colour).
_PASS_TABLES = tuple(_mask_table(bytes(ch for ch in _ALL_CELLS
                                       if ch not in (ord(c), ord(c.lower()))))
                     for c in COLOURS)


def _bits(mask: int, length: int) -> list[int]:
    """Cell indices of the set bits of ``mask``."""
    text = format(mask, f"0{length}b")
    found, index = [], text.find("1")
    while index >= 0:
        found.append(index)
        index = text.find("1", index + 1)
    return found


def _flood(seeds: int, passable: int, width: int) -> int:
    """Every cell of ``passable`` reachable from ``seeds`` through side neighbours."""
    reached = seeds & passable
    while True:
        grown = (reached | (reached << 1) | (reached >> 1) | (reached << width)
                 | (reached >> width)) & passable
        if grown == reached:
            return reached
        reached = grown


class Board:
    """The fixed geometry of one map, shared by every state of a game."""

    def __init__(self, height: int, width: int, period: int, rows: Sequence[str], name: str = ""):
        self.height, self.width, self.period, self.name = height, width, period, name
        self.stride = width + 1
        self.length = height * self.stride
        self.rows = tuple(rows)
        self.shrinks = (min(height, width) + 1) // 2
        border = 0
        for x in range(height):
            for y in range(width):
                if x in (0, height - 1) or y in (0, width - 1):
                    border |= self.bit(self.index(x, y))
        self.border = border            # the flood's seeds: the map's edge cells
        self._outside_cache: dict[int, int] = {}
        self.rings = tuple(self._ring(i) for i in range(self.shrinks))

    def bit(self, p: int) -> int:
        return 1 << (self.length - 1 - p)

    def outside(self, passable: int) -> int:
        """Cells of ``passable`` the flood from the map's edge does not reach.

        Remembered per board: a colour whose cells did not change this turn (and the
        bots' look-ahead copies) gets its enclosure without flooding again.
        """
        found = self._outside_cache.get(passable)
        if found is None:
            if len(self._outside_cache) > 4096:
                self._outside_cache.clear()
            found = passable & ~_flood(self.border, passable, self.stride)
            self._outside_cache[passable] = found
        return found

    def index(self, x: int, y: int) -> int:
        return x * self.stride + y

    def xy(self, p: int) -> tuple[int, int]:
        return divmod(p, self.stride)

    def on_map(self, x: int, y: int) -> bool:
        return 0 <= x < self.height and 0 <= y < self.width

    def _ring(self, i: int) -> tuple[int, ...]:
        """Cells of ring ``i``: rows i and M-1-i, columns i and N-1-i, inside ring i-1."""
        top, bottom, left, right = i, self.height - 1 - i, i, self.width - 1 - i
        cells = set()
        if top <= bottom and left <= right:
            for y in range(left, right + 1):
                cells.add(self.index(top, y))
                cells.add(self.index(bottom, y))
            for x in range(top, bottom + 1):
                cells.add(self.index(x, left))
                cells.add(self.index(x, right))
        return tuple(sorted(cells))


class Robot:
    """One player: position (cell index, None while not on the map) and held item."""

    __slots__ = ("seat", "colour", "pos", "in_game", "speed_turns", "oil_turns", "on_oil",
                 "left_turn", "why", "last_pos", "left_items", "short_middle")

    def __init__(self, seat: int):
        self.seat, self.colour = seat, COLOURS[seat]
        self.pos: int | None = None
        self.in_game = True
        self.speed_turns = 0       # turns of G left (double steps allowed while > 0)
        self.oil_turns = 0         # turns left to use an unused F
        self.on_oil = False        # standing on a forbidden/sealed cell thanks to F
        self.left_turn: int | None = None
        self.why = ""
        self.last_pos: int | None = None      # where it stood when it left (turn logs)
        self.left_items = (0, 0)              # (speed, oil) turns when it left (turn logs)
        #: Quirk ``repaint-short-double``: the cell a double step that ended early (RULING
        #: X2') stopped on, which the organizers' referee repaints every turn after.
        self.short_middle: int | None = None

    def copy(self) -> "Robot":
        other = Robot.__new__(Robot)
        other.seat, other.colour, other.pos, other.in_game = self.seat, self.colour, self.pos, self.in_game
        other.speed_turns, other.oil_turns, other.on_oil = self.speed_turns, self.oil_turns, self.on_oil
        other.left_turn, other.why, other.last_pos = self.left_turn, self.why, self.last_pos
        other.left_items, other.short_middle = self.left_items, self.short_middle
        return other

    def key(self) -> tuple:
        return (self.seat, self.pos, self.in_game, self.speed_turns, self.oil_turns,
                self.on_oil, self.left_turn, self.why, self.last_pos, self.short_middle)

    @property
    def holds_item(self) -> bool:
        return self.speed_turns > 0 or self.oil_turns > 0

    @property
    def held(self) -> str:
        """``G`` (active speed), ``F`` (unused oil) or ``""``."""
        return "G" if self.speed_turns > 0 else "F" if self.oil_turns > 0 else ""

    def leave(self, turn: int, why: str) -> None:
        self.last_pos = self.pos if self.pos is not None else self.last_pos
        self.left_items = (self.speed_turns, self.oil_turns)
        self.in_game, self.pos, self.left_turn, self.why = False, None, turn, why
        self.speed_turns = self.oil_turns = 0
        self.on_oil = False
        self.short_middle = None


@dataclass(frozen=True)
class Item:
    """An item on the map: ``kind`` is ``G``, ``E`` or ``F``."""

    x: int
    y: int
    kind: str


class RobotState(State):
    """One position of a Robot game; ``turn`` is the T of the next MAP.INP."""

    def __init__(self, board: Board, players: int, seed: int, respawn: bool = False,
                 quirks: Iterable[str] = ()):
        self.board = board
        self.quirks = frozenset(quirks)       # organizers' behaviours turned on (QUIRKS)
        self.rings_sealed = 0
        self.grid = bytearray()
        for row in board.rows:
            self.grid += row.encode("ascii") + b"\n"
        self.robots = [Robot(s) for s in range(players)]
        self.items: list[tuple[int, str]] = []       # (cell index, kind), in spawn order
        self.turn = 0
        self._rng, self._rng_shared = random.Random(seed), False
        self.respawn = respawn
        self.finished = False
        self._ruling: Outcome | None = None
        self.injected_spawns: list[list[Item]] = []   # used before drawing (audit, tests)
        self.spawn_check: tuple[int, int] | None = None   # (rules' count, injected count)
        self._events: tuple[Event, ...] = ()
        # For the renderer, not part of the position (``==`` ignores them): the scores
        # after every turn as a shared linked trail (clones copy one reference), and the
        # cells the last turn's explosions and enclosures painted.
        self._score_trail: tuple | None = (None, self.scores())
        self.turn_marks: tuple[tuple[str, int, tuple[tuple[int, int], ...]], ...] = ()

    @property
    def rng(self) -> random.Random:
        """The state's own generator (copied lazily: clones share it until one draws)."""
        if self._rng_shared:
            private = random.Random.__new__(random.Random)
            private.setstate(self._rng.getstate())
            self._rng, self._rng_shared = private, False
        return self._rng

    # ------------------------------------------------------------------ queries
    @property
    def players(self) -> int:
        return len(self.robots)

    def cell(self, x: int, y: int) -> str:
        """The map character at (x, y) as MAP.INP shows it (sealed empty is ``#``)."""
        ch = chr(self.grid[self.board.index(x, y)])
        return "#" if ch == "*" else ch

    def raw_cell(self, x: int, y: int) -> str:
        """The map character with sealed-empty cells as ``*`` (the turn log's form)."""
        return chr(self.grid[self.board.index(x, y)])

    def map_rows(self, raw: bool = False) -> list[str]:
        rows = self.grid.decode("ascii").split("\n")[:-1]
        return rows if raw else [r.replace("*", "#") for r in rows]

    def is_open(self, x: int, y: int) -> bool:
        """On the map and neither forbidden nor sealed."""
        return self.board.on_map(x, y) and bool(_OPEN[self.grid[self.board.index(x, y)]])

    def position(self, seat: int) -> tuple[int, int] | None:
        pos = self.robots[seat].pos
        return None if pos is None else self.board.xy(pos)

    def item_list(self) -> list[Item]:
        return [Item(*self.board.xy(p), kind) for p, kind in self.items]

    def score(self, seat: int) -> int:
        colour = COLOURS[seat].encode()
        return self.grid.count(colour) + self.grid.count(colour.lower())

    def scores(self) -> tuple[int, ...]:
        return tuple(self.score(s) for s in range(self.players))

    def open_cells(self) -> list[tuple[int, int]]:
        return [self.board.xy(p) for p in range(self.board.length) if _OPEN[self.grid[p]]]

    def score_history(self) -> list[tuple[int, ...]]:
        """Scores at the start and after every turn played on this state (oldest first).

        A state built from a turn log entry knows only its own scores.
        """
        history, link = [], self._score_trail
        while link is not None:
            link, scores = link
            history.append(scores)
        history.reverse()
        current = self.scores()
        if not history or history[-1] != current:
            history.append(current)
        return history

    def next_shrink_turn(self) -> int | None:
        """The turn at whose end the next ring is sealed (None after the last)."""
        k = self.board.period
        done = (self.turn - 1) // k if self.turn > 0 else 0
        nxt = (done + 1) * k
        return nxt if nxt // k <= self.board.shrinks else None

    def ring_of(self, x: int, y: int) -> int:
        """Which ring (0 = outermost) the cell belongs to."""
        b = self.board
        return min(x, y, b.height - 1 - x, b.width - 1 - y)

    def placing(self, seat: int) -> bool:
        """True when the seat must answer a placement (turn 0, or respawn)."""
        robot = self.robots[seat]
        return robot.pos is None and (robot.in_game or self.respawn)

    # ------------------------------------------------------------------ State API
    def to_move(self) -> tuple[int, ...]:
        if self.finished:
            return ()
        return tuple(r.seat for r in self.robots if r.in_game or self.respawn)

    def legal_moves(self, seat: int) -> list[tuple[int, int]]:
        robot = self.robots[seat]
        if seat not in self.to_move():
            return []
        if robot.pos is None:
            return self.open_cells()
        x, y = self.board.xy(robot.pos)
        moves = [(x, y)]
        for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            kind, cells = self._resolve_step(robot, x + dx, y + dy)
            if kind in ("step", "oil"):
                moves.append(cells[-1])
            if robot.speed_turns > 0 and not robot.on_oil:
                kind, cells = self._resolve_step(robot, x + 2 * dx, y + 2 * dy)
                if kind == "double" and len(cells) == 2:
                    moves.append(cells[-1])
        return moves

    def check_move(self, seat: int, move) -> None:
        if seat not in self.to_move():
            raise IllegalMoveError(Message("seat {seat} is not in the game", seat=seat))
        if not (isinstance(move, tuple) and len(move) == 2 and all(isinstance(v, int) for v in move)):
            raise IllegalMoveError(Message("{move} is not a cell", move=repr(move)))
        robot = self.robots[seat]
        x, y = move
        if robot.pos is None:
            if move != RANDOM_PLACEMENT and not self.is_open(x, y):
                raise IllegalMoveError(Message("{cell} is not a cell a robot may start on", cell=str((x, y))))
            return
        kind, _ = self._resolve_step(robot, x, y)
        if kind == "invalid":
            raise IllegalMoveError(Message("{cell} cannot be reached from {start} this turn",
                                           cell=str((x, y)), start=str(self.board.xy(robot.pos))))

    def _resolve_step(self, robot: Robot, x: int, y: int) -> tuple[str, list[tuple[int, int]]]:
        """What moving ``robot`` towards (x, y) does: kind and the cells it passes.

        Kinds: ``stay``, ``step``, ``double`` (cells: middle, target; or just the middle
        for the X2' ruling), ``oil`` (onto a forbidden/sealed cell), ``invalid`` (= stay).
        """
        b = self.board
        px, py = b.xy(robot.pos)
        dx, dy = x - px, y - py
        if dx == 0 and dy == 0:
            return "stay", [(px, py)]
        if abs(dx) + abs(dy) == 1:
            if self.is_open(x, y):
                return "step", [(x, y)]
            if b.on_map(x, y) and robot.oil_turns > 0 and not robot.on_oil:
                return "oil", [(x, y)]
            return "invalid", []
        if (dx == 0 or dy == 0) and abs(dx + dy) == 2 and robot.speed_turns > 0 and not robot.on_oil:
            mx, my = px + dx // 2, py + dy // 2
            if not self.is_open(mx, my):
                return "invalid", []
            if self.is_open(x, y):
                return "double", [(mx, my), (x, y)]
            return "double", [(mx, my)]          # RULING X2': the first cell only
        return "invalid", []

    def apply(self, moves: Mapping[int, tuple[int, int]]) -> None:
        turn, b, grid = self.turn, self.board, self.grid
        events: list[Event] = []
        claims: dict[int, set[int]] = {}          # cell -> seats that would repaint it
        entered: dict[int, list[int]] = {}        # cell -> seats that arrived on it
        passed: dict[int, set[int]] = {}          # cell -> seats whose double step crossed it
        speedy: set[int] = set()                  # seats holding speed after their move
        self.turn_marks = ()
        self.spawn_check = None
        repaints = self._short_double_repaints()
        for seat in self.to_move():
            robot = self.robots[seat]
            move = moves.get(seat)
            if robot.pos is None:
                cells = [self._place(robot, move, events)]
            else:
                cells = self._move(robot, move, events)
                if not robot.in_game:
                    continue
            for p in cells:
                if _OPEN[grid[p]]:
                    claims.setdefault(p, set()).add(seat)
            for p in cells[:-1]:
                if _OPEN[grid[p]]:
                    passed.setdefault(p, set()).add(seat)
            if robot.speed_turns > 0:
                speedy.add(seat)
            entered.setdefault(robot.pos, []).append(seat)
        blasts = self._pickups(entered, events)
        if "paint-layers" in self.quirks:
            self._paint_in_layers(entered, passed, speedy, blasts)
        else:
            for p, seats in blasts.items():
                claims.setdefault(p, set()).update(seats)
            for p, seats in claims.items():
                if len(seats) == 1:
                    grid[p] = ord(COLOURS[next(iter(seats))])
        for p, seat in repaints:
            grid[p] = ord(COLOURS[seat])
        if "enclosure-in-order" in self.quirks:
            self._enclose_in_order(events)
        else:
            self._enclose(events)
        self._end_of_turn(turn, events)
        self.turn = turn + 1
        self._check_end(events)
        self._events = tuple(events)
        self._score_trail = (self._score_trail, self.scores())

    def _short_double_repaints(self) -> list[tuple[int, int]]:
        """Quirk ``repaint-short-double``: (cell, seat) for each robot in the game whose
        last double step ended early (RULING X2'), as the organizers' referee repaints
        them every turn: their cell, kept from that step, is painted the robot's colour
        again after the turn's painting, sealed or not, so a sealed cell opens again."""
        if "repaint-short-double" not in self.quirks:
            return []
        return [(r.short_middle, r.seat) for r in self.robots
                if r.in_game and r.short_middle is not None]

    def _paint_in_layers(self, entered: dict[int, list[int]], passed: dict[int, set[int]],
                         speedy: set[int], blasts: dict[int, set[int]]) -> None:
        """Quirk ``paint-layers``: robots alone on a cell paint it (unless they hold speed),
        then each explosion square paints over it, then the cells of speed holders (where
        they end alone, and the middle cells they crossed) paint over both; in each layer
        a cell claimed twice keeps its colour."""
        grid = self.grid
        for p, seats in entered.items():
            if len(seats) == 1 and seats[0] not in speedy and _OPEN[grid[p]]:
                grid[p] = ord(COLOURS[seats[0]])
        for p, seats in blasts.items():
            if len(seats) == 1:
                grid[p] = ord(COLOURS[next(iter(seats))])
        fast: dict[int, set[int]] = {p: set(s) for p, s in passed.items()}
        for p, seats in entered.items():
            if len(seats) == 1 and seats[0] in speedy and _OPEN[grid[p]]:
                fast.setdefault(p, set()).add(seats[0])
        for p, seats in fast.items():
            if len(seats) == 1:
                grid[p] = ord(COLOURS[next(iter(seats))])

    def _end_of_turn(self, turn: int, events: list[Event]) -> None:
        """Shrink (every K turns; with quirk ``seal-after-all-left`` also every turn once
        every robot has left), items vanishing and spawning."""
        b, k = self.board, self.board.period
        regular = turn > 0 and turn % k == 0
        extra = ("seal-after-all-left" in self.quirks and turn > 0 and not self.respawn
                 and not any(r.in_game for r in self.robots))
        if (regular or extra) and self.rings_sealed < b.shrinks:
            self._shrink(events)
        if "spawn-schedule" in self.quirks:
            if turn % k == 0:
                if turn > 0:
                    self.items = []
                if turn < (min(b.height, b.width) // 2 - 2) * k:
                    self._spawn(events)
        elif turn == 0:
            self._spawn(events)
        elif regular and turn // k <= b.shrinks:
            self.items = []                        # an item lives until the next shrink
            if turn // k <= b.shrinks - 3:
                self._spawn(events)

    def sealing_turn(self) -> None:
        """A turn with every robot gone, as the organizers' referee plays it (quirk
        ``seal-after-all-left``): seal the next ring, items as usual.  For turn logs."""
        events: list[Event] = []
        quirks = self.quirks
        self.quirks = quirks | {"seal-after-all-left"}
        self.spawn_check = None
        self.turn_marks = ()
        self._end_of_turn(self.turn, events)
        self.quirks = quirks
        self.turn += 1
        self.finished = b"1" not in self.grid.translate(_OPEN_TABLE)
        self._events = tuple(events)
        self._score_trail = (self._score_trail, self.scores())

    def _place(self, robot: Robot, move, events: list[Event]) -> int:
        """Put a robot on its chosen cell, or a random open cell for a bad choice."""
        b = self.board
        if isinstance(move, tuple) and len(move) == 2 and self.is_open(*move):
            p = b.index(*move)
        else:
            choices = [p for p in range(b.length) if _OPEN[self.grid[p]]]
            p = self.rng.choice(choices)
            events.append(Event("placement", Message("{robot} was placed at random on {cell}",
                                                     robot=robot.colour, cell=str(b.xy(p))),
                                (robot.seat,), (b.xy(p),)))
        robot.pos, robot.in_game = p, True
        robot.speed_turns = robot.oil_turns = 0
        robot.on_oil, robot.why, robot.left_turn = False, "", None
        return p

    def _move(self, robot: Robot, move, events: list[Event]) -> list[int]:
        """Move one robot; return the cells it stands on or passes (to paint)."""
        b = self.board
        target = move if isinstance(move, tuple) and len(move) == 2 else b.xy(robot.pos)
        kind, cells = self._resolve_step(robot, *target)
        if robot.on_oil:
            if kind != "step":
                px, py = b.xy(robot.pos)
                tx, ty = target
                if kind == "stay":
                    why = Message("stayed on the forbidden cell it oiled onto")
                elif abs(tx - px) + abs(ty - py) == 1 and b.on_map(tx, ty):
                    why = Message("stepped onto another forbidden cell")
                else:
                    why = Message("did not step off the forbidden cell it oiled onto")
                self._eliminate(robot, why, events)
                return []
            robot.on_oil = False
        if robot.speed_turns > 0:
            robot.speed_turns -= 1
        if kind == "oil":
            robot.oil_turns, robot.on_oil = 0, True
        elif robot.oil_turns > 0:
            robot.oil_turns -= 1
        if kind in ("stay", "invalid"):
            return [robot.pos]
        path = [b.index(*c) for c in cells]
        robot.pos = path[-1]
        if kind == "double" and len(path) == 1 and "repaint-short-double" in self.quirks:
            robot.short_middle = path[0]             # repainted every turn after
        return path

    def _pickups(self, entered: dict[int, list[int]], events: list[Event]) -> dict[int, set[int]]:
        """Items taken by a robot alone on their cell; ``E`` explodes at once.

        Returns the cells the explosions claim (cell -> exploding seats)."""
        b, remaining = self.board, []
        exploded: list[tuple[Robot, int]] = []
        blasts: dict[int, set[int]] = {}
        for p, kind in self.items:
            seats = entered.get(p, [])
            robot = self.robots[seats[0]] if len(seats) == 1 else None
            if robot is None or robot.holds_item or not robot.in_game:
                remaining.append((p, kind))
                continue
            if kind == "G":
                robot.speed_turns = ITEM_TURNS
            elif kind == "F":
                robot.oil_turns = ITEM_TURNS
            else:
                exploded.append((robot, p))
            events.append(Event("pickup", Message("{robot} picked up {item} at {cell}",
                                                  robot=robot.colour, item=kind, cell=str(b.xy(p))),
                                (robot.seat,), (b.xy(p),)))
        self.items = remaining
        victims = []
        first_only = "explosion-first-robot" in self.quirks
        for robot, p in exploded:
            x, y = b.xy(p)
            square = {b.index(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                      if b.on_map(x + dx, y + dy)}
            for q in square:
                if _OPEN[self.grid[q]]:
                    blasts.setdefault(q, set()).add(robot.seat)
            if first_only:       # the first robot standing on each open cell of the square
                hit = []
                for q in sorted(square):
                    here = [o for o in self.robots if o.in_game and o.pos == q]
                    if here and here[0] is not robot and _OPEN[self.grid[q]]:
                        hit.append(here[0])
            else:
                hit = [o for o in self.robots if o is not robot and o.in_game and o.pos in square]
            victims += [(o, robot) for o in hit]
            self.turn_marks += (("explosion", robot.seat, tuple(sorted(b.xy(q) for q in square))),)
            events.append(Event("explosion", Message("{robot} exploded E at {cell}",
                                                     robot=robot.colour, cell=str((x, y))),
                                (robot.seat, *(o.seat for o in hit)),
                                tuple(sorted(b.xy(q) for q in square))))
        for victim, by in victims:
            if victim.in_game:
                self._eliminate(victim, Message("caught in {robot}'s explosion", robot=by.colour), events)
        return blasts

    def _enclose_in_order(self, events: list[Event]) -> None:
        """Quirk ``enclosure-in-order``: each colour in turn, A to D, paints the open cells
        its flood does not reach, on the map as the colours before it left it; a robot
        whose cell changed colour in this step leaves."""
        b, grid = self.board, self.grid
        changed: dict[int, int] = {}
        for colour in range(self.players):
            letter = ord(COLOURS[colour])
            passable = int(grid.translate(_PASS_TABLES[colour]), 2)
            inside = b.outside(passable) & int(grid.translate(_OPEN_TABLE), 2)
            if not inside:
                continue
            cells = []
            for p in _bits(inside, b.length):
                if grid[p] != letter:
                    grid[p] = letter
                    changed[p] = colour
                    cells.append(b.xy(p))
            if cells:
                self.turn_marks += (("enclosure", colour, tuple(sorted(cells))),)
                events.append(Event("enclosure", Message("{robot} enclosed {count} cells",
                                                         robot=COLOURS[colour], count=len(cells)),
                                    (colour,), tuple(sorted(cells))))
        for robot in self.robots:
            if robot.in_game and robot.pos in changed:
                self._eliminate(robot, Message("enclosed by {robot}", robot=COLOURS[changed[robot.pos]]), events)

    def _enclose(self, events: list[Event]) -> None:
        """Paint every region a colour closes off; remove robots caught inside."""
        b, grid = self.board, self.grid
        open_mask = int(grid.translate(_OPEN_TABLE), 2)
        unreached: dict[int, int] = {}
        enclosed: dict[int, int] = {}
        for colour in range(self.players):
            letter = COLOURS[colour].encode()
            if letter not in grid and letter.lower() not in grid:
                continue
            passable = int(grid.translate(_PASS_TABLES[colour]), 2)
            outside = b.outside(passable)
            if outside:
                unreached[colour] = outside
                if outside & open_mask:
                    enclosed[colour] = outside & open_mask
        if not unreached:
            return
        owner = self._award(enclosed, unreached, open_mask)
        gained: dict[int, list[tuple[int, int]]] = {c: [] for c in enclosed}
        for p, colour in owner.items():
            if grid[p] != ord(COLOURS[colour]):
                grid[p] = ord(COLOURS[colour])
                gained[colour].append(b.xy(p))
        for colour, cells in gained.items():
            if cells:
                count = len(cells)
                self.turn_marks += (("enclosure", colour, tuple(sorted(cells))),)
                events.append(Event("enclosure", Message("{robot} enclosed {count} cells",
                                                         robot=COLOURS[colour], count=count),
                                    (colour,), tuple(sorted(cells))))
        for robot in self.robots:
            if not robot.in_game or robot.pos is None:
                continue
            bit = b.bit(robot.pos)
            closers = [c for c, mask in unreached.items() if c != robot.seat and mask & bit]
            if closers and grid[robot.pos] != ord(robot.colour):
                by = COLOURS[owner.get(robot.pos, closers[0])]
                self._eliminate(robot, Message("enclosed by {robot}", robot=by), events)

    def _award(self, enclosed: dict[int, int], unreached: dict[int, int],
               open_mask: int) -> dict[int, int]:
        """Cell -> colour for every enclosed cell, by the largest-region rule.

        A cell enclosed by one colour takes it.  A cell enclosed by several takes the
        colour whose enclosed region (the connected part of its enclosure holding the
        cell, counted in open cells) is largest; on a tie nobody takes it.
        """
        b = self.board
        cells_of = {c: _bits(mask, b.length) for c, mask in enclosed.items()}
        total = 0
        for mask in enclosed.values():
            total |= mask
        if sum(len(v) for v in cells_of.values()) == total.bit_count():
            return {p: c for c, cells in cells_of.items() for p in cells}
        region_size: dict[tuple[int, int], int] = {}   # (colour, cell) -> size
        for colour, cells in cells_of.items():
            done = 0
            for p in cells:
                bit = b.bit(p)
                if done & bit:
                    continue
                region = _flood(bit, unreached[colour], b.stride)
                done |= region
                size = (region & open_mask).bit_count()
                for q in _bits(region & enclosed[colour], b.length):
                    region_size[(colour, q)] = size
        owner = {}
        for p in _bits(total, b.length):
            sizes = sorted(((region_size[(c, p)], c) for c in cells_of
                            if (c, p) in region_size), reverse=True)
            if len(sizes) == 1 or sizes[0][0] > sizes[1][0]:
                owner[p] = sizes[0][1]
        return owner

    def _shrink(self, events: list[Event]) -> None:
        """Seal the outermost ring not sealed yet; robots on it leave."""
        grid = self.grid
        count = self.rings_sealed + 1
        ring = self.board.rings[count - 1]
        for p in ring:
            ch = grid[p]
            if ch == _EMPTY:
                grid[p] = _SEALED_EMPTY
            elif 65 <= ch <= 68:
                grid[p] = ch + 32
        self.rings_sealed = count
        events.append(Event("shrink", Message("ring {ring} sealed (shrink {count} of {total})",
                                              ring=count - 1, count=count, total=self.board.shrinks)))
        ring_set = set(ring)
        for robot in self.robots:
            if robot.in_game and robot.pos in ring_set:
                self._eliminate(robot, Message("stood on a cell sealed by the shrink"), events)

    def _spawn(self, events: list[Event]) -> None:
        """Put new items on the map (injected ones first, else drawn from the RNG)."""
        b = self.board
        if self.injected_spawns:
            chosen = [(b.index(i.x, i.y), i.kind) for i in self.injected_spawns.pop(0)]
            self.spawn_check = (min(ITEMS_PER_SPAWN, len(self._spawn_pool())), len(chosen))
        else:
            chosen = self._draw_items()
        self.items = chosen
        if chosen:
            events.append(Event("spawn", Message("items: {items}", items=[
                Message("{item} at {cell}", item=kind, cell=str(b.xy(p))) for p, kind in chosen])))

    def _spawn_pool(self) -> list[int]:
        """The cells a spawn draws from (RULES.md, "Spawning"; quirk ``spawn-fair-only``)."""
        b, grid = self.board, self.grid
        if self.players == 2 and "spawn-fair-only" in self.quirks:
            starts = [r.pos if r.pos is not None else r.last_pos for r in self.robots]
            dists = [self.walking_distances(p) if p is not None and _OPEN[grid[p]] else {}
                     for p in starts]
            d0, d1 = dists
            return [p for p in range(b.length) if _OPEN[grid[p]] and p in d0 and p in d1
                    and min(d0[p], d1[p]) >= 2 and abs(d0[p] - d1[p]) <= 1]
        occupied = {r.pos for r in self.robots if r.in_game}
        pool = [p for p in range(b.length) if _OPEN[grid[p]] and p not in occupied]
        standing = [r for r in self.robots if r.in_game and r.pos is not None]
        if self.players == 2 and len(standing) == 2:
            d0, d1 = self.walking_distances(standing[0].pos), self.walking_distances(standing[1].pos)
            fair = [p for p in pool if p in d0 and p in d1 and d0[p] >= 2 and d1[p] >= 2
                    and abs(d0[p] - d1[p]) <= 1]
            if len(fair) >= ITEMS_PER_SPAWN:
                pool = fair
        return pool

    def _draw_items(self) -> list[tuple[int, str]]:
        pool = self._spawn_pool()
        cells = self.rng.sample(pool, min(ITEMS_PER_SPAWN, len(pool)))
        if "spawn-distinct-kinds" in self.quirks:
            return list(zip(cells, self.rng.sample(ITEM_KINDS, len(cells))))
        return [(p, self.rng.choice(ITEM_KINDS)) for p in cells]

    def walking_distances(self, start: int) -> dict[int, int]:
        """Steps from cell ``start`` to every open cell (through open cells)."""
        b, grid = self.board, self.grid
        dist, frontier = {start: 0}, [start]
        steps = (1, -1, b.stride, -b.stride)
        while frontier:
            nxt = []
            for p in frontier:
                d = dist[p] + 1
                for s in steps:
                    q = p + s
                    if 0 <= q < b.length and q not in dist and _OPEN[grid[q]]:
                        dist[q] = d
                        nxt.append(q)
            frontier = nxt
        return dist

    def _eliminate(self, robot: Robot, why: str, events: list[Event]) -> None:
        where = () if robot.pos is None else (self.board.xy(robot.pos),)
        robot.leave(self.turn, why)
        events.append(Event("elimination", Message("{robot} left the game: {why}", robot=robot.colour,
                                                   why=why), (robot.seat,), where))

    def _check_end(self, events: list[Event]) -> None:
        no_cell = b"1" not in self.grid.translate(_OPEN_TABLE)
        everyone_left = not self.respawn and not any(r.in_game for r in self.robots)
        if no_cell or everyone_left:
            self.finished = True
            for robot in self.robots:
                if robot.in_game:
                    robot.in_game, robot.last_pos, robot.pos = False, robot.pos, None
            events.append(Event("verdict", self._result_text()))

    def _result_text(self) -> str:
        return ", ".join(f"{COLOURS[s]} {n}" for s, n in enumerate(self.scores()))

    def forfeit(self, seat: int, reason: Termination, detail: str = "") -> None:
        events: list[Event] = []
        if not 0 <= seat < self.players:
            raise IllegalMoveError(f"there is no seat {seat} in a {self.players}-robot game")
        robot = self.robots[seat]
        if robot.in_game:
            why = Message("{reason}: {detail}", reason=reason.value, detail=Message.of(detail)) \
                if detail else reason.value
            self._eliminate(robot, why, events)
        self._check_end(events)
        self._events = tuple(events)

    def adjudicate(self, outcome: Outcome) -> None:
        """The organizer ends the game with ``outcome`` (every robot stops where it is)."""
        self.finished, self._ruling = True, outcome
        self._events = (Event("verdict", outcome.detail or Message("the referee ended the game")),)

    def outcome(self) -> Outcome | None:
        if not self.finished:
            return None
        if self._ruling is not None:
            return self._ruling
        scores = self.scores()
        detail = Message("cells painted: {scores}", scores=self._result_text())
        return Outcome.ranked(scores, Termination.SCORE, detail)

    def turn_number(self) -> int:
        return self.turn

    def live_scores(self) -> tuple[float, ...]:
        return tuple(float(n) for n in self.scores())

    def events(self) -> tuple[Event, ...]:
        return self._events

    def clone(self) -> "RobotState":
        other = RobotState.__new__(RobotState)
        other.board = self.board
        other.quirks, other.rings_sealed = self.quirks, self.rings_sealed
        other.spawn_check = self.spawn_check
        other.grid = bytearray(self.grid)
        other.robots = [r.copy() for r in self.robots]
        other.items = list(self.items)
        other.turn = self.turn
        other._rng, other._rng_shared = self._rng, True
        self._rng_shared = True
        other.respawn = self.respawn
        other.finished = self.finished
        other._ruling = self._ruling
        other.injected_spawns = [list(s) for s in self.injected_spawns]
        other._events = self._events
        other._score_trail, other.turn_marks = self._score_trail, self.turn_marks
        return other

    def __eq__(self, other) -> bool:
        """Same map, robots, items, turn, options and random generator state."""
        if not isinstance(other, RobotState):
            return NotImplemented
        b, o = self.board, other.board
        return ((b.rows, b.period) == (o.rows, o.period) and self.grid == other.grid
                and [r.key() for r in self.robots] == [r.key() for r in other.robots]
                and self.items == other.items and self.turn == other.turn
                and self.respawn == other.respawn and self.finished == other.finished
                and self.quirks == other.quirks and self.rings_sealed == other.rings_sealed
                and self._ruling == other._ruling
                and self._rng.getstate() == other._rng.getstate())

    __hash__ = None

    def __str__(self) -> str:
        return "\n".join(self.map_rows(raw=True))


_MOVE_RE = re.compile(r"^\s*(-?\d{1,9})[\s,]+(-?\d{1,9})\s*$")


_CELL_RE = re.compile(r"^\s*(\d{1,3})[\s,]+(\d{1,3})\s*$")


def parse_move_text(text: str) -> tuple[int, int]:
    """``"X Y"`` (MOVE.OUT's first line; later lines are ignored) -> ``(X, Y)``."""
    first = text.strip().split("\n", 1)[0] if text and text.strip() else ""
    match = _MOVE_RE.match(first)
    if not match:
        raise MoveSyntaxError(Message("expected 'X Y' (two whole numbers), got {found}", found=repr(first[:40])))
    return int(match.group(1)), int(match.group(2))


def format_move_text(move: tuple[int, int]) -> str:
    return f"{move[0]} {move[1]}"


# ---------------------------------------------------------------------- maps
MIN_SIDE, MAX_SIDE = 11, 21          # the contest's bounds (strict mode)
MIN_PERIOD, MAX_PERIOD = 5, 20


class MapError(RecordFormatError):
    """A map that cannot be played: names the file, the line and the expectation."""


@dataclass(frozen=True)
class RobotMap:
    """A parsed map: ``rows[r][c]`` is ``'.'`` or ``'#'``."""

    name: str
    height: int          # M
    width: int           # N
    period: int          # K
    rows: tuple[str, ...]

    def text(self) -> str:
        """The map in the organizers' file format (no spaces between cells)."""
        return f"{self.height} {self.width} {self.period}\n" + "\n".join(self.rows) + "\n"


def parse_map(text: str, path: str = "<map>", strict: bool = False) -> RobotMap:
    """Read a map from text; ``strict`` also enforces the contest's size bounds (11 to 21, period 5 to 20).

    Without ``strict`` any odd size from 3 to 21 and any period from 1 is accepted
    (smaller maps are allowed in tests, such as the 7×7 worked example).
    """
    lines = [line for line in text.replace("\r", "").split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines or not lines[0].strip():
        raise MapError(path, 1, Message("'M N K' (rows, columns, shrink period)"))
    head = lines[0].split()
    if len(head) != 3 or not all(_is_int(x) for x in head):
        raise MapError(path, 1, Message("'M N K' as three whole numbers, not {found}", found=repr(lines[0].strip())))
    height, width, period = (int(x) for x in head)
    low, high = (MIN_SIDE, MAX_SIDE) if strict else (3, MAX_SIDE)
    for label, value in (("M", height), ("N", width)):
        if value % 2 == 0 or not low <= value <= high:
            raise MapError(path, 1, Message("{side} odd and between {low} and {high}, not {value}", side=label, low=low,
                                                 high=high, value=value))
    p_low, p_high = (MIN_PERIOD, MAX_PERIOD) if strict else (1, 1000)
    if not p_low <= period <= p_high:
        raise MapError(path, 1, Message("K between {low} and {high}, not {value}", low=p_low, high=p_high, value=period))
    rows = []
    for index in range(height):
        number = index + 2
        if number > len(lines):
            raise MapError(path, number, Message("map row {row} of {rows} (the file ends early)", row=index, rows=height))
        row = "".join(lines[number - 1].split())
        if len(row) != width:
            raise MapError(path, number, Message("{count} cells in map row {row}, found {found}", count=width, row=index,
                                                      found=len(row)))
        bad = next((ch for ch in row if ch not in ".#"), None)
        if bad is not None:
            raise MapError(path, number, Message("only '.' and '#' in map row {row}, found {found}", row=index,
                                                      found=repr(bad)))
        rows.append(row)
    for number in range(height + 2, len(lines) + 1):
        if lines[number - 1].strip():
            raise MapError(path, number, Message("the end of the file after {rows} map rows", rows=height))
    robot_map = RobotMap(PurePath(path).stem if path != "<map>" else "custom", height, width, period,
                         tuple(rows))
    _check_connected(robot_map, path)
    return robot_map


def _is_int(text: str) -> bool:
    try:
        int(text)
        return True
    except ValueError:
        return False


def _check_connected(robot_map: RobotMap, path: str) -> None:
    """Every open cell must reach every other (the maze is connected)."""
    cells = {(r, c) for r, row in enumerate(robot_map.rows) for c, ch in enumerate(row) if ch == "."}
    if not cells:
        raise MapError(path, 2, Message("at least one open '.' cell"))
    start = min(cells)
    seen, stack = {start}, [start]
    while stack:
        r, c = stack.pop()
        for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nxt in cells and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    if len(seen) != len(cells):
        r, c = min(cells - seen)
        raise MapError(path, r + 2, Message("a connected map: cell {cell} cannot be reached from cell {start}",
                                            cell=str((r, c)), start=str(start)))




class RobotGame(Game):
    """Robot Đại Chiến: 2-4 robots painting a shrinking maze."""

    spec = GameSpec(
        name="robot", title="Robot Đại Chiến", min_seats=2, max_seats=4,
        variants=(Variant("2 players", {"players": 2}, "a duel"),
                  Variant("3 players", {"players": 3}),
                  Variant("4 players", {"players": 4}, "the all-in format")),
        options=(Option("map", "scatter-21", "a shipped map name, a map file, or map text",
                        file=True),
                 Option("map_name", "", "the map's name, set from the map file", hidden=True),
                 Option("players", 2, "number of robots", (2, 3, 4)),
                 Option("respawn", "off", "a robot that left is placed again next turn",
                        ("off", "on")),
                 Option("period", 0, "shrink period K (0: the map's own K)"),
                 Option("compat", "arena", "arena: the rules in RULES.md; organizers: play "
                        "as the organizers' referee does where it differs", COMPAT_MODES),
                 Option("human_time_per_move", 0.0,
                        "seconds a person has for each move (0: no limit, as in the other games)")),
        seat_names=("A", "B", "C", "D"),
        summary="Paint the most cells; close loops to claim their inside; the map shrinks.",
        can_undo=True, kind=GameKind.SIMULTANEOUS, live_scores=True, seats_option="players")

    def new_initial_state(self, options: Mapping, seed: int) -> RobotState:
        """``options["map"]`` is the map's text (the runner puts a named or shipped
        map's text there: the rules read no files)."""
        players = int(options.get("players", 2))
        if not 2 <= players <= 4:
            raise GameSetupError(Message("Robot takes 2-4 players, not {count}", count=players))
        respawn = options.get("respawn", "off")
        respawn = respawn in (True, "on", "true", "1", 1)
        map_option = str(options.get("map", ""))
        if "\n" not in map_option:
            raise GameSetupError(Message("the map must be given as its text, not {map} (the arena reads map files "
                                         "before the game starts)", map=repr(map_option)))
        robot_map = parse_map(map_option, str(options.get("map_name") or "<map>"))
        period = int(options.get("period", 0) or robot_map.period)
        if period < 1:
            raise GameSetupError(Message("shrink period must be at least 1, not {period}", period=period))
        board = Board(robot_map.height, robot_map.width, period, robot_map.rows, robot_map.name)
        return RobotState(board, players, seed, respawn, quirks_for(options.get("compat", "arena")))

    def parse_cell(self, text: str) -> tuple[int, int] | None:
        """``X Y`` (row, column, as MAP.INP and MOVE.OUT write them) -> ``(X, Y)``."""
        match = _CELL_RE.match(text) if isinstance(text, str) else None
        return (int(match.group(1)), int(match.group(2))) if match else None

    def parse_move(self, text: str, state: State | None = None, seat: int | None = None):
        return parse_move_text(text)

    def format_move(self, move) -> str:
        return format_move_text(move)

    def default_move(self, state: RobotState, seat: int):
        """Stay in place; a robot that must be placed gets a random cell."""
        pos = state.position(seat)
        return RANDOM_PLACEMENT if pos is None else pos

    def describe(self, state: RobotState) -> str:
        if state.finished:
            return state.outcome().detail
        shrink = state.next_shrink_turn()
        if shrink is None:
            return Message("Turn {n}: {rest}", n=state.turn, rest=state._result_text())
        return Message("Turn {n}, next shrink after turn {shrink}: {rest}", n=state.turn, shrink=shrink,
                       rest=state._result_text())


def quirks_for(compat: str) -> frozenset[str]:
    """The organizers' behaviours option ``compat`` turns on."""
    if compat in ("", None, "arena"):
        return frozenset()
    if compat == "organizers":
        return frozenset(QUIRKS)
    raise GameSetupError(f"option compat: {compat!r} is not one of " + ", ".join(COMPAT_MODES))


def board_from_rows(rows: Sequence[str], period: int, name: str = "") -> Board:
    """A board from map rows (``.``/``#``) for tests and tools."""
    return Board(len(rows), len(rows[0]), period, rows, name)


def state_from_rows(rows: Iterable[str], period: int, players: int = 2, seed: int = 0,
                    respawn: bool = False, quirks: Iterable[str] = ()) -> RobotState:
    """A fresh state on a map given as rows, for tests and tools."""
    rows = list(rows)
    return RobotState(board_from_rows(rows, period), players, seed, respawn, quirks)


def enclosure_if_painted(state: RobotState, seat: int, cells: Iterable[int] = ()) -> int:
    """Bit set of the cells ``seat``'s colour would enclose if it also owned ``cells``.

    Cell ``p`` is bit ``state.board.bit(p)``; forbidden and sealed cells inside count
    too (a robot standing there would be caught).  For bots.
    """
    grid = bytearray(state.grid)
    letter = ord(COLOURS[seat])
    for p in cells:
        if _OPEN[grid[p]]:
            grid[p] = letter
    b = state.board
    passable = int(grid.translate(_PASS_TABLES[seat]), 2)
    return b.outside(passable)


def enclosed_if_painted(state: RobotState, seat: int, cells: Iterable[int] = ()) -> int:
    """How many open cells ``seat``'s colour would enclose if it also owned ``cells``."""
    open_mask = int(state.grid.translate(_OPEN_TABLE), 2)
    return (enclosure_if_painted(state, seat, cells) & open_mask).bit_count()
