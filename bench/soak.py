"""Soak: many headless matches in one arena process, good and hostile programs mixed,
across the five games; the arena's open files, threads, child processes and memory are
printed every ``--every`` matches, and the end says whether they stayed flat.

    nice python bench/soak.py [--matches 500] [--every 50] [--level strict|basic]

What a leak would look like: open files or threads growing with the matches (a seat's
pipes or reader threads kept), child processes left (a program outliving its match;
the arena's one guard process, runner.process, is not counted),
memory growing without bound (records or outputs kept).  The hostile programs are the
hostile suite's (``tests/hostile/hostile.py``); the good ones are the shipped examples.
Each match runs in a fresh folder that is removed after it.
"""
from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import shlex
import shutil
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from games import registry  # noqa: E402
from runner.match import Match, TimeControl  # noqa: E402
from runner.seats import make_seat  # noqa: E402

PY = sys.executable
HOSTILE = ROOT / "tests" / "hostile" / "hostile.py"
EXAMPLES = {
    "hex": ROOT / "games" / "hex" / "examples" / "shortest_path.py",
    "xiangqi": ROOT / "tests" / "xiangqi" / "programs" / "random_mover.py",
    "robot": ROOT / "games" / "robot" / "examples" / "greedy_bot.py",
    "tamquan": ROOT / "games" / "tamquan" / "examples" / "greedy_bot.py",
    "crosswords": ROOT / "games" / "crosswords" / "examples" / "simple_player.py",
}
#: Hostile tricks that cost little machine time (no 100 MB outputs or 2 GB files).
MODES = ("crash", "half", "rewrites", "fifo", "symlink", "directory", "inlink", "alloc",
         "forkbomb", "spy", "vandal", "kill", "doublefork", "spin")
GAMES = ("hex", "xiangqi", "robot", "tamquan", "crosswords")


@dataclass
class Sample:
    matches: int
    fds: int
    threads: int
    children: int
    rss_mb: float
    left: int          # hostile processes still running anywhere (by marker)
    seconds: float


class Soak:
    def __init__(self, scratch: Path, level: str):
        self.scratch, self.level = scratch, level
        self.canary = scratch / "users-files"
        self.canary.mkdir()
        (self.canary / "secret.txt").write_text("the user's secret\n")
        self.marker = f"soak-{uuid.uuid4().hex[:10]}"
        self.me = psutil.Process()
        self.outcomes: dict[str, int] = {}

    # ------------------------------------------------------------------ programs
    def hostile(self, game: str, mode: str, opponent: Path) -> str:
        targets = json.dumps({"opponent": str(opponent), "canary": str(self.canary),
                              "arena": os.getpid(), "marker": self.marker,
                              "home": str(self.canary), "opponent_word": EXAMPLES[game].name,
                              "example": str(EXAMPLES[game])})
        return "ext:" + shlex.join([PY, str(HOSTILE), game, mode, targets])

    def good(self, game: str) -> str:
        extra = ["--poll", "0.01"] if game == "xiangqi" else []
        return "ext:" + shlex.join([PY, str(EXAMPLES[game]), *extra])

    # ------------------------------------------------------------------ one match
    def match(self, number: int, game: str, mode: str | None) -> str:
        """Play match ``number`` of ``game``: the hostile ``mode`` (None: good programs)."""
        plugin = registry.plugin(game)
        work = self.scratch / f"m{number:04d}"
        limits = {"sandbox": self.level, "memory_mb": 512, "processes": 48, "poll": 0.01}
        control, options = TimeControl(per_move=1.0), {}
        if game == "hex":
            specs = [self.good(game), "bot:1"]
            options, control = {"size": 5, "time_total": 5}, TimeControl(total=5.0)
        elif game == "xiangqi":
            specs = [self.good(game), "bot:1"]
            options, control = {"no_capture_limit": 30}, TimeControl(per_move=1.0, total=20.0)
            limits["seconds"] = 20
        elif game == "robot":
            specs = [self.good(game), self.good(game)]
            options = {"map": "3 3 1\n...\n...\n...\n", "players": 2, "respawn": "off", "period": 1}
        elif game == "tamquan":
            specs = [self.good(game), self.good(game)]
            options = {"size": 5, "teams": 2, "members": 2, "turn_limit": 3}
        else:
            specs = [self.good(game)]
            options, control = {"seconds": 2}, None
        if mode is not None:
            hostile_seat = 1 if game == "xiangqi" else 0     # Xiangqi's hostile side plays top
            specs[hostile_seat] = self.hostile(game, mode, work / f"seat{2 - hostile_seat}")
        seats = [make_seat(spec, plugin, number + i, limits=limits) for i, spec in enumerate(specs)]
        match = Match(plugin, options, seats, seed=number, record_path=work.with_suffix(".arena.jsonl"),
                      time_control=control, workdir=work)
        outcome = match.run()
        shutil.rmtree(work, ignore_errors=True)
        work.with_suffix(".arena.jsonl").unlink(missing_ok=True)
        return outcome.reason.value

    # ------------------------------------------------------------------ measuring
    def sample(self, matches: int, started: float) -> Sample:
        from runner import process
        guard = process._GUARD.pid if process._GUARD is not None else None
        children = [p for p in self.me.children(recursive=True) if _running(p) and p.pid != guard]
        left = 0
        for proc in psutil.process_iter(["cmdline"]):
            try:
                if self.marker in " ".join(proc.info["cmdline"] or []) and _running(proc):
                    left += 1
            except psutil.Error:
                pass
        return Sample(matches, len(os.listdir("/proc/self/fd")), threading.active_count(),
                      len(children), self.me.memory_info().rss / 2 ** 20, left,
                      time.monotonic() - started)


def _running(proc) -> bool:
    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def schedule(count: int, hostile_share: float) -> list[tuple[str, str | None]]:
    """The matches: the games in turn, every ``1/hostile_share``-th... mixed evenly."""
    modes = itertools.cycle(MODES)
    plan = []
    every = max(1, round(1 / hostile_share)) if hostile_share else 0
    for index in range(count):
        game = GAMES[index % len(GAMES)]
        hostile = every and (index // len(GAMES)) % every != every - 1
        plan.append((game, next(modes) if hostile else None))
    return plan


def flat(samples: list[Sample]) -> list[str]:
    """What did not stay flat between the second sample (warmed up) and the last."""
    if len(samples) < 3:
        return ["too few samples to judge"]
    base, last = samples[1], samples[-1]
    problems = []
    if last.fds - base.fds > 3:
        problems.append(f"open files grew {base.fds} -> {last.fds}")
    if last.threads - base.threads > 2:
        problems.append(f"threads grew {base.threads} -> {last.threads}")
    if any(s.children for s in samples[1:]):
        problems.append("child processes were left between matches")
    if any(s.left for s in samples):
        problems.append("hostile processes outlived their matches")
    if last.rss_mb - base.rss_mb > max(30.0, 0.25 * base.rss_mb):
        problems.append(f"memory grew {base.rss_mb:.0f} -> {last.rss_mb:.0f} MB")
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--every", type=int, default=50, help="print a line every N matches")
    parser.add_argument("--hostile", type=float, default=0.5, help="share of hostile matches")
    parser.add_argument("--level", choices=("strict", "basic"), default=None,
                        help="sandbox level (default: the best this machine has)")
    args = parser.parse_args(argv)
    from runner.sandbox import level
    chosen = args.level or level()
    scratch = Path(tempfile.mkdtemp(prefix="arena-soak-"))
    try:
        soak = Soak(scratch, chosen)
        plan = schedule(args.matches, args.hostile)
        print(f"soak: {args.matches} matches, sandbox {chosen}, games {', '.join(GAMES)}, "
              f"{sum(1 for _, m in plan if m)} hostile", flush=True)
        header = f"{'matches':>8} {'fds':>5} {'threads':>8} {'children':>9} {'RSS MB':>8} {'left':>5} {'seconds':>8}"
        print(header, flush=True)
        started = time.monotonic()
        samples = [soak.sample(0, started)]
        print(_row(samples[-1]), flush=True)
        for number, (game, mode) in enumerate(plan, start=1):
            try:
                reason = soak.match(number, game, mode)
            except Exception as exc:      # a crash of the arena itself is the soak's finding
                reason = f"ARENA ERROR {type(exc).__name__}: {exc}"
                print(f"match {number} ({game}, {mode}): {reason}", flush=True)
            key = f"{game}/{mode or 'good'}: {reason}"
            soak.outcomes[key] = soak.outcomes.get(key, 0) + 1
            if number % args.every == 0 or number == len(plan):
                samples.append(soak.sample(number, started))
                print(_row(samples[-1]), flush=True)
        gc.collect()
        after = soak.sample(len(plan), started)
        print(f"after gc.collect(): fds {after.fds}, threads {after.threads}, "
              f"RSS {after.rss_mb:.1f} MB", flush=True)
        errors = sum(n for k, n in soak.outcomes.items() if "ARENA ERROR" in k)
        problems = flat(samples) + ([f"{errors} matches raised in the arena"] if errors else [])
        print("verdict: " + ("flat (fds, threads, children, memory)" if not problems
                             else "NOT flat: " + "; ".join(problems)), flush=True)
        print("outcomes: " + json.dumps(dict(sorted(soak.outcomes.items())), indent=1), flush=True)
        return 1 if problems else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _row(s: Sample) -> str:
    return (f"{s.matches:>8} {s.fds:>5} {s.threads:>8} {s.children:>9} {s.rss_mb:>8.1f} "
            f"{s.left:>5} {s.seconds:>8.0f}")


if __name__ == "__main__":
    sys.exit(main())
