"""Hex bots: level 1 plays uniformly at random; levels 2-5 search with MCTS (games/hex/mcts.py).

Levels differ in algorithm and in how much of the clock they use:

====  ==========  =====================================================  ==========  ========
level name        search                                                 clock used  untimed
====  ==========  =====================================================  ==========  ========
1     random      none                                                   --          --
2     easy        plain UCT, uniform random playouts                     15 %        150 po
3     medium      UCT + RAVE, uniform random playouts                    35 %        800 po
4     strong      UCT + RAVE + shape priors + bridge-saving playouts     70 %        2500 po
5     strongest   level 4 compiled, tree reuse, VCs, fill-in (below)    100 %       96000 po
====  ==========  =====================================================  ==========  ========

(po = playouts per move on boards up to 11x11 when the match has no clock, which makes
a game reproducible from its seed; larger boards get proportionally fewer.)  Every
searching level first takes an immediate win and, when the opponent threatens one,
restricts itself to the threatened cells.

Level 5 is what makes Hex programs such as MoHex strong, within one second a move:

* its search is compiled with Numba (games/hex/fast_mcts.py), about twenty times the
  playouts of the pure-Python one; where Numba is missing (the one-folder build) it
  searches in pure Python, with 6000 untimed playouts and no pattern priors;
* it fills in dead cells and captured pairs first (games/hex/inferior.py): it looks for
  virtual connections, and starts its playouts, on the filled board, and never plays
  into those cells;
* at the root, virtual connections between the edges (games/hex/fast_vcs.py, the
  H-search of games/hex/vcs.py compiled): it plays the move that completes one of its
  own, keeps inside its own when it already has one, and otherwise answers only inside
  the cells that stop every one of the opponent's;
* every node's moves get a prior probability from their surroundings (the twelve cells
  around each, and how near it lies to the last two moves), fitted to the moves MoHex
  chose in games against itself (games/hex/patterns.py); selection adds it as a bias
  that fades with the move's visits, as MoHex 2.0 does;
* inside the tree, every node with 256 visits gets the same H-search, as MoHex's
  nodes do: a side to move with a VC or semi-connection wins there, one facing a VC
  loses, and moves outside the opponent's must-play region are pruned; proofs climb
  the tree (MCTS-solver), and the root never plays a move proven lost.  (In pure
  Python this cost more playouts than it saved: 11 of 33 games in self-play.  Compiled,
  one costs about 250 playouts' time on 11x11, some 40 % of a move's; asking at 1,024
  visits instead gave 25 % more playouts and won 16 of 24 self-play games against
  this, but 9 of 40 against MoHex where this won 12: bench/gtp_match.py.)

Without the pie rule it opens in the centre, the strongest first move (a proven win
on every board size solved so far).  With the pie rule on, player 2 swaps an opening
stone that is off the border, and player 1 opens on one of player 2's edges.

A seat spec can replace the level's pace: ``bot:5 movetime=1000`` thinks one second a
move (within the clock, if any), ``playouts=N`` caps the search at N playouts a move.
Measured against OpenSpiel's MCTS (bench/hex_strength.py) and MoHex (bench/gtp_match.py).

The ``time_budget`` the runner passes is what the seat may still use; the bot spends
``budget / (empty / 4 + 2)`` of it times the level's share (a side makes about a
quarter of the empty cells' worth of moves), never more than the budget less a small
reserve.
"""
from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

from games.api import GameSetupError
from games.bots import NO_SETTINGS_AT_LEVEL_1, Bot, RandomBot, whole_number_settings
from games.hex.inferior import InferiorCells
from games.hex.mcts import EMPTY, P1, P2, HexSearch, SearchConfig
from games.hex.rules import HexMove, HexState
from games.hex.vcs import VcSearch


@dataclass(frozen=True)
class LevelPlan:
    """What a level searches with and how much of the clock it spends."""

    config: SearchConfig
    clock_share: float          # fraction of the per-move allotment used
    untimed_playouts: int       # playouts per move when there is no clock
    virtual_connections: bool = False   # root knowledge from games/hex/vcs.py
    inferior_cells: bool = False        # root fill-in from games/hex/inferior.py
    centre_opening: bool = False        # without the pie rule, open in the centre
    compiled: bool = False              # search with games/hex/fast_mcts.py when Numba is there


PATTERN_BIAS = 2.0                # level 5: weight of the pattern priors (games/hex/patterns.py)
VC_SECONDS_PER_121_CELLS = 0.05   # least time left for the root's H-search, per 121 cells

LEVEL_PLANS = {
    2: LevelPlan(SearchConfig(use_rave=False, bridge_playouts=False, use_priors=False,
                              exploration=0.8, reuse_tree=False), 0.15, 150),
    3: LevelPlan(SearchConfig(bridge_playouts=False, use_priors=False, reuse_tree=False), 0.35, 800),
    4: LevelPlan(SearchConfig(reuse_tree=False), 0.7, 2500),
    5: LevelPlan(SearchConfig(knowledge_visits=256, pattern_bias=PATTERN_BIAS), 1.0, 6000,
                 virtual_connections=True, inferior_cells=True, centre_opening=True, compiled=True),
}

SAFETY_MARGIN = 0.05        # seconds kept back from the budget (at most 25 % of it)


def move_allotment(time_budget: float, empty_cells: int) -> float:
    """Seconds for this move out of ``time_budget`` (the seat's remaining time).

    A side makes roughly a quarter of the remaining empty cells' worth of moves before
    someone connects, so early moves get budget/(E/4 + 2) and late ones more.
    """
    expected_moves = empty_cells / 4 + 2
    return time_budget / expected_moves


class MctsHexBot(Bot):
    """Monte Carlo tree search Hex player (see the module docstring for the levels)."""

    def __init__(self, level: int, seed: int, max_playouts: int | None = None,
                 move_seconds: float | None = None):
        self.level = level
        self.name = f"mcts-{level}"
        self.seed = seed
        self.plan = LEVEL_PLANS[level]
        self.max_playouts = max_playouts
        self.move_seconds = move_seconds
        self.engine: HexSearch | None = None
        self.search_class = search_class(self.plan)
        self.vcs: VcSearch | None = None
        self.inferior: InferiorCells | None = None
        self.last_playouts = 0
        #: What the last search did (the runner keeps it in the record: playouts a move).
        self.last_info: dict = {}

    def reset(self) -> None:
        self.engine = None

    def prepare(self) -> None:
        """Compile the search (or load it from Numba's disk cache) before the clocks run."""
        if self.search_class is not HexSearch:
            warm_up()

    def choose(self, state: HexState, seat: int, time_budget: float | None) -> HexMove:
        start = time.perf_counter()
        self.last_info = {}
        deadline, playout_cap = self._limits(start, state, time_budget)
        if state.swap_allowed and state.turn == 1 and seat == 1 and state.current == 1:
            if should_swap(state):
                return HexMove.SWAP
        if self.plan.centre_opening and not state.swap_allowed and not any(state.cells):
            return state.move_at(centre_cell(state.size))
        engine = self._engine_for(state.size)
        cells = list(state.cells)
        mover, other = (P1, P2) if seat == 0 else (P2, P1)
        wins = engine.winning_cells(cells, mover)
        if wins:
            return state.move_at(wins[0])
        candidates = engine.winning_cells(cells, other) or None
        filled = self._filled(engine, cells, other, deadline) if candidates is None else None
        if candidates is None and self.vcs is not None and self._time_for_vcs(deadline, len(cells)):
            candidates = self.vcs.moves_worth_searching(filled or cells, mover)
            if candidates is not None and len(candidates) == 1:
                return state.move_at(candidates[0])
        if candidates is None and state.swap_allowed and state.turn == 0:
            candidates = pie_openings(state.size)      # a centre opening would just be swapped
        if candidates is None and filled is not None:
            candidates = [c for c in range(len(cells)) if filled[c] == EMPTY]
        cell = engine.search(cells, mover, deadline, playout_cap, candidates, filled, recent_cells(state))
        self.last_playouts = engine.playouts
        self.last_info = {"playouts": engine.playouts}
        return state.move_at(cell)

    def _filled(self, engine: HexSearch, cells: list[int], opponent: int,
                deadline: float | None) -> list[int] | None:
        """``cells`` with dead cells and captured pairs filled in, or None when the level
        does not look for them or nothing was filled.

        Also None when the filled board is decided: a side's edges joined there, or the
        opponent's virtually joined.  The fill keeps the game's value, so the bot has then
        won or lost with perfect play; it plays on from the real board, where the search
        and the opponent's must-play region still see the threats a fallible opponent
        has to find.
        """
        if self.inferior is None:
            return None
        filled = self.inferior.fill(cells)
        if filled == cells or engine.joined(filled, P1) or engine.joined(filled, P2):
            return None
        if self.vcs is not None and self._time_for_vcs(deadline, len(cells)) \
                and self.vcs.edge_connections(filled, opponent).won:
            return None
        return filled

    @staticmethod
    def _time_for_vcs(deadline: float | None, cells: int) -> bool:
        """Whether the move's time allows the root's H-search (a few ms on 11x11)."""
        return deadline is None or deadline - time.perf_counter() > VC_SECONDS_PER_121_CELLS * cells / 121

    def _limits(self, start: float, state: HexState, time_budget: float | None):
        """(deadline or None, playout cap or None) for this move."""
        cap = self.max_playouts
        if self.move_seconds is not None:     # a fixed time a move, within the clock if any
            spend = self.move_seconds
            if time_budget is not None:
                spend = min(spend, time_budget - min(SAFETY_MARGIN, 0.25 * time_budget))
            return start + max(0.0, spend), cap
        if time_budget is None:
            if cap is None:   # boards above 11x11 get fewer, slower playouts: about as long
                playouts = self.plan.untimed_playouts * getattr(self.search_class, "UNTIMED_SCALE", 1)
                cap = max(50, int(playouts * min(1.0, 121 / len(state.cells))))
            return None, cap
        empty = state.cells.count(EMPTY)
        spend = move_allotment(time_budget, empty) * self.plan.clock_share
        hard_stop = time_budget - min(SAFETY_MARGIN, 0.25 * time_budget)
        return start + max(0.0, min(spend, hard_stop)), cap

    def _engine_for(self, size: int) -> HexSearch:
        if self.engine is None or self.engine.board.size != size:
            self.engine = self.search_class(size, self.seed, self.plan.config)
            compiled_vcs = getattr(self.engine, "vc_search", None)
            self.vcs = (compiled_vcs or VcSearch(self.engine.board)) if self.plan.virtual_connections else None
            self.inferior = InferiorCells(size) if self.plan.inferior_cells else None
        return self.engine


def search_class(plan: LevelPlan) -> type[HexSearch]:
    """The search a level runs: the compiled one where the plan asks for it and Numba
    works, else the pure-Python reference (the same algorithm, some 25 times slower).

    The one-folder build leaves Numba out (its compiler alone is some 100 MB, and its
    disk cache needs the source files), so there level 5 searches in pure Python.
    """
    if plan.compiled:
        try:
            from games.hex.fast_mcts import FastHexSearch
        except (ImportError, RuntimeError):    # not installed; no cache it can use
            return HexSearch
        return FastHexSearch
    return HexSearch


def warm_up() -> None:
    """Compile level 5's search if Numba is there: about half a minute the first time on
    a machine, a second or two after (the shell runs it in the background at start)."""
    if search_class(LEVEL_PLANS[5]) is not HexSearch:
        from games.hex.fast_mcts import warm_up as compile_search
        compile_search()


def recent_cells(state: HexState) -> tuple[int, int]:
    """(the mover's last cell, the opponent's last cell), -1 for none; after a swap,
    which moves the stone, both are -1."""
    history = state.history
    if any(move.is_swap for move in history[-2:]):
        return -1, -1
    last = state.index(history[-1]) if history else -1
    own_last = state.index(history[-2]) if len(history) >= 2 else -1
    return own_last, last


def should_swap(state: HexState) -> bool:
    """Pie rule: take player 1's opening stone unless it lies on the board's border."""
    stones = [i for i, v in enumerate(state.cells) if v != EMPTY]
    if len(stones) != 1 or state.cells[stones[0]] != P1:
        return False
    index = stones[0]
    r, c = divmod(index, state.size)
    n = state.size
    return n <= 2 or min(r, c, n - 1 - r, n - 1 - c) >= 1


def centre_cell(size: int) -> int:
    """The board's centre (on even sizes, the centre cell of the two nearest the short
    diagonal's middle), the strongest first move when the opening cannot be swapped."""
    middle = size // 2
    return middle * size + (size - 1) // 2


def pie_openings(size: int) -> list[int]:
    """Player 1's openings under the pie rule: the cells of player 2's edges (rows 1 and N).

    A stone there is not worth swapping (so the bot's own swap rule leaves it), and it
    stands in the way of player 2 rather than touching player 1's own edge, where it
    would do least: the edge openings players use under the pie rule are of this kind.
    """
    last = size * (size - 1)
    return sorted(set(range(size)) | set(range(last, last + size)))


BOT_SETTINGS = ("playouts", "movetime")


def make_bot(level: int, seed: int, max_playouts: int | None = None,
             settings: Mapping[str, str] | None = None) -> Bot:
    """A Hex bot of the given level (1 = random ... 5 = strongest).

    ``max_playouts`` caps the search per move (for reproducible tests and benchmarks).
    ``settings`` come from a seat spec such as ``bot:5 movetime=1000 playouts=20000``:
    ``playouts`` caps the search per move, ``movetime`` gives each move that many
    milliseconds (never more than the clock leaves) instead of the level's share of it.
    """
    values = whole_number_settings(settings or {}, BOT_SETTINGS)
    if level <= 1:
        if values:
            raise GameSetupError(NO_SETTINGS_AT_LEVEL_1)
        return RandomBot(seed)
    movetime = values.get("movetime")
    return MctsHexBot(min(level, max(LEVEL_PLANS)), seed, values.get("playouts", max_playouts),
                      movetime / 1000 if movetime else None)
