"""Xiangqi command-line tools: ``python main.py xiangqi perft|legal ...``.

Each tool is also a plain function returning the text it prints, so tests can call
it without a process.
"""
from __future__ import annotations

import sys

from games.api import ArenaError
from games.language import _
from games.xiangqi.rules import START_FEN, Position, move_text


def _position(fen: str) -> Position:
    return Position.from_fen(START_FEN if fen.lower() in ("", "start", "startpos") else fen)[0]


def perft_text(fen: str, depth: int, divide: bool = False) -> str:
    """The perft count (and, with ``divide``, one line per first move before it)."""
    position = _position(fen)
    if not divide:
        return str(position.perft(depth))
    lines, total = [], 0
    for move in sorted(position.legal_moves(), key=move_text):
        captured = position.make(move)
        count = position.perft(depth - 1)
        position.unmake(move, captured)
        lines.append(f"{move_text(move)} {count}")
        total += count
    return "\n".join(lines + [str(total)])


def legal_text(fen: str) -> str:
    """The legal moves in upper-case ICCS, sorted, separated by single spaces."""
    return " ".join(sorted(move_text(m) for m in _position(fen).legal_moves()))


def bestmove_text(fen: str, seconds: float, depth: int = 64) -> str:
    """The engine's choice: ``MOVE score N depth N nodes N`` (score for the side to move)."""
    from games.xiangqi.bot import Searcher
    position = _position(fen)
    searcher = Searcher(max_depth=depth)
    move, score = searcher.choose(position, [position.key], [position.in_check(position.side)], 0, seconds)
    if move is None:
        return "(none): the side to move has no legal move"
    return f"{move_text(move)} score {score} depth {searcher.last_depth} nodes {searcher.nodes}"


def _run(produce) -> int:
    try:
        print(produce())
    except ArenaError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def register(subparsers) -> None:
    """Add the Xiangqi tools to ``python main.py xiangqi ...``'s sub-parsers."""
    perft = subparsers.add_parser("perft", help=_("count legal move paths of DEPTH half-moves"))
    perft.add_argument("fen", help=_("position in Xiangqi FEN ('start' = the usual start)"))
    perft.add_argument("depth", type=int, help=_("half-moves to look ahead"))
    perft.add_argument("--divide", action="store_true", help=_("also print the count per first move"))
    perft.set_defaults(func=lambda args: _run(lambda: perft_text(args.fen, args.depth, args.divide)))

    legal = subparsers.add_parser("legal", help=_("list the legal moves of a position"))
    legal.add_argument("fen", help=_("position in Xiangqi FEN ('start' = the usual start)"))
    legal.set_defaults(func=lambda args: _run(lambda: legal_text(args.fen)))

    best = subparsers.add_parser("bestmove", help=_("the built-in engine's move for a position"))
    best.add_argument("fen", help=_("position in Xiangqi FEN ('start' = the usual start)"))
    best.add_argument("--seconds", type=float, default=2.0, help=_("thinking time (default 2)"))
    best.add_argument("--depth", type=int, default=64, help=_("deepest iteration (default: no limit)"))
    best.set_defaults(func=lambda args: _run(lambda: bestmove_text(args.fen, args.seconds, args.depth)))

    # Contest tools: referee two contest programs; play as the contest program CC.
    from games.xiangqi.contest import register as register_contest_mode
    from games.xiangqi.referee import register as register_referee
    register_referee(subparsers)
    register_contest_mode(subparsers)
