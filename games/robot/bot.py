"""Built-in Robot bots, from random to a territory player.

Levels:

1. ``random``: a uniformly random legal move.
2. ``painter``, a quarter of its moves random: walks to the nearest cell not of its
   colour that the shrinking ring will not seal before it gets there (breadth-first
   search in time); on 25 % of its turns (drawn from its seed) it makes a random move
   that escapes the shrink instead (:class:`ErraticBot`).  Weakened so that level 3
   beats it as clearly as it beats level 1 (``games/robot/LEVELS.md``).
3. ``territory``: tries each of its moves on a copy of the state (the others assumed
   to stay), scoring cells won and lost, enclosures, items, the chance to close a
   loop by walking home, the cells an opponent could enclose next turn, and whether
   it can still outrun the shrinking ring.
4. ``strongest``: predicts each opponent's move as a one-step greedy player would make
   it (:func:`greedy_guess`, exact for the organizers' Greedy bot) and searches its
   own moves against those replies, four turns ahead with two robots and three with
   more (:mod:`games.robot.lookahead`): cells ahead of the best opponent, robots
   removed, pockets the shrink will seal, loops ready to close.  With
   ``lookahead_players = ()`` it plays one turn ahead instead, as the territory player
   weighing an opponent's gain nearly as its own, banking cells of the ring the next
   shrink seals (:func:`banked_cells`) and valuing removing a robot by the turns it
   would still have painted.

Levels 3 and 4 also check, for each move, how long the robot could then stay clear of
the shrink (:func:`survival_turns`), so they do not walk into a pocket the next shrink
seals, and remember where they stood over the last turns, so two robots trading cells
(a swap loop) do not go on for a whole game.

Levels 1-3 answer in a few milliseconds; level 4's search takes tens of milliseconds
(under 0.2 s at worst on an idle machine), far inside the 2 seconds a program gets.

Every bot is deterministic for a given seed and the states it was shown in the game.
A seat spec may set the random share of levels 2-4: ``bot:4 random=10`` plays 10 % of
its turns at random (``random=100``: at random every turn, never into the shrink).
"""
from __future__ import annotations

import random
from collections.abc import Mapping

from games.api import GameSetupError
from games.bots import NO_SETTINGS_AT_LEVEL_1, Bot, whole_number_settings
from games.robot.rules import (COLOURS, RANDOM_PLACEMENT, RobotState, _OPEN, _OPEN_TABLE,
                               _mask_table, enclosed_if_painted, enclosure_if_painted)

LEVELS = ("random", "painter", "territory", "strongest")
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def safe_ring(state: RobotState, turns_ahead: int) -> int:
    """The smallest ring not sealed by the end of turn ``state.turn + turns_ahead``."""
    end = state.turn + turns_ahead
    return end // state.board.period if end > 0 else 0


def choose_placement(state: RobotState, seat: int, rng: random.Random) -> tuple[int, int]:
    """An open cell well inside the map, away from the others and near open space."""
    b = state.board
    others = [state.position(s) for s in range(state.players) if s != seat]
    others = [o for o in others if o is not None]
    best, best_score = None, None
    for x, y in state.open_cells():
        ring = state.ring_of(x, y)
        room = sum(state.is_open(x + dx, y + dy) for dx, dy in STEPS)
        spread = min((abs(x - ox) + abs(y - oy) for ox, oy in others), default=b.height)
        score = min(ring, 4) * 3 + room + min(spread, 6) + rng.random()
        quarter = (x < b.height // 2, y < b.width // 2)
        if quarter == ((seat in (0, 1)), (seat in (0, 3))):
            score += 4
        if best_score is None or score > best_score:
            best, best_score = (x, y), score
    return best or RANDOM_PLACEMENT


def can_outrun_shrink(state: RobotState, seat: int) -> bool:
    """True when the robot can still reach a ring the shrink leaves alone for 2K turns.

    Two periods, not one: a pocket of the next ring that opens only onto the ring
    sealed now is safe for one shrink and a trap at the next (a shrink trap)."""
    b, grid = state.board, state.grid
    start = state.robots[seat].pos
    horizon = SHRINK_HORIZON * b.period
    last = b.period * b.shrinks
    if state.turn + horizon >= last:
        horizon = max(0, last - state.turn - 1)
    goal_ring = safe_ring(state, horizon)
    seen, frontier = {start}, [start]
    for depth in range(horizon + 1):
        needed = safe_ring(state, depth - 1) if depth else 0
        nxt = []
        for p in frontier:
            x, y = divmod(p, b.stride)
            ring = min(x, y, b.height - 1 - x, b.width - 1 - y)
            if ring < needed:
                continue
            if ring >= goal_ring:
                return True
            for step in (b.stride, -b.stride, 1, -1):
                q = p + step
                if q not in seen and 0 <= q < b.length and _OPEN[grid[q]]:
                    seen.add(q)
                    nxt.append(q)
        frontier = nxt
    return False


def _ring_masks(board) -> list[int]:
    """Per ring r, the bit set of the cells in ring r or further in (cached per board)."""
    masks = getattr(board, "_ring_masks", None)
    if masks is None:
        masks = [0] * (board.shrinks + 1)
        for p in range(board.length):
            x, y = board.xy(p)
            if y < board.width:
                ring = min(x, y, board.height - 1 - x, board.width - 1 - y)
                for r in range(ring + 1):
                    masks[r] |= board.bit(p)
        board._ring_masks = masks
    return masks


def survival_turns(state: RobotState, seat: int) -> int:
    """How many turns from now the robot can stay clear of the shrink, at best (up to
    the last shrink): every cell it may stand on after each turn, kept as a bit set
    (stepping or staying through open cells, the sealed rings taken away turn by turn).
    A pocket that opens only onto a ring sealed soon shows as a short survival, however
    safe the pocket's own ring is for now (a shrink trap)."""
    b = state.board
    start = state.robots[seat].pos
    if start is None:
        return 0
    masks = _ring_masks(b)
    open_mask = int(state.grid.translate(_OPEN_TABLE), 2)
    reach, w, k = b.bit(start), b.stride, b.period
    last = k * b.shrinks
    turn = state.turn
    while turn < last:
        needed = min(turn // k, b.shrinks)
        reach = (reach | (reach << 1) | (reach >> 1) | (reach << w) | (reach >> w)) \
            & open_mask & masks[needed]
        if not reach:
            break
        turn += 1
    return turn - state.turn


def survives(state: RobotState, seat: int, move: tuple[int, int]) -> bool:
    """True when moving to ``move`` escapes this turn's shrink and the next ones."""
    if state.ring_of(*move) < safe_ring(state, 0) or not state.is_open(*move):
        return False
    moved = state.clone()
    moved.robots[seat].pos = state.board.index(*move)
    moved.turn += 1
    return can_outrun_shrink(moved, seat)


class RandomRobotBot(Bot):
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: RobotState, seat: int, time_budget):
        moves = state.legal_moves(seat)
        return self.rng.choice(moves) if moves else RANDOM_PLACEMENT


class PainterBot(Bot):
    """Nearest unpainted (or enemy) cell that stays safe from the shrink."""

    name = "painter"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: RobotState, seat: int, time_budget):
        if state.position(seat) is None:
            return choose_placement(state, seat, self.rng)
        path = self.path_to_target(state, seat)
        if path and survives(state, seat, path[0]):
            return path[0]
        return self.escape(state, seat)

    def path_to_target(self, state: RobotState, seat: int) -> list[tuple[int, int]] | None:
        """Cells to walk to the nearest worthwhile cell, each safe when reached."""
        b, grid = state.board, state.grid
        start = state.robots[seat].pos
        mine = ord(COLOURS[seat])
        items = {p for p, _ in state.items}
        parent = {start: None}
        frontier, depth = [start], 0
        stride = b.stride
        while frontier:
            depth += 1
            ring_needed = safe_ring(state, depth - 1)
            nxt = []
            for p in frontier:
                for step in (stride, -stride, 1, -1):
                    q = p + step
                    if q in parent or not 0 <= q < b.length or not _OPEN[grid[q]]:
                        continue
                    x, y = divmod(q, stride)
                    if min(x, y, b.height - 1 - x, b.width - 1 - y) < ring_needed:
                        continue
                    parent[q] = p
                    if grid[q] != mine or q in items:
                        return self._unwind(state, parent, q)
                    nxt.append(q)
            self.rng.shuffle(nxt)
            frontier = nxt
        return None

    @staticmethod
    def _unwind(state: RobotState, parent: dict, cell: int) -> list[tuple[int, int]]:
        path = []
        while parent[cell] is not None:
            path.append(state.board.xy(cell))
            cell = parent[cell]
        return path[::-1]

    @staticmethod
    def escape(state: RobotState, seat: int) -> tuple[int, int]:
        """No safe target: a move that survives, preferring inner rings and new cells."""
        b = state.board
        mine = COLOURS[seat]
        moves = state.legal_moves(seat)
        return max(moves, key=lambda m: (survives(state, seat, m),
                                         state.is_open(*m) and state.cell(*m) != mine,
                                         state.ring_of(*m) if state.is_open(*m) else -1,
                                         -abs(m[0] - b.height // 2) - abs(m[1] - b.width // 2)))


ITEM_VALUE = {"G": 3.0, "E": 6.0, "F": 1.0}
SHRINK_HORIZON = 2        # periods ahead a robot makes sure it can outrun the shrink
LOOP_MEMORY = 10          # turns a robot remembers where it stood
LOOP_PENALTY = 1.5        # per time it stood on a cell in that while
ELIMINATION_VALUE = 0.8   # per turn left in the game, for removing an opponent's robot
THEIRS_WEIGHT = 1.6        # per cell the others gain (per cell we gain: 2)
BANK_VALUE = 1.0          # per cell of the ring the next shrink seals, held as it nears
_COLOUR_TABLES = {c: _mask_table(c.encode()) for c in COLOURS}


def banked_cells(state: RobotState, seat: int, ring: int) -> int:
    """How many open cells of ``ring`` are of ``seat``'s colour.  Painted cells of the
    ring the next shrink seals become the robot's for good (sealed cells still count and
    can no longer be taken), and greedy players shy away from that ring as the shrink
    nears: the cheapest lasting cells of the map."""
    masks = _ring_masks(state.board)
    if ring >= len(masks):
        return 0
    exact = masks[ring] & ~(masks[ring + 1] if ring + 1 < len(masks) else 0)
    own = int(state.grid.translate(_COLOUR_TABLES[COLOURS[seat]]), 2)
    return bin(own & exact).count("1")


def next_sealed_ring(state: RobotState) -> tuple[int, int]:
    """(the ring the next shrink seals, turns until it does, counted from ``state``)."""
    k = state.board.period
    ring = max(0, state.turn - 1) // k
    return ring, (ring + 1) * k - state.turn + 1


def _turns_left(state: RobotState) -> int:
    """Turns until the last shrink ends the game."""
    return max(0, state.board.period * state.board.shrinks - state.turn)


class TerritoryBot(PainterBot):
    """One-ply simulation of its own moves plus a loop-closing heuristic."""

    name = "territory"
    #: Per cell the others gain (per cell it gains: 2.0).
    theirs_weight = 0.7
    #: Per cell of the ring the next shrink seals that it holds (0: not weighed).
    bank_value = 0.0
    #: Per turn left in the game, for an opponent's robot removed (at least 8).
    elimination_value = 0.0
    #: For standing where an opponent could enclose the robot next turn.
    danger_penalty = 60.0

    def choose(self, state: RobotState, seat: int, time_budget):
        if state.position(seat) is None:
            return choose_placement(state, seat, self.rng)
        moves = state.legal_moves(seat)
        target = self.path_to_target(state, seat)
        hint = target[0] if target else None
        watch = 0
        for move in moves:
            if state.board.on_map(*move):
                watch |= state.board.bit(state.board.index(*move))
        if target:
            watch |= state.board.bit(state.board.index(*target[0]))
        self.danger = self.enclosure_threats(state, seat, watch)
        self._danger_cache: dict[int, bool] = {}
        self._scores_before = state.scores()
        self.predicted = self.others_moves(state, seat)
        recent = self.recent_cells(state, seat)
        afters = {move: self.simulate(state, seat, move) for move in moves}
        self._survival = {move: survival_turns(after, seat) if after.robots[seat].pos is not None
                          else 0 for move, after in afters.items()}
        self._best_survival = max(self._survival.values())
        best, best_value = moves[0], None
        for move in moves:
            self._move_survival = self._survival[move]
            value = self.value_after(state, seat, move, hint, afters[move])
            if state.board.on_map(*move):
                value -= LOOP_PENALTY * recent.get(state.board.index(*move), 0)
            if best_value is None or value > best_value:
                best, best_value = move, value
        return best

    def recent_cells(self, state: RobotState, seat: int) -> dict[int, int]:
        """How often the robot stood on each cell in the last LOOP_MEMORY turns (a swap
        loop, two robots trading cells for a whole game, shows as the same two cells
        again and again).  Remembered per game: a state from an earlier turn (undo, a
        new game) forgets the later turns."""
        trail = getattr(self, "_trail", None)
        if trail is None:
            trail = self._trail = {}
        for turn in [t for t in trail if t >= state.turn]:
            del trail[turn]
        counts: dict[int, int] = {}
        for turn, cell in trail.items():
            if turn >= state.turn - LOOP_MEMORY:
                counts[cell] = counts.get(cell, 0) + 1
        trail[state.turn] = state.robots[seat].pos
        return counts

    def reset(self) -> None:
        self._trail = {}

    @staticmethod
    def enclosure_threats(state: RobotState, seat: int, watch: int, only: int | None = None,
                          taken: int | None = None) -> int:
        """Cells of ``watch`` (a bit set) some opponent could enclose with its next move.

        ``only`` limits it to one opponent; ``taken`` is a cell assumed repainted in
        our colour first (stepping onto an opponent's cell turns its wall into a hole).
        Painting more cells only encloses more, so one flood with all of an opponent's
        reachable cells painted rules most opponents out before trying each move.
        """
        if taken is not None:
            state = state.clone()
            state.grid[taken] = ord(COLOURS[seat])
        danger = 0
        for other in range(state.players):
            robot = state.robots[other]
            if other == seat or not robot.in_game or robot.pos is None:
                continue
            if only is not None and other != only:
                continue
            options = []
            for move in state.legal_moves(other):
                kind, cells = state._resolve_step(robot, *move)
                options.append([state.board.index(*c) for c in cells])
            everything = [p for cells in options for p in cells]
            superset = enclosure_if_painted(state, other, everything)
            for p in everything:                 # its own new cells are walls there only
                superset |= state.board.bit(p)
            if not superset & watch:
                continue
            for painted in options:
                danger |= enclosure_if_painted(state, other, painted) & watch
        return danger

    def in_danger(self, before: RobotState, seat: int, cell: int) -> bool:
        """Could an opponent enclose ``cell`` next turn if we stand on it?"""
        if self.danger & before.board.bit(cell):
            return True
        owner = chr(before.grid[cell])
        if owner in COLOURS and owner != COLOURS[seat]:
            if cell not in self._danger_cache:
                mask = self.enclosure_threats(before, seat, before.board.bit(cell),
                                              COLOURS.index(owner), cell)
                self._danger_cache[cell] = bool(mask & before.board.bit(cell))
            return self._danger_cache[cell]
        return False

    def others_moves(self, state: RobotState, seat: int) -> dict:
        return {s: (state.position(s) or RANDOM_PLACEMENT) for s in state.to_move() if s != seat}

    def simulate(self, state: RobotState, seat: int, move) -> RobotState:
        after = state.clone()
        after.injected_spawns = [[] for _ in range(2)]
        moves = dict(self.predicted)
        moves[seat] = move
        after.apply(moves)
        return after

    def value_after(self, state, seat, move, hint, after=None) -> float:
        if after is None:
            after = self.simulate(state, seat, move)
            self._move_survival = self._best_survival = None
        value = self.evaluate(state, after, seat)
        return value + (0.6 if move == hint else 0.0)

    def evaluate(self, before: RobotState, after: RobotState, seat: int) -> float:
        robot = after.robots[seat]
        if robot.left_turn is not None:          # eliminated (not the game's natural end)
            return -1000.0
        now, then = after.scores(), self._scores_before
        mine = now[seat] - then[seat]
        theirs = sum(now[s] - then[s] for s in range(after.players) if s != seat)
        value = 2.0 * mine - self.theirs_weight * theirs
        removed = sum(1 for s in range(after.players) if s != seat
                      and before.robots[s].in_game and not after.robots[s].in_game)
        if removed:          # a robot gone paints no more: worth what it would have painted
            value += removed * max(8.0, self.elimination_value * _turns_left(after))
        ring, until = next_sealed_ring(after)
        if self.bank_value and until <= after.board.period:
            value += self.bank_value * (1 - until / (after.board.period + 1)) * (
                banked_cells(after, seat, ring) - banked_cells(before, seat, ring))
        held = robot.held
        if held and not before.robots[seat].held:
            value += ITEM_VALUE[held]
        if robot.pos is not None:
            # Cells about to be sealed are worth painting (they keep counting), so
            # the only shrink concern is being able to get away in time.
            if self._move_survival is None:
                if not can_outrun_shrink(after, seat):
                    value -= 500.0
            elif self._move_survival < self._best_survival:
                value -= 500.0 if self._move_survival < after.board.period else 200.0
            if self.in_danger(before, seat, robot.pos):
                value -= self.danger_penalty
            path = self.path_to_target(after, seat)
            value -= 0.3 * (len(path) if path is not None else 15)
            value += self.loop_value(after, seat)
        return value

    def loop_value(self, state: RobotState, seat: int) -> float:
        """What walking the shortest way home would enclose, per step it takes."""
        path = self.path_home(state, seat)
        if not path:
            return 0.0
        gained = enclosed_if_painted(state, seat, path)
        return gained / (len(path) + 1) * 0.9

    @staticmethod
    def path_home(state: RobotState, seat: int, limit: int = 12) -> list[int]:
        """Open cells from the robot to its nearest own cell (not counting its own cell)."""
        b, grid = state.board, state.grid
        start = state.robots[seat].pos
        mine = ord(COLOURS[seat])
        parent, frontier = {start: None}, [start]
        for _ in range(limit):
            nxt = []
            for p in frontier:
                for step in (b.stride, -b.stride, 1, -1):
                    q = p + step
                    if q in parent or not 0 <= q < b.length or not _OPEN[grid[q]]:
                        continue
                    parent[q] = p
                    if grid[q] == mine and p != start:
                        path = []
                        while q is not None and q != start:
                            path.append(q)
                            q = parent[q]
                        return path
                    if grid[q] != mine:
                        nxt.append(q)
            frontier = nxt
        return []


GREEDY_CELL_VALUE = {"item": {"E": 1000.0, "G": 800.0, "F": 700.0}, "empty": 100.0,
                     "enemy": 150.0, "own": 10.0}
#: The order a one-step greedy player tries its moves in (the first best one wins).
GREEDY_ORDER = ((-1, 0), (1, 0), (0, -1), (0, 1), (0, 0))


def greedy_guess(state: RobotState, seat: int) -> tuple[int, int]:
    """The move a one-step greedy opponent makes: items first (an explosion by the cells
    it would win), then another colour's cell, an empty cell, its own; staying a little
    worse than moving; away from the ring the next shrink seals (more so as it nears);
    toward the centre and the other robots; never into this turn's shrink.  With speed
    it also weighs double steps (a shorter move wins a tie)."""
    b = state.board
    robot = state.robots[seat]
    x, y = b.xy(robot.pos)
    items = {p: kind for p, kind in state.items}
    sealed_below = safe_ring(state, 0)
    k, turn = b.period, state.turn
    options = [((x + dx, y + dy), 0 if dx == dy == 0 else 1) for dx, dy in GREEDY_ORDER]
    if robot.speed_turns > 0 and not robot.on_oil:
        options += [((x + 2 * dx, y + 2 * dy), 2) for dx, dy in GREEDY_ORDER[:4]
                    if state.is_open(x + dx, y + dy)
                    and state.ring_of(x + dx, y + dy) >= sealed_below]
    best, best_key = (x, y), None
    for (tx, ty), steps in options:
        if not state.is_open(tx, ty) or state.ring_of(tx, ty) < sealed_below:
            continue
        p = b.index(tx, ty)
        cell = chr(state.grid[p])
        value = 0.0
        if p in items and not robot.holds_item:
            value += GREEDY_CELL_VALUE["item"][items[p]]
            if items[p] == "E":
                value += 20.0 * _blast_gain(state, robot, tx, ty)
        value += (GREEDY_CELL_VALUE["empty"] if cell == "." else GREEDY_CELL_VALUE["own"]
                  if cell == robot.colour else GREEDY_CELL_VALUE["enemy"])
        if steps == 0:
            value -= 1.0
        until = (state.ring_of(tx, ty) + 1) * k - turn
        if 0 < until <= k:
            value -= (k - until + 1) * 8.0
        value -= abs(tx - b.height // 2) + abs(ty - b.width // 2)
        for other in state.robots:
            if other is robot or not other.in_game or other.pos is None:
                continue
            ox, oy = b.xy(other.pos)
            distance = abs(tx - ox) + abs(ty - oy)
            if distance == 0 and cell == other.colour:
                value += 75.0
            elif 0 < distance < 3:
                value += (3 - distance) * 5.0
        key = (value, -steps)
        if best_key is None or key > best_key:
            best, best_key = (tx, ty), key
    return best


def _blast_gain(state: RobotState, robot, x: int, y: int) -> int:
    """Cells of the 5x5 square around (x, y) a greedy player counts as won by an
    explosion there: open, not its colour, no other robot on them."""
    others = {o.pos for o in state.robots if o is not robot and o.in_game and o.pos is not None}
    gain = 0
    for tx in range(x - 2, x + 3):
        for ty in range(y - 2, y + 3):
            if state.is_open(tx, ty) and state.cell(tx, ty) != robot.colour \
                    and state.board.index(tx, ty) not in others:
                gain += 1
    return gain


class StrongestBot(TerritoryBot):
    """The territory player, predicting each opponent as a one-step greedy player, and
    playing against them: a cell an opponent gains weighs 0.8 of one it gains itself
    (a follower repainting its trail is a loss, walking on the follower's cells is
    not), cells of the ring the next shrink seals are banked as the shrink nears, and
    removing an opponent (an explosion, an enclosure) is worth the turns it would
    still have painted."""

    name = "strongest"
    theirs_weight = THEIRS_WEIGHT
    bank_value = BANK_VALUE
    elimination_value = ELIMINATION_VALUE

    #: Look ahead in games of these numbers of robots (:mod:`games.robot.lookahead`;
    #: three turns deep with three or four robots, where a turn costs more).
    lookahead_players: tuple[int, ...] = (2, 3, 4)

    def choose(self, state: RobotState, seat: int, time_budget):
        if state.players not in self.lookahead_players or state.position(seat) is None:
            return super().choose(state, seat, time_budget)
        from games.robot.lookahead import Lookahead
        moves = state.legal_moves(seat)
        recent = self.recent_cells(state, seat)
        target = self.path_to_target(state, seat)
        bias = {}
        for move in moves:
            bias[move] = 0.1 if target and move == target[0] else 0.0
            if state.board.on_map(*move):
                bias[move] -= LOOP_PENALTY * recent.get(state.board.index(*move), 0)
        best, _ = Lookahead(self, seat, greedy_guess).best_move(state, moves, bias)
        return best

    def others_moves(self, state: RobotState, seat: int) -> dict:
        moves = {}
        for other in state.to_move():
            if other == seat:
                continue
            if state.position(other) is None:
                moves[other] = RANDOM_PLACEMENT
                continue
            moves[other] = greedy_guess(state, other)
        return moves


def random_choices(state: RobotState, seat: int) -> list[tuple[int, int]]:
    """The moves a random turn picks from: the legal moves that escape the shrink (all
    legal moves when none does), so a weakened level wanders but does not walk off the
    map's shrinking edge on purpose."""
    moves = state.legal_moves(seat)
    return [m for m in moves if survives(state, seat, m)] or moves


class ErraticBot(Bot):
    """A level's bot that plays a random move (:func:`random_choices`) instead of its own
    on a fixed share of its turns (placement excepted): a weaker level whose weakness is
    one number.  Its own bot still chooses every turn (so what it remembers of the game, its
    recent cells, stays whole); the draw whether to replace that move, and the random
    move, come from a generator of their own, seeded from the seat's seed, so the level
    stays deterministic for a given seed."""

    def __init__(self, inner: Bot, percent: int, seed: int = 0):
        self.inner, self.percent = inner, percent
        self.name = f"{inner.name} {percent}% random"
        self.rng = random.Random(f"erratic {seed}")

    def choose(self, state: RobotState, seat: int, time_budget):
        move = self.inner.choose(state, seat, time_budget)
        if state.position(seat) is None:
            return move
        if self.rng.random() * 100 < self.percent:
            return self.rng.choice(random_choices(state, seat))
        return move

    def reset(self) -> None:
        self.inner.reset()


#: Each level's bot and the share of its turns (percent) it plays at random instead.
LEVEL_BOTS = {1: ("random", 0), 2: ("painter", 25), 3: ("territory", 0), 4: ("strongest", 0)}
_CLASSES = {"random": RandomRobotBot, "painter": PainterBot, "territory": TerritoryBot,
            "strongest": StrongestBot}
BOT_SETTINGS = ("random",)


def make_bot(level: int, seed: int, settings: Mapping[str, str] | None = None) -> Bot:
    """``level`` 1-4 (see module docstring).  ``settings`` (``bot:3 random=20``):
    ``random``, the percent of turns played at random instead (overrides the level's)."""
    level = int(level)
    values = whole_number_settings(settings or {}, BOT_SETTINGS)
    kind, percent = LEVEL_BOTS.get(level, LEVEL_BOTS[3])
    if level <= 1 and values:
        raise GameSetupError(NO_SETTINGS_AT_LEVEL_1)
    percent = values.get("random", percent)
    if percent > 100:
        raise GameSetupError(f"bot setting random={percent}: a percent, 1-100")
    bot = _CLASSES[kind](seed)
    return ErraticBot(bot, percent, seed) if percent else bot
