"""Robot tournaments (the contest's pairs and all-in formats, see RULES.md), headless.

* ``pairs``: every two contestants meet (on maps drawn from the given list); win 20,
  draw 10, loss 0.  ``--rounds 2`` plays each pair twice with colours swapped.
* ``all-in``: all contestants on one map, ``--matches`` times (2 in the contest);
  each match gives a contestant 10 × the number of contestants who painted fewer cells.

Standings are ranked by points, then cells painted; equal points and cells share a
rank.  Every match leaves its arena record and its organizers' turn log in ``--out``,
and the standings go to ``standings.json`` and ``standings.txt`` there.
"""
from __future__ import annotations

import itertools
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from games.api import ArenaError, Outcome

WIN, DRAW, LOSS = 20, 10, 0
ALL_IN_STEP = 10


def pair_points(outcome: Outcome) -> tuple[int, int]:
    """Points of seats 0 and 1 for one pairs match."""
    if outcome.is_draw or len(outcome.winners) != 1:
        return DRAW, DRAW
    return (WIN, LOSS) if outcome.winners == (0,) else (LOSS, WIN)


def all_in_points(cells: Sequence[float]) -> list[int]:
    """10 × the number of contestants who painted fewer cells, for each seat."""
    return [ALL_IN_STEP * sum(1 for other in cells if other < mine) for mine in cells]


@dataclass
class Entry:
    name: str
    spec: str
    points: int = 0
    cells: int = 0
    played: int = 0
    results: list = field(default_factory=list)


@dataclass
class Pairing:
    seats: tuple[int, ...]        # entry indices in seat order
    map_name: str
    seed: int


def schedule(kind: str, entries: int, maps: Sequence[str], seed: int, rounds: int = 1,
             matches: int = 2) -> list[Pairing]:
    """The tournament's matches in playing order."""
    rng = random.Random(seed)
    plan = []
    if kind == "pairs":
        for round_index in range(rounds):
            for a, b in itertools.combinations(range(entries), 2):
                seats = (a, b) if round_index % 2 == 0 else (b, a)
                plan.append(Pairing(seats, rng.choice(list(maps)), rng.randrange(2 ** 31)))
    else:
        map_name = rng.choice(list(maps))
        for index in range(matches):
            order = list(range(entries))
            order = order[index % entries:] + order[:index % entries]
            plan.append(Pairing(tuple(order), map_name, rng.randrange(2 ** 31)))
    return plan


def standings(entries: list[Entry]) -> list[tuple[int, Entry]]:
    """(rank, entry) by points then cells; ties share a rank."""
    ordered = sorted(entries, key=lambda e: (-e.points, -e.cells, e.name))
    ranked, previous = [], None
    for index, entry in enumerate(ordered):
        key = (entry.points, entry.cells)
        rank = ranked[-1][0] if key == previous else index + 1
        ranked.append((rank, entry))
        previous = key
    return ranked


def run_tournament(kind: str, specs: Sequence[str], names: Sequence[str], maps: Sequence[str],
                   out: Path, seed: int = 0, rounds: int = 1, matches: int = 2,
                   time_limit: float | None = None, log=print) -> list[tuple[int, Entry]]:
    from games.robot import PLUGIN
    from games.robot.turnlog import write_contest_records
    from runner.match import Match, TimeControl
    from runner.seats import make_seat

    entries = [Entry(names[i] if i < len(names) else f"P{i + 1}", spec)
               for i, spec in enumerate(specs)]
    if kind == "all-in" and not 2 <= len(entries) <= 4:
        raise ArenaError("an all-in match takes 2-4 contestants")
    out.mkdir(parents=True, exist_ok=True)
    plan = schedule(kind, len(entries), maps, seed, rounds, matches)
    for number, pairing in enumerate(plan, start=1):
        seats = [make_seat(entries[e].spec, PLUGIN, pairing.seed + i,
                           limits={"time": time_limit} if time_limit else {})
                 for i, e in enumerate(pairing.seats)]
        record = out / f"match{number:02d}.arena.jsonl"
        match = Match(PLUGIN, {"map": pairing.map_name, "players": len(seats)}, seats,
                      seed=pairing.seed, record_path=record,
                      time_control=TimeControl(per_move=time_limit),
                      workdir=out / f"match{number:02d}")
        outcome = match.run()
        write_contest_records(match.as_replay(), out)
        cells = [int(c) for c in outcome.scores]
        points = pair_points(outcome) if kind == "pairs" else all_in_points(cells)
        for seat, e in enumerate(pairing.seats):
            entry = entries[e]
            entry.points += points[seat]
            entry.cells += cells[seat]
            entry.played += 1
            entry.results.append({"match": number, "map": pairing.map_name, "seat": seat,
                                  "cells": cells[seat], "points": points[seat]})
        log(f"match {number}/{len(plan)} on {pairing.map_name}: " + ", ".join(
            f"{entries[e].name} {cells[s]} cells (+{points[s]})" for s, e in enumerate(pairing.seats)))
    table = standings(entries)
    write_standings(table, kind, out)
    return table


def standings_text(table: list[tuple[int, Entry]]) -> str:
    lines = [f"{'rank':>4}  {'contestant':20s} {'points':>6} {'cells':>6} {'played':>6}"]
    for rank, entry in table:
        lines.append(f"{rank:>4}  {entry.name[:20]:20s} {entry.points:>6} {entry.cells:>6} "
                     f"{entry.played:>6}")
    return "\n".join(lines) + "\n"


def write_standings(table, kind: str, out: Path) -> None:
    data = {"format": kind, "standings": [
        {"rank": rank, "name": e.name, "spec": e.spec, "points": e.points, "cells": e.cells,
         "played": e.played, "results": e.results} for rank, e in table]}
    (out / "standings.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    (out / "standings.txt").write_text(standings_text(table), encoding="utf-8")


def register_tournament(subparsers) -> None:
    parser = subparsers.add_parser("tournament", help="play a pairs or all-in tournament headless")
    parser.add_argument("--format", choices=("pairs", "all-in"), default="pairs")
    parser.add_argument("--entrant", action="append", default=[], metavar="SPEC",
                        help="a contestant: bot:LEVEL or ext:COMMAND (repeat)")
    parser.add_argument("--name", action="append", default=[], help="contestant names, in order")
    parser.add_argument("--map", action="append", default=[],
                        help="map names or files to draw from (default: every shipped map)")
    parser.add_argument("--rounds", type=int, default=1, help="pairs: times each pair meets")
    parser.add_argument("--matches", type=int, default=2, help="all-in: number of matches")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time", type=float, default=None, help="seconds per answer (default 2)")
    parser.add_argument("--out", default="robot-tournament", help="folder for records and standings")
    parser.set_defaults(func=cmd_tournament)


def cmd_tournament(args) -> int:
    from games.robot.maps import shipped_maps
    if len(args.entrant) < 2:
        print("arena: a tournament needs at least two --entrant", file=sys.stderr)
        return 2
    try:
        table = run_tournament(args.format, args.entrant, args.name, args.map or shipped_maps(),
                               Path(args.out), args.seed, args.rounds, args.matches, args.time)
    except ArenaError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    print(standings_text(table), end="")
    print(f"standings written to {Path(args.out) / 'standings.json'}")
    return 0
