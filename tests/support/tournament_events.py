"""Small events for the tournament tests: six contestants (a C or C++ program, a Python
program, built-in bots) on tiny boards, 4 matches at once."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]
HEX = ROOT / "games" / "hex"
ROBOT = ROOT / "games" / "robot"
TINY_MAP = "5 5 2\n.....\n.....\n.....\n.....\n.....\n"


def have(compiler: str) -> bool:
    return shutil.which(compiler) is not None


def hex_event(folder: Path) -> Path:
    """Hex 5x5, single round robin of six: 15 matches."""
    text = f'''
name = "hex-test"
game = "hex"
variant = "5x5"
format = "round-robin"
seed = 11
concurrency = 4
[options]
time_total = 60
[cycle]
position = ["", "...../..2../..1../...../....."]
[[contestant]]
name = "C"
build = "gcc -O2 -o {{out}}/testhex {HEX}/examples/testhex.c {HEX}/lib/hexlib.c -I{HEX}/lib"
seat = "ext:{{out}}/testhex"
[[contestant]]
name = "Python"
seat = "ext:python3 {HEX}/examples/shortest_path.py"
files = ["{HEX}/lib/hexlib.py"]
[[contestant]]
name = "r1"
seat = "bot:1"
[[contestant]]
name = "r2"
seat = "bot:1"
[[contestant]]
name = "r3"
seat = "bot:1"
[[contestant]]
name = "r4"
seat = "bot:1"
'''
    path = folder / "hex-test.toml"
    path.write_text(text)
    return path


def robot_event(folder: Path) -> Path:
    """Robot pairs on a 5x5 map, six contestants: 15 matches."""
    (folder / "tiny.txt").write_text(TINY_MAP)
    text = f'''
name = "robot-test"
game = "robot"
format = "pairs"
seed = 5
concurrency = 4
[cycle]
map = ["tiny.txt"]
[time]
per_move = 10.0
[[contestant]]
name = "C++"
build = "g++ -O2 -o {{out}}/greedy_bot {ROBOT}/examples/greedy_bot.cpp"
seat = "ext:{{out}}/greedy_bot"
[[contestant]]
name = "Python"
seat = "ext:python3 {ROBOT}/examples/greedy_bot.py"
[[contestant]]
name = "random"
seat = "bot:1"
[[contestant]]
name = "painter"
seat = "bot:2"
[[contestant]]
name = "territory"
seat = "bot:3"
[[contestant]]
name = "strongest"
seat = "bot:4"
'''
    path = folder / "robot-test.toml"
    path.write_text(text)
    return path


def results(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]


def comparable(folder: Path) -> dict:
    """What two runs of one event must agree on: every match's outcome by number, and
    the standings without the folder-dependent seat specs and timings."""
    table = json.loads((folder / "standings.json").read_text())
    rows = [{k: v for k, v in row.items() if k != "seat"} for row in table["standings"]]
    outcomes = {line["index"]: (line["contestants"], line["seed"], line["outcome"])
                for line in results(folder)}
    return {"standings": rows, "head_to_head": table["head_to_head"], "outcomes": outcomes,
            "matches": table["matches"]}


def write_event_folder(folder, results: int, planned: int | None, running: list[str], upcoming: int,
                       finished: bool = False):
    """An event folder as a running tournament leaves it: ``results`` results, the
    standings' planned count, ``running`` matches (a sample's first lines) and ``upcoming`` ones."""
    (folder / "live").mkdir(parents=True)
    result_lines = [json.dumps({"id": f"m{i:04d}", "contestants": ["Ada", "Alan"], "result": "1-0"})
                    for i in range(1, results + 1)]
    (folder / "results.jsonl").write_text("".join(line + "\n" for line in result_lines))
    if planned is not None:
        (folder / "standings.json").write_text(json.dumps({"matches": {"played": results, "planned": planned}}))
    sample = (ROOT / "replays" / "hex-sample.arena.jsonl").read_text().splitlines()[:6]
    for match_id in running:
        (folder / "live" / f"{match_id}.arena.jsonl").write_text("".join(line + "\n" for line in sample))
    describe = lambda i: {"id": f"n{i}", "index": i, "round": 1, "contestants": ["Ada", "Alan"]}
    (folder / "live" / "schedule.json").write_text(json.dumps(
        {"running": [{"id": m, "index": 1, "round": 1, "contestants": ["Ada", "Alan"]} for m in running],
         "next": [describe(i) for i in range(upcoming)], "finished": finished}))


def slow_event(folder: Path, matches_seconds: float = 3) -> Path:
    """Hex 5x5: a program that never answers against bots, so matches are in flight."""
    (folder / "silent.py").write_text("import time\ntime.sleep(600)\n")
    path = folder / "slow.toml"
    path.write_text(f'''
name = "slow"
game = "hex"
variant = "5x5"
format = "round-robin"
seed = 5
concurrency = 2
[options]
time_total = {matches_seconds}
[[contestant]]
name = "silent"
seat = "ext:{sys.executable} {folder / 'silent.py'}"
[[contestant]]
name = "b1"
seat = "bot:1"
[[contestant]]
name = "b2"
seat = "bot:1"
''')
    return path


def programs_of(folder: Path) -> list:
    """The running processes of the event's silent program (found by its path)."""
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        try:
            if str(folder / "silent.py") in " ".join(proc.info["cmdline"] or []) \
                    and proc.status() != psutil.STATUS_ZOMBIE:
                found.append(proc)
        except psutil.Error:
            pass
    return found


def leftovers(temp: Path) -> list[str]:
    return sorted(p.name for p in temp.iterdir())


def wait_for_match_folder(temp: Path, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if any(p.name.startswith("arena-w") for p in temp.iterdir()):
            return
        time.sleep(0.05)
    raise AssertionError("no match started: " + process.stderr.read().decode()[-2000:])
