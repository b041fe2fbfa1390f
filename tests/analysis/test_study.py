from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import ludoteca
from ludoteca.ai import AgentError
from ludoteca.analysis.study import (
    RANDOM_BATCH,
    StudyError,
    batch_seed,
    lead_measures,
    plan_study,
    run_study,
)
from ludoteca.analysis.study_report import render_report
from ludoteca.analysis.study_summary import summarise
from ludoteca.core.errors import InvalidOptionError

RUN = {
    "command": "ludoteca study x",
    "backend": "1 process(es)",
    "wall_seconds": 1.0,
    "cpu_seconds": 1.0,
    "load_average": [0.5, 0.5, 0.5],
    "cores": 2,
    "finished": "2026-01-01T00:00:00+00:00",
    "games_per_second": 100.0,
}


def study(game_id: str, **settings: Any) -> dict[str, Any]:
    plan = plan_study(game_id, **settings)
    return summarise(plan, run_study(plan))


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_a_random_study_of_every_game_with_default_options(game_id: str) -> None:
    result = study(game_id, games=30, seed=1)
    game = ludoteca.make(game_id)
    assert result["game"] == game_id
    assert result["lineups"] == [["random"] * game.num_players]
    (variant,) = result["variants"]
    assert variant["games"] == 30
    assert len(variant["wins"]) == game.num_players
    assert sum(variant["wins"]) + variant["draws"] + _unwon(variant, game) == 30
    for rate, (low, high) in zip(variant["win_rate"], variant["win_ci"], strict=True):
        assert 0 <= low <= rate <= high <= 1
    assert sum(variant["first_mover_games"]) == 30
    plies = variant["plies"]
    assert plies["p10"] <= plies["median"] <= plies["p90"] <= plies["max"]
    assert sum(plies["histogram"]["counts"]) == 30
    assert variant["legal_moves_mean"] > 0
    assert 0 <= variant["chance_ply_share"] < 1
    assert variant["legal_moves_curve"][0] > 0
    assert all(test["against"] is None for test in result["tests"])
    exact = variant["exact_first_player_value"]
    assert (exact is not None) == (game_id == "pente_grammai")
    assert "<svg" in render_report(result, RUN)


def _unwon(variant: dict[str, Any], game: ludoteca.core.game.Game) -> int:
    """Games a solitaire lost (they have no winner and are not draws)."""
    return variant["games"] - variant["wins"][0] if game.num_players == 1 else 0


def test_random_play_is_the_kernels_own_games() -> None:
    game = ludoteca.make("salt_n_pepper")
    plan = plan_study("salt_n_pepper", games=RANDOM_BATCH + 10, seed=3)
    (table,) = run_study(plan)
    stats = game.random_playouts(RANDOM_BATCH, batch_seed(3, 0, 0))
    first = table.columns["plies"][:RANDOM_BATCH]
    assert int(first.sum()) == stats.plies
    assert table.games == RANDOM_BATCH + 10


def test_variants_comparisons_and_exact_values_of_pente_grammai() -> None:
    result = study(
        "pente_grammai", vary=["capture=false,true", "sacred=schaedler,storage"], games=40
    )
    labels = [v["label"] for v in result["variants"]]
    assert labels == [
        "capture=false sacred=schaedler",
        "capture=false sacred=storage",
        "capture=true sacred=schaedler",
        "capture=true sacred=storage",
    ]
    exact = [v["exact_first_player_value"] for v in result["variants"]]
    # From the solved tables: the first mover's winning chance under perfect play.
    assert exact[0] == pytest.approx(0.51607, abs=1e-4)
    assert exact[2] == pytest.approx(0.52216, abs=1e-4)
    assert len(set(exact)) == 4
    compared = [t for t in result["tests"] if t["against"] is not None]
    assert sorted({t["variant"] for t in compared}) == [1, 2, 3]
    for test in compared:
        if test["tested"]:
            assert test["p_adjusted"] >= test["p_value"]
        low, high = test["ci"]
        assert low <= test["difference"] <= high


def test_the_same_seed_gives_the_same_numbers_in_one_process_or_two() -> None:
    settings: dict[str, Any] = {"vary": ["first=0,1"], "games": 2 * RANDOM_BATCH + 7, "seed": 11}
    plan = plan_study("splinter", **settings)
    alone = summarise(plan, run_study(plan, jobs=1))
    shared = summarise(plan, run_study(plan, jobs=2))
    assert alone == shared
    other_seed = study("splinter", **{**settings, "seed": 12})
    assert other_seed != alone


def test_agent_play_measures_the_lead_along_the_game() -> None:
    result = study("salt_n_pepper", options=["ranks=6"], lineups=[["random:seed=1"]], games=6)
    (variant,) = result["variants"]
    assert result["lineups"] == [["random:seed=1", "random:seed=1"]]
    assert variant["agents"] == ["random:seed=1", "random:seed=1"]
    assert variant["games"] == 6
    assert variant["lead_changes_mean"] is not None and variant["lead_changes_mean"] >= 0
    assert variant["decisiveness"] is None or 0 <= variant["decisiveness"] <= 1
    again = study("salt_n_pepper", options=["ranks=6"], lineups=[["random:seed=1"]], games=6)
    assert again == result


def test_the_solitaire_reports_its_win_rate_and_turns_to_win() -> None:
    result = study("steppin_stones", lineups=[["expert"]], games=2)
    (variant,) = result["variants"]
    assert len(variant["wins"]) == 1
    assert variant["draws"] == 0
    assert variant["lead_changes_mean"] is None
    assert "turns_to_win" in variant
    if variant["wins"][0]:
        assert variant["turns_to_win"]["max"] <= variant["turns"]["max"]


def test_lead_changes_and_the_decisive_point() -> None:
    assert lead_measures([0, 0, 1, -1, 1, 1], winner=1) == (1, pytest.approx(4 / 6))
    assert lead_measures([1, 1, 1], winner=1) == (0, 0.0)
    assert lead_measures([0, 1, 0, 1], winner=1) == (3, 0.75)
    changes, decided = lead_measures([0, -1, 0], winner=-1)
    assert changes == 0 and math.isnan(decided)


def test_batch_seeds_depend_on_seed_variant_and_batch_only() -> None:
    seeds = {batch_seed(s, v, b) for s in range(3) for v in range(3) for b in range(3)}
    assert len(seeds) == 27
    assert all(0 <= seed < 2**31 for seed in seeds)
    assert batch_seed(5, 1, 2) == batch_seed(5, 1, 2)
    plan = plan_study("salta", games=2 * RANDOM_BATCH + 1, seed=5)
    assert [b.count for b in plan.batches] == [RANDOM_BATCH, RANDOM_BATCH, 1]
    assert [b.seed for b in plan.batches] == [batch_seed(5, 0, n) for n in range(3)]


@pytest.mark.parametrize(
    ("settings", "error", "message"),
    [
        ({"vary": ["first"]}, StudyError, "not of the form NAME=V1,V2"),
        ({"vary": ["first=0,1", "first=1"]}, StudyError, "twice"),
        ({"vary": ["colour=1,2"]}, InvalidOptionError, "accepted options: first"),
        ({"vary": ["first=0,7"]}, InvalidOptionError, "accepted: one of"),
        ({"vary": ["first=0,0"]}, InvalidOptionError, "same variant twice"),
        ({"options": ["first=0"], "vary": ["first=1"]}, StudyError, "given with -o and varied"),
        ({"lineups": [["random", "random", "random"]]}, AgentError, "2 seat(s)"),
        ({"lineups": [["level:9"]]}, AgentError, "level"),
        ({"lineups": [["wizard"]]}, AgentError, "accepted: random"),
        ({"lineups": [["level:1"], ["level:1", "level:1"]]}, AgentError, "same lineup twice"),
        ({"games": 0}, StudyError, "--games must be from 1"),
        ({"seed": -1}, StudyError, "--seed must be 0 or more"),
        ({"vary": ["first=0,1"], "baseline": 2}, StudyError, "--baseline must be from 1 to 2"),
    ],
)
def test_bad_settings_are_refused_with_what_is_accepted(
    settings: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=_pattern(message)):
        plan_study("salt_n_pepper", **settings)


def _pattern(text: str) -> str:
    import re

    return re.escape(text)


def test_game_tables_join_in_order() -> None:
    plan = plan_study("salta", games=5, seed=2)
    (table,) = run_study(plan)
    assert table.columns["plies"].dtype == np.int64
    assert table.columns["safeguard"].dtype == np.bool_
    assert table.curve_count[0] == 5
