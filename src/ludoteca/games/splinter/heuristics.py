"""How far ahead each side of a Splinter position is in material, for the AI's searches.

A side of Splinter loses when it has no piece left of one of the three types (squares, crosses,
circles: 2, 4 and 9 at the start), so a piece counts for more the fewer of its type remain.
A side's material is the sum over the types of ``log(count)``: losing one of two squares costs
``log 2 = 0.69``, one of nine circles only ``log(9/8) = 0.12``, and a type about to run out
weighs most of all. When both sides run out of a type in the same move the larger army wins,
so the total piece count adds a small term (``COUNT_WEIGHT`` per piece).

The lead is the difference of the two materials, squashed with ``tanh(lead / SCALE)``: a side a
square down scores about -0.5. Blue's value is returned first and Red's is its negation; a
finished game is worth its returns.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from numba import njit

from ludoteca.core.search import GOING_ON
from ludoteca.games.splinter import kernels as k
from ludoteca.games.splinter.state import SplinterState

COUNT_WEIGHT = 0.02  # per piece on the board, the tie-break of a double loss
SCALE = 1.25


@njit(cache=True)
def material(s: npt.NDArray[np.int32], side: int) -> float:
    """The side's material: the sum of ``log(count)`` over the types, plus a little per piece."""
    total = 0.0
    for kind in range(k.NUM_TYPES):
        count = s[k.COUNT_AT + side * k.NUM_TYPES + kind]
        total += math.log(max(count, 1)) + COUNT_WEIGHT * count
    return total


@njit(cache=True)
def blue_value(s: npt.NDArray[np.int32]) -> float:
    """Blue's estimated return in [-1, 1] (Red's is its negation)."""
    status = s[k.STATUS_AT]
    if status != k.ONGOING:
        return 1.0 if status == k.BLUE_WINS else (-1.0 if status == k.RED_WINS else 0.0)
    return math.tanh((material(s, k.BLUE) - material(s, k.RED)) / SCALE)


def evaluate(state: SplinterState) -> tuple[float, float]:
    """Estimated return of Blue and of Red (each in [-1, 1], summing to 0) for a position."""
    value = float(blue_value(state.cells))
    return value, -value


@njit(cache=True)
def search_leaf(
    s: npt.NDArray[np.int32],
    params: npt.NDArray[np.int64],
    nbr: npt.NDArray[np.int64],
    action: int,
    max_plies: int,
    heuristic: bool,
) -> tuple[npt.NDArray[np.int32], int, npt.NDArray[np.float64]]:
    """The searches' leaf in one call (see `ludoteca.core.info.SearchLeaf`)."""
    child = k.apply_action(s, params, nbr, action)
    end = k.random_rollout(child, params, nbr, max_plies, GOING_ON)
    value = blue_value(end) if heuristic or end[k.STATUS_AT] != k.ONGOING else 0.0
    values = np.empty(2, np.float64)
    values[0] = value
    values[1] = -value
    return child, k.player_to_move(child), values
