"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012), as puzzles use them.

A rating is three numbers: the rating ``r`` (1500 for a newcomer), its deviation ``RD`` (how
unsure it is: 350 for a newcomer; about 95 % of the time the true strength lies within two RD)
and the volatility ``sigma`` (how erratic the player is: 0.06 for a newcomer). `rate` is the
paper's update for one rating period, step by step:

1. Convert to the Glicko-2 scale: ``mu = (r - 1500) / 173.7178``, ``phi = RD / 173.7178``.
2. For each opponent j: ``g(phi_j) = 1 / sqrt(1 + 3 phi_j^2 / pi^2)`` and the expected score
   ``E_j = 1 / (1 + exp(-g(phi_j) (mu - mu_j)))``.
3. The estimated variance ``v = 1 / sum g(phi_j)^2 E_j (1 - E_j)``.
4. The estimated improvement ``delta = v sum g(phi_j) (s_j - E_j)`` (s_j: 1 win, 0.5 draw,
   0 loss).
5. The new volatility ``sigma'``: the root of ``f(x) = e^x (delta^2 - phi^2 - v - e^x) /
   (2 (phi^2 + v + e^x)^2) - (x - ln sigma^2) / tau^2``, found by the Illinois algorithm (the
   paper's step 5) to within `EPSILON`; ``sigma' = exp(x / 2)``.
6. ``phi* = sqrt(phi^2 + sigma'^2)``.
7. ``phi' = 1 / sqrt(1 / phi*^2 + 1 / v)`` and ``mu' = mu + phi'^2 sum g(phi_j) (s_j - E_j)``.
8. Back to the Glicko scale: ``r' = 173.7178 mu' + 1500``, ``RD' = 173.7178 phi'``.

A player with no games in the period keeps rating and volatility, and the deviation grows to
``sqrt(phi^2 + sigma^2)`` (step 6 alone).

The system constant ``tau`` limits how fast the volatility changes; Glickman suggests 0.3 to
1.2, and his worked example uses 0.5 (our default, `TAU`). The module is written here rather
than taken from a package: the most used one on PyPI (``glicko2`` 2.1.0) is a mutable player
class with camelCase accessors, a class-wide ``tau`` and no type hints, and the others are
young one-person releases. Its test replays the paper's worked example.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

#: The ratio between the Glicko and the Glicko-2 scales.
SCALE: Final = 173.7178
#: A newcomer's rating, deviation and volatility.
DEFAULT_RATING: Final = 1500.0
DEFAULT_DEVIATION: Final = 350.0
DEFAULT_VOLATILITY: Final = 0.06
#: The system constant (the paper's example uses 0.5).
TAU: Final = 0.5
#: The convergence tolerance of the volatility's root finding (the paper's value).
EPSILON: Final = 1e-6


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale.

    Attributes:
        rating: The rating (1500 for a newcomer).
        deviation: The rating deviation RD (350 for a newcomer).
        volatility: The volatility sigma (0.06 for a newcomer).
    """

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    def public(self) -> dict[str, float]:
        """The JSON-ready form: rating and deviation rounded to tenths, the volatility to 1e-6."""
        return {
            "rating": round(self.rating, 1),
            "deviation": round(self.deviation, 1),
            "volatility": round(self.volatility, 6),
        }


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The player's expected score against the opponent (step 2's ``E``)."""
    return _expected(
        (player.rating - DEFAULT_RATING) / SCALE,
        (opponent.rating - DEFAULT_RATING) / SCALE,
        opponent.deviation / SCALE,
    )


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Iterable[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """The player's rating after one rating period.

    Args:
        player: The rating at the start of the period.
        results: Each game of the period: the opponent's rating at the start of the period and
            the player's score (1 win, 0.5 draw, 0 loss).
        tau: The system constant.

    Raises:
        ValueError: A score outside 0..1, or a deviation or volatility that is not positive.
    """
    if player.deviation <= 0 or player.volatility <= 0:
        raise ValueError(f"deviation and volatility must be positive; got {player}")
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    games = list(results)
    if not games:
        return Rating(
            player.rating, SCALE * math.sqrt(phi * phi + player.volatility**2), player.volatility
        )
    variance_sum = improvement_sum = 0.0
    for opponent, score in games:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is 1 (win), 0.5 (draw) or 0 (loss); got {score}")
        mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = opponent.deviation / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        variance_sum += g * g * e * (1.0 - e)
        improvement_sum += g * (score - e)
    v = 1.0 / variance_sum
    delta = v * improvement_sum
    sigma = _volatility(phi, player.volatility, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement_sum
    return Rating(SCALE * mu_new + DEFAULT_RATING, SCALE * phi_new, sigma)


def rate_pair(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both ratings after one game between them, ``score`` being the first's (a period each)."""
    return rate(first, [(second, score)]), rate(second, [(first, 1.0 - score)])
