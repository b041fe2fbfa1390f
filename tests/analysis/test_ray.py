"""Studies and tournaments on a real local Ray cluster give the numbers of local runs.

Skipped where Ray is not installed (``pip install 'ludoteca[cluster]'``), except where
the extra is required (tests/extras.py), as in .ci/run's second run: there they must run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ludoteca
from ludoteca.analysis.batches import BatchRunner
from ludoteca.analysis.study import RANDOM_BATCH, plan_study, run_study
from ludoteca.analysis.study_search import plan_search, run_search
from ludoteca.analysis.study_summary import summarise
from ludoteca.analysis.tournament import run_tournament
from ludoteca.cli import main
from tests.extras import extra_required

if not extra_required("cluster"):
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
    agents = plan_study("salta", lineups=[["random:seed=2"]], games=5)
    tables = run_study(agents, ray="", progress=lambda batch: seen.append(batch.number))
    assert sorted(seen) == [0, 1]
    assert summarise(agents, tables) == summarise(agents, run_study(agents))


@pytest.mark.timeout(600)
def test_a_search_on_ray_races_as_one_process_and_two_do(local_cluster: None) -> None:
    plan = plan_search("salt_n_pepper", search=["ranks=8,10", "first=0,1"], seed=5, max_games=8000)
    results = []
    for backend in ({"ray": ""}, {"jobs": 1}, {"jobs": 2}):
        with BatchRunner(**backend) as runner:  # type: ignore[arg-type]
            results.append(run_search(plan, runner))
    assert results[0] == results[1] == results[2]
    assert len(results[0]["rounds"]) > 1  # a real race, with rounds after the first


@pytest.mark.timeout(600)
def test_an_arena_on_ray_gives_the_results_of_a_local_one(local_cluster: None) -> None:
    game = ludoteca.make("salt_n_pepper", ranks=6)
    specs = ["random", "mcts:iters=20"]
    on_ray = run_tournament(game, specs, games_per_pair=4, seed=3, ray="")
    local = run_tournament(game, specs, games_per_pair=4, seed=3)
    assert on_ray.results == local.results
    assert on_ray.standings == local.standings


@pytest.mark.timeout(600)
def test_study_json_is_the_same_file_with_jobs_1_jobs_2_and_ray(
    local_cluster: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["study", "pente_grammai", "--vary", "capture=false,true", "--games", "5100"]
    files = []
    for backend in (["--jobs", "1"], ["--jobs", "2"], ["--ray"]):
        out = tmp_path / backend[-1].strip("-")
        assert main([*common, *backend, "--out", str(out)]) == 0
        files.append((out / "study.json").read_bytes())
    capsys.readouterr()
    assert files[0] == files[1] == files[2]
