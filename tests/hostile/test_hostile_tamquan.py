"""Hostile Tam Quan programs (STATE.INP -> MOVE.OUT, run once per turn) against an honest
one.  The hostile program does its trick on its first run (the placement), then answers
as the shipped example does."""
import json
import time

import pytest

from games.tamquan import PLUGIN
from runner.match import Match, TimeControl
from runner.seats import make_seat
from tests.hostile.conftest import skip_uncontained, PY, ROOT, SECRET

HONEST = ROOT / "games" / "tamquan" / "examples" / "greedy_bot.py"
EXPECTED = {       # the hostile seat's first answer: its failure (None: it answered)
    "crash": {"crash"}, "sleep": {"timeout"}, "spin": {"timeout", "crash"},
    "output": {None, "timeout"}, "bigfile": {"crash", "timeout"}, "half": {"bad-file"},
    "rewrites": {None, "bad-file", "illegal-move", "timeout"},
    "fifo": {"bad-file"}, "symlink": {"bad-file"}, "directory": {"bad-file"}, "inlink": {None},
    "forkbomb": {"crash", "timeout"}, "alloc": {"crash"}, "spy": {None}, "vandal": {None},
    "kill": {None}, "doublefork": {None}, "silent": {"bad-file", "crash"},
    "late": {"timeout"}, "delete": {None},
}


def play(world, mode):
    opponent = world.match_dir / "seat2"
    specs = [f"ext:{world.hostile('tamquan', mode, opponent, 'greedy_bot.py', str(HONEST))}",
             f"ext:{PY} {HONEST}"]
    seats = [make_seat(spec, PLUGIN, 5 + i, limits=world.limits()) for i, spec in enumerate(specs)]
    record = world.match_dir.with_suffix(".arena.jsonl")
    match = Match(PLUGIN, {"size": 5, "teams": 2, "members": 2, "turn_limit": 3}, seats, seed=5,
                  record_path=record, time_control=TimeControl(per_move=1.5),
                  workdir=world.match_dir)
    start = time.monotonic()
    outcome = match.run()
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    return match, outcome, lines, time.monotonic() - start


def hostile_answers(turns):
    return [t["answers"]["0"] for t in turns if "0" in t["answers"]]


@pytest.mark.parametrize("mode", sorted(EXPECTED))
def test_hostile_tamquan_program(world, mode):
    skip_uncontained(world.level, mode)
    match, outcome, lines, took = play(world, mode)
    header, turns = lines[0], [t for t in lines if t["type"] == "turn"]
    assert header["sandbox"]["level"] == world.level
    assert lines[-1]["type"] == "result" and took < 30, (lines[-1], took)
    first = hostile_answers(turns)[0]
    assert first.get("failure") in EXPECTED[mode], first
    if first.get("failure"):
        assert first.get("detail") or first.get("note"), first       # the reason is recorded
    # The honest program never suffered.
    assert all(t["answers"]["1"].get("failure") is None for t in turns if "1" in t["answers"])
    assert len(json.dumps(lines)) < 200_000
    if mode == "spy":
        assert "SPY:" in first["stdout"] and SECRET not in first["stdout"]
        assert "SDL_VIDEODRIVER" not in first["stdout"]
    if mode == "bigfile":
        assert not (world.match_dir / "seat1" / "BIG.DAT").exists()
    if mode == "vandal":
        assert (world.match_dir / "seat2" / "MOVE.OUT").read_text() != "LOST\n-1\n-1\n"
