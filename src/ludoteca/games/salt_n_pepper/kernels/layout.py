"""The layout of Salt 'n' Pepper's compiled kernels: one small integer array, and the action codec.

Board indexing (``square = rank0 * 10 + file0``; ``params[P_RANKS]`` ranks, 10 by default)::

    rank 10 | 90 91 92 ... 99      Salt (dark squares, where file + rank is odd, a = 1)
     ...    |                      starts on the top three ranks and moves down;
    rank 2  | 10 11 12 ... 19      Pepper starts on the light squares of ranks 1-3 and
    rank 1  |  0  1  2 ...  9      moves up. a1 (square 0) is light.
              a  b  c  ...  j

The position array (``int32``), see the ``*_AT`` offsets below:

- ``FIRST_AT``: the side that moved first, or ``UNDRAWN`` before the bag draw (a chance node);
- ``PLY_AT``: plies played since the draw (passes included); the side to move follows from it;
- ``PASSES_AT``: passes played in a row just now (0, 1, or 2 once both sides are stuck);
- ``STATUS_AT`` and ``REASON_AT``: how the game stands;
- ``ON_BOARD_AT + side``: how many of the side's 15 pieces are still on the board;
- ``PIECES_AT + side * 15 + i``: the squares of those pieces in ascending order, then
  ``NO_SQUARE`` for the pieces already home (so equal positions have equal arrays);
- ``BOARD_AT + square``: ``EMPTY``, ``SALT_CELL`` or ``PEPPER_CELL`` (a side's cell is side + 1).

Options arrive as ``params`` (see ``P_*``), the board geometry as ``targets`` (`build_targets`).

Action codec (the one place that knows it)::

    action = square * 12 + kind       # 0 <= action < PASS
    kind   = direction                # 0..4: a step SW, SE, N, W or E
           | LEAP + direction         # 5..9: a leap over the neighbour that way
           | HOME                     # 10: a piece on the back rank moves off the board
           | LEAP_HOME                # 11: a leap over a piece on the back rank, off the board
    PASS = MAX_SQUARES * 12           # the forfeited turn

At the bag draw (a chance node) the outcomes are 0 (Salt moves first) and 1 (Pepper first).
"""

import numpy as np
from numba import njit

WIDTH = 10
MIN_RANKS, MAX_RANKS = 6, 20
MAX_SQUARES = WIDTH * MAX_RANKS
PIECES_PER_SIDE = 15
SALT, PEPPER = 0, 1

FIRST_AT = 0
PLY_AT = 1
PASSES_AT = 2
STATUS_AT = 3
REASON_AT = 4
ON_BOARD_AT = 5  # + side
PIECES_AT = 7  # + side * 15 + i
BOARD_AT = 37  # + square


def cells_size(ranks):  # type: ignore[no-untyped-def]
    """The length of the position array of a board with ``ranks`` ranks."""
    return BOARD_AT + WIDTH * ranks


UNDRAWN = -1  # FIRST_AT before the bag draw
NO_SQUARE = -1  # PIECES_AT slots of pieces that are home
EMPTY, SALT_CELL, PEPPER_CELL = 0, 1, 2

# STATUS values
ONGOING, SALT_WINS, PEPPER_WINS, DRAW = 0, 1, 2, 3
# REASON values
NO_REASON = 0
ALL_HOME = 1  # the winner brought its 15th piece home
BOTH_STUCK = 2  # engine safeguard: two passes in a row
PLY_CAP = 3  # engine safeguard: max_plies

# params: the options as integers
P_RANKS = 0
P_PEPPER_DIRECTIONS = 1  # 1 (straight up) or 3 (up and sideways)
P_MAX_PLIES = 2
NUM_PARAMS = 3

# Directions as (file, rank) steps. Salt uses SW and SE; Pepper N, and with the option W and E.
SW, SE, N, W, E = 0, 1, 2, 3, 4
NUM_DIRECTIONS = 5
DIRECTION_STEPS = ((-1, -1), (1, -1), (0, 1), (-1, 0), (1, 0))
SIDE_DIRECTIONS = np.array([[SW, SE, -1], [N, W, E]], dtype=np.int64)

LEAP = 5  # kind = LEAP + direction
HOME, LEAP_HOME = 10, 11
KINDS = 12
PASS = MAX_SQUARES * KINDS
NUM_ACTIONS = PASS + 1
MAX_LEGAL = 64  # 15 pieces x 3 directions, at most one action each

OFF_BOARD = -1  # a target beyond the edge
HOME_LANDING = -2  # a leap over the mover's back rank lands home


def build_targets(ranks):  # type: ignore[no-untyped-def]
    """The board geometry: ``targets[square, kind]`` for the step and leap kinds (0..9).

    A step kind gives the neighbouring square that way (the square a leap goes over), a leap
    kind the landing square; ``OFF_BOARD`` past the edge. A forward leap over a piece on the
    mover's back rank (rank 1 for Salt going SW/SE, the top rank for Pepper going N) lands
    ``HOME_LANDING`` whatever file it would reach.
    """
    targets = np.full((WIDTH * ranks, LEAP + NUM_DIRECTIONS), OFF_BOARD, dtype=np.int64)
    for square in range(WIDTH * ranks):
        rank, file = divmod(square, WIDTH)
        for direction, (df, dr) in enumerate(DIRECTION_STEPS):
            if not (0 <= file + df < WIDTH and 0 <= rank + dr < ranks):
                continue
            targets[square, direction] = (rank + dr) * WIDTH + file + df
            over_back_rank = (direction in (SW, SE) and rank + dr == 0) or (
                direction == N and rank + dr == ranks - 1
            )
            if over_back_rank:
                targets[square, LEAP + direction] = HOME_LANDING
            elif 0 <= file + 2 * df < WIDTH and 0 <= rank + 2 * dr < ranks:
                targets[square, LEAP + direction] = (rank + 2 * dr) * WIDTH + file + 2 * df
    return targets


@njit(cache=True)
def encode_action(square, kind):
    """The action index of the move of kind ``kind`` by the piece on ``square``."""
    return square * KINDS + kind


@njit(cache=True)
def side_to_move(s):
    """The side to move once the first player is drawn: turns alternate from ``FIRST_AT``."""
    return (s[FIRST_AT] + s[PLY_AT]) & 1


@njit(cache=True)
def back_rank(side, params):
    """The mover's own edge rank, 0-based: rank 1 for Salt, the top rank for Pepper."""
    return 0 if side == SALT else params[P_RANKS] - 1


@njit(cache=True)
def direction_count(side, params):
    """How many directions ``side`` moves in: Salt 2, Pepper 1 (or 3 with sideways moves)."""
    return 2 if side == SALT else params[P_PEPPER_DIRECTIONS]


# -- Named accessors --------------------------------------------------------------------------
# The layout read and written by name: code outside the kernels (position text, the state, the view)
# calls these instead of doing arithmetic on the ``*_AT`` offsets. A region comes back as a view of
# ``s`` (read-only when ``s`` is). The template writes those of ``ACCESSORS`` into the kernels
# package (`ludoteca.core.kernel_accessors`).

ACCESSORS = {
    "board_cells()": "view BOARD_AT: the board, one cell per square (``EMPTY``, ``SALT_CELL`` or"
    " ``PEPPER_CELL``): a view",
    "board_cell(square)": "get BOARD_AT: what stands on ``square``: ``EMPTY``, or the side + 1"
    " of the piece there",
    "set_board_cell(square, value)": "set BOARD_AT: put ``value`` (``EMPTY``, ``SALT_CELL`` or"
    " ``PEPPER_CELL``) on ``square``",
    "pieces_on_board(side)": "get ON_BOARD_AT: how many of ``side``'s pieces are still on the"
    " board",
    "set_pieces_on_board(side, count)": "set ON_BOARD_AT: set how many of ``side``'s pieces are"
    " on the board",
    "piece_slots(side)": "view PIECES_AT PIECES_PER_SIDE: all ``PIECES_PER_SIDE`` piece slots of"
    " ``side``: the squares, then ``NO_SQUARE``: a view",
}


@njit(cache=True)
def piece_squares(s, side):
    """The squares of ``side``'s pieces on the board, ascending: a view."""
    start = PIECES_AT + side * PIECES_PER_SIDE
    return s[start : start + s[ON_BOARD_AT + side]]
