"""The layout of Splinter's compiled kernels: one small integer array, and the action codec.

Board indexing (``square = rank0 * width + file0``; the default board is 15 files by 18 ranks)::

    rank 18 | 255 256 ... 269
     ...    |
    rank 2  |  15  16 ...  29
    rank 1  |   0   1 ...  14
                a   b  ...   o

The position array (``int32``), see the ``*_AT`` offsets below:

- the side to move (``BLUE``, ``RED``, or ``CHANCE`` while the first player is still to be
  drawn; it keeps the alternation after the game ends) and the turns played (passes included);
- the no-return record: the direction of the opponent's last move, the square where the moving
  piece now stands, and how many of the pieces that move displaced are still on the board. They
  stand in an unbroken line from that square onward in that direction. All three are 0 when
  nothing is restricted (at the start, after a pass, or when a splinter removed the line);
- the status and the reason code (derived by `settle`);
- the number of pieces of each side and type, ``COUNT_AT + side * 3 + type`` (derived);
- each side's pieces rank by rank as bit masks, ``ROWS_AT + side * ROW_SLOTS + rank0 + 2``,
  bit ``file0 + 2`` (derived; the two slots below rank 1 and above the top rank, and bits 0
  and 1, stay 0, so that the 3x3 and 5x5 blocks around any square read as shifted masks);
- the board, ``BOARD_AT + square``: 0 for empty, else ``piece_code(side, type)`` = 1..6.

Everything marked derived follows from the board (`recount`), so equal positions have equal
arrays. Pieces of one side and type are interchangeable on the board; only the no-return rule
cares which piece is which, and the record above is all it needs, since only the last turn
counts.

The board geometry arrives as ``nbr`` (``layout.neighbour_table``): ``nbr[square, direction]``
is the neighbouring square or -1 off the board, and columns ``RANK_COL`` and ``FILE_COL`` hold
the square's rank and file; options arrive as ``params`` (see ``P_*``).

The kernels are split by concept: this module (the array layout, the geometry, the action
codec and the accessors); `groups` (neighbourhoods as bit masks, and finding groups square by
square, in a 5x5 window, and in the frame: all pieces in two 64-bit words); `moves` (the push,
the no-return rule, splinters); `rules` (the legal moves, playing a move, the end of the
game); `playouts` (random playouts) and `learning` (observation planes).

Action codec (the one place that knows it)::

    action = (origin * 8 + direction) * 4 + choice      # 0 <= action < PASS
    PASS = MAX_SQUARES * 32

``direction`` counts clockwise from north (N NE E SE S SW W NW); ``choice`` says which of several
tied largest groups stays, counted in the order of their first squares (lowest index), and is 0
when the move leaves one largest group. A move splits the pieces into at most four groups (every
group touches the square the mover left, and at most four of its eight neighbours are pairwise
apart), so four choices are enough. At the chance node of ``first=random`` the outcomes are
0 (Blue starts) and 1 (Red starts).
"""

import numpy as np
from numba import njit

BLUE, RED = 0, 1
CHANCE = -1
SQUARE, CROSS, CIRCLE = 0, 1, 2
NUM_TYPES = 3

MAX_WIDTH, MAX_HEIGHT = 25, 26
MAX_SQUARES = MAX_WIDTH * MAX_HEIGHT
NUM_DIRECTIONS = 8

TO_MOVE_AT = 0
PLY_AT = 1
LAST_DIRECTION_AT = 2
LAST_FIRST_AT = 3
LAST_COUNT_AT = 4
STATUS_AT = 5
REASON_AT = 6
COUNT_AT = 7  # + side * 3 + type
ROWS_AT = 13  # + side * ROW_SLOTS + rank0 + 2
ROW_SLOTS = MAX_HEIGHT + 4
ROW_PAD = 2
BOARD_AT = ROWS_AT + 2 * ROW_SLOTS
HEADER_SIZE = BOARD_AT

# params: the options as integers
P_WIDTH = 0
P_HEIGHT = 1
P_MAX_PLIES = 2  # engine safeguard
P_FIRST = 3  # BLUE, RED, or CHANCE for a drawn first player
NUM_PARAMS = 4

DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DIRECTION_STEPS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
FILE_STEP = np.array([df for df, _ in DIRECTION_STEPS], dtype=np.int64)
RANK_STEP = np.array([dr for _, dr in DIRECTION_STEPS], dtype=np.int64)
RANK_COL, FILE_COL = 8, 9

OCCUPIED = 7  # a board value used only while the kernels try a move out

# -- actions, status and reasons ---------------------------------------------------------------

MAX_CHOICES = 4
PASS = MAX_SQUARES * NUM_DIRECTIONS * MAX_CHOICES
NUM_ACTIONS = PASS + 1
MAX_LEGAL = 15 * NUM_DIRECTIONS * MAX_CHOICES  # a side never has more than 15 pieces

# STATUS values
ONGOING, BLUE_WINS, RED_WINS, TIE = 0, 1, 2, 3
# REASON values
NO_REASON = 0
MISSING_TYPE = 1  # one side has lost every piece of some type
BOTH_MISSING = 2  # both sides lost a type in the same move: the piece count decides
PLY_CAP = 3  # engine safeguard


@njit(cache=True)
def piece_code(side, kind):
    """The board value of a piece: 1..3 Blue square, cross, circle; 4..6 Red's."""
    return side * NUM_TYPES + kind + 1


@njit(cache=True, inline="always")
def encode_action(origin, direction, choice):
    """The action index of moving the piece on ``origin`` towards ``direction``."""
    return (origin * NUM_DIRECTIONS + direction) * MAX_CHOICES + choice


@njit(cache=True, inline="always")
def opposite(direction):
    """The direction pointing the other way."""
    return (direction + 4) % NUM_DIRECTIONS


# -- Named accessors --------------------------------------------------------------------------
# The layout read and written by name: code outside the kernels (position text, the state, the
# game's start position) calls these instead of doing arithmetic on the ``*_AT`` offsets. A region
# comes back as a view of ``s`` (read-only when ``s`` is). The template writes those of
# ``ACCESSORS`` into the kernels package (`ludoteca.core.kernel_accessors`).

ACCESSORS = {
    "board_cells()": "view BOARD_AT: the board, one cell per square (0, or a `piece_code`): a view",
    "board_cell(square)": "get BOARD_AT: what stands on ``square``: 0 for empty, else the"
    " piece's `piece_code`",
    "set_board_cell(square, code)": "set BOARD_AT: put the piece ``code`` (0 for none) on"
    " ``square``; `recount` then settles the counts",
    "piece_counts(side)": "view COUNT_AT NUM_TYPES: how many pieces of each type (square, cross,"
    " circle) ``side`` has: a view",
}


@njit(cache=True)
def no_return_record(s):
    """The no-return record ``(direction, first square, count)``; count 0 for none."""
    return s[LAST_DIRECTION_AT], s[LAST_FIRST_AT], s[LAST_COUNT_AT]


@njit(cache=True)
def set_no_return_record(s, direction, first, count):
    """Record ``count`` pieces pushed towards ``direction``, the mover's on ``first``."""
    s[LAST_DIRECTION_AT] = direction
    s[LAST_FIRST_AT] = first
    s[LAST_COUNT_AT] = count


def cells_size(width, height):  # type: ignore[no-untyped-def]
    """The length of the position array of a ``width`` by ``height`` board."""
    return HEADER_SIZE + width * height
