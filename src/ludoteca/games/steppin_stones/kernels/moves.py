"""How pieces move in Steppin' Stones: passing, paths, and the moves of each phase (numba).

The position array and the codes are described in `ludoteca.games.steppin_stones.layout`; the
geometry table ``geo`` (one row per square: the four orthogonal neighbours, the suit whose home
tile holds the square, and whether it is in the hole) in `layout.Layout.geometry`; the options
arrive as ``params`` (``P_*``).

Movement, as the kernels read it:

- every path is made of orthogonal steps, may turn, and never visits a square twice;
- a coin passes only over empty spaces and coins worth strictly less than itself (a stone
  counts 1), never over a pawn, an ace or the hole, and ends on an empty space;
- in phase 1 a coin showing ``v`` moves exactly ``v`` steps (`exact_destinations`);
- in phase 2 a stone or a pawn moves to any square whose shortest legal path fits in its suit's
  budget, and pays that path's length (`path_cost`);
- a pawn steps only onto stones of its own suit, spaces of its own home tile (empty, or holding
  one of its stones) and, with ``aces_as_stones``, aces; its journey ends on its home tile.
"""

import numpy as np
from numba import njit

from ludoteca.games.steppin_stones import layout as c

NUM_SUITS = c.NUM_SUITS
MAX_SQUARES = c.MAX_SQUARES
COIN_AT, PAWN_AT, PAWN_SQUARE_AT = c.COIN_AT, c.PAWN_AT, c.PAWN_SQUARE_AT
VALUE_LEFT_AT, FACE_AT, USED_AT = c.VALUE_LEFT_AT, c.FACE_AT, c.USED_AT
PHASE2_DIE_AT, BUDGET_AT = c.PHASE2_DIE_AT, c.BUDGET_AT
STONE_BASE, FACE_SUIT = c.STONE_BASE, c.FACE_SUIT
STRIDE, FLIP_BASE, END = c.STRIDE, c.FLIP_BASE, c.END

# geometry table columns (layout.py)
HOME_COLUMN = 4
HOLE_COLUMN = 5

# params: the options as integers
P_NUM_SQUARES = 0
P_MAX_TURNS = 1
P_HIGHEST = 2  # stones="highest"
P_ACES_AS_STONES = 3
NUM_PARAMS = 4

MAX_LEGAL = 4096  # room for the 1296 outcomes of four dice, and for any position's moves
UNLIMITED = 1000  # a budget no path reaches

# scratch space for the path searches (see `new_work`)
W_MARK, W_DIST, W_QUEUE, W_PATH, W_DIRS = 0, 100, 200, 300, 310
WORK_SIZE = 320

is_value_coin = njit(cache=True)(c.is_value_coin)
is_ace = njit(cache=True)(c.is_ace)
coin_suit = njit(cache=True)(c.coin_suit)
coin_value = njit(cache=True)(c.coin_value)
passing_rank = njit(cache=True)(c.passing_rank)


@njit(cache=True)
def new_work():
    """Scratch space for the path searches: marks cleared, distances unknown (-1)."""
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    work[W_DIST : W_DIST + MAX_SQUARES] = -1
    return work


# -- squares and suits ----------------------------------------------------------------------------


@njit(cache=True)
def is_empty(s, geo, square):
    """A space of the board (not the hole) with no coin and no pawn."""
    return geo[square, HOLE_COLUMN] == 0 and s[COIN_AT + square] == 0 and s[PAWN_AT + square] == 0


@njit(cache=True)
def can_pass(s, geo, square, rank):
    """Whether a coin counting ``rank`` may pass over ``square``: empty, or a lower coin."""
    if geo[square, HOLE_COLUMN] != 0 or s[PAWN_AT + square] != 0:
        return False
    code = s[COIN_AT + square]
    return code == 0 or passing_rank(code) < rank


@njit(cache=True)
def pawn_may_stand(s, params, geo, suit, square):
    """Whether ``suit``'s pawn may step onto ``square``: its own stone, its home tile, an ace."""
    if geo[square, HOLE_COLUMN] != 0 or s[PAWN_AT + square] != 0:
        return False
    code = s[COIN_AT + square]
    if code == STONE_BASE + suit:
        return True
    if geo[square, HOME_COLUMN] == suit:
        return code == 0
    return is_ace(code) and params[P_ACES_AS_STONES] != 0


@njit(cache=True)
def is_retired(s, geo, suit):
    """A suit retires when its pawn reaches its home tile."""
    return geo[s[PAWN_SQUARE_AT + suit], HOME_COLUMN] == suit


@njit(cache=True)
def in_phase_one(s, suit):
    """A suit is in phase 1 while any of its coins shows a value."""
    return s[VALUE_LEFT_AT + suit] > 0


@njit(cache=True)
def any_phase_one(s):
    """Whether any suit is still in phase 1."""
    return s[VALUE_LEFT_AT : VALUE_LEFT_AT + NUM_SUITS].sum() > 0


@njit(cache=True)
def count_value_coins(s, params):
    """Recount the coins of each suit still showing their value."""
    for suit in range(NUM_SUITS):
        s[VALUE_LEFT_AT + suit] = 0
    for square in range(params[P_NUM_SQUARES]):
        code = s[COIN_AT + square]
        if is_value_coin(code):
            s[VALUE_LEFT_AT + coin_suit(code)] += 1


@njit(cache=True)
def highest_value(s, params, suit):
    """The highest value shown by a coin of ``suit`` (-1 when none shows a value)."""
    best = -1
    for square in range(params[P_NUM_SQUARES]):
        code = s[COIN_AT + square]
        if is_value_coin(code) and coin_suit(code) == suit:
            best = max(best, coin_value(code))
    return best


# -- paths ----------------------------------------------------------------------------------------


@njit(cache=True)
def _on_path(path, depth, square):
    """Whether ``square`` is among ``path[0..depth]`` (a path never visits a square twice)."""
    i = 0
    while i <= depth and path[i] != square:
        i += 1
    return i <= depth


@njit(cache=True)
def exact_destinations(s, geo, origin, steps, rank, work, out, n):
    """Append to ``out`` the moves from ``origin`` of exactly ``steps`` orthogonal steps.

    A depth-first search over simple paths (a coin counting ``rank`` passes only what
    `can_pass` allows and ends on an empty space). Each destination is written once, however
    many paths lead there. Returns the new count.
    """
    path = work[W_PATH : W_PATH + 10]
    dirs = work[W_DIRS : W_DIRS + 10]
    mark = work[W_MARK : W_MARK + MAX_SQUARES]
    first = n
    path[0] = origin
    dirs[0] = 0
    depth = 0
    while depth >= 0:
        direction = dirs[depth]
        if direction == 4:
            depth -= 1
            continue
        dirs[depth] = direction + 1
        square = geo[path[depth], direction]
        if square < 0 or _on_path(path, depth, square):
            continue
        if depth + 1 == steps:
            if mark[square] == 0 and is_empty(s, geo, square):
                mark[square] = 1
                out[n] = origin * STRIDE + square
                n += 1
        elif can_pass(s, geo, square, rank):
            depth += 1
            path[depth] = square
            dirs[depth] = 0
    for i in range(first, n):
        mark[out[i] - origin * STRIDE] = 0
    return n


@njit(cache=True)
def _search(s, params, geo, origin, budget, pawn_suit, work):
    """Breadth-first search from ``origin`` up to ``budget`` steps; returns the squares reached.

    ``pawn_suit`` -1 searches for a stone (through empty spaces and nulls, the only things a
    stone passes), otherwise for that suit's pawn (through the squares it may stand on, stopping
    at its home tile). The squares reached, origin first, are ``work[W_QUEUE:][:count]`` with
    their distances at ``work[W_DIST + square]``; `_clear_search` resets them.
    """
    queue = work[W_QUEUE : W_QUEUE + MAX_SQUARES]
    dist = work[W_DIST : W_DIST + MAX_SQUARES]
    queue[0] = origin
    dist[origin] = 0
    head, tail = 0, 1
    while head < tail:
        square = queue[head]
        head += 1
        if dist[square] >= budget:
            continue
        if pawn_suit >= 0 and square != origin and geo[square, HOME_COLUMN] == pawn_suit:
            continue  # reaching the home tile ends the pawn's journey
        for direction in range(4):
            nxt = geo[square, direction]
            if nxt < 0 or dist[nxt] >= 0:
                continue
            if pawn_suit >= 0:
                reachable = pawn_may_stand(s, params, geo, pawn_suit, nxt)
            else:
                reachable = can_pass(s, geo, nxt, 1)
            if reachable:
                dist[nxt] = dist[square] + 1
                queue[tail] = nxt
                tail += 1
    return tail


@njit(cache=True)
def _clear_search(work, count):
    for i in range(count):
        work[W_DIST + work[W_QUEUE + i]] = -1


@njit(cache=True)
def path_cost(s, params, geo, origin, destination, budget, pawn_suit, work):
    """Steps of the shortest legal phase-2 path (-1 if there is none within ``budget``)."""
    count = _search(s, params, geo, origin, budget, pawn_suit, work)
    cost = work[W_DIST + destination]
    _clear_search(work, count)
    if cost <= 0 or (pawn_suit < 0 and not is_empty(s, geo, destination)):
        return -1
    return cost


@njit(cache=True)
def search_moves(s, params, geo, origin, budget, pawn_suit, work, out, n):
    """Append to ``out`` (from index ``n``) the phase-2 moves of the piece on ``origin``.

    The piece is ``pawn_suit``'s pawn, or a stepping stone when ``pawn_suit`` is -1; every
    square it reaches within ``budget`` steps (a stone only onto an empty square) becomes an
    action ``origin * STRIDE + square``. Returns the new count.
    """
    count = _search(s, params, geo, origin, budget, pawn_suit, work)
    for i in range(1, count):
        square = work[W_QUEUE + i]
        if pawn_suit >= 0 or is_empty(s, geo, square):
            out[n] = origin * STRIDE + square
            n += 1
    _clear_search(work, count)
    return n


# -- phase 1: value moves and flips ---------------------------------------------------------------


@njit(cache=True)
def phase_one_actions(s, params, geo, work, out):
    """Value moves for each unused die value, the flips the suit faces demand, and ``END``.

    ``END`` is offered only once every suit face rolled has been honoured. Dice showing the same
    value give the same moves, so each value is searched once.
    """
    n = 0
    for value in range(2, 6):
        has_die = False
        for suit in range(NUM_SUITS):
            if s[FACE_AT + suit] == value and s[USED_AT + suit] == 0:
                has_die = True
        if not has_die:
            continue
        for square in range(params[P_NUM_SQUARES]):
            code = s[COIN_AT + square]
            if is_value_coin(code) and coin_value(code) == value:
                n = exact_destinations(s, geo, square, value, value, work, out, n)
    honoured = True
    for suit in range(NUM_SUITS):
        if s[FACE_AT + suit] != FACE_SUIT or s[USED_AT + suit] != 0:
            continue
        honoured = False
        highest = highest_value(s, params, suit) if params[P_HIGHEST] != 0 else -1
        for square in range(params[P_NUM_SQUARES]):
            code = s[COIN_AT + square]
            is_candidate = is_value_coin(code) and coin_suit(code) == suit
            if is_candidate and (highest < 0 or coin_value(code) == highest):
                out[n] = FLIP_BASE + square
                n += 1
    if honoured:
        out[n] = END
        n += 1
    return n


# -- phase 2: budgets spent on stones and pawns ---------------------------------------------------


@njit(cache=True)
def _suit_phase_two_actions(s, params, geo, suit, budget, work, out, n):
    for square in range(params[P_NUM_SQUARES]):
        if s[COIN_AT + square] == STONE_BASE + suit and s[PAWN_AT + square] == 0:
            n = search_moves(s, params, geo, square, budget, -1, work, out, n)
    return search_moves(s, params, geo, s[PAWN_SQUARE_AT + suit], budget, suit, work, out, n)


@njit(cache=True)
def phase_two_actions(s, params, geo, work, out):
    """Moves of the stones (not carrying a pawn) and pawns whose die has budget left, and END."""
    n = 0
    for suit in range(NUM_SUITS):
        budget = s[BUDGET_AT + suit]
        if s[PHASE2_DIE_AT + suit] != 0 and budget > 0:
            n = _suit_phase_two_actions(s, params, geo, suit, budget, work, out, n)
    out[n] = END
    return n + 1


@njit(cache=True)
def _suit_can_step(s, params, geo, suit):
    """Whether a stone (not carrying the pawn) or the pawn of ``suit`` has a legal first step."""
    for square in range(params[P_NUM_SQUARES]):
        if s[COIN_AT + square] == STONE_BASE + suit and s[PAWN_AT + square] == 0:
            for direction in range(4):
                nxt = geo[square, direction]
                if nxt >= 0 and can_pass(s, geo, nxt, 1):
                    return True
    pawn = s[PAWN_SQUARE_AT + suit]
    for direction in range(4):
        nxt = geo[pawn, direction]
        if nxt >= 0 and pawn_may_stand(s, params, geo, suit, nxt):
            return True
    return False


@njit(cache=True)
def has_a_piece_that_can_move(s, params, geo):
    """Whether any stone or pawn of a suit in phase 2 (and not retired) can take a step.

    A stone's first step goes to an empty space or over a null, and a pawn's to a square it may
    stand on, so a piece without a first step has no move at all, whatever its budget.
    """
    for suit in range(NUM_SUITS):
        in_phase_two = not is_retired(s, geo, suit) and not in_phase_one(s, suit)
        if in_phase_two and _suit_can_step(s, params, geo, suit):
            return True
    return False


@njit(cache=True)
def shortest_cost(s, params, geo, origin, destination, pawn_suit):
    """Steps of the shortest legal phase-2 path, whatever the budget (-1 if there is none)."""
    return path_cost(s, params, geo, origin, destination, UNLIMITED, pawn_suit, new_work())


# -- phase 2 in random play: the moves counted with bit sets --------------------------------------
#
# A random playout needs only the number of legal moves and the one it draws, not the whole list.
# On the 8x8 board (64 squares, no hole) one uint64 holds a set of squares (bit ``square``), and
# a breadth-first search is a few shifts per step, so `phase_two_counts` counts each piece's
# moves without listing them; `phase_two_pick` then walks the search of the one piece the drawn
# index falls on, in the very order `phase_two_actions` lists its moves, up to the drawn one.

BIT_SQUARES = 64  # the board the bit sets cover
_ONE = np.uint64(1)
_RANK_STEP = np.uint64(8)
_NOT_FILE_A = np.uint64(0xFEFEFEFEFEFEFEFE)  # a step east must not wrap from file h to file a
_NOT_FILE_H = np.uint64(0x7F7F7F7F7F7F7F7F)  # nor a step west from file a to file h
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_SHIFT_1, _SHIFT_2, _SHIFT_4, _SHIFT_56 = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56)

# the rows of `phase_two_counts`' ``pieces``, and its ``sets``
PIECE_ORIGIN, PIECE_PAWN_SUIT, PIECE_BUDGET, PIECE_MOVES = 0, 1, 2, 3
MAX_PIECES = NUM_SUITS * 6  # five stones and a pawn per suit
SET_EMPTY, SET_PASSABLE, SET_STAND = 0, 1, 2
NUM_SETS = SET_STAND + NUM_SUITS


@njit(cache=True)
def _bit_count(x):
    x = x - ((x >> _SHIFT_1) & _M1)
    x = (x & _M2) + ((x >> _SHIFT_2) & _M2)
    x = (x + (x >> _SHIFT_4)) & _M4
    return np.int64((x * _H01) >> _SHIFT_56)


@njit(cache=True)
def _neighbours(x):
    """The squares one orthogonal step from the squares of ``x`` (8x8 board)."""
    return (
        (x << _RANK_STEP)
        | (x >> _RANK_STEP)
        | ((x << _ONE) & _NOT_FILE_A)
        | ((x >> _ONE) & _NOT_FILE_H)
    )


@njit(cache=True)
def home_bits(geo):
    """Each suit's home tile as a bit set of the 8x8 board (``uint64``, one per suit)."""
    homes = np.zeros(NUM_SUITS, dtype=np.uint64)
    for square in range(BIT_SQUARES):
        suit = geo[square, HOME_COLUMN]
        if suit >= 0:
            homes[suit] |= _ONE << np.uint64(square)
    return homes


@njit(cache=True)
def _reached(origin_bit, budget, allowed, stops):
    """The squares within ``budget`` steps of ``origin_bit`` through ``allowed`` squares.

    A square of ``stops`` is reached but not gone on from (a pawn's home tile). The origin is
    included.
    """
    reach = origin_bit
    layer = origin_bit
    for _ in range(budget):
        layer = _neighbours(layer & ~stops) & allowed & ~reach
        if layer == 0:
            break
        reach |= layer
    return reach


@njit(cache=True)
def phase_two_counts(s, params, homes, pieces, sets):
    """Count the phase-2 moves of each piece, in `phase_two_actions`' order (8x8 board only).

    Writes one column of ``pieces`` per piece that moves (its origin, its pawn suit or -1 for
    a stone, its suit's budget, its number of moves) and, into ``sets`` (``uint64``), the
    squares a piece may end on (``SET_EMPTY``), those a stone may pass (``SET_PASSABLE``) and
    those each suit's pawn may stand on (``SET_STAND + suit``), for `phase_two_pick`. Returns
    the number of moves, ``END`` not counted (0 when no phase-2 die has budget left).
    """
    used = 0
    total = 0
    any_budget = False
    for suit in range(NUM_SUITS):
        if s[PHASE2_DIE_AT + suit] != 0 and s[BUDGET_AT + suit] > 0:
            any_budget = True
    if not any_budget:
        return total
    empty = np.uint64(0)  # no coin, no pawn
    nulls = np.uint64(0)  # coins showing the null with no pawn on them (a stone passes them)
    free_stones = np.zeros(NUM_SUITS, dtype=np.uint64)  # stones without a pawn on them
    free_aces = np.uint64(0)
    for square in range(BIT_SQUARES):
        bit = _ONE << np.uint64(square)
        code = s[COIN_AT + square]
        if s[PAWN_AT + square] != 0:
            continue
        if code == 0:
            empty |= bit
        elif code >= STONE_BASE:
            if code < c.ACE_BASE:
                free_stones[code - STONE_BASE] |= bit
            else:
                free_aces |= bit
        elif coin_value(code) == 0:
            nulls |= bit
    passable = empty | nulls
    aces = free_aces if params[P_ACES_AS_STONES] != 0 else np.uint64(0)
    sets[SET_EMPTY] = empty
    sets[SET_PASSABLE] = passable
    for suit in range(NUM_SUITS):
        budget = s[BUDGET_AT + suit]
        if s[PHASE2_DIE_AT + suit] == 0 or budget <= 0:
            continue
        stones = free_stones[suit]
        while stones != 0:  # lowest square first
            bit = stones & (~stones + _ONE)
            stones ^= bit
            moves = _bit_count(_reached(bit, budget, passable, np.uint64(0)) & empty)
            pieces[PIECE_ORIGIN, used] = _bit_count(bit - _ONE)
            pieces[PIECE_PAWN_SUIT, used] = -1
            pieces[PIECE_BUDGET, used] = budget
            pieces[PIECE_MOVES, used] = moves
            used += 1
            total += moves
        pawn = s[PAWN_SQUARE_AT + suit]
        bit = _ONE << np.uint64(pawn)
        stand = free_stones[suit] | (homes[suit] & empty) | aces
        sets[SET_STAND + suit] = stand
        moves = _bit_count(_reached(bit, budget, stand, homes[suit] & ~bit)) - 1
        pieces[PIECE_ORIGIN, used] = pawn
        pieces[PIECE_PAWN_SUIT, used] = suit
        pieces[PIECE_BUDGET, used] = budget
        pieces[PIECE_MOVES, used] = moves
        used += 1
        total += moves
    return total


@njit(cache=True)
def phase_two_pick(geo, homes, pieces, sets, index, queue):
    """The ``index``-th move counted by `phase_two_counts` (``index`` below its total).

    Returns ``(origin, destination, pawn suit or -1, cost)``: the move `phase_two_actions`
    lists at ``index`` and the length of its shortest path. The piece's breadth-first search
    is `_search`'s, square for square (the same queue, the same order of directions), with the
    bit sets standing for its tests, and stops at the move drawn. ``queue`` is scratch space
    (``2 * MAX_SQUARES`` long).
    """
    piece = 0
    while index >= pieces[PIECE_MOVES, piece]:
        index -= pieces[PIECE_MOVES, piece]
        piece += 1
    origin = pieces[PIECE_ORIGIN, piece]
    pawn_suit = pieces[PIECE_PAWN_SUIT, piece]
    budget = pieces[PIECE_BUDGET, piece]
    origin_bit = _ONE << np.uint64(origin)
    if pawn_suit >= 0:
        allowed = sets[SET_STAND + pawn_suit]
        ends = allowed
        stops = homes[pawn_suit] & ~origin_bit
    else:
        allowed = sets[SET_PASSABLE]
        ends = sets[SET_EMPTY]
        stops = np.uint64(0)
    seen = origin_bit
    queue[0] = origin
    queue[MAX_SQUARES] = 0  # the distances, by queue position
    head, tail = 0, 1
    while head < tail:
        square = queue[head]
        dist = queue[MAX_SQUARES + head]
        head += 1
        if dist >= budget:
            break  # the queue holds the squares in order of distance
        if stops & (_ONE << np.uint64(square)):
            continue
        for direction in range(4):
            nxt = geo[square, direction]
            if nxt < 0:
                continue
            bit = _ONE << np.uint64(nxt)
            if (seen & bit) or not (allowed & bit):
                continue
            seen |= bit
            if ends & bit:
                if index == 0:
                    return origin, nxt, pawn_suit, dist + 1
                index -= 1
            queue[tail] = nxt
            queue[MAX_SQUARES + tail] = dist + 1
            tail += 1
    return origin, -1, pawn_suit, -1  # not reached for an index below the total
