"""How fast the Xiangqi referee relays moves between two contest programs.

    python bench/xiangqi_referee_bench.py [--half-moves N] [--modes notify,poll] [--repeat R]
        [--load N] [--program-poll S|busy] [--program-nice N]

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
Load, said in the first line printed with the load average before and after:

* ``--load N``: N external busy processes (``while True: pass``) at the bench's own
  priority, beside the games: other work on the organizer's machine.  Each runs in a
  session of its own, as another application does (Linux shares the CPU evenly between
  sessions, "autogroups").  ``--load-here`` starts them in the bench's own session
  instead: the worst case, as if the arena itself ran busy threads beside the referee.
* ``--program-poll busy``: both programs busy-poll the other's move file (no sleep
  between looks), as many contest programs do; a number is their sleep between looks
  in seconds (default 0.02).  The program on move thinks briefly (a random move) in
  either case.
* ``--program-nice N``: the programs' CPU priority (default: the arena's,
  :data:`games.xiangqi.program.PROGRAM_NICE`; 0 = the bench's own).

``--repeat R`` plays R games per mode and prints each, then all of them pooled.
"""
from __future__ import annotations

import argparse
import math
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.xiangqi.program import MoveFileSeat  # noqa: E402
from games.xiangqi.program import PROGRAM_NICE  # noqa: E402
from games.xiangqi.referee import build_referee_match  # noqa: E402
from runner.latency import current_slice  # noqa: E402
from runner.sandbox import seat_sandbox  # noqa: E402

PROGRAM = ROOT / "tests" / "xiangqi" / "programs" / "random_mover.py"


#: Each program's stamps, in its own folder (the sandbox lets it write only there).
STAMPS = "STAMPS.TXT"


def command(seed: int, program_poll: float = 0.02) -> str:
    argv = (sys.executable, str(PROGRAM), "--seed", str(seed), "--stamps", STAMPS,
            "--poll", str(program_poll))
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


def run(mode: str, half_moves: int, program_poll: float = 0.02, program_nice: int | None = None,
        seed: int = 1) -> dict:
    """One game in ``mode``: what :func:`main` prints."""
    poll, notify = mode_limits(mode)
    with tempfile.TemporaryDirectory(prefix="xq_relay_") as folder:
        stamps = [Path(folder) / "seat1" / STAMPS, Path(folder) / "seat2" / STAMPS]
        match = build_referee_match(command(seed, program_poll), command(seed + 1, program_poll),
                                    Path(folder), options={"no_capture_limit": str(half_moves)},
                                    seed=seed, poll=poll)
        for seat in match.seats:
            seat.use_notifications = notify
            if program_nice is not None:
                seat.sandbox = seat_sandbox({**seat.limits, "nice": program_nice})
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


def _load_average() -> str:
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "?"


def _row(label: str, got: dict) -> str:
    played = max(1, got["played"])
    return (f"{label:>10} {got['played']:>10} {1000 * got['wall'] / played:>12.1f} "
            f"{_ms(got['relay'])}    {_ms(got['notice'])}    {_ms(got['work'])} "
            f"{got['syncs'] / played:>10.1f}")


def _pooled(runs: list[dict]) -> dict:
    return {"played": sum(r["played"] for r in runs), "wall": sum(r["wall"] for r in runs),
            "syncs": sum(r["syncs"] for r in runs),
            **{key: [x for r in runs for x in r[key]] for key in ("relay", "notice", "work")}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half-moves", type=int, default=60,
                        help="no-capture limit of each game (games end there or sooner)")
    parser.add_argument("--load", type=int, default=0, help="external busy processes beside the games")
    parser.add_argument("--load-here", action="store_true",
                        help="start the busy processes in the bench's own session (worst case)")
    parser.add_argument("--program-poll", default="0.02",
                        help="the programs' sleep between looks at their move file, seconds, or 'busy'")
    parser.add_argument("--program-nice", type=int, default=None,
                        help=f"the programs' nice (default the arena's, {PROGRAM_NICE}; 0: none)")
    parser.add_argument("--repeat", type=int, default=1, help="games per mode")
    parser.add_argument("--modes", default="notify,poll,poll=0.05",
                        help="comma-separated: notify, poll (the 5 ms fallback), poll=SECONDS")
    args = parser.parse_args()
    program_poll = 0.0 if args.program_poll == "busy" else float(args.program_poll)
    nice = PROGRAM_NICE if args.program_nice is None else args.program_nice
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"],
                                start_new_session=not args.load_here) for _ in range(args.load)]
    try:
        polling = "busy-poll" if program_poll <= 0 else f"poll every {1000 * program_poll:g} ms"
        where = "in the bench's session" if args.load_here else "each in its own session"
        print(f"load: {args.load} external busy process(es) {where}; programs {polling}, nice {nice}; "
              f"load average {_load_average()}")
        print("relay = program's file closed -> other's file written (ms)")
        print(f"{'mode':>10} {'half-moves':>10} {'ms/half-move':>12} {'relay med':>9} {'p90':>8} "
              f"{'noticed med':>11} {'p90':>8} {'referee med':>11} {'p90':>8} {'fsync/move':>10}")
        for mode in args.modes.split(","):
            runs = [run(mode.strip(), args.half_moves, program_poll, args.program_nice, seed=1 + 2 * index)
                    for index in range(args.repeat)]
            for got in runs:
                print(_row(mode, got))
            if len(runs) > 1:
                print(_row("all", _pooled(runs)))
        slice_now = current_slice()
        print(f"load average after: {_load_average()}; the relaying thread's time slice: "
              + ("unknown" if slice_now is None else f"{1000 * slice_now:g} ms"))
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
