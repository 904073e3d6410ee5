"""The referee step: one turn of a match as a pure function.

``referee_step(game, state, answers)`` turns what the seats answered into the turn's
record and plays it on ``state``: each answer becomes a move, a repaired move (the
game's :meth:`games.api.Game.repair`), a forfeit, or the game ends on a referee's
ruling.  No threads, clocks, files or processes: the threaded :class:`runner.match.Match`
and the tournament runner both call it, and tests call it directly, as OpenSpiel's
``evaluate_bots`` is only its loop.

Time limits are judged before this step (:func:`judge_time`), because the limit
depends on the clocks the caller keeps.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from games.annotations import parse_annotations
from games.api import (Game, IllegalMoveError, Message, MoveSyntaxError, Outcome, State, Termination,
                       keep_messages)
from games.replay import TurnInfo
from runner.seats import Answer

#: Seconds of slack over a time limit before the referee calls it a time-out
#: (thread hand-over and process start are not the seat's thinking time).
GRACE = 0.05

#: A referee's ruling for one answer (Xiangqi's flag fall, a status word): an
#: Outcome ending the game, or None for the usual consequence.
Ruling = Callable[[int, Answer], "Outcome | None"]


def judge_time(answer: Answer, limit: float | None) -> None:
    """Mark an answer that came after ``limit`` seconds (plus :data:`GRACE`) a time-out."""
    if limit is not None and answer.failure is None and answer.elapsed > limit + GRACE:
        answer.failure = Termination.TIMEOUT
        said = ("answered after {elapsed} s of CPU; the limit was {limit} s" if answer.clock == "cpu"
                else "answered after {elapsed} s; the limit was {limit} s")
        answer.detail = Message(said, elapsed=f"{answer.elapsed:.2f}", limit=f"{limit:.2f}")


def sure_move(game: Game, state: State, seat: int, answer: Answer) -> str | None:
    """The move ``answer`` will be played as (formatted), when that is already certain:
    no failure, a readable and legal move.  None otherwise (the full step decides).

    Touches neither ``answer`` nor ``state``; a caller with a ruling (a referee's
    verdict) must also have checked that it gives none for this answer.
    """
    if answer.failure is not None:
        return None
    try:
        move = answer.move
        if move is None:
            if answer.text is None:
                return None
            move = game.parse_move(answer.text, state, seat)
        state.check_move(seat, move)
    except (MoveSyntaxError, IllegalMoveError):
        return None
    return game.format_move(move)


def resolve_answer(game: Game, state: State, seat: int, answer: Answer) -> Any:
    """The legal move ``answer`` stands for, or None with ``answer.failure`` set."""
    if answer.failure is not None:
        return None
    try:
        move = answer.move
        if move is None:
            if answer.text is None:
                raise MoveSyntaxError(Message("no move was given"))
            move = game.parse_move(answer.text, state, seat)
        state.check_move(seat, move)
    except MoveSyntaxError as exc:
        answer.failure = Termination.BAD_FILE
        answer.detail = _with_source("unreadable move ({source}): {error}", "unreadable move: {error}",
                                     answer.source, exc)
        return None
    except IllegalMoveError as exc:
        answer.failure = Termination.ILLEGAL_MOVE
        answer.detail = _with_source("illegal move ({source}): {error}", "illegal move: {error}",
                                     answer.source, exc)
        return None
    answer.text = game.format_move(move)
    return move


def _with_source(sourced: str, plain: str, source: str | None, exc: Exception) -> Message:
    """Why an answer was refused, naming where it was read when known."""
    error = error_text(exc)
    return Message(sourced, source=source, error=error) if source else Message(plain, error=error)


def error_text(exc: BaseException) -> Message:
    """An error's message as a part of a verdict: the :class:`Message` it was raised with
    (keeping its id), else its text with no id."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, Message) else Message.of(str(exc))


def referee_step(game: Game, state: State, answers: Mapping[int, Answer], number: int,
                 ruling: Ruling | None = None) -> TurnInfo:
    """Play one turn on ``state`` from the seats' ``answers`` and return its record.

    For each seat that had to move: a ruling (when ``ruling`` gives one) ends the game
    as it says; a valid answer is played; a bad one is repaired by the game
    (:meth:`Game.repair`, the repair noted on the answer) or forfeits the seat.  The
    moves of one turn are played together, and only when every seat on move has one.
    ``answers`` must hold one answer for each seat in ``state.to_move()``.
    """
    info = TurnInfo(number=number, moves={})
    moves: dict[int, Any] = {}
    for seat in state.to_move():
        answer = answers[seat]
        read_annotations(game, answer)
        verdict = ruling(seat, answer) if ruling is not None and info.ruling is None else None
        if verdict is not None:
            info.ruling = verdict.to_json()
            info.answers[seat] = answer.log()
            continue
        move = resolve_answer(game, state, seat, answer)
        if move is None:
            move = _repair(game, state, seat, answer, info)
        if move is not None:
            moves[seat] = move
            info.moves[seat] = game.format_move(move)
        info.answers[seat] = answer.log()
    events: tuple = ()
    for seat, forfeit in info.forfeits.items():
        state.forfeit(seat, Termination(forfeit["reason"]), forfeit["detail"])
        events += state.events()
    if info.ruling:
        moves, info.moves = {}, {}
    if moves and set(moves) == set(state.to_move()):
        state.apply(moves)
        events += state.events()
    else:
        info.moves = {}
    if info.ruling:
        outcome = Outcome.from_json(info.ruling)
        state.adjudicate(outcome)
        events += state.events()
        info.note = outcome.detail
    info.events = tuple(events)
    return info


def read_annotations(game: Game, answer: Answer) -> None:
    """Parse the annotation text a program gave with ``answer`` (never raises: garbage
    becomes notes kept beside the drawing commands)."""
    if answer.debug and answer.annotations is None:
        parsed = parse_annotations(answer.debug, game.parse_cell, answer.debug_source)
        answer.annotations = parsed.to_json() if parsed else None


def _repair(game: Game, state: State, seat: int, answer: Answer, info: TurnInfo) -> Any:
    """The game's repair of a bad answer (noted on the answer), or a forfeit (None)."""
    repaired = game.repair(state, seat, answer.text) if _repairable(answer) else None
    if repaired is None:
        info.forfeits[seat] = keep_messages({"reason": answer.failure.value, "detail": answer.detail}, "detail")
        return None
    move, note = repaired
    try:
        state.check_move(seat, move)
    except IllegalMoveError as exc:      # a game's bug must not let an illegal move through
        info.forfeits[seat] = keep_messages({"reason": answer.failure.value,
                                             "detail": Message("{detail}; the repair was illegal too ({error})",
                                                               detail=Message.of(answer.detail),
                                                               error=error_text(exc))}, "detail")
        return None
    answer.notes.append(Message("{failure}: {detail}; {note}", failure=answer.failure.value,
                                detail=Message.of(answer.detail), note=Message.of(note)))
    return move


def _repairable(answer: Answer) -> bool:
    """People and resignations are never repaired: only a program's or bot's bad answer."""
    return answer.failure not in (Termination.RESIGNATION, Termination.ABORTED)
