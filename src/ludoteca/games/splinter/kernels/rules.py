"""Splinter's moves.

The legal moves, playing a move and the end of the
game, and the contract's primitives; the position array and the action codec are in `layout`,
the group searches in `groups`.
"""

import numpy as np
from numba import njit

from ludoteca.core.playouts import NO_WINNER
from ludoteca.core.vector_kernels import random_below
from ludoteca.games.splinter.kernels.groups import (
    NEAR_GROUPS,
    WORKSPACE_WORDS,
    around,
    clear_labels,
    find_groups,
    frame_group,
    frame_groups,
    frame_square,
    frame_step,
    lowest_bit,
    lowest_bit_64,
    make_frame,
    new_workspace,
    popcount_64,
    row_mask,
    split_groups,
    sync_square,
    tied_largest,
    toggle_square,
    window_groups,
    workspace_over,
)
from ludoteca.games.splinter.kernels.layout import *  # noqa: F403 (the layout's names)
from ludoteca.games.splinter.kernels.moves import (
    _choices,
    _push,
    push_line,
    returning_piece,
    tie_firsts,
)

# -- legal moves ------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _dominant(group_sizes, n_groups, total):
    """Whether one group outweighs all the others together by two or more."""
    largest = 0
    for g in range(n_groups):
        largest = max(largest, group_sizes[g])
    return 2 * largest >= total + 2


@njit(cache=True, inline="always")
def _piece_moves(
    s,
    params,
    nbr,
    origin,
    near,
    mover,
    pieces,
    forbidden,
    work,
    frame,
    square_below,
    square_above,
    out,
    n,
):
    """Write the moves of ``mover``'s piece on ``origin`` into ``out`` from ``n`` on.

    Returns the new count. ``work`` is ``(label, order, seeds, group_sizes, sizes)``;
    ``forbidden`` is the direction the no-return rule may forbid (-1 when nothing is
    restricted); ``near`` is `around` the piece; ``frame`` is `make_frame`'s and
    ``(square_below, square_above)`` the piece's bit in it.
    """
    label, order, seeds, group_sizes, sizes = work
    width = params[P_WIDTH]
    # The groups of the other pieces, as if the mover had been lifted off its square. When its
    # neighbours hang together, the others still form one group.
    n_left = 1 if pieces > 1 else 0
    visited = 0
    growing = -1
    if NEAR_GROUPS[near] > 1:
        if frame[4] > 0:
            n_left = frame_groups(frame, square_below, square_above, group_sizes)
        else:
            n_left = window_groups(s, nbr, origin, pieces - 1, group_sizes)
        if n_left < 0 or (n_left > 1 and not _dominant(group_sizes, n_left, pieces - 1)):
            # The block cannot tell, or the mover may decide a tie: search, with labels.
            toggle_square(s, nbr, origin, mover)
            n_left, visited, growing = split_groups(
                s, nbr, width, origin, pieces - 1, label, order, seeds, group_sizes
            )
            toggle_square(s, nbr, origin, mover)
    # When the others form one group of two or more, every direction is one move: the mover
    # joins that group, or stands alone and is the smaller group. So it is when one group of
    # the others outweighs all the rest by two or more: whatever the mover joins, the largest
    # group is unique.
    simple = n_left == 1 and pieces > 2
    if n_left > 1:
        simple = _dominant(group_sizes, n_left, pieces - 1)
    elif not simple:
        # One group or none (only with two pieces or fewer on the board): no labels; the one
        # group, if any, counts as the one still growing.
        clear_labels(label, order, visited)
        visited = 0
        growing = 0
        group_sizes[0] = pieces - 1
    if simple:
        # One move a direction: each is written, and kept by advancing the count when the
        # piece stays on the board and the no-return rule allows it (no branch to mispredict).
        skip = -1
        if forbidden >= 0 and nbr[origin, forbidden] >= 0:
            k, beyond = push_line(s, nbr, origin, forbidden)
            if returning_piece(s, params, nbr, origin, forbidden, k, beyond) >= 0:
                skip = forbidden
        first = encode_action(origin, 0, 0)
        for direction in range(NUM_DIRECTIONS):
            out[n] = first + direction * MAX_CHOICES
            n += int(nbr[origin, direction] >= 0) - int(direction == skip)
        clear_labels(label, order, visited)
        return n
    for direction in range(NUM_DIRECTIONS):
        if nbr[origin, direction] < 0:
            continue  # the moving piece may not leave the board
        k, beyond = push_line(s, nbr, origin, direction)
        if returning_piece(s, params, nbr, origin, direction, k, beyond) >= 0:
            continue
        choices = _choices(
            s, nbr, width, origin, beyond, n_left, label, seeds, growing, group_sizes, sizes
        )
        for choice in range(choices):
            out[n] = encode_action(origin, direction, choice)
            n += 1
    clear_labels(label, order, visited)
    return n


@njit(cache=True, _nrt=False)
def legal_actions_into(s, params, nbr, label, order, seeds, group_sizes, sizes, out):
    """Write the legal actions of an unfinished position into ``out``, sorted; return how many.

    ``s`` is changed while moves are tried and restored before returning.
    """
    mover = s[TO_MOVE_AT]
    if mover == CHANCE:
        out[0] = BLUE
        out[1] = RED
        return 2
    pieces = 0
    for i in range(2 * NUM_TYPES):
        pieces += s[COUNT_AT + i]
    # The no-return rule can only forbid a piece on the line of the pieces the opponent's last
    # move displaced (pushing it the other way walks along its own line, parallel to that one):
    # a piece off that line never needs the test.
    forbidden = -1
    line_rank = 0
    line_file = 0
    rank_step = 0
    file_step = 0
    if s[LAST_COUNT_AT] > 0:
        last = s[LAST_DIRECTION_AT]
        forbidden = opposite(last)
        line_rank = nbr[s[LAST_FIRST_AT], RANK_COL]
        line_file = nbr[s[LAST_FIRST_AT], FILE_COL]
        rank_step = RANK_STEP[last]
        file_step = FILE_STEP[last]
    work = (label, order, seeds, group_sizes, sizes)
    width = params[P_WIDTH]
    height = params[P_HEIGHT]
    first_rank = 0
    while first_rank < height - 1 and row_mask(s, mover, first_rank) == 0:
        first_rank += 1
    # The frame's box is the pieces' (the mover's first piece is one of them).
    first_row = row_mask(s, mover, first_rank)
    first_file = lowest_bit(first_row) - ROW_PAD if first_row else 0
    frame = make_frame(s, height, first_rank, first_file)
    n = 0
    for rank in range(first_rank, height):
        files = row_mask(s, mover, rank) >> ROW_PAD
        if files == 0:
            continue
        # `around` each piece of the rank, from the three ranks read once
        row_below = row_mask(s, BLUE, rank - 1) | row_mask(s, RED, rank - 1)
        row_level = row_mask(s, BLUE, rank) | row_mask(s, RED, rank)
        row_above = row_mask(s, BLUE, rank + 1) | row_mask(s, RED, rank + 1)
        while files:
            file = lowest_bit(files)
            origin = rank * width + file
            files &= files - 1
            shift = file + ROW_PAD - 1
            near = (
                ((row_below >> shift) & 7)
                | (((row_level >> shift) & 7) << 3)
                | (((row_above >> shift) & 7) << 6)
            )
            on_line = (file - line_file) * rank_step == (rank - line_rank) * file_step
            restricted = forbidden if on_line else -1
            square_below, square_above = frame_square(frame, rank, file)
            n = _piece_moves(
                s,
                params,
                nbr,
                origin,
                near,
                mover,
                pieces,
                restricted,
                work,
                frame,
                square_below,
                square_above,
                out,
                n,
            )
    if n == 0:
        out[0] = PASS
        n = 1
    return n


@njit(cache=True)
def kept_first_squares(s, params, nbr, actions):
    """For each action, the first square of the group it keeps, if it chooses among tied ones.

    That is the square the notation's ``/k12`` names; -1 for moves without a choice.
    """
    result = np.full(actions.shape[0], -1, dtype=np.int64)
    firsts = np.empty(NUM_DIRECTIONS, dtype=np.int64)
    if s[TO_MOVE_AT] == CHANCE:
        return result
    for i in range(actions.shape[0]):
        action = actions[i]
        # A move with a choice comes as choices 0, 1, ... one after another (actions are sorted).
        if action % MAX_CHOICES == 0 and i + 1 < actions.shape[0] and actions[i + 1] == action + 1:
            move = action // MAX_CHOICES
            tie_firsts(s, nbr, move // NUM_DIRECTIONS, move % NUM_DIRECTIONS, firsts)
        if action % MAX_CHOICES > 0 or (i + 1 < actions.shape[0] and actions[i + 1] == action + 1):
            result[i] = firsts[action % MAX_CHOICES]
    return result


# -- playing a move ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _remove_word(s, nbr, width, word, first_rank, left, w):
    """Take the pieces on the bits of one frame ``word`` off the board."""
    while word:
        bit = lowest_bit_64(word)
        word &= word - 1
        i = bit // w
        square = (first_rank + i) * width + left + bit - i * w
        s[COUNT_AT + s[BOARD_AT + square] - 1] -= 1
        s[BOARD_AT + square] = 0
        sync_square(s, nbr, square)


@njit(cache=True, _nrt=False)
def _remove_splinters(s, params, nbr, origin, choice, label, order, groups, tied):
    """Keep only the largest group (the ``choice``-th of tied ones) after a move from ``origin``.

    The groups are found in the frame (`make_frame`), each group's two words kept in ``order``;
    a box too large for it is searched square by square.
    """
    if NEAR_GROUPS[around(s, nbr, origin)] < 2:
        return
    rank = nbr[origin, RANK_COL]
    file = nbr[origin, FILE_COL]
    frame = make_frame(s, params[P_HEIGHT], rank, file)
    below, above, low, left, w, rows, inner_left, inner_right = frame
    if w == 0:
        _remove_splinters_searched(s, nbr, origin, choice, label, order, groups, tied)
        return
    cross = (rows - 1) * w
    square_below, square_above = frame_square(frame, rank, file)
    near_below, near_above = frame_step(
        square_below, square_above, w, cross, inner_left, inner_right
    )
    near_below &= below
    near_above &= above
    n_groups = 0
    while near_below | near_above:
        seed_below = near_below & -near_below
        seed_above = near_above & -near_above if seed_below == 0 else np.int64(0)
        group_below, group_above = frame_group(
            seed_below, seed_above, below, above, w, cross, inner_left, inner_right
        )
        order[2 * n_groups] = group_below
        order[2 * n_groups + 1] = group_above
        groups[n_groups, 1] = popcount_64(group_below) + popcount_64(group_above)
        if group_below:
            groups[n_groups, 2] = lowest_bit_64(group_below)
        else:
            groups[n_groups, 2] = rows * w + lowest_bit_64(group_above)
        n_groups += 1
        near_below &= ~group_below
        near_above &= ~group_above
    if n_groups < 2:
        return
    tied_largest(groups, n_groups, tied)
    kept = tied[choice]
    width = params[P_WIDTH]
    for g in range(n_groups):
        if g != kept:
            _remove_word(s, nbr, width, order[2 * g], low, left, w)
            _remove_word(s, nbr, width, order[2 * g + 1], low + rows, left, w)


@njit(cache=True, _nrt=False)
def _remove_splinters_searched(s, nbr, origin, choice, label, order, groups, tied):
    """`_remove_splinters` by a search of the board, square by square."""
    n_groups, visited = find_groups(s, nbr, origin, label, order, groups)
    clear_labels(label, order, visited)
    if n_groups < 2:
        return
    tied_largest(groups, n_groups, tied)
    kept = tied[choice]
    for g in range(n_groups):
        if g == kept:
            continue
        for i in range(groups[g, 0], groups[g, 0] + groups[g, 1]):
            square = order[i]
            s[COUNT_AT + s[BOARD_AT + square] - 1] -= 1
            s[BOARD_AT + square] = 0
            sync_square(s, nbr, square)


@njit(cache=True, _nrt=False)
def _clear_record(s):
    s[LAST_DIRECTION_AT] = 0
    s[LAST_FIRST_AT] = 0
    s[LAST_COUNT_AT] = 0


@njit(cache=True, _nrt=False)
def settle(s, params):
    """Set the status and reason from the piece counts, the turns played and the options."""
    s[STATUS_AT] = ONGOING
    s[REASON_AT] = NO_REASON
    if s[TO_MOVE_AT] == CHANCE:
        return
    blue_missing = False
    red_missing = False
    blue_total = 0
    red_total = 0
    for kind in range(NUM_TYPES):
        blue_missing = blue_missing or s[COUNT_AT + kind] == 0
        red_missing = red_missing or s[COUNT_AT + NUM_TYPES + kind] == 0
        blue_total += s[COUNT_AT + kind]
        red_total += s[COUNT_AT + NUM_TYPES + kind]
    if blue_missing and red_missing:
        s[REASON_AT] = BOTH_MISSING
        if blue_total > red_total:
            s[STATUS_AT] = BLUE_WINS
        elif red_total > blue_total:
            s[STATUS_AT] = RED_WINS
        else:
            s[STATUS_AT] = TIE
    elif blue_missing or red_missing:
        s[STATUS_AT] = RED_WINS if blue_missing else BLUE_WINS
        s[REASON_AT] = MISSING_TYPE
    elif s[PLY_AT] >= params[P_MAX_PLIES]:
        s[STATUS_AT] = TIE
        s[REASON_AT] = PLY_CAP


@njit(cache=True, _nrt=False)
def apply_action_inplace(s, action, params, nbr, label, order, groups, tied):
    """Play a legal ``action`` on ``s`` in place and settle the result."""
    mover = s[TO_MOVE_AT]
    if mover == CHANCE:
        s[TO_MOVE_AT] = action
        settle(s, params)
        return
    if action == PASS:
        _clear_record(s)
    else:
        move = action // MAX_CHOICES
        origin = move // NUM_DIRECTIONS
        direction = move % NUM_DIRECTIONS
        k, beyond = push_line(s, nbr, origin, direction)
        _push(s, nbr, origin, direction, k, beyond)
        _remove_splinters(s, params, nbr, origin, action % MAX_CHOICES, label, order, groups, tied)
        first = nbr[origin, direction]
        if s[BOARD_AT + first] == 0:  # the mover's line was splintered away
            _clear_record(s)
        else:
            s[LAST_DIRECTION_AT] = direction
            s[LAST_FIRST_AT] = first
            s[LAST_COUNT_AT] = k + 1 if beyond >= 0 else k
    s[PLY_AT] += 1
    s[TO_MOVE_AT] = 1 - mover
    settle(s, params)


@njit(cache=True)
def winner(s):
    """The side that won a finished position, `NO_WINNER` for a tie."""
    status = s[STATUS_AT]
    if status == BLUE_WINS:
        return BLUE
    return RED if status == RED_WINS else NO_WINNER


# -- the contract's primitives (docs/kernels.md): the rest is generated into kernels/__init__.py

CONTRACT = {"args": ("params", "nbr"), "chance": True, "sorted": True}
LEGAL_BUFFER = MAX_LEGAL + 1  # the moves, or PASS


@njit(cache=True, inline="always")
def new_scratch(params, nbr):
    """The workspace of `legal_actions_into` and `apply_action_inplace` (`new_workspace`)."""
    return new_workspace(nbr.shape[0])


DEVICE_WORK = WORKSPACE_WORDS  # the words of a GPU thread's workspace (ludoteca.rl.gpu)


@njit(cache=True, inline="always")
def device_scratch(work, params, nbr):
    """`new_scratch` over ``work`` (`DEVICE_WORK` words): a GPU thread's workspace."""
    return workspace_over(work, nbr.shape[0])


@njit(cache=True, inline="always")
def is_over(s):
    """Whether the game is over."""
    return s[STATUS_AT] != ONGOING


@njit(cache=True, inline="always")
def is_chance(s):
    """Whether the first player is still to be drawn."""
    return s[TO_MOVE_AT] == CHANCE


@njit(cache=True, inline="always")
def mover(s):
    """The side to move."""
    return s[TO_MOVE_AT]


@njit(cache=True, inline="always")
def safeguard_ended(s):
    """Whether the ``max_plies`` safeguard ended the game."""
    return s[REASON_AT] == PLY_CAP


@njit(cache=True, inline="always")
def legal_into(s, params, nbr, scratch, out):
    """`legal_actions_into` with the workspace's buffers (``s`` is changed, then restored)."""
    label, order, _, seeds, group_sizes, sizes = scratch
    return legal_actions_into(s, params, nbr, label, order, seeds, group_sizes, sizes, out)


@njit(cache=True, inline="always")
def play(s, params, nbr, action, scratch):
    """`apply_action_inplace` with the workspace's buffers."""
    label, order, groups, _, _, sizes = scratch
    apply_action_inplace(s, action, params, nbr, label, order, groups, sizes)


@njit(cache=True, inline="always")
def draw_outcome(s, params, nbr, rng, row):
    """The first player at even odds, from game ``row``'s generator."""
    return random_below(rng, row, 2)
