"""Splinter's own random playout: the first-player draw, then uniformly random legal moves."""

import numpy as np
from numba import njit

from ludoteca.core.playout_kernels import count_decision
from ludoteca.core.playouts import NO_WINNER, T_PLIES, T_WINS
from ludoteca.games.splinter.kernels.groups import new_workspace
from ludoteca.games.splinter.kernels.layout import *  # noqa: F403 (the layout's names)
from ludoteca.games.splinter.kernels.rules import apply_action_inplace, legal_actions_into

# -- random playouts --------------------------------------------------------------------------

NUM_TOTALS = T_WINS + 2  # the standard totals of ludoteca.core.playouts; ties count as draws


@njit(cache=True)
def random_playout_inplace(s, params, nbr, totals, curve, max_plies):
    """Play ``s``: the first-player draw at even odds, then uniformly random legal moves.

    Stops when the game is over or after ``max_plies`` plies (the draw counts; `NO_PLY_LIMIT`:
    play to the end). Adds the plies, decisions, legal moves and turns (a turn is one decision)
    to ``totals`` and the legal-move counts to ``curve`` (see `ludoteca.core.playouts`); returns
    the side of the first decision (`NO_WINNER` if none).
    """
    label, order, groups, seeds, group_sizes, sizes = new_workspace(nbr.shape[0])
    out = np.empty(MAX_LEGAL + 1, dtype=np.int64)
    plies = 0
    decisions = 0
    first = NO_WINNER
    while s[STATUS_AT] == ONGOING and plies < max_plies:
        if s[TO_MOVE_AT] == CHANCE:
            action = np.random.randint(2)
        else:
            if decisions == 0:
                first = s[TO_MOVE_AT]
            n = legal_actions_into(s, params, nbr, label, order, seeds, group_sizes, sizes, out)
            count_decision(totals, curve, decisions, n, True)
            decisions += 1
            action = out[np.random.randint(n)]
        apply_action_inplace(s, action, params, nbr, label, order, groups, sizes)
        plies += 1
        totals[T_PLIES] += 1
    return first
