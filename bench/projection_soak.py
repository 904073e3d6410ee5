"""Soak the projection: follow a scripted event for N minutes headless and check that
memory, frame cost and CPU stay flat.

A writer process plays the organizer: it streams real bot matches of several games
(Hex, Robot with four seats, Tam Quan, Xiangqi, and one with a crashing program) into
an event folder turn by turn at the projection's pace, several at once, appends the
results lines, rewrites the standings and the schedule - and misbehaves the way a shared
folder does: lines written in two halves, a stalled match (a hung contestant), a
garbage line in the results file, a record with an illegal move.  This process runs the
projection (:class:`ui.scenes.projection.ProjectionScene`) on that folder and samples,
every ``--sample`` seconds, its RSS, the cost of each drawn frame (p50/p90, ms) and its
CPU share.

    nice python bench/projection_soak.py                  # 30 minutes, a sample a minute
    nice python bench/projection_soak.py --seconds 20 --sample 5    # the quick version

Prints one row per sample and whether each figure stayed flat (exit status 1 if not).
The writer alone: ``python bench/projection_soak.py --write FOLDER --seconds 60``.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

NAMES = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald"]
CRASHER = "ext:" + sys.executable + " -c \"import sys; sys.exit(3)\""
#: (game, variant, options, seat specs): the matches the writer cycles through.
CORPUS = [
    ("hex", "7x7", {}, ["bot:1", "bot:1"]),
    ("robot", None, {}, ["bot:1", "bot:2", "bot:3", "bot:4"]),
    ("tamquan", None, {}, ["bot:1", "bot:1"]),
    ("xiangqi", None, {}, ["bot:1", "bot:1"]),
    ("hex", "7x7", {}, ["bot:1", CRASHER]),
]


# ====================================================================== the corpus
def make_corpus(folder: Path) -> list[Path]:
    """Play each corpus match once, headless, and keep its arena record."""
    from games import registry
    from runner.match import Match
    from runner.seats import make_seat
    folder.mkdir(parents=True, exist_ok=True)
    records = []
    for number, (game, variant, options, specs) in enumerate(CORPUS):
        plugin = registry.plugin(game)
        spec = plugin.new_game().spec
        explicit = dict(options)
        if spec.seats_option:
            explicit.setdefault(spec.seats_option, len(specs))
        resolved = spec.resolve_options(variant, explicit)
        seats = [make_seat(s, plugin, 100 + number + i) for i, s in enumerate(specs)]
        for i, seat in enumerate(seats):
            seat.label = NAMES[(number + i) % len(NAMES)]
        path = folder / f"{number}-{game}.arena.jsonl"
        Match(plugin, resolved, seats, seed=100 + number, variant=variant, record_path=path,
              workdir=folder / f"work{number}").run()
        records.append(path)
    return records


# ====================================================================== the writer
class Stream:
    """One match being written turn by turn into ``live/``."""

    def __init__(self, number: int, source: Path, folder: Path, stall: bool, broken: bool):
        self.id = f"m{number:05d}-{source.stem.split('.')[0]}"
        self.number = number
        self.lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
        if broken:                   # an illegal move in turn 2: the projection must shrug
            bad = json.loads(self.lines[2])
            bad["moves"] = {k: "zz99" for k in bad.get("moves", {})} or {"0": "zz99"}
            self.lines = self.lines[:2] + [json.dumps(bad) + "\n"]
        self.broken = broken
        self.path = folder / "live" / f"{self.id}.arena.jsonl"
        self.fh = open(self.path, "w", encoding="utf-8")
        self.at = 0
        self.next = 0.0
        self.stall = stall
        header = json.loads(self.lines[0])
        self.names = [s.get("label", "?") for s in header.get("seats", [])]

    def step(self, now: float, pace: float, rng: random.Random) -> bool:
        """Write the next line when its time came; True when the record is complete."""
        if now < self.next:
            return False
        line = self.lines[self.at]
        if rng.random() < 0.15 and len(line) > 4:      # half a line now, the rest soon
            half = len(line) // 2
            self.fh.write(line[:half])
            self.fh.flush()
            time.sleep(0.02)
            line = line[half:]
        self.fh.write(line)
        self.fh.flush()
        self.at += 1
        self.next = now + (1.0 / pace if self.at > 1 else 0.0)
        if self.stall and self.at == 4:
            self.next = now + 7.0                        # a contestant that hangs a while
        return self.at >= len(self.lines)

    def outcome(self) -> dict | None:
        last = json.loads(self.lines[-1])
        return last if last.get("type") == "result" else None


def write_event(folder: Path, seconds: float, pace: float, at_once: int, corpus: list[Path],
                layout: str = "focus", seed: int = 1, hold: float = 2.0,
                intermission: float = 5.0) -> None:
    """Play the organizer for ``seconds``: an endless event of the corpus matches."""
    rng = random.Random(seed)
    (folder / "live").mkdir(parents=True, exist_ok=True)
    (folder / "matches").mkdir(exist_ok=True)
    event = {"name": "Soak cup", "game": "mixed", "format": "round-robin",
             "contestants": [{"name": n, "seat": "bot"} for n in NAMES], "concurrency": at_once,
             "projection": {"pace": pace, "layout": layout, "hold": hold,
                            "intermission": intermission}}
    _atomic(folder / "event.json", event)
    points = {n: [0.0, 0, 0, 0, 0] for n in NAMES}     # points, played, wins, draws, losses
    streams: list[Stream] = []
    number = 0
    end = time.monotonic() + seconds
    results = open(folder / "results.jsonl", "a", encoding="utf-8")
    while time.monotonic() < end:
        while len(streams) < at_once:
            streams.append(Stream(number, corpus[number % len(corpus)], folder,
                                  stall=number % 5 == 3, broken=number % 11 == 7))
            number += 1
        now = time.monotonic()
        for stream in list(streams):
            if not stream.step(now, pace, rng):
                continue
            streams.remove(stream)
            stream.fh.close()
            if stream.broken:
                stream.path.unlink()
                continue
            final = folder / "matches" / stream.id
            final.mkdir(parents=True, exist_ok=True)
            shutil.copy(stream.path, final / stream.path.name)
            outcome = stream.outcome() or {"ranks": [1] * len(stream.names)}
            line = {"id": stream.id, "index": stream.number, "contestants": stream.names,
                    "outcome": outcome, "folder": f"matches/{stream.id}"}
            results.write(json.dumps(line) + "\n")
            if stream.number % 13 == 5:
                results.write("{this is not a result line\n")
            results.flush()
            stream.path.unlink()
            _score(points, stream.names, outcome.get("ranks", []))
            _atomic(folder / "standings.json", _standings(points, stream.number + 1))
            shutil.rmtree(final)          # keep the soak's disk use flat too
        _atomic(folder / "live" / "schedule.json", {
            "running": [{"id": s.id, "contestants": s.names} for s in streams],
            "next": [{"contestants": [NAMES[(number + i) % 6], NAMES[(number + i + 1) % 6]]}
                     for i in range(3)], "finished": False})
        time.sleep(0.02)
    for stream in streams:
        stream.fh.close()
        stream.path.unlink()
    results.close()
    _atomic(folder / "live" / "schedule.json", {"running": [], "next": [], "finished": True})


def _score(points: dict, names: list[str], ranks: list[int]) -> None:
    for i, name in enumerate(names):
        row = points.setdefault(name, [0.0, 0, 0, 0, 0])
        if i >= len(ranks):
            continue
        better = sum(1 for r in ranks if r > ranks[i])
        same = sum(1 for r in ranks if r == ranks[i]) - 1
        row[0] += better + 0.5 * same
        row[1] += 1
        row[2] += better
        row[3] += same
        row[4] += len(ranks) - 1 - better - same


def _standings(points: dict, played: int) -> dict:
    rows = sorted(points.items(), key=lambda kv: (-kv[1][0], kv[0]))
    return {"event": "Soak cup", "matches": {"played": played, "planned": played + 10},
            "standings": [{"rank": i + 1, "name": n, "points": p[0], "played": p[1], "wins": p[2],
                           "draws": p[3], "losses": p[4]} for i, (n, p) in enumerate(rows)]}


def _atomic(path: Path, data) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)


# ====================================================================== the projection
def soak(seconds: float, sample: float, size: tuple[int, int], pace: float, at_once: int,
         layout: str, folder: Path | None = None, theme: str = "dark", hold: float = 2.0,
         intermission: float = 5.0) -> list[dict]:
    """Run the writer in another process and the projection here; one dict per sample.
    ``hold`` and ``intermission`` go into the event's ``[projection]`` settings."""
    import psutil
    import pygame  # noqa: F401
    from ui.app import App
    from ui.scenes.projection import ProjectionScene
    from ui.settings import Settings

    work = Path(tempfile.mkdtemp(prefix="arena-soak-"))
    folder = folder or work / "event"
    corpus = make_corpus(work / "corpus")
    writer = subprocess.Popen([sys.executable, __file__, "--write", str(folder), "--seconds", str(seconds + 5),
                               "--pace", str(pace), "--at-once", str(at_once), "--layout", layout,
                               "--hold", str(hold), "--intermission", str(intermission),
                               "--corpus", str(work / "corpus")])
    app = App(Settings(), size=size, fullscreen=False)
    app.set_theme(theme)
    scene = ProjectionScene(app, folder)
    app.push(scene)
    costs: list[float] = []
    plain_draw = app.draw

    def timed_draw() -> None:
        started = time.perf_counter()
        plain_draw()
        costs.append((time.perf_counter() - started) * 1000)
    app.draw = timed_draw
    me = psutil.Process()
    samples = []
    try:
        start = time.monotonic()
        mark, cpu_mark, frames_mark = start, me.cpu_times(), 0
        while time.monotonic() - start < seconds and app.running:   # SIGTERM/Ctrl-C: a quit
            app.frame(block=True)
            now = time.monotonic()
            if now - mark >= sample:
                cpu = me.cpu_times()
                used = (cpu.user - cpu_mark.user) + (cpu.system - cpu_mark.system)
                drawn = costs[frames_mark:]
                samples.append({
                    "minute": round((now - start) / 60, 2), "rss_mb": me.memory_info().rss / 2 ** 20,
                    "frames": len(drawn),
                    "p50_ms": statistics.median(drawn) if drawn else 0.0,
                    "p90_ms": _percentile(drawn, 0.9), "cpu_pct": 100 * used / (now - mark),
                    "matches": scene.model.shown_count, "phase": scene.model.phase})
                mark, cpu_mark, frames_mark = now, cpu, len(costs)
                print(_row(samples[-1]), flush=True)
                if len(costs) > 100000:
                    del costs[:50000]
                    frames_mark -= 50000
    finally:
        app.close()
        writer.terminate()
        try:
            writer.wait(10)
        except subprocess.TimeoutExpired:
            writer.kill()
        shutil.rmtree(work, ignore_errors=True)
    return samples


def idle_cpu(seconds: float, size: tuple[int, int]) -> tuple[float, int]:
    """CPU % and frames drawn while the projection waits (an event between matches:
    standings shown, no match running) for ``seconds``."""
    import psutil
    from ui.app import App
    from ui.scenes.projection import ProjectionScene
    from ui.settings import Settings
    folder = Path(tempfile.mkdtemp(prefix="arena-idle-"))
    try:
        (folder / "live").mkdir()
        _atomic(folder / "event.json", {"name": "Idle cup", "projection": {"pace": 2}})
        points = {n: [float(i), 3, i, 0, 3 - i] for i, n in enumerate(NAMES)}
        _atomic(folder / "standings.json", _standings(points, 9))
        _atomic(folder / "live" / "schedule.json", {"next": [{"contestants": NAMES[:2]}], "finished": False})
        app = App(Settings(), size=size, fullscreen=False)
        scene = ProjectionScene(app, folder)
        app.push(scene)
        for _ in range(3):
            app.frame(block=False)
        me = psutil.Process()
        before, drawn, start = me.cpu_times(), app.frames_drawn, time.monotonic()
        while time.monotonic() - start < seconds:
            app.frame(block=True)
        after = me.cpu_times()
        used = (after.user - before.user) + (after.system - before.system)
        frames = app.frames_drawn - drawn
        app.close()
        return 100 * used / (time.monotonic() - start), frames
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _row(s: dict) -> str:
    return (f"{s['minute']:7.2f} {s['rss_mb']:8.1f} {s['frames']:7d} {s['p50_ms']:7.1f} "
            f"{s['p90_ms']:7.1f} {s['cpu_pct']:6.1f} {s['matches']:8d}  {s['phase']}")


def verdict(samples: list[dict]) -> dict[str, bool]:
    """Flat = the late samples are no worse than the early ones by more than noise:
    RSS within 10 MB (or 5 %) of the first sample after warm-up, median frame cost
    within 1.5x (+2 ms), CPU within 1.5x (+3 points)."""
    if len(samples) < 3:
        return {"enough samples": False}
    early, late = samples[1:1 + max(1, len(samples) // 3)], samples[-max(1, len(samples) // 3):]
    rss0 = min(s["rss_mb"] for s in early)
    p50 = lambda group: statistics.median([s["p50_ms"] for s in group if s["frames"]] or [0.0])
    cpu = lambda group: statistics.median([s["cpu_pct"] for s in group])
    return {"memory flat": max(s["rss_mb"] for s in late) <= rss0 + max(10.0, rss0 * 0.05),
            "frame cost flat": p50(late) <= p50(early) * 1.5 + 2.0,
            "CPU flat": cpu(late) <= cpu(early) * 1.5 + 3.0,
            "followed matches": samples[-1]["matches"] > samples[0]["matches"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--seconds", type=float, help="overrides --minutes")
    parser.add_argument("--sample", type=float, default=60.0, help="seconds between samples")
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--pace", type=float, default=4.0, help="turns a second")
    parser.add_argument("--at-once", type=int, default=3)
    parser.add_argument("--layout", choices=("focus", "grid"), default="focus")
    parser.add_argument("--theme", choices=("dark", "light"), default="dark")
    parser.add_argument("--write", metavar="FOLDER", help="only play the organizer into FOLDER")
    parser.add_argument("--idle", type=float, metavar="SECONDS",
                        help="only measure the CPU while the projection waits between matches")
    parser.add_argument("--corpus", metavar="FOLDER", help="with --write: the records to stream")
    parser.add_argument("--hold", type=float, default=2.0,
                        help="[projection] hold: seconds a finished match stays up")
    parser.add_argument("--intermission", type=float, default=5.0,
                        help="[projection] intermission: seconds of the card between matches")
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else args.minutes * 60
    if args.write:
        folder = Path(args.write)
        corpus = (sorted(Path(args.corpus).glob("*.arena.jsonl")) if args.corpus
                  else make_corpus(Path(tempfile.mkdtemp(prefix="arena-corpus-"))))
        write_event(folder, seconds, args.pace, args.at_once, corpus, args.layout,
                    hold=args.hold, intermission=args.intermission)
        return 0
    width, height = (int(x) for x in args.size.split("x"))
    if args.idle:
        cpu, frames = idle_cpu(args.idle, (width, height))
        print(f"waiting {args.idle:g} s at {args.size}: CPU {cpu:.2f} %, {frames} frames drawn")
        return 0
    print(f"projection soak: {seconds:g} s at {args.size}, {args.at_once} matches at once, "
          f"pace {args.pace:g} turns/s, layout {args.layout}, hold {args.hold:g} s, "
          f"intermission {args.intermission:g} s")
    print(f"{'minute':>7} {'RSS MB':>8} {'frames':>7} {'p50 ms':>7} {'p90 ms':>7} {'CPU %':>6} {'matches':>8}  phase")
    samples = soak(seconds, args.sample, (width, height), args.pace, args.at_once, args.layout,
                   theme=args.theme, hold=args.hold, intermission=args.intermission)
    result = verdict(samples)
    for name, ok in result.items():
        print(f"{name}: {'yes' if ok else 'NO'}")
    return 0 if all(result.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
