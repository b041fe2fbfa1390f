"""Tests and intervals for the numbers of games that are not rates: lengths, choices, leads.

* `rank_test`: the Mann-Whitney U test (Wilcoxon rank-sum) of "the two samples come from the
  same distribution", with mid-ranks for ties, the tie-corrected variance and a continuity
  correction of 1/2 (the normal approximation; studies have hundreds of games or more). It also
  gives the *probability of superiority*, ``P(a > b) + P(a = b) / 2`` for a game drawn from each.
* `mean_difference`: the difference of two means with Welch's standard error (the variances
  are not assumed equal) and a normal 95 % interval.
* `median_difference`: the difference of two medians with a percentile bootstrap interval,
  seeded, so the same samples always give the same interval.
* `ratio_difference`: the difference of two ratios of sums (legal moves per decision: all the
  legal moves counted over all the decisions), games as the independent units, with the
  linearised (delta-method) standard error; a z test and a normal 95 % interval.
* `mean_interval` and `ratio_interval`: the same intervals for one sample.

Every function takes numpy arrays of one value per game; the ranks and the bootstrap work on the
distinct values and their counts, so 100,000 games of a few hundred distinct lengths cost little.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ludoteca.analysis.ratings import Z_95

Sample = npt.NDArray[np.floating] | npt.NDArray[np.integer]
BOOTSTRAP_RESAMPLES = 2000
_CHUNK = 100  # bootstrap resamples drawn at once (memory: chunk x distinct values)


@dataclass(frozen=True, slots=True)
class RankTest:
    """The Mann-Whitney U test of two samples.

    Attributes:
        u: U of the first sample: how many (a, b) pairs have a > b, ties counting half.
        superiority: ``u / (len(a) * len(b))``: the chance that a game of ``a`` exceeds one of
            ``b`` (ties counting half); 0.5 when neither tends to be larger.
        z: The standardised statistic, continuity-corrected (0 when the samples cannot differ).
        p_value: The two-sided p-value (1 when every value of both samples is the same).
    """

    u: float
    superiority: float
    z: float
    p_value: float


@dataclass(frozen=True, slots=True)
class Interval:
    """An estimate with its 95 % interval (and, for tests, the z statistic and p-value)."""

    estimate: float
    low: float
    high: float
    z: float = 0.0
    p_value: float = 1.0


def rank_test(a: Sample, b: Sample) -> RankTest:
    """The two-sided Mann-Whitney U test of ``a`` against ``b`` (NaNs must be removed first).

    >>> result = rank_test(np.array([3, 4, 5, 6]), np.array([1, 2, 3]))
    >>> result.u, round(result.p_value, 4)
    (11.5, 0.0745)
    """
    n1, n2 = len(a), len(b)
    if n1 == 0 or n2 == 0:
        return RankTest(0.0, 0.5, 0.0, 1.0)
    values, inverse = np.unique(np.concatenate([a, b]), return_inverse=True)
    counts = np.bincount(inverse, minlength=values.size)
    counts_a = np.bincount(inverse[:n1], minlength=values.size)
    below = np.cumsum(counts) - counts
    mid_ranks = below + (counts + 1) / 2
    u = float((counts_a * mid_ranks).sum() - n1 * (n1 + 1) / 2)
    n = n1 + n2
    ties = float((counts.astype(np.float64) ** 3 - counts).sum())
    variance = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))) if n > 1 else 0.0
    superiority = u / (n1 * n2)
    if variance <= 0:
        return RankTest(u, superiority, 0.0, 1.0)
    shift = u - n1 * n2 / 2
    z = math.copysign(max(0.0, abs(shift) - 0.5), shift) / math.sqrt(variance)
    return RankTest(u, superiority, z, min(1.0, math.erfc(abs(z) / math.sqrt(2))))


def mean_interval(values: Sample) -> Interval | None:
    """The mean of ``values`` with its normal 95 % interval; ``None`` for fewer than 2 values."""
    n = len(values)
    if n < 2:
        return None
    mean = float(np.mean(values))
    half = Z_95 * float(np.std(values, ddof=1)) / math.sqrt(n)
    return Interval(mean, mean - half, mean + half)


def mean_difference(a: Sample, b: Sample) -> Interval | None:
    """``mean(a) - mean(b)`` with Welch's standard error, its 95 % interval and z test.

    ``None`` when a sample has fewer than 2 values.

    >>> result = mean_difference(np.array([1.0, 2, 3, 4]), np.array([1.0, 1, 2, 2]))
    >>> round(result.estimate, 3), round(result.low, 3), round(result.high, 3)
    (1.0, -0.386, 2.386)
    """
    if len(a) < 2 or len(b) < 2:
        return None
    difference = float(np.mean(a) - np.mean(b))
    error = math.sqrt(np.var(a, ddof=1) / len(a) + np.var(b, ddof=1) / len(b))
    return _normal(difference, error)


def ratio_interval(numerators: Sample, denominators: Sample) -> Interval | None:
    """``sum(numerators) / sum(denominators)`` with its delta-method 95 % interval.

    ``None`` for fewer than 2 games or no denominator at all.
    """
    estimate, error = _ratio(numerators, denominators)
    if error is None:
        return None
    return Interval(estimate, estimate - Z_95 * error, estimate + Z_95 * error)


def ratio_difference(
    numerators_a: Sample, denominators_a: Sample, numerators_b: Sample, denominators_b: Sample
) -> Interval | None:
    """The difference of two ratios of sums, its 95 % interval and z test (games independent).

    ``None`` when either sample has fewer than 2 games or no denominator at all.
    """
    ratio_a, error_a = _ratio(numerators_a, denominators_a)
    ratio_b, error_b = _ratio(numerators_b, denominators_b)
    if error_a is None or error_b is None:
        return None
    return _normal(ratio_a - ratio_b, math.hypot(error_a, error_b))


def _ratio(numerators: Sample, denominators: Sample) -> tuple[float, float | None]:
    """A ratio of sums and its linearised standard error (``None`` when it has none)."""
    n = len(numerators)
    total = float(np.sum(denominators))
    if n < 2 or total <= 0:
        return (float("nan"), None)
    ratio = float(np.sum(numerators)) / total
    residuals = np.asarray(numerators, dtype=np.float64) - ratio * np.asarray(denominators)
    variance = float(np.sum(residuals**2)) / (n * (n - 1)) / (total / n) ** 2
    return ratio, math.sqrt(variance)


def _normal(difference: float, error: float) -> Interval:
    """A difference with its normal 95 % interval and two-sided z test."""
    if error <= 0:  # no spread at all: the difference is exact
        return Interval(difference, difference, difference, 0.0, 1.0 if difference == 0 else 0.0)
    z = difference / error
    half = Z_95 * error
    return Interval(difference, difference - half, difference + half, z, math.erfc(abs(z) / 2**0.5))


def median_difference(
    a: Sample, b: Sample, *, seed: int, resamples: int = BOOTSTRAP_RESAMPLES
) -> Interval | None:
    """``median(a) - median(b)`` with its percentile bootstrap 95 % interval.

    Each resample draws ``len(a)`` games from ``a`` and ``len(b)`` from ``b`` with replacement
    (as counts of the distinct values, by a multinomial draw); the interval runs from the 2.5th
    to the 97.5th percentile of the resampled differences. ``None`` for an empty sample.
    """
    if len(a) == 0 or len(b) == 0:
        return None
    generator = np.random.default_rng(seed)
    estimate = float(np.median(a) - np.median(b))
    draws = _bootstrap_medians(a, resamples, generator) - _bootstrap_medians(
        b, resamples, generator
    )
    # The ends are resampled differences themselves (not interpolated between two), rounded
    # outwards: medians of whole numbers stay whole or half numbers.
    low = np.percentile(draws, 2.5, method="lower")
    high = np.percentile(draws, 97.5, method="higher")
    return Interval(estimate, float(low), float(high))


def _bootstrap_medians(values: Sample, resamples: int, generator: np.random.Generator) -> Any:
    distinct, counts = np.unique(values, return_counts=True)
    n = int(counts.sum())
    shares = counts / n
    medians = []
    for start in range(0, resamples, _CHUNK):
        drawn = generator.multinomial(n, shares, size=min(_CHUNK, resamples - start))
        running = np.cumsum(drawn, axis=1)
        lower = (running > (n - 1) // 2).argmax(axis=1)
        upper = (running > n // 2).argmax(axis=1)
        medians.append((distinct[lower] + distinct[upper]) / 2)
    return np.concatenate(medians)
