"""Hostile Hex programs (HexLib lines on stdin/stdout) against an honest one."""
import json
import shlex
import time

import pytest

from games.api import Termination
from games.hex import PLUGIN
from runner.match import Match, TimeControl
from runner.seats import make_seat
from tests.hostile.conftest import skip_uncontained, PY, ROOT, SECRET

HONEST = ROOT / "games" / "hex" / "examples" / "shortest_path.py"
EXPECTED = {       # how the game ends, the hostile program being player 1
    "crash": {Termination.CRASH}, "spin": {Termination.TIMEOUT},
    "output": {Termination.WIN}, "longline": {Termination.WIN, Termination.TIMEOUT},
    "forkbomb": {Termination.CRASH, Termination.TIMEOUT}, "spy": {Termination.WIN},
    "vandal": {Termination.WIN}, "kill": {Termination.WIN}, "doublefork": {Termination.WIN},
    "alloc": {Termination.CRASH}, "silent": {Termination.CRASH},
    "late": {Termination.TIMEOUT},
}


def play(world, mode):
    opponent = world.match_dir / "seat2"
    specs = [f"ext:{world.hostile('hex', mode, opponent, 'shortest_path.py')}",
             f"ext:{shlex.quote(PY)} {shlex.quote(str(HONEST))}"]
    seats = [make_seat(spec, PLUGIN, 5 + i, limits=world.limits()) for i, spec in enumerate(specs)]
    record = world.match_dir.with_suffix(".arena.jsonl")
    match = Match(PLUGIN, {"size": 4}, seats, seed=5, record_path=record,
                  time_control=TimeControl(per_move=1.5, total=20), workdir=world.match_dir)
    start = time.monotonic()
    outcome = match.run()
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    return match, outcome, lines, time.monotonic() - start


@pytest.mark.parametrize("mode", sorted(EXPECTED))
def test_hostile_hex_program(world, mode):
    skip_uncontained(world.level, mode)
    match, outcome, lines, took = play(world, mode)
    assert lines[0]["sandbox"]["level"] == world.level
    assert lines[-1]["type"] == "result" and took < 20
    assert outcome.reason in EXPECTED[mode], outcome
    turns = [t for t in lines if t["type"] == "turn"]
    assert all(t["answers"].get("1", {}).get("failure") is None for t in turns)
    if outcome.reason is not Termination.WIN:
        assert outcome.winners == (1,)
    # However much was printed, the record stays small.
    assert match.record_path.stat().st_size < 200_000
    if mode == "spy":
        shown = json.dumps(turns)
        assert SECRET not in shown and "SDL_VIDEODRIVER" not in shown
