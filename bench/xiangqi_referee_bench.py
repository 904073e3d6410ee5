"""How fast the Xiangqi referee relays moves between two contest programs.

    python bench/xiangqi_referee_bench.py [--half-moves N]

Two random-mover contest programs (tests/xiangqi/programs/random_mover.py, polling
every 0.02 s themselves) play through PLAY.INI and move files; the referee polls
every POLL seconds and needs two equal polls to take a move.  Prints, per poll
interval, half-moves per second and the wall time per half-move, the time the
seats measured as the programs' thinking (the polling delay is not charged to them),
and the referee's own work per half-move (checking the move, the record, REPORT.TXT
and REPORT.JSON, relaying the move file) and the time from a move's arrival until it
is in the other program's move file (the relay): mean and 95th percentile, in ms, and
the fsync calls per half-move.  ``--load N`` runs N busy processes beside it.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.xiangqi import program as program_seats  # noqa: E402
from games.xiangqi.referee import build_referee_match  # noqa: E402

PROGRAM = ROOT / "tests" / "xiangqi" / "programs" / "random_mover.py"


def command(seed: int) -> str:
    return " ".join(shlex.quote(x) for x in (sys.executable, str(PROGRAM), "--seed", str(seed)))


def run(poll: float, half_moves: int) -> tuple[int, float, float, list[float], list[float], int]:
    """One game: half-moves, wall seconds, charged seconds, the referee's seconds per
    half-move, the seconds from a move's arrival to its relay into the other
    program's move file, and the fsync calls made while the moves were played."""
    with tempfile.TemporaryDirectory() as folder:
        match = build_referee_match(command(1), command(2), Path(folder),
                                    options={"no_capture_limit": str(half_moves)}, seed=1, poll=poll)
        work: list[float] = []
        relay: list[float] = []
        syncs = [0]
        began = [0.0]
        play, real_fsync, real_write = match._play, os.fsync, program_seats.atomic_write

        def timed_play(*args):
            began[0] = begin = time.perf_counter()
            play(*args)
            work.append(time.perf_counter() - begin)

        def timed_write(*args, **kwargs):
            real_write(*args, **kwargs)
            if began[0]:
                relay.append(time.perf_counter() - began[0])
                began[0] = 0.0

        def counted_fsync(fd):
            syncs[0] += 1
            real_fsync(fd)

        match._play = timed_play
        os.fsync, program_seats.atomic_write = counted_fsync, timed_write
        try:
            start = time.perf_counter()
            match.run()
            wall = time.perf_counter() - start
        finally:
            os.fsync, program_seats.atomic_write = real_fsync, real_write
        played = len(match.states[-1].moves)
        charged = sum(match.time_used.values())
    return played, wall, charged, work, relay, syncs[0]


def _ms(values: list[float]) -> str:
    """Mean and 95th percentile, in milliseconds."""
    values = sorted(values)
    if not values:
        return f"{'-':>10} {'-':>7}"
    p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
    return f"{1000 * sum(values) / len(values):>10.2f} {1000 * p95:>7.2f}"


def _busy() -> None:
    while True:
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half-moves", type=int, default=60,
                        help="no-capture limit of each game (games end there or sooner)")
    parser.add_argument("--load", type=int, default=0, help="busy processes to run beside the games")
    args = parser.parse_args()
    burners = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(args.load)]
    for burner in burners:
        burner.start()
    try:
        print(f"{'poll s':>7} {'half-moves':>10} {'wall s':>7} {'per move ms':>11} {'moves/s':>8} "
              f"{'charged ms/move':>15} {'referee ms':>10} {'p95 ms':>7} {'relay ms':>10} {'p95 ms':>7} "
              f"{'fsync/move':>10}")
        for poll in (0.05, 0.02, 0.01):
            played, wall, charged, work, relay, syncs = run(poll, args.half_moves)
            print(f"{poll:>7.2f} {played:>10} {wall:>7.2f} {1000 * wall / played:>11.1f} "
                  f"{played / wall:>8.1f} {1000 * charged / played:>15.1f} "
                  f"{_ms(work)} {_ms(relay)} "
                  f"{syncs / max(1, played):>10.1f}")
    finally:
        for burner in burners:
            burner.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
