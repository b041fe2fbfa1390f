"""Pente Grammai's moves: the parts of a turn, applying a move, and the contract's primitives.

The position array and the action codec are in `layout`.
"""

import numpy as np
from numba import njit

from ludoteca.core.playouts import NO_WINNER
from ludoteca.core.vector_kernels import random_below
from ludoteca.games.pente_grammai.kernels.layout import *  # noqa: F403 (the layout's names)

# -- the parts of a turn ----------------------------------------------------------------------


@njit(cache=True)
def is_chance_node(s):
    """Whether the first player is still to be drawn or the die still to be rolled."""
    return s[SIDE_AT] == NO_SIDE or s[DIE_AT] == 0


@njit(cache=True)
def _is_empty(s, point):
    return s[COUNT_AT + point] == 0 and s[COUNT_AT + NUM_POINTS + point] == 0


@njit(cache=True)
def can_take(s, side, point, params):
    """Whether a counter of ``side`` may land on ``point`` (by entering or moving).

    Sacred points hold any number of counters of both sides (``sacred="storage"``: one, and
    never a capture there). An ordinary point holds one counter; with ``capture`` a lone
    opponent counter there does not block, it is sent back to its owner's hand.
    """
    if IS_SACRED[point]:
        return params[P_SACRED] == SACRED_SCHAEDLER or _is_empty(s, point)
    if s[COUNT_AT + side * NUM_POINTS + point] != 0:
        return False
    if s[COUNT_AT + (1 - side) * NUM_POINTS + point] != 0:
        return params[P_CAPTURE] != 0
    return True


@njit(cache=True)
def _entering(s, side, die, params):
    """Whether entering is the move: counters in hand and the entry point can take one."""
    return s[HAND_AT + side] > 0 and can_take(s, side, ENTRY[side, die - 1], params)


@njit(cache=True)
def _moves(s, side, die, params, out):
    """Write the origin of every counter that can move ``die`` points into ``out``."""
    n = 0
    for point in range(NUM_POINTS):
        if s[COUNT_AT + side * NUM_POINTS + point] != 0 and can_take(
            s, side, LANDING[point, die - 1], params
        ):
            out[n] = point
            n += 1
    return n


@njit(cache=True)
def decision_actions_into(s, params, out):
    """Write the mover's legal actions (ascending) into ``out``; return how many.

    Entering has priority; otherwise a counter on the board moves; otherwise pass.
    """
    side = s[SIDE_AT]
    die = s[DIE_AT]
    if _entering(s, side, die, params):
        out[0] = ENTER
        return 1
    n = _moves(s, side, die, params, out)
    if n == 0:
        out[0] = PASS
        return 1
    return n


# -- applying a move --------------------------------------------------------------------------


@njit(cache=True)
def _land(s, side, point, params):
    """Put a counter of ``side`` on ``point``: capture, store or simply stand there."""
    if params[P_SACRED] == SACRED_STORAGE and point == GOAL[side]:
        s[STORE_AT + side] += 1  # off the circuit for good
        return
    opponent = COUNT_AT + (1 - side) * NUM_POINTS + point
    if not IS_SACRED[point] and s[opponent] != 0:  # only with capture: can_take said so
        s[opponent] -= 1
        s[HAND_AT + 1 - side] += 1
    s[COUNT_AT + side * NUM_POINTS + point] += 1


@njit(cache=True)
def home_count(s, side, params):
    """Counters of ``side`` home: on its goal point, or in its store with ``storage``."""
    if params[P_SACRED] == SACRED_STORAGE:
        return s[STORE_AT + side]
    return s[COUNT_AT + side * NUM_POINTS + GOAL[side]]


@njit(cache=True)
def _can_ever_move(s, side, params):
    """Whether some roll gives ``side`` a move (entering or moving a counter)."""
    for die in range(1, 7):
        if _entering(s, side, die, params):
            return True
        for point in range(NUM_POINTS):
            if s[COUNT_AT + side * NUM_POINTS + point] != 0 and can_take(
                s, side, LANDING[point, die - 1], params
            ):
                return True
    return False


@njit(cache=True)
def is_deadlocked(s, params):
    """Whether no roll gives either side a move, so every turn from now on is a pass.

    Only ``sacred="storage"`` can get here (ten counters filling the ten one-counter points,
    with each goal held by the other side). With Schädler's sacred points some roll always
    reaches one of them, so the test is skipped.
    """
    if params[P_SACRED] != SACRED_STORAGE:
        return False
    return not _can_ever_move(s, WHITE, params) and not _can_ever_move(s, BLUE, params)


@njit(cache=True)
def settle(s, params):
    """Set the status and reason of a position from its counters, ply count and options."""
    s[STATUS_AT] = ONGOING
    s[REASON_AT] = NO_REASON
    if home_count(s, WHITE, params) == COUNTERS:
        s[STATUS_AT] = WHITE_WINS
        s[REASON_AT] = ALL_HOME
    elif home_count(s, BLUE, params) == COUNTERS:
        s[STATUS_AT] = BLUE_WINS
        s[REASON_AT] = ALL_HOME
    elif s[PLY_AT] >= params[P_MAX_PLIES]:
        s[STATUS_AT] = DRAW
        s[REASON_AT] = PLY_CAP
    elif is_deadlocked(s, params):
        s[STATUS_AT] = DRAW
        s[REASON_AT] = DEADLOCK


@njit(cache=True, inline="always")
def _move(s, side, die, action, params):
    """Play ``side``'s decision ``action`` with the die ``die`` and hand the turn over."""
    if action == ENTER:
        s[HAND_AT + side] -= 1
        _land(s, side, ENTRY[side, die - 1], params)
    elif action != PASS:
        s[COUNT_AT + side * NUM_POINTS + action] -= 1
        _land(s, side, LANDING[action, die - 1], params)
    s[SIDE_AT] = 1 - side
    s[DIE_AT] = 0


@njit(cache=True)
def apply_action_inplace(s, action, params):
    """Play a legal ``action`` (or chance outcome) on ``s`` in place and settle the result."""
    if s[SIDE_AT] == NO_SIDE:
        s[SIDE_AT] = action - FIRST_0
    elif s[DIE_AT] == 0:
        s[DIE_AT] = action + 1
    else:
        _move(s, s[SIDE_AT], s[DIE_AT], action, params)
    s[PLY_AT] += 1
    settle(s, params)


@njit(cache=True)
def initial_cells(params):
    """The start position: counters in hand or on points 1-5, first player drawn or fixed."""
    s = np.zeros(CELLS_SIZE, dtype=np.int32)
    for side in range(2):
        if params[P_START] == START_SCHAEDLER:
            for die in range(1, 6):
                s[COUNT_AT + side * NUM_POINTS + ENTRY[side, die - 1]] = 1
        else:
            s[HAND_AT + side] = COUNTERS
    s[SIDE_AT] = params[P_FIRST]
    settle(s, params)
    return s


@njit(cache=True)
def winner(s):
    """The side that won a finished position, `NO_WINNER` for a draw."""
    status = s[STATUS_AT]
    if status == WHITE_WINS:
        return WHITE
    return BLUE if status == BLUE_WINS else NO_WINNER


# -- the contract's primitives (docs/kernels.md): the rest is generated into kernels/__init__.py

CONTRACT = {"args": ("params",), "chance": True, "sorted": True}
LEGAL_BUFFER = MAX_LEGAL


@njit(cache=True, inline="always")
def new_scratch(params):
    """Pente Grammai's kernels need no scratch buffers."""
    return 0


@njit(cache=True, inline="always")
def is_over(s):
    """Whether the game is over."""
    return s[STATUS_AT] != ONGOING


@njit(cache=True, inline="always")
def is_chance(s):
    """`is_chance_node`."""
    return is_chance_node(s)


@njit(cache=True, inline="always")
def mover(s):
    """The side to move."""
    return s[SIDE_AT]


@njit(cache=True, inline="always")
def safeguard_ended(s):
    """Whether the ``max_plies`` safeguard ended the game (a deadlock is a draw by the rules)."""
    return s[REASON_AT] == PLY_CAP


@njit(cache=True, inline="always")
def legal_into(s, params, scratch, out):
    """The first-player draw's outcomes, the die's (0..5: d1..d6), or the mover's actions."""
    if s[SIDE_AT] == NO_SIDE:
        out[0] = FIRST_0
        out[1] = FIRST_0 + 1
        return 2
    if s[DIE_AT] == 0:
        for face in range(6):
            out[face] = face
        return 6
    return decision_actions_into(s, params, out)


@njit(cache=True, inline="always")
def play(s, params, action, scratch):
    """`apply_action_inplace`."""
    apply_action_inplace(s, action, params)


@njit(cache=True, inline="always")
def draw_outcome(s, params, rng, row):
    """The first player (even odds) or the die's roll, from game ``row``'s generator."""
    if s[SIDE_AT] == NO_SIDE:
        return np.int64(FIRST_0 + random_below(rng, row, 2))
    return np.int64(random_below(rng, row, 6))
