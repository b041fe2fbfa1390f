"""What a learning agent sees of a Salta position: the observation planes (docs/rl.md)."""

from numba import njit

from ludoteca.games.salta.kernels.layout import *  # noqa: F403 (the layout's names)

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
