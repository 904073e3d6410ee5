"""Re-run one recorded turn with another program (a new build of the same bot, another bot).

The program is given exactly what that turn's seat was given: the position before the
turn, through the game's own protocol, and for programs that keep private files
(Robot's STATE.DAT) those files as the record kept them.  Its answer, time and output
are set beside the recorded ones.

A seat joins at the recorded position the way its protocol allows: a run-once program
simply gets that turn's input files; a HexLib program is started from the position (the
protocol's start position); GTP and UCI engines are given the moves so far; a program
run once for the whole game (Crossed Words) is run again on the game's start and its
answer for the turn read from its file.  A Xiangqi
contest program always starts from the usual position, so its turns cannot be re-run
alone; the command says so.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from games import registry
from games.api import GameSetupError
from games.replay import Replay
from runner.build import build_seat
from runner.program_seats import WholeGameSeat
from runner.seats import Answer, SeatInfo


@dataclass
class Rerun:
    """A recorded answer and the new one, for one seat of one turn."""

    turn: int
    seat: int
    recorded: dict
    new: Answer

    @property
    def same_move(self) -> bool:
        return (self.recorded.get("text") or "") == (self.new.text or "")


def rerun_turn(replay: Replay, turn: int, seat: int, spec: str,
               limits: Mapping[str, Any] | None = None, time_limit: float | None = None) -> Rerun:
    """Ask seat ``spec`` for ``seat``'s answer on turn ``turn`` (1-based) of ``replay``."""
    if not 1 <= turn <= len(replay.turns):
        raise GameSetupError(f"{replay.source}: no turn {turn}; it has turns 1-{len(replay.turns)}")
    state = replay.states[turn - 1]
    if seat not in state.to_move():
        raise GameSetupError(f"seat {seat + 1} did not move on turn {turn}")
    recorded = replay.turns[turn - 1].answers.get(seat, {})
    plugin = registry.plugin(replay.game)
    game = plugin.new_game()
    options = replay.header.get("options") or {}
    seed = int(replay.header.get("seed", 0))
    candidate = build_seat(plugin, spec, seed, seat, limits)     # as the match made that seat
    limit = time_limit if time_limit is not None else recorded_limit(replay, seat)
    with tempfile.TemporaryDirectory(prefix="arena-rerun-") as folder:
        info = SeatInfo(game, options, seat, len(replay.seat_names) or game.seats_for(options), seed,
                        str(Path(folder) / f"seat{seat + 1}") if candidate.needs_folder else None)
        try:
            if isinstance(candidate, WholeGameSeat):
                answer = _whole_game_answer(candidate, info, replay, turn, seat, limit)
            else:
                candidate.start(info, state.clone())
                kept = recorded.get("kept") or {}
                if kept and hasattr(candidate, "restore"):
                    candidate.restore(kept)
                answer = candidate.ask(state.clone(), seat, limit)
        finally:
            candidate.close()
    if answer.text is None and answer.move is not None:
        answer.text = game.format_move(answer.move)
    return Rerun(turn, seat, recorded, answer)


def _whole_game_answer(candidate: WholeGameSeat, info: SeatInfo, replay: Replay, turn: int, seat: int,
                       limit: float | None) -> Answer:
    """A program run once for the whole game (Crossed Words) is given the game's start, as
    it was then; its answer for ``turn`` is the move its file gives for that turn.  The
    run's time and output (all spent on the first move) come with it."""
    candidate.start(info, replay.states[0].clone())
    first = answer = None
    for index in range(turn):
        if seat not in replay.states[index].to_move():
            continue
        answer = candidate.ask(replay.states[index].clone(), seat, limit)
        first = first or answer
        if answer.failure is not None:
            break
    if answer is not first:
        answer.elapsed, answer.stdout, answer.stderr = first.elapsed, first.stdout, first.stderr
        answer.given = first.given
    return answer


def recorded_limit(replay: Replay, seat: int) -> float | None:
    """The per-move limit the match had, if any."""
    control = replay.header.get("time_control") or {}
    value = control.get("per_move")
    return float(value) if isinstance(value, (int, float)) else None


def describe(rerun: Rerun, game_title: str = "") -> list[str]:
    """The two answers side by side, as the command prints them."""
    rec, new = rerun.recorded, rerun.new
    lines = [f"{game_title} turn {rerun.turn}, seat {rerun.seat + 1}".strip(),
             f"  recorded: {rec.get('text') or '-'}  ({rec.get('elapsed', 0):.3f} s)"
             + (f"  {rec.get('failure')}: {rec.get('detail', '')}" if rec.get("failure") else ""),
             f"  new:      {new.text or '-'}  ({new.elapsed:.3f} s)"
             + (f"  {new.failure.value}: {new.detail}" if new.failure else ""),
             "  same move" if rerun.same_move else "  DIFFERENT move"]
    if new.stderr.strip():
        lines += ["  new program's stderr:"] + ["    " + x for x in new.stderr.strip().splitlines()[-10:]]
    return lines
