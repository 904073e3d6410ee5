"""Fuzzing the levels files (``games/<game>/levels.json``) the New match form reads.

Whatever the file holds, :func:`runner.levels.read_levels` raises only
:class:`runner.levels.LevelsFileError` (naming the file and a line), and every level it
accepts can be put in words (:func:`runner.levels.strength_text`) without an error.
Inputs are the shipped ladders, mutated as bytes and as JSON (a value anywhere replaced
by one of another type, a key dropped).
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402

from fuzzing import FUZZ, mutate  # noqa: E402
from runner.levels import LevelsFileError, read_levels, strength_text  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "games").glob("*/levels.json"))
ODD_VALUES = [None, True, -1, 0, 1.5, 2.0, 1e308, "", "x", "random", [], [1], {}, {"score": 2},
              {"score": 0.5, "low95": 0.4, "high95": 0.6}, "club", "level"]


def _check(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "levels.json"
    path.write_bytes(data)
    try:
        levels = read_levels(path)
    except LevelsFileError as exc:
        assert str(path) in str(exc)
        return
    for entry in levels.values():
        assert isinstance(strength_text(entry), str)


def _containers(value, found):
    """Every dict and list inside ``value`` (``value`` included)."""
    if isinstance(value, (dict, list)):
        found.append(value)
        for child in (value.values() if isinstance(value, dict) else value):
            _containers(child, found)
    return found


def _mutate_json(data, rng: random.Random, rounds: int):
    for _ in range(rounds):
        target = rng.choice(_containers(data, []))
        if not target:
            continue
        key = rng.choice(list(target)) if isinstance(target, dict) else rng.randrange(len(target))
        if isinstance(target, dict) and rng.random() < 0.3:
            del target[key]
        else:
            target[key] = rng.choice(ODD_VALUES)
    return data


def test_the_shipped_ladders_are_there():
    assert len(SHIPPED) >= 5, SHIPPED


@FUZZ
@given(seed=st.integers(0, 2 ** 32 - 1), rounds=st.integers(1, 8))
def test_mutated_levels_files_raise_only_levels_file_errors(tmp_path, seed, rounds):
    rng = random.Random(seed)
    _check(tmp_path, mutate(rng.choice(SHIPPED).read_bytes(), rng, rounds))


@FUZZ
@given(seed=st.integers(0, 2 ** 32 - 1), rounds=st.integers(1, 6))
def test_levels_files_with_values_of_the_wrong_kind_raise_only_levels_file_errors(tmp_path, seed, rounds):
    rng = random.Random(seed)
    data = json.loads(rng.choice(SHIPPED).read_text(encoding="utf-8"))
    _check(tmp_path, json.dumps(_mutate_json(data, rng, rounds), indent=1).encode())


@pytest.mark.parametrize("entry", [
    {"level": 2, "category": ["club"]},
    {"level": 2, "work": 7},
    {"level": 2, "vs_anchor": {"score": 0.5, "low95": 0.4, "high95": 0.6}},
    {"level": 2, "vs_below": {"score": 0.5, "low95": 0.4, "high95": 0.6}, "level_": 1},
    {"level": 2, "mean": 10, "ratio": "x"},
])
def test_entries_of_the_wrong_kind_are_named_or_read(tmp_path, entry):
    """The cases the fuzzers first found: an unhashable category, a work that is not
    text, an anchor score without the anchor's name, a ratio that is not a number."""
    _check(tmp_path, json.dumps({"levels": [entry]}).encode())


def test_a_levels_file_that_is_not_utf8_is_named(tmp_path):
    path = tmp_path / "levels.json"
    path.write_bytes(b'{"levels": [{"level": 1, "words": "\xff"}]}')
    with pytest.raises(LevelsFileError, match="levels.json"):
        read_levels(path)
