"""Statistics the bench scripts share."""

from __future__ import annotations

import math


def wilson_interval(points: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval (95% with the default ``z``) for a share of ``points`` out
    of ``games``; a draw counts half a point.  Unlike the normal approximation it stays
    within 0..1 and is sound near 0% and 100%."""
    if games == 0:
        return 0.0, 1.0
    share = points / games
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - spread), min(1.0, centre + spread)
