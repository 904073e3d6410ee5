"""Hostile Robot programs (MAP.INP -> MOVE.OUT, run once per turn) against an honest one."""
import json
import time

import pytest

from games.robot import PLUGIN
from runner.match import Match, TimeControl
from runner.seats import make_seat
from tests.hostile.conftest import skip_uncontained, PY, ROOT, SECRET

HONEST = ROOT / "games" / "robot" / "examples" / "greedy_bot.py"
MAP = "3 3 1\n...\n...\n...\n"     # two turns: the map shrinks every turn
# Spinning, 4 GB and killing are in the Hex and Xiangqi sets (the same sandbox).
EXPECTED = {       # the hostile seat's first answer: its failure (None: it answered)
    "crash": {"crash"}, "sleep": {"timeout"}, "output": {None, "timeout"},
    "bigfile": {"crash", "timeout"}, "half": {"bad-file"},
    "rewrites": {None, "bad-file", "illegal-move", "timeout"},
    "fifo": {"bad-file"}, "symlink": {"bad-file"}, "directory": {"bad-file"}, "inlink": {None},
    "legallink": {"bad-file"},     # the link's target holds a legal move: a followed link would pass
    "forkbomb": {"crash", "timeout"}, "spy": {None}, "vandal": {None},
    "doublefork": {None}, "silent": {"bad-file", "crash"}, "late": {"timeout"},
    "delete": {None},
}


def play(world, mode):
    opponent = world.match_dir / "seat2"
    specs = [f"ext:{world.hostile('robot', mode, opponent, 'greedy_bot.py')}",
             f"ext:{PY} {HONEST}"]
    seats = [make_seat(spec, PLUGIN, 7 + i, limits=world.limits()) for i, spec in enumerate(specs)]
    record = world.match_dir.with_suffix(".arena.jsonl")
    match = Match(PLUGIN, {"map": MAP, "players": 2, "respawn": "off", "period": 1}, seats,
                  seed=7, record_path=record, time_control=TimeControl(per_move=1.5),
                  workdir=world.match_dir)
    start = time.monotonic()
    outcome = match.run()
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    return match, outcome, lines, time.monotonic() - start


@pytest.mark.parametrize("mode", sorted(EXPECTED))
def test_hostile_robot_program(world, mode):
    skip_uncontained(world.level, mode)
    match, outcome, lines, took = play(world, mode)
    header, turns = lines[0], [t for t in lines if t["type"] == "turn"]
    assert header["sandbox"]["level"] == world.level
    assert lines[-1]["type"] == "result" and took < 20
    first = turns[0]["answers"]["0"]
    assert first.get("failure") in EXPECTED[mode], first
    # The honest program never suffered.
    assert all(t["answers"]["1"].get("failure") is None for t in turns)
    # Output and the record stay small whatever was printed.
    assert len(json.dumps(first)) < 40_000
    if mode == "output":
        assert "bytes left out" in first["stdout"] and "bytes left out" in first["stderr"]
    if mode == "inlink":
        assert turns[1]["answers"]["0"].get("failure") is None
    if mode == "spy":
        assert "SPY:" in first["stdout"] and SECRET not in first["stdout"]
        assert "SDL_VIDEODRIVER" not in first["stdout"]      # the arena's environment
    if mode == "forkbomb" and "children" in first.get("stdout", ""):
        assert int(first["stdout"].split()[1]) < 48
    if mode == "bigfile":
        assert not (world.match_dir / "seat1" / "BIG.DAT").exists()
    if mode == "vandal":
        assert not (world.match_dir / "seat2" / "MOVE.OUT.d").exists()
        assert (world.match_dir / "seat2" / "STATE.DAT").read_text() != "LOST\n-1\n-1\n"
