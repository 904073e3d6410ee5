"""Hostile Crossed Words programs (input.txt, seconds.txt, dictionary/ -> output.txt, one
run a game).  The program does its trick, then answers as the shipped example does; the
game ends the way the rules say, with the reason in the record."""
import json
import time

import pytest

from games.crosswords import PLUGIN
from runner.match import Match
from runner.seats import make_seat
from tests.hostile.conftest import skip_uncontained, ROOT, SECRET

EXAMPLE = ROOT / "games" / "crosswords" / "examples" / "simple_player.py"
SECONDS = 3
EXPECTED = {       # the program's answer: its failure (None: a scored output.txt)
    "crash": {"crash"}, "sleep": {"timeout"}, "spin": {"timeout", "crash"},
    "output": {None, "timeout"}, "bigfile": {"crash", "timeout"}, "half": {"bad-file"},
    "rewrites": {None, "timeout"}, "fifo": {"bad-file"}, "symlink": {"bad-file"},
    "directory": {"bad-file"}, "inlink": {None, "bad-file", "crash"},
    "forkbomb": {"crash", "timeout"}, "alloc": {"crash"}, "spy": {None}, "vandal": {None},
    "kill": {None}, "doublefork": {None},
}


def play(world, mode):
    spec = f"ext:{world.hostile('crosswords', mode, world.tmp / 'nobody', 'nobody', str(EXAMPLE))}"
    seats = [make_seat(spec, PLUGIN, 2, limits=world.limits())]
    record = world.match_dir.with_suffix(".arena.jsonl")
    match = Match(PLUGIN, {"seconds": SECONDS}, seats, seed=2, record_path=record,
                  workdir=world.match_dir)
    start = time.monotonic()
    outcome = match.run()
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    return match, outcome, lines, time.monotonic() - start


@pytest.mark.parametrize("mode", sorted(EXPECTED))
def test_hostile_crosswords_program(world, mode):
    skip_uncontained(world.level, mode)
    match, outcome, lines, took = play(world, mode)
    header, turns = lines[0], [t for t in lines if t["type"] == "turn"]
    assert header["sandbox"]["level"] == world.level
    assert lines[-1]["type"] == "result" and took < SECONDS + 20, (lines[-1], took)
    answer = turns[0]["answers"]["0"]
    assert answer.get("failure") in EXPECTED[mode], (answer.get("failure"), answer.get("detail"))
    if answer.get("failure"):
        assert answer.get("detail"), answer            # the reason is recorded
    assert len(json.dumps(lines)) < 300_000
    if mode == "spy":
        shown = json.dumps(turns)
        assert "SPY:" in shown and SECRET not in shown and "SDL_VIDEODRIVER" not in shown
    if mode == "bigfile":
        assert not (world.match_dir / "seat1" / "BIG.DAT").exists()
