"""Robot benchmarks: simulated games per second, and the judge's overhead per turn.

    python bench/robot_bench.py [--games 20] [--turns 40]
    ARENA_ROBOT_SIMULATOR=/tmp/robot-organizers/Simulator \
        python bench/robot_bench.py --organizers [--rounds 3] [--organizers-map A.txt]
    python bench/robot_bench.py --only-sleep [--sleep-turns 40] [--sandbox both|basic|strict]
                                [--no-gate] [--wait poll] [--per-seat-threads]

1. Whole 21×21 games (map scatter-21, K = 10, 110 turns unless everyone leaves) with
   four built-in bots, per bot level; "rules only" plays random legal moves to show
   the rules' own cost.
2. The judge: a compiled C++ sample bot (or the Python one without g++) driven through
   the external seat; overhead = the seat's whole ``ask`` minus the program's own run
   time (writing MAP.INP, snapshots, reading MOVE.OUT, deleting files), and a whole
   Match's wall time per turn minus the slowest program of each turn.
3. The judge with four programs that think 0.2-1.5 s (a C program sleeping a time it
   computes from MAP.INP, so the bench knows each program's true run time): a Match's
   wall time per turn minus the slowest program's true run time, p50 and p90 over
   ``--sleep-turns`` turns, in the basic and the strict sandbox (each measured in a
   process of its own, as an arena runs with one level), with the match's record
   written.  The run time is measured two ways and both are printed: from
   outside, as `time` does (a small wrapper forks, execs and waits for the program:
   exec to exit; the wrapper's own exec counts against the judge), which is the
   issue's definition and what the goal (p90 at most 5 ms) is judged on; and from
   inside (the program's clock from main() to exit: its exec and dynamic loader count
   as overhead).  ``--no-gate`` starts every run on its turn (no run prepared ahead:
   the old way), ``--wait poll`` waits with Popen.wait's polling, and
   ``--per-seat-threads`` asks each program on a thread of its own (no ProgramsTurn),
   to see what each change saves.  Last, the system's floor: the same gates, wrapper and
   sleeper opened and waited for with no judge work (what no judge can go below).
4. ``--organizers``: the arena against the organizers' own referee (their
   ``Simulator/main.py``, its folder given by ``ARENA_ROBOT_SIMULATOR``; skipped, saying
   so, when unset).  Four copies of their C++ Greedy bot (``Source/bot2.cpp`` beside
   the Simulator, built with g++ -O2: the one-step greedy bot; ``bot1.cpp`` adds a
   search for items; or ``ARENA_ROBOT_GREEDY``, a built one) play their map
   (``--organizers-map``) under their referee (a copy in a temporary folder, run with
   this Python and a no-op ``tqdm``) and under the arena's strict sandbox (an
   in-process Match, record written), alternating for ``--rounds`` rounds: ms per turn
   of each, and the ratio (the goal: the arena at least 5x faster).  Then part 3's
   judge overhead in the strict sandbox (the goal: p90 at most 5 ms at load 5 or
   less), with ``uptime``'s load before and after.

   Each round also prints the CPU per turn of each side (their referee with every bot
   it ran; the arena's process, its sandboxes and all they ran, through a cgroup the
   bench joins): a figure a loaded machine cannot hide.

   Measured (2 cores shared with other work, their Source/bot2.cpp, map A.txt)::

       arena                        load    their referee    arena strict    ratio   overhead p90
       warm sandbox (this)          9-15    106-136 ms       31-53 ms        3.2x    11.6 ms
       a sandbox per turn           17-23   125-178 ms       139-193 ms      0.9x    20.2 ms
         (ARENA_WARM=0)
       warm, quiet                  0.2-0.4 17.7-24.0 ms     7.4-10.9 ms     2.3x    5.2 ms
       warm, runs spawned at once   18-22   363-580 ms       99-106 ms       5.1x    157 ms
         (CPU per turn: theirs 19-32 ms, the arena 14-20 ms; the same at 9e35dc1: 16-26 ms)
       the same, quiet              0.2     14.7-20.9 ms     6.0-8.1 ms      3.2x    4.1 ms
         (CPU per turn: theirs 12.8-16.2 ms, the arena 10.0-13.8 ms; 2026-11-28)
       the same, 4 busy processes   4.7-5.1 72.2-86.9 ms     13.8-15.5 ms    5.5x    7.8 ms
         (setsid, beside it; CPU per turn: theirs 12.6-17.3 ms, the arena 11.0-12.1 ms)
       final, quiet (2026-11-29)    0.6-3.0 16.4-22.2 ms     5.6-7.3 ms       2.8x    3.3 ms
         (bots alone 2.4-3.1 ms a turn: no referee could be more than 6.6x faster here)
       final, 4 busy processes      2.8-4.2 107-125 ms       16.5-19.8 ms     7.1x    8.6 ms
         (bots alone 15.6 ms: at most 8.0x; the system's floor p90 is 7.1 ms at this load)

   The goals are judged at load 5 or less.  Quiet, the overhead's p90 is met (4.1 ms
   on the outside measure; 5.1 ms inside) and the ratio is not (3.2x); at load about 5
   the ratio is met (5.5x) and the p90 is not (7.8 ms).  "Bots alone" (each turn of the
   arena's game, its four Greedy bots started at once as plain processes, no sandbox and
   no judge) bounds any referee: quiet, 2.2-3.1 ms a turn, so at most 6.6-8.6x; and the
   system's floor (part 3's gates, wrapper and sleepers with no judge work) already has
   a p90 of 7.1-8.1 ms beside four busy processes at load 4, above the 5 ms goal.  At load 20 a ratio says
   little (their sequential referee suffers most).
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.robot.maps import new_state  # noqa: E402
from games.robot import PLUGIN                     # noqa: E402
from games.robot.bot import make_bot               # noqa: E402
from games.robot.program import make_external_seat  # noqa: E402
from games.robot.rules import RobotGame            # noqa: E402
from runner import cgroups                          # noqa: E402
from runner.match import Match                     # noqa: E402
from runner.sandbox import BASIC, STRICT, strict_problem  # noqa: E402
from runner.seats import SeatInfo, make_seat       # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "games" / "robot" / "examples"


def simulate(levels, games: int, map_name="scatter-21") -> tuple[float, float]:
    """(games per second, turns per second) for bots of ``levels`` (0 = random moves)."""
    turns = 0
    start = time.perf_counter()
    for seed in range(games):
        state = new_state({"map": map_name, "players": len(levels)}, seed)
        rng = random.Random(seed)
        bots = [make_bot(level, seed * 10 + i) if level else None for i, level in enumerate(levels)]
        while not state.is_terminal():
            moves = {}
            for seat in state.to_move():
                bot = bots[seat]
                moves[seat] = (bot.choose(state.clone(), seat, 1.0) if bot
                               else rng.choice(state.legal_moves(seat)))
            state.apply(moves)
            turns += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, turns / elapsed


def program_command(folder: Path) -> str:
    if shutil.which("g++"):
        exe = folder / "greedy_bot"
        subprocess.run(["g++", "-O2", "-o", str(exe), str(EXAMPLES / "greedy_bot.cpp")], check=True)
        return str(exe)
    return f"{sys.executable} {EXAMPLES / 'greedy_bot.py'}"


def judge_overhead(command: str, turns: int, folder: Path) -> tuple[float, float]:
    """Mean (ask time, program run time) in seconds over ``turns`` asks."""
    game = RobotGame()
    state = new_state({"map": "scatter-21", "players": 4}, 1)
    seat = make_external_seat("ext:" + command, command)
    seat.start(SeatInfo(game, {}, 0, 4, 1, str(folder / "seat")), state)
    bots = [make_bot(2, i) for i in range(4)]
    asks, runs = [], []
    while len(asks) < turns and not state.is_terminal():
        if 0 in state.to_move():
            start = time.perf_counter()
            answer = seat.ask(state, 0, 2.0)
            asks.append(time.perf_counter() - start)
            runs.append(answer.elapsed)
        state.apply({s: bots[s].choose(state.clone(), s, 1.0) for s in state.to_move()})
    return statistics.mean(asks), statistics.mean(runs)


def match_overhead(command: str, folder: Path) -> tuple[float, float, int]:
    """(wall time per turn, slowest program per turn, turns) for a 4-program Match."""
    seats = [make_seat("ext:" + command, PLUGIN, i) for i in range(4)]
    match = Match(PLUGIN, {"map": "scatter-21", "players": 4}, seats, seed=4, workdir=folder)
    start = time.perf_counter()
    match.run()
    wall = time.perf_counter() - start
    slowest = [max(a.get("elapsed", 0.0) for a in t.answers.values()) for t in match.turns]
    return wall / len(match.turns), statistics.mean(slowest), len(match.turns)


SLEEPER_C = r"""
#include <stdio.h>
#include <time.h>
/* Reads T and its colour from MAP.INP, sleeps 0.2-1.5 s (the bench's formula), stays;
   appends "T start end" (CLOCK_MONOTONIC seconds, the clock of time.perf_counter on
   Linux) to STATE.DAT: its true run time, from main() to exit. */
static double now(void) {
    struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}
int main(void) {
    double start = now();
    int m, n, k, t, x, y; char c;
    FILE *in = fopen("MAP.INP", "r");
    if (!in || fscanf(in, "%d %d %d %d %d %d %c", &m, &n, &k, &t, &x, &y, &c) != 7) return 1;
    fclose(in);
    long ms = 200 + ((t * 37 + (c - 'A') * 11) % 14) * 100;
    struct timespec d = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&d, NULL);
    FILE *out = fopen("MOVE.OUT", "w");
    if (x < 0) { x = m / 2; y = n / 2; }
    fprintf(out, "%d %d\n", x, y);
    fclose(out);
    FILE *log = fopen("STATE.DAT", "a");
    fprintf(log, "%d %.6f %.6f\n", t, start, now());
    fclose(log);
    return 0;
}
"""


TIMER_C = r"""
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
/* `time` for the sleeper: runs argv[1] (fork, exec, wait) and appends "outside START END"
   (CLOCK_MONOTONIC seconds) to STATE.DAT: the program's run time from outside, its
   exec, dynamic loader and exit included, as the issue defines it. */
static double now(void) {
    struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}
int main(int argc, char **argv) {
    int status = 0;
    if (argc < 2) return 2;
    double start = now();
    pid_t pid = fork();
    if (pid == 0) { execv(argv[1], argv + 1); _exit(127); }
    if (pid < 0 || waitpid(pid, &status, 0) < 0) return 1;
    double end = now();
    FILE *log = fopen("STATE.DAT", "a");
    if (log) { fprintf(log, "outside %.6f %.6f\n", start, end); fclose(log); }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
"""


def sleep_seconds(turn: int, seat: int) -> float:
    """What the sleeper sleeps on ``turn`` as colour ``seat`` (its C formula)."""
    return (200 + ((turn * 37 + seat * 11) % 14) * 100) / 1000


class _TimedMatch(Match):
    """Notes the time each turn ends; stops after ``limit`` turns."""

    def __init__(self, *args, limit: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.limit, self.ends = limit, [time.perf_counter()]

    def after_turn(self, info) -> None:
        self.ends.append(time.perf_counter())
        if len(self.turns) >= self.limit:
            self._control.stop = True


def sleeping_overhead(folder: Path, turns: int, sandbox: str = "",
                      record: bool = True) -> dict[str, list[float]] | None:
    """Per turn: the Match's wall time minus the slowest program's true run time, four
    programs sleeping 0.2-1.5 s, in the ``sandbox`` level ("basic", "strict"; "": the
    arena's), with a record written as every match of the app writes one.

    Two measures of the run time, both kept: ``"outside"`` (the issue's: from the exec
    to the exit, seen from outside by a small ``time``-like wrapper that forks and
    execs the program; the wrapper's own exec counts as the judge's overhead, so this
    errs against the judge) and ``"inside"`` (the program's own clock, main() to exit:
    its exec and dynamic loader count as overhead).  None without a C compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    exe, timer = _compile(compiler, folder, "sleeper", SLEEPER_C), _compile(compiler, folder, "timer", TIMER_C)
    limits = {"sandbox": sandbox} if sandbox else None
    seats = [make_seat(f"ext:{timer} {exe}", PLUGIN, i, limits) for i in range(4)]
    rows = "\n".join(["." * 21] * 21)
    match = _TimedMatch(PLUGIN, {"map": f"21 21 1000\n{rows}\n", "players": 4}, seats, seed=4,
                        workdir=folder / "sleep", limit=turns,
                        record_path=folder / "sleep.arena.jsonl" if record else None)
    match.run()
    inside: dict[int, float] = {}
    outside: dict[int, float] = {}
    for state_file in (folder / "sleep").rglob("STATE.DAT"):
        turn = None
        for line in state_file.read_text().splitlines():
            first, start, end = line.split()
            if first == "outside":
                outside[turn] = max(outside.get(turn, 0.0), float(end) - float(start))
            else:
                turn = int(first)
                inside[turn] = max(inside.get(turn, 0.0), float(end) - float(start))
    extra: dict[str, list[float]] = {"outside": [], "inside": []}
    for index in range(1, len(match.turns)):   # the first turn also starts the match
        turn = match.states[index].turn
        wall = match.ends[index + 1] - match.ends[index]
        extra["outside"].append(wall - outside[turn])
        extra["inside"].append(wall - inside[turn])
    return extra


def system_floor(folder: Path, rounds: int) -> list[float] | None:
    """What the operating system alone costs per turn, as part 3 measures it: four
    programs held at the arena's gate (:data:`runner.sandbox.GATE_SCRIPT`, no sandbox)
    in four folders with their MAP.INP already written, the gates opened back to back,
    their exits seen through pidfds; per round, the time from the first gate's opening
    to the last exit seen minus the slowest program's outside run time.  Only the
    wake-up, the wrapper's exec, the exit and its notice are left: no judge work.
    None without a C compiler or pidfds."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or not hasattr(os, "pidfd_open"):
        return None
    from runner.sandbox import GATE_SCRIPT, GATE_SHELL
    exe, timer = _compile(compiler, folder, "sleeper", SLEEPER_C), _compile(compiler, folder, "timer", TIMER_C)
    floors = []
    for turn in range(1, rounds + 1):
        seats = [folder / f"floor{turn}-{seat}" for seat in range(4)]
        procs = []
        for seat, cwd in enumerate(seats):
            cwd.mkdir()
            (cwd / "MAP.INP").write_text(f"21 21 1000 {turn} 0 0 {'ABCD'[seat]}\n")
            procs.append(subprocess.Popen([GATE_SHELL, "-c", GATE_SCRIPT, "gate", str(timer), str(exe)],
                                          cwd=cwd, stdin=subprocess.PIPE, start_new_session=True))
        time.sleep(0.1)                       # every gate waits on its read
        poller, pidfds = select.poll(), []
        for proc in procs:
            pidfds.append(os.pidfd_open(proc.pid))
            poller.register(pidfds[-1], select.POLLIN)
        opened = time.perf_counter()
        for proc in procs:
            os.write(proc.stdin.fileno(), b"go\n")
            proc.stdin.close()
        left = len(procs)
        while left:
            ready = poller.poll()
            last_seen = time.perf_counter()
            for fd, _ in ready:
                poller.unregister(fd)
            left -= len(ready)
        for proc, fd in zip(procs, pidfds):
            proc.wait()
            os.close(fd)
        slowest = 0.0
        for cwd in seats:
            for line in (cwd / "STATE.DAT").read_text().splitlines():
                first, start, end = line.split()
                if first == "outside":
                    slowest = max(slowest, float(end) - float(start))
        floors.append(last_seen - opened - slowest)
    return floors


def _compile(compiler: str, folder: Path, name: str, source: str) -> Path:
    """``source`` built as ``folder/name``: static when the system can (a smaller exec),
    else dynamic."""
    (folder / f"{name}.c").write_text(source)
    exe = folder / name
    for static in (["-static"], []):
        built = subprocess.run([compiler, "-O2", *static, "-o", str(exe), str(folder / f"{name}.c")],
                               capture_output=True)
        if built.returncode == 0:
            return exe
    raise RuntimeError(f"{compiler} could not build {name}: {built.stderr.decode(errors='replace')}")


class _NoPidfd:
    """``os`` without ``pidfd_open``: run_once falls back to Popen.wait (polling)."""

    def __getattr__(self, name):
        if name == "pidfd_open":
            raise AttributeError(name)
        return getattr(os, name)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--sleep-turns", type=int, default=25)
    parser.add_argument("--only-sleep", action="store_true",
                        help="measure only part 3 (four programs thinking 0.2-1.5 s)")
    parser.add_argument("--wait", choices=("pidfd", "poll"), default="pidfd",
                        help="poll: measure Popen.wait's polling instead, for comparison")
    parser.add_argument("--sandbox", choices=("both", BASIC, STRICT), default="both",
                        help="the sandbox level(s) part 3 measures")
    parser.add_argument("--no-gate", action="store_true",
                        help="start each run when its turn comes (no run prepared ahead), "
                             "for comparison")
    parser.add_argument("--per-seat-threads", action="store_true",
                        help="ask each program on a thread of its own (no ProgramsTurn), "
                             "for comparison")
    parser.add_argument("--organizers", action="store_true",
                        help="part 4 only: the arena against the organizers' referee "
                             "(ARENA_ROBOT_SIMULATOR)")
    parser.add_argument("--rounds", type=int, default=3, help="part 4's alternated rounds")
    parser.add_argument("--organizers-map", default="A.txt", help="part 4's map, in their Map/")
    parser.add_argument("--one-level", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.organizers:
        organizers_report(args.rounds, args.organizers_map, args.sleep_turns)
        return
    if args.per_seat_threads:
        import runner.program_seats
        runner.program_seats.RunEachTurnSeat.stage = lambda self, state, seat, limit: None
    if args.wait == "poll":
        import runner.runs
        runner.runs.os = _NoPidfd()
    if args.no_gate:
        import runner.program_seats
        runner.program_seats.can_gate = lambda: False
    levels = [BASIC, STRICT] if args.sandbox == "both" else [args.sandbox]
    if args.one_level:
        _level_report(args.sleep_turns, args.sandbox)
        return
    if args.only_sleep:
        _sleep_report(args.sleep_turns, levels, _flags(args))
        return
    print(f"Simulated 21x21 games (scatter-21, 4 robots), {args.games} games each:")
    for label, bots in (("rules only (random moves)", [0, 0, 0, 0]),
                        ("4 x painter (level 2)", [2, 2, 2, 2]),
                        ("4 x territory (level 3)", [3, 3, 3, 3]),
                        ("4 x strongest (level 4)", [4, 4, 4, 4])):
        games = args.games if bots[0] < 3 else max(2, args.games // 4)
        per_game, per_turn = simulate(bots, games)
        print(f"  {label:28s} {per_game:8.1f} games/s  {per_turn:9.0f} turns/s  "
              f"({1000 / per_game:.0f} ms per game)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        command = program_command(folder)
        ask, run = judge_overhead(command, args.turns, folder)
        print(f"Judge, one seat ({Path(command.split()[-1]).name}), {args.turns} turns:")
        print(f"  ask {ask * 1000:.1f} ms, program run {run * 1000:.1f} ms, "
              f"overhead {(ask - run) * 1000:.1f} ms per turn")
        wall, slowest, turns = match_overhead(command, folder / "match")
        print(f"Match with 4 programs, {turns} turns:")
        print(f"  wall {wall * 1000:.1f} ms per turn, slowest program {slowest * 1000:.1f} ms, "
              f"overhead {(wall - slowest) * 1000:.1f} ms per turn")
    _sleep_report(args.sleep_turns, levels, _flags(args))


#: The organizers' one-step Greedy bot, beside their Simulator folder.
GREEDY_SOURCE = Path("..") / "Source" / "bot2.cpp"
#: A no-op tqdm, so their referee runs without it installed.
TQDM_SHIM = "def tqdm(x=None, *a, **k):\n    return x\n"


def organizers_greedy(simulator: Path, folder: Path) -> Path | None:
    """Their Greedy bot: ``ARENA_ROBOT_GREEDY``, else built from their sources (None
    when it cannot be)."""
    given = os.environ.get("ARENA_ROBOT_GREEDY")
    if given:
        return Path(given)
    source = (simulator / GREEDY_SOURCE).resolve()
    if not source.is_file() or not shutil.which("g++"):
        return None
    exe = folder / "Greedy"
    subprocess.run(["g++", "-O2", "-o", str(exe), str(source)], check=True)
    return exe


def _cpu_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def their_referee(simulator: Path, greedy: Path, map_name: str, folder: Path) -> tuple[float, int, float]:
    """(wall seconds, turns, CPU seconds) of one game of four Greedy bots under their
    referee; the CPU of their referee and of every bot it ran (all waited for)."""
    work = folder / "Simulator"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(simulator, work, ignore=shutil.ignore_patterns("Match", "Players", "__pycache__"))
    (work / "Match").mkdir()
    (work / "tqdm.py").write_text(TQDM_SHIM)
    names = [f"Greedy{index}" for index in range(4)]
    for name in names:
        (work / "Players" / name).mkdir(parents=True)
        shutil.copy(greedy, work / "Players" / name / "main.exe")
    cpu = _cpu_seconds(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "main.py", map_name, "-p", *names], cwd=work,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env={**os.environ, "PYTHONPATH": str(work)}, timeout=1800)
    wall = time.perf_counter() - start
    cpu = _cpu_seconds(resource.RUSAGE_CHILDREN) - cpu
    logs = list((work / "Match").glob("*.txt"))
    if done.returncode or not logs:
        raise RuntimeError(f"their referee failed: {done.stderr[-300:]}")
    turns = sum(line.startswith("turn:") for line in logs[0].read_text().splitlines())
    return wall, turns, cpu


def arena_game(greedy: Path, map_text: str, folder: Path,
               group: Path | None = None) -> tuple[float, int, float | None, list]:
    """(wall seconds, turns, CPU seconds, the game's states) of one game of four Greedy
    bots in the arena's strict sandbox (an in-process Match with its record written, as
    the app plays one); the CPU is that of ``group`` (:func:`_counting_group`: this
    process, all its threads, and the sandboxes with all they ran), None without one."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    seats = [make_seat(f"ext:{greedy}", PLUGIN, i, {"sandbox": STRICT}) for i in range(4)]
    match = Match(PLUGIN, {"map": map_text, "players": 4}, seats, seed=4, workdir=folder / "match",
                  record_path=folder / "game.arena.jsonl")
    cpu = cgroups.cpu_seconds(group) if group else None
    start = time.perf_counter()
    match.run()
    wall = time.perf_counter() - start
    if cpu is not None:
        cpu = cgroups.cpu_seconds(group) - cpu
    return wall, len(match.turns), cpu, match.states[:len(match.turns)]


def bots_alone(greedy: Path, states: list, folder: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) per turn of the bots alone: each turn of a game the
    arena played, the robots to move run at once as plain processes (no sandbox, no
    gate, no limits), each in its own folder with that turn's MAP.INP written
    beforehand and its STATE.DAT kept, and waited for; nothing else is timed.  No
    referee that runs the same bots on this machine can take less wall time a turn than
    this, nor less CPU: it bounds the ratio any referee can reach against theirs."""
    from games.robot.protocol import write_map_inp
    seats = [folder / f"alone-{seat}" for seat in range(4)]
    for cwd in seats:
        shutil.rmtree(cwd, ignore_errors=True)
        cwd.mkdir(parents=True)
    wall = 0.0
    cpu = _cpu_seconds(resource.RUSAGE_CHILDREN)
    for state in states:
        movers = list(state.to_move())
        for seat in movers:
            (seats[seat] / "MOVE.OUT").unlink(missing_ok=True)
            (seats[seat] / "MAP.INP").write_text(write_map_inp(state, seat))
        start = time.perf_counter()
        runs = [subprocess.Popen([str(greedy)], cwd=seats[seat], stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                for seat in movers]
        for run in runs:
            run.wait()
        wall += time.perf_counter() - start
    cpu = _cpu_seconds(resource.RUSAGE_CHILDREN) - cpu
    return wall / len(states), cpu / len(states)


def _counting_group() -> tuple[Path, Path] | None:
    """A CPU-accounting group (cgroup) this process moves into, and the group it left:
    the warm sandboxes' own groups are then made inside it, so its figure holds every
    process the arena starts (their bwrap, launcher and runs are not all waited for by
    this process, as ``getrusage`` would need).  None where none can be made."""
    found = cgroups.hierarchy("cpuacct")
    group = cgroups.create("cpuacct", "bench")
    if found is None or group is None:
        return None
    left = found[0] / found[1].lstrip("/")
    if not cgroups.add_pid(group, os.getpid()):
        cgroups.remove(group)
        return None
    cgroups.hierarchy.cache_clear()       # new groups are made under the one joined
    return group, left


def _leave_group(counting: tuple[Path, Path] | None) -> None:
    """Back to the group this process was in; the counting group and its sub-groups go."""
    if counting is None:
        return
    group, left = counting
    cgroups.add_pid(left, os.getpid())
    cgroups.hierarchy.cache_clear()
    cgroups.remove_pending()
    for inner in sorted((p for p in group.rglob("*") if p.is_dir()),
                        key=lambda p: len(p.parts), reverse=True):
        cgroups.remove(inner)
    cgroups.remove(group)


def _uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return f"load average {os.getloadavg()[0]:.2f}"


def organizers_report(rounds: int, map_name: str, sleep_turns: int) -> None:
    """Part 4 (see the module's doc)."""
    simulator = os.environ.get("ARENA_ROBOT_SIMULATOR")
    if not simulator:
        print("ARENA_ROBOT_SIMULATOR is not set (the organizers' Simulator folder, with "
              "main.py and Map/): the comparison with their referee is skipped")
        return
    simulator = Path(simulator)
    if simulator.name == "main.py":
        simulator = simulator.parent
    if strict_problem():
        print(f"The strict sandbox is not available here ({strict_problem()}): skipped")
        return
    print(_uptime())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        greedy = organizers_greedy(simulator, folder)
        if greedy is None:
            print(f"Their Greedy bot: no {simulator / GREEDY_SOURCE} or no g++, and "
                  "ARENA_ROBOT_GREEDY is not set: skipped")
            return
        map_text = (simulator / "Map" / map_name).read_text()
        theirs, ours, their_cpu, our_cpu, alone, alone_cpu = [], [], [], [], [], []
        print(f"Four Greedy bots ({greedy.name}) on their map {map_name}, {rounds} rounds, "
              f"alternating (ms per turn, wall and CPU):")
        for round_ in range(1, rounds + 1):
            wall, turns, cpu = their_referee(simulator, greedy, map_name, folder)
            theirs.append(wall * 1000 / turns)
            their_cpu.append(cpu * 1000 / turns)
            counting = _counting_group()
            try:
                wall, turns_ours, cpu, states = arena_game(greedy, map_text, folder / "arena",
                                                           counting[0] if counting else None)
            finally:
                _leave_group(counting)
            ours.append(wall * 1000 / turns_ours)
            our_cpu.append(cpu * 1000 / turns_ours if cpu is not None else float("nan"))
            wall, cpu = bots_alone(greedy, states, folder / "alone")
            alone.append(wall * 1000)
            alone_cpu.append(cpu * 1000)
            print(f"  round {round_}: their referee {theirs[-1]:6.1f} ms ({turns} turns, CPU "
                  f"{their_cpu[-1]:5.1f} ms)   arena strict {ours[-1]:6.1f} ms ({turns_ours} "
                  f"turns, CPU {our_cpu[-1]:5.1f} ms)   bots alone {alone[-1]:5.1f} ms (CPU "
                  f"{alone_cpu[-1]:5.1f} ms)   load {os.getloadavg()[0]:.2f}")
        mine, their = statistics.median(ours), statistics.median(theirs)
        print(f"  median: their referee {their:.1f} ms, arena strict {mine:.1f} ms per turn: "
              f"the arena is {their / mine:.1f}x faster "
              f"({'meets' if their / mine >= 5 else 'misses'} the goal of 5x)")
        print(f"  median CPU per turn (every process of each, the bots' included; what a "
              f"loaded machine cannot hide): their referee {statistics.median(their_cpu):.1f} ms, "
              f"arena strict {statistics.median(our_cpu):.1f} ms")
        floor = statistics.median(alone)
        print(f"  the bots alone (the arena's game's turns, run at once with no sandbox and "
              f"no judge): {floor:.1f} ms a turn, CPU {statistics.median(alone_cpu):.1f} ms: "
              f"no referee can be more than {their / floor:.1f}x faster than theirs here "
              f"(the arena reaches {(their / mine) / (their / floor):.0%} of that)")
    print("Judge overhead over the slowest program, strict sandbox:")
    sys.stdout.flush()
    subprocess.run([sys.executable, __file__, "--one-level", "--sandbox", STRICT,
                    "--sleep-turns", str(sleep_turns)], check=False)
    _floor_report(sleep_turns)
    print(_uptime())


def _flags(args) -> list[str]:
    """The comparison flags given, for a level measured in a process of its own."""
    return [flag for flag, given in (("--wait=poll", args.wait == "poll"), ("--no-gate", args.no_gate),
                                     ("--per-seat-threads", args.per_seat_threads)) if given]


def _sleep_report(turns: int, levels: list[str], flags: list[str]) -> None:
    """Part 3 for each sandbox level in ``levels``.  Each level is measured in a Python
    process of its own, as an arena runs with one level: the basic level makes the
    process the child subreaper of every program for good, and a strict-level judge
    in that process then has the sandboxes' leftovers to reap too."""
    print(f"Match with 4 programs thinking 0.2-1.5 s, judge overhead per turn over the slowest "
          f"program; load average {os.getloadavg()[0]:.2f}.  The goal (p90 <= 5 ms) is judged "
          f"on the outside measure (exec to exit, as `time` sees it); the inside one "
          f"(main() to exit) also counts exec and the dynamic loader as overhead:")
    for level_name in levels:
        if len(levels) == 1:
            _level_report(turns, level_name)
        else:
            sys.stdout.flush()
            subprocess.run([sys.executable, __file__, "--one-level", "--sandbox", level_name,
                            "--sleep-turns", str(turns), *flags], check=False)
    _floor_report(turns)


def _floor_report(turns: int) -> None:
    """The system's floor for part 3's overhead (:func:`system_floor`), at this load."""
    with tempfile.TemporaryDirectory() as tmp:
        floor = system_floor(Path(tmp), min(turns, 30))
    if floor:
        print(f"  the system's floor (gates opened, wrappers exec'd, exits seen; no judge work), "
              f"{len(floor)} rounds: p50 {percentile(floor, 0.5) * 1000:.1f} ms, "
              f"p90 {percentile(floor, 0.9) * 1000:.1f} ms; load {os.getloadavg()[0]:.2f}")


def _level_report(turns: int, level_name: str) -> None:
    """Part 3's lines for one sandbox level, measured in this process."""
    if level_name == STRICT and strict_problem():
        print(f"  strict: not available here ({strict_problem()})")
        return
    with tempfile.TemporaryDirectory() as tmp:
        extra = sleeping_overhead(Path(tmp), turns, level_name)
    if extra is None:
        print("  no C compiler, skipped")
        return
    for measure in ("outside", "inside"):
        values = extra[measure]
        p90 = percentile(values, 0.9) * 1000
        goal = f"  ({'meets' if p90 <= 5.0 else 'misses'} the goal)" if measure == "outside" else ""
        print(f"  {level_name:6s} sandbox, {measure:7s}, {len(values)} turns: "
              f"p50 {percentile(values, 0.5) * 1000:.1f} ms, p90 {p90:.1f} ms, "
              f"max {max(values) * 1000:.1f} ms{goal}")


if __name__ == "__main__":
    main()
