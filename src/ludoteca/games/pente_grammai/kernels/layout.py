"""The layout of Pente Grammai's compiled kernels: one small integer array, and the action codec.

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

# -- Named accessors --------------------------------------------------------------------------
# The layout read and written by name: code outside the kernels (position text, the state, the
# solver) calls these instead of doing arithmetic on the ``*_AT`` offsets. A region comes back as a
# view of ``s`` (read-only when ``s`` is). The template writes those of ``ACCESSORS`` into the
# kernels package (`ludoteca.core.kernel_accessors`).

ACCESSORS = {
    "point_counts(side)": "view COUNT_AT NUM_POINTS: how many counters of ``side`` stand on each"
    " of the ``NUM_POINTS`` points: a view",
    "counters_on(side, point)": "get COUNT_AT NUM_POINTS: how many counters of ``side`` stand"
    " on ``point``",
    "set_counters_on(side, point, count)": "set COUNT_AT NUM_POINTS: put ``count`` counters of"
    " ``side`` on ``point``",
    "in_hand(side)": "get HAND_AT: counters of ``side`` in hand",
    "set_in_hand(side, count)": "set HAND_AT: set the counters of ``side`` in hand",
    "in_store(side)": "get STORE_AT: counters of ``side`` stored off the circuit (only with"
    ' ``sacred="storage"``)',
    "set_in_store(side, count)": "set STORE_AT: set the counters of ``side`` stored off the"
    " circuit",
}
