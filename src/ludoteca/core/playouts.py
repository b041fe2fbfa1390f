"""The totals array that every game's compiled ``random_playouts`` kernel fills.

Kernels import these slot numbers (numba reads module-level integers as constants) and
`PlayoutStats.from_totals` reads them back, so all games report random play the same way::

    totals[T_PLIES]          moves applied, chance outcomes included
    totals[T_DECISIONS]      decision states visited (a player to move)
    totals[T_LEGAL_MOVES]    sum of the legal-move counts at those states
    totals[T_LONGEST]        plies in the longest game
    totals[T_DRAWS]          games without a winner (a solitaire's losses)
    totals[T_WINS + p]       games won by player p

A game may keep its own extra counters after ``T_WINS + num_players``.
"""

T_PLIES, T_DECISIONS, T_LEGAL_MOVES, T_LONGEST, T_DRAWS, T_WINS = 0, 1, 2, 3, 4, 5


def totals_size(num_players: int) -> int:
    """The length of the standard part of the totals array."""
    return T_WINS + num_players
