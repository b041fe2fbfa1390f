"""What a learning agent sees of a Salt 'n' Pepper position: the observation planes (docs/rl.md)."""

from numba import njit

from ludoteca.games.salt_n_pepper.kernels.layout import *  # noqa: F403 (the layout's names)

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
