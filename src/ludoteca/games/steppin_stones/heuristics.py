"""How far a game of Steppin' Stones has come towards bringing the four pawns home, for the AI.

Each suit goes through the same two stages before it is done: its five coins are turned into
stepping stones (phase 1), then its pawn walks over them to its home tile (phase 2), and the
game is won when all four suits have retired. A suit's progress, from 0 to 1, is:

- retired (its pawn home): 1;
- otherwise ``STONE_SHARE`` times the share of its coins already turned, plus, in phase 2,
  ``1 - STONE_SHARE`` times the share of its pawn's way home already behind it. The way home
  is the orthogonal (Manhattan) distance to the nearest space of its home tile, against the
  distance at the start (``size - 2``, the same for every pawn on either board).

The estimate is ``-1 + 2 * (mean progress of the four suits)``: -1 when nothing has happened
yet, rising evenly as coins turn and pawns come home, and +1 only for a win. A finished game is
worth its return (+1 won, -1 lost).

The computer's strongest player is the planner in `ludoteca.games.steppin_stones.planner`;
``expert_move``, re-exported here, is its choice.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from numba import njit

from ludoteca.core.search import GOING_ON
from ludoteca.games.steppin_stones import kernels as k
from ludoteca.games.steppin_stones import layout as c
from ludoteca.games.steppin_stones.layout import HOME_COLUMN
from ludoteca.games.steppin_stones.planner import expert_move
from ludoteca.games.steppin_stones.state import SteppinStonesState

__all__ = ["evaluate", "expert_move", "pawn_distance", "search_leaf", "value"]

COINS_PER_SUIT = 5
STONE_SHARE = 0.5  # of a suit's progress, for turning its coins; the rest is the pawn's walk


@njit(cache=True)
def pawn_distance(
    s: npt.NDArray[np.int32], geo: npt.NDArray[np.int64], size: int, suit: int, squares: int
) -> int:
    """The Manhattan distance from ``suit``'s pawn to the nearest space of its home tile."""
    pawn = s[c.PAWN_SQUARE_AT + suit]
    best = 2 * size
    for square in range(squares):
        if geo[square, HOME_COLUMN] == suit:
            gap = abs(square % size - pawn % size) + abs(square // size - pawn // size)
            best = min(best, gap)
    return best


@njit(cache=True)
def value(
    s: npt.NDArray[np.int32], params: npt.NDArray[np.int64], geo: npt.NDArray[np.int64]
) -> float:
    """The player's estimated return in [-1, 1]."""
    status = s[c.STATUS_AT]
    if status != c.ONGOING:
        return 1.0 if status == c.WON else -1.0
    squares = params[k.P_NUM_SQUARES]
    size = int(math.sqrt(squares) + 0.5)
    way_home = size - 2
    total = 0.0
    for suit in range(c.NUM_SUITS):
        pawn = s[c.PAWN_SQUARE_AT + suit]
        if geo[pawn, HOME_COLUMN] == suit:  # retired
            total += 1.0
            continue
        turned = COINS_PER_SUIT - s[c.VALUE_LEFT_AT + suit]
        total += STONE_SHARE * turned / COINS_PER_SUIT
        if turned == COINS_PER_SUIT:
            walked = 1.0 - pawn_distance(s, geo, size, suit, squares) / way_home
            total += (1.0 - STONE_SHARE) * min(max(walked, 0.0), 1.0)
    return -1.0 + 2.0 * total / c.NUM_SUITS


def evaluate(state: SteppinStonesState) -> tuple[float]:
    """The player's estimated return (one float in [-1, 1]) for a position."""
    game = state.game
    return (float(value(state.cells, game.params, game.geometry)),)


@njit(cache=True)
def search_leaf(
    s: npt.NDArray[np.int32],
    params: npt.NDArray[np.int64],
    geo: npt.NDArray[np.int64],
    action: int,
    max_plies: int,
    heuristic: bool,
) -> tuple[npt.NDArray[np.int32], int, npt.NDArray[np.float64]]:
    """The searches' leaf in one call (see `ludoteca.core.info.SearchLeaf`)."""
    child = k.apply_action(s, params, geo, action)
    end = k.random_rollout(child, params, geo, max_plies, GOING_ON)
    estimate = value(end, params, geo) if heuristic or end[c.STATUS_AT] != c.ONGOING else 0.0
    values = np.empty(1, np.float64)
    values[0] = estimate
    return child, k.player_to_move(child), values
