"""A contest program for tests that plays an illegal move (its general jumps two points).

``python illegal_mover.py [--after N]``: N random legal moves first (default 2).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import random_mover  # noqa: E402

if __name__ == "__main__":
    extra = sys.argv[1:]
    if "--after" not in extra:
        extra += ["--after", "2"]
    sys.argv = [sys.argv[0], "--misbehave", "illegal"] + extra
    sys.exit(random_mover.main())
