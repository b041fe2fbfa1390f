"""How far ahead each side of a Salt 'n' Pepper position is in the race home, for the AI's searches.

Salt 'n' Pepper is a pure race: nothing is captured, both sides move one piece a turn, and the
first side with all 15 pieces home wins. Every piece moves one rank forward with each step (Salt
diagonally down, Pepper straight up or sideways; sideways steps gain nothing) and needs one more
move from its back rank to get home, so the moves a side still needs are at least the sum over
its pieces on the board of ``ranks to the back rank + 1`` (a leap saves one). The side to move is
half a move ahead. Before the bag draw nobody is.

The lead is the difference of those move counts, squashed with ``tanh(lead / scale)``, where the
scale grows with the square root of the moves both sides still need: the same lead counts for
more near the end, when fewer leaps and blocks can change it. Salt's value is returned first and
Pepper's is its negation; a finished game is worth its returns.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from numba import njit

from ludoteca.core.search import GOING_ON
from ludoteca.games.salt_n_pepper import kernels as k
from ludoteca.games.salt_n_pepper.state import SaltNPepperState

TEMPO = 0.5  # the side to move is half a move ahead
SPREAD = 0.4  # how fast the scale grows with the square root of the moves still needed


@njit(cache=True)
def moves_to_go(s: npt.NDArray[np.int32], side: int, params: npt.NDArray[np.int64]) -> int:
    """The fewest moves ``side`` needs to bring every piece home, without leaps."""
    back = k.back_rank(side, params)
    total = 0
    for i in range(s[k.ON_BOARD_AT + side]):
        rank = s[k.PIECES_AT + side * k.PIECES_PER_SIDE + i] // k.WIDTH
        total += abs(rank - back) + 1
    return total


@njit(cache=True)
def salt_value(s: npt.NDArray[np.int32], params: npt.NDArray[np.int64]) -> float:
    """Salt's estimated return in [-1, 1] (Pepper's is its negation)."""
    status = s[k.STATUS_AT]
    if status != k.ONGOING:
        return 1.0 if status == k.SALT_WINS else (-1.0 if status == k.PEPPER_WINS else 0.0)
    salt = moves_to_go(s, k.SALT, params)
    pepper = moves_to_go(s, k.PEPPER, params)
    lead = float(pepper - salt)
    if s[k.FIRST_AT] != k.UNDRAWN:
        lead += TEMPO if k.side_to_move(s) == k.SALT else -TEMPO
    return math.tanh(lead / (1.0 + SPREAD * math.sqrt(salt + pepper)))


def evaluate(state: SaltNPepperState) -> tuple[float, float]:
    """Estimated return of Salt and of Pepper (each in [-1, 1], summing to 0) for a position."""
    value = float(salt_value(state.cells, state.game.params))
    return value, -value


@njit(cache=True)
def search_leaf(
    s: npt.NDArray[np.int32],
    params: npt.NDArray[np.int64],
    targets: npt.NDArray[np.int64],
    action: int,
    max_plies: int,
    heuristic: bool,
) -> tuple[npt.NDArray[np.int32], int, npt.NDArray[np.float64]]:
    """The searches' leaf in one call (see `ludoteca.core.info.SearchLeaf`)."""
    child = k.apply_action(s, params, targets, action)
    end = k.random_rollout(child, params, targets, max_plies, GOING_ON)
    value = salt_value(end, params) if heuristic or end[k.STATUS_AT] != k.ONGOING else 0.0
    values = np.empty(2, np.float64)
    values[0] = value
    values[1] = -value
    return child, k.player_to_move(child), values
