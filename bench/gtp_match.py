"""A Hex match of N games between two seats, colours alternating, refereed by the arena.

Either seat is any Hex seat spec: the built-in bot (``bot:5``), a GTP engine
(``"gtp:./mohex --config my.htp time_per_move=1"``) or a HexLib program (``ext:./a.out``).
Game i gives seat A player 1 (moves first, columns) when i is even and player 2 when it
is odd.  Each game is a full arena match (clocks, the referee, a fresh folder per seat);
the table gives A's wins as each colour and in all, with a 95 % Wilson confidence
interval, and how the games ended (win, timeout, crash ...).

    python bench/gtp_match.py --a bot:5 --b "gtp:python tests/hex/gtp_engine.py" --games 20 --size 9
    python bench/gtp_match.py --a bot:5 --b "gtp:$ARENA_MOHEX" --games 40 --size 11 --time-total 20

A game in which a seat never got through its start (an engine that refused
``boardsize``, a program that could not start) or the referee failed is NOT PLAYED:
left out of the table, which says how many and why (before, the first such game
stopped the whole run).  Every game's line gives the built-in bot's playouts a move and
the machine's load; the table gives the bot's median playouts a move and a second
against what level 5 reaches on a quiet machine (bench/stats.py's ``QUIET_RATES``) and
prints NO STRENGTH FIGURE when that fell below half (or when there is no quiet figure
for the bot's build and size).

Each game ends one of four ways, and the table counts them apart: won by connection,
won by resignation, lost by a forfeit (a seat crashed, ran out of time or answered an
illegal move: "B crashed"), or not played.  The strength figure (the wins and their 95 %
Wilson interval, as each colour and in all) counts only the games finished on the board
or by resignation; a forfeit measures the program's robustness, not its play, and is
printed beside the figure, never in it.

MoHex, patched (``bench/patch_mohex.py``).  Benzene's MoHex dies of SIGSEGV in some
decided positions: ``MostOverlappingMove`` looks for the cell that blocks the most of
the winner's connections, finds none, returns -1, and MoHex plays -1.  Before this, most
of the bot's "wins" against MoHex were that crash.  The patch, in words: when the move
chosen for a decided position is not an empty cell of the board, play the first empty
cell, so the game goes on to its connection.  It is applied by bench/patch_mohex.py, a
search-and-replace on the fetched source, and built outside the repository (nothing of
Benzene is kept here), on Debian 12::

    apt-get install -y cmake libboost-thread-dev libboost-system-dev libboost-filesystem-dev \
        libboost-program-options-dev libboost-date-time-dev libdb-dev libdb++-dev
    # Benzene's CMake tree (github.com/cgao3/benzene-vanilla-cmake) unpacked in /tmp/mohex
    python bench/patch_mohex.py /tmp/mohex
    mkdir -p /tmp/mohex/build && cd /tmp/mohex/build && cmake .. && nice -n 19 make -j1 mohex
    # the binary and its data files (patterns, swap table) in one folder: a seat may
    # read only its program's folder (the sandbox), and MoHex looks beside itself first
    mkdir -p /tmp/mohex/bin && cp /tmp/mohex/build/src/mohex/mohex /tmp/mohex/share/* /tmp/mohex/bin/
    export ARENA_MOHEX=/tmp/mohex/bin/mohex

Keep ``--out`` outside that tree (``--out /tmp/mohex-games``): a program's folder that
holds the seats' folders is not shown to the seat whole, and MoHex then dies at
``boardsize`` for want of its pattern files (every game "not played").

``--mohex-patch-check`` first lets B play out, both sides, the positions in which an
unpatched MoHex crashed (``CRASH_POSITIONS``) and stops the run when it dies::

    python bench/gtp_match.py --a bot:1 --b "gtp:$ARENA_MOHEX --quiet" --games 0 --mohex-patch-check

Against the patched MoHex at equal time, one second a move for both and no playout cap
(MoHex ``time_per_move=1``: ``max_time 1``, its own time management off), 11x11, the
first opening set, 2026-11-28 (stopped at 25 of 40 games by the session's deadline;
records in the run's ``--out`` folder, not kept)::

    ARENA_SANDBOX=basic nice -n 19 python bench/gtp_match.py --a "bot:5 movetime=1000" \
        --b "gtp:$ARENA_MOHEX --quiet time_per_move=1" --games 40 --size 11 --time-total 0 \
        --openings a3,a5,a8,c2,i2,a11 --mohex-patch-check --out /tmp/mohex-games --table-every 4
      patch check, 7x7 after f2 b2 e4 f5 d6 a5 e3 c5: played to the end, no crash
      24 games: A won by connection 8, B won by connection 16, no resignation, no crash,
      no forfeit, none not played; bot median 59,520 playouts a move (198% of its quiet
      rate); load 2.93 2.54 5.21 on 2 cores
      as player 1 5/12, as player 2 3/12; either 8/24 = 33.3% [18.0%, 53.3%]
      (game 25 lost as player 1: 8/25); clock a game: bot 28.7 s, MoHex 30.6 s

The whole 40 games, 2026-11-28, the bench and both seats at nice -15 and their sessions'
scheduler groups (``/proc/PID/autogroup``) at nice -15 too, beside other jobs (load
2-19), so that the bot searched at or above its quiet rate::

    ARENA_SANDBOX=basic nice -n -15 python bench/gtp_match.py --a "bot:5 movetime=1000" \
        --b "gtp:$ARENA_MOHEX --quiet time_per_move=1" --games 40 --size 11 --time-total 0 \
        --openings a3,a5,a8,c2,i2,a11 --mohex-patch-check --out DIR
      40 games: A won by connection 12, B won by connection 28, no resignation, no crash,
      no forfeit, none not played; bot median 63,488 playouts a move (211% of its quiet
      rate); as player 1 6/20, as player 2 6/20; either 12/40 = 30.0% [18.1%, 45.4%];
      clock a game: bot 25.7 s, MoHex 26.7 s.  Records:
      bench/ladders/hex-mohex-1s-2026-11-28.tar.xz.  The goal (>= 50%) is not met.

The same 40 games again that night with a variant of level 5 whose nodes asked for
their H-search at 1,024 visits instead of 256 (more playouts; 16 of 24 self-play games
won against level 5 at 0.5 s a move), same command and priority, load 5-14::

      40 games: A won by connection 9, B won by connection 31, no resignation, no crash,
      no forfeit, none not played; bot median 79,104 playouts a move (263% of its quiet
      rate); as player 1 6/20, as player 2 3/20; either 9/40 = 22.5% [12.3%, 37.5%];
      clock a game: bot 23.4 s, MoHex 24.0 s.  Records:
      bench/ladders/hex-mohex-1s-2026-11-28-b.tar.xz.  No better than 12/40, so level 5
      kept 256.

The same 40 games on 2026-11-29, after the kernels dropped Numba's reference counting
(about 1.5x the playouts a second), same command and priority, from a
worktree at db743dc beside the ElephantEye series (load 2.3-3.8)::

      40 games: A won by connection 10, B won by connection 30, no resignation, no crash,
      no forfeit, none not played; bot median 96,000 playouts a move (102% of its quiet
      rate, now 94,279); as player 1 7/20, as player 2 3/20; either 10/40 = 25.0%
      [14.2%, 40.2%]; clock a game: bot 23.4 s, MoHex 23.7 s.  Records:
      bench/ladders/hex-mohex-1s-2026-11-29.tar.xz.  Half as many playouts again bought
      nothing measurable: 12/40, 9/40 and 10/40 at 63,488, 79,104 and 96,000 playouts a
      move.

"Equal time" is what each side is told, not what it takes: over those 40 games the
bot's median answer took 1.00 s (0.93 s of CPU), MoHex's 1.42 s (1.32 s of CPU; 10 %
of its answers over 1.70 s).  ``max_time 1`` bounds, it seems, MoHex's search but not
the work it does around it; only their means are close (0.88 s and 0.89 s), since
MoHex answers decided positions at once.  The first series above was the same (1.00 s
and 1.41 s).

Every game was decided by a connection on the board.  So, with MoHex's crashes gone,
level 5 at one second a move is weaker than MoHex at one second: the 65 % of the
1,000-playout series above came from MoHex's crashes in positions its solver gave the
bot, which the old table counted as wins.

``--out DIR`` keeps every game's arena record, HEX.OUT and SGF in ``DIR/game-NNN/``;
``--a-plays 1`` (or 2) gives A the same colour in every game; ``--openings a3,c2,...``
sets each listed first move on the board for a pair of games, A playing each colour
once.  Each game's line names its opening and whether it was swapped.

Against MoHex (cgao3/benzene-vanilla-cmake, built with -O3, at its defaults: the arena
turns its time management on and sends ``time_left``), 11x11, on a shared 2-core machine
(load about 10), 2026-11-23::

    python bench/gtp_match.py --a bot:5 --b "gtp:$ARENA_MOHEX --quiet" --games 12 --size 11
      bot:5 wins 9/12 [46.8%, 91.1%]: all 9 on MoHex's time-out; MoHex won 3/3 games
      decided on the board. MoHex used 19.0 s of its 20 s a game: its pre-search and
      VC work (about 3 s a move here) lie outside its own time budget.
    python bench/gtp_match.py --a bot:5 --b "gtp:$ARENA_MOHEX --quiet" --games 10 --size 11 --time-total 60
      bot:5 wins 3/10 [10.8%, 60.3%] (as player 1: 3/5, as player 2: 0/5): all 3 on
      MoHex's time-out; MoHex won all 7 games decided on the board (bot 23.7 s, MoHex
      47.1 s of clock a game).

So the built-in bot is clearly weaker than MoHex over the board; with a tight clock on
a loaded machine MoHex's overrun decides most games.

Against MoHex at 1,000 playouts a move (``max_games 1000``; no clock, so bot:5 plays its
6,000 untimed playouts, about 1 s a move on 9x9 and 1.7 s on 11x11 here), 2026-11-23,
games MoHex lost by its SIGSEGV scored by the position's solved value (MoHex's own
``dfpn-solve-state``; every such game so far was solved as a win for the bot)::

    M='gtp:'$ARENA_MOHEX' --quiet cmd="param_mohex max_games 1000"'
    ARENA_SANDBOX=basic python bench/gtp_match.py --a bot:5 --b "$M" --games 10 --size 9 --time-total 0
      bot:5 wins 3/10 [10.8%, 60.3%]: as player 1 3/5 (all 3 on MoHex's crash in a
      position solved as won for the bot), as player 2 0/5.
    ARENA_SANDBOX=basic python bench/gtp_match.py --a bot:5 --b "$M" --games 8 --size 9 --swap --time-total 0
      bot:5 wins 5/8 [30.6%, 86.3%]: as player 1 1/4, as player 2 4/4 (all 5 on MoHex's
      crash, each solved as won for the bot).
    ARENA_SANDBOX=basic python bench/gtp_match.py --a bot:5 --b "$M" --games 6 --size 11 --time-total 0
      bot:5 wins 0/6 [0.0%, 39.0%] (0/3 as each colour).

The same with level 5's virtual connections at the root (games/hex/vcs.py), its centre
opening without the pie rule and its openings on player 2's edges with it, at one second
a move (``bot:5 movetime=1000``; MoHex took about 0.3 s a move), 2026-11-24, scored by
the solved value as above (every bot win was such a game)::

    ARENA_SANDBOX=basic python bench/gtp_match.py --a "bot:5 movetime=1000" --b "$M" --games 20 --size 9 --time-total 0
      bot:5 wins 9/20 [25.8%, 65.8%]: as player 1 9/10, as player 2 0/10; with --seed 2,
      6/20 (6/10 and 0/10); together 15/40 [24.2%, 53.0%].
    ARENA_SANDBOX=basic python bench/gtp_match.py --a "bot:5 movetime=1000" --b "$M" --games 12 --size 11 --time-total 0
      bot:5 wins 4/12 [13.8%, 60.9%]: as player 1 3/6, as player 2 1/6; with --seed 2,
      4/12 (4/6 and 0/6); together 8/24 [18.0%, 53.3%].
    ARENA_SANDBOX=basic python bench/gtp_match.py --a "bot:5 movetime=1000" --b "$M" --games 12 --size 9 --swap --time-total 0
      bot:5 wins 8/12 [39.1%, 86.2%]: as player 1 2/6, as player 2 6/6 (MoHex opened
      in the centre every time and the bot swapped it).
    ARENA_SANDBOX=basic python bench/gtp_match.py --a "bot:5 movetime=1000" --b "$M" --games 12 --size 11 --swap --time-total 0
      bot:5 wins 6/12 [25.4%, 74.6%]: as player 1 1/6 (MoHex swapped every opening),
      as player 2 5/6 (MoHex opened on h4 and the bot swapped it).

Without the pie rule, player 2 faces MoHex's centre opening, a proven win for player 1
on 9x9, so half the games are all but lost whatever the bot does.  With it, an opening MoHex
does not swap is one its table (Benzene's swap-moves.txt) holds for a loss: as player 1
the bot opening on a9 or k3 (HexGui's names; the third cell from an acute corner on
player 2's edge, next to the cells MoHex swaps) on 11x11 was never swapped but won 1/8
(``--a-plays 1 --swap``), no better than its edge openings, which MoHex swapped (1/6).

So the fair comparison is the one Hex programs are compared by: a set of first moves,
each played once with each program as player 1 (``--openings``), which cancels the
first move's advantage.  With the openings strong players call about fair on 11x11 and
a mix of won and lost ones on 9x9 (each line 12 games, 2026-11-24, solved values as above)::

    ARENA_SANDBOX=basic python bench/gtp_match.py --a "bot:5 movetime=1000" --b "$M" --games 12 --size 11 --time-total 0 --openings a3,a5,a8,c2,i2,a11
      6/12 (as player 1 3/6, as player 2 3/6)
    ... --size 11 --openings a4,a6,a7,c2,i2,a11 --seed 2:   4/12 (2/6, 2/6)
    ... --size 11 --openings a3,a6,a8,b2,i2,k1 --seed 3:    2/12 (2/6, 0/6)
      11x11 together: 12/36 = 33% [20.2%, 49.7%] (as player 1 7/18, as player 2 5/18)
    ... --size 9 --openings a3,a5,c2,b3,h2,a9:              2/12 (2/6, 0/6)
    ... --size 9 --openings a4,a6,a7,c2,g2,b8 --seed 2:     4/12 (2/6, 2/6)
    ... --size 9 --openings a2,a4,a8,b2,b3,h2 --seed 3:     3/12 (2/6, 1/6)
      9x9 together: 9/36 = 25% [13.8%, 41.1%] (as player 1 6/18, as player 2 3/18)

Three times the time does not close the gap: ``bot:5 movetime=3000`` won 6/12 of the
first 11x11 set (5/6 as player 1, 1/6 as player 2; 6/12 at one second) and 3/12 of the
first 9x9 set (3/6, 0/6; 2/12 at one second).

Every bot win was again a MoHex crash in a position solved as won for the bot.  Where
the bot loses, bench/hex_game_review.py shows why: in a 9x9 game from c2 it held a won
position at seven of its moves and played a losing move at each; the wins there take
deeper reading than a second of the bot's search.  (``ARENA_SANDBOX=basic``
because MoHex reads its pattern files from beside its binary, which the strict sandbox
hides when that is under /tmp.)

The same sets (each line 12 games, one second a move, MoHex at 1,000 playouts, games
MoHex lost by its crash scored by the solved value), 2026-11-28, as level 5 gained its
compiled search (games/hex/fast_mcts.py; 91,000-107,000 playouts a second on 9x9 and
92,000 on 11x11 where the pure-Python one makes 3,800: bench/hex_playout_rate.py) and
then MoHex's kind of knowledge inside the tree (the compiled H-search at every node
with 256 visits)::

    compiled, no knowledge in the tree, first sets:    9x9 4/12, 11x11 3/12
    knowledge at 256 visits, root H-search in Python:  9x9 6/12, 11x11 5/12
    knowledge, compiled root H-search (three sets):    9x9 4/12, 6/12, 5/12 = 15/36 = 41.7% [27.1%, 57.8%]
                                                       11x11 7/12, 6/12 (13/24 = 54.2% [35.1%, 72.1%])
    with MCTS-solver, but the root playing a move proven lost for its old visits:
                                                       9x9 7/12, 6/12, 6/12 = 19/36 = 52.8% [37.0%, 68.0%]
                                                       11x11 5/12, 4/12, 1/8 (stopped; the flaw found)
    MCTS-solver with the root's choice mended:         9x9 6/12, 5/12, 4/12 = 15/36 = 41.7% [27.1%, 57.8%]
                                                       11x11 6/12, 9/12, 7/12 = 22/36 = 61.1% [44.9%, 75.2%]

Ten times the playouts alone did not help (the first line); the knowledge did.  The
bot still wins far more as player 1 than as player 2 (10/18 against 5/18 on 9x9 and
14/18 against 8/18 on 11x11 in the last line): the openings of these sets favour player 1, and MoHex's H-search, the fuller
of the two, sees a lost position sooner.  Every bot win was still a MoHex crash in a
position solved as won for the bot.

What does not close the 9x9 gap (same three sets, 2026-11-28; ``--seed 4,5,6`` replays
them with other seeds for the bot)::

    bot:5 movetime=2000, twice the time:               9x9 5/12, 5/12, 4/12 = 14/36 = 38.9% [24.8%, 55.1%]
    H-search at 64 visits, not 256 (seeds 1-3, 4-6):   9x9 17/36 and 13/36 = 30/72 = 41.7% [31.0%, 53.2%]

    the bot as it is (RAVE update sped up, same statistics), seeds 4, 5, 6:
                                                       9x9 6/12, 5/12, 6/12 = 17/36 = 47.2% [32.0%, 63.0%]
                                                       11x11 5/12, 4/12, 6/12 = 15/36 = 41.7% [27.1%, 57.8%]
      with seeds 1-3 above:                            9x9 32/72 = 44.4% [33.5%, 55.9%] (player 1 22/36, player 2 10/36)
                                                       11x11 37/72 = 51.4% [40.1%, 62.6%] (player 1 22/36, player 2 15/36)

Neither change moved the score from 41.7%, so neither was kept; and the replay shows
that 11x11's 61.1% was a lucky draw: over 72 games the bot is about even there.  What
the games show instead is the opening: to the sets' edge openings MoHex answers next to the stone (to a4, b2
in all four games; to a3, a2), the bot near the centre (e5, f4), and a4 was lost in
all four games, as either colour.  MoHex gets those local answers from its learned
pattern weights (its priors and playouts); the bot's shape priors are hand-made.

So level 5 learned its own (2026-11-28): move-pattern gammas fitted to 120 games of
MoHex against itself (games/hex/patterns.py, bench/hex_patterns.py; the table names
MoHex's move first in 59 % of held-out positions, the hand-made priors in 7 %), added to
selection as a progressive bias.  They cost about half the playouts (9x9 40,000 a second
against 71,000 without them, 11x11 30,000 against 62,000: bench/hex_playout_rate.py)
and pay for it.  The same three sets and six seeds as the bot as it was::

    9x9   seeds 1-3 7/12, 10/12, 6/12; seeds 4-6 8/12, 7/12, 10/12
          = 48/72 = 66.7% [55.2%, 76.5%] (player 1 30/36, player 2 18/36 = 50.0%)
    11x11 seeds 1-3 9/12, 9/12, 6/12; seeds 4-6 6/12, 10/12, 7/12
          = 47/72 = 65.3% [53.8%, 75.2%] (player 1 26/36, player 2 21/36 = 58.3%)

against 44.4% and 51.4% over the same games without them: both intervals now lie
above 50%.  MoHex used about 6.5 s of a 9x9 game and 16 s of an 11x11 one (0.3-0.5 s
a move), the bot 13.5 s and 23.5 s (one second a move, less when the search is
decided).  As before, MoHex lost most games by crashing in a position its own solver
gives to the bot (93 of the 95 bot wins; the other 2 were connected on the board); three
crashes were solved as MoHex's wins and scored so.
"""
from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from bench.hex_game_review import dfpn_winners  # noqa: E402
from bench.stats import (QUIET_RATES, machine_load, median, search_effort,  # noqa: E402
                         unplayed_reason, wilson_interval)
from games.api import Termination  # noqa: E402
from games.hex.notation import colour_of_seat, from_hexgui, to_hexgui  # noqa: E402
from games.registry import plugin  # noqa: E402
from runner.match import Match, default_record_path, time_control_from_options  # noqa: E402
from runner.seats import make_seat  # noqa: E402


#: Seconds a fresh engine may take to solve the position its crashed copy left.
SOLVE_SECONDS = 120


def play_game(index: int, args, folder: Path) -> dict:
    """Game ``index``: A is player 1 when index is even (or as ``--a-plays`` fixes)."""
    hex_plugin = plugin("hex")
    a_first = {"both": index % 2 == 0, "1": True, "2": False}[args.a_plays]
    specs = [args.a, args.b] if a_first else [args.b, args.a]
    seed = args.seed * 1000 + index
    options = hex_plugin.new_game().spec.resolve_options(None, {
        "size": args.size, "swap": args.swap, "time_total": args.time_total,
        "time_per_move": args.time_per_move, "position": opening_position(index, args)})
    seats = [make_seat(spec, hex_plugin, seed + n) for n, spec in enumerate(specs)]
    a_seat = 0 if a_first else 1
    efforts: list[tuple[int, float]] = []
    checked = next((n for n in (a_seat, 1 - a_seat) if track_bot_effort(seats[n], efforts)), None)
    record = default_record_path(folder, "hex") if args.out else None
    match = Match(hex_plugin, options, seats, seed=seed, record_path=record,
                  time_control=time_control_from_options(options),
                  workdir=None if args.out else folder, out_dir=folder if args.out else None)
    start = time.perf_counter()
    outcome = match.run()
    common = {"a_seat": a_seat, "seconds": time.perf_counter() - start, "effort": efforts,
              "checked": None if checked is None else ("A" if checked == a_seat else "B"),
              "quiet_rate": quiet_rate_of(seats[checked], args.size) if checked is not None else None}
    why = unplayed_reason(match, outcome)
    if why is not None:
        return {**common, "not_played": why}
    solved = solved_crash(match, outcome)
    return {**common, "won": outcome.winners == (a_seat,), "reason": outcome.reason.value,
            "loser": None if not outcome.winners else 1 - outcome.winners[0],
            "solved": None if solved is None else solved == a_seat,
            "moves": len(match.turns),
            "opening": opening(match.states[0], match.states[-1].history),
            "a_time": match.time_used[a_seat], "b_time": match.time_used[1 - a_seat]}


def track_bot_effort(seat, efforts: list) -> bool:
    """When ``seat`` is a built-in Hex bot, note (playouts, seconds) of each move it
    searches in ``efforts`` (the bot's answer does not carry them) and return True."""
    bot = getattr(seat, "bot", None)
    if bot is None or not hasattr(bot, "last_playouts"):
        return False
    ask = seat.ask

    def counted(state, index, limit):
        bot.last_playouts = 0             # a move played without a search (a swap) counts none
        answer = ask(state, index, limit)
        if answer.failure is None and bot.last_playouts:
            efforts.append((bot.last_playouts, answer.elapsed))
        return answer

    seat.ask = counted
    return True


def quiet_rate_of(seat, size: int) -> float | None:
    """Playouts a second the seat's bot reaches on a quiet machine at this size, when
    bench/stats.py has the figure (level 5 compiled, 9x9 and 11x11)."""
    from games.hex.mcts import HexSearch

    bot = seat.bot
    if getattr(bot, "level", 0) != 5 or getattr(bot, "search_class", HexSearch) is HexSearch:
        return None
    return QUIET_RATES.get(f"hex compiled {size}")


def opening_position(index: int, args) -> str:
    """Game ``index``'s start position: player 1's stone on the opening ``--openings``
    gives that pair of games (each opening is played once with A as each colour), or the
    empty board."""
    if not args.openings:
        return ""
    cell = from_hexgui(args.openings[(index // 2) % len(args.openings)])
    rows = [["."] * args.size for _ in range(args.size)]
    rows[cell.row - 1][cell.col - 1] = "1"
    return "/".join("".join(row) for row in rows)


def opening(start, history) -> str:
    """The first move in HexGui's notation, with ", swapped" when player 2 took it, or
    the stone ``--openings`` set ("set a3")."""
    stones = [index for index, value in enumerate(start.cells) if value]
    if stones:
        return "set " + ",".join(to_hexgui(start.move_at(index)) for index in stones)
    if not history:
        return "-"
    swapped = len(history) > 1 and history[1].is_swap
    return to_hexgui(history[0]) + (", swapped" if swapped else "")


def solved_crash(match, outcome) -> int | None:
    """When a GTP engine crashed on its own move (MoHex's SIGSEGV in decided positions),
    the seat the position is won for, as a fresh copy of the same engine solves it with
    Benzene's ``dfpn-solve-state``; None for other endings or when it cannot say."""
    if outcome.reason is not Termination.CRASH or not outcome.winners:
        return None
    crashed = match.seats[1 - outcome.winners[0]]
    state = match.states[-1]
    if getattr(crashed, "kind", "") != "gtp":     # (the state is "terminal": by the forfeit)
        return None
    try:
        return dfpn_winners(crashed.argv, match.states[0], [state], None, SOLVE_SECONDS)[0]
    except (OSError, subprocess.TimeoutExpired):
        return None


#: Positions (size, moves in HexGui's names) in which an unpatched MoHex died of SIGSEGV
#: on its own move: its ``MostOverlappingMove`` found no cell blocking the winner's
#: connections, returned -1, and MoHex played it (see bench/patch_mohex.py).
CRASH_POSITIONS = [(7, "f2 b2 e4 f5 d6 a5 e3 c5")]
#: MoHex's setting for the check: a short search, so a game to the end takes seconds.
CHECK_SETTINGS = ["param_mohex max_games 300", "param_mohex use_time_management 0"]


def mohex_patch_check(argv: list[str], size: int, moves: str, timeout: float = 120) -> str | None:
    """Let the engine ``argv`` play both sides from the position ``moves`` on a
    ``size`` board to the end (a connection or a resignation); None when every answer was
    a legal move, else what went wrong (the crash an unpatched MoHex dies of here)."""
    hex_game = plugin("hex").new_game()
    state = hex_game.new_initial_state(hex_game.spec.resolve_options(None, {"size": size}), 1)
    for word in moves.split():
        state.push(from_hexgui(word))
    with tempfile.TemporaryDirectory(prefix="arena-mohex-check-") as folder:    # MoHex writes a log
        engine = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, cwd=folder)
        killer = threading.Timer(timeout, engine.kill)
        killer.start()
        try:
            return play_out(engine, state, moves)
        finally:
            killer.cancel()
            engine.kill()
            engine.wait()


def play_out(engine, state, moves: str) -> str | None:
    """The engine plays the position ``state`` (reached by ``moves``) to its end."""
    def ask(command: str) -> str | None:
        engine.stdin.write(command + "\n")
        engine.stdin.flush()
        lines = []
        while True:
            line = engine.stdout.readline()
            if not line:
                return None                                    # the engine died
            if not line.strip() and lines:
                return "\n".join(lines)
            if line.strip():
                lines.append(line.strip())

    def gone() -> str:
        engine.wait()
        code = engine.returncode
        return f"the engine died ({'signal ' + str(-code) if code < 0 else 'exit code ' + str(code)})"

    try:
        for command in [f"boardsize {state.size}", *CHECK_SETTINGS,
                        *(f"play {colour_of_seat(n % 2)} {word}" for n, word in enumerate(moves.split()))]:
            answer = ask(command)
            if answer is None:
                return gone() + f" at {command!r}"
            if not answer.startswith("="):
                return f"{command!r}: {answer}"
        while state.winner() is None:
            answer = ask(f"genmove {colour_of_seat(state.current)}")
            if answer is None:
                return gone() + f" on its move after {len(state.history)} moves"
            word = answer.lstrip("=").strip()
            if word.lower() == "resign":
                return None
            try:
                move = from_hexgui(word)
                state.check_move(state.current, move)
                state.push(move)
            except Exception as error:         # noqa: BLE001 - any bad answer is the verdict
                return f"it answered {answer!r} after {len(state.history)} moves: {error}"
    except (BrokenPipeError, OSError):
        return gone()
    return None


#: Endings decided by the game itself: a connection, or a side that gave up.  Only these
#: count in the strength figure; a crash, a time-out or an illegal answer is a forfeit,
#: counted apart (it measures the program's robustness, not its play).
ON_THE_BOARD = ("win", "resignation")


def ending(result: dict) -> str:
    """How one game ended, from A's side: "A won by connection", "B won by resignation"
    (the other resigned), "B crashed", "A timeout" (the seat that forfeited and why), or
    "not played"."""
    if "not_played" in result:
        return "not played"
    loser = "A" if result["loser"] == result["a_seat"] else "B"
    winner = "B" if loser == "A" else "A"
    if result["reason"] == "win":
        return f"{winner} won by connection"
    if result["reason"] == "resignation":
        return f"{winner} won by resignation"
    return f"{loser} {'crashed' if result['reason'] == 'crash' else result['reason']}"


def print_endings(all_results: list[dict]) -> None:
    """One line counting every kind of ending, the kinds that decide the figure first."""
    counts = collections.Counter(ending(r) for r in all_results)
    kinds = ["A won by connection", "B won by connection", "A won by resignation",
             "B won by resignation", "B crashed", "A crashed", "not played"]
    kinds += sorted(set(counts) - set(kinds))
    print("endings: " + ", ".join(f"{kind} {counts[kind]}" for kind in kinds))


def print_table(all_results: list[dict], args) -> None:
    print()
    print(f"A = {args.a}\nB = {args.b}")
    results = [r for r in all_results if "not_played" not in r]
    left_out = [r["not_played"] for r in all_results if "not_played" in r]
    print(f"{len(results)} games played, {len(left_out)} not played (left out: a seat never started "
          f"or the referee failed); {machine_load()}")
    for why, count in collections.Counter(left_out).items():
        print(f"  not played x{count}: {why}")
    print_endings(all_results)
    decided = [r for r in results if r["reason"] in ON_THE_BOARD]
    forfeits = [r for r in results if r["reason"] not in ON_THE_BOARD]
    print(f"{len(decided)} games finished on the board or by resignation (the figure counts only "
          f"these); {len(forfeits)} ended by a forfeit (crash, time-out, illegal move), left out of it")
    checked = [r for r in all_results if r.get("checked")]
    allowed = bool(decided)
    if checked:
        efforts = [effort for r in checked for effort in r["effort"]]
        allowed_effort, line = search_effort(efforts, checked[-1]["quiet_rate"], unit="playouts")
        print(f"{checked[-1]['checked']} (built-in bot) {line}")
        allowed = allowed and allowed_effort
    else:
        print("(no seat reports its playouts: no effort check)")
    if not allowed:
        wins = sum(r["won"] for r in decided)
        print(f"A won {wins} of {len(decided)} games finished on the board or by resignation; "
              "NO STRENGTH FIGURE: " + ("no game was played" if not results else
                                        "no game finished on the board" if not decided else
                                        "see the refusal above"), flush=True)
    else:
        print("A plays (games finished on the board or by resignation)")
        print("                         games  A wins  rate    95% interval     avg moves")
        for seat, label in ((0, "player 1 (first, cols)"), (1, "player 2 (rows)       "),
                            (None, "either                ")):
            rows = [r for r in decided if seat is None or r["a_seat"] == seat]
            if not rows:
                continue
            wins = sum(r["won"] for r in rows)
            low, high = wilson_interval(wins, len(rows))
            print(f"{label}  {len(rows):5d}  {wins:6d}  {100 * wins / len(rows):5.1f}%  "
                  f"[{100 * low:5.1f}%, {100 * high:5.1f}%]  {sum(r['moves'] for r in rows) / len(rows):8.1f}")
    solved = [r for r in forfeits if r.get("solved") is not None]
    if solved:
        print(f"of the {len(forfeits)} forfeits, {len(solved)} were B's crash in a position its solver "
              f"(dfpn-solve-state) gives A {sum(r['solved'] for r in solved)} times (not in the figure)")
    if results:
        print(f"clock used per game: A {sum(r['a_time'] for r in results) / len(results):.2f} s, "
              f"B {sum(r['b_time'] for r in results) / len(results):.2f} s", flush=True)


def check_patch(spec: str) -> bool:
    """``--mohex-patch-check``: B plays out each of ``CRASH_POSITIONS``; print the verdicts."""
    seat = make_seat(spec, plugin("hex"), 1)
    argv = getattr(seat, "argv", None)
    if getattr(seat, "kind", "") != "gtp" or not argv:
        print(f"--mohex-patch-check: B ({spec}) is not a GTP engine")
        return False
    passed = True
    for size, moves in CRASH_POSITIONS:
        failure = mohex_patch_check(argv, size, moves)
        print(f"patch check, {size}x{size} after {moves}: "
              + ("played to the end, no crash" if failure is None else f"FAILED: {failure}"), flush=True)
        passed = passed and failure is None
    if not passed:
        print("B still crashes in a decided position: build MoHex with bench/patch_mohex.py's patch")
    return passed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True, help="seat A's spec (bot:N, gtp:COMMAND ..., ext:COMMAND)")
    parser.add_argument("--b", required=True, help="seat B's spec")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--size", type=int, default=11)
    parser.add_argument("--swap", action="store_true", help="play with the swap rule")
    parser.add_argument("--time-total", type=float, default=20.0, help="each side's clock per game (0: none)")
    parser.add_argument("--time-per-move", type=float, default=0.0, help="limit per answer (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--a-plays", choices=("both", "1", "2"), default="both",
                        help="A's colour: alternating (both), always player 1 or always player 2")
    parser.add_argument("--out", help="keep each game's records in OUT/game-NNN/")
    parser.add_argument("--table-every", type=int, default=10)
    parser.add_argument("--openings", type=lambda text: text.split(","), default=[],
                        help="comma-separated first moves (HexGui names, e.g. a3,c2): each is set "
                             "on the board for a pair of games, A playing each colour once")
    parser.add_argument("--mohex-patch-check", action="store_true",
                        help="first let B (a GTP MoHex) play out the positions an unpatched MoHex "
                             "crashed in; stop when it fails (bench/patch_mohex.py mends it)")
    args = parser.parse_args(argv)
    if args.mohex_patch_check and not check_patch(args.b):
        return 1
    if args.games == 0:
        return 0
    if args.openings and args.a_plays != "both":
        parser.error("--openings plays each opening with both colours; leave --a-plays out")
    for name in args.openings:
        try:
            cell = from_hexgui(name)
        except ValueError as error:
            parser.error(f"--openings: {name}: {error}")
        if cell.is_swap or max(cell.row, cell.col) > args.size:
            parser.error(f"--openings: {name} is not a cell of a {args.size}x{args.size} board")

    results = []
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="arena-gtp-match-") as scratch:
        for index in range(args.games):
            folder = Path(args.out or scratch) / f"game-{index + 1:03d}"
            result = play_game(index, args, folder)
            results.append(result)
            head = f"[{index + 1}/{args.games} {time.time() - started:5.0f}s] A as player {result['a_seat'] + 1}: "
            playouts = median(n for n, _ in result["effort"])
            effort = (f"; bot {playouts:,.0f} playouts a move" if playouts else "") + f"; {machine_load()}"
            if "not_played" in result:
                print(f"{head}NOT PLAYED, left out: {result['not_played']}{effort}", flush=True)
                continue
            print(f"{head}{'won' if result['won'] else 'lost'} ({result['reason']}"
                  f"{'' if result['solved'] is None else ', solved: A ' + ('wins' if result['solved'] else 'loses')}"
                  f", opened {result['opening']}, {result['moves']} moves, "
                  f"{result['seconds']:.1f} s{effort})", flush=True)
            if (index + 1) % args.table_every == 0 and index + 1 < args.games:
                print_table(results, args)
    print_table(results, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
