"""Salt 'n' Pepper's moves.

The moves of each side, applying a move and ending the game, and the contract's primitives;
the position array and the action codec are in `layout`.
"""

import numpy as np
from numba import njit

from ludoteca.core.playouts import NO_WINNER
from ludoteca.core.vector_kernels import random_below
from ludoteca.games.salt_n_pepper.kernels.layout import *  # noqa: F403 (the layout's names)

# -- the moves -------------------------------------------------------------------------------


@njit(cache=True)
def _home_moves(s, side, params, out):
    """Forced home: write a move home for every piece of ``side`` on its back rank."""
    row = back_rank(side, params)
    n = 0
    for i in range(s[ON_BOARD_AT + side]):
        square = s[PIECES_AT + side * PIECES_PER_SIDE + i]
        if square // WIDTH == row:
            out[n] = encode_action(square, HOME)
            n += 1
    return n


@njit(cache=True)
def _piece_moves(s, side, square, params, targets, out, n):
    """Append the steps and leaps of the piece on ``square`` to ``out[n:]``; return the new n.

    A step goes to an empty neighbour in one of the side's directions; a leap goes over an
    adjacent opponent piece (never an own one) to the empty square beyond, or home when that
    piece stands on the mover's back rank. Two leaps home of one piece are one move.
    """
    opponent_cell = 2 - side  # the opponent's cell value, (1 - side) + 1
    leaps_home = False
    for j in range(direction_count(side, params)):
        direction = SIDE_DIRECTIONS[side, j]
        over = targets[square, direction]
        if over == OFF_BOARD:
            continue
        cell = s[BOARD_AT + over]
        if cell == EMPTY:
            out[n] = encode_action(square, direction)
            n += 1
        elif cell == opponent_cell:
            land = targets[square, LEAP + direction]
            if land >= 0:
                if s[BOARD_AT + land] == EMPTY:
                    out[n] = encode_action(square, LEAP + direction)
                    n += 1
            elif land == HOME_LANDING and not leaps_home:
                out[n] = encode_action(square, LEAP_HOME)
                n += 1
                leaps_home = True
    return n


@njit(cache=True)
def side_actions(s, side, params, targets, out):
    """Write the moves ``side`` could make here into ``out``; return how many (0: stuck).

    With a piece on its back rank the side may only move such a piece home.
    """
    n = _home_moves(s, side, params, out)
    if n > 0:
        return n
    for i in range(s[ON_BOARD_AT + side]):
        square = s[PIECES_AT + side * PIECES_PER_SIDE + i]
        n = _piece_moves(s, side, square, params, targets, out, n)
    return n


@njit(cache=True)
def legal_actions_into(s, params, targets, out):
    """Write the legal actions of an unfinished, drawn position into ``out``; return how many.

    A side without a move forfeits its turn: its only move is ``PASS``.
    """
    n = side_actions(s, side_to_move(s), params, targets, out)
    if n == 0:
        out[0] = PASS
        n = 1
    return n


@njit(cache=True)
def has_a_move(s, side, params, targets):
    """Whether ``side`` could move (rather than forfeit) if it were its turn."""
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    return side_actions(s, side, params, targets, out) > 0


# -- changing the position -------------------------------------------------------------------


@njit(cache=True)
def _move_piece(s, side, origin, destination):
    """Move a piece, keeping the side's square list in ascending order."""
    s[BOARD_AT + destination] = s[BOARD_AT + origin]
    s[BOARD_AT + origin] = EMPTY
    base = PIECES_AT + side * PIECES_PER_SIDE
    count = s[ON_BOARD_AT + side]
    i = 0
    while s[base + i] != origin:
        i += 1
    while i > 0 and s[base + i - 1] > destination:
        s[base + i] = s[base + i - 1]
        i -= 1
    while i + 1 < count and s[base + i + 1] < destination:
        s[base + i] = s[base + i + 1]
        i += 1
    s[base + i] = destination


@njit(cache=True)
def _take_home(s, side, origin):
    """Move the piece on ``origin`` off the board, home."""
    s[BOARD_AT + origin] = EMPTY
    base = PIECES_AT + side * PIECES_PER_SIDE
    count = s[ON_BOARD_AT + side]
    i = 0
    while s[base + i] != origin:
        i += 1
    while i + 1 < count:
        s[base + i] = s[base + i + 1]
        i += 1
    s[base + count - 1] = NO_SQUARE
    s[ON_BOARD_AT + side] = count - 1


@njit(cache=True)
def _finish(s, status, reason):
    s[STATUS_AT] = status
    s[REASON_AT] = reason


@njit(cache=True)
def settle(s, params):
    """Set the status and reason from the pieces, the passes and the ply count."""
    if s[ON_BOARD_AT + SALT] == 0:
        _finish(s, SALT_WINS, ALL_HOME)
    elif s[ON_BOARD_AT + PEPPER] == 0:
        _finish(s, PEPPER_WINS, ALL_HOME)
    elif s[PASSES_AT] >= 2:
        _finish(s, DRAW, BOTH_STUCK)
    elif s[PLY_AT] >= params[P_MAX_PLIES]:
        _finish(s, DRAW, PLY_CAP)
    else:
        _finish(s, ONGOING, NO_REASON)


@njit(cache=True)
def apply_action_inplace(s, action, params, targets):
    """Play a legal ``action`` (or the bag draw's outcome) on ``s`` in place and settle."""
    if s[FIRST_AT] == UNDRAWN:
        s[FIRST_AT] = action
        settle(s, params)
        return
    if action == PASS:
        s[PASSES_AT] += 1
    else:
        s[PASSES_AT] = 0
        side = side_to_move(s)
        origin, kind = action // KINDS, action % KINDS
        if kind >= HOME:
            _take_home(s, side, origin)
        else:
            _move_piece(s, side, origin, targets[origin, kind])
    s[PLY_AT] += 1
    settle(s, params)


@njit(cache=True)
def winner(s):
    """The side that won a finished position, `NO_WINNER` for a draw."""
    status = s[STATUS_AT]
    if status == SALT_WINS:
        return SALT
    return PEPPER if status == PEPPER_WINS else NO_WINNER


# -- the contract's primitives (docs/kernels.md): the rest is generated into kernels/__init__.py

CONTRACT = {"args": ("params", "targets"), "chance": True}
LEGAL_BUFFER = MAX_LEGAL


@njit(cache=True, inline="always")
def new_scratch(params, targets):
    """Salt 'n' Pepper's kernels need no scratch buffers."""
    return 0


@njit(cache=True, inline="always")
def is_over(s):
    """Whether the game is over."""
    return s[STATUS_AT] != ONGOING


@njit(cache=True, inline="always")
def is_chance(s):
    """Whether the bag is still to be drawn."""
    return s[FIRST_AT] == UNDRAWN


@njit(cache=True, inline="always")
def mover(s):
    """The side to move."""
    return side_to_move(s)


@njit(cache=True, inline="always")
def safeguard_ended(s):
    """Whether two passes in a row or ``max_plies`` ended the game."""
    return s[REASON_AT] == BOTH_STUCK or s[REASON_AT] == PLY_CAP


@njit(cache=True, inline="always")
def legal_into(s, params, targets, scratch, out):
    """The bag draw's outcomes (0: Salt first, 1: Pepper first), or `legal_actions_into`."""
    if s[FIRST_AT] == UNDRAWN:
        out[0] = 0
        out[1] = 1
        return 2
    return legal_actions_into(s, params, targets, out)


@njit(cache=True, inline="always")
def play(s, params, targets, action, scratch):
    """`apply_action_inplace`."""
    apply_action_inplace(s, action, params, targets)


@njit(cache=True, inline="always")
def draw_outcome(s, params, targets, rng, row):
    """The bag draw at even odds, from game ``row``'s generator."""
    return random_below(rng, row, 2)
