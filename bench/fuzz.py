"""Fuzz every reader with many more examples than CI does (tests/fuzz, hypothesis).

    nice python bench/fuzz.py [--examples 3000] [--timeout 3600] [-k READER]

Runs ``tests/fuzz`` with ``ARENA_FUZZ_EXAMPLES`` set: 0 uncaught exceptions and 0
silent wrong loads are pytest passing; a hang is the time limit running out (reported,
exit code 3).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=3000, help="examples per reader")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds before it counts as a hang")
    parser.add_argument("-k", default="", help="only the readers matching this pytest expression")
    args = parser.parse_args(argv)
    env = {**os.environ, "ARENA_FUZZ_EXAMPLES": str(args.examples), "SDL_VIDEODRIVER": "dummy"}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(ROOT / "tests" / "fuzz")]
    if args.k:
        command += ["-k", args.k]
    started = time.monotonic()
    try:
        done = subprocess.run(command, cwd=ROOT, env=env, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        print(f"fuzz: HANG - not done after {args.timeout:.0f} s")
        return 3
    print(f"fuzz: {args.examples} examples per reader, {time.monotonic() - started:.0f} s, "
          + ("no uncaught exception, no wrong load" if done.returncode == 0 else "FAILURES above"))
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
