"""``python main.py crosswords ...``: verify an output.txt, solve a letters file.

    arena crosswords verify OUTPUT --input INPUT [--dict DIR]
        replays OUTPUT; the last line printed is ``VALID <score>`` (exit 0) or
        ``INVALID line N: <reason>`` (exit 1); unreadable INPUT or DIR exit 2
    arena crosswords solve --input INPUT [--seconds N] [--dict DIR] [--level L] --out FILE
        plays the game within N seconds (default: seconds.txt beside INPUT, else 10)
        and writes FILE in the notation the verifier reads: always a complete game,
        the greedy player's at least.  N given: the clock starts once the dictionary
        is loaded; from seconds.txt: with the command (the contest times the whole run)
"""
from __future__ import annotations

import sys
from pathlib import Path

from games.api import ArenaError
from games.language import _


def register(subparsers) -> None:
    verify = subparsers.add_parser("verify", help=_("replay an output.txt against input.txt "
                                   "and the dictionary; prints VALID <score> or INVALID line N"))
    verify.add_argument("output", help=_("the output.txt to check"))
    verify.add_argument("--input", required=True, help=_("the letters file (three lines of 66)"))
    verify.add_argument("--dict", default="", metavar="DIR",
                        help=_("the contest's dictionary folder (default: the built-in list)"))
    verify.set_defaults(func=cmd_verify)
    solve = subparsers.add_parser("solve", help=_("play a letters file with the built-in solver "
                                  "and write output.txt"))
    solve.add_argument("--input", required=True, help=_("the letters file (three lines of 66)"))
    solve.add_argument("--seconds", type=float, default=None,
                       help=_("time limit (default: seconds.txt beside the input, else 10)"))
    solve.add_argument("--dict", default="", metavar="DIR",
                       help=_("the contest's dictionary folder (default: the built-in list)"))
    solve.add_argument("--level", choices=("greedy", "planner"), default="planner")
    solve.add_argument("--out", required=True, metavar="FILE", help=_("where to write output.txt"))
    solve.set_defaults(func=cmd_solve)


def _read(path: str) -> str:
    try:
        raw = Path(path).read_bytes()
        return raw.removeprefix(b"\xef\xbb\xbf").decode("latin-1")    # no byte-order mark
    except OSError as exc:
        raise ArenaError(f"{path}: {exc.strerror}") from None


def cmd_verify(args) -> int:
    from games.crosswords.dictionary import load_dictionary
    from games.crosswords.files import read_input, verify_output
    try:
        piles = read_input(_read(args.input), args.input)
        words = load_dictionary(args.dict)
        text = _read(args.output)
    except ArenaError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    verdict = verify_output(text, piles, words, args.output)
    if verdict.claimed is not None and not verdict.valid:
        print(f"claimed {verdict.claimed}; the valid steps before the fault score {verdict.score}")
    print(verdict.text())
    return 0 if verdict.valid else 1


#: Seconds kept back from the limit for writing output.txt and leaving: a share of the
#: limit (a loaded machine slows the end too), at least this much.
END_MARGIN, END_SHARE = 0.15, 0.03


def solve_game(state, seconds: float, level: str = "planner", started: float | None = None):
    """The solver's game for ``state`` (a :class:`~games.crosswords.solver.Plan`) within
    ``seconds`` of wall time counted from ``started`` (default: now), less the margin
    for writing the file: always a complete game, the greedy one at least."""
    import time

    from games.crosswords.solver import greedy_plan, solve
    began = time.monotonic() if started is None else started
    budget = seconds - max(END_MARGIN, END_SHARE * seconds) - (time.monotonic() - began)
    budget = max(0.0, budget)
    return greedy_plan(state, budget) if level == "greedy" else solve(state, budget)


def cmd_solve(args) -> int:
    """Solve a letters file.  With ``--seconds`` the clock starts once the dictionary is
    loaded (the first load builds its cache, which takes seconds); with the limit read
    from ``seconds.txt`` the command runs as a contest program, whose whole run is
    timed, so the clock starts with the command."""
    import time

    from games.crosswords.dictionary import load_dictionary
    from games.crosswords.files import read_input, read_seconds, verify_output, write_output
    from games.crosswords.rules import CrosswordsState
    began = time.monotonic()
    try:
        piles = read_input(_read(args.input), args.input)
        seconds, started = args.seconds, None
        if seconds is None:
            started = began
            beside = Path(args.input).with_name("seconds.txt")
            seconds = read_seconds(_read(str(beside)), str(beside)) if beside.exists() else 10.0
        words = load_dictionary(args.dict)
    except ArenaError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    state = CrosswordsState(words, piles)
    plan = solve_game(state, seconds, args.level, started)
    text = write_output(state, plan.moves)
    verdict = verify_output(text, piles, words, args.out)
    try:
        Path(args.out).write_text(text, encoding="ascii")
    except OSError as exc:
        print(f"arena: {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"{verdict.text()} in {time.monotonic() - began:.1f} s; wrote {args.out}")
    return 0 if verdict.valid else 1
