"""The built-in player: a greedy policy and a time-bounded beam-search planner.

Both think in *turns*: an optional draw (filling the hand from one pile), then a word
placed with :mod:`games.crosswords.movegen`; when no word fits, the letter worth the
most is discarded (so that a new draw may follow), and with the piles empty and no
word left the player stops.

* :func:`greedy_game` takes at every turn the pile and the word that score most now.
* :func:`solve` (:func:`plan_game`: its steps) searches the same turns breadth-first
  with a beam: each position branches on which pile to draw from (or none) and on the
  best few words after each draw, and keeps the most promising positions (score so
  far, plus a small value for the letters kept).  Wider beams run while time remains.
  It is an anytime search: the greedy game is found first, and only a game that
  scores more replaces it, so whenever the wall-clock deadline comes the answer is a
  complete game at least as good as the greedy player's in the same time.  Since a
  word on two triple-word squares scores nine times, the look-ahead finds lines that
  reach them over two or three turns.

The result is a list of API moves (steps), ending with ``stop``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from games.bots import Bot
from games.crosswords.movegen import generate_hands
from games.crosswords.rules import (HAND_LIMIT, LETTER_VALUES, STOP, CrosswordsState, Discard,
                                    Draw)

VOWELS = set("AEIOU")
WORDS_PER_DRAW = 4
FIRST_RATE = 15.0        # points per letter: the price that did best on the seeded piles
RATES = (10.0, 20.0, 12.5, 17.5, 5.0, 25.0, 7.5, 30.0, 22.5, 2.5, 35.0)
BEAMS = (2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64)
#: The searches after the greedy game, as (beam, price per letter; None: the best price
#: so far): the first price and its two neighbours, then beams of growing width (where
#: the long budgets gain most), then the other prices if time is left.
SCHEDULE = ([(1, FIRST_RATE)] + [(1, rate) for rate in RATES[:2]] + [(b, None) for b in BEAMS]
            + [(1, rate) for rate in RATES[2:]])
MAX_BEAM = 64
#: A paced game (the planner's first) plays in full, and goes on fast (one draw choice
#: a turn, about half a full turn's time: ``PACE_FAST``) for the rest of it once, at
#: its pace so far, even the rest played fast would not end by the deadline with
#: ``PACE_RESERVE`` to spare: as late as it can, since a game's last turns score least
#: (fast turns early, then full ones again, scored less than a greedy game cut short).
#: The pace is the seconds its turns took over the share of a greedy game's time they
#: stand for: ``PACE_CURVE``, the share of a whole greedy game's time spent when a
#: given share of its letters is played.  Measured (CPU seconds, pile sets 1-10):
#: early letters cost more than late ones (a fifth of the letters takes 0.14-0.30 of
#: the time, half of them 0.53-0.67, four fifths 0.79-0.94), so the straight line used
#: before overestimated the rest by a fifth to a half and switched games that would
#: have ended in time (2 s beside 4 busy processes: pile set 8 at 0.933 of greedy).
PACE_CURVE = ((0.0, 0.0), (0.1, 0.09), (0.2, 0.22), (0.3, 0.35), (0.4, 0.50), (0.5, 0.62),
              (0.6, 0.73), (0.7, 0.82), (0.8, 0.89), (1.0, 1.0))
PACE_FAST = 0.5
PACE_RESERVE = 1.5
#: ... and only once its turns stand for a fifth of a game's time, or took
#: ``PACE_JUDGE_BY`` of the budget: judged from the first turns alone, a greedy game that
#: would end in time was switched to fast play and scored less (solve --seconds 0.5 on
#: pile set 10 from a fresh process), while a machine that gives the solver a tenth of
#: a CPU must judge early to end a whole game at all.
PACE_FROM = 0.2
PACE_JUDGE_BY = 0.35
CANDIDATES = 12          # words scored per draw before the best few are kept
LEAVE_WEIGHT = 1.0


def leave_value(hand: str) -> float:
    """A small estimate of what the letters kept are worth for later turns."""
    if not hand:
        return 0.0
    vowels = sum(ch in VOWELS for ch in hand)
    value = -2.5 * abs(vowels - 0.4 * len(hand))
    if "Q" in hand and "U" not in hand:
        value -= 8
    value -= 1.5 * (len(hand) - len(set(hand)))
    return value


def fill_draws(state: CrosswordsState) -> list[Draw | None]:
    """The draws a turn considers: no draw (when the hand holds letters), and filling
    the hand from each pile that has letters."""
    options: list[Draw | None] = [None] if state.hand else []
    if state.may_draw:
        room = HAND_LIMIT - len(state.hand)
        if room > 0:
            for p, pile in enumerate(state.piles):
                if pile:
                    options.append(Draw(p + 1, pile[:room]))
    return options


def _after(state: CrosswordsState, move: Any) -> CrosswordsState:
    twin = state.clone()
    twin.apply({0: move})
    return twin


def worst_letter(hand: str) -> str:
    """The letter to throw away when no word fits: Q without U first, then the one
    worth the most."""
    if "Q" in hand and "U" not in hand:
        return "Q"
    return max(hand, key=lambda ch: (LETTER_VALUES[ch], ch))


def _leave_after(hand: str, used: str) -> str:
    rest = list(hand)
    for ch in used:
        rest.remove(ch)
    return "".join(rest)


def turn_options(state: CrosswordsState, width: int, rate: float = 0.0, fast: bool = False
                 ) -> list[tuple[list[Any], CrosswordsState, int]]:
    """Possible next turns: (steps, state after, points of the word).  When no draw
    choice allows a word, a single turn that discards (or stops).

    After each draw the words are ranked by points plus the value of the letters
    kept, minus ``rate`` points per letter spent, and the best ``width`` are kept.
    ``fast``: only the draw that leaves the best-balanced hand is tried (one search
    instead of up to four), for when time runs short.
    """
    results = []
    draws = fill_draws(state)
    if fast and len(draws) > 1:
        draws = [max(draws, key=lambda d: leave_value(state.hand + (d.letters if d else "")))]
    after_draws = [_after(state, draw) if draw else state for draw in draws]
    # A draw changes the hand only: the words of every draw's hand come from one walk.
    found_per_draw = generate_hands(state.board, [a.hand for a in after_draws], state.words,
                                    top=max(width, CANDIDATES), first_half=True)
    for draw, after_draw, found in zip(draws, after_draws, found_per_draw):
        hand = after_draw.hand
        found = sorted(found, key=lambda c: -(c.score + LEAVE_WEIGHT
                                              * leave_value(_leave_after(hand, c.used))
                                              - rate * c.placed))
        for cand in found[:width]:
            steps = ([draw] if draw else []) + [cand.move]
            results.append((steps, _after(after_draw, cand.move), cand.score))
    if results:
        return results
    # No word with any draw: throw the worst letter away (then draw again), or stop.
    if state.hand and any(state.piles):
        if len(state.hand) < HAND_LIMIT and state.may_draw:
            draws = fill_draws(state)[1:] if state.hand else fill_draws(state)
            best = max(draws, key=lambda d: sum(ch in VOWELS for ch in d.letters))
            return [([best], _after(state, best), 0)]
        letter = worst_letter(state.hand)
        return [([Discard(letter)], _after(state, Discard(letter)), 0)]
    if not state.hand and any(state.piles) and state.may_draw:
        draws = fill_draws(state)
        return [([draws[0]], _after(state, draws[0]), 0)]
    return []


@dataclass
class _Node:
    state: CrosswordsState
    steps: tuple            # linked list: (step, parent steps) or ()
    value: float
    #: The best score along the way and the steps that reach it: a game may stop after
    #: any step, so the best prefix of a game is a whole game too (the last turns
    #: often only discard letters, which costs points).
    peak: tuple = (0, ())

    def moves(self, link: tuple | None = None) -> list[Any]:
        out, link = [], self.steps if link is None else link
        while link:
            out.append(link[0])
            link = link[1]
        out.reverse()
        return out


def _push(node_steps: tuple, steps: list[Any]) -> tuple:
    for s in steps:
        node_steps = (s, node_steps)
    return node_steps


def _key(state: CrosswordsState) -> tuple:
    return ("".join(state.board), "".join(sorted(state.hand)), tuple(len(p) for p in state.piles))


@dataclass
class Plan:
    """A whole game the solver found: its steps (ending with ``stop``), its score, and
    whether it was played to its end (``finished``) or stopped early because the
    deadline came (every prefix of a game, with ``stop`` after it, is a complete game)."""

    moves: list[Any]
    score: int
    finished: bool


def _best_of(nodes) -> _Node | None:
    return max(nodes, key=lambda n: n.state.total, default=None)


def beam_game(start: CrosswordsState, beam: int, width: int, deadline: float | None,
              rate: float = 0.0, hard: float | None = None,
              clock: Callable[[], float] | None = None,
              paced: bool = False) -> tuple[_Node | None, bool]:
    """One beam search to the end of the game: (the best position reached, whether the
    game was played to its end).

    Positions compete on score so far plus ``rate`` points for every letter still to
    be played (the piles and the hand), so a turn that spends few letters for its
    points is not beaten by one that burns the piles faster.  Once ``deadline`` has
    passed, the best position goes on greedily and fast (beam and width 1, one draw
    choice a turn) to the end.  ``hard`` is checked before every position is expanded
    (a few milliseconds of work): once it has passed, the search stops at once with
    the best position reached so far, finished or not.  ``clock`` reads the time the
    deadlines are in (default: ``time.monotonic``, wall time).  ``paced``: the game
    also goes on fast once, at the pace so far, even the rest played fast would only
    just be played by ``hard`` (see ``PACE_CURVE``), so that a machine too busy for the
    whole game still ends with a whole one, with as few fast turns as it needs.
    """
    now = clock or time.monotonic
    frontier = [_Node(start.clone(), (), 0.0, (start.total, ()))]
    best: _Node | None = None
    fast = False
    letters = _letters_left(start)
    pace = _Pace(letters, hard, now) if paced and hard is not None and letters else None
    while frontier:
        late = deadline is not None and now() > deadline
        if pace is not None and not fast:
            before, turn_began = frontier[0].state, now()
            late = late or not pace.on_time(before)
        if late and not fast:
            frontier, beam, width, fast = frontier[:1], 1, 1, True
        children: dict[tuple, _Node] = {}
        for node in frontier:
            if hard is not None and now() > hard:
                reached = _best_of([*frontier, *children.values()])
                if best is not None and (reached is None or best.state.total >= reached.state.total):
                    return best, True
                return reached, False
            options = turn_options(node.state, width, rate, fast)
            if not options:
                if best is None or node.state.total > best.state.total:
                    best = node
                continue
            for steps, after, _ in options:
                value = (after.total + leave_value(after.hand)
                         + rate * (len(after.hand) + sum(len(p) for p in after.piles)))
                key = _key(after)
                old = children.get(key)
                if old is None or old.value < value:
                    link = _push(node.steps, steps)
                    peak = (after.total, link) if after.total > node.peak[0] else node.peak
                    children[key] = _Node(after, link, value, peak)
        frontier = sorted(children.values(), key=lambda n: -n.value)[:beam]
        if pace is not None and not fast and frontier:
            pace.count(before, frontier[0].state, now() - turn_began)
    return best, best is not None


def _letters_left(state: CrosswordsState) -> int:
    return len(state.hand) + sum(len(p) for p in state.piles)


def time_share(done: float) -> float:
    """The share of a whole greedy game's time spent once the share ``done`` of its
    letters is played (``PACE_CURVE``, straight between its points)."""
    done = min(max(done, 0.0), 1.0)
    for (d0, s0), (d1, s1) in zip(PACE_CURVE, PACE_CURVE[1:]):
        if done <= d1:
            return s0 + (s1 - s0) * (done - d0) / (d1 - d0)
    return 1.0


class _Pace:
    """The pace of a paced game: what its full turns took against the share of a
    greedy game's time they stand for, and whether the rest, in full, ends in time."""

    def __init__(self, letters: int, hard: float, now: Callable[[], float]):
        self.letters, self.hard, self.now = letters, hard, now
        self.began = now()
        self.spent = 0.0            # seconds of the full turns
        self.share = 0.0            # their share of a whole greedy game's time

    def _done(self, state: CrosswordsState) -> float:
        return 1.0 - _letters_left(state) / self.letters

    def on_time(self, state: CrosswordsState) -> bool:
        """Whether the game may go on in full: always until its turns have stood for
        ``PACE_FROM`` of a game (or taken ``PACE_JUDGE_BY`` of the time: a machine so
        busy that the first turns take that long must judge on what it has), then while
        the rest of it played fast, at their pace, ends by the deadline with the
        reserve."""
        if self.share <= 0.0 or (self.share < PACE_FROM
                                 and self.now() - self.began < PACE_JUDGE_BY * (self.hard - self.began)):
            return True
        rest = self.spent / self.share * (1.0 - time_share(self._done(state)))
        return self.now() + PACE_RESERVE * PACE_FAST * rest <= self.hard

    def count(self, before: CrosswordsState, after: CrosswordsState, seconds: float) -> None:
        """A full turn from ``before`` to ``after`` took ``seconds``."""
        self.spent += seconds
        self.share += time_share(self._done(after)) - time_share(self._done(before))


def _plan(node: _Node | None, finished: bool, prefix: bool = False) -> Plan:
    """The node's game as a plan; with ``prefix``, only as far as its best score (a
    game that stops there scores more than one that plays on)."""
    if node is None:
        return Plan([STOP], 0, True)
    if prefix:
        return Plan(node.moves(node.peak[1]) + [STOP], node.peak[0], finished)
    return Plan(node.moves() + [STOP], node.state.total, finished)


def greedy_plan(start: CrosswordsState, seconds: float | None = None,
                clock: Callable[[], float] | None = None) -> Plan:
    """The greedy player's game; with ``seconds`` (of ``clock``, default wall time),
    stopped where the time runs out."""
    now = clock or time.monotonic
    hard = None if seconds is None else now() + max(0.0, seconds)
    return _plan(*beam_game(start, 1, 1, None, 0.0, hard, now))


def greedy_game(start: CrosswordsState, seconds: float | None = None) -> list[Any]:
    """The greedy player's whole game as steps, ending with stop (with ``seconds``, the
    game as far as it got when the time ran out)."""
    return greedy_plan(start, seconds).moves


def solve(start: CrosswordsState, seconds: float,
          progress: Callable[[int, float, int], None] | None = None,
          clock: Callable[[], float] | None = None) -> Plan:
    """The best complete game found within ``seconds`` of wall time (an anytime search);
    ``clock``: another time to count them in (``time.process_time``: CPU seconds, what a
    quiet machine would give in as many wall seconds).

    The greedy game comes first, so that a whole game is in hand within a fraction of
    a second; every later search may only replace it with a game that scores more, so
    the answer is never worse than the greedy player's in the same time.  On a machine
    too busy to play the whole greedy game in the time, it goes on fast from where the
    pace says it would not end in time (a whole game rather than a game cut short,
    where a greedy game of that time would be cut short).  Then the
    searches of ``SCHEDULE``: greedy games that charge a price per letter spent (the
    score of a whole game swings a lot with the price, so several are tried), beams of
    growing width at the best price, the other prices.  Each search switches to
    fast greedy play when the time is nearly up (the reserve is 0.7 of the greedy game's
    time), and one still running at the deadline is cut there; its game counts only
    if it scores more than the best so far (a game stopped early is still a game).
    Each game counts as far as its best score: stopping there is a whole game too, and
    the last turns of a game often only throw letters away.
    """
    now = clock or time.monotonic
    began = now()
    hard = began + max(0.0, seconds)
    reached = beam_game(start, 1, 1, None, 0.0, hard, now, paced=True)
    # ``best``: the best whole game, which picks the price as before; ``answer``: the
    # best game stopped where it scored most.
    best, answer = _plan(*reached), _plan(*reached, prefix=True)
    if progress:
        progress(1, 0.0, answer.score)
    greedy_seconds = max(0.01, now() - began)
    if not best.finished:
        return answer
    best_rate = FIRST_RATE
    # Fast play (one draw choice a turn) plays a whole game in about half the greedy
    # game's time (0.26-0.31 s against 0.51-0.57 s), so 0.7 of it is the reserve.
    soft = hard - 0.7 * greedy_seconds - 0.05
    for beam, rate in SCHEDULE:
        left = soft - now()
        if left <= 0:
            break
        if beam > 1 and left < 0.5 * beam * greedy_seconds:
            continue                        # a beam cut this early is lost; a cheaper one may fit
        rate = best_rate if rate is None else rate
        reached = beam_game(start, beam, 1 if beam == 1 else WORDS_PER_DRAW, soft, rate, hard, now)
        found, shorter = _plan(*reached), _plan(*reached, prefix=True)
        if found.score > best.score:
            best, best_rate = found, rate
        if shorter.score > answer.score:
            answer = shorter
        if progress:
            progress(beam, rate, answer.score)
    return answer


def plan_game(start: CrosswordsState, seconds: float,
              progress: Callable[[int, float, int], None] | None = None) -> list[Any]:
    """The steps of :func:`solve`'s game, ending with stop."""
    return solve(start, seconds, progress).moves


def _greedy_value(after: CrosswordsState) -> float:
    return after.total + leave_value(after.hand)


def greedy_step(state: CrosswordsState) -> Any:
    """The greedy player's next step from any state: the first step of the turn
    :func:`greedy_game` would play there."""
    options = turn_options(state, 1)
    if not options:
        return STOP
    steps, _, _ = max(options, key=lambda o: _greedy_value(o[1]))
    return steps[0]


class CrosswordsBot(Bot):
    """Plays one step at a time: ``greedy`` decides each turn now; ``planner`` plans the
    whole game with its time budget and follows the plan while the state is the one
    planned for.  A plan the deadline cut short is not followed to its ``stop``: there
    the bot plans again from where the game is, with its next budget; and when a budget
    is too short for any plan, it plays the greedy step (a few milliseconds)."""

    def __init__(self, level: str = "planner", seed: int = 0, think: float = 5.0):
        self.level, self.seed, self.think = level, seed, think
        self.name = level
        self._plan: list[Any] = []
        self._finished = False
        self._expected: CrosswordsState | None = None

    def reset(self) -> None:
        self._plan, self._finished, self._expected = [], False, None

    def budget(self, time_budget: float | None) -> float:
        """Seconds to plan: ``think``, within most of the answer's budget."""
        return self.think if time_budget is None else max(0.0, min(self.think, 0.8 * time_budget))

    def choose(self, state, seat: int, time_budget: float | None) -> Any:
        if self.level == "greedy":
            return greedy_step(state)
        current = bool(self._plan) and self._expected == state
        if not current or (self._plan[0] == STOP and not self._finished):
            plan = solve(state, self.budget(time_budget))
            self._plan, self._finished = plan.moves, plan.finished
            if self._plan == [STOP] and not plan.finished:
                self._plan = [greedy_step(state)]          # no time to plan: one greedy step
            self._expected = state.clone()
        move = self._plan.pop(0)
        self._expected.apply({0: move})
        return move


LEVELS = ("greedy", "planner")


def make_bot(level: int | str = 1, seed: int = 0) -> CrosswordsBot:
    """The plugin's ``bot`` factory: level 1 (``greedy``) or 2 (``planner``)."""
    if isinstance(level, int) or (isinstance(level, str) and level.isdigit()):
        name = LEVELS[min(max(int(level), 1), len(LEVELS)) - 1]
    else:
        name = level if level in LEVELS else "planner"
    return CrosswordsBot(name, seed)
