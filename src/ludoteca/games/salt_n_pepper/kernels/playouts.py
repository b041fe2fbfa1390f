"""Salt 'n' Pepper's random playouts.

The game's own random playout and the totals it adds beside the standard ones (`T_PASSES`...).
"""

import numpy as np
from numba import njit

from ludoteca.core.playout_kernels import count_decision
from ludoteca.core.playouts import (
    NO_WINNER,
    T_DECISIONS,  # noqa: F401 (the game's playout_totals reads the slots from here)
    T_DRAWS,  # noqa: F401
    T_LEGAL_MOVES,  # noqa: F401
    T_LONGEST,  # noqa: F401
    T_PLIES,
    T_WINS,
)
from ludoteca.games.salt_n_pepper.kernels.layout import *  # noqa: F403 (the layout's names)
from ludoteca.games.salt_n_pepper.kernels.rules import (
    apply_action_inplace,
    legal_actions_into,
    winner,
)

# -- random playouts ---------------------------------------------------------------------------

# random_playouts totals: the standard ones of ludoteca.core.playouts, then our own
T_STUCK_DRAWS = T_WINS + 2  # draws by two passes in a row (engine safeguard)
T_CAP_DRAWS = T_WINS + 3  # draws by max_plies (engine safeguard)
T_PASSES = T_WINS + 4  # forfeited turns
T_SALT_FIRST = T_WINS + 5  # games in which Salt moved first
T_FIRST_MOVER_WINS = T_WINS + 6  # games won by the side that moved first
T_LEAPS = T_WINS + 7  # leaps, leaps home included
T_LEAPS_HOME = T_WINS + 8
NUM_TOTALS = T_WINS + 9


@njit(cache=True)
def random_playout_inplace(s, params, targets, totals, curve, max_plies):
    """Play ``s``: the bag draw at even odds, then uniformly random legal moves.

    Stops when the game is over or after ``max_plies`` plies (the draw counts; `NO_PLY_LIMIT`:
    play to the end). Adds the plies, decisions, legal moves, turns (a turn is one decision),
    passes and leaps to ``totals`` and the legal-move counts to ``curve`` (see
    `ludoteca.core.playouts`); returns the side of the first decision (`NO_WINNER` if none).
    """
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    plies = 0
    if s[STATUS_AT] == ONGOING and s[FIRST_AT] == UNDRAWN and plies < max_plies:
        apply_action_inplace(s, np.random.randint(2), params, targets)
        totals[T_PLIES] += 1
        plies += 1
    first = NO_WINNER
    decisions = 0
    while s[STATUS_AT] == ONGOING and plies < max_plies:
        plies += 1
        if decisions == 0:
            first = side_to_move(s)
        n = legal_actions_into(s, params, targets, out)
        count_decision(totals, curve, decisions, n, True)
        decisions += 1
        action = out[np.random.randint(n)]
        if action == PASS:
            totals[T_PASSES] += 1
        elif action % KINDS >= LEAP and action % KINDS != HOME:
            totals[T_LEAPS] += 1
            if action % KINDS == LEAP_HOME:
                totals[T_LEAPS_HOME] += 1
        apply_action_inplace(s, action, params, targets)
        totals[T_PLIES] += 1
    return first


@njit(cache=True)
def after_game(s, totals):
    """Salt 'n' Pepper's own totals of a finished random game (see ``T_STUCK_DRAWS``...)."""
    won = winner(s)
    first = s[FIRST_AT]
    if first == SALT:
        totals[T_SALT_FIRST] += 1
    if won < 0:
        if s[REASON_AT] == BOTH_STUCK:
            totals[T_STUCK_DRAWS] += 1
        else:
            totals[T_CAP_DRAWS] += 1
    elif won == first:
        totals[T_FIRST_MOVER_WINS] += 1
