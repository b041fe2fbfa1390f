"""The layout of Salta's compiled kernels: one small integer array, and the action codec.

Board indexing (square = rank0 * 10 + file0; only dark squares, file0 + rank0 even, are used)::

    rank 10 | 90 .. 99
     ...    |
    rank 2  | 10 11 12 ... 19
    rank 1  |  0  1  2 ...  9
              a  b  c  ...  j

The position array (``int32``), see the ``*_AT`` offsets below:

- two layers of 100 cells, Green's then Red's: 0 for empty, else the piece number 1..15 of that
  side (1-5 Stars, 6-10 Moons, 11-15 Suns). Two layers, because in the "played" scoring phase
  each side ignores the other, so a Green and a Red piece may share a square;
- the square of every piece (Green's 15, then Red's 15);
- plies played, the two move counts of the scoring phase, the status and the reason code.

Whose turn it is follows from the ply count: turns always alternate (a pass is a ply), Green
first. Options arrive as ``params`` (see ``P_*``) and the goal table as ``goals[side, piece]``.

Action codec (the one place that knows it)::

    action = ((origin // 2) * 4 + direction) * 2 + is_jump      # 0 <= action < 400
    PASS = 400

``origin // 2`` numbers the 50 dark squares 0..49; directions are NE, NW, SE, SW.
"""

import numpy as np
from numba import njit

WIDTH = 10
NUM_SQUARES = 100
PIECES_PER_SIDE = 15
GREEN, RED = 0, 1

LAYER_AT = 0  # + side * 100 + square
PIECE_SQUARE_AT = 200  # + side * 15 + piece index (0..14)
PLY_AT = 230
SCORING_MOVES_AT = 231  # + side: moves made in the "played" scoring phase
STATUS_AT = 233
REASON_AT = 234
CELLS_SIZE = 235

# STATUS values
ONGOING, GREEN_WINS, RED_WINS, DRAW = 0, 1, 2, 3
# REASON values
NO_REASON = 0
RED_GOAL = 1  # Red completed its goal first
GREEN_GOAL = 2  # Green completed its goal and Red's extra move did not complete Red's
BOTH_GOALS = 3  # Red completed its goal with the extra move: draw
SCORED_PLAYED = 4
SCORED_SIMPLIFIED = 5
PLY_CAP = 6
SCORING_DECIDED = 7  # played scoring: one side is home and the other can no longer match it

# params: the options as integers
P_SCORING_START = 0  # plies after which scoring begins, or -1 without the move limit
P_SCORING_MODE = 1  # SCORING_PLAYED or SCORING_SIMPLIFIED
P_SCORING_CAP = 2  # per-player move cap in the played scoring phase (engine safeguard)
P_MAX_PLIES = 3  # engine safeguard when there is no move limit
NUM_PARAMS = 4
SCORING_PLAYED, SCORING_SIMPLIFIED = 0, 1

NE, NW, SE, SW = 0, 1, 2, 3
DIRECTION_STEPS = ((1, 1), (-1, 1), (1, -1), (-1, -1))  # (file, rank) per direction
FORWARD_DIRECTIONS = np.array([[NE, NW], [SE, SW]], dtype=np.int64)  # per side

NUM_ACTIONS = 401
PASS = 400
MAX_LEGAL = 64  # 15 pieces x 4 directions, at most one action each


def _build_tables():  # type: ignore[no-untyped-def]
    neighbour = np.full((NUM_SQUARES, 4), -1, dtype=np.int64)
    landing = np.full((NUM_SQUARES, 4), -1, dtype=np.int64)
    for square in range(NUM_SQUARES):
        rank, file = divmod(square, WIDTH)
        for direction, (df, dr) in enumerate(DIRECTION_STEPS):
            if 0 <= file + df < WIDTH and 0 <= rank + dr < WIDTH:
                neighbour[square, direction] = (rank + dr) * WIDTH + file + df
            if 0 <= file + 2 * df < WIDTH and 0 <= rank + 2 * dr < WIDTH:
                landing[square, direction] = (rank + 2 * dr) * WIDTH + file + 2 * df
    origin = np.full(NUM_ACTIONS, -1, dtype=np.int64)
    destination = np.full(NUM_ACTIONS, -1, dtype=np.int64)
    for action in range(PASS):
        dark, direction, is_jump = action >> 3, (action >> 1) & 3, action & 1
        rank = dark // 5
        square = rank * WIDTH + (dark % 5) * 2 + rank % 2
        origin[action] = square
        destination[action] = (landing if is_jump else neighbour)[square, direction]
    return neighbour, landing, origin, destination


DIAGONAL_NEIGHBOUR, JUMP_LANDING, ACTION_ORIGIN, ACTION_DESTINATION = _build_tables()


@njit(cache=True)
def encode_action(origin, direction, is_jump):
    """The action index of a move from ``origin`` in ``direction``."""
    return ((origin // 2) * 4 + direction) * 2 + is_jump


@njit(cache=True)
def is_jump(action):
    """Whether ``action`` is a jump (the codec's lowest bit); a pass is no jump."""
    return action != PASS and (action & 1) == 1


@njit(cache=True)
def side_to_move(s):
    """Green (0) on even ply counts, Red (1) on odd ones."""
    return s[PLY_AT] & 1


@njit(cache=True)
def _is_empty(s, square):
    return s[LAYER_AT + square] == 0 and s[LAYER_AT + NUM_SQUARES + square] == 0


@njit(cache=True)
def in_scoring_phase(s, params):
    """Whether the played scoring phase is under way (the 120-move rule has struck)."""
    start = params[P_SCORING_START]
    return start >= 0 and s[PLY_AT] >= start


# -- Named accessors --------------------------------------------------------------------------
# The layout read and written by name: code outside the kernels (position text, the state, the view,
# the start position) calls these instead of doing arithmetic on the ``*_AT`` offsets. A region
# comes back as a view of ``s`` (read-only when ``s`` is). The template writes those of
# ``ACCESSORS`` into the kernels package (`ludoteca.core.kernel_accessors`).

ACCESSORS = {
    "layer(side)": "view LAYER_AT NUM_SQUARES: ``side``'s layer of the board, one cell per square"
    " (0, or piece number + 1): a view",
    "piece_squares(side)": "view PIECE_SQUARE_AT PIECES_PER_SIDE: the squares of ``side``'s"
    " ``PIECES_PER_SIDE`` pieces, by piece number: a view",
    "piece_square(side, piece)": "get PIECE_SQUARE_AT PIECES_PER_SIDE: the square of ``side``'s"
    " piece number ``piece`` (0..14)",
    "scoring_moves_of(side)": "get SCORING_MOVES_AT: moves ``side`` has made in the played"
    " scoring phase (the cap penalty included)",
    "set_scoring_moves(side, count)": "set SCORING_MOVES_AT: set the moves ``side`` has made in"
    " the played scoring phase",
}


@njit(cache=True)
def put_piece(s, side, piece, square):
    """Stand ``side``'s piece number ``piece`` on ``square`` (its layer cell and its square)."""
    s[LAYER_AT + side * NUM_SQUARES + square] = piece + 1
    s[PIECE_SQUARE_AT + side * PIECES_PER_SIDE + piece] = square
