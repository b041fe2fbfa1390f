"""What a learning agent sees of a Splinter position.

The observation planes (docs/rl.md) and the mask clearing of the batch kernels.
"""

from numba import njit

from ludoteca.games.splinter.kernels.layout import *  # noqa: F403 (the layout's names)

# == Learning agents: observation planes, legal-action masks, batches of games ==================
#
# What a learning agent sees of a position: float32 planes over the board (ranks x files), from
# the view of one player, written flat (plane, rank, file) into ``out`` (docs/rl.md lists the
# planes). Red's view is the board turned through 180° (square -> width * height - 1 - square):
# Red's start is Blue's turned the same way, so each player sees its own pieces where Blue sees
# Blue's.

OBS_MY_PIECES = 0  # + type (square, cross, circle): 1 where one of my pieces of it stands
OBS_THEIR_PIECES = 3
OBS_NO_RETURN_PIECES = 6  # 1 under the pieces the last move displaced (still on the board)
OBS_NO_RETURN_SQUARES = 7  # 1 on the squares those pieces left, where they may not go back
OBS_MY_TURN = 8  # all 1 when the observer is to move
OBS_TURNS = 9  # turns played / max_plies (the engine safeguard), at most 1
NUM_OBS_PLANES = 10


@njit(cache=True, inline="always")
def _seen(square, player, num_squares):
    """Where ``square`` is in ``player``'s view (Red's is turned through 180°)."""
    return square if player == BLUE else num_squares - 1 - square


@njit(cache=True)
def observation(s, params, nbr, player, out):
    """Write the planes of ``s`` as ``player`` sees them into the flat float32 ``out``.

    Row 0 of a plane is the observer's first rank, column 0 its left-hand file.
    """
    out[:] = 0.0
    num_squares = params[P_WIDTH] * params[P_HEIGHT]
    for square in range(num_squares):
        code = s[BOARD_AT + square]
        if code != 0:
            side = (code - 1) // NUM_TYPES
            plane = (OBS_MY_PIECES if side == player else OBS_THEIR_PIECES) + (code - 1) % 3
            out[plane * num_squares + _seen(square, player, num_squares)] = 1.0
    direction = s[LAST_DIRECTION_AT]
    square = s[LAST_FIRST_AT]
    left = nbr[square, opposite(direction)]  # where the moving piece came from
    for _ in range(s[LAST_COUNT_AT]):
        out[OBS_NO_RETURN_PIECES * num_squares + _seen(square, player, num_squares)] = 1.0
        out[OBS_NO_RETURN_SQUARES * num_squares + _seen(left, player, num_squares)] = 1.0
        left = square
        square = nbr[square, direction]
    if s[STATUS_AT] == ONGOING and s[TO_MOVE_AT] == player:
        out[OBS_MY_TURN * num_squares : (OBS_MY_TURN + 1) * num_squares] = 1.0
    turns = min(1.0, s[PLY_AT] / params[P_MAX_PLIES])
    out[OBS_TURNS * num_squares : (OBS_TURNS + 1) * num_squares] = turns


@njit(cache=True)
def clear_mask(s, params, nbr, out):
    """Set ``out`` False wherever a legal action of the decision ``s`` could be True.

    Every action of the player to move starts on one of its pieces, so only those squares'
    blocks of ``NUM_DIRECTIONS * MAX_CHOICES`` actions (and ``PASS``) need clearing: a few
    hundred entries of a mask of ``NUM_ACTIONS``.
    """
    block = NUM_DIRECTIONS * MAX_CHOICES
    side = s[TO_MOVE_AT]
    for square in range(params[P_WIDTH] * params[P_HEIGHT]):
        code = s[BOARD_AT + square]
        if code != 0 and (code - 1) // NUM_TYPES == side:
            out[square * block : (square + 1) * block] = False
    out[PASS] = False
