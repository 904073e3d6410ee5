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
and how long the built-in bot thought per turn (median, 99th percentile, slowest:
programs get 2 seconds).

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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import wilson_interval                # noqa: E402
from games.robot.bot import make_bot                    # noqa: E402
from games.robot.maps import load_map, map_text, shipped_maps  # noqa: E402
from games.robot.program import make_external_seat      # noqa: E402
from games.robot.rules import RANDOM_PLACEMENT, RobotGame, parse_move_text  # noqa: E402
from runner.seats import SeatInfo                       # noqa: E402

FORMATS = {"1v1": "BG", "1v3": "BGGG", "2v2": "BGBG"}


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
            ext.start(SeatInfo(game, options, seat, len(lineup), seed,
                               str(game_folder / f"seat{seat}")), state)
            seats[seat] = ext
    try:
        _play_out(game, state, lineup, seats)
    finally:
        for seat, kind in enumerate(lineup):
            if kind == "G":
                seats[seat].close()
    scores = state.scores()
    ours = [scores[s] for s, k in enumerate(lineup) if k == "B"]
    theirs = [scores[s] for s, k in enumerate(lineup) if k == "G"]
    if lineup == FORMATS["2v2"]:
        return sum(ours), sum(theirs)
    return max(ours), max(theirs)


#: Seconds the built-in bot took for each answer, over the whole run.
THINK_TIMES: list[float] = []


def _play_out(game: RobotGame, state, lineup: str, seats: dict) -> None:
    """Play ``state`` to its end, each seat answering as the bench's seats do (the
    programs of a turn run at the same time, as in a match)."""
    with ThreadPoolExecutor(max_workers=len(lineup)) as pool:
        while not state.is_terminal():
            programs = {seat: pool.submit(seats[seat].ask, state.clone(), seat, 2.0)
                        for seat in state.to_move() if lineup[seat] == "G"}
            moves = {}
            for seat in state.to_move():
                if lineup[seat] == "B":
                    start = time.perf_counter()
                    moves[seat] = seats[seat].choose(state.clone(), seat, 1.0)
                    THINK_TIMES.append(time.perf_counter() - start)
            for seat, future in programs.items():
                moves[seat] = _program_move(game, state, seat, future.result())
            state.apply(moves)


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
            start = time.perf_counter()
            losses = []
            for map_option in maps:
                for seed in range(1, args.seeds + 1):
                    for lineup in rotations(FORMATS[name]):
                        ours, theirs = play(map_option, lineup, seed, command, args.level,
                                            Path(tmp), args.compat, args.one_turn)
                        games += 1
                        wins += ours > theirs
                        if ours <= theirs:
                            losses.append(f"{Path(map_option).stem}/{lineup}/{seed} {ours}-{theirs}")
            low, high = wilson_interval(wins, games)
            print(f"  {name}: won {wins} of {games} ({100 * wins / games:.0f}%, 95% interval "
                  f"{100 * low:.0f}-{100 * high:.0f}%), {time.perf_counter() - start:.0f} s; "
                  f"{think_summary(THINK_TIMES)}")
            if losses:
                print("    not won: " + ", ".join(losses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
