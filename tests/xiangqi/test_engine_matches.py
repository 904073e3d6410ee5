"""What a bot developer meets with real engines: repetition count, reproducible bots,
engine clocks, records and the referee's cost per move (fake engines; real ones only
when ARENA_FAIRY_STOCKFISH / ARENA_ELEPHANTEYE name them)."""
import json
import os
import shlex
import sys
from pathlib import Path

import pytest

from games.xiangqi import PLUGIN
from games.xiangqi.referee import build_referee_match, format_report

PROGRAMS = Path(__file__).resolve().parent / "programs"
ENGINE = PROGRAMS / "fake_engine.py"
MOVER = PROGRAMS / "random_mover.py"


def command(path: Path, *args: str) -> str:
    return " ".join(shlex.quote(x) for x in (sys.executable, str(path), *args))


def engine(kind: str, *args: str) -> str:
    return f"{kind}:" + command(ENGINE, *args)


# --------------------------------------------------------------------------- 6. referee overhead

def test_report_grows_by_one_small_write_per_move_and_one_fsync(tmp_path, monkeypatch):
    """REPORT.TXT is appended (no fsync) and equals the whole file after every move;
    the record's fsync is the only one per half-move."""
    match = build_referee_match(command(MOVER, "--seed", "1"), command(MOVER, "--seed", "2"), tmp_path,
                                options={"no_capture_limit": "24"}, seed=1, poll=0.01)
    seen = []
    real_after_turn = match.after_turn

    def after_turn(info):
        real_after_turn(info)
        seen.append(((tmp_path / "REPORT.TXT").read_bytes().decode("ascii"),
                     format_report(match.report_authors, match.report_words, match.states[-1].moves)))

    syncs = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (syncs.append(fd), real_fsync(fd)))
    match.after_turn = after_turn
    match.run()
    played = len(match.states[-1].moves)
    assert played >= 10 and len(seen) == played
    assert all(on_disk == whole for on_disk, whole in seen)
    # One fsync per half-move (the record) plus a handful at the start and the end.
    assert len(syncs) <= played + 12, (len(syncs), played)
    result = json.loads((tmp_path / "REPORT.JSON").read_text())
    assert result["half_moves"] == played and result["result"] != "*"
