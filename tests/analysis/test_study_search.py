"""The variant search: objectives, racing, budgets and seeds."""

from __future__ import annotations

import itertools
import math
from statistics import NormalDist
from typing import Any

import numpy as np
import pytest

from ludoteca.analysis.batches import BatchRunner
from ludoteca.analysis.study_games import StudyError
from ludoteca.analysis.study_objectives import evaluate, measures, parse_objective
from ludoteca.analysis.study_search import SEARCH_BATCH, plan_search, run_search
from tests.analysis.study_tables import table


def search(jobs: int = 1, **settings: Any) -> dict[str, Any]:
    plan = plan_search("salt_n_pepper", **settings)
    with BatchRunner(jobs=jobs) as runner:
        return run_search(plan, runner)


def test_balance_finds_that_the_weaker_side_should_move_first() -> None:
    # Random Pepper wins most games: letting Salt move first is the most balanced start.
    result = search(search=["first=0,1,random"], options=["ranks=8"], seed=1)
    assert result["ranking"][0]["label"] == "first=0"
    assert result["decided"] and result["stopped"] == "one variant left"
    best, *others = result["ranking"]
    assert best["status"] == "best" and not best["significantly_worse"]
    assert all(entry["significantly_worse"] for entry in others)
    assert best["ci"][0] <= best["score"] <= best["ci"][1]
    assert result["games_used"] == sum(entry["games"] for entry in result["ranking"])
    assert result["full_grid_games"] == 3 * best["games"]
    assert result["saved_games"] == result["full_grid_games"] - result["games_used"]


def test_the_race_gives_the_same_result_on_one_process_or_two() -> None:
    settings: dict[str, Any] = {"search": ["ranks=6,8"], "options": ["first=0"], "seed": 2}
    assert search(jobs=1, **settings) == search(jobs=2, **settings)


def test_a_budget_in_games_is_never_overspent() -> None:
    result = search(search=["ranks=6,8,10"], seed=4, budget="7000")
    assert result["games_used"] <= 7000
    assert result["games_used"] % SEARCH_BATCH == 0
    assert "budget" in result["stopped"] or result["decided"]


def test_a_budget_in_seconds_stops_the_race_when_spent() -> None:
    ticks = itertools.count(0, 100)  # each look at the clock: 100 s later
    plan = plan_search("salt_n_pepper", search=["ranks=10,12"], options=["first=0"], budget="150s")
    with BatchRunner() as runner:
        result = run_search(plan, runner, clock=lambda: float(next(ticks)))
    assert len(result["rounds"]) == 1
    assert result["stopped"] == "the time budget (150 s) was spent"


def test_every_variant_gets_its_own_seeds_in_a_race() -> None:
    plan = plan_search(
        "salt_n_pepper", search=["ranks=6,8", "first=0,1"], objective="balance", max_games=3000
    )
    seen: list[tuple[int, int, int]] = []
    with BatchRunner() as runner:
        run_search(plan, runner, progress=lambda b: seen.append((b.variant, b.number, b.seed)))
    seeds = [seed for _, _, seed in seen]
    assert len(seeds) == len(set(seeds))
    assert {variant for variant, _, _ in seen} == {0, 1, 2, 3}


def test_objectives_score_what_they_say() -> None:
    # 10 games: seat 0 wins 7, seat 1 wins 2, one draw; the first mover (seat 0 in the first
    # five games, seat 1 after) wins 4 of the 9 won.
    games = table([0, 0, 0, 1, -1, 0, 0, 0, 0, 1], [0] * 5 + [1] * 5, plies=list(range(30, 40)))
    found = measures(games.columns, frozenset(["seat_share", "first_move", "draws", "turns"]))
    assert found == pytest.approx(
        {"seat_share": 7 / 9, "first_move": 4 / 9, "draws": 0.1, "turns": 34.5}
    )
    balance = parse_objective("balance").score(games, z=1.96)
    assert balance.estimate == pytest.approx(max(abs(7 / 9 - 0.5), abs(4 / 9 - 0.5)))
    assert balance.low <= balance.estimate <= balance.high
    length = parse_objective("length:32-35").score(games, z=1.96)
    assert length.estimate == pytest.approx(0.4)  # turns 32, 33, 34, 35
    custom = parse_objective("min: abs(seat_share - 0.5) + turns / 100")
    assert custom.goal == "min"
    assert evaluate(custom.expression, found) == pytest.approx(7 / 9 - 0.5 + 0.345)  # type: ignore[arg-type]
    scored = custom.score(games, z=1.96, seed=1)
    assert scored.estimate == pytest.approx(7 / 9 - 0.5 + 0.345)
    assert scored.low < scored.estimate < scored.high
    assert custom.score(games, z=1.96, seed=1) == scored


def test_an_expression_dividing_by_zero_gives_no_number() -> None:
    games = table([0, 1], [0, 1])
    objective = parse_objective("max: draws / draws")
    assert math.isnan(objective.score(games, z=1.96).estimate)


def test_a_custom_search_and_a_length_search_run() -> None:
    result = search(
        search=["ranks=6,8"], objective="max: legal_moves", max_games=2000, options=["first=0"]
    )
    assert result["ranking"][0]["label"] == "ranks=8"  # more ranks, more room to move
    assert result["objective"]["goal"] == "max"
    longer = search(search=["ranks=6,8"], objective="length:150-200", max_games=2000)
    assert longer["ranking"][0]["label"] == "ranks=8"
    scores = [entry["score"] for entry in longer["ranking"]]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"objective": "fairness"}, "unknown --objective 'fairness'; accepted: balance"),
        ({"objective": "length:80-40"}, "LO at most HI"),
        ({"objective": "min: seat_share + __import__('os')"}, "only abs, min and max"),
        ({"objective": "min: seat_share + os"}, "unknown name 'os'"),
        ({"objective": "min: seat_share.real"}, "only + - * /"),
        ({"objective": "max: 2 * 3"}, "uses no measure"),
        ({"objective": "min: sum(turns)"}, "only abs, min and max"),
        ({"objective": "max: decisiveness"}, "only agent play"),
        ({"objective": "min: seat_share ("}, "not an arithmetic expression"),
        ({"budget": "lots"}, "--budget 'lots'"),
        ({"budget": "-5"}, "--budget '-5'"),
        ({"search": []}, "--search needs at least one"),
        ({"search": ["ranks=8"]}, "one variant"),
        ({"search": ["ranks=8,8"]}, "same variant twice"),
        ({"search": ["size=3,4"]}, "accepted options"),
        ({"max_games": 0}, "--games must be from 1"),
    ],
)
def test_bad_search_settings_are_refused_with_what_is_accepted(
    settings: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=_escaped(message)):
        plan_search(
            "salt_n_pepper", **{"search": ["ranks=6,8"], "objective": "balance", **settings}
        )


def test_balance_needs_two_players() -> None:
    with pytest.raises(StudyError, match="two-player"):
        plan_search("steppin_stones", search=["aces=0,2"], objective="balance", lineup=["expert"])


def _escaped(text: str) -> str:
    import re

    return re.escape(text)


def test_the_measures_of_no_games_are_not_numbers() -> None:
    empty = table([], [])
    found = measures(empty.columns, frozenset(["seat_share", "turns", "draws"]))
    assert all(math.isnan(value) for value in found.values())
    assert np.isnan(parse_objective("balance").score(empty, z=2).estimate)


def test_the_race_widens_its_intervals_for_every_look() -> None:
    # 2 variants, at most 4 rounds (1,000, 2,000, 4,000, 8,000 games each), and a balance score
    # built from 2 intervals: 16 looks, each at the level 5 % / 16 (two-sided).
    plan = plan_search("salt_n_pepper", search=["ranks=10,12"], options=["first=0"], max_games=8000)
    assert plan.schedule() == [1000, 2000, 4000, 8000]
    with BatchRunner() as runner:
        result = run_search(plan, runner)
    assert result["race_z"] == pytest.approx(NormalDist().inv_cdf(1 - 0.05 / 16 / 2))
    best = result["ranking"][0]
    last = result["rounds"][-1]
    assert last["games_per_variant"] == best["games"]
    index = str(result["variants"].index(best["label"]))
    race_low, race_high = last["intervals"][index]
    low, high = best["ci"]  # the final 95 % interval of the same games
    assert race_low < low <= best["score"] <= high < race_high
