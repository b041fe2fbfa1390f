"""What a learning agent sees of a Pente Grammai position: the observation planes (docs/rl.md)."""

from numba import njit

from ludoteca.games.pente_grammai.kernels.layout import *  # noqa: F403 (the layout's names)

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
