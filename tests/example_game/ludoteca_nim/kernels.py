"""Nim's rules as numba kernels over a small int32 array (Ludoteca's kernel convention).

Position array ``cells``::

    cells[PILE]     counters left in the pile
    cells[TO_MOVE]  the player to move (0 or 1)
    cells[PLY]      moves played so far
    cells[WINNER]   the winner once the pile is empty, else NO_WINNER

Options array ``params``: ``params[P_MAX_TAKE]``, the most counters one move may take.
Action codec: ``action = counters taken - 1`` (0 takes one counter).
"""

import numpy as np
from numba import njit

from ludoteca.core.playouts import T_DECISIONS, T_DRAWS, T_LEGAL_MOVES, T_LONGEST, T_PLIES, T_WINS

PILE, TO_MOVE, PLY, WINNER = 0, 1, 2, 3
CELLS_SIZE = 4
NO_WINNER = -1
P_MAX_TAKE = 0
NUM_PARAMS = 1
MAX_TAKE_LIMIT = 9  # the largest max_take option, so actions stay below NUM_ACTIONS
NUM_ACTIONS = MAX_TAKE_LIMIT
NUM_TOTALS = T_WINS + 2


@njit(cache=True)
def legal_actions(cells, params):
    """The legal actions, sorted; empty once the pile is empty."""
    count = min(cells[PILE], params[P_MAX_TAKE])
    return np.arange(max(count, 0)).astype(np.int64)


@njit(cache=True)
def apply_action_inplace(cells, action, params):
    """Take ``action + 1`` counters; the player who takes the last one wins."""
    cells[PILE] -= action + 1
    cells[PLY] += 1
    if cells[PILE] == 0:
        cells[WINNER] = cells[TO_MOVE]
    cells[TO_MOVE] = 1 - cells[TO_MOVE]


@njit(cache=True)
def apply_action(cells, action, params):
    """The position after the legal ``action`` (a new array; ``cells`` is unchanged)."""
    after = cells.copy()
    apply_action_inplace(after, action, params)
    return after


@njit(cache=True)
def _playout_inplace(cells, params, totals, max_plies):
    """Random moves until the pile is empty or ``max_plies`` are played; counts into ``totals``."""
    plies = 0
    while cells[PILE] > 0 and plies < max_plies:
        count = min(cells[PILE], params[P_MAX_TAKE])
        totals[T_DECISIONS] += 1
        totals[T_LEGAL_MOVES] += count
        apply_action_inplace(cells, np.random.randint(0, count), params)
        plies += 1
    totals[T_PLIES] += plies
    return plies


@njit(cache=True)
def random_rollout(cells, params, max_plies, seed):
    """At most ``max_plies`` random moves from ``cells``; the position reached (a new array)."""
    np.random.seed(seed)
    after = cells.copy()
    totals = np.zeros(NUM_TOTALS, dtype=np.int64)
    _playout_inplace(after, params, totals, max_plies)
    return after


@njit(cache=True)
def random_playouts(start, params, count, seed):
    """Play ``count`` random games from ``start``; the totals (see ludoteca.core.playouts)."""
    np.random.seed(seed)
    totals = np.zeros(NUM_TOTALS, dtype=np.int64)
    for _ in range(count):
        cells = start.copy()
        plies = _playout_inplace(cells, params, totals, 1 << 30)
        totals[T_LONGEST] = max(totals[T_LONGEST], plies)
        if cells[WINNER] == NO_WINNER:
            totals[T_DRAWS] += 1
        else:
            totals[T_WINS + cells[WINNER]] += 1
    return totals
