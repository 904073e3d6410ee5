"""Review a finished Hex game with a solver: who wins after each move, and which moves
threw a won position away.

For a bot developer the question after a lost game is *where* it was lost.  This asks a
GTP engine that has Benzene's ``dfpn-solve-state`` (MoHex, Wolve) who wins each position
of the game with perfect play, within ``--seconds`` a position, and prints one line a
move: the position's value before the move, after it, and ``THREW AWAY A WIN`` when the
mover had a won position and left one won for the opponent.  Positions the solver cannot
settle in time show ``?``; the table ends with each side's count of such moves and the
first of them.  Any record the arena opens will do (its own record, ``HEX.OUT``, SGF)::

    python bench/hex_game_review.py replays/hex-....arena.jsonl --engine "$ARENA_MOHEX" --seconds 5

One engine process reviews the whole game (Benzene keeps what it solved between
positions), in a scratch folder (MoHex writes a log there).

A 9x9 game of ``bot:5 movetime=1000`` (player 1) against MoHex at 1,000 playouts from
the opening c2 (2026-11-24; 41 s at ``--seconds 5``): from half-move 5 on the bot held a
won position; at half-moves 14, 16, ... 26 it played a losing move seven times, MoHex
handing the win back six times in between, and from half-move 27 MoHex kept it.  At
none of the bot's seven positions did its H-search (games/hex/vcs.py) find a virtual
connection after any candidate move: those wins take deeper reading than the bot's
second of MCTS gives it (three seconds a move won 3 of 12 games from a set of 9x9
openings where one second won 2: bench/gtp_match.py).
"""
from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from games.api import ArenaError  # noqa: E402
from games.hex.gtp import engine_moves  # noqa: E402
from games.hex.notation import colour_of_seat, to_hexgui  # noqa: E402
from runner.records import open_replay  # noqa: E402

UNKNOWN = "?"


@dataclass(frozen=True)
class MoveReview:
    """One move: who made it, the move, and the solved winner (a seat, or None when the
    solver could not tell) before and after it."""

    number: int
    seat: int
    move: str
    before: int | None
    after: int | None

    @property
    def threw_away_a_win(self) -> bool:
        return self.before == self.seat and self.after == 1 - self.seat


def solve_positions(replay, argv: list[str], seconds: float) -> list[int | None]:
    """The winner (seat) of each of the replay's positions as the engine solves it with
    ``dfpn-solve-state``, or None where it could not within ``seconds``."""
    budget = 30 + len(replay.states) * (seconds + 5)
    verdicts = dfpn_winners(argv, replay.states[0], replay.states, seconds, budget)
    # A connected board needs no solver (a game lost by a forfeit is solved as any other).
    return [state.winner() if state.winner() is not None else verdict
            for state, verdict in zip(replay.states, verdicts)]


def dfpn_winners(argv: list[str], start, states, seconds: float | None, timeout: float) -> list[int | None]:
    """Each state's winner (seat) with perfect play, for the side to move there, as one
    run of a GTP engine's ``dfpn-solve-state`` gives it (None: not solved), each state
    reached from ``start`` by its history.  ``seconds`` caps the solver per position
    (``param_dfpn timelimit``; None: the engine's own limit).  Raises OSError when the
    engine cannot start or stops without an answer, TimeoutExpired after ``timeout``."""
    script = [f"boardsize {start.size}"] + ([f"param_dfpn timelimit {seconds:g}"] if seconds else [])
    for index, state in enumerate(states):
        script += ["clear_board", *engine_moves(start, state.history),
                   f"{index + 1} dfpn-solve-state {colour_of_seat(state.current)}"]
    script.append("quit")
    with tempfile.TemporaryDirectory(prefix="arena-solve-") as folder:    # MoHex writes a log
        done = subprocess.run(argv, input="\n".join(script) + "\n", capture_output=True, text=True,
                              timeout=timeout, cwd=folder)
    verdicts: dict[int, int | None] = {}
    for block in done.stdout.split("\n\n"):
        head, _, verdict = block.strip().partition(" ")
        if head.startswith("=") and head[1:].isdigit():
            verdicts[int(head[1:]) - 1] = {"black": 0, "white": 1}.get(verdict.strip())
    if not verdicts and done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or [f"exit code {done.returncode}"]
        raise OSError(f"it stopped without an answer: {tail[0]}")
    return [verdicts.get(index) for index in range(len(states))]


def review(replay, values: list[int | None]) -> list[MoveReview]:
    """One MoveReview per move of the replay, from the positions' solved winners."""
    reviews = []
    for index in range(len(replay.states) - 1):
        before, after = replay.states[index], replay.states[index + 1]
        if len(after.history) == len(before.history):
            continue                       # a turn without a move (a forfeit)
        move = after.history[-1]
        reviews.append(MoveReview(index + 1, before.current, to_hexgui(move), values[index], values[index + 1]))
    return reviews


def absolute_paths(argv: list[str]) -> list[str]:
    """The command with its words that name files here made absolute (it runs elsewhere)."""
    return [str(Path(word).resolve()) if not word.startswith("-") and Path(word).exists() else word
            for word in argv]


def print_review(replay, reviews: list[MoveReview]) -> None:
    names = list(replay.seat_names)
    value = {None: UNKNOWN, 0: "player 1", 1: "player 2"}
    print(" move  by        cell    won for (before -> after)")
    for item in reviews:
        mark = "  THREW AWAY A WIN" if item.threw_away_a_win else ""
        print(f"{item.number:5d}  player {item.seat + 1}  {item.move:>6}   "
              f"{value[item.before]:>8} -> {value[item.after]:<8}{mark}")
    print()
    for seat in (0, 1):
        thrown = [item for item in reviews if item.seat == seat and item.threw_away_a_win]
        first = f", first at move {thrown[0].number} ({thrown[0].move})" if thrown else ""
        name = f" ({names[seat]})" if seat < len(names) and names[seat] else ""
        print(f"player {seat + 1}{name}: {len(thrown)} move(s) threw away a win{first}")
    unknown = sum(v is None for v in [r.before for r in reviews])
    if unknown:
        print(f"{unknown} position(s) not solved within the time limit (shown as {UNKNOWN})")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("record", help="a Hex record: the arena's own, HEX.OUT or SGF")
    parser.add_argument("--engine", default=os.environ.get("ARENA_MOHEX", ""),
                        help="a GTP engine with dfpn-solve-state, as a command line "
                             "(default: $ARENA_MOHEX)")
    parser.add_argument("--seconds", type=float, default=5.0, help="solver time per position")
    args = parser.parse_args(argv)
    if not args.engine:
        parser.error("give --engine (a GTP engine with dfpn-solve-state) or set ARENA_MOHEX")
    try:
        replay = open_replay(args.record)
    except ArenaError as error:
        parser.error(str(error))
    if replay.game != "hex":
        parser.error(f"{args.record} is a {replay.game} record, not a Hex one")
    try:
        values = solve_positions(replay, absolute_paths(shlex.split(args.engine)), args.seconds)
    except (OSError, subprocess.TimeoutExpired) as error:
        parser.error(f"the engine {args.engine!r} did not finish the review: {error}")
    print_review(replay, review(replay, values))
    return 0


if __name__ == "__main__":
    sys.exit(main())
