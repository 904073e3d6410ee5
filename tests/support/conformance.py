"""The API's promises as checks any game can be put through (see test_conformance.py).

Each ``check_*`` function raises ``AssertionError`` naming the broken promise.  They
take a :class:`games.api.Game` and options ready for ``new_initial_state`` (files
already loaded), so a deliberately broken game can be put through them too.
"""
from __future__ import annotations

import random

from games.api import (ArenaError, GameKind, IllegalMoveError, MoveSyntaxError, Outcome,
                       Termination)

MAX_TURNS = 400
GARBAGE = ("", "   ", "zz99 not a move", "\x00\x01", "-1 -1 -1 -1 -1", "9" * 40)


def playout(game, options, seed, on_state=None):
    """A seeded random playout checking the per-turn promises; returns the states."""
    rng = random.Random(seed)
    state = game.new_initial_state(options, seed)
    states = [state.clone()]
    seats = game.seats_for(options)
    for _ in range(MAX_TURNS):
        check_turn_promises(game, state, seats, rng)
        if on_state:
            on_state(state)
        if state.is_terminal():
            break
        moves = {seat: rng.choice(list(state.legal_moves(seat))) for seat in state.to_move()}
        before = state.turn_number()
        state.play(moves)
        assert state.turn_number() == before + 1, "turn_number() counts the turns played"
        states.append(state.clone())
    return states


def check_turn_promises(game, state, seats, rng):
    to_move = state.to_move()
    outcome = state.outcome()
    assert (not to_move) == (outcome is not None), "terminal exactly when no seat must move"
    assert isinstance(state.board_text(), str)
    if game.spec.live_scores:
        assert len(state.live_scores()) == seats, "one live score per seat"
    if outcome is not None:
        check_outcome(game, outcome, seats)
        return
    kind = game.spec.kind
    if kind in (GameKind.ALTERNATING, GameKind.TEAM_TURNS, GameKind.SOLITAIRE):
        assert len(to_move) == 1, f"a {kind.value} game asks one seat at a time"
    if kind is GameKind.SOLITAIRE:
        assert to_move == (0,), "a solitaire has one seat"
    assert all(0 <= s < seats for s in to_move), "to_move() names seats of this game"
    for seat in to_move:
        legal = list(state.legal_moves(seat))
        assert legal, f"seat {seat} must move but has no legal move"
        for move in rng.sample(legal, min(5, len(legal))):
            state.check_move(seat, move)
            text = game.format_move(move)
            assert game.parse_move(text, state, seat) == move, f"{text!r} does not round-trip"
            assert game.format_move(game.parse_move(text, state, seat)) == text
    twin = state.clone()
    assert twin == state, "a clone equals its original"


def check_outcome(game, outcome, seats):
    assert isinstance(outcome, Outcome)
    assert len(outcome.scores) == seats and len(outcome.ranks) == seats, "one score and rank per seat"
    assert all(1 <= r <= seats for r in outcome.ranks)
    assert set(outcome.winners) == {s for s in range(seats) if outcome.ranks[s] == 1} or not outcome.winners
    assert outcome.score_only == (game.spec.kind is GameKind.SOLITAIRE), \
        "a solitaire's result is its score, and only a solitaire's"
    assert outcome.result_text([game.spec.seat_name(s) for s in range(seats)])
    assert Outcome.from_json(outcome.to_json()) == outcome, "an outcome round-trips through JSON"


def check_clone_independent(game, options, seed):
    state = game.new_initial_state(options, seed)
    twin = state.clone()
    moves = {s: list(state.legal_moves(s))[0] for s in state.to_move()}
    state.play(moves)
    assert twin != state, "a state changes when a move is played; its clone does not"
    assert twin == game.new_initial_state(options, seed), "the same options and seed, the same state"


def check_counters_count(game, options, seed):
    """States that differ only in their turn counter are different states (the counter
    decides limits and rights such as the swap), so ``==`` must see it."""
    state = game.new_initial_state(options, seed)
    moves = {s: list(state.legal_moves(s))[0] for s in state.to_move()}
    state.play(moves)
    twin = state.clone()
    counters = [name for name, value in vars(twin).items()
                if "turn" in name.lower() and isinstance(value, int) and not isinstance(value, bool)
                and value == state.turn_number()]
    assert counters, "the state keeps its turn counter in an attribute named like 'turn'"
    setattr(twin, counters[0], getattr(twin, counters[0]) + 1)
    assert twin != state, f"states differing in {counters[0]!r} compare equal"


def check_rejects_illegal(game, options, seed):
    """Garbage text is a MoveSyntaxError, and a move legal elsewhere but not here is an
    IllegalMoveError from check_move and from play (nothing changes)."""
    states = playout(game, options, seed)
    live = [s for s in states if not s.is_terminal()]
    assert live, "the playout had a position to move in"
    for state in live[:3]:
        seat = state.to_move()[0]
        for text in GARBAGE:
            try:
                game.parse_move(text, state, seat)
            except MoveSyntaxError:
                continue
            except ArenaError as exc:
                raise AssertionError(f"{text!r}: {type(exc).__name__}, not MoveSyntaxError") from None
    rejected = 0
    for here in live:
        seats = here.to_move()
        for elsewhere in live:
            for candidate in list(elsewhere.legal_moves(elsewhere.to_move()[0]))[:20]:
                seat = seats[0]
                try:
                    here.check_move(seat, candidate)
                except IllegalMoveError:
                    rejected += 1
                    before = here.clone()
                    moves = {s: list(here.legal_moves(s))[0] for s in seats}
                    moves[seat] = candidate
                    try:
                        here.play(moves)
                    except IllegalMoveError:
                        pass
                    else:
                        raise AssertionError(f"play() accepted {game.format_move(candidate)!r}, "
                                             "which check_move rejects")
                    assert here == before, "a rejected move changes nothing"
                if rejected >= 5:
                    return
    assert rejected, "no move legal elsewhere was ever rejected here: check_move accepts anything"


def check_referee_paths(game, options, seed):
    """forfeit, adjudicate and repair do what the API says for this game."""
    seats = game.seats_for(options)
    state = game.new_initial_state(options, seed)
    seat = state.to_move()[0]
    repaired = game.repair(state, seat, "garbage")
    if repaired is not None:
        move, note = repaired
        state.check_move(seat, move)
        assert isinstance(note, str) and note, "a repair says what it did"
    state.forfeit(seat, Termination.CRASH, "conformance")
    assert seat not in state.to_move(), "a seat that forfeited is not asked again"
    if game.spec.kind is GameKind.SOLITAIRE or (seats == 2 and game.spec.kind is GameKind.ALTERNATING):
        assert state.is_terminal(), "a forfeit ends a solitaire or a two-player game"
        outcome = state.outcome()
        assert seat not in outcome.winners
        check_outcome(game, outcome, seats)
    state = game.new_initial_state(options, seed)
    ruling = (Outcome.solo(0, Termination.ADJUDICATION, "ruled") if game.spec.kind is GameKind.SOLITAIRE
              else Outcome((), tuple(1.0 / seats for _ in range(seats)), Termination.ADJUDICATION, "ruled"))
    state.adjudicate(ruling)
    assert state.outcome() == ruling and not state.to_move(), "a ruling ends the game as ruled"
