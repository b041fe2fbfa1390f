"""Confidence intervals and Elo ratings for match results.

* `wilson_interval`: the Wilson score interval of a proportion (a draw counts half a win),
  which stays inside [0, 1] and behaves well near 0 % and 100 %, unlike the normal interval.
* `elo_ratings`: maximum-likelihood Elo ratings under the logistic (Bradley-Terry) model
  ``P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400))``, with draws counted as half a win for
  each side. Ratings are centred on a mean of 0; the error bars are standard errors from the
  inverse of the observed information (Fisher) matrix of the centred fit. A player who won or
  lost every game has no finite estimate: its rating is clamped at +-1200 with an infinite error.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

Z_95 = 1.959963984540054
ELO_SCALE = 400.0 / math.log(10.0)  # rating points per unit of the logistic model's log-odds
MAX_ELO = 1200.0  # a player who never lost or never won has no finite MLE: ratings are clamped


def wilson_interval(score: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for ``score`` points out of ``games`` (95 % by default).

    >>> low, high = wilson_interval(9, 10)
    >>> round(low, 3), round(high, 3)
    (0.596, 0.982)
    """
    if games <= 0:
        return (0.0, 1.0)
    p = score / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class Rating:
    """An Elo rating with its standard error (rating points)."""

    elo: float
    error: float


def elo_ratings(
    players: Sequence[str], scores: Mapping[tuple[str, str], tuple[float, int]]
) -> dict[str, Rating]:
    """Fit Elo ratings to pairwise results.

    Args:
        players: Every player's name.
        scores: ``(a, b) -> (points a scored against b, games a played against b)``; each pair
            needs one direction only.

    Returns:
        Per player, the rating (mean 0) and its standard error.
    """
    index = {name: i for i, name in enumerate(players)}
    n = len(players)
    if n < 2:
        return {name: Rating(0.0, 0.0) for name in players}
    pairs = [(index[a], index[b], points, games) for (a, b), (points, games) in scores.items()]
    strength = np.zeros(n)
    for _ in range(200):  # Newton's method on the log-likelihood, with a small ridge
        gradient = np.zeros(n)
        hessian = np.eye(n) * 1e-6
        for i, j, points, games in pairs:
            expected = 1.0 / (1.0 + math.exp(strength[j] - strength[i]))
            gradient[i] += points - games * expected
            gradient[j] -= points - games * expected
            weight = games * expected * (1.0 - expected)
            hessian[i, i] += weight
            hessian[j, j] += weight
            hessian[i, j] -= weight
            hessian[j, i] -= weight
        step = np.linalg.solve(hessian + np.ones((n, n)) / n, gradient)  # fixes the mean
        strength = np.clip(strength + step, -MAX_ELO / ELO_SCALE, MAX_ELO / ELO_SCALE)
        strength -= strength.mean()
        if np.max(np.abs(step)) < 1e-9:
            break
    covariance = np.linalg.pinv(hessian)
    centring = np.eye(n) - np.ones((n, n)) / n
    covariance = centring @ covariance @ centring
    bound = MAX_ELO / ELO_SCALE - 1e-6
    return {
        name: Rating(
            elo=float(strength[i] * ELO_SCALE),
            error=math.inf  # a clamped rating: all won or all lost, no finite estimate
            if abs(strength[i]) >= bound
            else float(math.sqrt(max(covariance[i, i], 0.0)) * ELO_SCALE),
        )
        for name, i in index.items()
    }
