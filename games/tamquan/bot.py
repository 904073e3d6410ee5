"""Built-in Tam Quan bots, weakest to strongest.

1. ``random``: a uniformly random legal move.
2. ``greedy``: the end position that is best right after the turn (own captures, then
   the next team's opening captures against us), by material then shape, less the
   pieces the next team could surround at a glance (:func:`exposed`).
3. ``search``: two teams: alpha-beta two team turns deep.  More teams: every own end
   position, answered by the next team's best reply (the team that can hit us first).
4. ``strongest``: two teams: alpha-beta three team turns deep (deeper with a time
   budget, by iterative deepening) with a transposition table, and a placement from
   :data:`FIRST_LINE_BOOK` as the first team.  More teams: as ``search`` with the best
   candidates also checked against the team after next.

With two teams the search levels (3, 4) never place as the mirror image of the team
placed before them (measured: placed as the mirror image, as team B, level 3 drew every
game against level 2 and level 4 every game against levels 2 and 3, the two teams
shuffling to the turn limit), and they leave a cycle of positions they have played into
before for an as safe move (so a game is not one cycle to the turn limit, and games with
different seeds differ).

A team turn is a compound move (every member steps, in an order).  Bots never list
orders: :func:`games.tamquan.rules.reachable` gives each distinct end position once,
with one order that reaches it, so a 3-member team has at most 4^3 choices.
All randomness comes from the bot's own seeded generator.
"""
from __future__ import annotations

import random
import time
from itertools import combinations

from games.bots import Bot, RandomBot
from games.tamquan.rules import (EMPTY, Layout, Placement, Steps, TamQuanState,
                                 capture_phase, reachable)

WIN = 100_000
PIECE = 1000
#: How far below the best a move may score (1.5 % of a piece) and still be played
#: instead of it, to leave a position the bot has already played into (see
#: :meth:`SearchBot._least_seen`).
REPEAT_MARGIN = 15
#: What the greedy level takes off a position for each of its pieces :func:`exposed`
#: (0.3 of a piece).  Without it, as team A it lost 13 of 25 games to random moves: it
#: does not look at the next team's steps, whose closing captures took its pieces.
EXPOSED = 300


# ---------------------------------------------------------------- fast transition
def advance(layout: Layout, cells: list[int], team: int, final: frozenset,
            alive_out: list[bool]) -> tuple[list[int], int | None]:
    """Cells after ``team`` ends its steps on ``final``, its closing captures and the
    next team's opening captures; returns the board and the next team (None: over)."""
    board = [EMPTY if v == team else v for v in cells]
    for p in final:
        board[p] = team
    for p in capture_phase(layout, board, team):
        board[p] = EMPTY
    nxt = next_team(layout, board, team, alive_out)
    if nxt is None:
        return board, None
    for p in capture_phase(layout, board, nxt):
        board[p] = EMPTY
    if sum(1 for t in range(layout.teams) if not alive_out[t] and t in board) <= 1:
        return board, None
    return board, nxt


def next_team(layout: Layout, board: list[int], team: int, out: list[bool]) -> int | None:
    alive = [t for t in range(layout.teams) if not out[t] and t in board]
    if len(alive) <= 1:
        return None
    for step in range(1, layout.teams + 1):
        t = (team + step) % layout.teams
        if t in alive:
            return t
    return None


def evaluate(layout: Layout, board: list[int], team: int) -> float:
    """How good ``board`` is for ``team``: material first, then the shape of every team
    (pieces with a friend beside them, away from enemies and corners)."""
    n = layout.size
    teams = layout.teams
    counts = [0] * teams
    shape = [0.0] * teams
    nbrs = layout.neighbours
    for p, v in enumerate(board):
        if v < 0:
            continue
        counts[v] += 1
        friends = enemies = 0
        around = nbrs[p]
        for q in around:
            w = board[q]
            if w == v:
                friends += 1
            elif w >= 0:
                enemies += 1
        value = 15.0 * min(friends, 2) - 10.0 * (4 - len(around))
        if friends == 0:
            value -= 30.0
        if enemies and enemies >= friends:
            value -= 35.0 * enemies
        shape[v] += value
    own = counts[team]
    others = [t for t in range(teams) if t != team and counts[t]]
    if own == 0:
        return -WIN
    if not others:
        return WIN
    mean = sum(counts[t] for t in others) / len(others)
    score = PIECE * (own - mean)
    if len(others) > 1:
        score -= PIECE * 0.25 * max(counts[t] for t in others)
    score += shape[team] - sum(shape[t] for t in others) / len(others)
    # Not behind: close in on the enemy (hard when ahead, to finish the game).
    lead = own - max(counts[t] for t in others)
    if lead >= 0:
        mine = [p for p, v in enumerate(board) if v == team]
        foes = [p for p, v in enumerate(board) if v >= 0 and v != team]
        total = 0
        for p in mine:
            r, c = divmod(p, n)
            total += min(abs(r - q // n) + abs(c - q % n) for q in foes)
        score -= (6 if lead > 0 else 2) * total / len(mine)
    return score


def choices(layout: Layout, cells: list[int], team: int) -> dict[frozenset, tuple]:
    return reachable(layout, cells, team)


def to_steps(layout: Layout, path: tuple) -> Steps:
    n = layout.size
    return Steps(tuple((divmod(a, n), divmod(b, n)) for a, b in path))


# ---------------------------------------------------------------- placement
def choose_placement(state: TamQuanState, seat: int, rng: random.Random,
                     break_symmetry: bool = False) -> Placement:
    """Members together (they protect each other) and towards the middle.

    ``break_symmetry`` (the search levels): in a two-team game the second team never
    places as the mirror image of the first.  From a symmetric start the first team
    moves and the second can only answer in kind: the two centred lines shuffle to a
    draw at the turn limit (measured: as team B, level 3 against level 2 and level 4
    against levels 2 and 3 drew every game).  The next best shape, a line from a corner of the
    zone, won those games as team B."""
    L = state.layout
    n = L.size
    centre = (n - 1) / 2
    mirrors = placed_images(state) if break_symmetry and L.teams == 2 else set()
    best, best_score = [], None
    for k in state.free_zones():
        zone = sorted(L.zones[k])
        groups = combinations(zone, L.members)
        for cells in groups:
            if frozenset(cells) in mirrors:
                continue
            idx = {L.index(c) for c in cells}
            adj = sum(1 for p in idx for q in L.neighbours[p] if q in idx) // 2
            spread = sum(abs(r - centre) + abs(c - centre) for r, c in cells)
            score = (adj * 3 - spread * 0.5 + rng.random() * 0.01)
            if best_score is None or score > best_score:
                best, best_score = [Placement(k, cells)], score
    if not best:                          # every group mirrors a team: symmetry it is
        return choose_placement(state, seat, rng)
    return best[0]


#: The strongest level's placement as the first of two teams on a zone that is one
#: line of cells: (cells in the line, members) -> the members' places along the line,
#: one of which the seed picks (the two are mirror images).  Measured on 5x5-2teams by
#: playing each of the ten placements as team A: a pair at the end of the row and one
#: member a cell apart won against level 3 (which answers off the mirror) and level 2,
#: where the centred line and most others drew.
FIRST_LINE_BOOK = {(5, 3): ((0, 1, 3), (1, 3, 4))}


def book_placement(state: TamQuanState, rng: random.Random) -> Placement | None:
    """The first team's placement from :data:`FIRST_LINE_BOOK` (None: not in it)."""
    L = state.layout
    if L.teams != 2 or any(state.pieces(t) for t in range(L.teams)):
        return None
    for k in state.free_zones():
        zone = sorted(L.zones[k])
        rows, cols = {r for r, _ in zone}, {c for _, c in zone}
        places = FIRST_LINE_BOOK.get((len(zone), L.members))
        if places and (len(rows) == 1 or len(cols) == 1):
            return Placement(k, tuple(zone[i] for i in rng.choice(places)))
    return None


def placed_images(state: TamQuanState) -> set[frozenset]:
    """The placed teams' cells under each symmetry of the square board (not the
    identity): the placements that would make the position symmetric."""
    n = state.layout.size - 1
    maps = (lambda r, c: (n - r, c), lambda r, c: (r, n - c), lambda r, c: (n - r, n - c),
            lambda r, c: (c, r), lambda r, c: (n - c, n - r), lambda r, c: (c, n - r),
            lambda r, c: (n - c, r))
    images = set()
    for team in range(state.layout.teams):
        cells = state.pieces(team)
        if cells:
            images.update(frozenset(f(r, c) for r, c in cells) for f in maps)
    return images


# ---------------------------------------------------------------- bots
def exposed(layout: Layout, board: list[int], team: int) -> int:
    """How many of ``team``'s pieces the others could surround next turn, at a glance
    (no move is tried): the neighbour cells that an enemy holds or could step into
    number more than 1 and more than the piece's friends."""
    nbrs = layout.neighbours
    count = 0
    for p, v in enumerate(board):
        if v != team:
            continue
        friends = reach = 0
        for q in nbrs[p]:
            w = board[q]
            if w == team:
                friends += 1
            elif w >= 0 or any(board[s] >= 0 and board[s] != team for s in nbrs[q]):
                reach += 1
        if reach > 1 and reach > friends:
            count += 1
    return count


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: TamQuanState, seat: int, time_budget: float | None):
        if state.setup:
            return choose_placement(state, seat, self.rng)
        L = state.layout
        options = list(choices(L, state.cells, seat).items())
        self.rng.shuffle(options)
        best, best_score = None, None
        for final, path in options:
            board, _ = advance(L, state.cells, seat, final, state.out)
            score = evaluate(L, board, seat) - EXPOSED * exposed(L, board, seat)
            if best_score is None or score > best_score:
                best, best_score = path, score
        return to_steps(L, best)


class SearchBot(Bot):
    """Alpha-beta for two teams; best reply of the next team(s) for more."""

    name = "search"

    def __init__(self, seed: int = 0, depth: int = 2, deep_check: bool = False,
                 default_time: float | None = None):
        self.rng = random.Random(seed)
        self.depth, self.deep_check, self.default_time = depth, deep_check, default_time
        self.table: dict = {}
        self.seen: dict = {}
        self.book = False

    def reset(self) -> None:
        self.table.clear()
        self.seen.clear()

    def choose(self, state: TamQuanState, seat: int, time_budget: float | None):
        if state.setup:
            book = book_placement(state, self.rng) if self.book else None
            return book or choose_placement(state, seat, self.rng, break_symmetry=True)
        L = state.layout
        alive = [t for t in range(L.teams) if state.alive(t)]
        if len(alive) == 2:
            return to_steps(L, self._alphabeta_root(state, seat, time_budget))
        return to_steps(L, self._multi(state, seat, time_budget))

    # ------------------------------------------------------------ two teams
    def _alphabeta_root(self, state, seat, budget):
        L = state.layout
        self.deadline = None if budget is None else time.monotonic() + budget * 0.8
        self.table.clear()
        options = list(choices(L, state.cells, seat).items())
        self.rng.shuffle(options)
        scored = []
        for final, path in options:
            board, nxt = advance(L, state.cells, seat, final, state.out)
            scored.append((evaluate(L, board, seat), final, path, board, nxt))
        scored.sort(key=lambda x: -x[0])
        best_path = scored[0][2]
        depth = 2
        max_depth = self.depth if self.deadline is None else 8
        self.remaining = state.layout.turn_limit - state.play_turns
        # Widen the root's window only when a move leads back to a position played before.
        margin = REPEAT_MARGIN if any(tuple(r[3]) in self.seen for r in scored) else 0
        while depth <= max_depth:
            try:
                results = []
                alpha = -float("inf")
                for static, final, path, board, nxt in scored:
                    if nxt is None:
                        value = evaluate(L, board, seat) * 2
                    else:
                        value = -self._negamax(board, nxt, seat, depth - 1, -float("inf"),
                                               -(alpha - margin), state.out, 1)
                    results.append((value, static, final, path, board, nxt))
                    alpha = max(alpha, value)
            except _OutOfTime:
                break
            results.sort(key=lambda x: (-x[0], -x[1]))
            best_path = self._least_seen(results, margin)
            scored = [r[1:] for r in results]
            if abs(results[0][0]) >= WIN:
                break
            depth += 1
            if self.deadline is None or time.monotonic() > self.deadline:
                if depth > max_depth or self.deadline is not None:
                    break
        chosen = next(r for r in scored if r[2] == best_path)
        key = tuple(chosen[3])
        self.seen[key] = self.seen.get(key, 0) + 1
        return best_path

    def _least_seen(self, results, margin):
        """The best move's path, unless the position it leads to was played into
        before in this game: then, among the moves within ``margin`` of the best, one
        leading to the position played into least often (the seed picks among equals).
        Two cautious bots otherwise repeat one cycle of positions to the turn limit (a
        draw) where a different, as safe, move gives the weaker one the chance to err;
        it also makes games with different seeds differ."""
        best = results[0][0]
        near = [r for r in results if r[0] >= best - margin]
        fewest = min(self.seen.get(tuple(r[4]), 0) for r in near)
        pool = [r for r in near if self.seen.get(tuple(r[4]), 0) == fewest]
        return self.rng.choice(pool)[3] if fewest else pool[0][3]

    def _negamax(self, board, team, root, depth, alpha, beta, out, ply):
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _OutOfTime
        L = self.layout_of(board)
        if depth == 0 or ply >= self.remaining:
            return evaluate(L, board, team)
        key = (tuple(board), team, depth)
        hit = self.table.get(key)
        if hit is not None:
            value, kind = hit
            if kind == 0 or (kind < 0 and value <= alpha) or (kind > 0 and value >= beta):
                return value
        alpha_start = alpha
        options = choices(L, board, team)
        children = []
        for final in options:
            child, nxt = advance(L, board, team, final, out)
            children.append((evaluate(L, child, team), child, nxt))
        children.sort(key=lambda x: -x[0])
        best = -float("inf")
        for static, child, nxt in children:
            if nxt is None:
                value = static * 2 if abs(static) >= WIN else static
            elif depth == 1:
                value = static
            else:
                value = -self._negamax(child, nxt, root, depth - 1, -beta, -alpha, out, ply + 1)
            if value > best:
                best = value
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        kind = 1 if best >= beta else -1 if best <= alpha_start else 0
        self.table[key] = (best, kind)
        return best

    def layout_of(self, board):
        return self._layout

    # ------------------------------------------------------------ more teams
    def _multi(self, state, seat, budget):
        L = state.layout
        deadline = None if budget is None else time.monotonic() + budget * 0.8
        options = list(choices(L, state.cells, seat).items())
        self.rng.shuffle(options)
        scored = []
        for final, path in options:
            board, nxt = advance(L, state.cells, seat, final, state.out)
            scored.append((evaluate(L, board, seat), path, board, nxt))
        scored.sort(key=lambda x: -x[0])
        width = 8 if self.deep_check else 6
        best_path, best_value = scored[0][1], None
        for static, path, board, nxt in scored[:width]:
            if deadline is not None and time.monotonic() > deadline and best_value is not None:
                break
            value = self._reply_value(L, board, nxt, seat, state.out, self.deep_check)
            if best_value is None or value > best_value:
                best_path, best_value = path, value
        return best_path

    def _reply_value(self, L, board, nxt, seat, out, deeper):
        """Our evaluation after the next team's best (for itself) greedy reply."""
        if nxt is None:
            return evaluate(L, board, seat)
        best_for_them, ours = None, evaluate(L, board, seat)
        for final in choices(L, board, nxt):
            child, after = advance(L, board, nxt, final, out)
            theirs = evaluate(L, child, nxt)
            if best_for_them is None or theirs > best_for_them:
                best_for_them, ours, reply = theirs, evaluate(L, child, seat), (child, after)
        if deeper and reply[1] is not None and reply[1] != seat:
            child, after = reply
            worst = None
            for final in choices(L, child, after):
                grand, _ = advance(L, child, after, final, out)
                value = evaluate(L, grand, after)
                if worst is None or value > worst[0]:
                    worst = (value, evaluate(L, grand, seat))
            if worst is not None:
                ours = min(ours, worst[1])
        return ours


class _OutOfTime(Exception):
    pass


class _Search(SearchBot):
    """SearchBot bound to one layout for the fast evaluation calls."""

    def choose(self, state, seat, time_budget):
        self._layout = state.layout
        if time_budget is None and self.default_time is not None:
            time_budget = self.default_time
        return super().choose(state, seat, time_budget)


class _Random(RandomBot):
    name = "random"


def make_bot(level: int, seed: int) -> Bot:
    """Level 1 random, 2 greedy, 3 search, 4 strongest."""
    if level <= 1:
        return _Random(seed)
    if level == 2:
        return GreedyBot(seed)
    if level == 3:
        return _Search(seed, depth=2)
    bot = _Search(seed, depth=3, deep_check=True)
    bot.name = "strongest"
    bot.book = True
    return bot
