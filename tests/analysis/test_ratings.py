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


def test_with_many_games_elo_is_the_maximum_likelihood_gap() -> None:
    # A 3:1 score is 400 * log10(3) = 190.85 points apart; 4,000 games leave the prior no say.
    ratings = elo_ratings(["a", "b"], {("a", "b"): (3000.0, 4000)})
    gap = ratings["a"].elo - ratings["b"].elo
    assert gap == pytest.approx(400 * math.log10(3), rel=0.01)
    assert ratings["a"].elo == pytest.approx(-ratings["b"].elo)
    # the gap's standard error: 400/ln 10 / sqrt(n p (1 - p)), half of it on each rating
    expected = 400 / math.log(10) / math.sqrt(4000 * 0.1875) / 2
    assert ratings["a"].error == pytest.approx(expected, rel=0.02)


def test_elo_orders_a_field_and_centres_it_on_zero() -> None:
    scores = {("a", "b"): (30.0, 40), ("a", "c"): (38.0, 40), ("b", "c"): (30.0, 40)}
    ratings = elo_ratings(["a", "b", "c"], scores)
    assert ratings["a"].elo > ratings["b"].elo > ratings["c"].elo
    assert sum(r.elo for r in ratings.values()) == pytest.approx(0.0, abs=1e-6)


def test_perfect_scores_still_give_finite_ordered_ratings() -> None:
    # 1 beats everyone, 2 beats 3 and 4, ...: maximum likelihood would put them at infinity.
    names = ["1", "2", "3", "4"]
    scores = {(a, b): (4.0, 4) for i, a in enumerate(names) for b in names[i + 1 :]}
    ratings = elo_ratings(names, scores)
    elos = [ratings[name].elo for name in names]
    assert elos == sorted(elos, reverse=True)
    assert all(math.isfinite(r.elo) and 0 < r.error < 400 for r in ratings.values())


def test_a_player_without_games_stays_at_the_mean_with_a_wide_error() -> None:
    ratings = elo_ratings(["a", "b", "idle"], {("a", "b"): (6.0, 10)})
    assert ratings["idle"].elo == pytest.approx(0.0, abs=1e-6)
    assert ratings["idle"].error > 1.5 * ratings["a"].error
