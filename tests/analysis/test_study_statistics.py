"""The statistics of studies against SciPy's reference implementations and values by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from ludoteca.analysis.proportions import one_proportion_test, two_proportion_test
from ludoteca.analysis.ratings import wilson_interval
from ludoteca.analysis.study_statistics import (
    mean_difference,
    mean_interval,
    median_difference,
    rank_test,
    ratio_difference,
    ratio_interval,
)

Z = stats.norm.ppf(0.975)


def _samples(seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Pairs of samples like games' lengths: integers with many ties, and floats without."""
    rng = np.random.default_rng(seed)
    return [
        (rng.integers(180, 200, 300), rng.integers(182, 205, 500)),
        (rng.poisson(40, 2000), rng.poisson(40, 1500)),
        (rng.normal(0.5, 0.2, 60), rng.normal(0.6, 0.2, 45)),
        (np.array([3, 4, 5, 6]), np.array([1, 2, 3])),
    ]


@pytest.mark.parametrize(("a", "b"), _samples(1))
def test_the_rank_test_is_scipys_mann_whitney_u(a: np.ndarray, b: np.ndarray) -> None:
    ours = rank_test(a, b)
    reference = stats.mannwhitneyu(a, b, alternative="two-sided", method="asymptotic")
    assert ours.u == pytest.approx(reference.statistic)
    assert ours.p_value == pytest.approx(reference.pvalue, rel=1e-9)
    assert ours.superiority == pytest.approx(reference.statistic / (len(a) * len(b)))


def test_the_rank_test_by_hand() -> None:
    # a = 3 4 5 6, b = 1 2 3: pairs with a > b: 3 beats 1, 2 (and ties 3: half) -> 2.5;
    # 4, 5, 6 beat all three -> 9; U = 11.5 of 12 pairs.
    result = rank_test(np.array([3, 4, 5, 6]), np.array([1, 2, 3]))
    assert result.u == 11.5
    assert result.superiority == pytest.approx(11.5 / 12)
    assert result.z > 0  # a tends to be larger
    assert rank_test(np.array([1, 2, 3]), np.array([3, 4, 5, 6])).z == pytest.approx(-result.z)


def test_samples_of_one_value_throughout_show_no_difference() -> None:
    same = rank_test(np.full(50, 7), np.full(80, 7))
    assert (same.z, same.p_value, same.superiority) == (0.0, 1.0, 0.5)
    assert rank_test(np.array([]), np.array([1, 2])).p_value == 1.0


@pytest.mark.parametrize(("a", "b"), _samples(2)[:3])
def test_the_mean_difference_is_welchs(a: np.ndarray, b: np.ndarray) -> None:
    ours = mean_difference(a, b)
    assert ours is not None
    welch = stats.ttest_ind(a, b, equal_var=False)
    error = math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    assert ours.estimate == pytest.approx(a.mean() - b.mean())
    assert ours.z == pytest.approx(welch.statistic)  # the same statistic: difference / error
    assert (ours.low, ours.high) == pytest.approx(
        (ours.estimate - Z * error, ours.estimate + Z * error)
    )
    assert ours.p_value == pytest.approx(2 * stats.norm.sf(abs(welch.statistic)))


def test_a_mean_interval_by_hand() -> None:
    # 1, 2, 3, 4: mean 2.5, standard deviation 1.2910, error 0.6455, half-width 1.2652.
    interval = mean_interval(np.array([1.0, 2.0, 3.0, 4.0]))
    assert interval is not None
    assert (interval.low, interval.high) == pytest.approx((1.2348, 3.7652), abs=1e-4)
    assert mean_interval(np.array([5.0])) is None
    assert mean_difference(np.array([1.0]), np.array([1.0, 2.0])) is None


def test_the_ratio_of_sums_by_hand() -> None:
    # Games with 10/2, 12/3 and 20/5 legal moves/decisions: ratio 42/10 = 4.2. Residuals
    # 10 - 8.4 = 1.6, 12 - 12.6 = -0.6, 20 - 21 = -1; sum of squares 3.92; variance
    # 3.92 / (3 * 2) / (10 / 3)^2 = 0.0588; error 0.24249.
    interval = ratio_interval(np.array([10, 12, 20]), np.array([2, 3, 5]))
    assert interval is not None
    assert interval.estimate == pytest.approx(4.2)
    assert interval.high - interval.estimate == pytest.approx(Z * 0.24249, abs=1e-4)


def test_with_one_decision_per_game_the_ratio_is_a_mean_and_its_error_scipys_sem() -> None:
    rng = np.random.default_rng(3)
    legal = rng.integers(5, 30, 400)
    ones = np.ones(400, dtype=np.int64)
    interval = ratio_interval(legal, ones)
    assert interval is not None
    assert interval.estimate == pytest.approx(legal.mean())
    assert (interval.high - interval.low) / 2 == pytest.approx(Z * stats.sem(legal))
    other = rng.integers(6, 31, 300)
    difference = ratio_difference(legal, ones, other, np.ones(300, dtype=np.int64))
    assert difference is not None
    assert difference.z == pytest.approx(stats.ttest_ind(legal, other, equal_var=False).statistic)


def test_the_median_difference_and_its_bootstrap_interval() -> None:
    rng = np.random.default_rng(4)
    b = rng.integers(100, 140, 3001)
    a = b + 10  # the same games, ten plies longer: the median moves by exactly 10
    result = median_difference(a, b, seed=1)
    assert result is not None
    assert result.estimate == 10
    assert result.low <= 10 <= result.high
    assert median_difference(a, b, seed=1) == result  # seeded: the same interval every time
    constant = median_difference(np.full(100, 50), np.full(90, 40), seed=2)
    assert constant is not None and (constant.estimate, constant.low, constant.high) == (10, 10, 10)


def test_the_bootstrap_of_counts_matches_scipys_bootstrap_of_games() -> None:
    rng = np.random.default_rng(5)
    a, b = rng.poisson(60, 400), rng.poisson(57, 500)
    ours = median_difference(a, b, seed=6, resamples=4000)
    assert ours is not None
    reference = stats.bootstrap(
        (a, b),
        lambda x, y, axis: np.median(x, axis=axis) - np.median(y, axis=axis),
        n_resamples=4000,
        method="percentile",
        random_state=np.random.default_rng(7),
    ).confidence_interval
    # Medians of whole numbers move in steps of 1/2; two bootstraps agree within a step.
    assert abs(ours.low - reference.low) <= 0.5
    assert abs(ours.high - reference.high) <= 0.5


@pytest.mark.parametrize(("x", "n"), [(81, 263), (15, 148), (0, 20), (1, 29), (17287, 20000)])
def test_wilson_intervals_are_scipys(x: int, n: int) -> None:
    reference = stats.binomtest(x, n).proportion_ci(method="wilson")
    assert wilson_interval(x, n) == pytest.approx((reference.low, reference.high), abs=1e-6)


@pytest.mark.parametrize(("x", "n"), [(60, 100), (52, 100), (17287, 20000), (0, 7)])
def test_the_balance_test_is_pearsons_goodness_of_fit_and_agrees_with_wilson(
    x: int, n: int
) -> None:
    result = one_proportion_test(x, n)
    reference = stats.chisquare([x, n - x])
    assert result.z**2 == pytest.approx(reference.statistic)
    assert result.p_value == pytest.approx(reference.pvalue)
    low, high = wilson_interval(x, n)
    assert (result.low, result.high) == pytest.approx((low - 0.5, high - 0.5))
    # The score test and the Wilson interval are one: 50 % is outside just when p < 0.05.
    assert (result.p_value < 0.05) == (not low <= 0.5 <= high)


@pytest.mark.parametrize(
    ("x1", "n1", "x2", "n2"), [(56, 70, 48, 80), (2713, 20000, 2941, 20000), (5, 56, 0, 29)]
)
def test_the_two_proportion_test_is_scipys_chi_squared(x1: int, n1: int, x2: int, n2: int) -> None:
    result = two_proportion_test(x1, n1, x2, n2)
    table = [[x1, n1 - x1], [x2, n2 - x2]]
    chi2, p, _, _ = stats.chi2_contingency(table, correction=False)
    assert result.z**2 == pytest.approx(chi2)
    assert result.p_value == pytest.approx(p)
