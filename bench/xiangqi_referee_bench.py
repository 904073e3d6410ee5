"""How fast the Xiangqi referee relays moves between two contest programs.

    python bench/xiangqi_referee_bench.py [--half-moves N]

Two random-mover contest programs (tests/xiangqi/programs/random_mover.py, polling
every 0.02 s themselves) play through PLAY.INI and move files; the referee polls
every POLL seconds and needs two equal polls to take a move.  Prints, per poll
interval, half-moves per second and the wall time per half-move, and the time the
seats measured as the programs' thinking (the polling delay is not charged to them).
"""
from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.xiangqi.referee import build_referee_match  # noqa: E402

PROGRAM = ROOT / "tests" / "xiangqi" / "programs" / "random_mover.py"


def command(seed: int) -> str:
    return " ".join(shlex.quote(x) for x in (sys.executable, str(PROGRAM), "--seed", str(seed)))


def run(poll: float, half_moves: int) -> tuple[int, float, float]:
    with tempfile.TemporaryDirectory() as folder:
        match = build_referee_match(command(1), command(2), Path(folder),
                                    options={"no_capture_limit": str(half_moves)}, seed=1, poll=poll)
        start = time.perf_counter()
        match.run()
        wall = time.perf_counter() - start
        played = len(match.states[-1].moves)
        charged = sum(match.time_used.values())
    return played, wall, charged


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half-moves", type=int, default=60,
                        help="no-capture limit of each game (games end there or sooner)")
    args = parser.parse_args()
    print(f"{'poll s':>7} {'half-moves':>10} {'wall s':>7} {'per move ms':>11} {'moves/s':>8} "
          f"{'charged ms/move':>15}")
    for poll in (0.05, 0.02, 0.01):
        played, wall, charged = run(poll, args.half_moves)
        print(f"{poll:>7.2f} {played:>10} {wall:>7.2f} {1000 * wall / played:>11.1f} "
              f"{played / wall:>8.1f} {1000 * charged / played:>15.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
