"""The built-in bot interface (pure Python; bots may read a clock, rules never do).

A bot is made by its game's ``make_bot(level, seed)``.  The match owns the seed, so a
bot's choices are reproducible from the record (given the same time budget for
bots that search by time).
"""
from __future__ import annotations

import abc
import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.api import GameSetupError, State

#: What a level-1 (random) bot says when a seat spec gives it settings.
NO_SETTINGS_AT_LEVEL_1 = "bot:1 plays random moves and takes no settings; use level 2-5"


def whole_number_settings(settings: Mapping[str, str], known: Sequence[str],
                          switches: Mapping[str, str] | None = None) -> dict[str, int]:
    """A seat spec's bot settings (``bot:5 movetime=1000``) as numbers, checked.

    Each name must be in ``known`` and each value a whole number above 0, or 0 or 1
    for a switch (``switches`` maps a switch's name to what 1 means, for the message).
    """
    switches = switches or {}
    values = {}
    for key, text in settings.items():
        if key not in known:
            raise GameSetupError(f"bot setting {key!r} is not known; settings: {', '.join(known)}")
        try:
            values[key] = int(text)
        except ValueError:
            raise GameSetupError(f"bot setting {key}={text!r}: a whole number is needed") from None
        if key in switches:
            if values[key] not in (0, 1):
                raise GameSetupError(f"bot setting {key}={text!r}: 1 ({switches[key]}) or 0")
        elif values[key] <= 0:
            raise GameSetupError(f"bot setting {key}={text!r}: must be above 0")
    return values


class Bot(abc.ABC):
    """Chooses a move for one seat; never mutates the state it is given."""

    name = "bot"

    @abc.abstractmethod
    def choose(self, state: State, seat: int, time_budget: float | None) -> Any:
        """A legal move for ``seat``, answering within ``time_budget`` seconds (None: no limit)."""

    def reset(self) -> None:
        """Forget anything learned during a game (called on undo)."""

    def prepare(self) -> None:
        """One-time work before the first move, such as compiling a search; the runner
        calls it when the match starts, before any clock runs."""


class RandomBot(Bot):
    """Uniformly random legal move, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int, time_budget: float | None) -> Any:
        return self.rng.choice(list(state.legal_moves(seat)))
