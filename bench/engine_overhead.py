"""What the arena costs over a bare UCI loop: the same Xiangqi games of one engine
against itself under ``arena tournament`` and under a minimal driver in this script.

Fairy-Stockfish plays itself at a fixed ``go depth`` (so both ways play the same games,
move for move: the script checks that their move counts agree).  Runs alternate:
tournament of ``--games`` games, driver, tournament of one game, driver, ... The driver
is two engine processes and a plain loop (``position fen START moves ...``, ``go``,
read ``bestmove``, the arena's rules module to see the game end).

Two tournament sizes give the two figures (through the medians of each size)::

    tournament wall - driver wall = fixed cost + moves x per-move difference

fixed cost: the tournament's start-up and standings writing (the goal: <= 1 s);
per-move difference: the arena's own work per move (the goal: <= 2 ms).  The games
are all alike, so a match's own start and end (the engines started in the sandbox,
the match's files written) count in the per-move figure, spread over its moves.
``--nice N`` sets the seats' nice limit (0: none), to see what the default costs.
The load average is printed before and after.  Skips with a message when
ARENA_FAIRY_STOCKFISH is unset::

    ARENA_FAIRY_STOCKFISH=/path/to/stockfish nice -n 5 python bench/engine_overhead.py \\
        --games 4 --repeats 3 [--depth 6] [--sandbox strict|basic] [--nice N]

Measured (Fairy-Stockfish depth 6, 101-move games, strict sandbox, ``--games 4
--repeats 3``, 2 cores shared with other work; the first two rows ran one after
the other, the last two earlier, some fitted by least squares before the medians)::

    arena            nice limit   load      fixed cost     per-move difference
    main (cfeed87)   default 10   0.9-1.1   0.58 s         1.39 ms
    this branch      default 10   0.4-0.9   0.36 s         1.40 ms
    this branch      default 10   3.4-6.6   -0.17-0.59 s   6.6-11.7 ms (3 runs)
    this branch      0            3.4-6.0   0.51 s         3.8 ms

In one match (in process, load 0.4): the judge's work between answers is 0.4 ms a
move, and an answer takes 3.0-3.1 ms against the bare loop's 2.9 ms.  Under load the
engines' nice 10 (their session's scheduling group too) makes each answer wait for
the CPU: 7-21 ms a move against 5-12 ms at nice 0 (load 3-6).  Since then engine
seats run at the arena's priority by default (``--nice 10`` brings the old default
back): alternating nice 10 / 0 / 10 / 0 (``--games 2 --repeats 1``, load 23-28), the
arena took 192-277 ms a move more than the bare loop at nice 10 and 29-48 ms at nice 0.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.xiangqi.engine_seats import from_engine_move  # noqa: E402
from games.xiangqi.rules import START_FEN  # noqa: E402
from games.xiangqi import PLUGIN  # noqa: E402


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


# ----------------------------------------------------------------- the bare driver
class Engine:
    """One UCI engine process, spoken to with plain blocking pipes."""

    def __init__(self, path: str):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, word: str) -> str:
        for line in self.proc.stdout:
            if line.split()[:1] == [word]:
                return line
        raise RuntimeError(f"the engine ended before {word!r}")

    def close(self) -> None:
        self.send("quit")
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def driver_game(path: str, depth: int) -> int:
    """Play one game of the engine against itself; its number of moves."""
    engines = [Engine(path), Engine(path)]
    state = PLUGIN.new_game().new_initial_state({}, 0)
    played: list[str] = []
    try:
        while state.outcome() is None:
            side = state.to_move()[0]
            engine = engines[side]
            engine.send(f"position fen {START_FEN}" + (f" moves {' '.join(played)}" if played else ""))
            engine.send(f"go depth {depth}")
            best = engine.wait_for("bestmove").split()[1]
            state.apply({side: from_engine_move(best, 1)})
            played.append(best)
    finally:
        for engine in engines:
            engine.close()
    return len(played)


def driver_run(path: str, depth: int, games: int) -> tuple[float, int]:
    start = time.perf_counter()
    moves = sum(driver_game(path, depth) for _ in range(games))
    return time.perf_counter() - start, moves


# ----------------------------------------------------------------- the arena
EVENT = """name = "engine-overhead"
game = "xiangqi"
format = "round-robin"
rounds = {games}
seed = 1
concurrency = 1
[time]
per_move = 60.0
[limits]
sandbox = "{sandbox}"
{nice}[[contestant]]
name = "A"
seat = "uci:{path} depth={depth}"
[[contestant]]
name = "B"
seat = "uci:{path} depth={depth}"
"""


def tournament_run(path: str, depth: int, games: int, sandbox: str, folder: Path,
                   nice: int | None = None) -> tuple[float, int]:
    """``arena tournament`` of ``games`` games in a fresh folder: its wall time and moves."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    event = folder / "event.toml"
    event.write_text(EVENT.format(games=games, path=path, depth=depth, sandbox=sandbox,
                                  nice="" if nice is None else f"nice = {nice}\n"))
    start = time.perf_counter()
    done = subprocess.run([sys.executable, str(ROOT / "main.py"), "tournament", str(event),
                           "--out", str(folder / "out"), "--workers", "1"],
                          capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"arena tournament failed:\n{done.stdout}\n{done.stderr}")
    moves = 0
    for record in (folder / "out" / "matches").glob("*/*.arena.jsonl"):
        moves += sum(1 for line in record.read_text().splitlines() if line.startswith('{"type": "turn"'))
    return wall, moves


def fit(points: list[tuple[int, float]]) -> tuple[float, float]:
    """``y = a + b x`` through the medians of y at the smallest and the largest x: (a, b).
    Medians, not least squares: on a shared machine one stalled run would swing a fit."""
    small, large = min(x for x, _ in points), max(x for x, _ in points)
    at_small = statistics.median(y for x, y in points if x == small)
    at_large = statistics.median(y for x, y in points if x == large)
    b = (at_large - at_small) / (large - small) if large > small else 0.0
    return at_small - b * small, b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games in the large tournament run")
    parser.add_argument("--repeats", type=int, default=3, help="pairs of runs per size")
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--sandbox", default="strict", choices=("strict", "basic"))
    parser.add_argument("--nice", type=int, default=None,
                        help="the seats' nice limit (default: the arena's; 0: none)")
    args = parser.parse_args()
    path = os.environ.get("ARENA_FAIRY_STOCKFISH")
    if not path:
        print("skipped: set ARENA_FAIRY_STOCKFISH to a Fairy-Stockfish binary with Xiangqi")
        return
    print(f"load before: {load()}  ({os.cpu_count()} cores); depth {args.depth}, sandbox {args.sandbox}, "
          f"nice {'default' if args.nice is None else args.nice}")
    points: list[tuple[int, float]] = []
    rows = []
    with tempfile.TemporaryDirectory(prefix="engine-overhead-") as tmp:
        tournament_run(path, args.depth, 1, args.sandbox, Path(tmp) / "t", args.nice)  # warm-up,
        driver_run(path, args.depth, 1)                                         # not counted
        for repeat in range(args.repeats):
            for games in (args.games, 1):
                arena, arena_moves = tournament_run(path, args.depth, games, args.sandbox,
                                                    Path(tmp) / "t", args.nice)
                bare, bare_moves = driver_run(path, args.depth, games)
                if arena_moves != bare_moves:
                    print(f"  warning: the arena played {arena_moves} moves, the driver {bare_moves}"
                          " (not the same games)")
                points.append((arena_moves, arena - bare))
                rows.append((games, arena_moves, arena, bare))
                print(f"  {games} game(s), {arena_moves} moves: arena {arena:.2f} s, bare {bare:.2f} s, "
                      f"difference {(arena - bare) * 1000 / arena_moves:.2f} ms/move all in; "
                      f"load {load()}", flush=True)
    fixed, per_move = fit(points)
    print(f"fixed cost per tournament run: {fixed:.2f} s (goal <= 1 s)")
    print(f"per-move difference: {per_move * 1000:.2f} ms (goal <= 2 ms)")
    big = [r for r in rows if r[0] == args.games]
    print(f"bare driver: {sum(r[3] for r in big) * 1000 / sum(r[1] for r in big):.2f} ms/move; "
          f"arena all in: {sum(r[2] for r in big) * 1000 / sum(r[1] for r in big):.2f} ms/move")
    print(f"load after: {load()}")


if __name__ == "__main__":
    main()
