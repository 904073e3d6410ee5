"""Robot tournaments (the contest's pairs and all-in formats, see RULES.md).

* ``pairs``: every two contestants meet (round robin of duels; ``rounds = 2`` plays each
  pair twice with colours swapped); win 20, draw 10, loss 0.
* ``all-in``: all contestants (2-4) on one map, ``rounds`` matches (2 in the contest),
  seats rotated; each match gives a contestant 10 × the number of contestants who
  painted fewer cells.

Both are presets of :mod:`runner.tournament`'s generic formats, whose scoring gives
each seat ``beat`` points per seat it finished above and ``tie`` per seat it tied with:
run them with ``arena tournament EVENT.toml`` (``format = "pairs"``), e.g.
``games/robot/events/robot-pairs.toml``.  ``arena robot tournament`` is kept as a
shorthand that writes no event file.  Standings are ranked by points, then cells painted.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Sequence

from games.api import ArenaError, Outcome

WIN, DRAW, LOSS = 20, 10, 0
ALL_IN_STEP = 10

FORMATS = {
    "pairs": {"format": "round-robin", "seats": 2, "points": {"beat": WIN, "tie": DRAW}},
    "all-in": {"format": "all-in", "rounds": 2, "points": {"beat": ALL_IN_STEP, "tie": 0}},
}


def pair_points(outcome: Outcome) -> tuple[int, int]:
    """Points of seats 0 and 1 for one pairs match."""
    if outcome.is_draw or len(outcome.winners) != 1:
        return DRAW, DRAW
    return (WIN, LOSS) if outcome.winners == (0,) else (LOSS, WIN)


def all_in_points(cells: Sequence[float]) -> list[int]:
    """10 × the number of contestants who painted fewer cells, for each seat."""
    return [ALL_IN_STEP * sum(1 for other in cells if other < mine) for mine in cells]


def register_tournament(subparsers) -> None:
    parser = subparsers.add_parser(
        "tournament", help="a pairs or all-in tournament without an event file "
        "(shorthand for arena tournament EVENT.toml)")
    parser.add_argument("--format", choices=tuple(FORMATS), default="pairs")
    parser.add_argument("--entrant", action="append", default=[], metavar="SPEC",
                        help="a contestant: bot:LEVEL or ext:COMMAND (repeat)")
    parser.add_argument("--name", action="append", default=[], help="contestant names, in order")
    parser.add_argument("--map", action="append", default=[],
                        help="map names or files, cycled over the matches (default: every shipped map)")
    parser.add_argument("--rounds", type=int, default=1, help="pairs: times each pair meets")
    parser.add_argument("--matches", type=int, default=2, help="all-in: number of matches")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time", type=float, default=None, help="seconds per answer (default 2)")
    parser.add_argument("--workers", type=int, default=1, help="matches at once")
    parser.add_argument("--out", default="robot-tournament", help="the event folder")
    parser.set_defaults(func=cmd_tournament)


def cmd_tournament(args) -> int:
    from games.robot.maps import shipped_maps
    from runner.tournament import event_from_dict, run_event, standings_text
    if len(args.entrant) < 2:
        print("arena: a tournament needs at least two --entrant", file=sys.stderr)
        return 2
    data = {"name": Path(args.out).name, "game": "robot", "format": args.format,
            "rounds": args.rounds if args.format == "pairs" else args.matches,
            "seed": args.seed, "concurrency": args.workers,
            "cycle": {"map": args.map or shipped_maps()},
            "contestant": [{"seat": spec, **({"name": args.name[i]} if i < len(args.name) else {})}
                           for i, spec in enumerate(args.entrant)]}
    if args.time:
        data["time"] = {"per_move": args.time}
    try:
        table = run_event(event_from_dict(data, Path.cwd(), args.out))
    except ArenaError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    print(standings_text(table), end="")
    print(f"standings written to {Path(args.out) / 'standings.json'}")
    return 0
