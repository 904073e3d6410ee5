"""Series between two Xiangqi seats: the bot's strength against an engine, or each repetition count.

Strength (``--strength``): the first seat (the bot) plays the second (an engine) over a
set of openings, each opening twice with colours swapped, and the script prints the
first seat's score with its 95% confidence interval, then the first seat's time a move
(mean, 90th percentile, longest, and how many moves took more than ``--move-limit``,
2 s by default: the goal's limit)::

    nice -n 15 python bench/xiangqi_engine_series.py --strength \\
        --seat "bot:5 nodes=125000" --seat "ucci:$ARENA_ELEPHANTEYE depth=5"
    python bench/xiangqi_engine_series.py --strength \\
        --seat "bot:5 nodes=150000 movetime=1950" --seat "uci:$ARENA_FAIRY_STOCKFISH depth=9"

Measured (32 openings, each with both colours: 64 games a row; Wilson 95% intervals):

======================  ============  =====================================
opponent                bot budget    score
======================  ============  =====================================
ElephantEye, depth 5    125,000 nodes 37.5/64 = 59% [46-70]
ElephantEye, depth 5    130,000 nodes 35/59 = 59% [47-71] (stopped at 59)
ElephantEye, depth 5    both          72.5/123 = 58.9% [50.1-67.2]
ElephantEye, depth 5    1.85 s,       24/32 = 75% [58-87] (16 openings; longest 1.93 s,
                        freedom x2    0 of 2,064 over 2 s)
Fairy-Stockfish, d. 9   125,000 nodes 33/64 = 52% [40-63]
Fairy-Stockfish, d. 9   130,000 nodes 26/64 = 41% [30-53]
Fairy-Stockfish, d. 9   140,000 nodes 32.5/64 = 51% [39-63]
Fairy-Stockfish, d. 9   all three     91.5/192 = 47.7% [40.7-54.7]
Fairy-Stockfish, d. 9   150,000 nodes 36/64 = 56% [44-68]
                        or 1.95 s     (longest move 2.03 s; 1 of 3,969 over 2 s)
Fairy-Stockfish, d. 9   160,000 nodes 24/57 = 42% [30-55]
                        or 1.9 s      (stopped at 57; first half: longest 1.91 s)
Fairy-Stockfish, d. 9   both capped   60/121 = 49.6% [40.8-58.4]
Fairy-Stockfish, d. 9   1.85 s        31.5/64 = 49% [37-61]
                        (movetime)    (mean 1.60-1.65 s, longest 1.89 s; 0 of 3,762 over 2 s)
Fairy-Stockfish, d. 9   1.85 s again  31/60 = 52% [39-64] (stopped at 60; first half:
                                      longest 1.97 s, 0 of 1,654 over 2 s)
Fairy-Stockfish, d. 9   within 2 s    122.5/245 = 50.0% [43.8-56.2] (the last four rows)
Fairy-Stockfish, d. 9   1.85 s, with  31/64 = 48% [37-60] (longest 1.92 s; 0 of 3,254
                        reduction     over 2 s)
Fairy-Stockfish, d. 9   the same      31/61 = 51% [39-63] (stopped at 61; longest 1.98 s,
                        again         0 of about 4,150 over 2 s)
Fairy-Stockfish, d. 9   1.85 s, the   32/64 = 50% [38-62] (longest 1.97 s; 0 of 3,852
                        check test    over 2 s)
                        narrowed
Fairy-Stockfish, d. 9   within 2 s    216.5/434 = 49.9% [45.2-54.6] (all seven such rows)
Fairy-Stockfish, d. 9   1.85 s, cut-  26.5/64 = 41% [30-54] (longest 1.87 s; 0 of 3,739
                        offs on the   over 2 s); not kept
                        leaf score
Fairy-Stockfish, d. 9   1.85 s,       34.5/64 = 54% [42-66] (longest 1.97 s; 0 of 3,970
                        freedom x2    over 2 s)
Fairy-Stockfish, d. 9   within 2 s    277.5/562 = 49.4% [45.3-53.5] (all nine such rows)
Fairy-Stockfish, d. 9   1.85 s, a     13.5/35 = 39% [24-55] (stopped at 35: 32/64 needed
                        soldier short 64% of the rest); not kept
                        of the river
                        5 less
Fairy-Stockfish, d. 9   1.85 s,       36.5/64 = 57% [45-68] (longest 1.94 s; 0 of 3,507
                        freedom x2    over 2 s)
                        again
Fairy-Stockfish, d. 9   freedom x2,   71/128 = 55.5% [46.8-63.8] (the bot as it is now)
                        both series
Fairy-Stockfish, d. 9   within 2 s    327.5/661 = 49.5% [45.7-53.3] (all eleven such rows)
======================  ============  =====================================

A few thousand nodes more or less gives new games from the same openings.  A node
budget alone does not keep a move within 2 s: 140,000 nodes is 1.6-1.8 s on the four
positions of ``python bench/xiangqi_bench.py --only engine --engine-nodes 140000`` but
up to 2.1 s in complex middlegames.  The last two rows give ``movetime`` as a cap
(``bot:5 nodes=150000 movetime=1950``: the nodes, unless 1.95 s come first); the time
line the series prints shows how close to 2 s the moves came.  ``bot:5 movetime=1850``
thinks 1.85 s on every move out of the book (as UCI's ``go movetime``), played after the
search stopped making late quiet moves it can see give no check; "with reduction": after
a node with no table move was searched a ply less (2026-11-25); "check test narrowed": a
move is asked whether it gave check only when it can have (the same tree, 4-7% less
time to a depth), played while the table's move was also tried before the others were
generated (since reverted: no faster to depth 8 or 9); "cut-offs on the leaf score":
reverse futility, futility and the null move judged a node by its leaves' whole score
(king safety included), not material and tables alone (8% fewer nodes to depth 7, but
about a fifth fewer nodes a second in middlegames; dropped); "freedom x2": the
chariots' and horses' freedom weighed twice, as the engine's scores in the kept games of
the two series before it asked (``xiangqi_eval_fit.py --series``); "a soldier short of
the river 5 less": such a soldier worth 5 less than its table value rather than 35, the
residual the same fit gave over the three series before it (+30, 5-95%: +11 to +53),
dropped; "freedom x2 again": the same bot as the row before, played again to measure the
bot as kept without the luck that chose it (a movetime search gives new games).

What the series counts (bench/stats.py, since 2026-11-28): a game in which a seat never
got through its start ("no uciok from the engine", a program that could not start) or
the referee failed is NOT PLAYED: its line says why, it is left out of the score, and
the closing lines say how many were left out.  (Before, such a game was a win for the
other seat: one series scored 8/8 for the bot with every game ended at turn 1 by "no
uciok".)  Each game's line gives the bot's median nodes a move and the machine's load;
the closing lines give the bot's median nodes a move and a second against what its
build reaches on a quiet machine (``QUIET_RATES``), and print NO STRENGTH FIGURE when it
fell below half of that: the score would measure the load, not the bot.  Both seats play
under the same clock; for equal time, give both the same movetime::

    nice -n 5 python bench/xiangqi_engine_series.py --strength --openings 20 \
        --seat "bot:5 movetime=1000" --seat "ucci:$ARENA_ELEPHANTEYE movetime=1000"

Equal time against ElephantEye (built from xqbase/eleeye with its makefile.sh, -O4, no
opening book in its folder), 1 s a move each, 2026-11-28, with the compiled level 5
(games/xiangqi/fast_search.py), on this 2-core machine shared with other jobs (load
4.3-15.0, median 9), the bench niced 5 and the engine niced 10 by its seat::

    nice -n 5 python bench/xiangqi_engine_series.py --strength --openings 20 \
        --seat "bot:5 movetime=1000" --seat "ucci:ELEEYE.EXE movetime=1000"
      22 games (openings 1-11, two runs: --skip 3 resumed the first, which a tool restart
      killed after 7 games; a 23rd game, ended by my Ctrl-C raised inside the compiled
      search as a "bot error", is left out and led to the stop-after-this-game handling):
      11/22 = 50.0% [30.7%, 69.3%], +11 =0 -11, as Red 7/12, as Black 4/10.
      Bot nodes a move (per game medians): median 311,000, 241,000-1,000,000: below half
      the quiet 1,167,191 in 18 of 22 games, so this bench prints NO STRENGTH FIGURE for
      it; the line is the record of games played under load, not the bot's strength.

The same 40 games (openings 1-20, both colours) at the bot's quiet speed, 2026-11-28:
the bench and both seats at nice -15, and their sessions' scheduler groups
(``/proc/PID/autogroup``) at nice -15 too, on the same machine with other jobs
running (load 5-28), so that the bot searched as fast as on a quiet machine::

    nice -n -15 python bench/xiangqi_engine_series.py --strength --openings 20 \
        --seat "bot:5 movetime=1000" --seat "ucci:$ARENA_ELEPHANTEYE movetime=1000" --keep DIR
      8/40 = 20.0% [10.5-34.8%], +6 =4 -30, as Red 5.5/20, as Black 2.5/20; the bot's
      median 1,312,256 nodes a move, 1,317,547 a second (113% of the quiet rate);
      its moves: mean 0.88 s, longest 1.03 s.  Records: bench/ladders/xiangqi-elephanteye-1s-2026-11-28.tar.xz.
      At equal time ElephantEye is clearly the stronger: the goal (>= 50%) is not met.

The same 40 games again, 2026-11-28/29, the same way (nice -15, autogroups -15; load
1.0-14.0), after the search stopped ruling the second occurrence of a position played
before the root a draw under the third-occurrence rule the series plays by::

      11.5/40 = 28.8% [17.1-44.1%], +6 =11 -23, as Red 5.5/20, as Black 6/20; the bot's
      median 1,256,704 nodes a move (108% of the quiet rate); its moves: mean 0.91 s,
      longest 1.01 s.  Records: bench/ladders/xiangqi-elephanteye-1s-2026-11-28-b.tar.xz.
      Within the first series' interval (8/40 = 20.0% [10.5-34.8%]): the goal is still not met.

The same 40 games on 2026-11-29, the same way (load 1.2-3.7, beside the Hex series),
after the compiled search dropped Numba's reference counting (1.6x the nodes a
second) and began trying the table's move before generating the rest::

      8.5/40 = 21.2% [11.4-36.1%], +5 =7 -28, as Red 6.5/20, as Black 2/20; the bot's
      median 2,072,960 nodes a move (95% of the new quiet rate, 2,187,224); its moves:
      mean 0.92 s, longest 1.01 s.  Records: bench/ladders/xiangqi-elephanteye-1s-2026-11-29.tar.xz.
      Twice the nodes bought no measurable strength (8/40, 11.5/40, 8.5/40 at 1.31 M,
      1.26 M and 2.07 M nodes a move).  As before, the bot's perpetual checks (10 of
      the 28 losses, 9 of them as Black) came where its search already saw itself
      mated or 1,312-1,547 down (more than a chariot of 900) over its last six moves.

A series can be split to use several cores: ``--openings 16 --skip 0`` and
``--openings 16 --skip 16`` play the same 64 games as one run, in two halves.
``--keep DIR`` keeps each game's folder (the arena record, PGN and REPORT) in
``DIR/opening-NN-red`` or ``-black``, by the bot's colour, to replay a lost game.

``nodes=125000`` is about 1.5-1.7 s a move for the bot on the machine the latest series
were played on (the four positions of ``python bench/xiangqi_bench.py --only engine
--engine-nodes 125000``; up to 2.0 s on a slower one before the evaluation grew by a
tenth); a node budget rather than a clock keeps every game reproducible from its seed
and fair under load.

The openings are the first two half-moves of common lines (OPENINGS below), given to
both seats as the start position (``fen=``).  A game is scored 1 / 0.5 / 0 for the
first seat; the interval is Wilson's score interval on the points over the games.
The match's own rules decide every game (no adjudication); engine seats outside
contest mode make the repetition rule the third occurrence.

Repetition counts (the default)::

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
import contextlib
import re
import signal
import time
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.stats import (QUIET_RATES, machine_load, median, search_effort, seat_search,  # noqa: E402
                         unplayed_reason, wilson_interval)
from games.api import Termination, parse_option_pairs  # noqa: E402
from games.xiangqi.referee import build_referee_match  # noqa: E402
from games.xiangqi.rules import START_FEN, Position, parse_move_text  # noqa: E402

SCORE = re.compile(r"score (?:cp )?(-?\d+)")


def move_seconds(match, seat: int) -> list[float]:
    """The seconds each of ``seat``'s moves took, as the runner timed them."""
    seconds = []
    for turn in match.turns:
        answer = turn.answers.get(seat) if isinstance(turn.answers, dict) else None
        if answer and answer.get("elapsed") is not None:
            seconds.append(float(answer["elapsed"]))
    return seconds


def time_summary(seconds: list[float], limit: float) -> str:
    """Mean, 90th percentile and longest of a seat's move times, and how many passed ``limit``."""
    if not seconds:
        return "no moves timed"
    ordered = sorted(seconds)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    over = sum(1 for value in ordered if value > limit)
    return (f"{len(ordered)} moves: mean {sum(ordered) / len(ordered):.2f} s, p90 {p90:.2f} s, "
            f"longest {ordered[-1]:.2f} s; {over} over {limit:g} s")


def last_score(match, seat: int) -> int | None:
    """The last score ``seat`` reported for itself (engines' info line, bots' answer)."""
    for turn in reversed(match.turns):
        answer = turn.answers.get(seat) if isinstance(turn.answers, dict) else None
        if answer:
            found = SCORE.findall(answer.get("answered", "") or "")
            if found:
                return int(found[-1])
    return None


#: The strength series' openings: the first two half-moves of common lines, Red then Black.
OPENINGS = (
    ("central cannon vs screen horse", "H2E2 H9G7"),
    ("elephant opening vs pawn", "G0E2 C6C5"),
    ("pawn opening vs cannon behind the pawn", "C3C4 B7C7"),
    ("central cannon vs same-direction cannon", "H2E2 H7E7"),
    ("horse opening vs seven-pawn", "H0G2 G6G5"),
    ("cross-palace cannon vs horse", "H2D2 H9G7"),
    ("central cannon vs reverse palace horse", "H2E2 B9C7"),
    ("palace-corner cannon vs horse", "B2D2 H9G7"),
    ("elephant opening vs central cannon", "G0E2 B7E7"),
    ("pawn opening vs opposing pawn", "C3C4 C6C5"),
    ("central cannon vs opposite-direction cannon", "H2E2 B7E7"),
    ("elephant opening vs horse", "G0E2 H9G7"),
    ("pawn opening vs elephant", "C3C4 G9E7"),
    ("horse opening vs pawn", "H0G2 C6C5"),
    ("advisor opening vs horse", "F0E1 H9G7"),
    ("horse opening vs horse", "H0G2 H9G7"),
    ("central cannon vs elephant", "H2E2 G9E7"),
    ("central cannon vs advisor", "H2E2 F9E8"),
    ("central cannon vs horse on the left", "B2E2 B9C7"),
    ("elephant opening vs seven-pawn", "G0E2 G6G5"),
    ("elephant opening vs cross-palace cannon", "G0E2 H7D7"),
    ("pawn opening vs horse", "C3C4 H9G7"),
    ("pawn opening vs central cannon", "C3C4 H7E7"),
    ("horse opening vs central cannon", "H0G2 H7E7"),
    ("horse opening vs elephant", "H0G2 G9E7"),
    ("cross-palace cannon vs central cannon", "H2D2 H7E7"),
    ("cross-palace cannon vs pawn", "H2D2 C6C5"),
    ("palace-corner cannon vs central cannon", "B2D2 H7E7"),
    ("advisor opening vs central cannon", "F0E1 H7E7"),
    ("seven-pawn opening vs pawn", "G3G4 C6C5"),
    ("left horse opening vs seven-pawn", "B0C2 G6G5"),
    ("central cannon vs cross-palace cannon", "H2E2 H7D7"),
)


def opening_fen(moves: str) -> str:
    """The FEN after ``moves`` (ICCS) from the usual start."""
    position = Position.from_fen(START_FEN)[0]
    for text in moves.split():
        move = parse_move_text(text)
        if move not in position.legal_moves():
            raise SystemExit(f"opening {moves!r}: {text} is not legal")
        position.make(move)
    return position.fen(0, 1 + len(moves.split()) // 2)


def game_folder(keep: Path | None, name: str):
    """Where a game's seats run and its record goes: ``keep/name`` (kept), or a temporary
    folder removed after the game."""
    if keep is None:
        return tempfile.TemporaryDirectory()
    folder = keep / name
    folder.mkdir(parents=True, exist_ok=True)
    return contextlib.nullcontext(str(folder))


def strength_series(first: str, second: str, openings: int, seconds: int, options: dict,
                    skip: int = 0, move_limit: float = 2.0, keep: Path | None = None) -> None:
    """Play ``first`` against ``second`` over the openings (after the first ``skip``), colours
    swapped, and print the score and the first seat's time a move (against ``move_limit``).
    Seeds follow the opening's place in OPENINGS, so a series split over several runs
    (``--skip``) plays the same games as one run.  With ``keep``, each game's folder (its
    record, PGN and report) stays in ``keep/opening-NN-red`` or ``-black`` (the first
    seat's colour)."""
    # Ctrl-C (kill -INT) stops the series after the game in progress, whose moves it does
    # not disturb: raised inside a bot's compiled search it would end that game as the
    # bot's crash.  The summary then covers the games played.
    previous = signal.signal(signal.SIGINT, _stop_after_this_game)
    try:
        played = _play_series(first, second, openings, seconds, options, skip, keep)
    finally:
        signal.signal(signal.SIGINT, previous)
    if _STOP_REQUESTED:
        print(f"stopped after {played['games']} games played: the summary covers those", flush=True)
    print(series_summary(first, second, played["points"], played["games"], played["tally"],
                         played["colour_points"], played["colour_games"], played["not_played"],
                         played["searches"], played["quiet_rate"], played["is_bot"]), flush=True)
    print(f"first seat's time a move: {time_summary(played['first_seconds'], move_limit)}", flush=True)


#: The running series' tallies.
_SERIES_SO_FAR: dict = {}
_STOP_REQUESTED: list[bool] = []


def _stop_after_this_game(signum, frame) -> None:
    _STOP_REQUESTED.append(True)
    print("stopping after the game in progress", flush=True)


def _play_series(first: str, second: str, openings: int, seconds: int, options: dict, skip: int,
                 keep: Path | None) -> dict:
    """Play the games of :func:`strength_series`, printing each; return the tallies."""
    tallies = _SERIES_SO_FAR
    tallies.clear()
    tallies.update(points=0.0, games=0, tally=collections.Counter(), colour_points=[0.0, 0.0],
                   colour_games=[0, 0], first_seconds=[], searches=[], not_played=[], quiet_rate=None,
                   is_bot=False)
    _STOP_REQUESTED.clear()
    for index, (name, moves) in list(enumerate(OPENINGS))[skip:skip + openings]:
        for first_plays_red in (True, False):
            if _STOP_REQUESTED:
                return tallies
            bottom, top = (first, second) if first_plays_red else (second, first)
            started = time.perf_counter()
            colour = "red" if first_plays_red else "black"
            label = f"  {name} ({moves}), first seat {'Red' if first_plays_red else 'Black'}: "
            with game_folder(keep, f"opening-{index + 1:02d}-{colour}") as folder:
                match = build_referee_match(bottom, top, Path(folder), seconds=seconds, seed=100 + 2 * index,
                                            options={**options, "fen": opening_fen(moves)})
                outcome = match.run()
                first_seat = 0 if first_plays_red else 1
                why = unplayed_reason(match, outcome)
                if why is not None:
                    tallies["not_played"].append(why)
                    print(f"{label}NOT PLAYED, left out: {why} [{machine_load()}]", flush=True)
                    continue
                tallies["quiet_rate"], tallies["is_bot"] = quiet_rate_of(match.seats[first_seat])
                game_searches = seat_search(match, first_seat)
                tallies["searches"] += game_searches
                tallies["first_seconds"] += move_seconds(match, first_seat)
                score = 0.5 if not outcome.winners else 1.0 if outcome.winners[0] == first_seat else 0.0
                tallies["points"] += score
                tallies["games"] += 1
                tallies["colour_points"][first_seat] += score
                tallies["colour_games"][first_seat] += 1
                tallies["tally"][{1.0: "wins", 0.5: "draws", 0.0: "losses"}[score]] += 1
                nodes = median(n for n, _ in game_searches)
                print(f"{label}{outcome.result_text()} {outcome.reason.value} after {len(match.states[-1].moves)} "
                      f"half-moves ({outcome.detail}) -> {score} [{time.perf_counter() - started:.0f} s; "
                      f"first seat {'?' if nodes is None else f'{nodes:,.0f}'} nodes a move; {machine_load()}]",
                      flush=True)
    return tallies


def quiet_rate_of(seat) -> tuple[float | None, bool]:
    """(the nodes a second the seat's build reaches on a quiet machine, whether it is a
    built-in bot): the compiled level 5 or the pure-Python search (bench/stats.py)."""
    bot = getattr(seat, "bot", None)
    if bot is None or not hasattr(bot, "searcher"):
        return None, False
    return QUIET_RATES["xiangqi compiled" if getattr(bot, "compiled", False) else "xiangqi python"], True


def series_summary(first: str, second: str, points: float, games: int, tally, colour_points, colour_games,
                   not_played: list[str], searches, quiet_rate, is_bot: bool) -> str:
    """The series' closing lines: the games played and left out, the bot's effort, and the
    score with its interval unless the games or the effort do not allow one."""
    lines = [f"first seat {first!r} vs {second!r}: {games} games played, {len(not_played)} not played "
             f"(left out: a seat never started or the referee failed); {machine_load()}"]
    for why, count in collections.Counter(not_played).items():
        lines.append(f"  not played x{count}: {why}")
    allowed = games > 0
    if is_bot:
        allowed_effort, effort = search_effort(searches, quiet_rate)
        lines.append("  " + effort)
        allowed = allowed and allowed_effort
    elif games:
        lines.append("  (the first seat is not a built-in bot: its effort is not checked)")
    record = f"+{tally['wins']} ={tally['draws']} -{tally['losses']}"
    if not allowed:
        lines.append(f"  {record}; NO STRENGTH FIGURE: " +
                     ("no game was played" if not games else "see the refusal above"))
        return "\n".join(lines)
    low, high = wilson_interval(points, games)
    lines.append(f"  score {points:g}/{games} = {100 * points / games:.1f}% (95% Wilson interval "
                 f"{100 * low:.1f}-{100 * high:.1f}%); {record}; as Red {colour_points[0]:g}/{colour_games[0]}, "
                 f"as Black {colour_points[1]:g}/{colour_games[1]}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seat", action="append", required=True, help="two seat specs")
    parser.add_argument("--strength", action="store_true",
                        help="score the first seat against the second over the openings")
    parser.add_argument("--skip", type=int, default=0,
                        help="in --strength, start after this many openings (to split a series over runs)")
    parser.add_argument("--openings", type=int, default=len(OPENINGS),
                        help=f"openings played twice each in --strength (at most {len(OPENINGS)})")
    parser.add_argument("--games", type=int, default=4, help="games per repetition count")
    parser.add_argument("--seconds", type=int, default=-1, help="clock per side (-1 untimed)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="in --strength, keep each game's folder (record, PGN, report) under DIR")
    parser.add_argument("--move-limit", type=float, default=2.0,
                        help="in --strength, count the first seat's moves longer than this (seconds)")
    args = parser.parse_args()
    a, b = args.seat
    if args.strength:
        strength_series(a, b, args.openings, args.seconds, parse_option_pairs(args.option), args.skip,
                        args.move_limit, args.keep)
        return 0
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
                why = unplayed_reason(match, outcome)
                if why is not None:
                    tally["not played"] += 1
                    print(f"  count {count} game {game + 1}: NOT PLAYED, left out: {why}", flush=True)
                    continue
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
              f"perpetual-check losses: {perpetual}; "
              f"mean length {sum(lengths) / len(lengths) if lengths else 0:.0f}; {machine_load()}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
