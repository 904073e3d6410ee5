"""Crossed Words: move-generation speed and the solver's score against a greedy baseline.

    python bench/crosswords_bench.py [--seconds 10] [--seeds 10] [--long]
                                     [--budgets 2,10,60] [--busy N] [--first-seed 1]
                                     [--cpu-budget] [--greedy-cost]

Prints the moves per second the generator lists on a mid-game board (a full hand,
after 20 greedy turns), then for each seeded pile set the greedy score (the whole
greedy game, untimed), the planner's score within each budget (``--seconds``, and 60 s
with ``--long``; or the ``--budgets`` list), their ratio, the wall time the planner
took (wall and CPU seconds) and the load average; then per budget the mean and the
lowest ratio and the longest time taken.  ``--busy N`` starts N busy-loop processes
(each in its own session, as other applications are) for the whole run and ends them
at the end.  ``--cpu-budget``: each budget is CPU seconds of the solver's process
(``time.process_time``) instead of wall seconds, so a shared, loaded machine still
measures what a quiet one would give in that many wall seconds.  ``--greedy-cost``
prints the CPU seconds each whole greedy game takes.
The built-in dictionary is used (built once and cached under the user data folder).
"""
from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

BUSY_LOOP = "while True: pass"


def start_busy(count: int) -> list[subprocess.Popen]:
    """``count`` processes that spin forever, each the leader of its own session."""
    return [subprocess.Popen([sys.executable, "-c", BUSY_LOOP], start_new_session=True,
                             stdin=subprocess.DEVNULL)
            for _ in range(count)]


def stop_busy(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()


def load_text() -> str:
    return "load %.1f %.1f %.1f" % os.getloadavg()


def uptime_text() -> str:
    """What ``uptime`` prints (the load averages with the time), or the load alone."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return load_text()


def budgets_of(args) -> list[float]:
    if args.budgets:
        return [float(b) for b in args.budgets.split(",") if b.strip()]
    return [args.seconds] + ([60.0] if args.long else [])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--long", action="store_true", help="also run the planner for 60 s")
    parser.add_argument("--budgets", default="", help="comma-separated planner budgets in "
                        "seconds (instead of --seconds and --long)")
    parser.add_argument("--busy", type=int, default=0, metavar="N",
                        help="run N busy-loop processes beside the bench")
    parser.add_argument("--no-movegen", action="store_true", help="skip the generator's speed")
    parser.add_argument("--cpu-budget", action="store_true", help="budgets are CPU seconds of "
                        "the solver (time.process_time), not wall seconds")
    parser.add_argument("--greedy-cost", action="store_true",
                        help="print each greedy game's CPU seconds")
    args = parser.parse_args()
    busy = start_busy(args.busy)
    try:
        return run(args)
    finally:
        stop_busy(busy)


def run(args) -> int:
    from games.crosswords.dictionary import load_dictionary
    from games.crosswords.files import verify_output, write_output
    from games.crosswords.movegen import clear_caches, generate
    from games.crosswords.rules import CrosswordsState, Draw, Place, random_piles
    from games.crosswords.solver import greedy_game, solve

    clock = time.process_time if args.cpu_budget else None
    print(f"{args.busy} busy processes; nice {os.nice(0)}; budgets in "
          f"{'CPU' if args.cpu_budget else 'wall'} seconds; uptime: {uptime_text()}")
    began = time.perf_counter()
    words = load_dictionary("")
    print(f"dictionary: {len(words)} words, loaded in {time.perf_counter() - began:.3f} s")

    if not args.no_movegen:
        # A mid-game board: 20 greedy turns, then a full hand.
        state = CrosswordsState(words, random_piles(1))
        played = 0
        for move in greedy_game(state):
            if isinstance(move, Place):
                played += 1
            state.apply({0: move})
            if played == 20 and len(state.hand) < 8 and state.may_draw:
                pile = max(range(3), key=lambda p: len(state.piles[p]))
                state.apply({0: Draw(pile + 1, state.piles[pile][:8 - len(state.hand)])})
                break
        count, runs = 0, 0
        start = time.perf_counter()
        while time.perf_counter() - start < 2.0:
            count += len(generate(state.board, state.hand, words))
            runs += 1
        elapsed = time.perf_counter() - start
        print(f"move generation: hand {state.hand}, {count // runs} placements per position, "
              f"{elapsed / runs * 1000:.1f} ms per position, {count / elapsed:,.0f} moves/s")

    budgets = budgets_of(args)
    header = f"{'seed':>4} {'greedy':>7}"
    for budget in budgets:
        header += f" {'plan ' + format(budget, 'g') + 's':>10} {'ratio':>6} {'wall':>6} {'cpu':>6}"
    print(header + "  load")
    ratios: dict[float, list[float]] = {b: [] for b in budgets}
    took: dict[float, list[float]] = {b: [] for b in budgets}
    cpu: dict[float, list[float]] = {b: [] for b in budgets}
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        piles = random_piles(seed)
        start_state = CrosswordsState(words, piles)
        clear_caches()                      # the greedy game's cost, nothing kept from before
        cpu_start = time.process_time()
        greedy = verify_output(write_output(start_state, greedy_game(start_state)), piles, words)
        greedy_cpu = time.process_time() - cpu_start
        assert greedy.valid
        row = f"{seed:>4} {greedy.score:>7}"
        for budget in budgets:
            clear_caches()                  # nothing of the reference game's boards is kept
            start, cpu_start = time.monotonic(), time.process_time()
            plan = solve(start_state, budget, clock=clock)
            took[budget].append(time.monotonic() - start)
            cpu[budget].append(time.process_time() - cpu_start)
            planned = verify_output(write_output(start_state, plan.moves), piles, words)
            assert planned.valid and planned.score == plan.score, planned.text()
            ratios[budget].append(planned.score / max(1, greedy.score))
            row += (f" {planned.score:>10} {ratios[budget][-1]:>6.3f} {took[budget][-1]:>6.2f}"
                    f" {cpu[budget][-1]:>6.2f}")
        if args.greedy_cost:
            row += f"  greedy {greedy_cpu:.3f} s CPU"
        print(f"{row}  {load_text()}", flush=True)
    kind = "CPU" if args.cpu_budget else "wall"
    for budget in budgets:
        spent = cpu[budget] if args.cpu_budget else took[budget]
        print(f"{budget:g} s {kind}: mean ratio {statistics.mean(ratios[budget]):.3f}, lowest "
              f"{min(ratios[budget]):.3f}, longest {max(spent):.2f} s {kind} "
              f"(over by {max(0.0, max(spent) - budget):.2f} s); wall up to {max(took[budget]):.2f} s")
    print(f"{args.busy} busy processes; uptime: {uptime_text()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
