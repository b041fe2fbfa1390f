"""Every game's device kernels compile for CUDA: PTX for an H100, written without a GPU.

The simulator tests (test_gpu.py) run the kernels' logic with the CPU-compiled rules; this is
the check that numba compiles the same rule functions for the device, where nothing may
allocate. Minutes of CPU for the five games: marked slow.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from tests.extras import extra_required

if importlib.util.find_spec("numba_cuda") is None and not extra_required("gpu"):
    pytest.skip("numba-cuda is not installed (the gpu extra)", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["pente_grammai", "salt_n_pepper", "salta", "splinter", "steppin_stones"]


@pytest.mark.slow
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("game_id", GAMES)
def test_the_device_kernels_compile_to_ptx(game_id: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tests.rl.gpu_ptx", game_id],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    name, word, size = done.stdout.split()
    assert (name, word) == (game_id, "ptx") and int(size) > 10_000
