"""How far ahead each side of a Salta position is in the race to its goal, for the AI's searches.

Salta is a race without captures: every way the game ends is decided by how close each army is
to its goal squares, so the measure is the difference of the two goal distances (the sum over a
side's 15 pieces of the Chebyshev distance to the piece's own goal square, the simplified score).
The side to move is half a step ahead of a race it has not yet run. In the played scoring phase
what counts is the moves made in the phase plus the distance still to go (every step there costs
one move and gains at most one square).

The lead is squashed with ``tanh(lead / scale)``. The scale grows with the square root of what is
left to play (the two distances, or the plies before simplified scoring ends the game), so the
same lead counts for more near the end than at the start. Green's value is returned first and
Red's is its negation; a finished game is worth its returns.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from numba import njit

from ludoteca.games.salta import kernels as k
from ludoteca.games.salta.state import SaltaState

TEMPO = 0.5  # the side to move is half a step ahead
SPREAD = 0.5  # how fast the scale grows with the square root of what is left


@njit(cache=True)
def green_value(
    s: npt.NDArray[np.int32], params: npt.NDArray[np.int64], goals: npt.NDArray[np.int64]
) -> float:
    """Green's estimated return in [-1, 1] (Red's is its negation)."""
    status = s[k.STATUS_AT]
    if status != k.ONGOING:
        return 1.0 if status == k.GREEN_WINS else (-1.0 if status == k.RED_WINS else 0.0)
    green = k.goal_distance(s, k.GREEN, goals)
    red = k.goal_distance(s, k.RED, goals)
    left = green + red
    if k.in_scoring_phase(s, params):
        # Only the moves count: made so far plus at least one per square still to go. A side
        # at the cap already has its remaining distance added, and only passes.
        if k.scoring_finished(s, k.GREEN, params, goals):
            green = 0
        if k.scoring_finished(s, k.RED, params, goals):
            red = 0
        left = green + red
        lead = float(s[k.SCORING_MOVES_AT + k.RED] + red - s[k.SCORING_MOVES_AT + k.GREEN] - green)
    else:
        lead = float(red - green) + (TEMPO if k.side_to_move(s) == k.GREEN else -TEMPO)
        start = params[k.P_SCORING_START]
        if params[k.P_SCORING_MODE] == k.SCORING_SIMPLIFIED and start >= 0:
            left = min(left, start - s[k.PLY_AT])  # the distances are compared then
    return math.tanh(lead / (1.0 + SPREAD * math.sqrt(max(left, 0))))


def evaluate(state: SaltaState) -> tuple[float, float]:
    """Estimated return of Green and of Red (each in [-1, 1], summing to 0) for a position."""
    game = state.game
    value = float(green_value(state.cells, game.params, game.goals))
    return value, -value
