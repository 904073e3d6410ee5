"""Hostile engines (GTP for Hex, UCI and UCCI for Xiangqi) against an honest one of the
same kind: the trick at start, then the hostile process becomes the test engine.  The
match ends, the honest engine is never charged with anything, nothing outside the match
folders changes and no process is left (the world's checks)."""
import json
import sys
import time
from pathlib import Path

import pytest

from games.hex import PLUGIN as HEX
from games.xiangqi import PLUGIN as XIANGQI
from runner.match import Match, TimeControl
from runner.seats import make_seat
from tests.hostile.conftest import skip_uncontained, PY, ROOT, SECRET

GTP_ENGINE = ROOT / "tests" / "hex" / "gtp_engine.py"
XQ_ENGINE = ROOT / "tests" / "xiangqi" / "programs" / "fake_engine.py"
KINDS = {   # kind: (plugin, options, the honest engine's command)
    "gtp": (HEX, {"size": 4, "time_total": 20}, [PY, str(GTP_ENGINE)]),
    "uci": (XIANGQI, {"no_capture_limit": 6}, [PY, str(XQ_ENGINE), "--seed", "3"]),
    "ucci": (XIANGQI, {"no_capture_limit": 6}, [PY, str(XQ_ENGINE), "--ucci", "--seed", "3"]),
}
#: Tricks that end the engine before it speaks, and tricks after which it plays on.
FATAL = ("crash", "forkbomb", "alloc")
SURVIVED = ("spy", "vandal", "kill", "doublefork", "output")


def play(world, kind, mode):
    plugin, options, honest = KINDS[kind]
    opponent = world.match_dir / "seat2"
    hostile = world.hostile("engine", mode, opponent, Path(honest[1]).name, honest)
    specs = [f"{kind}:{hostile}", f"{kind}:" + " ".join(honest)]
    seats = [make_seat(spec, plugin, 3 + i, limits=world.limits()) for i, spec in enumerate(specs)]
    record = world.match_dir.with_suffix(".arena.jsonl")
    match = Match(plugin, options, seats, seed=3, record_path=record,
                  time_control=TimeControl(per_move=3.0, total=30.0), workdir=world.match_dir)
    start = time.monotonic()
    outcome = match.run()
    lines = [json.loads(line) for line in record.read_text().splitlines()] if record.exists() else []
    return match, outcome, lines, time.monotonic() - start


@pytest.mark.parametrize("mode", FATAL + SURVIVED)
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_hostile_engine(world, kind, mode):
    skip_uncontained(world.level, mode)
    match, outcome, lines, took = play(world, kind, mode)
    assert took < 60, took
    assert outcome is not None
    turns = [t for t in lines if t.get("type") == "turn"]
    assert all(t["answers"].get("1", {}).get("failure") is None for t in turns), turns[-1:]
    if mode in FATAL:
        # It never played: the match could not start, or the engine lost on its first turn.
        assert match.error or outcome.winners == (1,), (match.error, outcome)
    else:
        assert lines and lines[-1]["type"] == "result", (match.error, outcome)
        assert turns, ("no move was played", match.error, outcome)
    if lines:
        assert len(json.dumps(lines)) < 300_000
    if mode == "spy":
        shown = json.dumps(lines)
        assert SECRET not in shown and "SDL_VIDEODRIVER" not in shown
