"""A tiny solitaire with compound moves, for the runner's tests (not a registered game).

Sums: a count starts at 0; a move adds two numbers, each 1 to 3 (``add 2 3``), or stops
(``stop``); the game ends at ``stop`` or when the count reaches 20, and the count is
the score.  Its repair keeps the valid parts of a bad ``add`` and puts 1 for the rest,
as Tam Quan keeps the valid steps of a team's answer.
"""
from __future__ import annotations

from games.api import (Game, GameKind, GameSpec, IllegalMoveError, MoveSyntaxError, Outcome, State,
                       Termination, Variant)
from games.registry import GamePlugin
from runner.program_seats import FileProtocol, WholeGameSeat

GOAL = 20
STOP = ("stop",)


class SumsState(State):
    def __init__(self):
        self.count, self.turn, self._outcome = 0, 0, None

    def to_move(self):
        return () if self._outcome else (0,)

    def legal_moves(self, seat):
        return [STOP] + [("add", a, b) for a in (1, 2, 3) for b in (1, 2, 3)]

    def check_move(self, seat, move):
        if self._outcome or seat != 0:
            raise IllegalMoveError("the game is over")
        if move != STOP and not (move[0] == "add" and all(1 <= x <= 3 for x in move[1:])):
            raise IllegalMoveError(f"each number must be 1 to 3, not {move[1:]}")

    def apply(self, moves):
        move = moves[0]
        self.turn += 1
        if move == STOP:
            self._outcome = Outcome.solo(self.count, Termination.STOPPED, "stopped")
            return
        self.count += move[1] + move[2]
        if self.count >= GOAL:
            self._outcome = Outcome.solo(self.count, Termination.SCORE, "reached the goal")

    def forfeit(self, seat, reason, detail=""):
        self._outcome = Outcome.solo(0, reason, detail)

    def adjudicate(self, outcome):
        self._outcome = outcome

    def outcome(self):
        return self._outcome

    def turn_number(self):
        return self.turn

    def live_scores(self):
        return (float(self.count),)

    def clone(self):
        other = SumsState()
        other.count, other.turn, other._outcome = self.count, self.turn, self._outcome
        return other

    def __eq__(self, other):
        return isinstance(other, SumsState) and (self.count, self.turn, self._outcome) == (
            other.count, other.turn, other._outcome)


class SumsGame(Game):
    spec = GameSpec("sums", "Sums", 1, 1, (Variant("standard"),), kind=GameKind.SOLITAIRE,
                    live_scores=True)

    def new_initial_state(self, options, seed):
        return SumsState()

    def parse_move(self, text, state=None, seat=None):
        words = (text or "").split()
        if words == ["stop"]:
            return STOP
        if len(words) == 3 and words[0] == "add" and all(w.lstrip("-").isdigit() for w in words[1:]):
            return ("add", int(words[1]), int(words[2]))
        raise MoveSyntaxError(f"{text!r} is neither 'add A B' nor 'stop'")

    def format_move(self, move):
        return " ".join(str(x) for x in move)

    def repair(self, state, seat, text):
        try:
            move = self.parse_move(text or "")
        except MoveSyntaxError:
            return None
        if move == STOP:
            return None
        fixed = ("add",) + tuple(x if 1 <= x <= 3 else 1 for x in move[1:])
        return fixed, f"kept the valid numbers and played {self.format_move(fixed)}"


def parse_output(text: str):
    """output.txt: line 1 ``score N`` (the program's claim), then one move per line."""
    lines = text.split("\n")
    head = lines[0].split()
    if len(head) != 2 or head[0] != "score":
        raise MoveSyntaxError("line 1: expected 'score N'")
    moves = [(f"output.txt line {n}", line.strip()) for n, line in enumerate(lines[1:], start=2)
             if line.strip()]
    return moves, head[1]


SUMS_FILES = FileProtocol(inputs=lambda state, seat: {"input.txt": f"count {state.count}\n",
                                                      "seconds.txt": "5\n"},
                          output="output.txt", parse=parse_output, default_time=5.0)


def make_whole_game_seat(spec, command, limits=None):
    return WholeGameSeat(spec, command, SUMS_FILES, limits)


PLUGIN = GamePlugin(name="sums", game="toy_games:SumsGame", external="toy_games:make_whole_game_seat")
