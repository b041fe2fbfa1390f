"""The arrays that every game's compiled random-play kernels fill, and helpers they share.

Kernels import these slot numbers (numba reads module-level integers as constants) and
`PlayoutStats.from_totals` and `PlayoutRecords` read them back, so all games report random
play the same way. The compiled helpers they share live in `ludoteca.core.playout_kernels`,
so that reading these numbers does not import numba.

**Totals** (``random_playouts``, one int64 array for the whole batch)::

    totals[T_PLIES]          moves applied, chance outcomes included
    totals[T_DECISIONS]      decision states visited (a player to move)
    totals[T_LEGAL_MOVES]    sum of the legal-move counts at those states
    totals[T_LONGEST]        plies in the longest game
    totals[T_DRAWS]          games without a winner (a solitaire's losses)
    totals[T_TURNS]          turns played (see below)
    totals[T_SAFEGUARD]      games ended by an engine safeguard rather than by a rule
    totals[T_WINS + p]       games won by player p

A game may keep its own extra counters after ``T_WINS + num_players``.

A **turn** is what a player does when it is their go: in Salta, Splinter and Salt 'n' Pepper one
decision (a pass included); in Pente Grammai a roll and the move (or pass) that follows; in
Steppin' Stones a roll and everything played until the turn ends (phase-two dice included). The
first-player draw is not a turn. An **engine safeguard** is a limit the rules do not have, there
to keep every game finite: ``max_plies``, ``max_turns``, Salt 'n' Pepper's double-pass stop.

**Records** (``random_playout_records``): one int64 row per game with the ``R_*`` columns, and
a ``(2, CURVE_LENGTH)`` int64 curve: ``curve[0, d]`` sums the legal-move counts at the ``d``-th
decision of every game and ``curve[1, d]`` counts those decisions (the last bin takes every
``d >= CURVE_LENGTH - 1``). The records kernel plays exactly the games ``random_playouts``
plays with the same seed, so its columns sum to the totals.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

T_PLIES, T_DECISIONS, T_LEGAL_MOVES, T_LONGEST, T_DRAWS, T_TURNS, T_SAFEGUARD, T_WINS = range(8)

R_PLIES, R_DECISIONS, R_LEGAL_MOVES, R_TURNS, R_WINNER, R_SAFEGUARD, R_FIRST_MOVER = range(7)
NUM_RECORD_COLUMNS = 7
NO_WINNER = -1  # R_WINNER of a game without a winner; R_FIRST_MOVER of a game without decisions
CURVE_LENGTH = 256

CHANCE_NODE = -1  # player_to_move at a chance node (the same as ludoteca.core.outcome.CHANCE)
GAME_OVER = -2  # player_to_move once the game is over

NO_PLY_LIMIT = int(np.iinfo(np.int64).max)  # max_plies of a playout played to the end

Int64Array = npt.NDArray[np.int64]


def totals_size(num_players: int) -> int:
    """The length of the standard part of the totals array."""
    return T_WINS + num_players


@dataclass(frozen=True)
class PlayoutRecords:
    """Random games one by one (see `KernelGame.playout_records`), as numpy arrays.

    Each per-game array has one entry per game, in the order played.

    Attributes:
        plies: Moves applied, chance outcomes included.
        decisions: Decision states visited (a player to move).
        legal_moves: Sum of the legal-move counts at those states.
        turns: Turns played (see the module docs).
        winner: The winning player, or -1 (`NO_WINNER`) for a game without a winner.
        safeguard: Whether an engine safeguard, not a rule, ended the game.
        first_mover: The player of the game's first decision (-1 if it had none).
        legal_curve_sum: Per decision index ``d`` (the last bin takes every later one), the sum
            of the legal-move counts at the ``d``-th decision of every game.
        legal_curve_count: Per decision index, how many games reached that decision.
    """

    plies: Int64Array
    decisions: Int64Array
    legal_moves: Int64Array
    turns: Int64Array
    winner: Int64Array
    safeguard: npt.NDArray[np.bool_]
    first_mover: Int64Array
    legal_curve_sum: Int64Array
    legal_curve_count: Int64Array

    @classmethod
    def from_arrays(cls, records: Int64Array, curve: Int64Array) -> PlayoutRecords:
        """Read the ``(records, curve)`` pair of a ``random_playout_records`` kernel."""
        return cls(
            plies=records[:, R_PLIES].copy(),
            decisions=records[:, R_DECISIONS].copy(),
            legal_moves=records[:, R_LEGAL_MOVES].copy(),
            turns=records[:, R_TURNS].copy(),
            winner=records[:, R_WINNER].copy(),
            safeguard=records[:, R_SAFEGUARD] != 0,
            first_mover=records[:, R_FIRST_MOVER].copy(),
            legal_curve_sum=curve[0].copy(),
            legal_curve_count=curve[1].copy(),
        )

    @property
    def games(self) -> int:
        """How many games were played."""
        return len(self.plies)
