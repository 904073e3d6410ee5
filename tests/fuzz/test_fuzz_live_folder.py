"""Fuzzing the projection's reader of an event folder another process writes
(:class:`runner.live.EventFollower`): real records and results lines, mutated, arriving
in random pieces - a poll never raises, and whatever it keeps is well formed."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402

from fuzzing import FUZZ, mutate  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted(p for p in (ROOT / "replays").iterdir() if p.name.endswith(".arena.jsonl"))


@pytest.mark.skipif(not RECORDS, reason="no shipped arena records")
@FUZZ
@given(seed=st.integers(0, 2 ** 32 - 1), rounds=st.integers(0, 6), pieces=st.integers(1, 12))
def test_a_mutated_folder_arriving_in_pieces_never_breaks_the_follower(tmp_path_factory, seed, rounds, pieces):
    from runner.live import EventFollower
    rng = random.Random(seed)
    folder = tmp_path_factory.mktemp("event")
    (folder / "live").mkdir()
    record = mutate(rng.choice(RECORDS).read_bytes(), rng, rounds)
    results = mutate(b'{"id": "m1", "contestants": ["A", "B"], "outcome": {"ranks": [1, 2]}}\n'
                     b'{"id": "m2", "contestants": ["B", "A"]}\n', rng, rounds)
    standings = mutate(b'{"matches": {"played": 2}, "standings": [{"name": "A", "rank": 1}]}', rng, rounds)
    (folder / "standings.json").write_bytes(standings)
    follower = EventFollower(folder)
    cuts = sorted(rng.randrange(len(record) + 1) for _ in range(pieces)) + [len(record)]
    done = 0
    with open(folder / "live" / "m1.arena.jsonl", "wb") as live, open(folder / "results.jsonl", "wb") as res:
        for step, cut in enumerate(cuts):
            live.write(record[done:cut])
            live.flush()
            done = cut
            share = len(results) * (step + 1) // len(cuts)
            res.seek(0)
            res.write(results[:share])
            res.flush()
            follower.poll(float(step))
    for match in follower.matches.values():
        assert match.error or match.initial is not None or not match.header
        assert len(match.turns) == 0 or match.turns[-1].number == len(match.turns)
    assert all(isinstance(line.get("contestants"), list) for line in follower.results.values())
    follower.close()
