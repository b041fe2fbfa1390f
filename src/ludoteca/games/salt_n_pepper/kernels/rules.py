"""Salt 'n' Pepper's rules as compiled kernels over one small integer array.

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

from ludoteca.core.playout_kernels import (
    count_decision,
)
from ludoteca.core.playouts import (
    NO_WINNER,
    T_DECISIONS,  # noqa: F401 (the game's playout_totals reads the slots from here)
    T_DRAWS,  # noqa: F401
    T_LEGAL_MOVES,  # noqa: F401
    T_LONGEST,  # noqa: F401
    T_PLIES,
    T_WINS,
)
from ludoteca.core.vector_kernels import random_below

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


# -- random playouts ---------------------------------------------------------------------------

# random_playouts totals: the standard ones of ludoteca.core.playouts, then our own
T_STUCK_DRAWS = T_WINS + 2  # draws by two passes in a row (engine safeguard)
T_CAP_DRAWS = T_WINS + 3  # draws by max_plies (engine safeguard)
T_PASSES = T_WINS + 4  # forfeited turns
T_SALT_FIRST = T_WINS + 5  # games in which Salt moved first
T_FIRST_MOVER_WINS = T_WINS + 6  # games won by the side that moved first
T_LEAPS = T_WINS + 7  # leaps, leaps home included
T_LEAPS_HOME = T_WINS + 8
NUM_TOTALS = T_WINS + 9


@njit(cache=True)
def random_playout_inplace(s, params, targets, totals, curve, max_plies):
    """Play ``s``: the bag draw at even odds, then uniformly random legal moves.

    Stops when the game is over or after ``max_plies`` plies (the draw counts; `NO_PLY_LIMIT`:
    play to the end). Adds the plies, decisions, legal moves, turns (a turn is one decision),
    passes and leaps to ``totals`` and the legal-move counts to ``curve`` (see
    `ludoteca.core.playouts`); returns the side of the first decision (`NO_WINNER` if none).
    """
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    plies = 0
    if s[STATUS_AT] == ONGOING and s[FIRST_AT] == UNDRAWN and plies < max_plies:
        apply_action_inplace(s, np.random.randint(2), params, targets)
        totals[T_PLIES] += 1
        plies += 1
    first = NO_WINNER
    decisions = 0
    while s[STATUS_AT] == ONGOING and plies < max_plies:
        plies += 1
        if decisions == 0:
            first = side_to_move(s)
        n = legal_actions_into(s, params, targets, out)
        count_decision(totals, curve, decisions, n, True)
        decisions += 1
        action = out[np.random.randint(n)]
        if action == PASS:
            totals[T_PASSES] += 1
        elif action % KINDS >= LEAP and action % KINDS != HOME:
            totals[T_LEAPS] += 1
            if action % KINDS == LEAP_HOME:
                totals[T_LEAPS_HOME] += 1
        apply_action_inplace(s, action, params, targets)
        totals[T_PLIES] += 1
    return first


@njit(cache=True)
def winner(s):
    """The side that won a finished position, `NO_WINNER` for a draw."""
    status = s[STATUS_AT]
    if status == SALT_WINS:
        return SALT
    return PEPPER if status == PEPPER_WINS else NO_WINNER


# == for learning agents: observation, action mask, batch play (docs/rl.md) =====================
#
# The observation is ``NUM_PLANES`` planes of ``ranks x 10`` (rank 1 first, file a first, so a
# plane's flat index is the square), from one player's view: own and opponent pieces, then
# planes that hold one number each.

OBS_OWN = 0  # 1 where a piece of the observing player stands
OBS_OPPONENT = 1  # 1 where an opponent piece stands
OBS_IS_PEPPER = 2  # all 1 when the observing player is Pepper
OBS_TO_MOVE = 3  # all 1 when it is the observing player's turn (0 before the bag draw)
OBS_OWN_HOME = 4  # the observing player's pieces home / 15
OBS_OPPONENT_HOME = 5  # the opponent's pieces home / 15
OBS_PASSES = 6  # passes in a row just now / 2 (the double-pass stop)
OBS_PLIES = 7  # plies played / max_plies (the ply cap's countdown)
NUM_PLANES = 8
NUM_CHANCE_OUTCOMES = 2  # the bag draw: first-0, first-1


@njit(cache=True)
def _fill(out, plane, squares, value):
    out[plane * squares : (plane + 1) * squares] = value


@njit(cache=True)
def observation(s, params, targets, player, out):
    """Write the position's planes as ``player`` sees them into the flat float32 ``out``."""
    squares = WIDTH * params[P_RANKS]
    out[: 2 * squares] = 0.0
    for side in range(2):
        plane = OBS_OWN if side == player else OBS_OPPONENT
        base = PIECES_AT + side * PIECES_PER_SIDE
        for i in range(s[ON_BOARD_AT + side]):
            out[plane * squares + s[base + i]] = 1.0
    _fill(out, OBS_IS_PEPPER, squares, 1.0 if player == PEPPER else 0.0)
    to_move = s[STATUS_AT] == ONGOING and s[FIRST_AT] != UNDRAWN and side_to_move(s) == player
    _fill(out, OBS_TO_MOVE, squares, 1.0 if to_move else 0.0)
    own_home = PIECES_PER_SIDE - s[ON_BOARD_AT + player]
    opponent_home = PIECES_PER_SIDE - s[ON_BOARD_AT + 1 - player]
    _fill(out, OBS_OWN_HOME, squares, own_home / PIECES_PER_SIDE)
    _fill(out, OBS_OPPONENT_HOME, squares, opponent_home / PIECES_PER_SIDE)
    _fill(out, OBS_PASSES, squares, min(s[PASSES_AT], 2) / 2.0)
    _fill(out, OBS_PLIES, squares, min(s[PLY_AT] / params[P_MAX_PLIES], 1.0))


# -- Named accessors --------------------------------------------------------------------------
# The layout read and written by name: code outside the kernels (position text, the state, the
# view) calls these instead of doing arithmetic on the ``*_AT`` offsets. A region comes back as
# a view of ``s`` (read-only when ``s`` is).


@njit(cache=True)
def board_cells(s):
    """The board, one cell per square (``EMPTY``, ``SALT_CELL`` or ``PEPPER_CELL``): a view."""
    return s[BOARD_AT:]


@njit(cache=True)
def board_cell(s, square):
    """What stands on ``square``: ``EMPTY``, or the side + 1 of the piece there."""
    return s[BOARD_AT + square]


@njit(cache=True)
def set_board_cell(s, square, value):
    """Put ``value`` (``EMPTY``, ``SALT_CELL`` or ``PEPPER_CELL``) on ``square``."""
    s[BOARD_AT + square] = value


@njit(cache=True)
def pieces_on_board(s, side):
    """How many of ``side``'s pieces are still on the board."""
    return s[ON_BOARD_AT + side]


@njit(cache=True)
def set_pieces_on_board(s, side, count):
    """Set how many of ``side``'s pieces are on the board."""
    s[ON_BOARD_AT + side] = count


@njit(cache=True)
def piece_slots(s, side):
    """All ``PIECES_PER_SIDE`` piece slots of ``side``: the squares, then ``NO_SQUARE``: a view."""
    start = PIECES_AT + side * PIECES_PER_SIDE
    return s[start : start + PIECES_PER_SIDE]


@njit(cache=True)
def piece_squares(s, side):
    """The squares of ``side``'s pieces on the board, ascending: a view."""
    start = PIECES_AT + side * PIECES_PER_SIDE
    return s[start : start + s[ON_BOARD_AT + side]]


@njit(cache=True)
def after_game(s, totals):
    """Salt 'n' Pepper's own totals of a finished random game (see ``T_STUCK_DRAWS``...)."""
    won = winner(s)
    first = s[FIRST_AT]
    if first == SALT:
        totals[T_SALT_FIRST] += 1
    if won < 0:
        if s[REASON_AT] == BOTH_STUCK:
            totals[T_STUCK_DRAWS] += 1
        else:
            totals[T_CAP_DRAWS] += 1
    elif won == first:
        totals[T_FIRST_MOVER_WINS] += 1


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
