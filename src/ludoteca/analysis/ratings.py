"""Confidence intervals and Elo ratings for match results.

* `wilson_interval`: the Wilson score interval of a proportion (a draw counts half a win),
  which stays inside [0, 1] and behaves well near 0 % and 100 %, unlike the normal interval.
* `elo_ratings`: Elo ratings under the logistic (Bradley-Terry) model
  ``P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400))``, with draws counted as half a win for
  each side. The fit is the maximum a posteriori estimate with a weak normal prior on every
  rating (mean 0, standard deviation `PRIOR_ELO` points): with plenty of games it is the
  maximum-likelihood fit, and a player who won or lost every game still gets a finite rating
  (the plain maximum-likelihood estimate is infinite then). Ratings have mean 0; the error bars
  are standard errors of each rating relative to that mean, from the inverse of the posterior's
  information matrix.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

Z_95 = 1.959963984540054
ELO_SCALE = 400.0 / math.log(10.0)  # rating points per unit of the logistic model's log-odds
PRIOR_ELO = 400.0  # standard deviation of the prior on each rating


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
    pairs = [(index[a], index[b], points, games) for (a, b), (points, games) in scores.items()]
    precision = (ELO_SCALE / PRIOR_ELO) ** 2  # the prior's, in the model's units
    strength = np.zeros(n)
    hessian = np.eye(n) * precision
    for _ in range(100):  # Newton's method on the log-posterior, which is concave
        gradient = -precision * strength
        hessian = np.eye(n) * precision
        for i, j, points, games in pairs:
            expected = 1.0 / (1.0 + math.exp(strength[j] - strength[i]))
            gradient[i] += points - games * expected
            gradient[j] -= points - games * expected
            weight = games * expected * (1.0 - expected)
            hessian[i, i] += weight
            hessian[j, j] += weight
            hessian[i, j] -= weight
            hessian[j, i] -= weight
        step = np.linalg.solve(hessian, gradient)
        strength += step
        if np.max(np.abs(step)) < 1e-10:
            break
    # Results say nothing about the field's common level, so report the errors of the ratings
    # relative to the field's mean (the prior alone would otherwise add its spread to each).
    centring = np.eye(n) - np.ones((n, n)) / n
    covariance = centring @ np.linalg.inv(hessian) @ centring
    strength = centring @ strength
    return {
        name: Rating(
            elo=float(strength[i] * ELO_SCALE),
            error=float(math.sqrt(max(covariance[i, i], 0.0)) * ELO_SCALE),
        )
        for name, i in index.items()
    }
