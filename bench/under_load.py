"""The arena under a real event's load: busy processes beside a match, for both clocks.

    nice -n 5 python bench/under_load.py [--busy 4] [--think 0.6] [--turns 3]
                                         [--engine-start 12] [--cw-seconds 10] [--cw-seed 1]

Starts ``--busy`` processes that spin on a core, each in a session of its own
(``setsid``, as other applications are: Linux shares the CPU evenly between sessions),
then, once with ``clock = wall`` and once with ``clock = cpu``:

* a Robot match of four honest programs on one 9x9 map with K = ``--turns``, each
  program using ``--think`` CPU seconds a turn (well within its 2 s limit) and then
  moving as the sample greedy program does; it counts the time-outs charged to them
  and the judge's overhead per turn (the turn's wall time minus the slowest program's
  wall time), p50 and p90;
* a Xiangqi engine match: Fairy-Stockfish when ``ARENA_FAIRY_STOCKFISH`` names it, else
  the test suite's fake UCI engine, which answers ``uciok`` only after
  ``--engine-start`` seconds (an engine still initialising on a busy machine; the old
  fixed handshake limit was 10 s), against the built-in bot: handshake failures (the
  match not played) and the engine's time-outs;
* a Crossed Words solve of one seeded pile set through ``arena crosswords solve``
  (``--level greedy`` and the planner, ``--cw-seconds`` each): the planner's score
  over greedy's.

It prints the load average before and after, and a table per clock.  Every busy
process is killed at the end (also on Ctrl-C).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PY = sys.executable
GREEDY = ROOT / "games" / "robot" / "examples" / "greedy_bot.py"
FAKE_ENGINE = ROOT / "tests" / "xiangqi" / "programs" / "fake_engine.py"
SPIN = "import os\nos.setsid()\nwhile True: pass"
#: A Robot program that thinks honestly: ``THINK`` CPU seconds, then the greedy move.
THINKER = '''import runpy, sys, time
think = float(sys.argv[1])
start = time.process_time()
while time.process_time() - start < think:
    pass
sys.argv = sys.argv[:1]
runpy.run_path({greedy!r}, run_name="__main__")
'''


def start_busy(count: int) -> tuple[subprocess.Popen, list]:
    """``count`` processes spinning on a core, each in a session of its own (``setsid``),
    children of a shell rather than of this process (an arena that became the child
    subreaper would take its own children in other sessions for programs' orphans)."""
    import psutil
    holder = subprocess.Popen(["/bin/sh", "-c", " ".join(
        [f"{shlex.quote(PY)} -c {shlex.quote(SPIN)} &"] * count) + " wait"])
    deadline = time.monotonic() + 10
    while len(psutil.Process(holder.pid).children()) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return holder, psutil.Process(holder.pid).children()


def stop_busy(busy: tuple[subprocess.Popen, list]) -> None:
    holder, procs = busy
    alive = sum(proc.is_running() for proc in procs)
    for proc in procs:
        try:
            proc.kill()
        except Exception:       # noqa: BLE001 - already gone
            pass
    holder.wait()
    if alive < len(procs):
        print(f"note: {len(procs) - alive} busy processes ended before the bench did")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def robot_match(folder: Path, clock: str, think: float, turns: int) -> dict:
    """Time-outs charged to the four honest programs, and the judge's overhead per turn."""
    from games.robot import PLUGIN
    from runner.match import Match, TimeControl
    from runner.seats import make_seat

    thinker = folder / "thinker.py"
    thinker.write_text(THINKER.format(greedy=str(GREEDY)))
    limits = {"time": 2.0, "clock": clock}
    seats = [make_seat(f"ext:{PY} {thinker} {think}", PLUGIN, i, limits) for i in range(4)]
    ends: list[float] = []

    class Timed(Match):
        def after_turn(self, info) -> None:
            ends.append(time.perf_counter())

    rows = "\n".join(["." * 9] * 9)
    match = Timed(PLUGIN, {"map": f"9 9 {turns}\n{rows}\n", "players": 4, "respawn": "off"},
                  seats, seed=5, workdir=folder / f"robot-{clock}",
                  record_path=folder / f"robot-{clock}.arena.jsonl",
                  time_control=TimeControl(per_move=2.0))
    ends.append(time.perf_counter())
    match.run()
    timeouts, failures, answers, overhead, cpu = 0, 0, 0, [], []
    for index, info in enumerate(match.turns):
        walls = [a.get("wall", a.get("elapsed", 0.0)) for a in info.answers.values()]
        answers += len(info.answers)
        timeouts += sum(1 for a in info.answers.values() if a.get("failure") == "timeout")
        failures += sum(1 for a in info.answers.values() if a.get("failure"))
        cpu += [a["cpu"] for a in info.answers.values() if a.get("cpu") is not None]
        if index and index + 1 < len(ends):      # the first turn also starts the match
            overhead.append(ends[index + 1] - ends[index] - max(walls))
    return {"timeouts": timeouts, "failures": failures, "answers": answers, "overhead": overhead,
            "slowest_wall": max((a.get("wall", 0.0) for t in match.turns for a in t.answers.values()),
                                default=0.0),
            "cpu_mean": statistics.mean(cpu) if cpu else None}


def engine_match(folder: Path, clock: str, engine_start: float) -> dict:
    """Handshake failures and the engine's time-outs in one Xiangqi engine match."""
    from games.xiangqi import PLUGIN
    from runner.match import Match, TimeControl
    from runner.seats import make_seat

    real = os.environ.get("ARENA_FAIRY_STOCKFISH")
    if real:
        command, name = shlex.quote(real), "Fairy-Stockfish"
    else:
        command = " ".join(shlex.quote(x) for x in (PY, str(FAKE_ENGINE), "--slow-start", str(engine_start)))
        name = f"fake engine, uciok after {engine_start:g} s"
    seats = [make_seat(f"uci:{command} movetime=200 clock={clock}", PLUGIN, 1),
             make_seat("bot:1", PLUGIN, 2)]
    match = Match(PLUGIN, {"no_capture_limit": 10}, seats, seed=3, workdir=folder / f"xiangqi-{clock}",
                  record_path=folder / f"xiangqi-{clock}.arena.jsonl",
                  time_control=TimeControl(per_move=2.0))
    started = time.perf_counter()
    outcome = match.run()
    timeouts = sum(1 for t in match.turns for s, a in t.answers.items()
                   if int(s) == 0 and a.get("failure") == "timeout")
    return {"engine": name, "handshake_failures": int(match.not_played), "timeouts": timeouts,
            "turns": len(match.turns), "result": f"{outcome.reason.value}: {outcome.detail}"[:90],
            "seconds": time.perf_counter() - started}


def crosswords_solve(folder: Path, seed: int, seconds: float) -> dict:
    """Greedy's and the planner's scores on one seeded pile set, by ``arena crosswords solve``."""
    from games.crosswords.files import write_input
    from games.crosswords.rules import random_piles

    source = folder / f"input-{seed}.txt"
    source.write_text(write_input(random_piles(seed)))
    scores = {}
    for level in ("greedy", "planner"):
        out = folder / f"output-{level}.txt"
        run = subprocess.run([PY, str(ROOT / "main.py"), "crosswords", "solve", "--input", str(source),
                              "--seconds", str(seconds), "--level", level, "--out", str(out)],
                             capture_output=True, text=True, cwd=folder)
        found = re.search(r"VALID\s+(\d+)", run.stdout)
        scores[level] = int(found.group(1)) if found else 0
    return {"greedy": scores["greedy"], "planner": scores["planner"],
            "ratio": scores["planner"] / scores["greedy"] if scores["greedy"] else float("nan")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", type=int, default=4, help="busy processes beside the arena")
    parser.add_argument("--think", type=float, default=0.6, help="CPU seconds a Robot program thinks a turn")
    parser.add_argument("--turns", type=int, default=3, help="the Robot map's K (3: 16 turns)")
    parser.add_argument("--engine-start", type=float, default=12.0,
                        help="seconds the fake engine takes to answer uci")
    parser.add_argument("--cw-seconds", type=float, default=10.0)
    parser.add_argument("--cw-seed", type=int, default=1)
    parser.add_argument("--clocks", default="wall,cpu")
    args = parser.parse_args()

    print(f"cores {os.cpu_count()}, {args.busy} busy processes (setsid), load average before "
          f"{os.getloadavg()[0]:.2f}; Robot: 4 programs thinking {args.think:g} s of CPU a turn, "
          f"2 s limit, map K = {args.turns}")
    busy = start_busy(args.busy)
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="arena-under-load-") as tmp:
            folder = Path(tmp)
            time.sleep(1.0)                   # let the busy processes take their share
            for clock in args.clocks.split(","):
                robot = robot_match(folder, clock, args.think, args.turns)
                engine = engine_match(folder, clock, args.engine_start)
                words = crosswords_solve(folder, args.cw_seed, args.cw_seconds)
                rows.append((clock, robot, engine, words, os.getloadavg()[0]))
                print(json.dumps({"clock": clock, "robot_timeouts": robot["timeouts"],
                                  "robot_failures": robot["failures"], "robot_cpu_mean": robot["cpu_mean"],
                                  "engine": engine, "crosswords": words}, default=str), flush=True)
    finally:
        stop_busy(busy)
    print(f"\nload average after {os.getloadavg()[0]:.2f}")
    print(f"{'clock':5}  {'honest time-outs':>16}  {'handshake fails':>15}  {'engine t/o':>10}  "
          f"{'judge p50/p90 ms':>16}  {'slowest wall':>12}  {'planner/greedy':>22}  {'load':>5}")
    for clock, robot, engine, words, load in rows:
        overhead = robot["overhead"]
        print(f"{clock:5}  {str(robot['timeouts']) + '/' + str(robot['answers']):>16}  "
              f"{engine['handshake_failures']:>15}  {engine['timeouts']:>10}  "
              f"{percentile(overhead, 0.5) * 1000:>7.1f}/{percentile(overhead, 0.9) * 1000:<8.1f}  "
              f"{robot['slowest_wall']:>11.2f}s  "
              f"{words['ratio']:>5.2f} ({words['greedy']} -> {words['planner']})  {load:>5.2f}")
    print(f"engine: {rows[0][2]['engine'] if rows else '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
