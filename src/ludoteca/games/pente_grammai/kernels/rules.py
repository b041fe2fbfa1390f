"""Pente Grammai's rules as compiled kernels over one small integer array.

The circuit (both sides move the same way round, point index in brackets)::

    W1(0) -> W2(1) -> W3(2) -> W4(3) -> W5(4) -> B1(5) -> B2(6) -> B3(7) -> B4(8) -> B5(9) -> W1

W3 (2) and B3 (7) are the two ends of the sacred line. White's goal is B3, Blue's is W3. A move
of ``d`` points from point ``p`` lands on ``(p + d) % 10``.

The position array (``int32``), see the ``*_AT`` offsets below:

- ``COUNT_AT + side * 10 + point``: how many counters of ``side`` stand on ``point`` (0 or 1 on
  an ordinary point; up to 5 of each side on a sacred point);
- ``HAND_AT + side``: counters still in hand (before entering, or sent back by a capture);
- ``STORE_AT + side``: counters stored off the circuit (only with ``sacred="storage"``);
- ``SIDE_AT``: the side whose turn it is (0 White, 1 Blue), or ``NO_SIDE`` before the first
  player is drawn;
- ``DIE_AT``: the die of this turn (1..6), or 0 while it is still to be rolled;
- plies played (every applied move: die rolls, the first-player draw and passes included), the
  status and the reason code.

A turn is two plies: a chance node (the die roll), then the mover's decision. Options arrive as
``params`` (see ``P_*``).

Action codec (the one place that knows it)::

    decision nodes:  action = origin point (0..9)   move the counter on that point by the die
                     ENTER = 10                     enter a counter from the hand
                     PASS = 11                      nothing is possible
    chance nodes:    action = die - 1 (0..5)        the roll d1..d6
                     action = FIRST_0 + side (6, 7) the first-player draw first-0 / first-1

The chance actions are the game's chance outcomes numbered once for the whole game, so a
chance move's index never depends on the position.
"""

import numpy as np
from numba import njit

from ludoteca.core.playout_kernels import count_decision
from ludoteca.core.playouts import (
    NO_WINNER,
    T_PLIES,
    T_WINS,
)
from ludoteca.core.vector_kernels import random_below

NUM_POINTS = 10
COUNTERS = 5
WHITE, BLUE = 0, 1
NO_SIDE = -1
W3, B3 = 2, 7

COUNT_AT = 0  # + side * 10 + point
HAND_AT = 20  # + side
STORE_AT = 22  # + side
SIDE_AT = 24
DIE_AT = 25
PLY_AT = 26
STATUS_AT = 27
REASON_AT = 28
CELLS_SIZE = 29

# STATUS values
ONGOING, WHITE_WINS, BLUE_WINS, DRAW = 0, 1, 2, 3
# REASON values
NO_REASON, ALL_HOME, PLY_CAP, DEADLOCK = 0, 1, 2, 3

# params: the options as integers
P_SACRED = 0  # SACRED_SCHAEDLER or SACRED_STORAGE
P_CAPTURE = 1  # 1 for the knock-off mode
P_MAX_PLIES = 2  # engine safeguard
P_FIRST = 3  # NO_SIDE (a chance node decides), WHITE or BLUE
P_START = 4  # START_HAND or START_SCHAEDLER
NUM_PARAMS = 5
SACRED_SCHAEDLER, SACRED_STORAGE = 0, 1
START_HAND, START_SCHAEDLER = 0, 1

# actions
ENTER = 10
PASS = 11
NUM_ACTIONS = 12
FIRST_0 = 6
NUM_CHANCE_OUTCOMES = 8
MAX_LEGAL = NUM_POINTS + 2

IS_SACRED = np.array([p in (W3, B3) for p in range(NUM_POINTS)], dtype=np.bool_)
GOAL = np.array([B3, W3], dtype=np.int64)  # per side: the far end of the sacred line
# ENTRY[side, die - 1]: 1..5 enter on the mover's own point d, a 6 on the opponent's point 1.
ENTRY = np.array([[0, 1, 2, 3, 4, 5], [5, 6, 7, 8, 9, 0]], dtype=np.int64)
# LANDING[point, die - 1]: where a counter on ``point`` lands with that die.
LANDING = np.array(
    [[(point + die) % NUM_POINTS for die in range(1, 7)] for point in range(NUM_POINTS)],
    dtype=np.int64,
)


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


# -- random playouts --------------------------------------------------------------------------

NUM_TOTALS = T_WINS + 2  # the standard totals of ludoteca.core.playouts, two players


@njit(cache=True)
def _roll(s, die, params):
    """Roll ``die`` in an unfinished position: what `apply_action_inplace` does, done quicker.

    A roll changes only the die and the ply count, so of `settle`'s tests only the ply cap can
    strike: the counters are as they were, and neither a goal nor a deadlock had ended the game.
    """
    s[DIE_AT] = die
    s[PLY_AT] += 1
    if s[PLY_AT] >= params[P_MAX_PLIES]:
        s[STATUS_AT] = DRAW
        s[REASON_AT] = PLY_CAP


# The points as bits (bit ``p`` for point ``p``), for the decisions inside a random playout.
ALL_POINTS = (1 << NUM_POINTS) - 1
SACRED_POINTS = (1 << W3) | (1 << B3)


@njit(cache=True)
def _occupied(s, side):
    """The points where ``side`` has counters, as bits."""
    mask = 0
    for point in range(NUM_POINTS):
        mask |= (s[COUNT_AT + side * NUM_POINTS + point] != 0) << point
    return mask


@njit(cache=True)
def _free_points(own, opponent, schaedler, capture):
    """The points where a side whose counters stand on ``own`` may land (`can_take`), as bits."""
    ordinary = ~own & (~opponent | -capture)  # a lone opponent counter: only with capture
    sacred = ALL_POINTS if schaedler else ~(own | opponent)
    return ((ordinary & ~SACRED_POINTS) | (sacred & SACRED_POINTS)) & ALL_POINTS


@njit(cache=True)
def _movable(own, free, die):
    """The points of ``own`` whose counter can move ``die`` points: ``free`` at point + die."""
    return own & ((free >> die) | (free << (NUM_POINTS - die)))


@njit(cache=True)
def _bits_can_ever_move(s, side, capture):
    """`_can_ever_move` on bit masks, with ``sacred="storage"`` (the only case that asks)."""
    own = _occupied(s, side)
    free = _free_points(own, _occupied(s, 1 - side), False, capture)
    entry = s[HAND_AT + side] > 0
    for die in range(1, 7):
        if (entry and (free >> ENTRY[side, die - 1]) & 1) or _movable(own, free, die) != 0:
            return True
    return False


@njit(cache=True)
def _bits_deadlocked(s, capture):
    """`is_deadlocked` on bit masks, with ``sacred="storage"``."""
    return not _bits_can_ever_move(s, WHITE, capture) and not _bits_can_ever_move(s, BLUE, capture)


@njit(cache=True)
def _decision_into(s, schaedler, capture, out):
    """`decision_actions_into` computed on bit masks, without a branch per point.

    The points where the mover may land (`can_take`) are one mask, turned by the die to
    the points it may leave from, so each counter's move costs no data-dependent branch; the
    origins come out ascending, as `_moves` lists them. ``schaedler`` and ``capture`` are the
    options (`P_SACRED` is `SACRED_SCHAEDLER`, `P_CAPTURE` is nonzero).
    """
    side = s[SIDE_AT]
    die = s[DIE_AT]
    own = _occupied(s, side)
    free = _free_points(own, _occupied(s, 1 - side), schaedler, capture)
    if s[HAND_AT + side] > 0 and (free >> ENTRY[side, die - 1]) & 1:
        out[0] = ENTER
        return 1
    movable = _movable(own, free, die)
    n = 0
    for point in range(NUM_POINTS):
        out[n] = point
        n += (movable >> point) & 1
    if n == 0:
        out[0] = PASS
        return 1
    return n


@njit(cache=True)
def _decide(s, action, params, schaedler, capture):
    """`apply_action_inplace` of the mover's ``action``, with `settle` done in place.

    The same tests in the same order, the options read once: ``schaedler`` says where a side's
    home count is (its goal point, else its store) and that no deadlock can arise; the deadlock
    test runs on bit masks (`_bits_deadlocked`).
    """
    _move(s, s[SIDE_AT], s[DIE_AT], action, params)
    s[PLY_AT] += 1
    if schaedler:
        white_home = s[COUNT_AT + GOAL[WHITE]]
        blue_home = s[COUNT_AT + NUM_POINTS + GOAL[BLUE]]
    else:
        white_home = s[STORE_AT + WHITE]
        blue_home = s[STORE_AT + BLUE]
    status, reason = ONGOING, NO_REASON
    if white_home == COUNTERS:
        status, reason = WHITE_WINS, ALL_HOME
    elif blue_home == COUNTERS:
        status, reason = BLUE_WINS, ALL_HOME
    elif s[PLY_AT] >= params[P_MAX_PLIES]:
        status, reason = DRAW, PLY_CAP
    elif not schaedler and _bits_deadlocked(s, capture):
        status, reason = DRAW, DEADLOCK
    s[STATUS_AT] = status
    s[REASON_AT] = reason


@njit(cache=True)
def random_playout_inplace(s, params, totals, curve, max_plies):
    """Play ``s``: rolls with their probabilities, moves uniformly at random.

    Stops when the game is over or after ``max_plies`` plies (chance outcomes count;
    `NO_PLY_LIMIT`: play to the end). Adds the plies, decisions, legal moves and turns (a turn is
    a roll and the decision after it) to ``totals`` and the legal-move counts to ``curve`` (see
    `ludoteca.core.playouts`); returns the side of the first decision (`NO_WINNER` if none).
    """
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    schaedler = params[P_SACRED] == SACRED_SCHAEDLER
    capture = 1 if params[P_CAPTURE] != 0 else 0
    plies = 0
    decisions = 0
    first = NO_WINNER
    while s[STATUS_AT] == ONGOING and plies < max_plies:
        plies += 1
        if s[SIDE_AT] == NO_SIDE:
            apply_action_inplace(s, FIRST_0 + np.random.randint(2), params)
        elif s[DIE_AT] == 0:
            _roll(s, np.random.randint(6) + 1, params)
        else:
            if decisions == 0:
                first = s[SIDE_AT]
            n = _decision_into(s, schaedler, capture, out)
            count_decision(totals, curve, decisions, n, True)
            decisions += 1
            _decide(s, out[np.random.randint(n)], params, schaedler, capture)
        totals[T_PLIES] += 1
    return first


@njit(cache=True)
def winner(s):
    """The side that won a finished position, `NO_WINNER` for a draw."""
    status = s[STATUS_AT]
    if status == WHITE_WINS:
        return WHITE
    return BLUE if status == BLUE_WINS else NO_WINNER


# == for learning agents: observation, action mask, batch play (docs/rl.md) =====================
#
# The observation is ``NUM_PLANES`` rows of ten points, from one player's view: the circuit is
# turned so that the observer's own point 1 comes first (White sees W1..W5, B1..B5; Blue sees
# B1..B5, W1..W5), so both sides see the same picture of a mirrored position and the goal is
# always column 7. Rows that hold one number repeat it in every column.

OBS_OWN = 0  # the observer's counters on each point / 5
OBS_OPPONENT = 1  # the opponent's counters on each point / 5
OBS_OWN_HAND = 2  # the observer's counters in hand / 5
OBS_OPPONENT_HAND = 3  # the opponent's counters in hand / 5
OBS_OWN_STORE = 4  # the observer's stored counters / 5 (sacred="storage")
OBS_OPPONENT_STORE = 5  # the opponent's stored counters / 5
OBS_TO_MOVE = 6  # 1 when the turn (the roll to come, or the move) is the observer's
OBS_DIE = 7  # 7..12: one-hot die d1..d6, all 0 before the roll
OBS_PLIES = 13  # plies played / max_plies (the ply cap's countdown)
NUM_PLANES = 14


@njit(cache=True)
def _fill(out, plane, value):
    out[plane * NUM_POINTS : (plane + 1) * NUM_POINTS] = value


@njit(cache=True)
def observation(s, params, player, out):
    """Write the position's rows as ``player`` sees them into the flat float32 ``out``."""
    opponent = 1 - player
    shift = NUM_POINTS // 2 * player  # the observer's point 1 is column 0
    for column in range(NUM_POINTS):
        point = (column + shift) % NUM_POINTS
        out[OBS_OWN * NUM_POINTS + column] = s[COUNT_AT + player * NUM_POINTS + point] / COUNTERS
        out[OBS_OPPONENT * NUM_POINTS + column] = (
            s[COUNT_AT + opponent * NUM_POINTS + point] / COUNTERS
        )
    _fill(out, OBS_OWN_HAND, s[HAND_AT + player] / COUNTERS)
    _fill(out, OBS_OPPONENT_HAND, s[HAND_AT + opponent] / COUNTERS)
    _fill(out, OBS_OWN_STORE, s[STORE_AT + player] / COUNTERS)
    _fill(out, OBS_OPPONENT_STORE, s[STORE_AT + opponent] / COUNTERS)
    to_move = s[STATUS_AT] == ONGOING and s[SIDE_AT] == player
    _fill(out, OBS_TO_MOVE, 1.0 if to_move else 0.0)
    for die in range(1, 7):
        _fill(out, OBS_DIE + die - 1, 1.0 if s[DIE_AT] == die else 0.0)
    _fill(out, OBS_PLIES, min(s[PLY_AT] / params[P_MAX_PLIES], 1.0))


# -- Named accessors --------------------------------------------------------------------------
# The layout read and written by name: code outside the kernels (position text, the state, the
# solver) calls these instead of doing arithmetic on the ``*_AT`` offsets. A region comes back
# as a view of ``s`` (read-only when ``s`` is).


@njit(cache=True)
def point_counts(s, side):
    """How many counters of ``side`` stand on each of the ``NUM_POINTS`` points: a view."""
    start = COUNT_AT + side * NUM_POINTS
    return s[start : start + NUM_POINTS]


@njit(cache=True)
def counters_on(s, side, point):
    """How many counters of ``side`` stand on ``point``."""
    return s[COUNT_AT + side * NUM_POINTS + point]


@njit(cache=True)
def set_counters_on(s, side, point, count):
    """Put ``count`` counters of ``side`` on ``point``."""
    s[COUNT_AT + side * NUM_POINTS + point] = count


@njit(cache=True)
def in_hand(s, side):
    """Counters of ``side`` in hand."""
    return s[HAND_AT + side]


@njit(cache=True)
def set_in_hand(s, side, count):
    """Set the counters of ``side`` in hand."""
    s[HAND_AT + side] = count


@njit(cache=True)
def in_store(s, side):
    """Counters of ``side`` stored off the circuit (only with ``sacred="storage"``)."""
    return s[STORE_AT + side]


@njit(cache=True)
def set_in_store(s, side, count):
    """Set the counters of ``side`` stored off the circuit."""
    s[STORE_AT + side] = count


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
