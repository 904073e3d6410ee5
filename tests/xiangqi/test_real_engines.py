"""Real engines, locally only: ``ARENA_FAIRY_STOCKFISH`` (a largeboards build) and
``ARENA_ELEPHANTEYE`` name their binaries; without them these tests are skipped."""
import os
from pathlib import Path

import pytest

from games.xiangqi.referee import build_referee_match

FAIRY = os.environ.get("ARENA_FAIRY_STOCKFISH", "")
ELEPHANTEYE = os.environ.get("ARENA_ELEPHANTEYE", "")

needs_fairy = pytest.mark.skipif(not (FAIRY and Path(FAIRY).is_file()),
                                 reason="set ARENA_FAIRY_STOCKFISH to a Fairy-Stockfish binary "
                                 "(largeboards build) to run this test")
needs_eleeye = pytest.mark.skipif(not (ELEPHANTEYE and Path(ELEPHANTEYE).is_file()),
                                  reason="set ARENA_ELEPHANTEYE to an ElephantEye binary to run this test")


def no_forfeits(match):
    return [t.forfeits for t in match.turns if t.forfeits]


@needs_eleeye
def test_elephanteye_on_its_clock_against_a_reproducible_bot(tmp_path):
    match = build_referee_match(f"ucci:{ELEPHANTEYE}", "bot:3 depth=2", tmp_path, seconds=30,
                                options={"no_capture_limit": "20"}, seed=1)
    match.run()
    assert not no_forfeits(match), no_forfeits(match)
    go = match.turns[0].answers[0]["given"].splitlines()[-1]
    assert go.startswith("go time ") and " opptime " in go
    assert match.options["repetition_count"] == 3
    assert (tmp_path / "REPORT.TXT").read_text().splitlines()[1].startswith("ElephantEye")


@needs_fairy
def test_fairy_stockfish_on_its_clock(tmp_path):
    match = build_referee_match(f"uci:{FAIRY}", "bot:2 depth=1", tmp_path, seconds=20,
                                options={"no_capture_limit": "16"}, seed=1)
    match.run()
    assert not no_forfeits(match), no_forfeits(match)
    assert match.seats[0].rank_base == 1 and "xiangqi" in match.seats[0].variants
    assert "go wtime 20000 btime 20000" in match.turns[0].answers[0]["given"]


@needs_fairy
@needs_eleeye
def test_fairy_stockfish_against_elephanteye_with_fixed_depth(tmp_path):
    match = build_referee_match(f"uci:{FAIRY} depth=6", f"ucci:{ELEPHANTEYE} depth=5", tmp_path,
                                options={"no_capture_limit": "30"}, seed=1)
    outcome = match.run()
    assert not no_forfeits(match), no_forfeits(match)
    assert outcome is not None and len(match.states[-1].moves) >= 10
