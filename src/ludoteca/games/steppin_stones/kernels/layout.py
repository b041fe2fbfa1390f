"""The position array of Steppin' Stones as the compiled kernels read it.

The array, the coin codes and the action codec are described and defined in
`ludoteca.games.steppin_stones.layout`, typed Python that the Python side calls as it is; here
are its constants under the kernels' names and compiled copies of its small functions (the
accessors among them, for compiled code outside the kernels such as the planner).
"""

from numba import njit

from ludoteca.games.steppin_stones import layout as c

NUM_SUITS = c.NUM_SUITS
STAGE_AT, TURNS_AT, STATUS_AT, REASON_AT = c.STAGE_AT, c.TURNS_AT, c.STATUS_AT, c.REASON_AT
COIN_AT, PAWN_AT, PAWN_SQUARE_AT = c.COIN_AT, c.PAWN_AT, c.PAWN_SQUARE_AT
FACE_AT, USED_AT, PHASE2_DIE_AT, BUDGET_AT = c.FACE_AT, c.USED_AT, c.PHASE2_DIE_AT, c.BUDGET_AT
RESIGNED_AT = c.RESIGNED_AT
ROLL1, PLAY1, ROLL2, PLAY2 = c.ROLL1, c.PLAY1, c.ROLL2, c.PLAY2
ONGOING, WON, LOST = c.ONGOING, c.WON, c.LOST
NO_REASON, ALL_HOME, DEAD, RESIGNED, TURN_CAP = (
    c.NO_REASON,
    c.ALL_HOME,
    c.DEAD,
    c.RESIGNED,
    c.TURN_CAP,
)
NO_FACE, FACE_SUIT, STONE_BASE = c.NO_FACE, c.FACE_SUIT, c.STONE_BASE


outcome_face = njit(cache=True)(c.outcome_face)
outcome_digit = njit(cache=True)(c.outcome_digit)
phase_two_budget = njit(cache=True)(c.phase_two_budget)


# -- Named accessors --------------------------------------------------------------------------
# The layout's accessors are in `ludoteca.games.steppin_stones.layout` (the Python side calls
# them as they are); these are the compiled copies for compiled code outside the kernels (the
# planner).
coin_cell = njit(cache=True)(c.coin_cell)
pawn_cell = njit(cache=True)(c.pawn_cell)
pawn_square = njit(cache=True)(c.pawn_square)
value_coins_left = njit(cache=True)(c.value_coins_left)
budget_left = njit(cache=True)(c.budget_left)
