"""Pente Grammai's own random playout.

Rolls and decisions on bit sets of points, faster than the contract's generic loop and
checked against it by the seeded-identity tests.
"""

import numpy as np
from numba import njit

from ludoteca.core.playout_kernels import count_decision
from ludoteca.core.playouts import NO_WINNER, T_PLIES, T_WINS
from ludoteca.games.pente_grammai.kernels.layout import *  # noqa: F403 (the layout's names)
from ludoteca.games.pente_grammai.kernels.rules import _move, apply_action_inplace

# -- random playouts --------------------------------------------------------------------------

NUM_TOTALS = T_WINS + 2  # the standard totals of ludoteca.core.playouts, two players


@njit(cache=True)
def _roll(s, die, params):
    """Roll ``die`` in an unfinished position: what `apply_action_inplace` does, done quicker.

    A roll changes only the die and the ply count, so of `settle`'s tests only the ply cap can
    strike: the counters are as they were, and neither a goal nor a deadlock had ended the game.
    """
    s[DIE_AT] = die
    s[PLY_AT] += 1
    if s[PLY_AT] >= params[P_MAX_PLIES]:
        s[STATUS_AT] = DRAW
        s[REASON_AT] = PLY_CAP


# The points as bits (bit ``p`` for point ``p``), for the decisions inside a random playout.
ALL_POINTS = (1 << NUM_POINTS) - 1
SACRED_POINTS = (1 << W3) | (1 << B3)


@njit(cache=True)
def _occupied(s, side):
    """The points where ``side`` has counters, as bits."""
    mask = 0
    for point in range(NUM_POINTS):
        mask |= (s[COUNT_AT + side * NUM_POINTS + point] != 0) << point
    return mask


@njit(cache=True)
def _free_points(own, opponent, schaedler, capture):
    """The points where a side whose counters stand on ``own`` may land (`can_take`), as bits."""
    ordinary = ~own & (~opponent | -capture)  # a lone opponent counter: only with capture
    sacred = ALL_POINTS if schaedler else ~(own | opponent)
    return ((ordinary & ~SACRED_POINTS) | (sacred & SACRED_POINTS)) & ALL_POINTS


@njit(cache=True)
def _movable(own, free, die):
    """The points of ``own`` whose counter can move ``die`` points: ``free`` at point + die."""
    return own & ((free >> die) | (free << (NUM_POINTS - die)))


@njit(cache=True)
def _bits_can_ever_move(s, side, capture):
    """`_can_ever_move` on bit masks, with ``sacred="storage"`` (the only case that asks)."""
    own = _occupied(s, side)
    free = _free_points(own, _occupied(s, 1 - side), False, capture)
    entry = s[HAND_AT + side] > 0
    for die in range(1, 7):
        if (entry and (free >> ENTRY[side, die - 1]) & 1) or _movable(own, free, die) != 0:
            return True
    return False


@njit(cache=True)
def _bits_deadlocked(s, capture):
    """`is_deadlocked` on bit masks, with ``sacred="storage"``."""
    return not _bits_can_ever_move(s, WHITE, capture) and not _bits_can_ever_move(s, BLUE, capture)


@njit(cache=True)
def _decision_into(s, schaedler, capture, out):
    """`decision_actions_into` computed on bit masks, without a branch per point.

    The points where the mover may land (`can_take`) are one mask, turned by the die to
    the points it may leave from, so each counter's move costs no data-dependent branch; the
    origins come out ascending, as `_moves` lists them. ``schaedler`` and ``capture`` are the
    options (`P_SACRED` is `SACRED_SCHAEDLER`, `P_CAPTURE` is nonzero).
    """
    side = s[SIDE_AT]
    die = s[DIE_AT]
    own = _occupied(s, side)
    free = _free_points(own, _occupied(s, 1 - side), schaedler, capture)
    if s[HAND_AT + side] > 0 and (free >> ENTRY[side, die - 1]) & 1:
        out[0] = ENTER
        return 1
    movable = _movable(own, free, die)
    n = 0
    for point in range(NUM_POINTS):
        out[n] = point
        n += (movable >> point) & 1
    if n == 0:
        out[0] = PASS
        return 1
    return n


@njit(cache=True)
def _decide(s, action, params, schaedler, capture):
    """`apply_action_inplace` of the mover's ``action``, with `settle` done in place.

    The same tests in the same order, the options read once: ``schaedler`` says where a side's
    home count is (its goal point, else its store) and that no deadlock can arise; the deadlock
    test runs on bit masks (`_bits_deadlocked`).
    """
    _move(s, s[SIDE_AT], s[DIE_AT], action, params)
    s[PLY_AT] += 1
    if schaedler:
        white_home = s[COUNT_AT + GOAL[WHITE]]
        blue_home = s[COUNT_AT + NUM_POINTS + GOAL[BLUE]]
    else:
        white_home = s[STORE_AT + WHITE]
        blue_home = s[STORE_AT + BLUE]
    status, reason = ONGOING, NO_REASON
    if white_home == COUNTERS:
        status, reason = WHITE_WINS, ALL_HOME
    elif blue_home == COUNTERS:
        status, reason = BLUE_WINS, ALL_HOME
    elif s[PLY_AT] >= params[P_MAX_PLIES]:
        status, reason = DRAW, PLY_CAP
    elif not schaedler and _bits_deadlocked(s, capture):
        status, reason = DRAW, DEADLOCK
    s[STATUS_AT] = status
    s[REASON_AT] = reason


@njit(cache=True)
def random_playout_inplace(s, params, totals, curve, max_plies):
    """Play ``s``: rolls with their probabilities, moves uniformly at random.

    Stops when the game is over or after ``max_plies`` plies (chance outcomes count;
    `NO_PLY_LIMIT`: play to the end). Adds the plies, decisions, legal moves and turns (a turn is
    a roll and the decision after it) to ``totals`` and the legal-move counts to ``curve`` (see
    `ludoteca.core.playouts`); returns the side of the first decision (`NO_WINNER` if none).
    """
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    schaedler = params[P_SACRED] == SACRED_SCHAEDLER
    capture = 1 if params[P_CAPTURE] != 0 else 0
    plies = 0
    decisions = 0
    first = NO_WINNER
    while s[STATUS_AT] == ONGOING and plies < max_plies:
        plies += 1
        if s[SIDE_AT] == NO_SIDE:
            apply_action_inplace(s, FIRST_0 + np.random.randint(2), params)
        elif s[DIE_AT] == 0:
            _roll(s, np.random.randint(6) + 1, params)
        else:
            if decisions == 0:
                first = s[SIDE_AT]
            n = _decision_into(s, schaedler, capture, out)
            count_decision(totals, curve, decisions, n, True)
            decisions += 1
            _decide(s, out[np.random.randint(n)], params, schaedler, capture)
        totals[T_PLIES] += 1
    return first
