"""The training example (examples/ppo_salt_n_pepper.py) runs, exports ONNX, and learns.

It needs the ``learn`` extra (PyTorch, ONNX, onnxruntime); skipped where that is not installed,
except where the extra is required (tests/extras.py), as in .ci/run's second run. The example runs
in a subprocess, as a user runs it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import ludoteca
from ludoteca.ai import agent_from_spec
from ludoteca.analysis.ratings import wilson_interval
from ludoteca.analysis.tournament import run_tournament
from tests.extras import extra_required

if not extra_required("learn"):
    for module in ("torch", "onnx", "onnxruntime"):
        pytest.importorskip(
            module, reason="the learn extra is missing: pip install 'ludoteca[learn]'"
        )

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "ppo_salt_n_pepper.py"


def train(tmp_path: Path, *arguments: str) -> tuple[Path, dict[str, Any]]:
    out = tmp_path / "policy.onnx"
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), "--out", str(out), "--seed", "0", *arguments],
        capture_output=True,
        text=True,
        timeout=1500,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    summary: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return out, summary


def test_one_small_update_exports_a_policy_the_arena_accepts(tmp_path: Path) -> None:
    policy, summary = train(
        tmp_path, "--ranks", "6", "--envs", "8", "--steps", "16", "--updates", "1", "--seconds", "0"
    )
    assert summary["updates"] == 1 and policy.stat().st_size > 10_000
    game = ludoteca.make("salt_n_pepper", ranks=6)
    agent = agent_from_spec(f"onnx:{policy}", game)
    state = game.initial_state().apply_action(0)
    assert agent.choose(state) in state.legal_moves()


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_a_short_training_beats_random_play(tmp_path: Path) -> None:
    """Twenty updates on 6 ranks (about a minute of CPU), then 200 games against random play
    with the seats alternated: the 95 % Wilson interval of the score lies above one half."""
    policy, summary = train(tmp_path, "--ranks", "6", "--updates", "20", "--seconds", "0")
    assert summary["updates"] == 20
    game = ludoteca.make("salt_n_pepper", ranks=6)
    spec = f"onnx:{policy}"
    result = run_tournament(game, [spec, "random"], games_per_pair=200, seed=1, jobs=1)
    standing = next(s for s in result.standings if s.spec == spec)
    low, _ = wilson_interval(standing.wins + standing.draws / 2, standing.games)
    assert standing.games == 200
    assert low > 0.5, f"score {standing.score:.1%} against random play"
