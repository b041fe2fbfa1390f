from __future__ import annotations

import math

import pytest

from ludoteca.analysis.ratings import elo_ratings, wilson_interval


def test_wilson_interval_matches_the_textbook_values() -> None:
    # 8 of 10: the Wilson 95% interval is 0.490 to 0.943 (Newcombe 1998, Table I).
    low, high = wilson_interval(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_elo_of_a_three_to_one_score_is_191_points_apart() -> None:
    ratings = elo_ratings(["a", "b"], {("a", "b"): (30.0, 40)})
    gap = ratings["a"].elo - ratings["b"].elo
    assert gap == pytest.approx(400 * math.log10(3), abs=0.01)  # 190.85
    assert ratings["a"].elo == pytest.approx(-ratings["b"].elo)
    # standard error of the gap: 400/ln 10 / sqrt(n p (1 - p)), split over two centred ratings
    assert ratings["a"].error == pytest.approx(400 / math.log(10) / math.sqrt(40 * 0.1875) / 2)


def test_elo_orders_a_field_and_centres_it_on_zero() -> None:
    scores = {("a", "b"): (30.0, 40), ("a", "c"): (38.0, 40), ("b", "c"): (30.0, 40)}
    ratings = elo_ratings(["a", "b", "c"], scores)
    assert ratings["a"].elo > ratings["b"].elo > ratings["c"].elo
    assert sum(r.elo for r in ratings.values()) == pytest.approx(0.0, abs=1e-9)


def test_a_perfect_score_has_no_finite_rating_error() -> None:
    ratings = elo_ratings(["a", "b"], {("a", "b"): (10.0, 10)})
    assert ratings["a"].elo == 1200.0
    assert math.isinf(ratings["a"].error)
