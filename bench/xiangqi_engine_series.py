"""A short series between two Xiangqi seats under each repetition count.

    python bench/xiangqi_engine_series.py --seat "ucci:/path/eleeye movetime=100" \\
        --seat "bot:3 depth=2" [--games N] [--seconds S] [--option KEY=VALUE ...]

Plays N games per repetition count (2: the contest's first repeat; 3: the third
occurrence), colours alternating, and prints per count: the results, the reasons, and
the games that ended by repetition while an engine or bot last reported a score of
200 centipawns or more for itself (the "drew a won position" the contest's rule
causes for engines that do not expect it) and the perpetual-check losses.
"""
from __future__ import annotations

import argparse
import collections
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.api import Termination, parse_option_pairs  # noqa: E402
from games.xiangqi.referee import build_referee_match  # noqa: E402

SCORE = re.compile(r"score (?:cp )?(-?\d+)")


def last_score(match, seat: int) -> int | None:
    """The last score ``seat`` reported for itself (engines' info line, bots' answer)."""
    for turn in reversed(match.turns):
        answer = turn.answers.get(seat) if isinstance(turn.answers, dict) else None
        if answer:
            found = SCORE.findall(answer.get("answered", "") or "")
            if found:
                return int(found[-1])
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seat", action="append", required=True, help="two seat specs")
    parser.add_argument("--games", type=int, default=4, help="games per repetition count")
    parser.add_argument("--seconds", type=int, default=-1, help="clock per side (-1 untimed)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    a, b = args.seat
    for count in (2, 3):
        tally, reasons, won_drawn, perpetual, lengths = collections.Counter(), collections.Counter(), 0, 0, []
        for game in range(args.games):
            bottom, top = (a, b) if game % 2 == 0 else (b, a)
            with tempfile.TemporaryDirectory() as folder:
                match = build_referee_match(bottom, top, Path(folder), seconds=args.seconds, seed=game,
                                            options={**parse_option_pairs(args.option),
                                                     "repetition_count": str(count)})
                outcome = match.run()
                first = 0 if game % 2 == 0 else 1          # the seat --seat 1 played
                if outcome.winners:
                    tally["first wins" if outcome.winners[0] == first else "second wins"] += 1
                else:
                    tally["draws"] += 1
                reasons[outcome.reason.value] += 1
                lengths.append(len(match.states[-1].moves))
                if outcome.reason is Termination.REPETITION:
                    if outcome.winners:
                        perpetual += 1
                    scores = [last_score(match, seat) for seat in (0, 1)]
                    loser_or_drawer = [s for s in (0, 1) if s not in outcome.winners]
                    if any((scores[s] or 0) >= 200 for s in loser_or_drawer):
                        won_drawn += 1
                print(f"  count {count} game {game + 1}: {outcome.result_text()} {outcome.reason.value} "
                      f"after {lengths[-1]} half-moves ({outcome.detail})", flush=True)
        print(f"repetition_count={count}: {dict(tally)}; reasons {dict(reasons)}; "
              f"repetition endings with a side at >= +200 cp that did not win: {won_drawn}; "
              f"perpetual-check losses: {perpetual}; mean length {sum(lengths) / len(lengths):.0f}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
