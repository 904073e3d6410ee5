"""How fast the Xiangqi referee relays moves between two contest programs.

    python bench/xiangqi_referee_bench.py [--half-moves N] [--load N] [--modes notify,poll]

Two random-mover contest programs (tests/xiangqi/programs/random_mover.py) play
through PLAY.INI and move files.  Each program notes ``time.monotonic()`` (one clock
for every process on the machine) right after it has written and closed its move
file; the bench notes the same clock right after the referee has put that move into
the other program's move file.  The difference is the **relay**: noticing the
finished file, checking the move, and writing the other file.  Printed per mode:
half-moves, wall time per half-move, the relay's median and 90th percentile (ms),
the part of it spent noticing the file (until the seat's answer), the referee's own
work per half-move (checking the move, relaying it, the record and REPORT.TXT; median
and p90), and fsync calls per half-move.

Modes: ``notify`` (the default: file-system notifications, inotify on Linux),
``poll`` (no notifications: the fast poll fallback, a look every 5 ms), ``poll=S``
(no notifications, a look every S seconds; ``poll=0.05`` is the old default).
``--load N`` runs N busy processes beside the games, to see the relay on a loaded
machine; run it under ``nice`` on a shared machine.
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.xiangqi.program import MoveFileSeat  # noqa: E402
from games.xiangqi.referee import build_referee_match  # noqa: E402

PROGRAM = ROOT / "tests" / "xiangqi" / "programs" / "random_mover.py"


#: Each program's stamps, in its own folder (the sandbox lets it write only there).
STAMPS = "STAMPS.TXT"


def command(seed: int) -> str:
    argv = (sys.executable, str(PROGRAM), "--seed", str(seed), "--stamps", STAMPS)
    return " ".join(shlex.quote(x) for x in argv)


def mode_limits(mode: str) -> tuple[float | None, bool]:
    """``notify`` / ``poll`` / ``poll=S`` as (poll seconds or None, notifications)."""
    if mode == "notify":
        return None, True
    if mode == "poll":
        return None, False
    if mode.startswith("poll="):
        return float(mode.partition("=")[2]), False
    raise SystemExit(f"unknown mode {mode!r}: notify, poll or poll=SECONDS")


def run(mode: str, half_moves: int) -> dict:
    """One game in ``mode``: what :func:`main` prints."""
    poll, notify = mode_limits(mode)
    with tempfile.TemporaryDirectory(prefix="xq_relay_") as folder:
        stamps = [Path(folder) / "seat1" / STAMPS, Path(folder) / "seat2" / STAMPS]
        match = build_referee_match(command(1), command(2), Path(folder),
                                    options={"no_capture_limit": str(half_moves)}, seed=1, poll=poll)
        for seat in match.seats:
            seat.use_notifications = notify
        relayed: dict[int, list[float]] = {0: [], 1: []}     # moves of side N, relayed at
        noticed: dict[int, list[float]] = {0: [], 1: []}     # moves of side N, taken at
        work: list[float] = []
        syncs = [0]
        play, real_fsync, real_observe = match._play, os.fsync, MoveFileSeat.observe
        real_ask = MoveFileSeat.ask

        def timed_ask(seat, state, side, limit):
            answer = real_ask(seat, state, side, limit)
            noticed[seat.side].append(time.monotonic())
            return answer

        def timed_play(*args):
            begin = time.perf_counter()
            play(*args)
            work.append(time.perf_counter() - begin)

        def timed_observe(seat, state, moves):
            real_observe(seat, state, moves)
            if (seat.side ^ 1) in moves:
                relayed[seat.side ^ 1].append(time.monotonic())

        def counted_fsync(fd):
            syncs[0] += 1
            real_fsync(fd)

        match._play = timed_play
        os.fsync, MoveFileSeat.observe, MoveFileSeat.ask = counted_fsync, timed_observe, timed_ask
        try:
            start = time.perf_counter()
            match.run()
            wall = time.perf_counter() - start
        finally:
            os.fsync, MoveFileSeat.observe, MoveFileSeat.ask = real_fsync, real_observe, real_ask
        relay, notice = [], []
        for side in (0, 1):
            written = [float(x) for x in stamps[side].read_text().split()] if stamps[side].exists() else []
            relay += [done - wrote for wrote, done in zip(written, relayed[side])]
            notice += [seen - wrote for wrote, seen in zip(written, noticed[side])]
        played = len(match.states[-1].moves)
    return {"played": played, "wall": wall, "relay": relay, "notice": notice, "work": work,
            "syncs": syncs[0]}


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    values = sorted(values)
    return values[min(len(values) - 1, max(0, math.ceil(fraction * len(values)) - 1))]


def _ms(values: list[float]) -> str:
    """Median and 90th percentile, in milliseconds."""
    if not values:
        return f"{'-':>8} {'-':>8}"
    return f"{1000 * percentile(values, 0.5):>8.2f} {1000 * percentile(values, 0.9):>8.2f}"


def _busy() -> None:
    while True:
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half-moves", type=int, default=60,
                        help="no-capture limit of each game (games end there or sooner)")
    parser.add_argument("--load", type=int, default=0, help="busy processes to run beside the games")
    parser.add_argument("--modes", default="notify,poll,poll=0.05",
                        help="comma-separated: notify, poll (the 5 ms fallback), poll=SECONDS")
    args = parser.parse_args()
    burners = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(args.load)]
    for burner in burners:
        burner.start()
    try:
        print(f"load {args.load} busy process(es); relay = program's file closed -> other's file written")
        print(f"{'mode':>10} {'half-moves':>10} {'ms/half-move':>12} {'relay med':>9} {'p90':>8} "
              f"{'noticed med':>11} {'p90':>8} {'referee med':>11} {'p90':>8} {'fsync/move':>10}")
        for mode in args.modes.split(","):
            got = run(mode.strip(), args.half_moves)
            played = max(1, got["played"])
            print(f"{mode:>10} {got['played']:>10} {1000 * got['wall'] / played:>12.1f} "
                  f"{_ms(got['relay'])}    {_ms(got['notice'])}    {_ms(got['work'])} "
                  f"{got['syncs'] / played:>10.1f}")
    finally:
        for burner in burners:
            burner.terminate()
            burner.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
