"""Robot benchmarks: simulated games per second, and the judge's overhead per turn.

    python bench/robot_bench.py [--games 20] [--turns 40]

1. Whole 21×21 games (map scatter-21, K = 10, 110 turns unless everyone leaves) with
   four built-in bots, per bot level; "rules only" plays random legal moves to show
   the rules' own cost.
2. The judge: a compiled C++ sample bot (or the Python one without g++) driven through
   the external seat; overhead = the seat's whole ``ask`` minus the program's own run
   time (writing MAP.INP, snapshots, reading MOVE.OUT, deleting files), and a whole
   Match's wall time per turn minus the slowest program of each turn.
"""
from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.robot.maps import new_state  # noqa: E402
from games.robot import PLUGIN                     # noqa: E402
from games.robot.bot import make_bot               # noqa: E402
from games.robot.program import make_external_seat  # noqa: E402
from games.robot.rules import RobotGame            # noqa: E402
from runner.match import Match                     # noqa: E402
from runner.seats import SeatInfo, make_seat       # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "games" / "robot" / "examples"


def simulate(levels, games: int, map_name="scatter-21") -> tuple[float, float]:
    """(games per second, turns per second) for bots of ``levels`` (0 = random moves)."""
    turns = 0
    start = time.perf_counter()
    for seed in range(games):
        state = new_state({"map": map_name, "players": len(levels)}, seed)
        rng = random.Random(seed)
        bots = [make_bot(level, seed * 10 + i) if level else None for i, level in enumerate(levels)]
        while not state.is_terminal():
            moves = {}
            for seat in state.to_move():
                bot = bots[seat]
                moves[seat] = (bot.choose(state.clone(), seat, 1.0) if bot
                               else rng.choice(state.legal_moves(seat)))
            state.apply(moves)
            turns += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, turns / elapsed


def program_command(folder: Path) -> str:
    if shutil.which("g++"):
        exe = folder / "greedy_bot"
        subprocess.run(["g++", "-O2", "-o", str(exe), str(EXAMPLES / "greedy_bot.cpp")], check=True)
        return str(exe)
    return f"{sys.executable} {EXAMPLES / 'greedy_bot.py'}"


def judge_overhead(command: str, turns: int, folder: Path) -> tuple[float, float]:
    """Mean (ask time, program run time) in seconds over ``turns`` asks."""
    game = RobotGame()
    state = new_state({"map": "scatter-21", "players": 4}, 1)
    seat = make_external_seat("ext:" + command, command)
    seat.start(SeatInfo(game, {}, 0, 4, 1, str(folder / "seat")), state)
    bots = [make_bot(2, i) for i in range(4)]
    asks, runs = [], []
    while len(asks) < turns and not state.is_terminal():
        if 0 in state.to_move():
            start = time.perf_counter()
            answer = seat.ask(state, 0, 2.0)
            asks.append(time.perf_counter() - start)
            runs.append(answer.elapsed)
        state.apply({s: bots[s].choose(state.clone(), s, 1.0) for s in state.to_move()})
    return statistics.mean(asks), statistics.mean(runs)


def match_overhead(command: str, folder: Path) -> tuple[float, float, int]:
    """(wall time per turn, slowest program per turn, turns) for a 4-program Match."""
    seats = [make_seat("ext:" + command, PLUGIN, i) for i in range(4)]
    match = Match(PLUGIN, {"map": "scatter-21", "players": 4}, seats, seed=4, workdir=folder)
    start = time.perf_counter()
    match.run()
    wall = time.perf_counter() - start
    slowest = [max(a.get("elapsed", 0.0) for a in t.answers.values()) for t in match.turns]
    return wall / len(match.turns), statistics.mean(slowest), len(match.turns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--turns", type=int, default=40)
    args = parser.parse_args()
    print(f"Simulated 21x21 games (scatter-21, 4 robots), {args.games} games each:")
    for label, levels in (("rules only (random moves)", [0, 0, 0, 0]),
                          ("4 x painter (level 2)", [2, 2, 2, 2]),
                          ("4 x territory (level 3)", [3, 3, 3, 3]),
                          ("4 x strongest (level 4)", [4, 4, 4, 4])):
        games = args.games if levels[0] < 3 else max(2, args.games // 4)
        per_game, per_turn = simulate(levels, games)
        print(f"  {label:28s} {per_game:8.1f} games/s  {per_turn:9.0f} turns/s  "
              f"({1000 / per_game:.0f} ms per game)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        command = program_command(folder)
        ask, run = judge_overhead(command, args.turns, folder)
        print(f"Judge, one seat ({Path(command.split()[-1]).name}), {args.turns} turns:")
        print(f"  ask {ask * 1000:.1f} ms, program run {run * 1000:.1f} ms, "
              f"overhead {(ask - run) * 1000:.1f} ms per turn")
        wall, slowest, turns = match_overhead(command, folder / "match")
        print(f"Match with 4 programs, {turns} turns:")
        print(f"  wall {wall * 1000:.1f} ms per turn, slowest program {slowest * 1000:.1f} ms, "
              f"overhead {(wall - slowest) * 1000:.1f} ms per turn")


if __name__ == "__main__":
    main()
