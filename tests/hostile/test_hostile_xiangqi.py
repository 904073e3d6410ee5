"""Hostile Xiangqi contest programs (PLAY.INI, move files polled) against an honest one.

The honest program plays the bottom side and moves first; the hostile one, on the top
side, does its trick on its first turn and then resigns (LOST) if it still can.
"""
import json
import shlex
import time

import pytest

from games.api import Termination
from games.xiangqi import PLUGIN
from games.xiangqi.referee import XiangqiMatch
from runner.match import default_record_path
from runner.seats import make_seat
from tests.hostile.conftest import skip_uncontained, PY, ROOT, SECRET

HONEST = ROOT / "tests" / "xiangqi" / "programs" / "random_mover.py"
#: Each side's clock for the game.  The contest's programs are on the wall clock, and
#: at load 9 on two cores the honest program's polls used up 2 s within a game: 5 s
#: keeps it clear of the flag while the hostile "sleep" still loses on time.
SECONDS = 5
EXPECTED = {       # how the game ends for the hostile top side (it always loses)
    "crash": {Termination.CRASH}, "sleep": {Termination.TIMEOUT},
    "output": {Termination.RESIGNATION}, "half": {Termination.BAD_FILE},
    "fifo": {Termination.BAD_FILE}, "symlink": {Termination.BAD_FILE},
    "inlink": {Termination.RESIGNATION, Termination.BAD_FILE},
    "alloc": {Termination.CRASH}, "spy": {Termination.RESIGNATION},
    "vandal": {Termination.RESIGNATION}, "kill": {Termination.RESIGNATION},
    "doublefork": {Termination.RESIGNATION}, "silent": {Termination.CRASH},
    "delete": {Termination.RESIGNATION, Termination.CRASH},
}


def play(world, mode):
    opponent = world.match_dir / "seat1"
    specs = [f"ext:{shlex.quote(PY)} {shlex.quote(str(HONEST))} --seed 3 --poll 0.01",
             f"ext:{world.hostile('xiangqi', mode, opponent, 'random_mover.py')}"]
    game = PLUGIN.new_game()
    options = game.spec.resolve_options(None, {})
    seats = [make_seat(spec, PLUGIN, 3 + i, limits=world.limits(seconds=SECONDS, poll=0.01))
             for i, spec in enumerate(specs)]
    match = XiangqiMatch(PLUGIN, options, seats, seed=3, seconds=SECONDS,
                         report_dir=world.match_dir, workdir=world.match_dir,
                         record_path=default_record_path(world.match_dir, "xiangqi"))
    start = time.monotonic()
    outcome = match.run()
    lines = [json.loads(line) for line in match.record_path.read_text().splitlines()]
    return match, outcome, lines, time.monotonic() - start


@pytest.mark.parametrize("mode", sorted(EXPECTED))
def test_hostile_xiangqi_program(world, mode):
    skip_uncontained(world.level, mode)
    match, outcome, lines, took = play(world, mode)
    assert lines[0]["sandbox"]["level"] == world.level
    assert lines[-1]["type"] == "result" and took < SECONDS + 12
    # It loses; a flag fall is a draw when the other side is short of time too (RULES.md).
    draw_allowed = mode == "sleep"
    assert outcome.winners == (0,) or (draw_allowed and outcome.winners == ()), outcome
    assert outcome.reason in EXPECTED[mode], outcome
    turns = [t for t in lines if t["type"] == "turn"]
    # The honest bottom side moved and was never charged with anything.
    assert all(t["answers"].get("0", {}).get("failure") is None for t in turns)
    assert len(json.dumps(lines)) < 100_000
    seat1 = world.match_dir / "seat1"
    assert "LOST" not in (seat1 / "M1.DAT").read_text().splitlines()[:1] or mode != "vandal"
    if mode == "spy":
        shown = json.dumps(turns)
        assert "SPY:" in shown and SECRET not in shown and "SDL_VIDEODRIVER" not in shown
