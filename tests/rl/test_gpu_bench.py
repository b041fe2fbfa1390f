"""``ludoteca bench --gpu N``: without a GPU it says so, and still gives the CPU figures."""

from __future__ import annotations

import json

import pytest

from tests.support import run

RATE_KEYS = {
    "steps", "steps_per_second", "steps_per_cpu_second", "wall_seconds", "cpu_seconds",
    "cpu_share", "load_start", "load_end",
}  # fmt: skip


def test_the_json_gives_the_cpu_rates_and_why_no_gpu_was_measured(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["bench", "pente_grammai", "--gpu", "16", "--seconds", "0.1", "--json"]
    status, out, _ = run(capsys, argv)
    assert status == 0
    (result,) = json.loads(out)["gpu"]
    assert result["game"] == "pente_grammai" and result["num_envs"] == 16
    for key in ("cpu_with_draws", "cpu_step"):
        rate = result[key]
        assert set(rate) == RATE_KEYS
        assert rate["steps"] > 0 and rate["steps"] % 16 == 0 and rate["cpu_seconds"] > 0
    # The test machines have no GPU (or run numba's simulator, which is never measured).
    assert result["gpu_with_draws"] is None and result["gpu_step"] is None
    assert result["device"] == "" and result["speedup"] is None
    assert result["gpu_note"]  # why: no GPU, the simulator, or the extra not installed


def test_the_table_says_no_gpu_was_measured(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "salt_n_pepper", "--gpu", "8", "--seconds", "0.05", "-o", "ranks=6"]
    status, out, _ = run(capsys, argv)
    assert status == 0
    assert "No GPU measured:" in out and "Traceback" not in out
    assert "CPU with draws" in out and "ranks=6" in out


def test_vector_and_gpu_together_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, ["bench", "--vector", "8", "--gpu", "8"])
    assert status != 0 and "--gpu" in err


def test_a_bad_batch_size_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, ["bench", "salta", "--gpu", "0"])
    assert status != 0 and "--gpu takes a number of games" in err
