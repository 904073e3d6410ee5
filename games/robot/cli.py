"""``python main.py robot ...``: audit an organizers' turn log, run a tournament."""
from __future__ import annotations

import sys

from games.api import ArenaError


def register(subparsers) -> None:
    audit = subparsers.add_parser(
        "audit", help="re-run the rules over an organizers' JSON turn log and list disagreements")
    audit.add_argument("log", help="the turn log (JSON)")
    audit.add_argument("--respawn", action="store_true",
                       help="the log was played with respawn = on")
    audit.set_defaults(func=cmd_audit)
    try:
        from games.robot.tournament import register_tournament
    except ImportError:
        return
    register_tournament(subparsers)


def cmd_audit(args) -> int:
    """Exit 0 when every turn agrees, 1 when some diverge, 2 when the log is unreadable."""
    from pathlib import Path

    from games.robot.turnlog import audit
    try:
        text = Path(args.log).read_text(encoding="utf-8-sig", errors="replace")
    except OSError as exc:
        print(f"arena: {args.log}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        lines, _, divergent = audit(text, args.log, respawn=args.respawn)
    except ArenaError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 1 if divergent else 0
