"""``ludoteca bench --vector N``: VectorEnv's env steps per second beside PettingZoo's."""

from __future__ import annotations

import importlib.util
import json

import pytest

import ludoteca
from ludoteca.analysis.bench import bench_vector
from tests.extras import extra_required
from tests.support import run

HAS_PETTINGZOO = importlib.util.find_spec("pettingzoo") is not None
NEEDS_PETTINGZOO = pytest.mark.skipif(
    not HAS_PETTINGZOO and not extra_required("rl"),
    reason="PettingZoo is not installed (the rl extra)",
)
RATE_KEYS = {
    "steps", "steps_per_second", "steps_per_cpu_second", "wall_seconds", "cpu_seconds",
    "cpu_share", "load_start", "load_end",
}  # fmt: skip


@NEEDS_PETTINGZOO
def test_the_json_has_both_rates_with_cpu_time_and_load(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["bench", "pente_grammai", "--vector", "16", "--seconds", "0.1", "--json"]
    status, out, _ = run(capsys, argv)
    assert status == 0
    payload = json.loads(out)
    assert "numba" in payload["machine"]
    (result,) = payload["vector"]
    assert result["game"] == "pente_grammai" and result["num_envs"] == 16
    for key in ("vector", "pettingzoo"):
        rate = result[key]
        assert set(rate) == RATE_KEYS
        assert rate["steps"] > 0 and rate["cpu_seconds"] > 0 and len(rate["load_end"]) == 3
        assert rate["steps_per_second"] == pytest.approx(rate["steps"] / rate["wall_seconds"])
    assert result["vector"]["steps"] % 16 == 0  # every step moves every env
    assert result["speedup"] == pytest.approx(
        result["vector"]["steps_per_second"] / result["pettingzoo"]["steps_per_second"]
    )


@NEEDS_PETTINGZOO
def test_the_table_names_both_environments(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "salt_n_pepper", "--vector", "8", "--seconds", "0.05", "-o", "ranks=6"]
    status, out, _ = run(capsys, argv)
    assert status == 0
    assert "VectorEnv at 8 games against PettingZoo" in out
    assert "ranks=6" in out and "×" in out


def test_the_vector_rate_alone_counts_every_env() -> None:
    result = bench_vector(
        ludoteca.make("salt_n_pepper", ranks=6), 32, seconds=0.1, pettingzoo=False
    )
    assert result.pettingzoo is None and result.speedup is None
    assert result.vector.steps > 0 and result.vector.steps % 32 == 0
    assert result.games_finished > 0  # six ranks: random games end within the measurement


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "--vector", "0"], "--vector takes a number of games from 1 to"),
        (["bench", "--vector", "4", "--cold"], "--cold and --vector measure different things"),
        (["bench", "--gpu", "4", "--cold"], "--cold and --gpu measure different things"),
        (["bench", "--vector", "4", "--seconds", "-1"], "--seconds must be"),
        (["bench", "--vector", "4", "-o", "ranks=8"], "--option needs a game id"),
        (["bench", "chess", "--vector", "4"], "unknown game"),
    ],
)
def test_bad_arguments_are_refused(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, _, err = run(capsys, argv)
    assert status == 2
    assert message in err
