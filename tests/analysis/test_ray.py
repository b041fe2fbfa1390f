"""Studies and tournaments on a real local Ray cluster give the numbers of local runs.

Skipped where Ray is not installed (``pip install 'ludoteca[cluster]'``), except under CI=true,
where .ci/run installs it and these tests must run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

import ludoteca
from ludoteca.analysis.study import RANDOM_BATCH, plan_study, run_study
from ludoteca.analysis.study_summary import summarise
from ludoteca.analysis.tournament import run_tournament

if os.environ.get("CI") != "true":
    pytest.importorskip("ray", reason="Ray is not installed: pip install 'ludoteca[cluster]'")

import ray


@pytest.fixture(scope="module")
def local_cluster() -> Iterator[None]:
    """One local Ray for the module: starting one takes seconds."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


@pytest.mark.timeout(600)
def test_a_study_on_ray_gives_the_same_numbers_as_one_process_and_two(
    local_cluster: None,
) -> None:
    settings: dict[str, Any] = {"vary": ["first=0,1"], "games": RANDOM_BATCH + 21, "seed": 4}
    plan = plan_study("salt_n_pepper", **settings)
    on_ray = summarise(plan, run_study(plan, ray=""))
    assert on_ray == summarise(plan, run_study(plan, jobs=1))
    assert on_ray == summarise(plan, run_study(plan, jobs=2))
    seen: list[int] = []
    agents = plan_study("salta", agents=["random:seed=2"], games=5)
    tables = run_study(agents, ray="", progress=lambda batch: seen.append(batch.number))
    assert sorted(seen) == [0, 1]
    assert summarise(agents, tables) == summarise(agents, run_study(agents))


@pytest.mark.timeout(600)
def test_an_arena_on_ray_gives_the_results_of_a_local_one(local_cluster: None) -> None:
    game = ludoteca.make("salt_n_pepper", ranks=6)
    specs = ["random", "mcts:iters=20"]
    on_ray = run_tournament(game, specs, games_per_pair=4, seed=3, ray="")
    local = run_tournament(game, specs, games_per_pair=4, seed=3)
    assert on_ray.results == local.results
    assert on_ray.standings == local.standings
