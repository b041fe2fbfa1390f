"""The statistics of studies against published values (Newcombe, Statistics in Medicine 1998)."""

from __future__ import annotations

import pytest

from ludoteca.analysis.proportions import difference_interval, holm_adjust, two_proportion_test
from ludoteca.analysis.ratings import wilson_interval

# Single proportions: Newcombe's worked examples of the Wilson score interval.
WILSON = [
    (81, 263, (0.2553, 0.3662)),
    (15, 148, (0.0624, 0.1605)),
    (0, 20, (0.0000, 0.1611)),
    (1, 29, (0.0061, 0.1718)),
]

# Differences of two proportions: his method 10 (the hybrid score interval), Table II.
DIFFERENCES = [
    (56, 70, 48, 80, (0.0524, 0.3339)),
    (9, 10, 3, 10, (0.1705, 0.8090)),
    (6, 7, 2, 7, (0.0582, 0.8062)),
    (5, 56, 0, 29, (-0.0381, 0.1926)),
]


@pytest.mark.parametrize(("wins", "games", "expected"), WILSON)
def test_wilson_intervals_match_published_values(
    wins: int, games: int, expected: tuple[float, float]
) -> None:
    low, high = wilson_interval(wins, games)
    assert (round(low, 4), round(high, 4)) == expected


@pytest.mark.parametrize(("x1", "n1", "x2", "n2", "expected"), DIFFERENCES)
def test_difference_intervals_match_newcombes_method_10(
    x1: int, n1: int, x2: int, n2: int, expected: tuple[float, float]
) -> None:
    low, high = difference_interval(x1, n1, x2, n2)
    assert (round(low, 4), round(high, 4)) == expected


def test_the_two_proportion_test_is_pearsons_chi_squared_without_correction() -> None:
    # 56/70 against 48/80: chi-squared 7.0234 on one degree of freedom, p = 0.00804.
    result = two_proportion_test(56, 70, 48, 80)
    assert result.difference == pytest.approx(0.2)
    assert result.z**2 == pytest.approx(7.0234, abs=1e-3)
    assert result.p_value == pytest.approx(0.008045, abs=1e-5)
    assert (result.low, result.high) == pytest.approx(difference_interval(56, 70, 48, 80))


def test_the_test_is_two_sided_and_symmetric() -> None:
    forward = two_proportion_test(30, 100, 45, 100)
    backward = two_proportion_test(45, 100, 30, 100)
    assert forward.z == pytest.approx(-backward.z)
    assert forward.p_value == pytest.approx(backward.p_value)
    # 30 % against 45 % of 100 games: z = -2.191, p = 0.0285.
    assert forward.z == pytest.approx(-2.1909, abs=1e-4)
    assert forward.p_value == pytest.approx(0.02846, abs=1e-4)


def test_equal_certain_rates_show_no_difference() -> None:
    result = two_proportion_test(100, 100, 50, 50)
    assert (result.difference, result.z, result.p_value) == (0.0, 0.0, 1.0)
    assert two_proportion_test(0, 0, 5, 10).p_value == 1.0


def test_holms_adjustment() -> None:
    # Holm (1979) step-down: sorted p 0.01, 0.02, 0.03, 0.04 times 4, 3, 2, 1, kept monotone.
    assert holm_adjust([0.04, 0.01, 0.03, 0.02]) == pytest.approx([0.06, 0.04, 0.06, 0.06])
    assert holm_adjust([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm_adjust([0.001]) == [0.001]
    assert holm_adjust([]) == []
