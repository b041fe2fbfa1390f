"""Steppin' Stones' own random playout: dice rolled fairly, moves chosen uniformly.

A phase-2 turn is played from counts of the reachable squares (`moves.phase_two_counts`), not
from the list of its moves, and checked against the rules by the seeded-identity tests.
"""

import numpy as np
from numba import njit

from ludoteca.core.playout_kernels import count_decision
from ludoteca.core.playouts import (
    NO_WINNER,
    T_PLIES,
    T_TURNS,
    T_WINS,
)
from ludoteca.games.steppin_stones.kernels import moves as m
from ludoteca.games.steppin_stones.kernels.layout import *  # noqa: F403 (the layout's names)
from ludoteca.games.steppin_stones.kernels.rules import (
    MAX_LEGAL,
    P_NUM_SQUARES,
    _end_turn,
    _phase_two_move,
    _roll,
    apply_action_inplace,
    is_chance_node,
    legal_actions_into,
    new_work,
    settle,
)

# -- random playouts ------------------------------------------------------------------------------

NUM_TOTALS = T_WINS + 1  # the standard totals of ludoteca.core.playouts, one player


@njit(cache=True)
def random_playout_inplace(s, params, geo, totals, curve, max_plies):
    """Play ``s``: dice rolled fairly, moves chosen uniformly among the legal ones.

    Stops when the game is over or after ``max_plies`` plies (rolls count; `NO_PLY_LIMIT`: play
    to the end). Adds the plies, decisions, legal moves and turns to ``totals`` and the
    legal-move counts to ``curve`` (see `ludoteca.core.playouts`). A turn counts at its first
    roll (a turn number not rolled for before in this call), so a turn cut short by the end of
    the game still counts. Returns the player of the first decision (`NO_WINNER` if none).
    """
    work = new_work()
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    bit_sets = params[P_NUM_SQUARES] == m.BIT_SQUARES  # the 8x8 board: see `_random_phase_two`
    homes = m.home_bits(geo)
    pieces = np.empty((4, m.MAX_PIECES), dtype=np.int64)
    sets = np.zeros(m.NUM_SETS, dtype=np.uint64)
    queue = np.empty(2 * m.MAX_SQUARES, dtype=np.int64)
    plies = 0
    decisions = 0
    rolled_turn = -1
    first = NO_WINNER
    while s[STATUS_AT] == ONGOING and plies < max_plies:
        plies += 1
        totals[T_PLIES] += 1
        if is_chance_node(s):
            if s[TURNS_AT] != rolled_turn:
                rolled_turn = s[TURNS_AT]
                totals[T_TURNS] += 1
            action = _roll(s)
        else:
            first = 0
            decisions += 1
            if bit_sets and s[STAGE_AT] == PLAY2:
                _random_phase_two(
                    s, params, geo, homes, pieces, sets, queue, totals, curve, decisions - 1
                )
                continue
            n = legal_actions_into(s, params, geo, work, out)
            count_decision(totals, curve, decisions - 1, n, False)
            action = out[np.random.randint(n)]
        apply_action_inplace(s, action, params, geo, work)
    return first


@njit(cache=True)
def _random_phase_two(s, params, geo, homes, pieces, sets, queue, totals, curve, decision):
    """One uniformly random phase-2 decision of a random playout, played on ``s``.

    The same move, with the same draw from the generator, as picking among `legal_actions_into`:
    the moves are counted with bit sets (`moves.phase_two_counts`), and only the drawn
    one is found (`moves.phase_two_pick`), with its path's cost.
    """
    total = m.phase_two_counts(s, params, homes, pieces, sets)
    count_decision(totals, curve, decision, total + 1, False)
    index = np.random.randint(total + 1)
    if index == total:  # END is listed last
        _end_turn(s, geo)
    else:
        origin, destination, pawn_suit, cost = m.phase_two_pick(
            geo, homes, pieces, sets, index, queue
        )
        suit = pawn_suit if pawn_suit >= 0 else m.coin_suit(s[COIN_AT + origin])
        _phase_two_move(s, geo, origin, destination, pawn_suit, suit, cost)
    settle(s, params, geo)
