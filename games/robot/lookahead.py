"""A few turns of look-ahead against predictable opponents.

A one-step greedy player (the organizers' Greedy bot among them) answers every position
the same way, so :func:`games.robot.bot.greedy_guess` tells its next move exactly.
Against such opponents the game becomes a one-player puzzle over the next few turns:
try every sequence of our own moves, let the opponents answer each turn as they will,
and score where each sequence ends (our cells minus the best opponent's, and what the
searched turns cannot show yet).  That sees what a one-turn look cannot: a cell the
follower takes back two turns later, a loop that closes on the fourth turn, a pocket
the next shrink seals, an opponent's explosion that would catch us, our own enclosure
or explosion that removes it.  Opponents that are not greedy players (a teammate, a
person) are predicted the same way, and simply wrongly.

Items that will spawn are unknown, so the simulated turns spawn none.  The search is
exhaustive to a fixed depth (no clock: the bot stays deterministic), with the depth
lowered when speed makes each turn offer more moves.
"""
from __future__ import annotations

from games.robot.rules import RobotState, enclosed_if_painted

#: Turns searched ahead (fewer while a robot has speed: nine moves a turn, not five).
DEPTH = 4
DEPTH_WITH_SPEED = 3
#: With three or four robots every simulated turn costs more: one turn less.
DEPTH_MANY = 3
#: Per turn left in the game, what a robot still in the game is worth (it paints about
#: one cell a turn): removing the opponent gains it, leaving early loses it.
TURN_VALUE = 0.7
#: For leaving the game before its end, on top of the turns lost.
LEAVING_PENALTY = 10.0
#: Per step to the nearest cell worth painting, at the end of the searched turns.
DISTANCE_COST = 0.3
#: Per cell a loop walked home would enclose, per step of that walk.
LOOP_WEIGHT = 0.9
#: Weight of what each searched turn has already won, on top of where the search ends:
#: the same gain sooner is worth a little more (later plans may not happen).
EARLY_WEIGHT = 0.1


def turns_left(state: RobotState) -> int:
    """Turns until the last shrink ends the game."""
    return max(0, state.board.period * state.board.shrinks - state.turn)


class Lookahead:
    """Searches ``seat``'s moves ``depth`` turns ahead; ``predict(state, other)`` gives
    each opponent's move, ``bot`` (a territory player) lends its path helpers."""

    def __init__(self, bot, seat: int, predict):
        self.bot, self.seat, self.predict = bot, seat, predict
        self.survival_target = 0
        self.root_turn = 0
        # Within one search a cell's openness depends only on the turn (painting never
        # opens or closes a cell; the shrink goes by the turn), so survival is cached by
        # (cell, turn); positions reached by two orders of the same moves are searched once.
        self._survival: dict[tuple[int, int], int] = {}
        self._seen: dict[tuple, float] = {}

    def best_move(self, state: RobotState, moves: list[tuple[int, int]],
                  bias: dict | None = None) -> tuple[tuple[int, int], dict]:
        """The move with the best searched value (``bias`` adds a per-move term: the
        swap-loop memory, the path hint); returns it and every move's value."""
        robot = state.robots[self.seat]
        depth = DEPTH_WITH_SPEED if robot.speed_turns > 0 else DEPTH
        if state.players > 2:
            depth = min(depth, DEPTH_MANY)
        self.root_turn = state.turn
        children = {move: self.step(state, move) for move in moves}
        self.survival_target = max(
            (self.survival(child) for child in children.values()
             if child.robots[self.seat].pos is not None), default=0)
        values = {}
        for move, child in children.items():
            values[move] = (self.search(child, depth - 1) + EARLY_WEIGHT * self.progress(child)
                            + (bias or {}).get(move, 0.0))
        best = max(moves, key=lambda m: values[m])
        return best, values

    def step(self, state: RobotState, move) -> RobotState:
        """The state after one turn: our ``move``, each opponent's predicted move."""
        return self.step_with(state, move, self.replies(state))

    def replies(self, state: RobotState) -> dict:
        """Each opponent's predicted move in ``state`` (it does not depend on ours)."""
        return {other: self.predict(state, other) for other in state.to_move()
                if other != self.seat and state.robots[other].pos is not None}

    def step_with(self, state: RobotState, move, replies: dict) -> RobotState:
        """The state after one turn of our ``move`` and the opponents' ``replies``."""
        child = state.clone()
        child._spawn = _no_spawn            # items yet to spawn are unknown: none appear
        moves = dict(replies)
        if self.seat in state.to_move():
            moves[self.seat] = move
        child.apply(moves)
        return child

    def survival(self, state: RobotState) -> int:
        """:func:`games.robot.bot.survival_turns` for our robot, cached."""
        from games.robot.bot import survival_turns
        key = (state.robots[self.seat].pos, state.turn)
        if key not in self._survival:
            self._survival[key] = survival_turns(state, self.seat)
        return self._survival[key]

    def search(self, state: RobotState, depth: int) -> float:
        """The best value reachable from ``state`` in ``depth`` more turns of ours."""
        robot = state.robots[self.seat]
        if depth <= 0 or state.is_terminal() or robot.pos is None or not robot.in_game:
            return self.leaf(state)
        key = (bytes(state.grid), tuple(r.key() for r in state.robots), tuple(state.items),
               state.turn, depth)
        if key in self._seen:
            return self._seen[key]
        best = None
        replies = self.replies(state)
        for move in state.legal_moves(self.seat):
            child = self.step_with(state, move, replies)
            value = self.search(child, depth - 1) + EARLY_WEIGHT * self.progress(child)
            if best is None or value > best:
                best = value
        if best is None:
            best = self.leaf(state)
        self._seen[key] = best
        return best

    def progress(self, state: RobotState) -> float:
        """Cells ahead of the opponent and robots removed so far: what a turn has won
        for sure (added a little per turn, so a gain now beats the same gain later)."""
        value = self.lead(state)
        if state.finished:
            return value
        left = turns_left(state)
        if not state.robots[self.seat].in_game:
            return value - LEAVING_PENALTY - TURN_VALUE * left
        return value + (LEAVING_PENALTY + TURN_VALUE * left) * self.removed(state)

    def lead(self, state: RobotState) -> float:
        """Our cells minus the best opponent's."""
        scores = state.scores()
        return float(scores[self.seat] - max(s for i, s in enumerate(scores) if i != self.seat))

    def removed(self, state: RobotState) -> int:
        """Opponents that left the game since the search began."""
        return sum(1 for r in state.robots if r.seat != self.seat and not r.in_game
                   and r.left_turn is not None and r.left_turn >= self.root_turn)

    def leaf(self, state: RobotState) -> float:
        """Cells ahead of the opponent, with what the searched turns cannot show yet:
        robots removed (turns they will not paint), a pocket the shrink will seal, the
        way to the next cell worth painting, a loop ready to close."""
        seat = self.seat
        value = self.progress(state)
        if state.finished or not state.robots[seat].in_game:
            return value
        target = self.survival_target - (state.turn - self.root_turn - 1)
        short = target - self.survival(state)
        if short > 0:
            value -= TURN_VALUE * short + 2.0
        path = self.bot.path_to_target(state, seat)
        value -= DISTANCE_COST * (len(path) if path is not None else 15)
        home = self.bot.path_home(state, seat)
        if home:
            value += LOOP_WEIGHT * enclosed_if_painted(state, seat, home) / (len(home) + 1)
        return value


def _no_spawn(events) -> None:
    """Spawning in a simulated turn: nothing appears (what will is not known)."""
