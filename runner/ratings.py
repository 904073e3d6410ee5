"""Ratings for tournaments: Elo with error bars, a multi-player rating, SPRT.

Pure functions over finished games, in the order the caller gives (the tournament
gives match order, so a resumed event rates exactly as an uninterrupted one):

* :func:`elo_ratings`: Bradley-Terry maximum likelihood (draws count half a win each
  way), centred on 0, each with its 95 % error bar from the likelihood's curvature,
  as Ordo and BayesElo report them; for two-player games.
* :func:`openskill_ratings`: Weng-Lin Plackett-Luce ratings from the ``openskill``
  package for games of 2-4 seats ranked together (Robot, Tam Quan).
* :func:`sprt`: the sequential probability ratio test of an A/B match between two
  builds, with ``elo0``/``elo1``/``alpha``/``beta`` as cutechess and fastchess take
  them; the log-likelihood ratio is fishtest's logistic (trinomial) approximation.
* :func:`elo_from_score`: the Elo difference a score fraction means, with its error bar.
"""
from __future__ import annotations

import math
from typing import Iterable, Sequence

#: A two-player game: (first, second, score of first: 1, 0.5 or 0).
Game2 = tuple[str, str, float]

Z95 = 1.959963984540054


def expected(diff: float) -> float:
    """Expected score of a player ``diff`` Elo above its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-diff / 400.0))


def elo_from_score(score: float, games: int, variance: float | None = None) -> tuple[float, float]:
    """(Elo difference, 95 % error bar) for a mean score ``score`` over ``games`` games.

    ``variance`` is the per-game variance of the score (default: as if every game were
    decisive).  A score of 0 or 1 is clipped half a game in, so the numbers stay finite.
    """
    if games <= 0:
        return 0.0, math.inf
    eps = 0.5 / games
    p = min(max(score, eps), 1.0 - eps)
    elo = -400.0 * math.log10(1.0 / p - 1.0)
    var = p * (1 - p) if variance is None else max(variance, 1e-9)
    se = math.sqrt(var / games)
    d_elo = 400.0 / math.log(10) / (p * (1 - p))       # d elo / d p
    return elo, Z95 * se * d_elo


def elo_ratings(games: Sequence[Game2], iterations: int = 2000,
                prior_games: float = 1.0) -> dict[str, tuple[float, float]]:
    """``{player: (Elo, 95 % error bar)}`` by Bradley-Terry maximum likelihood.

    The prior: for each of ``prior_games``, every player also gets one virtual win and
    one virtual loss against a fixed player rated 0 (strength 1 before the centring),
    so a player who won or lost every game keeps a finite rating and one with few
    games is pulled toward 0 (30 wins to 10 come out 185 Elo apart, not 191).  Each
    error bar counts the prior as ``prior_games`` more even games (information 1/4
    each).  Ratings are centred so their mean is 0.
    """
    players = sorted({p for a, b, _ in games for p in (a, b)})
    if not players:
        return {}
    wins = {p: 0.0 for p in players}          # points scored
    meetings: dict[tuple[str, str], int] = {}
    for a, b, s in games:
        wins[a] += s
        wins[b] += 1.0 - s
        key = (a, b) if a < b else (b, a)
        meetings[key] = meetings.get(key, 0) + 1
    opponents: dict[str, list[tuple[str, int]]] = {p: [] for p in players}
    for (a, b), n in meetings.items():
        opponents[a].append((b, n))
        opponents[b].append((a, n))
    gamma = {p: 1.0 for p in players}
    for _ in range(iterations):               # Hunter's MM algorithm for Bradley-Terry
        new = {}
        for p in players:
            denom = prior_games * 2.0 / (gamma[p] + 1.0)   # the virtual win and loss against 1.0
            for q, n in opponents[p]:
                denom += n / (gamma[p] + gamma[q])
            new[p] = (wins[p] + prior_games) / denom if denom else gamma[p]
        change = max(abs(math.log(new[p] / gamma[p])) for p in players)
        gamma = new
        if change < 1e-10:
            break
    scale = 400.0 / math.log(10)
    elo = {p: scale * math.log(gamma[p]) for p in players}
    mean = sum(elo.values()) / len(elo)
    result = {}
    for p in players:
        info = prior_games * 0.25                # Fisher information in natural-log units: the
                                                 # prior as prior_games even games
        for q_name, n in opponents[p]:
            q = gamma[p] / (gamma[p] + gamma[q_name])
            info += n * q * (1 - q)
        result[p] = (elo[p] - mean, Z95 * scale / math.sqrt(info))
    return result


def openskill_ratings(matches: Iterable[tuple[Sequence[str], Sequence[int]]],
                      players: Sequence[str]) -> dict[str, tuple[float, float, float]]:
    """``{player: (mu, sigma, ordinal mu - 3 sigma)}`` from ranked matches, in order.

    Each match is (players in seat order, their ranks, 1 the best; ties share a rank).
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {p: model.rating(name=p) for p in players}
    for names, ranks in matches:
        if len(names) < 2:
            continue
        teams = [[ratings[n]] for n in names]
        rated = model.rate(teams, ranks=list(ranks))
        for n, team in zip(names, rated):
            ratings[n] = team[0]
    return {p: (r.mu, r.sigma, r.ordinal()) for p, r in ratings.items()}


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper) log-likelihood-ratio bounds: accept H0 below, H1 above."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (Elo ``elo1``) against H0 (``elo0``), from W/D/L of A
    against B (fishtest's logistic approximation)."""
    n = wins + draws + losses
    if n == 0:
        return 0.0
    mean = (wins + 0.5 * draws) / n
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / n
    if var <= 0:          # every game the same result: half a game of each result as a prior
        w, d, l = wins + 0.5, draws + 0.5, losses + 0.5
        n = w + d + l
        mean = (w + 0.5 * d) / n
        var = (w * (1 - mean) ** 2 + d * (0.5 - mean) ** 2 + l * mean ** 2) / n
    s0, s1 = expected(elo0), expected(elo1)
    return (s1 - s0) * (2 * mean - s0 - s1) / (2 * var / n)


def sprt(wins: int, draws: int, losses: int, elo0: float, elo1: float,
         alpha: float = 0.05, beta: float = 0.05) -> dict:
    """The SPRT's state: llr, bounds and decision ("H1" A is stronger by elo1, "H0" not
    stronger than elo0, or "" to go on)."""
    llr = sprt_llr(wins, draws, losses, elo0, elo1)
    lower, upper = sprt_bounds(alpha, beta)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else ""
    return {"llr": llr, "lower": lower, "upper": upper, "decision": decision,
            "wins": wins, "draws": draws, "losses": losses,
            "elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta}
