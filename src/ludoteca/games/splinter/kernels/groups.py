"""How Splinter finds the groups of its pieces, fast.

Neighbourhoods as bit masks, groups found square by square, in a 5x5 window, and in the frame
(all pieces in two 64-bit words). The rules (`rules`) call these to tell which groups a move
leaves; the position array is described in `layout`.
"""

import numpy as np
from numba import njit

from ludoteca.games.splinter.kernels.layout import *  # noqa: F403 (the layout's names)

# The helpers of the random-play loop (legal moves, playing a move, groups) allocate nothing and
# are compiled with ``_nrt=False``: numba then counts no references to the arrays they pass on,
# which were atomic increments and decrements around every call, about a third of a playout.


# -- neighbourhoods as 9-bit masks --------------------------------------------------------------
#
# The 3x3 block around a square is a 9-bit mask, bit (dr + 1) * 3 + (df + 1)::
#
#     6 7 8        NW N NE
#     3 4 5   =    W  .  E      (bit 4 is the square itself)
#     0 1 2        SW S SE

CENTRE = 1 << 4
NEAR_RANK = np.array([b // 3 - 1 for b in range(9)], dtype=np.int64)
NEAR_FILE = np.array([b % 3 - 1 for b in range(9)], dtype=np.int64)


def _neighbour_tables():  # type: ignore[no-untyped-def]
    """``(groups, lowest)`` for every 9-bit mask.

    ``groups``: how many groups the neighbours in the mask form (the centre ignored), touching
    when a king's step apart. When a square is vacated and the pieces around it still hang
    together, nothing was split (any path through the square can go round it), so only
    otherwise do the kernels search the board. ``lowest``: the index of the lowest set bit.
    """
    groups = np.zeros(512, dtype=np.int64)
    lowest = np.zeros(512, dtype=np.int64)
    for mask in range(512):
        cells = [(b % 3, b // 3) for b in range(9) if mask >> b & 1 and b != 4]
        parent = list(range(len(cells)))

        def root(i: int, parent: list[int] = parent) -> int:
            while parent[i] != i:
                i = parent[i]
            return i

        for i, (x1, y1) in enumerate(cells):
            for j, (x2, y2) in enumerate(cells[:i]):
                if max(abs(x1 - x2), abs(y1 - y2)) == 1:
                    parent[root(i)] = root(j)
        groups[mask] = len({root(i) for i in range(len(cells))})
        lowest[mask] = (mask & -mask).bit_length() - 1
    return groups, lowest


NEAR_GROUPS, LOWEST_BIT = _neighbour_tables()

# The lowest set bit of a row mask, by a de Bruijn multiplication.
DE_BRUIJN = 0x077CB531
DE_BRUIJN_BIT = np.zeros(32, dtype=np.int64)
for _bit in range(32):
    DE_BRUIJN_BIT[((DE_BRUIJN << _bit) & 0xFFFFFFFF) >> 27] = _bit


@njit(cache=True, inline="always")
def lowest_bit(mask):
    """The index of the lowest set bit of a non-zero mask of up to 32 bits."""
    return DE_BRUIJN_BIT[(((mask & -mask) * DE_BRUIJN) & 0xFFFFFFFF) >> 27]


@njit(cache=True, inline="always")
def row_mask(s, side, rank):
    """``side``'s pieces on ``rank`` as a mask, bit ``file + 2``.

    ``rank`` is 0-based; up to two ranks beyond either edge read as empty.
    """
    return s[ROWS_AT + side * ROW_SLOTS + rank + ROW_PAD]


@njit(cache=True, inline="always")
def around(s, nbr, square):
    """The occupied squares of the 3x3 block around ``square``, as a 9-bit mask."""
    rank = nbr[square, RANK_COL]
    file = nbr[square, FILE_COL]
    below = row_mask(s, BLUE, rank - 1) | row_mask(s, RED, rank - 1)
    level = row_mask(s, BLUE, rank) | row_mask(s, RED, rank)
    above = row_mask(s, BLUE, rank + 1) | row_mask(s, RED, rank + 1)
    file += ROW_PAD - 1
    return ((below >> file) & 7) | (((level >> file) & 7) << 3) | (((above >> file) & 7) << 6)


@njit(cache=True, inline="always")
def near_square(square, bit, width):
    """The square at neighbourhood ``bit`` (0-8) of ``square``."""
    return square + NEAR_RANK[bit] * width + NEAR_FILE[bit]


@njit(cache=True, inline="always")
def sync_square(s, nbr, square):
    """Bring the row masks in line with the board at ``square``."""
    row = ROWS_AT + nbr[square, RANK_COL] + ROW_PAD
    bit = 1 << (nbr[square, FILE_COL] + ROW_PAD)
    s[row] &= ~bit
    s[row + ROW_SLOTS] &= ~bit
    code = s[BOARD_AT + square]
    if code != 0:
        s[row + (code - 1) // NUM_TYPES * ROW_SLOTS] |= bit


@njit(cache=True, inline="always")
def toggle_square(s, nbr, square, side):
    """Flip ``side``'s row-mask bit of ``square`` (to lift a piece out and put it back)."""
    bit = 1 << (nbr[square, FILE_COL] + ROW_PAD)
    s[ROWS_AT + side * ROW_SLOTS + nbr[square, RANK_COL] + ROW_PAD] ^= bit


@njit(cache=True)
def recount(s, params):
    """Set the derived parts, the piece counts and the row masks, from the board."""
    width = params[P_WIDTH]
    s[COUNT_AT : COUNT_AT + 2 * NUM_TYPES] = 0
    s[ROWS_AT : ROWS_AT + 2 * ROW_SLOTS] = 0
    for square in range(width * params[P_HEIGHT]):
        code = s[BOARD_AT + square]
        if code != 0:
            s[COUNT_AT + code - 1] += 1
            side = (code - 1) // NUM_TYPES
            row = ROWS_AT + side * ROW_SLOTS + square // width + ROW_PAD
            s[row] |= 1 << (square % width + ROW_PAD)


# -- groups -------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def clear_labels(label, order, visited):
    """Undo the labels a search set, so that ``label`` is all zero again."""
    for i in range(visited):
        label[order[i]] = 0


@njit(cache=True, _nrt=False)
def find_groups(s, nbr, vacated, label, order, groups):
    """The groups (through sides and corners) of the pieces, after ``vacated`` was emptied.

    Reads the board itself (not the row masks). Before a move all pieces form one group, so
    every group afterwards touches ``vacated``; the search starts from its occupied neighbours.
    It stops early when the first group reaches all of them: then nothing was split. Returns
    ``(number of groups, squares visited)``; group ``g`` is ``order[groups[g, 0] :
    groups[g, 0] + groups[g, 1]]`` and ``groups[g, 2]`` is its first square (the lowest index).
    ``label`` must be all zero before; `clear_labels` with the squares visited makes it so again.
    """
    seeds = 0
    for direction in range(NUM_DIRECTIONS):
        neighbour = nbr[vacated, direction]
        if neighbour >= 0 and s[BOARD_AT + neighbour] != 0:
            label[neighbour] = -1  # a start square not reached yet
            seeds += 1
    visited = 0
    n_groups = 0
    reached = 0
    for direction in range(NUM_DIRECTIONS):
        seed = nbr[vacated, direction]
        if seed < 0 or label[seed] != -1:
            continue
        group = n_groups
        n_groups += 1
        label[seed] = group + 1
        reached += 1
        start = visited
        order[visited] = seed
        visited += 1
        first = seed
        head = start
        while head < visited:
            if n_groups == 1 and reached == seeds:
                break  # the first group reached every start square: nothing was split
            square = order[head]
            head += 1
            for d in range(NUM_DIRECTIONS):
                neighbour = nbr[square, d]
                if neighbour >= 0 and s[BOARD_AT + neighbour] != 0 and label[neighbour] <= 0:
                    if label[neighbour] < 0:
                        reached += 1
                    label[neighbour] = group + 1
                    order[visited] = neighbour
                    visited += 1
                    first = min(first, neighbour)
        groups[group, 0] = start
        groups[group, 1] = visited - start
        groups[group, 2] = first
        if n_groups == 1 and reached == seeds:
            break
    return n_groups, visited


@njit(cache=True, _nrt=False)
def tied_largest(groups, n_groups, tied):
    """Write the largest groups' indices into ``tied``, by first square; return how many."""
    largest = 0
    for g in range(n_groups):
        largest = max(largest, groups[g, 1])
    n = 0
    for g in range(n_groups):
        if groups[g, 1] == largest:
            i = n  # insertion by first square
            while i > 0 and groups[tied[i - 1], 2] > groups[g, 2]:
                tied[i] = tied[i - 1]
                i -= 1
            tied[i] = g
            n += 1
    return n


@njit(cache=True, inline="always")
def _root(parent, i):
    while parent[i] != i:
        i = parent[i]
    return i


@njit(cache=True, _nrt=False)
def split_groups(s, nbr, width, vacated, pieces_left, label, order, seeds, group_sizes):
    """The groups of the ``pieces_left`` pieces without the one on ``vacated``, found cheaply.

    Reads the row masks, in which ``vacated`` must already be empty. Every group touches
    ``vacated``, so the search grows from all of its occupied neighbours at once, one square at
    a time each, merging searches that meet. It stops as soon as at most one search is still
    growing: the others have found whole groups, and everything not found belongs to that last
    one. So a square whose removal splits nothing costs about as many steps as it takes the
    searches to meet, and a split-off of a few pieces about as many as they have.

    ``seeds`` is a work array of four rows, one column per start square: the union-find parent,
    the squares found but not yet searched from, the squares found, and finally the group.
    Returns ``(n_groups, visited, growing)``: the sizes are ``group_sizes[:n_groups]``; the piece
    on a square with ``label[square] > 0`` is in group ``seeds[3, label[square] - 1]``, one
    with label 0 in group ``growing`` (-1 when every group was found whole). `clear_labels` with
    ``visited`` resets ``label``.
    """
    parent = seeds[0]
    pending = seeds[1]
    size = seeds[2]
    group = seeds[3]
    n_seeds = 0
    near = around(s, nbr, vacated) & ~CENTRE
    while near:
        neighbour = near_square(vacated, LOWEST_BIT[near], width)
        near &= near - 1
        parent[n_seeds] = n_seeds
        pending[n_seeds] = 1
        size[n_seeds] = 1
        label[neighbour] = n_seeds + 1
        order[n_seeds] = neighbour
        n_seeds += 1
    visited = n_seeds
    growing = n_seeds
    head = 0
    while growing > 1:
        square = order[head]
        head += 1
        here = _root(parent, label[square] - 1)
        added = 0
        near = around(s, nbr, square) & ~CENTRE
        while near:
            neighbour = near_square(square, LOWEST_BIT[near], width)
            near &= near - 1
            mark = label[neighbour]
            if mark == 0:
                label[neighbour] = here + 1
                order[visited] = neighbour
                visited += 1
                added += 1
                continue
            other = _root(parent, mark - 1)
            if other != here:  # two searches meet; both were still growing
                parent[other] = here
                pending[here] += pending[other]
                size[here] += size[other]
                growing -= 1
        pending[here] += added - 1
        size[here] += added
        if pending[here] == 0:
            growing -= 1
    n_groups = 0
    found = 0
    growing_group = -1
    for i in range(n_seeds):
        if parent[i] == i:
            group[i] = n_groups
            if pending[i] > 0:
                growing_group = n_groups
            else:
                group_sizes[n_groups] = size[i]
                found += size[i]
            n_groups += 1
    if growing_group >= 0:
        group_sizes[growing_group] = pieces_left - found
    for i in range(n_seeds):
        group[i] = group[_root(parent, i)]
    return n_groups, visited, growing_group


# -- the 5x5 window: groups told from nearby squares alone ------------------------------------
#
# The 5x5 block around a square is a 25-bit mask, bit (dr + 2) * 5 + (df + 2).


def _window_masks():  # type: ignore[no-untyped-def]
    masks = [0, 0, 0, 0]  # distance 1, distance 2, leftmost column, rightmost column
    for dr in range(-2, 3):
        for df in range(-2, 3):
            bit = 1 << ((dr + 2) * 5 + df + 2)
            distance = max(abs(df), abs(dr))
            if distance:
                masks[distance - 1] |= bit
            if df in (-2, 2):
                masks[2 + (df > 0)] |= bit
    return masks[0], masks[1], masks[2], masks[3]


WINDOW_NEAR, WINDOW_EDGE, WINDOW_LEFT, WINDOW_RIGHT = _window_masks()
WINDOW_CENTRE = 1 << 12
WINDOW = (1 << 25) - 1


@njit(cache=True, inline="always")
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def window_groups(s, nbr, vacated, pieces_left, group_sizes):
    """The groups of the others without the piece on ``vacated``, if the 5x5 block tells them.

    Every group touches ``vacated``. Its neighbours that hang together inside the block are in
    one group. A part of the block that stays within one step of ``vacated`` is a whole group by
    itself (all its neighbours are in the block); if at most one part reaches the block's edge,
    that part is the group of everything else. Returns the number of groups, their sizes in
    ``group_sizes``, or -1 when the block cannot tell.
    """
    rank = nbr[vacated, RANK_COL]
    file = nbr[vacated, FILE_COL]
    window = 0
    for dr in range(5):
        row = row_mask(s, BLUE, rank + dr - 2) | row_mask(s, RED, rank + dr - 2)
        window |= ((row >> file) & 31) << (5 * dr)
    window &= ~WINDOW_CENTRE
    remaining = window & WINDOW_NEAR
    n_groups = 0
    reaching_out = 0
    enclosed = 0
    while remaining:
        part = remaining & -remaining
        while True:
            wide = (part | (part << 1) & ~WINDOW_LEFT | (part >> 1) & ~WINDOW_RIGHT) & WINDOW
            grown = (wide | (wide << 5) | (wide >> 5)) & window
            if grown == part:
                break
            part = grown
        remaining &= ~part
        if part & WINDOW_EDGE:
            reaching_out += 1
            if reaching_out > 1:
                return -1
        else:
            size = _popcount(part)
            group_sizes[n_groups] = size
            enclosed += size
            n_groups += 1
    if reaching_out:
        group_sizes[n_groups] = pieces_left - enclosed
        n_groups += 1
    return n_groups


# -- the frame: every piece in two 64-bit words -----------------------------------------------
#
# The pieces' bounding box (all pieces form one group before a move, so it is small) is packed
# rank by rank into two int64 words, ``below`` and ``above``: the box's first ``rows`` ranks in
# ``below``, the others in ``above``, bit ``i * w + file - left`` for the ``i``-th rank of its word,
# with at most ``FRAME_BITS`` bits in a word. Read ``below`` then ``above``, the bits run in the
# order of the squares, so a group's lowest bit is its first square. A king's step is a few
# shifts and masks, and a group is found by growing one bit until it stops, a few steps for any
# group; a box that does not fit falls back to the searches above.

# At most 62 bits a word: a step east or west stays below the sign bit; a step north may
# reach it, but is masked with the pieces before anything shifts it south.
FRAME_BITS = 62

DE_BRUIJN_64 = 0x03F79D71B4CB0A89
DE_BRUIJN_BIT_64 = np.zeros(64, dtype=np.int64)
for _bit in range(64):
    DE_BRUIJN_BIT_64[((DE_BRUIJN_64 << _bit) & 0xFFFFFFFFFFFFFFFF) >> 58] = _bit


@njit(cache=True, inline="always")
def lowest_bit_64(mask):
    """The index of the lowest set bit of a non-zero mask of up to 62 bits."""
    return DE_BRUIJN_BIT_64[(((mask & -mask) * DE_BRUIJN_64) >> 58) & 63]


@njit(cache=True, inline="always")
def highest_bit(mask):
    """The index of the highest set bit of a non-zero mask of up to 32 bits."""
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    return lowest_bit((mask >> 1) + 1)


@njit(cache=True, inline="always")
def popcount_64(x):
    """How many bits of a mask of up to 62 bits are set."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 127


@njit(cache=True, inline="always")
def make_frame(s, height, rank, file):
    """The frame of the pieces and the square ``(rank, file)`` (which may be empty).

    Returns ``(below, above, low, left, w, rows, inner_left, inner_right)``: the pieces as the
    frame's two words, the box's first rank and file, its width (0 when the box does not fit:
    then nothing else is set), the ranks in ``below``, and the masks of the bits (of either
    word) that are not in the box's first, resp. last, file.
    """
    low = 0
    while low < rank and (row_mask(s, BLUE, low) | row_mask(s, RED, low)) == 0:
        low += 1
    high = height - 1
    while high > rank and (row_mask(s, BLUE, high) | row_mask(s, RED, high)) == 0:
        high -= 1
    files = np.int64(1) << (file + ROW_PAD)
    for r in range(low, high + 1):
        files |= row_mask(s, BLUE, r) | row_mask(s, RED, r)
    first = lowest_bit(files)
    w = highest_bit(files) - first + 1
    rows = min(high - low + 1, FRAME_BITS // w)
    zero = np.int64(0)
    if high - low + 1 > 2 * rows:
        return zero, zero, 0, 0, 0, 0, zero, zero
    row_bits = (np.int64(1) << w) - 1
    below = zero
    above = zero
    first_file = zero
    shift = 0
    for r in range(low, low + rows):
        row = np.int64(row_mask(s, BLUE, r) | row_mask(s, RED, r))
        below |= ((row >> first) & row_bits) << shift
        first_file |= np.int64(1) << shift
        shift += w
    shift = 0
    for r in range(low + rows, high + 1):
        row = np.int64(row_mask(s, BLUE, r) | row_mask(s, RED, r))
        above |= ((row >> first) & row_bits) << shift
        shift += w
    last_file = first_file << (w - 1)
    # A step east from a word's last bit must not come back down into its top rank.
    first_file |= np.int64(1) << (rows * w)
    return below, above, low, first - ROW_PAD, w, rows, ~first_file, ~last_file


@njit(cache=True, inline="always")
def frame_step(below, above, w, cross, inner_left, inner_right):
    """The frame bits at most a king's step from those of ``(below, above)`` (which they hold).

    ``cross`` is ``(rows - 1) * w``, the shift from the first rank of ``above`` to the last of
    ``below``. The result has stray bits beyond the box; mask it with the pieces.
    """
    wide_below = below | ((below << 1) & inner_left) | ((below >> 1) & inner_right)
    wide_above = above | ((above << 1) & inner_left) | ((above >> 1) & inner_right)
    step_below = wide_below | (wide_below << w) | (wide_below >> w) | (wide_above << cross)
    step_above = wide_above | (wide_above << w) | (wide_above >> w) | (wide_below >> cross)
    return step_below, step_above


@njit(cache=True, inline="always")
def frame_group(below, above, pieces_below, pieces_above, w, cross, inner_left, inner_right):
    """The group of the pieces ``(pieces_below, pieces_above)`` that holds ``(below, above)``."""
    while True:
        step_below, step_above = frame_step(below, above, w, cross, inner_left, inner_right)
        step_below &= pieces_below
        step_above &= pieces_above
        if step_below == below and step_above == above:
            return below, above
        below = step_below
        above = step_above


@njit(cache=True, inline="always")
def frame_groups(frame, square_below, square_above, group_sizes):
    """The groups of the pieces without the one on a frame square; returns how many.

    The square is ``(square_below, square_above)``, one bit in one of the words; the groups'
    sizes go into ``group_sizes``. Every group touches that square (all pieces formed one
    group), so each grows from one of its neighbours.
    """
    below, above, _, _, w, rows, inner_left, inner_right = frame
    cross = (rows - 1) * w
    below &= ~square_below
    above &= ~square_above
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
        group_sizes[n_groups] = popcount_64(group_below) + popcount_64(group_above)
        n_groups += 1
        near_below &= ~group_below
        near_above &= ~group_above
    return n_groups


@njit(cache=True, inline="always")
def frame_square(frame, rank, file):
    """The frame square of ``(rank, file)`` as ``(square_below, square_above)``."""
    _, _, low, left, w, rows, _, _ = frame
    i = rank - low
    one = np.int64(1)
    if i < rows:
        return one << (i * w + file - left), np.int64(0)
    return np.int64(0), one << ((i - rows) * w + file - left)


@njit(cache=True)
def new_workspace(num_squares):
    """Scratch buffers for `legal_actions_into` and `apply_action_inplace`, allocated once.

    Returns ``(label, order, groups, seeds, group_sizes, sizes)`` (`workspace_over`).
    """
    return workspace_over(np.empty(WORKSPACE_WORDS, dtype=np.int64), num_squares)


WORKSPACE_WORDS = 2 * MAX_SQUARES + 3 * NUM_DIRECTIONS + 4 * NUM_DIRECTIONS + 2 * NUM_DIRECTIONS + 1
"""The ``int64`` words of a workspace (`workspace_over`), for any board."""


@njit(cache=True)
def workspace_over(work, num_squares):
    """`new_workspace`'s buffers as views of ``work`` (`WORKSPACE_WORDS` ``int64``), labels cleared.

    A GPU thread cannot allocate: its kernels pass a local array here (``device_scratch``).
    """
    label = work[:num_squares]
    label[:] = 0
    at = MAX_SQUARES
    order = work[at : at + num_squares]
    at += MAX_SQUARES
    groups = work[at : at + 3 * NUM_DIRECTIONS].reshape((NUM_DIRECTIONS, 3))
    at += 3 * NUM_DIRECTIONS
    seeds = work[at : at + 4 * NUM_DIRECTIONS].reshape((4, NUM_DIRECTIONS))
    at += 4 * NUM_DIRECTIONS
    group_sizes = work[at : at + NUM_DIRECTIONS]
    at += NUM_DIRECTIONS
    sizes = work[at : at + NUM_DIRECTIONS + 1]
    return label, order, groups, seeds, group_sizes, sizes
