"""Hex positions where a side threw a win away, and how often the bot now keeps it.

From finished games (any record the arena opens), a GTP engine with Benzene's
``dfpn-solve-state`` (MoHex) solves every position, as ``bench/hex_game_review.py``
does; each position where the mover held a solved win and played a losing move is a
test.  The built-in bot then thinks ``--movetime`` ms on each, and the engine solves the
position after its move: the table gives how many of the wins it keeps.  It is the quick
measure of what loses games against MoHex (a second of playouts cannot see a ladder or a
deep virtual connection), far cheaper than a match.

    python bench/hex_thrown_wins.py OUT/game-*/hex.sgf --engine "$ARENA_MOHEX --quiet" --who Bot
    python bench/hex_thrown_wins.py ... --knowledge-visits 64     # a variant of level 5

``--who Bot`` keeps only the moves of the side whose name holds "Bot" (the records of
``bench/gtp_match.py`` name the built-in bot "Bot (level 5, ...)").
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from dataclasses import replace

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import games.hex.bot as hex_bot  # noqa: E402
import games.hex.fast_vcs as fast_vcs  # noqa: E402
from bench.hex_game_review import absolute_paths, dfpn_winners, review, solve_positions  # noqa: E402
from bench.stats import wilson_interval  # noqa: E402
from games.api import ArenaError  # noqa: E402
from games.hex.notation import from_hexgui, to_hexgui  # noqa: E402
from games.hex.rules import HexGame  # noqa: E402
from runner.records import open_replay  # noqa: E402


def thrown_wins(paths: list[str], engine: list[str], seconds: float, who: str):
    """(label, game's start, state) of every position where the mover threw a solved win
    away, keeping only the moves of sides whose name holds ``who`` ("" keeps all)."""
    found = []
    for path in paths:
        replay = open_replay(path)
        names = list(replay.seat_names)
        values = solve_positions(replay, engine, seconds)
        for item in review(replay, values):
            name = names[item.seat] if item.seat < len(names) else ""
            if item.threw_away_a_win and who.lower() in (name or "").lower():
                found.append((f"{os.path.basename(os.path.dirname(path)) or path}#{item.number}",
                              replay.states[0], replay.states[item.number - 1]))
    return found


def save_tests(tests, path: str) -> None:
    """One JSON line a test: its label, the board size, the start position and the moves."""
    with open(path, "w", encoding="utf-8") as out:
        for label, start, state in tests:
            rows = ["".join(".12"[v] for v in start.cells[r * start.size:(r + 1) * start.size])
                    for r in range(start.size)]
            moves = [to_hexgui(move) for move in state.history[len(start.history):]]
            out.write(json.dumps({"label": label, "size": start.size, "start": "/".join(rows),
                                  "swap": start.swap_allowed, "moves": moves}) + "\n")


def load_tests(path: str):
    """The tests ``save_tests`` wrote, as (label, start, state); ValueError naming the
    file and line when one is not such a test."""
    tests = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            try:
                item = json.loads(line)
                start = HexGame().new_initial_state(
                    {"size": item["size"], "position": item["start"], "swap": item["swap"]}, 1)
                state = start.clone()
                for name in item["moves"]:
                    state.push(from_hexgui(name))
            except (ValueError, KeyError, TypeError, ArenaError) as exc:
                raise ValueError(f"{path}:{number}: expected a test as save_tests writes it "
                                 f"(label, size, start, swap, moves): {exc}") from None
            tests.append((item["label"], start, state))
    return tests


def keeps_the_win(start, state, engine: list[str], movetime: float, seed: int):
    """(whether the bot's move leaves the position won for it, None when the engine did
    not solve it in time; the move)."""
    bot = hex_bot.make_bot(5, seed, settings={"movetime": str(int(movetime))})
    bot.prepare()
    move = bot.choose(state.clone(), state.current, None)
    after = state.clone()
    after.push(move)
    if after.winner() is not None:
        return after.winner() == state.current, move
    [winner] = dfpn_winners(engine, start, [after], 20, 120)
    return (None if winner is None else winner == state.current), move


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="*")
    parser.add_argument("--save", help="write the test positions found to this file (JSON lines)")
    parser.add_argument("--load", help="take the test positions from this file instead of records")
    parser.add_argument("--engine", required=True, help="a GTP engine with dfpn-solve-state (MoHex)")
    parser.add_argument("--seconds", type=float, default=5.0, help="solver time a position")
    parser.add_argument("--movetime", type=float, default=1000.0, help="the bot's time a move (ms)")
    parser.add_argument("--who", default="", help="keep only the moves of sides whose name holds this (e.g. Bot)")
    parser.add_argument("--knowledge-visits", type=int, help="level 5's visits before a node's H-search")
    parser.add_argument("--vc-limits", help="FULL,SEMI: carriers the compiled H-search keeps a pair")
    args = parser.parse_args(argv)
    engine = absolute_paths(shlex.split(args.engine))
    if args.knowledge_visits is not None:
        plan = hex_bot.LEVEL_PLANS[5]
        hex_bot.LEVEL_PLANS[5] = replace(plan, config=replace(plan.config, knowledge_visits=args.knowledge_visits))
    if args.vc_limits:
        fast_vcs.MAX_FULL, fast_vcs.MAX_SEMI = (int(x) for x in args.vc_limits.split(","))
    started = time.perf_counter()
    if args.load:
        try:
            tests = load_tests(args.load)
        except (OSError, ValueError) as exc:
            parser.error(str(exc))
    else:
        tests = thrown_wins(args.records, engine, args.seconds, args.who)
        print(f"{len(tests)} positions where a won position was thrown away "
              f"({time.perf_counter() - started:.0f} s to solve the games)", flush=True)
    if args.save:
        save_tests(tests, args.save)
    kept = unknown = 0
    for index, (label, start, state) in enumerate(tests):
        result, move = keeps_the_win(start, state, engine, args.movetime, index)
        kept += result is True
        unknown += result is None
        print(f"{label:<28} player {state.current + 1} plays {move.text():>4}: "
              f"{'keeps the win' if result else 'unsolved' if result is None else 'loses'}", flush=True)
    low, high = wilson_interval(kept, len(tests))
    print(f"kept {kept}/{len(tests)} [{100 * low:.0f}%, {100 * high:.0f}%]"
          + (f"; {unknown} not solved in time" if unknown else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
