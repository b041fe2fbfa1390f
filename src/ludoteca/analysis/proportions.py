"""Comparing two rates: the difference with its interval, a two-sided test, Holm's correction.

* `difference_interval`: Newcombe's hybrid score interval for ``p1 - p2`` (his method 10, built
  from the two Wilson intervals), which keeps its coverage near 0 % and 100 % where the plain
  normal (Wald) interval does not.
* `two_proportion_test`: the two-sided z test with the pooled rate under the null hypothesis
  ``p1 == p2`` (the same p-value as Pearson's chi-squared test of the 2x2 table without a
  continuity correction).
* `one_proportion_test`: a rate against a fixed value (50 % for seat balance): the score test,
  ``z = (p - p0) / sqrt(p0 (1 - p0) / n)``, whose 95 % acceptance region is exactly the Wilson
  interval: the interval excludes ``p0`` just when the test finds a difference at the 5 % level.
* `holm_adjust`: Holm's step-down adjustment of p-values for several comparisons at once; it
  keeps the chance of any false alarm among them at most the level, like Bonferroni's, while
  flagging more true differences.

The Wilson interval itself is `ludoteca.analysis.ratings.wilson_interval`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ludoteca.analysis.ratings import Z_95, wilson_interval


@dataclass(frozen=True, slots=True)
class Comparison:
    """Two rates compared.

    Attributes:
        difference: ``p1 - p2``.
        low: Lower end of the 95 % interval of the difference.
        high: Upper end of that interval.
        z: The test statistic (0 when both samples show the same rate or one is empty).
        p_value: The two-sided p-value, before any correction.
    """

    difference: float
    low: float
    high: float
    z: float
    p_value: float


def difference_interval(x1: int, n1: int, x2: int, n2: int, z: float = Z_95) -> tuple[float, float]:
    """Newcombe's score interval for the difference of ``x1/n1`` and ``x2/n2`` (95 % by default).

    >>> low, high = difference_interval(56, 70, 48, 80)
    >>> round(low, 4), round(high, 4)
    (0.0524, 0.3339)
    """
    if n1 <= 0 or n2 <= 0:
        return (-1.0, 1.0)
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson_interval(x1, n1, z)
    l2, u2 = wilson_interval(x2, n2, z)
    below = math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    above = math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return (max(-1.0, p1 - p2 - below), min(1.0, p1 - p2 + above))


def one_proportion_test(x: int, n: int, p0: float = 0.5) -> Comparison:
    """The rate ``x / n`` against ``p0``: the difference, its Wilson interval and the score test.

    ``low`` and ``high`` bound the difference ``x / n - p0`` (the Wilson interval of the rate,
    shifted by ``p0``).

    >>> result = one_proportion_test(60, 100)
    >>> round(result.z, 3), round(result.p_value, 4)
    (2.0, 0.0455)
    """
    if n <= 0:
        return Comparison(0.0, -p0, 1 - p0, 0.0, 1.0)
    low, high = wilson_interval(x, n)
    rate = x / n
    z = (rate - p0) / math.sqrt(p0 * (1 - p0) / n)
    return Comparison(rate - p0, low - p0, high - p0, z, math.erfc(abs(z) / math.sqrt(2)))


def two_proportion_test(x1: int, n1: int, x2: int, n2: int) -> Comparison:
    """The difference of two rates, its 95 % interval and the pooled two-sided z test.

    >>> result = two_proportion_test(56, 70, 48, 80)
    >>> round(result.z, 3), round(result.p_value, 4)
    (2.65, 0.008)
    """
    low, high = difference_interval(x1, n1, x2, n2)
    if n1 <= 0 or n2 <= 0:
        return Comparison(0.0, low, high, 0.0, 1.0)
    p1, p2 = x1 / n1, x2 / n2
    pooled = (x1 + x2) / (n1 + n2)
    variance = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if variance <= 0:  # both rates 0 % or both 100 %: no evidence of a difference
        return Comparison(p1 - p2, low, high, 0.0, 1.0)
    z = (p1 - p2) / math.sqrt(variance)
    return Comparison(p1 - p2, low, high, z, math.erfc(abs(z) / math.sqrt(2)))


def holm_adjust(p_values: Sequence[float]) -> list[float]:
    """Holm's adjusted p-values, in the order given: reject where the adjusted value < level.

    >>> [round(p, 3) for p in holm_adjust([0.01, 0.04, 0.03])]
    [0.03, 0.06, 0.06]
    """
    count = len(p_values)
    order = sorted(range(count), key=lambda i: p_values[i])
    adjusted = [0.0] * count
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (count - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
