"""How far ahead each side of a Salta position is in the race to its goal, for the AI's searches.

Salta is a race without captures: every way the game ends is decided by how close each army is
to its goal squares. In the play phase the measure is the difference of the two goal distances
(the sum over a side's 15 pieces of the Chebyshev distance to the piece's own goal square, the
simplified score), and the side to move is half a step ahead of a race it has not yet run.

In the played scoring phase only the moves count: those made in the phase plus those still
needed. The goal distance is a poor count of the second: the goal squares are a car park exactly
as large as the army, a piece on another's goal square must leave before the owner can enter,
and a deep goal square can only be reached through the ranks in front of it, so a side that
lowers its goal distance greedily jams with a few pieces out of place. So the moves still needed
are counted by a plan that always finishes (`plan_moves`): fill the goal squares from the far
rank toward home, bringing each owner along a shortest path and first stepping the pieces in its
way aside. The plan is a function of the position alone, so its first move leaves a plan one move
shorter: a search that lowers the count finishes the race in at most that many moves.

The lead is squashed with ``tanh(lead / scale)``. In the play phase the scale grows with the
square root of what is left to play (the two distances, or the plies before simplified scoring
ends the game), so the same lead counts for more near the end than at the start. In the scoring
phase the scale is fixed (`SCORING_SCALE`): one that shrank with the moves still needed would let
a side far behind gain by lengthening its own plan. Green's value is returned first and Red's is
its negation; a finished game is worth its returns.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from numba import njit

from ludoteca.core.search import GOING_ON
from ludoteca.games.salta import kernels as k
from ludoteca.games.salta.state import SaltaState

TEMPO = 0.5  # the side to move is half a step ahead
SPREAD = 0.5  # how fast the scale grows with the square root of what is left
SCORING_SCALE = 8.0  # moves of lead worth tanh(1) in the played scoring phase
PLAN_LIMIT = 2000  # plan moves before giving up (never reached in tests; a safeguard)
UNREACHED = -1


@njit(cache=True)
def _mark_settled(
    board: npt.NDArray[np.int64],
    owner: npt.NDArray[np.int64],
    side: int,
    settled: npt.NDArray[np.bool_],
) -> None:
    """Mark the goal squares whose owner is home for good.

    A square is settled when its owner stands on it and every goal square just beyond it (one
    step further from home) is settled too: nothing still has to pass through it.
    """
    settled[:] = False
    for i in range(k.WIDTH):
        rank = k.WIDTH - 1 - i if side == k.GREEN else i  # the far rank first
        for file in range(k.WIDTH):
            square = rank * k.WIDTH + file
            if owner[square] < 0 or board[square] != owner[square] + 1:
                continue
            settled[square] = True
            for direction in k.FORWARD_DIRECTIONS[side]:
                beyond = k.DIAGONAL_NEIGHBOUR[square, direction]
                if beyond >= 0 and owner[beyond] >= 0 and not settled[beyond]:
                    settled[square] = False


@njit(cache=True)
def _distances_to(
    goal: int,
    board: npt.NDArray[np.int64],
    settled: npt.NDArray[np.bool_],
    queue: npt.NDArray[np.int64],
    dist: npt.NDArray[np.int64],
    crowd: npt.NDArray[np.int64],
) -> int:
    """Steps from every square to ``goal`` around the settled squares, into ``dist``.

    ``crowd`` gets, for each square, the fewest occupied squares on a shortest path from it
    (its own square included). Returns how many squares were reached (``queue[:n]`` in order).
    """
    dist[:] = UNREACHED
    dist[goal] = 0
    queue[0] = goal
    head, tail = 0, 1
    while head < tail:
        square = queue[head]
        head += 1
        for direction in range(4):
            near = k.DIAGONAL_NEIGHBOUR[square, direction]
            if near >= 0 and dist[near] == UNREACHED and not settled[near]:
                dist[near] = dist[square] + 1
                queue[tail] = near
                tail += 1
    for i in range(tail):  # in order of distance, so each square's next steps are done
        square = queue[i]
        fewest = 0
        if square != goal:
            fewest = k.NUM_SQUARES
            for direction in range(4):
                near = k.DIAGONAL_NEIGHBOUR[square, direction]
                if near >= 0 and dist[near] == dist[square] - 1:
                    fewest = min(fewest, crowd[near])
        crowd[square] = fewest + (1 if board[square] != 0 else 0)
    return tail


@njit(cache=True)
def _next_step(square: int, dist: npt.NDArray[np.int64], crowd: npt.NDArray[np.int64]) -> int:
    """The neighbour one step nearer the goal through the fewest pieces (first direction wins)."""
    best = -1
    for direction in range(4):
        near = k.DIAGONAL_NEIGHBOUR[square, direction]
        closer = near >= 0 and dist[near] == dist[square] - 1
        if closer and (best < 0 or crowd[near] < crowd[best]):
            best = near
    return best


@njit(cache=True)
def _step_aside(
    blocker: int,
    goal: int,
    board: npt.NDArray[np.int64],
    settled: npt.NDArray[np.bool_],
    on_path: npt.NDArray[np.bool_],
    queue: npt.NDArray[np.int64],
    parent: npt.NDArray[np.int64],
    depth: npt.NDArray[np.int64],
) -> tuple[int, int]:
    """One move that makes room for the piece on ``blocker`` to leave the path.

    Finds the nearest empty square off the path (other pieces may stand between; ties go to
    the square nearest the blocker's own ``goal``) and moves the piece on that route nearest to
    it one square along. Returns ``(origin, destination)``, or ``(-1, -1)`` if there is none.
    """
    parent[:] = UNREACHED
    parent[blocker] = blocker
    depth[blocker] = 0
    queue[0] = blocker
    head, tail = 0, 1
    found, best = -1, k.NUM_SQUARES
    while head < tail:
        square = queue[head]
        head += 1
        if found >= 0 and depth[square] >= depth[found]:
            break
        for direction in range(4):
            near = k.DIAGONAL_NEIGHBOUR[square, direction]
            if near < 0 or parent[near] != UNREACHED or settled[near]:
                continue
            parent[near] = square
            depth[near] = depth[square] + 1
            if board[near] == 0 and not on_path[near]:
                gap = max(
                    abs(near % k.WIDTH - goal % k.WIDTH), abs(near // k.WIDTH - goal // k.WIDTH)
                )
                if gap < best:
                    found, best = near, gap
            else:
                queue[tail] = near
                tail += 1
    if found < 0:
        return -1, -1
    destination, origin = found, parent[found]
    while board[origin] == 0:  # empty squares of the path on the route: the piece before them
        destination, origin = origin, parent[origin]
    return origin, destination


@njit(cache=True)
def plan_moves(s: npt.NDArray[np.int32], side: int, goals: npt.NDArray[np.int64]) -> int:
    """Moves a simple plan takes to bring every piece of ``side`` home, the other side ignored.

    The plan fills the goal squares from the far rank toward home, files in order: the owner of
    the first square not yet filled goes along a shortest path around the settled squares
    (`_mark_settled`), through as few pieces as it can; while pieces stand on that path, the one
    nearest the goal square is stepped aside (`_step_aside`); then the owner walks home. Every
    choice depends on the position only. Falls back to the goal distance after `PLAN_LIMIT`.
    """
    board = np.zeros(k.NUM_SQUARES, np.int64)  # the side's layer: piece number or 0
    where = np.empty(k.PIECES_PER_SIDE, np.int64)
    owner = np.full(k.NUM_SQUARES, -1, np.int64)  # piece index whose goal the square is
    for piece in range(k.PIECES_PER_SIDE):
        square = s[k.PIECE_SQUARE_AT + side * k.PIECES_PER_SIDE + piece]
        where[piece] = square
        board[square] = piece + 1
        owner[goals[side, piece]] = piece
    order = np.empty(k.PIECES_PER_SIDE, np.int64)  # goal squares, the far rank first
    n = 0
    for i in range(k.WIDTH):
        rank = k.WIDTH - 1 - i if side == k.GREEN else i
        for file in range(k.WIDTH):
            if owner[rank * k.WIDTH + file] >= 0:
                order[n] = rank * k.WIDTH + file
                n += 1
    settled = np.zeros(k.NUM_SQUARES, np.bool_)
    on_path = np.zeros(k.NUM_SQUARES, np.bool_)
    dist = np.empty(k.NUM_SQUARES, np.int64)
    crowd = np.empty(k.NUM_SQUARES, np.int64)
    queue = np.empty(k.NUM_SQUARES, np.int64)
    parent = np.empty(k.NUM_SQUARES, np.int64)
    depth = np.empty(k.NUM_SQUARES, np.int64)
    path = np.empty(k.NUM_SQUARES, np.int64)
    moves = 0
    stale = True  # whether a piece reached its goal square since `settled` was marked
    while moves < PLAN_LIMIT:
        goal = -1
        for i in range(k.PIECES_PER_SIDE):
            if board[order[i]] != owner[order[i]] + 1:
                goal = order[i]
                break
        if goal < 0:
            return moves
        piece = owner[goal]
        if stale:
            _mark_settled(board, owner, side, settled)
            stale = False
        _distances_to(goal, board, settled, queue, dist, crowd)
        if dist[where[piece]] == UNREACHED:
            break
        path[0] = where[piece]
        length = 0
        while path[length] != goal:
            path[length + 1] = _next_step(path[length], dist, crowd)
            length += 1
        blocker = -1
        for i in range(length, 0, -1):
            if board[path[i]] != 0:
                blocker = path[i]
                break
        if blocker < 0:  # a clear path: walk it
            board[where[piece]] = 0
            board[goal] = piece + 1
            where[piece] = goal
            moves += length
            stale = True
            continue
        for i in range(length + 1):
            on_path[path[i]] = True
        origin, destination = _step_aside(
            blocker, goals[side, board[blocker] - 1], board, settled, on_path, queue, parent, depth
        )
        for i in range(length + 1):
            on_path[path[i]] = False
        if origin < 0:
            break
        mover = board[origin] - 1
        board[origin] = 0
        board[destination] = mover + 1
        where[mover] = destination
        moves += 1
        stale = stale or destination == goals[side, mover]
    return int(k.goal_distance(s, side, goals))


@njit(cache=True)
def green_value(
    s: npt.NDArray[np.int32], params: npt.NDArray[np.int64], goals: npt.NDArray[np.int64]
) -> float:
    """Green's estimated return in [-1, 1] (Red's is its negation)."""
    status = s[k.STATUS_AT]
    if status != k.ONGOING:
        return 1.0 if status == k.GREEN_WINS else (-1.0 if status == k.RED_WINS else 0.0)
    if k.in_scoring_phase(s, params):
        # Only the moves count: made so far plus those the plan still needs. A side at the cap
        # already has its remaining distance added, and only passes.
        green = s[k.SCORING_MOVES_AT + k.GREEN]
        if not k.scoring_finished(s, k.GREEN, params, goals):
            green += plan_moves(s, k.GREEN, goals)
        red = s[k.SCORING_MOVES_AT + k.RED]
        if not k.scoring_finished(s, k.RED, params, goals):
            red += plan_moves(s, k.RED, goals)
        return math.tanh(float(red - green) / SCORING_SCALE)
    green = k.goal_distance(s, k.GREEN, goals)
    red = k.goal_distance(s, k.RED, goals)
    left = green + red
    lead = float(red - green) + (TEMPO if k.side_to_move(s) == k.GREEN else -TEMPO)
    start = params[k.P_SCORING_START]
    if params[k.P_SCORING_MODE] == k.SCORING_SIMPLIFIED and start >= 0:
        left = min(left, start - s[k.PLY_AT])  # the distances are compared then
    return math.tanh(lead / (1.0 + SPREAD * math.sqrt(max(left, 0))))


def evaluate(state: SaltaState) -> tuple[float, float]:
    """Estimated return of Green and of Red (each in [-1, 1], summing to 0) for a position."""
    game = state.game
    value = float(green_value(state.cells, game.params, game.goals))
    return value, -value


@njit(cache=True)
def search_leaf(
    s: npt.NDArray[np.int32],
    params: npt.NDArray[np.int64],
    goals: npt.NDArray[np.int64],
    action: int,
    max_plies: int,
    heuristic: bool,
) -> tuple[npt.NDArray[np.int32], int, npt.NDArray[np.float64]]:
    """The searches' leaf in one call (see `ludoteca.core.info.SearchLeaf`)."""
    child = k.apply_action(s, params, goals, action)
    end = k.random_rollout(child, params, goals, max_plies, GOING_ON)
    value = green_value(end, params, goals) if heuristic or end[k.STATUS_AT] != k.ONGOING else 0.0
    values = np.empty(2, np.float64)
    values[0] = value
    values[1] = -value
    return child, k.player_to_move(child), values
