"""Salta's moves.

The play phase, why a move is refused, the played scoring phase and the end of the game, and
the contract's primitives; the position array and the action codec are in `layout`.
"""

import numpy as np
from numba import njit

from ludoteca.core.playouts import NO_WINNER
from ludoteca.games.salta.kernels.layout import *  # noqa: F403 (the layout's names)
from ludoteca.games.salta.kernels.layout import _is_empty

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
        for i in range(n_steps):  # a loop: a slice copy needs numba's allocator, no GPU has it
            out[i] = steps[i]
        return n_steps
    out[0] = PASS
    return 1


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
def winner(s):
    """The side that won a finished position, `NO_WINNER` for a draw."""
    status = s[STATUS_AT]
    if status == GREEN_WINS:
        return GREEN
    return RED if status == RED_WINS else NO_WINNER


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
