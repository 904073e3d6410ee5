"""Robot: the built-in bot against the organizers' Greedy bot, 1v1, 1v3 and 2v2.

    ROBOT_ORGANIZERS_BOT=/tmp/orgbuild/Greedy ROBOT_ORGANIZERS_MAPS=/tmp/.../Simulator/Map \
        python bench/robot_strength.py [--level 4] [--seeds 2] [--formats 1v1,1v3,2v2] \
        [--maps all|shipped|theirs] [--one-turn]

``ROBOT_ORGANIZERS_BOT`` is the command of their Greedy bot, built from their sources
(a program speaking MAP.INP / MOVE.OUT, run as an ``ext:`` seat once per turn);
``ROBOT_ORGANIZERS_MAPS`` a folder of their map files (``*.txt``), played besides the
shipped maps (``--maps shipped`` or ``--maps theirs`` keeps one set).  Without the bot
the script says so and stops.

Every format's line gives the games won, the share with its 95% (Wilson) interval,
how long the built-in bot thought per turn (median, 99th percentile, slowest) and the
machine's load.

The built-in bot is held to the programs' time limit (``TIME_LIMIT``, 2 s a turn): it is
given the budget a bot seat gets from that limit, and an answer that takes longer is
played as a program's time-out is (the referee's default move) and counted.  (Before,
the bot was told 1 s but nothing stopped it: under load bot:4 took up to 15 s a turn
where Greedy had 2.)  The Robot bot counts no nodes (its look-ahead is a fixed depth),
so the machine's load shows as think time: when more than ``LATE_SHARE`` of its answers
came too late, the format's line prints NO STRENGTH FIGURE and why (the games measured a
bot the machine slowed, not the bot).  A game the referee could not finish, or in which
a Greedy seat never started, is left out and counted as not played.

A game counts as a win when the built-in side is alone in first place: 1v1 and 1v3, its
robot has more cells than every Greedy robot; 2v2, its two robots have more cells
together than the two Greedy robots.  Every map is played ``--seeds`` times per format,
and with the seats rotated so each side plays every colour.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import machine_load, wilson_interval  # noqa: E402
from games.robot.bot import make_bot                    # noqa: E402
from games.robot.maps import load_map, map_text, shipped_maps  # noqa: E402
from games.robot.program import make_external_seat      # noqa: E402
from games.robot.rules import RANDOM_PLACEMENT, RobotGame, parse_move_text  # noqa: E402
from runner.seats import BotSeat, SeatInfo              # noqa: E402

FORMATS = {"1v1": "BG", "1v3": "BGGG", "2v2": "BGBG"}
TIME_LIMIT = 2.0          # seconds a turn, for the programs and the built-in bot alike
LATE_SHARE = 0.01         # more of the bot's answers than this too late: no strength figure


class NotPlayed(Exception):
    """A game that measured nothing: a Greedy seat never started, or the referee failed."""


def play(map_option: str, lineup: str, seed: int, command: str, level: int, folder: Path,
         compat: str = "arena", one_turn: bool = False) -> tuple[int, int]:
    """One game; ``lineup`` names each seat B (built-in) or G (Greedy).  Returns the
    cells of the built-in side and of the Greedy side (best robot each, summed for 2v2)."""
    game = RobotGame()
    options = {"map": map_text(map_option), "players": len(lineup), "compat": compat}
    state = game.new_initial_state(options, seed)
    seats = {}
    game_folder = Path(tempfile.mkdtemp(dir=folder))   # no STATE.DAT from another game
    for seat, kind in enumerate(lineup):
        if kind == "B":
            seats[seat] = make_bot(level, seed * 10 + seat)
            if one_turn:
                seats[seat].lookahead_players = ()
        else:
            # The basic sandbox: the strict one's set-up changes no move, only the time.
            ext = make_external_seat("ext:" + command, command, {"sandbox": "basic"})
            seats[seat] = ext
            try:
                ext.start(SeatInfo(game, options, seat, len(lineup), seed,
                                   str(game_folder / f"seat{seat}")), state)
            except Exception as exc:
                _close_programs(lineup, seats)
                raise NotPlayed(f"seat {seat + 1} (Greedy) never started: {exc}") from exc
    try:
        _play_out(game, state, lineup, seats)
    except NotPlayed:
        raise
    except Exception as exc:
        raise NotPlayed(f"the referee failed: {type(exc).__name__}: {exc}") from exc
    finally:
        _close_programs(lineup, seats)
    scores = state.scores()
    ours = [scores[s] for s, k in enumerate(lineup) if k == "B"]
    theirs = [scores[s] for s, k in enumerate(lineup) if k == "G"]
    if lineup == FORMATS["2v2"]:
        return sum(ours), sum(theirs)
    return max(ours), max(theirs)


def _close_programs(lineup: str, seats: dict) -> None:
    for seat, kind in enumerate(lineup):
        if kind == "G" and seat in seats:
            seats[seat].close()


#: Seconds the built-in bot took for each answer, over the whole run.
THINK_TIMES: list[float] = []
#: How many of the bot's answers came after TIME_LIMIT (played as time-outs).
LATE_ANSWERS: list[float] = []


def _play_out(game: RobotGame, state, lineup: str, seats: dict) -> None:
    """Play ``state`` to its end, each seat answering as the bench's seats do (the
    programs of a turn run at the same time, as in a match)."""
    answered: dict[int, str | None] = {}       # Greedy seat -> None once it gave a move, else its failure
    with ThreadPoolExecutor(max_workers=len(lineup)) as pool:
        while not state.is_terminal():
            programs = {seat: pool.submit(seats[seat].ask, state.clone(), seat, TIME_LIMIT)
                        for seat in state.to_move() if lineup[seat] == "G"}
            moves = {}
            for seat in state.to_move():
                if lineup[seat] == "B":
                    moves[seat] = _bot_move(game, state, seat, seats[seat])
            for seat, future in programs.items():
                answer = future.result()
                if answered.get(seat, "") is not None:
                    answered[seat] = None if answer.failure is None else (
                        f"{answer.failure.value}: {answer.detail}".strip(": "))
                moves[seat] = _program_move(game, state, seat, answer)
            state.apply(moves)
    for seat, failure in answered.items():
        if failure is not None:
            raise NotPlayed(f"seat {seat + 1} (Greedy) never answered with a move: {failure}")


def _bot_move(game: RobotGame, state, seat: int, bot):
    """The built-in bot's move under the programs' limit: it is given the budget a bot
    seat gets from TIME_LIMIT (runner.seats.BotSeat.budget), and an answer after the
    limit is played as a program's time-out is, the default move."""
    start = time.perf_counter()
    move = bot.choose(state.clone(), seat, BotSeat.budget(None, seat, TIME_LIMIT))
    elapsed = time.perf_counter() - start
    THINK_TIMES.append(elapsed)
    if elapsed <= TIME_LIMIT:
        return move
    LATE_ANSWERS.append(elapsed)
    late = game.default_move(state, seat)
    return late if late is not None else RANDOM_PLACEMENT


def _program_move(game: RobotGame, state, seat: int, answer):
    """A program's answer as the referee plays it: its move, or the default move."""
    move = None
    if answer.failure is None:
        try:
            move = parse_move_text(answer.text)
            state.check_move(seat, move)
        except Exception:
            move = None
    if move is None:
        move = game.default_move(state, seat)
    return move if move is not None else RANDOM_PLACEMENT


def think_summary(times: list[float]) -> str:
    """Median, 99th percentile and slowest answer, in milliseconds."""
    if not times:
        return "no answers"
    ordered = sorted(times)
    pick = lambda share: ordered[min(len(ordered) - 1, int(share * len(ordered)))]  # noqa: E731
    return (f"think p50 {1000 * pick(0.5):.0f} ms, p99 {1000 * pick(0.99):.0f} ms, "
            f"max {1000 * ordered[-1]:.0f} ms over {len(ordered)} answers")


def format_line(name: str, wins: int, games: int, not_played: list[str], times: list[float],
                late: int, seconds: float) -> str:
    """A format's result: the share and its interval, or NO STRENGTH FIGURE and why, with
    the games left out, the bot's think times, its late answers and the machine's load."""
    lines = [f"  {name}: {games} games played, {len(not_played)} not played; {think_summary(times)}; "
             f"{late} answers over {TIME_LIMIT:g} s (played as time-outs); nodes a move: not "
             f"counted by this bot (a fixed-depth look-ahead); {machine_load()}; {seconds:.0f} s"]
    for why, count in Counter(not_played).items():
        lines.append(f"    not played x{count}: {why}")
    if not games:
        lines.append("    NO STRENGTH FIGURE: no game was played")
    elif times and late > LATE_SHARE * len(times):
        lines.append(f"    won {wins} of {games}; NO STRENGTH FIGURE: {late} of {len(times)} of the bot's "
                     f"answers ({100 * late / len(times):.1f}%) came after the {TIME_LIMIT:g} s limit, more "
                     f"than {100 * LATE_SHARE:g}%: the machine was too busy for the bot to play as itself")
    else:
        low, high = wilson_interval(wins, games)
        lines.append(f"    won {wins} of {games} ({100 * wins / games:.0f}%, 95% interval "
                     f"{100 * low:.0f}-{100 * high:.0f}%)")
    return "\n".join(lines)


def rotations(lineup: str) -> list[str]:
    return sorted({lineup[i:] + lineup[:i] for i in range(len(lineup))})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=int, default=4)
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--formats", default="1v1,1v3,2v2")
    parser.add_argument("--maps", choices=("all", "shipped", "theirs"), default="all")
    parser.add_argument("--compat", choices=("arena", "organizers"), default="arena")
    parser.add_argument("--one-turn", action="store_true",
                        help="level 4 without its look-ahead (as it played before it had one)")
    args = parser.parse_args()
    command = os.environ.get("ROBOT_ORGANIZERS_BOT")
    if not command:
        print("ROBOT_ORGANIZERS_BOT is not set (the organizers' Greedy bot, built from their "
              "sources): nothing to measure.")
        return 0
    maps = []
    their_folder = os.environ.get("ROBOT_ORGANIZERS_MAPS")
    if their_folder and args.maps != "shipped":
        for path in sorted(Path(their_folder).glob("*.txt")):
            try:
                load_map(path)
                maps.append(str(path))
            except Exception as exc:                # their H.txt is 10×10 in one copy
                print(f"  skipped {path.name}: {exc}")
    if args.maps != "theirs":
        maps += shipped_maps()
    print(f"bot:{args.level}{' (one turn ahead)' if args.one_turn else ''} against {command}, "
          f"{len(maps)} maps, {args.seeds} seed(s), rules: {args.compat}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.formats.split(","):
            wins = games = 0
            THINK_TIMES.clear()
            LATE_ANSWERS.clear()
            start = time.perf_counter()
            losses, not_played = [], []
            for map_option in maps:
                for seed in range(1, args.seeds + 1):
                    for lineup in rotations(FORMATS[name]):
                        try:
                            ours, theirs = play(map_option, lineup, seed, command, args.level,
                                                Path(tmp), args.compat, args.one_turn)
                        except NotPlayed as exc:
                            not_played.append(str(exc))
                            continue
                        games += 1
                        wins += ours > theirs
                        if ours <= theirs:
                            losses.append(f"{Path(map_option).stem}/{lineup}/{seed} {ours}-{theirs}")
            print(format_line(name, wins, games, not_played, THINK_TIMES, len(LATE_ANSWERS),
                              time.perf_counter() - start))
            if losses:
                print("    not won: " + ", ".join(losses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
