"""Compiled helpers for the tree searches (`ludoteca.ai.mcts`), cached on disk by numba."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from numba import njit

FloatArray = npt.NDArray[np.float64]


def _select_ucb(visits: FloatArray, sums: FloatArray, total: int, exploration: float) -> int:
    """The index maximising ``sums/visits + exploration * sqrt(ln(total) / visits)`` (UCB1).

    Every entry of ``visits`` must be positive; ties go to the lowest index.
    """
    log_total = math.log(total)
    best, best_score = 0, -math.inf
    for i in range(visits.shape[0]):
        n = visits[i]
        score = sums[i] / n + exploration * math.sqrt(log_total / n)
        if score > best_score:
            best, best_score = i, score
    return best


select_ucb = njit(cache=True)(_select_ucb)


def _seed_generator(seed: int) -> None:
    """Seed numba's generator, which every compiled kernel draws from (in this thread)."""
    np.random.seed(seed)


seed_generator = njit(cache=True)(_seed_generator)

GOING_ON = -1
"""The seed of a kernel rollout that goes on with the generator's current stream (not reseeded)."""
