"""Fixtures shared by the Xiangqi tests."""
import random

import pytest

from games.xiangqi.rules import START_FEN, Position


def _positions_along_random_games(seed: int, games: int, longest: int):
    """Each position after every move of ``games`` seeded random games of 10 to ``longest``
    half-moves (the same Position object, moved on: copy it to keep one)."""
    rng = random.Random(seed)
    for _ in range(games):
        position = Position.from_fen(START_FEN)[0]
        for _ in range(rng.randrange(10, longest)):
            moves = position.legal_moves()
            if not moves:
                break
            position.make(rng.choice(moves))
            yield position


@pytest.fixture
def random_positions():
    """``random_positions(seed, games, longest)``: positions along seeded random games."""
    return _positions_along_random_games


class _ScriptedEngine:
    """Stands in for the benches' UCI analyser: answers every search with the given info
    lines (then ``bestmove``) and remembers what it was sent."""

    def __init__(self, lines):
        self.lines, self.sent = lines, []

    def send(self, line):
        self.sent.append(line)

    def read_until(self, word):
        if word == "readyok":
            return [[word]]
        return [line.split() for line in self.lines] + [[word, "a0a1"]]


@pytest.fixture
def scripted_engine():
    """``scripted_engine(lines)``: a UCI engine that answers every search with ``lines``."""
    return _ScriptedEngine
