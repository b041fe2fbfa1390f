"""Nim's rules as numba kernels over a small int32 array (the kernel contract of docs/kernels.md).

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

from ludoteca.core.playout_kernels import (
    count_decision,
    end_game,
    new_records,
    no_curve,
    no_records,
)
from ludoteca.core.playouts import (
    GAME_OVER,
    NO_PLY_LIMIT,
    NO_WINNER,
    T_PLIES,
    T_WINS,
)
from ludoteca.core.vector_kernels import NO_ILLEGAL, first_illegal, write_returns

PILE, TO_MOVE, PLY, WINNER = 0, 1, 2, 3
CELLS_SIZE = 4
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
def _apply_inplace(cells, params, action):
    """Take ``action + 1`` counters; the player who takes the last one wins."""
    cells[PILE] -= action + 1
    cells[PLY] += 1
    if cells[PILE] == 0:
        cells[WINNER] = cells[TO_MOVE]
    cells[TO_MOVE] = 1 - cells[TO_MOVE]


@njit(cache=True)
def apply_action(cells, params, action):
    """The position after the legal ``action`` (a new array; ``cells`` is unchanged)."""
    after = cells.copy()
    _apply_inplace(after, params, action)
    return after


@njit(cache=True)
def player_to_move(cells):
    """The player to move, or `GAME_OVER` once the pile is empty."""
    return GAME_OVER if cells[PILE] == 0 else cells[TO_MOVE]


@njit(cache=True)
def expand(cells, params):
    """Every legal action with the position after it and the player to move there."""
    actions = legal_actions(cells, params)
    children = np.empty((actions.shape[0], cells.shape[0]), dtype=np.int32)
    players = np.empty(actions.shape[0], dtype=np.int64)
    for i in range(actions.shape[0]):
        children[i] = cells
        _apply_inplace(children[i], params, actions[i])
        players[i] = player_to_move(children[i])
    return actions, children, players


@njit(cache=True)
def random_playout_inplace(cells, params, totals, curve, max_plies):
    """Random moves on ``cells`` until the pile is empty or ``max_plies`` are played.

    Adds to ``totals`` and ``curve`` (a turn is one decision); returns the first mover.
    """
    plies = 0
    first = NO_WINNER
    while cells[PILE] > 0 and plies < max_plies:
        if plies == 0:
            first = cells[TO_MOVE]
        count = min(cells[PILE], params[P_MAX_TAKE])
        count_decision(totals, curve, plies, count, True)
        _apply_inplace(cells, params, np.random.randint(0, count))
        totals[T_PLIES] += 1
        plies += 1
    return first


@njit(cache=True)
def random_rollout(cells, params, max_plies, seed):
    """At most ``max_plies`` random moves from ``cells``; the position reached (a new array).

    A negative ``seed`` goes on with the generator's current stream.
    """
    if seed >= 0:
        np.random.seed(seed)
    after = cells.copy()
    totals = np.zeros(NUM_TOTALS, dtype=np.int64)
    random_playout_inplace(after, params, totals, no_curve(), max_plies)
    return after


@njit(cache=True)
def _playouts(start, params, count, seed, records, curve):
    np.random.seed(seed)
    totals = np.zeros(NUM_TOTALS, dtype=np.int64)
    before = np.empty(T_WINS, dtype=np.int64)
    for i in range(count):
        cells = start.copy()
        before[:] = totals[:T_WINS]
        first = random_playout_inplace(cells, params, totals, curve, NO_PLY_LIMIT)
        end_game(totals, before, records, i, cells[WINNER], False, first)
    return totals


@njit(cache=True)
def random_playouts(start, params, count, seed):
    """Play ``count`` random games from ``start``; the totals (see ludoteca.core.playouts)."""
    return _playouts(start, params, count, seed, no_records(), no_curve())


@njit(cache=True)
def random_playout_records(start, params, count, seed):
    """The games of `random_playouts` one by one: ``(records, curve)``."""
    records, curve = new_records(count)
    _playouts(start, params, count, seed, records, curve)
    return records, curve


# == for learning agents: observation, action mask, batch play (docs/rl.md) =====================

PILE_LIMIT = 100  # the largest pile option: observations divide by it
OBS_PILE = 0  # counters left / PILE_LIMIT
OBS_TO_MOVE = 1  # 1 when the observing player is to move
NUM_FEATURES = 2


@njit(cache=True)
def observation(cells, params, player, out):
    """Write ``[pile / PILE_LIMIT, whether player is to move]`` into the float32 ``out``."""
    out[OBS_PILE] = cells[PILE] / PILE_LIMIT
    out[OBS_TO_MOVE] = 1.0 if cells[PILE] > 0 and cells[TO_MOVE] == player else 0.0


@njit(cache=True)
def action_mask(cells, params, out):
    """Write the legal-action mask into the bool ``out`` (all False once the pile is empty)."""
    out[:] = False
    for action in range(min(cells[PILE], params[P_MAX_TAKE])):
        out[action] = True


@njit(cache=True)
def _show(cells, params, row, observations, masks, players):
    players[row] = cells[TO_MOVE]
    observation(cells, params, cells[TO_MOVE], observations[row])
    action_mask(cells, params, masks[row])


@njit(cache=True)
def vector_reset(batch, params, initial, observations, masks, players, rng):
    """Start every game of ``batch`` from ``initial`` (Nim has no chance: ``rng`` is unused)."""
    for row in range(batch.shape[0]):
        batch[row] = initial
        _show(batch[row], params, row, observations, masks, players)
    return NO_ILLEGAL


@njit(cache=True)
def vector_step(
    batch, params, initial, actions, observations, masks, players, rewards, terminated, rng
):
    """Play ``actions[row]`` in every game; a finished game starts again from ``initial``.

    Returns the first row whose action is not legal (changing nothing), else `NO_ILLEGAL`.
    """
    bad = first_illegal(actions, masks)
    if bad >= 0:
        return bad
    for row in range(batch.shape[0]):
        cells = batch[row]
        _apply_inplace(cells, params, actions[row])
        rewards[row, 0] = 0.0
        rewards[row, 1] = 0.0
        terminated[row] = cells[PILE] == 0
        if terminated[row]:
            write_returns(rewards, row, cells[WINNER])
            cells[:] = initial
        _show(cells, params, row, observations, masks, players)
    return NO_ILLEGAL
