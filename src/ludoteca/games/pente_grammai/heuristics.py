"""How far ahead each side of a Pente Grammai position is in its race home, for the AI's searches.

Pente Grammai is a race of five counters each round the circuit to the goal (B3 for White, W3
for Blue), won by the first side with all five home (on the goal, or stored with
``sacred="storage"``). A side's progress, counted in counters, is:

- each counter home: 1 (a finished counter also no longer needs the exact roll that ends the
  race; that is worth as much as the whole journey);
- each counter on the circuit: ``RACE_WEIGHT`` times the share of the circuit it has behind it,
  ``(8 - pips) / 8``, where ``pips`` is the distance to the goal the way it moves. Entering is a
  move from just before the side's point 1, so a counter in hand has all 8 pips still to go;
- with ``capture=true``: minus what its lone counters stand to lose, each counter's progress
  times the share of the die's six faces that would let an opponent counter (on the circuit, or
  entering from the hand) land on it. Sacred points are safe.

The lead is the difference of the two progresses, squashed with ``tanh(lead / scale)``; the scale
shrinks as counters come home (fewer counters left, fewer turns for a lead to change hands).
White's value is returned first and Blue's is its negation; a finished game is worth its returns.

The game is also solved outright (`ludoteca.games.pente_grammai.solver`): ``expert_move``,
re-exported here, is perfect play. The searches keep this cheap estimate, which needs no table.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from numba import njit

from ludoteca.core.game import Game
from ludoteca.core.search import GOING_ON
from ludoteca.games.pente_grammai import kernels as k
from ludoteca.games.pente_grammai.solver import expert_move, solve
from ludoteca.games.pente_grammai.state import PenteGrammaiState

__all__ = [
    "evaluate",
    "exact_start_value",
    "expert_move",
    "progress",
    "search_leaf",
    "white_value",
]

RACE_LENGTH = 8  # pips from the hand (or from point 1 minus one) to the goal
RACE_WEIGHT = 0.5  # a counter a full circuit along, not yet home, in counters
SCALE_BASE = 1.0
SCALE_PER_COUNTER = 0.25  # added to the scale per counter (of both sides) not yet home


@njit(cache=True)
def _pips(side: int, point: int) -> int:
    """The distance from ``point`` to the side's goal along the circuit (0 on the goal)."""
    return int((k.GOAL[side] - point) % k.NUM_POINTS)


@njit(cache=True)
def _threats(s: npt.NDArray[np.int32], side: int, point: int) -> int:
    """How many die faces let an opponent counter land on ``point`` (capture mode)."""
    opponent = 1 - side
    faces = 0
    for die in range(1, 7):
        origin = (point - die) % k.NUM_POINTS
        enters = k.ENTRY[opponent, die - 1] == point and s[k.HAND_AT + opponent] > 0
        if enters or s[k.COUNT_AT + opponent * k.NUM_POINTS + origin] != 0:
            faces += 1
    return faces


@njit(cache=True)
def progress(s: npt.NDArray[np.int32], side: int, params: npt.NDArray[np.int64]) -> float:
    """The side's progress in counters: 1 per counter home, part of one per counter on its way."""
    home = k.home_count(s, side, params)
    total = float(home)
    capture = params[k.P_CAPTURE] != 0
    goal = k.GOAL[side]
    for point in range(k.NUM_POINTS):
        count = s[k.COUNT_AT + side * k.NUM_POINTS + point]
        if count == 0 or point == goal:  # counters on the goal are home
            continue
        along = RACE_WEIGHT * max(RACE_LENGTH - _pips(side, point), 0) / RACE_LENGTH
        total += count * along
        if capture and not k.IS_SACRED[point]:
            total -= along * _threats(s, side, point) / 6.0
    return total


@njit(cache=True)
def white_value(s: npt.NDArray[np.int32], params: npt.NDArray[np.int64]) -> float:
    """White's estimated return in [-1, 1] (Blue's is its negation)."""
    status = s[k.STATUS_AT]
    if status != k.ONGOING:
        return 1.0 if status == k.WHITE_WINS else (-1.0 if status == k.BLUE_WINS else 0.0)
    lead = progress(s, k.WHITE, params) - progress(s, k.BLUE, params)
    left = 2 * k.COUNTERS - k.home_count(s, k.WHITE, params) - k.home_count(s, k.BLUE, params)
    return math.tanh(lead / (SCALE_BASE + SCALE_PER_COUNTER * left))


def evaluate(state: PenteGrammaiState) -> tuple[float, float]:
    """Estimated return of White and of Blue (each in [-1, 1], summing to 0) for a position."""
    value = float(white_value(state.cells, state.game.params))
    return value, -value


def exact_start_value(game: Game) -> float:
    """The first mover's exact expected return (in [-1, 1]) at the start, from the solved table.

    With ``first="random"`` the draw for the first player comes first; both sides start alike,
    so the value is the average over that draw of the side drawn.
    """
    state = game.initial_state()
    assert isinstance(state, PenteGrammaiState)
    table = solve(state.game.params)
    if state.cells[k.SIDE_AT] != k.NO_SIDE:
        return table.value_before_roll(state.cells)
    total = 0.0
    for move, probability in state.chance_outcomes():
        after = state.apply(move)
        assert isinstance(after, PenteGrammaiState)
        total += probability * table.value_before_roll(after.cells)
    return total


@njit(cache=True)
def search_leaf(
    s: npt.NDArray[np.int32],
    params: npt.NDArray[np.int64],
    action: int,
    max_plies: int,
    heuristic: bool,
) -> tuple[npt.NDArray[np.int32], int, npt.NDArray[np.float64]]:
    """The searches' leaf in one call (see `ludoteca.core.info.SearchLeaf`)."""
    child = k.apply_action(s, params, action)
    end = k.random_rollout(child, params, max_plies, GOING_ON)
    value = white_value(end, params) if heuristic or end[k.STATUS_AT] != k.ONGOING else 0.0
    values = np.empty(2, np.float64)
    values[0] = value
    values[1] = -value
    return child, k.player_to_move(child), values
