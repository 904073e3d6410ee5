"""``python main.py robot ...``: audit an organizers' turn log, run a tournament."""
from __future__ import annotations

import sys

from games.api import ArenaError
from games.language import _


def register(subparsers) -> None:
    audit = subparsers.add_parser(
        "audit", help=_("re-run the rules over an organizers' JSON turn log and list disagreements"))
    audit.add_argument("log", help=_("the turn log (JSON)"))
    audit.add_argument("--respawn", action="store_true",
                       help=_("the log was played with respawn = on"))
    audit.add_argument("--compat", choices=("arena", "organizers"), default="arena",
                       help=_("the rules to check against: the arena's (default) or the "
                            "organizers' referee's behaviours (RULES.md)"))
    audit.set_defaults(func=cmd_audit)
    maps = subparsers.add_parser("maps", help=_("list the shipped maps, or check map files"))
    maps.add_argument("files", nargs="*", help=_("map files to check (M N K, then the rows)"))
    maps.set_defaults(func=cmd_maps)
    try:
        from games.robot.tournament import register_tournament
    except ImportError:
        return
    register_tournament(subparsers)


def cmd_audit(args) -> int:
    """Exit 0 when every turn agrees, 1 when some diverge (each named with its cause, or
    unexplained), 2 when the log is unreadable."""
    from pathlib import Path

    from games.robot.rules import quirks_for
    from games.robot.turnlog import audit
    try:
        text = Path(args.log).read_text(encoding="utf-8-sig", errors="replace")
    except OSError as exc:
        print(f"arena: {args.log}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        lines, _, divergent, _ = audit(text, args.log, respawn=args.respawn,
                                       quirks=quirks_for(args.compat))
    except ArenaError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 1 if divergent else 0


def cmd_maps(args) -> int:
    """List shipped maps, or check files: exit 0 when all are valid, 2 otherwise."""
    from games.robot.maps import load_map, map_text, parse_map, shipped_maps
    if not args.files:
        for name in shipped_maps():
            m = parse_map(map_text(name), f"{name}.txt")
            print(f"{name:14s} {m.height}x{m.width}  K={m.period}")
        return 0
    code = 0
    for path in args.files:
        try:
            m = load_map(path, strict=True)
            print(f"{path}: ok, {m.height}x{m.width}, K={m.period}")
        except ArenaError as exc:
            print(f"{exc}")
            code = 2
    return code
