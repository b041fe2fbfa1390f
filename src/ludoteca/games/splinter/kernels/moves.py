"""One Splinter move tried out: the push, the no-return rule and the splinters it leaves.

The legal moves (`rules`) are built from these; the group searches are in `groups`.
"""

from numba import njit

from ludoteca.games.splinter.kernels.groups import (
    CENTRE,
    LOWEST_BIT,
    around,
    find_groups,
    near_square,
    new_workspace,
    sync_square,
    tied_largest,
)
from ludoteca.games.splinter.kernels.layout import *  # noqa: F403 (the layout's names)

# -- one move: the push and the no-return rule ------------------------------------------------


@njit(cache=True, inline="always")
def push_line(s, nbr, origin, direction):
    """The line the piece on ``origin`` pushes: ``(k, beyond)``.

    ``k`` pieces stand unbroken directly ahead of the mover; ``beyond`` is the square just past
    the last of them (where it lands), or -1 when that piece is pushed off the board. With
    ``k == 0`` and ``beyond == -1`` the mover itself would leave the board.
    """
    k = 0
    square = nbr[origin, direction]
    while square >= 0 and s[BOARD_AT + square] != 0:
        k += 1
        square = nbr[square, direction]
    return k, square


@njit(cache=True, inline="always")
def returning_piece(s, params, nbr, origin, direction, k, beyond):
    """The no-return rule: the first square in the line whose piece would go back, or -1.

    A piece displaced on the opponent's last turn moved one square in that turn's direction, so
    it returns to the square it left exactly when it is pushed the opposite way. Whether a square
    holds such a piece follows from the record (an unbroken line of ``count`` squares from
    ``first``). A piece pushed off the board ends on no square and never counts.
    """
    count = s[LAST_COUNT_AT]
    last = s[LAST_DIRECTION_AT]
    if count == 0 or direction != opposite(last):
        return -1
    step = FILE_STEP[last] + RANK_STEP[last] * params[P_WIDTH]
    first = s[LAST_FIRST_AT]
    staying = k + 1 if beyond >= 0 else k
    square = origin
    for _ in range(staying):
        offset = square - first
        if step < 0:
            offset = -offset
        if offset >= 0 and offset % abs(step) == 0 and offset // abs(step) < count:
            return square
        square = nbr[square, direction]
    return -1


@njit(cache=True, _nrt=False)
def _push(s, nbr, origin, direction, k, beyond):
    """Move the line one square on; a piece pushed past the edge is removed and counted off."""
    back = opposite(direction)
    square = origin
    for _ in range(k):
        square = nbr[square, direction]
    if beyond >= 0:
        s[BOARD_AT + beyond] = s[BOARD_AT + square]
        sync_square(s, nbr, beyond)
    else:
        s[COUNT_AT + s[BOARD_AT + square] - 1] -= 1
    while square != origin:
        behind = nbr[square, back]
        s[BOARD_AT + square] = s[BOARD_AT + behind]
        sync_square(s, nbr, square)
        square = behind
    s[BOARD_AT + origin] = 0
    sync_square(s, nbr, origin)


# -- splinters: which groups a move leaves ------------------------------------------------------


@njit(cache=True)
def tie_firsts(s, nbr, origin, direction, firsts):
    """Whether moving the piece on ``origin`` leaves tied largest groups.

    Returns ``(n, size)``: ``n`` tied largest groups of ``size`` pieces, their first squares
    written into ``firsts`` in order; ``(1, 0)`` when the largest group is unique.
    """
    label, order, groups, _, _, tied = new_workspace(nbr.shape[0])
    t = s.copy()
    _, beyond = push_line(t, nbr, origin, direction)
    # Only occupancy matters for groups: the move empties ``origin`` and fills ``beyond`` (when
    # nothing is pushed off); every other square of the line stays occupied.
    t[BOARD_AT + origin] = 0
    if beyond >= 0:
        t[BOARD_AT + beyond] = OCCUPIED
    n_groups, _ = find_groups(t, nbr, origin, label, order, groups)
    if n_groups < 2:
        return 1, 0
    n = tied_largest(groups, n_groups, tied)
    if n < 2:
        return 1, 0
    for i in range(n):
        firsts[i] = groups[tied[i], 2]
    return n, groups[tied[0], 1]


@njit(cache=True, inline="always")
def _count_largest(sizes, n):
    """How many of ``sizes[:n]`` equal the largest (1 when there is a single group)."""
    largest = 0
    tied = 0
    for i in range(n):
        if sizes[i] > largest:
            largest = sizes[i]
            tied = 1
        elif sizes[i] == largest:
            tied += 1
    return tied


@njit(cache=True, inline="always")
def _choices(s, nbr, width, origin, beyond, n_left, label, seeds, growing, group_sizes, sizes):
    """How many moves the piece on ``origin`` makes in one direction (more than one on a tie).

    That is the number of tied largest groups the move leaves, 1 when the largest is unique.
    The groups after the move are the ``n_left`` groups of the other pieces (`split_groups`,
    with ``origin`` empty), joined by the square the line fills, ``beyond`` (-1 when a piece
    falls off and nothing is filled), which joins every group next to it.
    """
    if beyond < 0:
        return _count_largest(group_sizes, n_left)
    joined = 0
    near = around(s, nbr, beyond) & ~CENTRE
    while near:
        neighbour = near_square(beyond, LOWEST_BIT[near], width)
        near &= near - 1
        if neighbour != origin:
            mark = label[neighbour]
            joined |= 1 << (growing if mark == 0 else seeds[3, mark - 1])
    n = 1
    sizes[0] = 1
    for g in range(n_left):
        if joined >> g & 1:
            sizes[0] += group_sizes[g]
        else:
            sizes[n] = group_sizes[g]
            n += 1
    return _count_largest(sizes, n)
