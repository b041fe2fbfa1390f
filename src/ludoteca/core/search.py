"""Compiled helpers for the tree searches (`ludoteca.ai.mcts`), cached on disk by numba."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

FloatArray = npt.NDArray[np.float64]


def _seed_generator(seed: int) -> None:
    """Seed numba's generator, which every compiled kernel draws from (in this thread)."""
    np.random.seed(seed)


seed_generator = njit(cache=True)(_seed_generator)

GOING_ON = -1
"""The seed of a kernel rollout that goes on with the generator's current stream (not reseeded)."""
