"""Splinter's rules as compiled kernels over one small integer array.

Board indexing (``square = rank0 * width + file0``; the default board is 15 files by 18 ranks)::

    rank 18 | 255 256 ... 269
     ...    |
    rank 2  |  15  16 ...  29
    rank 1  |   0   1 ...  14
                a   b  ...   o

The position array (``int32``), see the ``*_AT`` offsets below:

- the side to move (``BLUE``, ``RED``, or ``CHANCE`` while the first player is still to be
  drawn; it keeps the alternation after the game ends) and the turns played (passes included);
- the no-return record: the direction of the opponent's last move, the square where the moving
  piece now stands, and how many of the pieces that move displaced are still on the board. They
  stand in an unbroken line from that square onward in that direction. All three are 0 when
  nothing is restricted (at the start, after a pass, or when a splinter removed the line);
- the status and the reason code (derived by `settle`);
- the number of pieces of each side and type, ``COUNT_AT + side * 3 + type`` (derived);
- each side's pieces rank by rank as bit masks, ``ROWS_AT + side * ROW_SLOTS + rank0 + 2``,
  bit ``file0 + 2`` (derived; the two slots below rank 1 and above the top rank, and bits 0
  and 1, stay 0, so that the 3x3 and 5x5 blocks around any square read as shifted masks);
- the board, ``BOARD_AT + square``: 0 for empty, else ``piece_code(side, type)`` = 1..6.

Everything marked derived follows from the board (`recount`), so equal positions have equal
arrays. Pieces of one side and type are interchangeable on the board; only the no-return rule
cares which piece is which, and the record above is all it needs, since only the last turn
counts.

The board geometry arrives as ``nbr`` (``layout.neighbour_table``): ``nbr[square, direction]``
is the neighbouring square or -1 off the board, and columns ``RANK_COL`` and ``FILE_COL`` hold
the square's rank and file; options arrive as ``params`` (see ``P_*``).

The module holds, in this order: the array layout and the geometry; neighbourhoods as bit masks;
finding groups (square by square, in a 5x5 window, and in the frame: all pieces in two 64-bit
words); then the rules (the push, the no-return rule, splinters, the legal moves,
playing a move, the end of the game, random playouts). It is one module on purpose: numba's
on-disk cache does not notice when a kernel in another module that a cached kernel calls
changes, so a split would let stale compiled rules survive an edit.

Action codec (the one place that knows it)::

    action = (origin * 8 + direction) * 4 + choice      # 0 <= action < PASS
    PASS = MAX_SQUARES * 32

``direction`` counts clockwise from north (N NE E SE S SW W NW); ``choice`` says which of several
tied largest groups stays, counted in the order of their first squares (lowest index), and is 0
when the move leaves one largest group. A move splits the pieces into at most four groups (every
group touches the square the mover left, and at most four of its eight neighbours are pairwise
apart), so four choices are enough. At the chance node of ``first=random`` the outcomes are
0 (Blue starts) and 1 (Red starts).
"""

import numpy as np
from numba import njit

from ludoteca.core.playout_kernels import (
    count_decision,
)
from ludoteca.core.playouts import (
    NO_WINNER,
    T_PLIES,
    T_WINS,
)
from ludoteca.core.vector_kernels import random_below

BLUE, RED = 0, 1
CHANCE = -1
SQUARE, CROSS, CIRCLE = 0, 1, 2
NUM_TYPES = 3

MAX_WIDTH, MAX_HEIGHT = 25, 26
MAX_SQUARES = MAX_WIDTH * MAX_HEIGHT
NUM_DIRECTIONS = 8

TO_MOVE_AT = 0
PLY_AT = 1
LAST_DIRECTION_AT = 2
LAST_FIRST_AT = 3
LAST_COUNT_AT = 4
STATUS_AT = 5
REASON_AT = 6
COUNT_AT = 7  # + side * 3 + type
ROWS_AT = 13  # + side * ROW_SLOTS + rank0 + 2
ROW_SLOTS = MAX_HEIGHT + 4
ROW_PAD = 2
BOARD_AT = ROWS_AT + 2 * ROW_SLOTS
HEADER_SIZE = BOARD_AT

# params: the options as integers
P_WIDTH = 0
P_HEIGHT = 1
P_MAX_PLIES = 2  # engine safeguard
P_FIRST = 3  # BLUE, RED, or CHANCE for a drawn first player
NUM_PARAMS = 4

DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DIRECTION_STEPS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
FILE_STEP = np.array([df for df, _ in DIRECTION_STEPS], dtype=np.int64)
RANK_STEP = np.array([dr for _, dr in DIRECTION_STEPS], dtype=np.int64)
RANK_COL, FILE_COL = 8, 9

OCCUPIED = 7  # a board value used only while the kernels try a move out

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


# -- the rules --------------------------------------------------------------------------------

MAX_CHOICES = 4
PASS = MAX_SQUARES * NUM_DIRECTIONS * MAX_CHOICES
NUM_ACTIONS = PASS + 1
MAX_LEGAL = 15 * NUM_DIRECTIONS * MAX_CHOICES  # a side never has more than 15 pieces

# STATUS values
ONGOING, BLUE_WINS, RED_WINS, TIE = 0, 1, 2, 3
# REASON values
NO_REASON = 0
MISSING_TYPE = 1  # one side has lost every piece of some type
BOTH_MISSING = 2  # both sides lost a type in the same move: the piece count decides
PLY_CAP = 3  # engine safeguard


@njit(cache=True)
def piece_code(side, kind):
    """The board value of a piece: 1..3 Blue square, cross, circle; 4..6 Red's."""
    return side * NUM_TYPES + kind + 1


@njit(cache=True, inline="always")
def encode_action(origin, direction, choice):
    """The action index of moving the piece on ``origin`` towards ``direction``."""
    return (origin * NUM_DIRECTIONS + direction) * MAX_CHOICES + choice


@njit(cache=True, inline="always")
def opposite(direction):
    """The direction pointing the other way."""
    return (direction + 4) % NUM_DIRECTIONS


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
def new_workspace(num_squares):
    """Scratch buffers for `legal_actions_into` and `apply_action_inplace`, allocated once.

    Returns ``(label, order, groups, seeds, group_sizes, sizes)``.
    """
    return (
        np.zeros(num_squares, dtype=np.int64),
        np.empty(num_squares, dtype=np.int64),
        np.empty((NUM_DIRECTIONS, 3), dtype=np.int64),
        np.empty((4, NUM_DIRECTIONS), dtype=np.int64),
        np.empty(NUM_DIRECTIONS, dtype=np.int64),
        np.empty(NUM_DIRECTIONS + 1, dtype=np.int64),
    )


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


# -- random playouts --------------------------------------------------------------------------

NUM_TOTALS = T_WINS + 2  # the standard totals of ludoteca.core.playouts; ties count as draws


@njit(cache=True)
def random_playout_inplace(s, params, nbr, totals, curve, max_plies):
    """Play ``s``: the first-player draw at even odds, then uniformly random legal moves.

    Stops when the game is over or after ``max_plies`` plies (the draw counts; `NO_PLY_LIMIT`:
    play to the end). Adds the plies, decisions, legal moves and turns (a turn is one decision)
    to ``totals`` and the legal-move counts to ``curve`` (see `ludoteca.core.playouts`); returns
    the side of the first decision (`NO_WINNER` if none).
    """
    label, order, groups, seeds, group_sizes, sizes = new_workspace(nbr.shape[0])
    out = np.empty(MAX_LEGAL + 1, dtype=np.int64)
    plies = 0
    decisions = 0
    first = NO_WINNER
    while s[STATUS_AT] == ONGOING and plies < max_plies:
        if s[TO_MOVE_AT] == CHANCE:
            action = np.random.randint(2)
        else:
            if decisions == 0:
                first = s[TO_MOVE_AT]
            n = legal_actions_into(s, params, nbr, label, order, seeds, group_sizes, sizes, out)
            count_decision(totals, curve, decisions, n, True)
            decisions += 1
            action = out[np.random.randint(n)]
        apply_action_inplace(s, action, params, nbr, label, order, groups, sizes)
        plies += 1
        totals[T_PLIES] += 1
    return first


@njit(cache=True)
def winner(s):
    """The side that won a finished position, `NO_WINNER` for a tie."""
    status = s[STATUS_AT]
    if status == BLUE_WINS:
        return BLUE
    return RED if status == RED_WINS else NO_WINNER


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


# -- Named accessors --------------------------------------------------------------------------
# The layout read and written by name: code outside the kernels (position text, the state, the
# game's start position) calls these instead of doing arithmetic on the ``*_AT`` offsets. A
# region comes back as a view of ``s`` (read-only when ``s`` is).


@njit(cache=True)
def board_cells(s):
    """The board, one cell per square (0, or a `piece_code`): a view."""
    return s[BOARD_AT:]


@njit(cache=True)
def board_cell(s, square):
    """What stands on ``square``: 0 for empty, else the piece's `piece_code`."""
    return s[BOARD_AT + square]


@njit(cache=True)
def set_board_cell(s, square, code):
    """Put the piece ``code`` (0 for none) on ``square``; `recount` then settles the counts."""
    s[BOARD_AT + square] = code


@njit(cache=True)
def piece_counts(s, side):
    """How many pieces of each type (square, cross, circle) ``side`` has: a view."""
    start = COUNT_AT + side * NUM_TYPES
    return s[start : start + NUM_TYPES]


@njit(cache=True)
def no_return_record(s):
    """The no-return record ``(direction, first square, count)``; count 0 for none."""
    return s[LAST_DIRECTION_AT], s[LAST_FIRST_AT], s[LAST_COUNT_AT]


@njit(cache=True)
def set_no_return_record(s, direction, first, count):
    """Record ``count`` pieces pushed towards ``direction``, the mover's on ``first``."""
    s[LAST_DIRECTION_AT] = direction
    s[LAST_FIRST_AT] = first
    s[LAST_COUNT_AT] = count


def cells_size(width, height):  # type: ignore[no-untyped-def]
    """The length of the position array of a ``width`` by ``height`` board."""
    return HEADER_SIZE + width * height


# -- the contract's primitives (docs/kernels.md): the rest is generated into kernels/__init__.py

CONTRACT = {"args": ("params", "nbr"), "chance": True, "sorted": True}
LEGAL_BUFFER = MAX_LEGAL + 1  # the moves, or PASS


@njit(cache=True, inline="always")
def new_scratch(params, nbr):
    """The workspace of `legal_actions_into` and `apply_action_inplace` (`new_workspace`)."""
    return new_workspace(nbr.shape[0])


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
