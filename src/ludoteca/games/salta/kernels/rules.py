"""Salta's rules as compiled kernels over one small integer array.

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

from ludoteca.core.playout_kernels import (
    count_decision,
)
from ludoteca.core.playouts import (
    NO_WINNER,
    T_PLIES,
    T_WINS,
)

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


# -- the play phase -------------------------------------------------------------------------


@njit(cache=True)
def _can_jump(s, side, square, direction):
    """A forward jump over an adjacent opponent piece onto the empty square beyond."""
    over = DIAGONAL_NEIGHBOUR[square, direction]
    land = JUMP_LANDING[square, direction]
    return land >= 0 and s[LAYER_AT + (1 - side) * NUM_SQUARES + over] != 0 and _is_empty(s, land)


@njit(cache=True)
def _jumps(s, side, out):
    """Write every jump of ``side`` into ``out``; return how many."""
    n = 0
    for piece in range(PIECES_PER_SIDE):
        square = s[PIECE_SQUARE_AT + side * PIECES_PER_SIDE + piece]
        for direction in FORWARD_DIRECTIONS[side]:
            if _can_jump(s, side, square, direction):
                out[n] = encode_action(square, direction, 1)
                n += 1
    return n


@njit(cache=True)
def has_a_move(s, side):
    """Whether ``side`` has a jump or a step (the test of the no-block rule)."""
    for piece in range(PIECES_PER_SIDE):
        square = s[PIECE_SQUARE_AT + side * PIECES_PER_SIDE + piece]
        for direction in range(4):
            target = DIAGONAL_NEIGHBOUR[square, direction]
            if target >= 0 and _is_empty(s, target):
                return True
        for direction in FORWARD_DIRECTIONS[side]:
            if _can_jump(s, side, square, direction):
                return True
    return False


@njit(cache=True)
def _move_piece(s, side, origin, destination):
    layer = LAYER_AT + side * NUM_SQUARES
    piece = s[layer + origin]
    s[layer + origin] = 0
    s[layer + destination] = piece
    s[PIECE_SQUARE_AT + side * PIECES_PER_SIDE + piece - 1] = destination


@njit(cache=True)
def _leaves_opponent_a_move(s, side, action):
    """Whether the opponent still has a move after ``side`` plays ``action``."""
    origin, destination = ACTION_ORIGIN[action], ACTION_DESTINATION[action]
    _move_piece(s, side, origin, destination)
    result = has_a_move(s, 1 - side)
    _move_piece(s, side, destination, origin)
    return result


@njit(cache=True)
def _opponent_step_targets(s, opponent):
    """Count distinct empty squares the opponent can step to, up to two; also return the first.

    A move never takes away an opponent's step except by landing on its target square (pieces
    are never captured or pushed), so with two distinct targets no single move can block, and
    with one only the moves that land on it need the full test.
    """
    first = -1
    second = False
    for piece in range(PIECES_PER_SIDE):
        square = s[PIECE_SQUARE_AT + opponent * PIECES_PER_SIDE + piece]
        # Selects rather than branches on each square (see `_jumps_and_steps`).
        for direction in range(4):
            target = DIAGONAL_NEIGHBOUR[square, direction]
            on_board = target >= 0
            read = LAYER_AT + max(target, 0)  # square 0 stands in for an off-board neighbour
            empty = on_board and (s[read] | s[read + NUM_SQUARES]) == 0
            second = second or (empty and first >= 0 and target != first)
            first = target if (empty and first < 0) else first
        if second:
            return 2, first
    return (0 if first < 0 else 1), first


@njit(cache=True)
def _keep_non_blocking(s, side, candidates, n, out):
    """Copy the candidates that leave the opponent a move into ``out``; return how many."""
    n_targets, target = _opponent_step_targets(s, 1 - side)
    kept = 0
    for i in range(n):
        action = candidates[i]
        safe = n_targets == 2 or (n_targets == 1 and ACTION_DESTINATION[action] != target)
        if safe or _leaves_opponent_a_move(s, side, action):
            out[kept] = action
            kept += 1
    return kept


@njit(cache=True)
def _jumps_and_steps(s, side, jumps, steps):
    """Write the jumps of ``side`` into ``jumps`` and its steps into ``steps``, in one pass.

    Both lists run piece by piece, directions in order: the jumps are those of `_jumps`, in
    its order (the random playouts pick by index, so the order is part of their results). A
    square next to a piece is read once: empty, it is a step; holding an opponent piece in a
    forward direction, it may be jumped. A step is written unconditionally and kept by advancing
    the count, which spares the processor a hard-to-predict branch per square (an off-board
    neighbour reads square 0 and is refused by ``on_board``); the jump test runs only next to
    an opponent piece. Both arrays need room for ``MAX_LEGAL`` actions.
    """
    own = LAYER_AT + side * NUM_SQUARES
    opponent = LAYER_AT + (1 - side) * NUM_SQUARES
    n_jumps = 0
    n_steps = 0
    for piece in range(PIECES_PER_SIDE):
        square = s[PIECE_SQUARE_AT + side * PIECES_PER_SIDE + piece]
        code = (square // 2) * 8
        for direction in range(4):
            target = DIAGONAL_NEIGHBOUR[square, direction]
            on_board = target >= 0
            target = max(target, 0)
            rival = s[opponent + target]
            steps[n_steps] = code + direction * 2
            n_steps += on_board and (s[own + target] | rival) == 0
            if on_board and rival != 0 and (direction >> 1) == side:
                land = JUMP_LANDING[square, direction]
                if land >= 0 and _is_empty(s, land):
                    jumps[n_jumps] = code + direction * 2 + 1
                    n_jumps += 1
    return n_jumps, n_steps


@njit(cache=True)
def _play_phase_actions(s, out):
    """Compulsory jumps and the no-block rule with its fallback (see docs/rules/salta.md).

    ``out`` needs room for ``2 * MAX_LEGAL`` actions; the second half is scratch space.
    """
    side = side_to_move(s)
    steps = out[MAX_LEGAL:]  # scratch space: callers pass room for 2 * MAX_LEGAL actions
    n_jumps, n_steps = _jumps_and_steps(s, side, out, steps)
    if n_jumps > 0:
        # A jump never blocks: the piece jumped over can always step back to where the jumper
        # stood. So the jumps are the legal set whenever there are any.
        return n_jumps
    n = _keep_non_blocking(s, side, steps, n_steps, out)
    if n > 0:
        return n
    # Every step blocks: the rule cannot be met, so the ordinary rules apply.
    if n_steps > 0:
        out[:n_steps] = steps[:n_steps]
        return n_steps
    out[0] = PASS
    return 1


# -- the play phase inside a random playout ------------------------------------------------
#
# A playout keeps a second picture of the board beside the position: one cell per square of a
# 14 x 14 grid (the board with a border two squares wide), `BOARD_GREEN` or `BOARD_RED` where a
# piece stands, 0 where none does, `BOARD_OFF` on the border. A neighbour in each direction is
# then a fixed offset (`BOARD_STEP`), a square two steps away too, and an off-board square reads
# as occupied, so generating the moves needs no table of neighbours and no on-board test. The
# picture serves the play phase only (in the played scoring phase both sides' pieces may share
# a square); the position itself stays complete, and the rare exact no-block test reads it.
# Two cells after the grid count each side's pieces standing on their goal squares, so that the
# end of the game is known without scanning the pieces after every move.

BOARD_WIDTH = WIDTH + 4
HOME_AT = BOARD_WIDTH * BOARD_WIDTH  # + side: how many of its pieces are on their goal squares
BOARD_SIZE = HOME_AT + 2
BOARD_GREEN, BOARD_RED, BOARD_OFF = 1, 2, 4  # a piece of side s is s + 1
BOARD_CELL = np.array(  # the board cell of each square
    [(square // WIDTH + 2) * BOARD_WIDTH + square % WIDTH + 2 for square in range(NUM_SQUARES)],
    dtype=np.int64,
)
EMPTY_BOARD = np.full(BOARD_SIZE, BOARD_OFF, dtype=np.int32)
EMPTY_BOARD[BOARD_CELL] = 0
EMPTY_BOARD[HOME_AT:] = 0
BOARD_STEP = (BOARD_WIDTH + 1, BOARD_WIDTH - 1, 1 - BOARD_WIDTH, -1 - BOARD_WIDTH)  # NE NW SE SW


@njit(cache=True)
def _new_board(s, goals):
    """The board picture of a play-phase position, with the counts of pieces home."""
    board = EMPTY_BOARD.copy()
    for side in range(2):
        for piece in range(PIECES_PER_SIDE):
            square = s[PIECE_SQUARE_AT + side * PIECES_PER_SIDE + piece]
            board[BOARD_CELL[square]] = side + 1
            board[HOME_AT + side] += square == goals[side, piece]
    return board


# `_board_actions` counts and indexes in unsigned integers: numba gives every signed index a test
# for a negative value (Python's counting from the end), a few instructions per access in its
# innermost loop. A piece's neighbourhood is counted from its ``base``, the cell two squares
# south-west of it (on the board or its border), so that no offset is negative.
U_LEGAL = np.uint64(MAX_LEGAL)
U_BASE = 2 * BOARD_WIDTH + 2  # a piece's cell less its base
U_NE, U_NW, U_SE, U_SW = (np.uint64(U_BASE + step) for step in BOARD_STEP)
U_NE2, U_NW2, U_SE2, U_SW2 = (np.uint64(U_BASE + 2 * step) for step in BOARD_STEP)


@njit(cache=True)
def _step(board, base, step, action, out, n_steps):
    """A backward direction in `_board_actions`: the step ``action``, kept if its square is free."""
    out[n_steps] = action
    return n_steps + np.uint64(board[base + step] == 0)


@njit(cache=True)
def _step_or_jump(board, base, step, step2, rival, action, out, n_steps, n_jumps):
    """A forward direction in `_board_actions`: its step, and its jump after it in ``out``."""
    near = board[base + step]
    out[n_steps] = action
    out[U_LEGAL + n_jumps] = action + 1
    jump = (near == rival) & (board[base + step2] == 0)
    return n_steps + np.uint64(near == 0), n_jumps + np.uint64(jump)


@njit(cache=True)
def _board_step_targets(s, board, opponent):
    """`_opponent_step_targets` on the board picture (the target as a board cell)."""
    first = -1
    second = False
    for piece in range(PIECES_PER_SIDE):
        cell = BOARD_CELL[s[PIECE_SQUARE_AT + opponent * PIECES_PER_SIDE + piece]]
        for direction in range(4):
            target = cell + BOARD_STEP[direction]
            empty = board[target] == 0
            second = second | (empty & (first >= 0) & (target != first))
            first = target if (empty & (first < 0)) else first
        if second:
            return 2, first
    return (0 if first < 0 else 1), first


@njit(cache=True)
def _board_actions(s, board, out):
    """`_play_phase_actions` read from the board picture: the same actions in the same order.

    Steps go straight into ``out`` and jumps into its second half, every candidate written and
    kept by advancing its count (no branch on the squares' contents). ``out`` needs room for
    ``2 * MAX_LEGAL`` actions.
    """
    side = side_to_move(s)
    u_steps = np.uint64(0)
    u_jumps = np.uint64(0)
    # Each side's loop knows its forward directions (the only ones that may jump), so the
    # jump test is made where it can succeed only.
    if side == GREEN:
        for piece in range(PIECES_PER_SIDE):
            square = s[PIECE_SQUARE_AT + piece]
            base = np.uint64(BOARD_CELL[square] - U_BASE)
            code = (square >> 1) << 3  # encode_action(square, NE, 0)
            u_steps, u_jumps = _step_or_jump(
                board, base, U_NE, U_NE2, BOARD_RED, code, out, u_steps, u_jumps
            )
            u_steps, u_jumps = _step_or_jump(
                board, base, U_NW, U_NW2, BOARD_RED, code + 2, out, u_steps, u_jumps
            )
            u_steps = _step(board, base, U_SE, code + 4, out, u_steps)
            u_steps = _step(board, base, U_SW, code + 6, out, u_steps)
    else:
        for piece in range(PIECES_PER_SIDE):
            square = s[PIECE_SQUARE_AT + PIECES_PER_SIDE + piece]
            base = np.uint64(BOARD_CELL[square] - U_BASE)
            code = (square >> 1) << 3
            u_steps = _step(board, base, U_NE, code, out, u_steps)
            u_steps = _step(board, base, U_NW, code + 2, out, u_steps)
            u_steps, u_jumps = _step_or_jump(
                board, base, U_SE, U_SE2, BOARD_GREEN, code + 4, out, u_steps, u_jumps
            )
            u_steps, u_jumps = _step_or_jump(
                board, base, U_SW, U_SW2, BOARD_GREEN, code + 6, out, u_steps, u_jumps
            )
    n_steps = np.int64(u_steps)
    n_jumps = np.int64(u_jumps)
    if n_jumps > 0:  # a jump never blocks (see `_play_phase_actions`)
        for i in range(n_jumps):
            out[i] = out[MAX_LEGAL + i]
        return n_jumps
    n_targets, target = _board_step_targets(s, board, 1 - side)
    if n_targets == 2:  # no single step can block
        return n_steps
    kept = 0  # filtered in place: with none kept, the steps are untouched
    for i in range(n_steps):
        action = out[i]
        safe = n_targets == 1 and BOARD_CELL[ACTION_DESTINATION[action]] != target
        if safe or _leaves_opponent_a_move(s, side, action):
            out[kept] = action
            kept += 1
    if kept > 0:
        return kept
    if n_steps > 0:  # every step blocks: the ordinary rules apply
        return n_steps
    out[0] = PASS
    return 1


@njit(cache=True)
def _board_apply(s, board, action, params, goals):
    """`apply_action_inplace` in the play phase, keeping the board picture up to date.

    Then `settle`'s tests in its order, with the goals read from the counts of pieces home. Its
    first case, the played scoring phase under way, cannot arise: before the move the scoring
    phase had not begun, so the ply count is now at most the one where it begins.
    """
    side = side_to_move(s)
    if action != PASS:
        origin, destination = ACTION_ORIGIN[action], ACTION_DESTINATION[action]
        piece = s[LAYER_AT + side * NUM_SQUARES + origin] - 1
        _move_piece(s, side, origin, destination)
        board[BOARD_CELL[origin]] = 0
        board[BOARD_CELL[destination]] = side + 1
        goal = goals[side, piece]
        board[HOME_AT + side] += (destination == goal) - (origin == goal)
    s[PLY_AT] += 1
    _finish(s, ONGOING, NO_REASON)
    green_home = board[HOME_AT + GREEN] == PIECES_PER_SIDE
    if board[HOME_AT + RED] == PIECES_PER_SIDE:
        _finish(s, DRAW if green_home else RED_WINS, BOTH_GOALS if green_home else RED_GOAL)
    elif green_home:
        if side_to_move(s) == GREEN:  # Red has had its extra move
            _finish(s, GREEN_WINS, GREEN_GOAL)
    else:
        start = params[P_SCORING_START]
        if start >= 0 and s[PLY_AT] >= start:
            if params[P_SCORING_MODE] == SCORING_SIMPLIFIED:
                _compare_scores(
                    s,
                    goal_distance(s, GREEN, goals),
                    goal_distance(s, RED, goals),
                    SCORED_SIMPLIFIED,
                )
        elif s[PLY_AT] >= params[P_MAX_PLIES]:
            _finish(s, DRAW, PLY_CAP)


# -- why a move is refused -----------------------------------------------------------------

# illegal_reason codes: which rule refuses a well-formed move (state.py words each for people)
LEGAL_MOVE = 0
WHY_PASS = 1  # a pass while the side has a move
WHY_NO_PIECE = 2  # no piece of the mover's on the origin
WHY_NOT_DIAGONAL = 3  # a step is one square diagonally, a jump two
WHY_NO_JUMPS_WHEN_SCORING = 4
WHY_BACKWARD_JUMP = 5
WHY_NOTHING_TO_JUMP = 6  # no opponent piece on the square jumped over
WHY_OCCUPIED = 7
WHY_SCORING_FINISHED = 8  # a side that has finished the played scoring phase only passes
WHY_JUMP_COMPULSORY = 9
WHY_NO_BLOCK = 10  # the step would leave the opponent without a move


@njit(cache=True)
def _direction(origin, destination):
    """The diagonal direction from ``origin`` towards ``destination`` (-1 if not diagonal)."""
    df = destination % WIDTH - origin % WIDTH
    dr = destination // WIDTH - origin // WIDTH
    if df == 0 or dr == 0 or abs(df) != abs(dr):
        return -1
    if dr > 0:
        return NE if df > 0 else NW
    return SE if df > 0 else SW


@njit(cache=True)
def illegal_reason(s, params, goals, origin, destination, jump):
    """Which rule refuses the move ``origin`` to ``destination`` (a jump if ``jump``).

    Uses the tests that build the legal moves; ``origin < 0`` asks about a pass. Returns a
    ``WHY_*`` code, or `LEGAL_MOVE` if the move is legal.
    """
    t = s.copy()  # the no-block test moves pieces
    out = np.empty(2 * MAX_LEGAL, dtype=np.int64)
    n = legal_actions_into(t, params, goals, out)
    side = side_to_move(t)
    if origin < 0:
        return LEGAL_MOVE if n == 1 and out[0] == PASS else WHY_PASS
    direction = _direction(origin, destination)
    if direction >= 0:
        action = encode_action(origin, direction, 1 if jump else 0)
        if ACTION_ORIGIN[action] == origin and ACTION_DESTINATION[action] == destination:
            for i in range(n):
                if out[i] == action:
                    return LEGAL_MOVE
    if t[LAYER_AT + side * NUM_SQUARES + origin] == 0:
        return WHY_NO_PIECE
    if direction < 0 or abs(destination % WIDTH - origin % WIDTH) != (2 if jump else 1):
        return WHY_NOT_DIAGONAL
    scoring = in_scoring_phase(t, params)
    if jump:
        if scoring:
            return WHY_NO_JUMPS_WHEN_SCORING
        if direction != FORWARD_DIRECTIONS[side, 0] and direction != FORWARD_DIRECTIONS[side, 1]:
            return WHY_BACKWARD_JUMP
        if t[LAYER_AT + (1 - side) * NUM_SQUARES + DIAGONAL_NEIGHBOUR[origin, direction]] == 0:
            return WHY_NOTHING_TO_JUMP
    if t[LAYER_AT + side * NUM_SQUARES + destination] != 0 or (
        not scoring and t[LAYER_AT + (1 - side) * NUM_SQUARES + destination] != 0
    ):
        return WHY_OCCUPIED
    if scoring:
        return WHY_SCORING_FINISHED
    if not jump and _jumps(t, side, out) > 0:
        return WHY_JUMP_COMPULSORY
    return WHY_NO_BLOCK


# -- the scoring phase ("played") -----------------------------------------------------------


@njit(cache=True)
def goal_distance(s, side, goals):
    """Sum over the side's pieces of the Chebyshev distance to each piece's goal square."""
    total = 0
    for piece in range(PIECES_PER_SIDE):
        square = s[PIECE_SQUARE_AT + side * PIECES_PER_SIDE + piece]
        goal = goals[side, piece]
        total += max(abs(square % WIDTH - goal % WIDTH), abs(square // WIDTH - goal // WIDTH))
    return total


@njit(cache=True)
def goal_complete(s, side, goals):
    """Whether every piece of ``side`` stands on its own goal square."""
    for piece in range(PIECES_PER_SIDE):
        if s[PIECE_SQUARE_AT + side * PIECES_PER_SIDE + piece] != goals[side, piece]:
            return False
    return True


@njit(cache=True)
def scoring_finished(s, side, params, goals):
    """A side is finished in the played scoring phase once home or at the move cap."""
    return goal_complete(s, side, goals) or s[SCORING_MOVES_AT + side] >= params[P_SCORING_CAP]


@njit(cache=True)
def _scoring_phase_actions(s, params, goals, out):
    """Steps onto squares free of the mover's own pieces; the opponent's are ignored."""
    side = side_to_move(s)
    if scoring_finished(s, side, params, goals):
        out[0] = PASS
        return 1
    layer = LAYER_AT + side * NUM_SQUARES
    n = 0
    for piece in range(PIECES_PER_SIDE):
        square = s[PIECE_SQUARE_AT + side * PIECES_PER_SIDE + piece]
        for direction in range(4):
            target = DIAGONAL_NEIGHBOUR[square, direction]
            if target >= 0 and s[layer + target] == 0:
                out[n] = encode_action(square, direction, 0)
                n += 1
    if n == 0:
        out[0] = PASS
        return 1
    return n


# -- the whole game -------------------------------------------------------------------------


@njit(cache=True)
def legal_actions_into(s, params, goals, out):
    """Write the legal actions of an unfinished position into ``out``; return how many.

    ``out`` needs room for ``2 * MAX_LEGAL`` actions (the second half is scratch space).
    """
    if in_scoring_phase(s, params):
        return _scoring_phase_actions(s, params, goals, out)
    return _play_phase_actions(s, out)


@njit(cache=True)
def _finish(s, status, reason):
    s[STATUS_AT] = status
    s[REASON_AT] = reason


@njit(cache=True)
def _compare_scores(s, green, red, reason):
    """Lower score wins; equal scores draw."""
    if green < red:
        _finish(s, GREEN_WINS, reason)
    elif red < green:
        _finish(s, RED_WINS, reason)
    else:
        _finish(s, DRAW, reason)


@njit(cache=True)
def _end_decided_race(s, done, goals):
    """End the played scoring phase once the side still racing cannot match the finished one.

    The racing side needs at least its goal distance in further moves (every step gains at most
    one square), so once its moves plus that distance exceed the finished side's count, no play
    can change the result: the finished side wins.
    """
    other = 1 - done
    least = s[SCORING_MOVES_AT + other] + goal_distance(s, other, goals)
    if s[SCORING_MOVES_AT + done] < least:
        _finish(s, GREEN_WINS if done == GREEN else RED_WINS, SCORING_DECIDED)


@njit(cache=True)
def settle(s, params, goals):
    """Set the status and reason of a position from its pieces, ply count and options."""
    _finish(s, ONGOING, NO_REASON)
    start = params[P_SCORING_START]
    if start >= 0 and s[PLY_AT] > start and params[P_SCORING_MODE] == SCORING_PLAYED:
        # The played scoring phase is under way: goals no longer end the game, counts do.
        green_done = scoring_finished(s, GREEN, params, goals)
        red_done = scoring_finished(s, RED, params, goals)
        if green_done and red_done:
            _compare_scores(s, s[SCORING_MOVES_AT], s[SCORING_MOVES_AT + 1], SCORED_PLAYED)
        elif green_done or red_done:
            _end_decided_race(s, GREEN if green_done else RED, goals)
        return
    green_home = goal_complete(s, GREEN, goals)
    red_home = goal_complete(s, RED, goals)
    if red_home:
        # Red can only complete its goal on its own move, which ends the game at once; with
        # Green's goal complete too, that move was Red's extra move.
        _finish(s, DRAW if green_home else RED_WINS, BOTH_GOALS if green_home else RED_GOAL)
    elif green_home:
        if side_to_move(s) == GREEN:  # Red has had its extra move
            _finish(s, GREEN_WINS, GREEN_GOAL)
    elif start >= 0 and s[PLY_AT] >= start:
        # The 120-move rule strikes. Played scoring starts a new phase; simplified ends here.
        if params[P_SCORING_MODE] == SCORING_SIMPLIFIED:
            _compare_scores(
                s, goal_distance(s, GREEN, goals), goal_distance(s, RED, goals), SCORED_SIMPLIFIED
            )
    elif s[PLY_AT] >= params[P_MAX_PLIES]:
        _finish(s, DRAW, PLY_CAP)


@njit(cache=True)
def apply_action_inplace(s, action, params, goals):
    """Play a legal ``action`` on ``s`` in place and settle the result."""
    side = side_to_move(s)
    if in_scoring_phase(s, params):
        # A finished side only passes, and its passes change nothing. Otherwise the move counts
        # (a pass too: an unfinished side passes only when it cannot step, and the cap ends it).
        if not scoring_finished(s, side, params, goals):
            s[SCORING_MOVES_AT + side] += 1
            if action != PASS:
                _move_piece(s, side, ACTION_ORIGIN[action], ACTION_DESTINATION[action])
            moves = s[SCORING_MOVES_AT + side]
            if moves >= params[P_SCORING_CAP] and not goal_complete(s, side, goals):
                # Engine safeguard: what is still to go is added to the count, once.
                s[SCORING_MOVES_AT + side] = moves + goal_distance(s, side, goals)
    elif action != PASS:
        _move_piece(s, side, ACTION_ORIGIN[action], ACTION_DESTINATION[action])
    s[PLY_AT] += 1
    settle(s, params, goals)


@njit(cache=True)
def random_playout_inplace(s, params, goals, totals, curve, max_plies):
    """Play uniformly random moves on ``s`` (numba's seeded generator).

    Stops when the game is over or after ``max_plies`` plies (`NO_PLY_LIMIT`: play to the
    end). Adds the plies, decisions, legal moves and turns (a turn is one decision) to ``totals``
    and the legal-move counts to ``curve`` (see `ludoteca.core.playouts`); returns the side of
    the first decision (`NO_WINNER` if none).
    """
    out = np.empty(2 * MAX_LEGAL, dtype=np.int64)
    plies = 0
    first = NO_WINNER
    board = _new_board(s, goals)  # the play phase's picture (see `_board_actions`)
    while s[STATUS_AT] == ONGOING and plies < max_plies:
        if plies == 0:
            first = side_to_move(s)
        if in_scoring_phase(s, params):
            n = _scoring_phase_actions(s, params, goals, out)
            count_decision(totals, curve, plies, n, True)
            apply_action_inplace(s, out[np.random.randint(n)], params, goals)
        else:
            n = _board_actions(s, board, out)
            count_decision(totals, curve, plies, n, True)
            _board_apply(s, board, out[np.random.randint(n)], params, goals)
        totals[T_PLIES] += 1
        plies += 1
    return first


NUM_TOTALS = T_WINS + 2  # the standard totals of ludoteca.core.playouts, two players


@njit(cache=True)
def winner(s):
    """The side that won a finished position, `NO_WINNER` for a draw."""
    status = s[STATUS_AT]
    if status == GREEN_WINS:
        return GREEN
    return RED if status == RED_WINS else NO_WINNER


# == Learning agents: observation planes, legal-action masks, batches of games ==================
#
# What a learning agent sees of a position: float32 planes over the 10x10 board, from the view
# of one player, written flat (plane, rank, file) into ``out`` (docs/rl.md lists the planes).
# Red's view is the board turned through 180° (square -> 99 - square), so each side sees its
# own pieces start at the bottom and march up; Red's start and goal squares are Green's turned
# the same way, so the two views of a mirrored position agree.

OBS_MY_PIECES = 0  # + piece index 0..14 (Stars 1-5, Moons 1-5, Suns 1-5): 1 where it stands
OBS_THEIR_PIECES = 15  # the opponent's, likewise
OBS_MY_HOME = 30  # 1 where one of my pieces stands on its own goal square
OBS_THEIR_HOME = 31
OBS_MY_TURN = 32  # all 1 when the observer is to move
OBS_MOVES_FIRST = 33  # all 1 when the observer is Green (against whom Red has the extra move)
OBS_MOVE_RULE = 34  # plies played / plies before the 120-move rule, at most 1 (0 without it)
OBS_SCORING = 35  # all 1 while the played scoring phase is under way
OBS_MY_SCORING_MOVES = 36  # my moves in the played scoring phase / scoring_cap
OBS_THEIR_SCORING_MOVES = 37
OBS_PLY_CAP = 38  # plies played / max_plies (the engine safeguard), at most 1
NUM_OBS_PLANES = 39


@njit(cache=True)
def _fill_plane(out, plane, value):
    out[plane * NUM_SQUARES : (plane + 1) * NUM_SQUARES] = value


@njit(cache=True)
def observation(s, params, goals, player, out):
    """Write the planes of ``s`` as ``player`` sees them into the flat float32 ``out``.

    Row 0 of a plane is the observer's first rank, column 0 its left-hand file.
    """
    out[:] = 0.0
    for side in range(2):
        mine = side == player
        for piece in range(PIECES_PER_SIDE):
            square = s[PIECE_SQUARE_AT + side * PIECES_PER_SIDE + piece]
            seen = square if player == GREEN else NUM_SQUARES - 1 - square
            plane = (OBS_MY_PIECES if mine else OBS_THEIR_PIECES) + piece
            out[plane * NUM_SQUARES + seen] = 1.0
            if square == goals[side, piece]:
                out[(OBS_MY_HOME if mine else OBS_THEIR_HOME) * NUM_SQUARES + seen] = 1.0
    if s[STATUS_AT] == ONGOING and side_to_move(s) == player:
        _fill_plane(out, OBS_MY_TURN, 1.0)
    if player == GREEN:
        _fill_plane(out, OBS_MOVES_FIRST, 1.0)
    start = params[P_SCORING_START]
    if start > 0:
        _fill_plane(out, OBS_MOVE_RULE, min(1.0, s[PLY_AT] / start))
    if in_scoring_phase(s, params) and params[P_SCORING_MODE] == SCORING_PLAYED:
        cap = params[P_SCORING_CAP]
        _fill_plane(out, OBS_SCORING, 1.0)
        _fill_plane(out, OBS_MY_SCORING_MOVES, min(1.0, s[SCORING_MOVES_AT + player] / cap))
        _fill_plane(out, OBS_THEIR_SCORING_MOVES, min(1.0, s[SCORING_MOVES_AT + 1 - player] / cap))
    _fill_plane(out, OBS_PLY_CAP, min(1.0, s[PLY_AT] / params[P_MAX_PLIES]))


# -- Named accessors --------------------------------------------------------------------------
# The layout read and written by name: code outside the kernels (position text, the state, the
# view, the start position) calls these instead of doing arithmetic on the ``*_AT`` offsets. A
# region comes back as a view of ``s`` (read-only when ``s`` is).


@njit(cache=True)
def layer(s, side):
    """``side``'s layer of the board, one cell per square (0, or piece number + 1): a view."""
    start = LAYER_AT + side * NUM_SQUARES
    return s[start : start + NUM_SQUARES]


@njit(cache=True)
def piece_squares(s, side):
    """The squares of ``side``'s ``PIECES_PER_SIDE`` pieces, by piece number: a view."""
    start = PIECE_SQUARE_AT + side * PIECES_PER_SIDE
    return s[start : start + PIECES_PER_SIDE]


@njit(cache=True)
def piece_square(s, side, piece):
    """The square of ``side``'s piece number ``piece`` (0..14)."""
    return s[PIECE_SQUARE_AT + side * PIECES_PER_SIDE + piece]


@njit(cache=True)
def put_piece(s, side, piece, square):
    """Stand ``side``'s piece number ``piece`` on ``square`` (its layer cell and its square)."""
    s[LAYER_AT + side * NUM_SQUARES + square] = piece + 1
    s[PIECE_SQUARE_AT + side * PIECES_PER_SIDE + piece] = square


@njit(cache=True)
def scoring_moves_of(s, side):
    """Moves ``side`` has made in the played scoring phase (the cap penalty included)."""
    return s[SCORING_MOVES_AT + side]


@njit(cache=True)
def set_scoring_moves(s, side, count):
    """Set the moves ``side`` has made in the played scoring phase."""
    s[SCORING_MOVES_AT + side] = count


# -- the contract's primitives (docs/kernels.md): the rest is generated into kernels/__init__.py

CONTRACT = {"args": ("params", "goals"), "chance": False}
LEGAL_BUFFER = 2 * MAX_LEGAL  # the legal actions, then the no-block test's scratch space


@njit(cache=True, inline="always")
def new_scratch(params, goals):
    """Salta's kernels need no scratch buffers."""
    return 0


@njit(cache=True, inline="always")
def is_over(s):
    """Whether the game is over."""
    return s[STATUS_AT] != ONGOING


@njit(cache=True, inline="always")
def mover(s):
    """The side to move."""
    return side_to_move(s)


@njit(cache=True, inline="always")
def safeguard_ended(s):
    """Whether the ``max_plies`` safeguard ended the game."""
    return s[REASON_AT] == PLY_CAP


@njit(cache=True, inline="always")
def legal_into(s, params, goals, scratch, out):
    """`legal_actions_into` (the no-block test moves pieces and puts them back)."""
    return legal_actions_into(s, params, goals, out)


@njit(cache=True, inline="always")
def play(s, params, goals, action, scratch):
    """`apply_action_inplace`."""
    apply_action_inplace(s, action, params, goals)
