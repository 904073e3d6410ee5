"""Statistics the bench scripts share."""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.api import Termination  # noqa: E402


def wilson_interval(points: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval (95% with the default ``z``) for a share of ``points`` out
    of ``games``; a draw counts half a point.  Unlike the normal approximation it stays
    within 0..1 and is sound near 0% and 100%."""
    if games == 0:
        return 0.0, 1.0
    share = points / games
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - spread), min(1.0, centre + spread)


# ---------------------------------------------------------------- honest strength figures
#
# A strength figure is only worth printing when (1) every game counted was a game: both
# seats started and the referee finished it, (2) the built-in bot had the same time as
# the program it played, and (3) the bot searched as hard as it does on a quiet machine.
# The helpers below let the strength benches (xiangqi_engine_series.py, gtp_match.py,
# robot_strength.py) check all three and say why when they refuse.

#: What the built-in bots reach with a core to themselves (a quiet machine): nodes a
#: second (Xiangqi), playouts a second (Hex).  Measured as work per CPU second (what a
#: thread gets when nothing else runs), 2026-11-28, on this 2-core machine:
#:
#: * ``xiangqi compiled``: ``python bench/xiangqi_fast_bench.py --nodes 2000000`` (bot:5
#:   with Numba), 2,187,224 nodes per CPU second over its four positions (2026-11-29,
#:   load 0.8; 1,167,191 before its kernels dropped Numba's reference counting);
#: * ``xiangqi python``: the same bench's pure-Python line (bot:5 without Numba, and
#:   levels 2-4, which search less at each leaf), 85,202;
#: * ``hex compiled 9`` / ``hex compiled 11``: ``python bench/hex_playout_rate.py --sizes
#:   9 11 --seconds 3``'s level-5 column (pattern priors on), its lower position:
#:   143,696 and 94,279 playouts a second (2026-11-29, load 1.8-2.0 beside one engine
#:   series; 40,000 and 30,000 were set before the kernels dropped Numba's reference
#:   counting).
QUIET_RATES = {
    "xiangqi compiled": 2_187_224,
    "xiangqi python": 85_202,
    "hex compiled 9": 143_696,
    "hex compiled 11": 94_279,
}
#: A strength figure is refused when the bot's median rate falls below this share of
#: its quiet rate: it then played a weaker bot than the one named.
QUIET_SHARE = 0.5


def machine_load() -> str:
    """The load averages (1, 5 and 15 minutes) and the core count, for beside a figure."""
    try:
        one, five, fifteen = os.getloadavg()
    except (AttributeError, OSError):            # Windows has no load average
        return f"load unknown, {os.cpu_count()} cores"
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def unplayed_reason(match, outcome) -> str | None:
    """Why a finished match is no game to count, or None when it was one.

    Not a game: the referee failed (the match's error, an aborted match), or a seat
    failed before it made a single move (it could not start, or never got through its
    handshake: "no uciok from the engine").  Such a "loss" measures the set-up, not the
    seat's strength, so a series leaves the game out and says how many it left out."""
    if getattr(match, "not_played", False):          # the runner's own verdict, where it gives one
        return f"a seat never started: {getattr(outcome, 'detail', '') or 'no handshake'}"
    error = getattr(match, "error", "")
    if error:
        return f"the referee failed: {error}"
    if outcome is None or outcome.reason is Termination.ABORTED:
        return f"the match was aborted: {getattr(outcome, 'detail', '') or 'no outcome'}"
    for seat in range(len(match.seats)):
        answers = [turn.answers[seat] for turn in match.turns
                   if isinstance(turn.answers, dict) and turn.answers.get(seat)]
        if answers and not any(answer_move(a) for a in answers) and \
                answers[0].get("failure") == Termination.CRASH.value:
            label = getattr(match.seats[seat], "label", "") or f"seat {seat + 1}"
            return f"seat {seat + 1} ({label}) never started: {answers[0].get('detail') or 'no answer'}"
    return None


def answer_move(answer: dict) -> bool:
    """Whether a recorded answer (``Answer.log()``) gave a move rather than a failure."""
    return not answer.get("failure") and answer.get("text") is not None


def seat_search(match, seat: int) -> list[tuple[int, float]]:
    """(nodes, seconds) of each of ``seat``'s answers that reported its search's nodes."""
    found = []
    for turn in match.turns:
        answer = turn.answers.get(seat) if isinstance(turn.answers, dict) else None
        search = (answer or {}).get("search") or {}
        if search.get("nodes") and answer.get("elapsed"):
            found.append((int(search["nodes"]), float(answer["elapsed"])))
    return found


def median(values):
    ordered = sorted(values)
    if not ordered:
        return None
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def search_effort(searches: list[tuple[int, float]], quiet_rate: float | None,
                  unit: str = "nodes") -> tuple[bool, str]:
    """(whether a strength figure may be reported, the line saying why) from the bot's
    (nodes, seconds) a move and the rate its build reaches on a quiet machine.

    The figure is refused when the median rate is below ``QUIET_SHARE`` of the quiet
    one, and when there is nothing to judge it by (no move reported its nodes, or no
    quiet figure for this build)."""
    if not searches:
        return False, f"refused: the bot reported no {unit} a move, so its effort cannot be checked"
    nodes = median(n for n, _ in searches)
    rate = median(n / s for n, s in searches if s > 0) or 0.0
    line = f"bot: median {nodes:,.0f} {unit} a move, {rate:,.0f} a second over {len(searches)} moves"
    if not quiet_rate:
        return False, f"{line}; refused: no quiet-machine figure for this build to compare with"
    share = rate / quiet_rate
    line += f" ({100 * share:.0f}% of the {quiet_rate:,.0f} it reaches on a quiet machine; {machine_load()})"
    if share < QUIET_SHARE:
        return False, (f"{line}; refused: below {100 * QUIET_SHARE:.0f}%, the bot searched less than "
                       "half as much as it does on a quiet machine, so the score would measure the "
                       "machine's load, not the bot")
    return True, line
