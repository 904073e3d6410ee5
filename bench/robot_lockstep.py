"""Robot: the arena against the organizers' own referee, turn log by turn log.

    ROBOT_ORGANIZERS_REFEREE=/tmp/RobotDaiChien-BE/Simulator \
    ROBOT_ORGANIZERS_BOTS=/tmp/orgbuild \
    ROBOT_ORGANIZERS_LOGS=/tmp/RobotDaiChien-FE/Assets/Json \
        python bench/robot_lockstep.py [--maps A,B] [--games 4]

Every variable is optional; the parts whose variable is missing are skipped, saying so.

1. ``ROBOT_ORGANIZERS_LOGS``: a folder of their published turn logs.  Each is read and
   written back (the arena's writer must give their text byte for byte), and audited
   with the arena's rules and with ``compat = organizers``: turns, divergent turns,
   unexplained ones, and the causes the audit names.
2. ``ROBOT_ORGANIZERS_REFEREE`` (their ``Simulator`` folder: ``main.py``, ``Map/``) and
   ``ROBOT_ORGANIZERS_BOTS`` (a folder of their bots, built from their sources:
   executables named ``Greedy``, ``bot``, ``OnlyUp``, ``OnlyDown``): their referee plays
   each map (a copy in a temporary folder, run with this Python), then the arena replays
   the game in lockstep from the blank map, with the same answers (each robot's logged
   cell) and the same spawns, with its own rules and with ``compat = organizers``, and
   writes its own turn log, which is compared with theirs byte for byte.
"""
from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.robot.rules import QUIRKS, Item, _OPEN_TABLE      # noqa: E402
from games.robot.turnlog import (TurnLogReader, _moves_from, audit, board_for, dump,  # noqa: E402
                                 load_entries, state_from_entry, turn_log)

LINEUPS = (("Greedy", "bot"), ("bot", "Greedy"), ("Greedy", "Greedy"),
           ("Greedy", "bot", "OnlyUp", "OnlyDown"))
TQDM_SHIM = "def tqdm(x=None, *a, **k):\n    return x\n"


def published_logs(folder: str) -> None:
    files = sorted(glob.glob(os.path.join(folder, "*.json")))
    same = turns = 0
    totals = {"arena": [0, 0, 0], "organizers": [0, 0, 0]}
    causes: Counter = Counter()
    for path in files:
        text = open(path, encoding="utf-8").read()
        same += dump(turn_log(TurnLogReader().read(text, path).states)) == text
        for name, quirks in (("arena", ()), ("organizers", frozenset(QUIRKS))):
            lines, audited, divergent, unexplained = audit(text, path, quirks=quirks)
            for i, value in enumerate((audited, divergent, unexplained)):
                totals[name][i] += value
            if name == "arena":
                for line in lines:
                    if " turns: " in line and not line.startswith("turn "):
                        count, cause = line.split(" turns: ")
                        causes[cause] += int(count)
    print(f"Published turn logs: {len(files)}; written back byte for byte: {same} of {len(files)}")
    for name, (audited, divergent, unexplained) in totals.items():
        print(f"  audit, {name:10s} rules: {audited} turns audited, {divergent} divergent, "
              f"{unexplained} unexplained")
    for cause, count in causes.most_common():
        print(f"    {count:4d} turns: {cause}")


def lockstep_log(text: str, path: str, quirks) -> str:
    """The arena's own turn log of the game in ``text``: from the blank map, each turn
    played by the rules with the logged answers and spawns."""
    entries = load_entries(text, path)
    board = board_for(entries)
    state = state_from_entry(board, entries[0], 0, quirks=quirks)
    states = [state]
    for entry in entries[1:]:
        before, state = state, state.clone()
        state.injected_spawns = [[Item(i["x"], i["y"], i["type"]) for i in entry["powerups"]]]
        if not state.to_move():
            if not ("seal-after-all-left" in state.quirks and b"1" in state.grid.translate(_OPEN_TABLE)):
                break
            state.sealing_turn()
        else:
            state.apply(_moves_from(entry, before))
        left = not any(r.in_game for r in state.robots)
        if state.finished and left and "seal-after-all-left" in state.quirks \
                and b"1" in state.grid.translate(_OPEN_TABLE):
            state.finished = False            # their referee goes on sealing
        states.append(state)
    return dump(turn_log(states))


def run_their_referee(referee: Path, bots: Path, map_name: str, lineup, folder: Path) -> str | None:
    work = folder / "Simulator"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(referee, work, ignore=shutil.ignore_patterns("Match", "Players", "__pycache__"))
    (work / "Match").mkdir()
    (work / "tqdm.py").write_text(TQDM_SHIM)
    names = []
    for index, bot in enumerate(lineup):
        name = f"{bot}{index}"
        (work / "Players" / name).mkdir(parents=True)
        shutil.copy(bots / bot, work / "Players" / name / "main.exe")
        names.append(name)
    done = subprocess.run([sys.executable, "main.py", map_name, "-p", *names], cwd=work,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env={**os.environ, "PYTHONPATH": str(work)}, timeout=1800)
    logs = list((work / "Match").glob("*.json"))
    if done.returncode or not logs:
        print(f"    their referee failed on {map_name} {names}: {done.stderr[-300:]}")
        return None
    return logs[0].read_text(encoding="utf-8")


def lockstep(referee: Path, bots: Path, maps: list[str], games: int, keep: str = "",
             first: int = 0) -> None:
    missing = [b for b in {b for lineup in LINEUPS for b in lineup} if not (bots / b).is_file()]
    if missing:
        print(f"Lockstep: {bots} lacks {', '.join(sorted(missing))}; skipped")
        return
    results = {"arena": 0, "organizers": 0}
    played = 0
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for map_name in maps:
            for lineup in LINEUPS[first:first + games]:
                text = run_their_referee(referee, bots, map_name, lineup, Path(tmp))
                if text is None:
                    continue
                played += 1
                marks = []
                for name, quirks in (("arena", ()), ("organizers", frozenset(QUIRKS))):
                    mine = lockstep_log(text, map_name, quirks)
                    same = mine == text
                    results[name] += same
                    lines, audited, divergent, unexplained = audit(text, map_name, quirks=quirks)
                    marks.append(f"{name}: {'same' if same else 'differs'} "
                                 f"({divergent} divergent, {unexplained} unexplained)")
                print(f"  {map_name} {'-'.join(lineup)}: {audited} turns; " + "; ".join(marks))
                if keep and unexplained:
                    kept = Path(keep) / f"{Path(map_name).stem}_{'_'.join(lineup)}_{played}.json"
                    kept.parent.mkdir(parents=True, exist_ok=True)
                    kept.write_text(text, encoding="utf-8")
                    print(f"    kept as {kept}")
    print(f"Lockstep with their referee, {played} games ({time.perf_counter() - start:.0f} s): "
          f"turn logs byte for byte the same: arena rules {results['arena']}, "
          f"compat=organizers {results['organizers']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", default="", help="their map names, e.g. A,B (default: all)")
    parser.add_argument("--games", type=int, default=len(LINEUPS),
                        help=f"line-ups per map, 1-{len(LINEUPS)}")
    parser.add_argument("--first", type=int, default=0, help="the first line-up (0-based)")
    parser.add_argument("--keep", default="", help="a folder to keep their logs with "
                        "unexplained turns in (outside the repository)")
    args = parser.parse_args()
    logs = os.environ.get("ROBOT_ORGANIZERS_LOGS")
    if logs:
        published_logs(logs)
    else:
        print("ROBOT_ORGANIZERS_LOGS is not set: published turn logs skipped")
    referee, bots = os.environ.get("ROBOT_ORGANIZERS_REFEREE"), os.environ.get("ROBOT_ORGANIZERS_BOTS")
    if not (referee and bots):
        print("ROBOT_ORGANIZERS_REFEREE / ROBOT_ORGANIZERS_BOTS are not set: lockstep skipped")
        return 0
    referee_path = Path(referee)
    maps = [m + ".txt" for m in args.maps.split(",")] if args.maps else sorted(
        p.name for p in (referee_path / "Map").glob("*.txt"))
    lockstep(referee_path, Path(bots), maps, args.games, args.keep, args.first)
    return 0


if __name__ == "__main__":
    sys.exit(main())
