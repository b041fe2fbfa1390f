"""Nim's rules as numba kernels over a small int32 array: the primitives of docs/kernels.md.

``python -m ludoteca.core.kernel_template tests/example_game/ludoteca_nim/kernels`` writes the
rest of the kernel contract from them into ``kernels/__init__.py``.

Position array ``cells``::

    cells[PILE]     counters left in the pile
    cells[TO_MOVE]  the player to move (0 or 1)
    cells[PLY]      moves played so far
    cells[WINNER]   the winner once the pile is empty, else NO_WINNER

Options array ``params``: ``params[P_MAX_TAKE]``, the most counters one move may take.
Action codec: ``action = counters taken - 1`` (0 takes one counter).
"""

from numba import njit

from ludoteca.core.playouts import T_WINS

PILE, TO_MOVE, PLY, WINNER = 0, 1, 2, 3
CELLS_SIZE = 4
P_MAX_TAKE = 0
NUM_PARAMS = 1
MAX_TAKE_LIMIT = 9  # the largest max_take option, so actions stay below NUM_ACTIONS
NUM_ACTIONS = MAX_TAKE_LIMIT
NUM_TOTALS = T_WINS + 2
CONTRACT = {"args": ("params",), "chance": False, "sorted": True}
LEGAL_BUFFER = MAX_TAKE_LIMIT


@njit(cache=True, inline="always")
def new_scratch(params):
    """Nim needs no scratch buffers."""
    return 0


@njit(cache=True, inline="always")
def is_over(cells):
    """Whether the pile is empty."""
    return cells[PILE] == 0


@njit(cache=True, inline="always")
def mover(cells):
    """The player to move."""
    return cells[TO_MOVE]


@njit(cache=True)
def winner(cells):
    """Who took the last counter."""
    return cells[WINNER]


@njit(cache=True, inline="always")
def safeguard_ended(cells):
    """Nim always ends by its rule."""
    return False


@njit(cache=True, inline="always")
def legal_into(cells, params, scratch, out):
    """Write the legal actions, ascending, into ``out``; return how many."""
    count = min(cells[PILE], params[P_MAX_TAKE])
    for action in range(count):
        out[action] = action
    return count


@njit(cache=True, inline="always")
def play(cells, params, action, scratch):
    """Take ``action + 1`` counters; the player who takes the last one wins."""
    cells[PILE] -= action + 1
    cells[PLY] += 1
    if cells[PILE] == 0:
        cells[WINNER] = cells[TO_MOVE]
    cells[TO_MOVE] = 1 - cells[TO_MOVE]


# == for learning agents (docs/rl.md) ==========================================================

PILE_LIMIT = 100  # the largest pile option: observations divide by it
OBS_PILE = 0  # counters left / PILE_LIMIT
OBS_TO_MOVE = 1  # 1 when the observing player is to move
NUM_FEATURES = 2


@njit(cache=True)
def observation(cells, params, player, out):
    """Write ``[pile / PILE_LIMIT, whether player is to move]`` into the float32 ``out``."""
    out[OBS_PILE] = cells[PILE] / PILE_LIMIT
    out[OBS_TO_MOVE] = 1.0 if cells[PILE] > 0 and cells[TO_MOVE] == player else 0.0
