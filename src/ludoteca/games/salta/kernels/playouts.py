"""Salta's own random playout.

The play phase on a bordered picture of the board (`_board_actions`), faster than the rules'
move generator and checked against it by the seeded-identity tests.
"""

import numpy as np
from numba import njit

from ludoteca.core.playout_kernels import count_decision
from ludoteca.core.playouts import NO_WINNER, T_PLIES, T_WINS
from ludoteca.games.salta.kernels.layout import *  # noqa: F403 (the layout's names)
from ludoteca.games.salta.kernels.rules import (
    _compare_scores,
    _finish,
    _leaves_opponent_a_move,
    _move_piece,
    _scoring_phase_actions,
    apply_action_inplace,
    goal_distance,
)

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
