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


@needs_fairy
@needs_eleeye
def test_real_engines_name_themselves_and_their_search_is_kept_per_move(tmp_path):
    """``id name``/``id author`` reach the record; each move keeps depth, score and a
    principal variation in contest moves that replays from the position (both engines'
    rank numbering: Fairy-Stockfish counts 1-10, ElephantEye 0-9)."""
    from games.xiangqi.notation import wxf_line
    from runner.records import open_replay
    match = build_referee_match(f"uci:{FAIRY} depth=6", f"ucci:{ELEPHANTEYE} depth=4", tmp_path,
                                options={"no_capture_limit": "8"}, seed=1)
    match.run()
    replay = open_replay(str(match.record_path))
    seats = replay.header["seats"]
    assert "Fairy-Stockfish" in seats[0]["engine"] and seats[0]["author"]
    assert "ElephantEye" in seats[1]["engine"] and seats[1]["author"]
    for index, turn in enumerate(replay.turns):
        for seat, answer in turn.answers.items():
            search = answer["search"]
            assert search["depth"] >= 1 and search["score"].split()[0] in ("cp", "mate")
            assert search["pv"][0] == turn.moves[seat]            # the line starts with the move played
            assert len(wxf_line(replay.states[index], search["pv"])) == len(search["pv"])
