"""What a learning agent sees of a Steppin' Stones position: the observation planes (docs/rl.md)."""

import numpy as np
from numba import njit

from ludoteca.games.steppin_stones import layout as c
from ludoteca.games.steppin_stones.kernels import moves as m
from ludoteca.games.steppin_stones.kernels.layout import *  # noqa: F403 (the layout's names)
from ludoteca.games.steppin_stones.kernels.rules import P_MAX_TURNS, P_NUM_SQUARES

# == Learning agents: observation planes, legal-action masks, batches of games ==================
#
# What a learning agent sees of a position: float32 planes over the board (8x8, or 10x10 on the
# large board), written flat (plane, rank, file) into ``out``; row 0 is rank 1 and column 0
# file a (docs/rl.md lists the planes). The dice are planes of one value throughout, and hold
# what a player needs of them to choose a move: the values still unused, the suit faces still
# to honour, and what each phase-2 die has left.

OBS_VALUE_COINS = 0  # + suit * 5 + value index (null, 2, 3, 4, 5): a coin showing its value
OBS_STONES = 20  # + suit: a stepping stone
OBS_ACES = 24  # an ace (option aces), of any suit: they all block alike
OBS_PAWNS = 25  # + suit: the pawn
OBS_HOMES = 29  # + suit: the squares of its home tile
OBS_HOLE = 33  # the hole of the large board
OBS_UNUSED_VALUES = 34  # + value - 2: unused phase-1 dice showing 2..5, / 4
OBS_SUIT_FACES = 38  # + suit: its die shows the suit face and has not turned a coin yet
OBS_PHASE_TWO_DICE = 42  # + suit: its die is a phase-2 die this turn
OBS_BUDGETS = 46  # + suit: steps left on its phase-2 die, / 6
OBS_STAGE = 50  # + stage (ROLL1, PLAY1, ROLL2, PLAY2): one-hot
OBS_TURNS = 54  # turns completed / max_turns (the engine safeguard), at most 1
NUM_OBS_PLANES = 55
MAX_PLIES_PER_TURN = 32  # two rolls, four dice used, 24 phase-2 steps, two ends
VALUE_INDEX = np.array([0, -1, 1, 2, 3, 4], dtype=np.int64)  # plane of each value 0, 2..5


@njit(cache=True, inline="always")
def _add_to_plane(out, plane, num_squares, value):
    # A loop: numba's CUDA target has no in-place ufunc on a slice (ludoteca.rl.gpu).
    for i in range(plane * num_squares, (plane + 1) * num_squares):
        out[i] += value


@njit(cache=True)
def observation(s, params, geo, player, out):
    """Write the planes of ``s`` into the flat float32 ``out`` (``player`` is always 0)."""
    out[:] = 0.0
    num_squares = params[P_NUM_SQUARES]
    for square in range(num_squares):
        code = s[COIN_AT + square]
        if code >= c.ACE_BASE:
            out[OBS_ACES * num_squares + square] = 1.0
        elif code >= STONE_BASE:
            out[(OBS_STONES + code - STONE_BASE) * num_squares + square] = 1.0
        elif code > 0:
            plane = OBS_VALUE_COINS + m.coin_suit(code) * 5 + VALUE_INDEX[m.coin_value(code)]
            out[plane * num_squares + square] = 1.0
        pawn = s[PAWN_AT + square]
        if pawn > 0:
            out[(OBS_PAWNS + pawn - 1) * num_squares + square] = 1.0
        home = geo[square, m.HOME_COLUMN]
        if home >= 0:
            out[(OBS_HOMES + home) * num_squares + square] = 1.0
        if geo[square, m.HOLE_COLUMN] != 0:
            out[OBS_HOLE * num_squares + square] = 1.0
    stage = s[STAGE_AT]
    for suit in range(NUM_SUITS):
        face = s[FACE_AT + suit]
        if stage == PLAY1 and s[USED_AT + suit] == 0:
            if face >= 2:
                _add_to_plane(out, OBS_UNUSED_VALUES + face - 2, num_squares, 0.25)
            elif face == FACE_SUIT:
                _add_to_plane(out, OBS_SUIT_FACES + suit, num_squares, 1.0)
        if s[PHASE2_DIE_AT + suit] != 0:
            _add_to_plane(out, OBS_PHASE_TWO_DICE + suit, num_squares, 1.0)
            _add_to_plane(out, OBS_BUDGETS + suit, num_squares, s[BUDGET_AT + suit] / 6.0)
    _add_to_plane(out, OBS_STAGE + stage, num_squares, 1.0)
    _add_to_plane(out, OBS_TURNS, num_squares, min(1.0, s[TURNS_AT] / params[P_MAX_TURNS]))
