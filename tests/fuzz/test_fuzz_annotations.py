"""Fuzzing the annotation parser: whatever text a program writes (DEBUG.OUT or
``# debug`` lines), for every game, it never raises, its caps hold, and what it keeps
passes the record's own type check."""
from __future__ import annotations

import os

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from games import registry  # noqa: E402
from games.annotations import (MAX_COMMANDS, MAX_NOTES, annotations_from_json,  # noqa: E402
                               parse_annotations)

EXAMPLES = int(os.environ.get("ARENA_FUZZ_EXAMPLES", "25"))
FUZZ = settings(max_examples=EXAMPLES * 4, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
GAMES = ("robot", "xiangqi", "hex", "tamquan", "crosswords")
WORDS = ["mark", "line", "arrow", "text", "heat", "# debug", "red", "#fff", "#12345z", "c3", "h2",
         "3", "4", "1,2", "H8", "-1", "1e999", "nan", "0x10", "label", "\u2028", "\t", "é", "\0"]

lines = st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=12)), max_size=8).map(" ".join)
texts = st.one_of(st.text(max_size=400), st.lists(lines, max_size=60).map("\n".join))


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(text=texts)
def test_the_parser_never_raises_and_keeps_to_its_caps(game, text):
    parse_cell = registry.plugin(game).new_game().parse_cell
    result = parse_annotations(text, parse_cell)
    assert len(result.commands) <= MAX_COMMANDS
    assert len(result.notes) <= MAX_NOTES + 1
    checked = annotations_from_json(result.to_json())
    assert checked.commands == result.commands


@FUZZ
@given(data=st.binary(max_size=2000))
def test_any_bytes_decoded_as_the_runner_does(data):
    parse_cell = registry.plugin("robot").new_game().parse_cell
    result = parse_annotations(data.decode("utf-8", "replace"), parse_cell)
    annotations_from_json(result.to_json())
