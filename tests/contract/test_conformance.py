"""Every registered game keeps the API's promises (the checks are in tests/support/conformance.py).

Seeded random playouts check: terminal exactly when no seat must move; the declared
kind (one seat at a time, or several); legal moves that pass check_move and whose text
round-trips; clones equal and independent; turn counters that count and that ``==``
sees; outcomes with a score and a rank per seat and a result text; illegal moves and
garbage rejected by check_move, play and parse_move; forfeit, adjudicate and repair;
and a match record that replays to exactly the same states.

The same checks are run on a small game built wrong on purpose, once per defect, to
show that each check can fail.
"""
import random

import pytest

from games import registry
from games.api import (Game, GameSpec, IllegalMoveError, MoveSyntaxError, Outcome, State,
                       Termination, Variant, uniform_outcome_two_player)
from runner.match import Match
from runner.records import open_replay
from runner.seats import Answer, Seat
from runner.setup import load_option_files

import conformance

PLUGINS = registry.all_plugins()
GAME_IDS = [p.name for p in PLUGINS]
PLAYOUTS = 12


def small_options(plugin):
    game = plugin.new_game()
    spec = game.spec
    options = spec.resolve_options(spec.variants[-1].name if plugin.name == "hex" else None)
    return load_option_files(plugin, game, options)[0]


@pytest.mark.parametrize("name", GAME_IDS)
def test_random_playouts_keep_the_api_promises(name):
    plugin = registry.plugin(name)
    game, options = plugin.new_game(), small_options(plugin)
    finished = sum(conformance.playout(game, options, seed)[-1].is_terminal() for seed in range(PLAYOUTS))
    assert finished > 0, "no random playout ever finished"


@pytest.mark.parametrize("check", ["check_clone_independent", "check_counters_count",
                                   "check_rejects_illegal", "check_referee_paths"])
@pytest.mark.parametrize("name", GAME_IDS)
def test_each_game_keeps_the_promise(name, check):
    plugin = registry.plugin(name)
    getattr(conformance, check)(plugin.new_game(), small_options(plugin), 5)


class RandomSeat(Seat):
    """Answers a uniformly random legal move as text (so the runner parses it)."""

    kind = "bot"

    def __init__(self, seed):
        super().__init__("random", "random")
        self.rng = random.Random(seed)

    def ask(self, state, seat, time_limit):
        move = self.rng.choice(list(state.legal_moves(seat)))
        return Answer(text=self.info.game.format_move(move))


@pytest.mark.parametrize("name", GAME_IDS)
def test_record_replays_every_state(name, tmp_path):
    plugin = registry.plugin(name)
    game = plugin.new_game()
    options = small_options(plugin)
    seats = [RandomSeat(i) for i in range(game.seats_for(options))]
    match = Match(plugin, options, seats, seed=11, record_path=tmp_path / "m.arena.jsonl")
    outcome = match.run()
    replay = open_replay(tmp_path / "m.arena.jsonl")
    assert len(replay.states) == len(match.states)
    for index, (ours, theirs) in enumerate(zip(match.states, replay.states)):
        assert ours == theirs, f"state {index} differs after replay"
    assert replay.outcome == outcome


# ------------------------------------------------------------------ a game built wrong on purpose
class RaceState(State):
    """Two players take turns adding 1 or 2 to a count; whoever reaches 7 wins."""

    GOAL = 7

    def __init__(self):
        self.count, self.turn, self.current, self._outcome = 0, 0, 0, None

    def to_move(self):
        return () if self._outcome else (self.current,)

    def legal_moves(self, seat):
        return [step for step in (1, 2) if self.count + step <= self.GOAL] if seat == self.current else []

    def apply(self, moves):
        (seat, step), = moves.items()
        self.count += step
        self.turn += 1
        if self.count == self.GOAL:
            self._outcome = uniform_outcome_two_player(seat, Termination.WIN, "reached the goal")
        self.current ^= 1

    def forfeit(self, seat, reason, detail=""):
        self._outcome = uniform_outcome_two_player(seat ^ 1, reason, detail)

    def adjudicate(self, outcome):
        self._outcome = outcome

    def outcome(self):
        return self._outcome

    def turn_number(self):
        return self.turn

    def clone(self):
        other = type(self)()
        other.count, other.turn, other.current, other._outcome = (
            self.count, self.turn, self.current, self._outcome)
        return other

    def __eq__(self, other):
        return isinstance(other, RaceState) and (self.count, self.turn, self.current, self._outcome) == (
            other.count, other.turn, other.current, other._outcome)


class RaceGame(Game):
    spec = GameSpec("race", "Race", 2, 2, (Variant("standard"),))
    state_class = RaceState

    def new_initial_state(self, options, seed):
        return self.state_class()

    def parse_move(self, text, state=None, seat=None):
        if text.strip() not in ("1", "2"):
            raise MoveSyntaxError(f"{text!r} is not 1 or 2")
        return int(text)

    def format_move(self, move):
        return str(move)


def broken(name, **methods):
    """RaceGame with one defect: its state class has ``methods`` replaced."""
    state_class = type(f"Broken{name}", (RaceState,), methods)
    return type(f"Race{name}", (RaceGame,), {"state_class": state_class})()


DEFECTS = {
    "equality ignores the turn counter": (
        broken("Eq", __eq__=lambda a, b: isinstance(b, RaceState) and (a.count, a.current, a._outcome)
               == (b.count, b.current, b._outcome)), "check_counters_count"),
    "check_move accepts anything": (
        broken("Check", check_move=lambda self, seat, move: None), "check_rejects_illegal"),
    "forfeit does not end a two-player game": (
        broken("Forfeit", forfeit=lambda self, seat, reason, detail="": None), "check_referee_paths"),
    "one score for two seats": (
        broken("Score", outcome=lambda self: None if self._outcome is None else Outcome(
            self._outcome.winners, (1.0,), Termination.WIN, "", (1,))), "playout"),
    "the turn counter does not count": (
        broken("Turn", turn_number=lambda self: 0), "playout"),
}


def test_the_reference_game_passes_every_check():
    game = RaceGame()
    conformance.playout(game, {}, 1)
    for check in ("check_clone_independent", "check_counters_count", "check_rejects_illegal",
                  "check_referee_paths"):
        getattr(conformance, check)(game, {}, 1)


@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_a_broken_game_fails_the_conformance_checks(defect):
    game, check = DEFECTS[defect]
    with pytest.raises((AssertionError, ValueError, IllegalMoveError)):
        if check == "playout":
            for seed in range(3):
                conformance.playout(game, {}, seed)
        else:
            getattr(conformance, check)(game, {}, 1)


def test_events_carry_the_squares_they_touched():
    """Robot's explosions and enclosures and Xiangqi's captures name their cells, and the
    squares survive the record."""
    from games.robot.maps import new_state
    from games.robot.bot import make_bot
    seen = {}
    for seed in range(3):
        state = new_state({"map": "open-11", "players": 4}, seed)
        bots = [make_bot(3, seed * 4 + i) for i in range(4)]
        while not state.is_terminal():
            state.play({s: bots[s].choose(state.clone(), s, None) for s in state.to_move()})
            for event in state.events():
                if event.kind in ("explosion", "enclosure", "pickup") and event.kind not in seen:
                    seen[event.kind] = event
    assert {"enclosure", "pickup"} <= set(seen)
    for event in seen.values():
        assert event.squares and all(state.board.on_map(x, y) for x, y in event.squares)
    enclosure = seen["enclosure"]
    assert str(len(enclosure.squares)) in enclosure.text
    from games.api import Event
    assert Event.from_json(enclosure.to_json()) == enclosure
    xiangqi = registry.plugin("xiangqi").new_game()
    state = xiangqi.new_initial_state({}, 0)
    for text in ("H2E2", "H9G7", "E2E6"):                  # the cannon takes the centre soldier
        xiangqi.play_text(state, {state.to_move()[0]: text})
    capture, = [e for e in state.events() if e.kind == "capture"]
    assert capture.squares == ((6, 4),)
