"""The built-in bot interface (pure Python; bots may read a clock, rules never do).

A bot is made by its game's ``make_bot(level, seed)``.  The match owns the seed, so a
bot's choices are reproducible from the record (given the same time budget for
bots that search by time).
"""
from __future__ import annotations

import abc
import random
from typing import Any

from games.api import State


class Bot(abc.ABC):
    """Chooses a move for one seat; never mutates the state it is given."""

    name = "bot"

    @abc.abstractmethod
    def choose(self, state: State, seat: int, time_budget: float | None) -> Any:
        """A legal move for ``seat``, answering within ``time_budget`` seconds (None: no limit)."""

    def reset(self) -> None:
        """Forget anything learned during a game (called on undo)."""


class RandomBot(Bot):
    """Uniformly random legal move, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int, time_budget: float | None) -> Any:
        return self.rng.choice(list(state.legal_moves(seat)))
