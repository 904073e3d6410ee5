"""The organizer: plays every match of an event not yet in its results file
(:func:`run_event`), appends each result once its files are in ``matches/ID/``
(:class:`ResultsFile`), and writes ``event.json`` and, for a projection, ``live/``."""
from __future__ import annotations

import concurrent.futures as cf
from concurrent.futures.process import BrokenProcessPool
import json
import os
import shutil
import time
import traceback
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from games.api import Termination
from runner.tournament.event import Event, build_contestants, fit_to_machine
from runner.tournament.plan import Pairing, Plan
from runner.tournament.pool import (STOP_POLL, TournamentStopped, _STOP_ASKED, _stop_pool, local_executor,
                                    remove_stale_scratch)
from runner.tournament.standings import standings, write_standings
from runner.tournament.worker import play_match, task_for


RESULTS = "results.jsonl"
MATCHES = "matches"
#: Times a match whose task failed (a lost worker, an arena error) is tried again.
RETRIES = 3
#: Times a match that was not played (a seat never got through its handshake) is played,
#: each time after the matches not yet tried; then it is recorded unscored.
NOT_PLAYED_TRIES = 3
#: Seconds between rewrites of the standings files while the event runs.
LIVE_STANDINGS_EVERY = 2.0


class ResultsFile:
    """``results.jsonl``: one line per finished match, appended and fsynced."""

    def __init__(self, path: Path):
        self.path = path
        self.lines: dict[str, dict] = {}
        if path.exists():
            raw = path.read_bytes()
            end = raw.rfind(b"\n") + 1
            if end != len(raw):                 # a line cut by a kill: drop it
                with open(path, "r+b") as fh:
                    fh.truncate(end)
                raw = raw[:end]
            for line in raw.decode("utf-8", "replace").splitlines():
                try:
                    data = json.loads(line)
                except ValueError:
                    continue
                if isinstance(data, dict) and "id" in data:
                    self.lines.setdefault(data["id"], data)

    def append(self, data: dict) -> None:
        text = json.dumps(data, sort_keys=True) + "\n"
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        self.lines[data["id"]] = data


def _write_match_files(folder: Path, match_id: str, files: Mapping[str, bytes]) -> Path:
    """The match's record and contest files into ``matches/ID/`` (written whole, then
    renamed into place, so a kill never leaves a half folder under the final name)."""
    final = folder / MATCHES / match_id
    staging = folder / MATCHES / f".{match_id}.partial"
    shutil.rmtree(staging, ignore_errors=True)
    for name, data in files.items():
        target = staging / name
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    staging.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(final, ignore_errors=True)
    os.replace(staging, final)
    return final


def run_event(event: Event, executor: cf.Executor | None = None, ship: bool = False,
              log: Callable[[str], None] = print, live: bool = False,
              pace: float | None = None) -> dict:
    """Play every match of the event not yet in its results file; return the standings.

    ``executor`` runs :func:`play_match` tasks (default: a local pool of
    ``event.concurrency`` processes); ``ship`` sends the contestants' files with each task
    (for workers on other machines).  ``live`` has every match write its record to
    ``live/ID.arena.jsonl`` turn by turn and the plan to ``live/schedule.json``, for a
    projection (``runner.live``); the matches are then played at ``pace`` turns a second
    (0: unpaced), changeable while they run through ``live/pace.json``.
    """
    folder = event.out
    (folder / MATCHES).mkdir(parents=True, exist_ok=True)
    if executor is None:
        fit_to_machine(event)
    for text in event.machine_notes + event.warnings:
        log(text)
    _write_event_json(event)
    live_dir = folder / "live" if live else None
    if live_dir is not None:
        from runner.live import write_pace
        live_dir.mkdir(exist_ok=True)
        write_pace(folder, event.projection["pace"] if pace is None else pace)
    results = ResultsFile(folder / RESULTS)
    plan = Plan(event)
    own = executor is None
    remove_stale_scratch()
    if own:
        executor = local_executor(event.concurrency)
    build_contestants(event, log)
    in_flight: dict[cf.Future, tuple[Pairing, int, int]] = {}   # pairing, tries, pool
    pool = [executor, 0]                    # the executor and its generation

    def submit(pairing: Pairing, tries: int) -> None:
        try:
            future = pool[0].submit(play_match, task_for(event, plan, pairing, ship, live_dir))
        except BrokenProcessPool:
            if not own:
                raise
            renew()
            future = pool[0].submit(play_match, task_for(event, plan, pairing, ship, live_dir))
        in_flight[future] = (pairing, tries, pool[1])

    def renew() -> None:
        """A process of the local pool died: a new pool, and its matches sent again."""
        log("a process of the pool died; its matches are played again in a new pool")
        pool[0].shutdown(wait=False, cancel_futures=True)
        pool[0], pool[1] = local_executor(event.concurrency), pool[1] + 1
        for f, (p, t, _) in list(in_flight.items()):
            del in_flight[f]
            submit(p, t + 1)

    started, played, shown = time.perf_counter(), 0, 0.0
    interrupted = False
    not_played: dict[str, int] = {}         # match id -> times it was not played
    try:
        while True:
            pairings = plan.pairings(results.lines)
            busy = {p.id for p, _, _ in in_flight.values()}
            pending = [p for p in pairings if not p.bye and p.id not in results.lines
                       and p.id not in busy]
            pending.sort(key=lambda p: not_played.get(p.id, 0))    # a replay after the rest
            for p in pending[:max(0, event.concurrency - len(in_flight))]:
                submit(p, 1)
            if live_dir is not None:
                _write_schedule(live_dir, [p for p, _, _ in in_flight.values()],
                                [p for p in pending if p.id not in {q.id for q, _, _ in in_flight.values()}],
                                event, finished=not in_flight)
            if not in_flight:
                break
            finished, _ = cf.wait(list(in_flight), timeout=STOP_POLL, return_when=cf.FIRST_COMPLETED)
            if _STOP_ASKED[0]:              # arena tournament --window: closed, or SIGTERM
                raise TournamentStopped(_STOP_ASKED[0])
            for future in finished:
                if future not in in_flight:         # sent again to a new pool already
                    continue
                pairing, tries, generation = in_flight.pop(future)
                try:
                    answer = future.result()
                except Exception as exc:            # a lost worker, a broken pool: try again
                    if tries < RETRIES:
                        log(f"match {pairing.id}: {type(exc).__name__}: {exc}; trying again")
                        if isinstance(exc, BrokenProcessPool) and own and generation == pool[1]:
                            renew()
                        submit(pairing, tries + 1)
                        continue
                    answer = {"id": pairing.id, "error": "".join(traceback.format_exception_only(
                        type(exc), exc)).strip(), "files": {}}
                if _not_played(answer):
                    not_played[pairing.id] = not_played.get(pairing.id, 0) + 1
                    detail = answer["outcome"].get("detail", "")
                    if not_played[pairing.id] < NOT_PLAYED_TRIES:
                        log(f"match {pairing.id} not played ({detail}); it is played again after "
                            f"the others (try {not_played[pairing.id] + 1} of {NOT_PLAYED_TRIES})")
                        continue
                    log(f"match {pairing.id} not played {NOT_PLAYED_TRIES} times ({detail}); "
                        "recorded without a result")
                    answer = {**answer, "error": f"not played: {detail}"}
                    answer.pop("outcome")
                    answer.pop("result", None)
                line = _record(event, plan, pairing, answer)
                results.append(line)
                if live_dir is not None:             # its final copy is in matches/ID now
                    _remove_quietly(live_dir / f"{pairing.id}.arena.jsonl")
                    shown = 0.0                      # a projection wants the new standings now
                played += 1
                total = len(pairings) if event.format in ("round-robin", "gauntlet", "all-in") else None
                log(f"[{len(results.lines)}{'/' + str(total) if total else ''}] {pairing.id} "
                    + " vs ".join(line["contestants"]) + f": {line.get('result') or line.get('error')}"
                    + (f" ({line['outcome']['detail']})" if line.get("outcome", {}).get("detail") else ""))
            if time.monotonic() - shown > LIVE_STANDINGS_EVERY:     # for a projector or a peek
                write_standings(event, standings(event, plan, results.lines))
                shown = time.monotonic()
    except BaseException:
        interrupted = True          # Ctrl-C, SIGTERM: the matches in flight are re-run next time
        raise
    finally:
        _STOP_ASKED[0] = ""                 # a later event in this process runs again
        if own:
            if interrupted:
                _stop_pool(pool[0])
            pool[0].shutdown(wait=True, cancel_futures=True)
    elapsed = time.perf_counter() - started
    table = standings(event, plan, results.lines)
    table["run"] = {"played_now": played, "seconds": round(elapsed, 2),
                    "matches_per_second": round(played / elapsed, 3) if elapsed and played else None}
    write_standings(event, table)
    return table


def _not_played(answer: Mapping[str, Any]) -> bool:
    """Whether a match came back not played (a seat never got through its handshake)."""
    return (answer.get("outcome") or {}).get("reason") == Termination.NOT_PLAYED.value


def _write_schedule(folder: Path, running: Sequence[Pairing], pending: Sequence[Pairing],
                    event: Event, finished: bool) -> None:
    """``live/schedule.json``: the matches in flight and the next ones (for the
    projection's "next" card), and whether the event is over."""
    def describe(p: Pairing) -> dict:
        return {"id": p.id, "index": p.index, "round": p.round,
                "contestants": [event.contestants[s].name for s in p.seats]}
    data = {"running": [describe(p) for p in running], "next": [describe(p) for p in pending[:8]],
            "finished": finished}
    tmp = folder / f".{os.getpid()}.schedule.tmp"
    try:
        tmp.write_text(json.dumps(data) + "\n", encoding="utf-8")
        os.replace(tmp, folder / "schedule.json")
    except OSError:
        pass                          # a projection aid: never stops the event


def _remove_quietly(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def _record(event: Event, plan: Plan, pairing: Pairing, answer: Mapping[str, Any]) -> dict:
    names = [event.contestants[s].name for s in pairing.seats]
    line = {"id": pairing.id, "index": pairing.index, "round": pairing.round,
            "contestants": names, "seed": pairing.seed, "cycle": plan.cycled(pairing.group)}
    if answer.get("files"):
        _write_match_files(event.out, pairing.id, answer["files"])
        line["folder"] = f"{MATCHES}/{pairing.id}"
    for key in ("outcome", "result", "turns", "failures", "error", "elapsed", "host"):
        if answer.get(key) not in (None, ""):
            line[key] = answer[key]
    return line


def _write_event_json(event: Event) -> None:
    data = {"name": event.name, "game": event.game, "variant": event.variant,
            "format": event.format, "format_name": event.shown_format,
            "rounds": event.rounds, "seats": event.seats,
            "seed": event.seed, "options": event.options, "cycle": event.cycle,
            "time": {"per_move": event.per_move, "total": event.total},
            "points": {"beat": event.points[0], "tie": event.points[1]},
            "contestants": [{"name": c.name, "seat": c.seat} for c in event.contestants],
            "concurrency": event.concurrency, "projection": event.projection,
            "clock": event.clock or "wall", "machine": event.machine_notes, "warnings": event.warnings}
    target = event.out / "event.json"
    tmp = target.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, target)
