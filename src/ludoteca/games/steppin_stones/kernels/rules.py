"""Steppin' Stones' turn as compiled kernels: chance nodes, legal actions, apply, the end.

The position array, the coin codes and the action codec are described in
`ludoteca.games.steppin_stones.layout` (compiled copies in `layout`); how pieces move, and the
moves of each phase, in `moves`. A turn runs through four stages::

    ROLL1  (chance)   the dice of every suit in phase 1 are rolled together
    PLAY1  (player)   value moves and flips, then END (once every suit face is honoured)
    ROLL2  (chance)   the dice of the suits that were in phase 2 when the turn began
    PLAY2  (player)   their budgets are spent on stones and pawns, then END

A stage with no dice is skipped. `settle` decides the end: all four pawns home wins; a
resignation loses; a dead position (no suit in phase 1 and no stone or pawn able to step),
checked whenever phase-2 dice are about to be rolled, loses; so does the engine safeguard of
``max_turns`` turns.
"""

import numpy as np
from numba import njit

from ludoteca.core.playouts import NO_WINNER
from ludoteca.core.vector_kernels import random_below
from ludoteca.games.steppin_stones import layout as c
from ludoteca.games.steppin_stones.kernels import moves as m
from ludoteca.games.steppin_stones.kernels.layout import *  # noqa: F403 (the layout's names)

STRIDE, FLIP_BASE, END, RESIGN = c.STRIDE, c.FLIP_BASE, c.END, c.RESIGN
MAX_LEGAL = m.MAX_LEGAL
P_NUM_SQUARES, P_MAX_TURNS, P_HIGHEST, P_ACES_AS_STONES, NUM_PARAMS = (
    m.P_NUM_SQUARES,
    m.P_MAX_TURNS,
    m.P_HIGHEST,
    m.P_ACES_AS_STONES,
    m.NUM_PARAMS,
)

new_work = m.new_work
# kernels explain.py calls for the figures in its messages, from moves
shortest_cost = m.shortest_cost
highest_value = m.highest_value


# -- chance nodes ---------------------------------------------------------------------------------


@njit(cache=True)
def is_chance_node(s):
    """Whether dice are to be rolled."""
    return s[STAGE_AT] == ROLL1 or s[STAGE_AT] == ROLL2


@njit(cache=True)
def rolling_suits(s):
    """Bit mask of the suits whose dice are rolled at this chance node (0 elsewhere)."""
    mask = 0
    if not is_chance_node(s):
        return mask
    for suit in range(NUM_SUITS):
        rolls = m.in_phase_one(s, suit) if s[STAGE_AT] == ROLL1 else s[PHASE2_DIE_AT + suit] != 0
        if rolls:
            mask |= 1 << suit
    return mask


@njit(cache=True)
def _outcomes(s, out):
    """Every outcome of the roll, in increasing order (suit S is the most significant digit)."""
    mask = rolling_suits(s)
    count = 1
    for suit in range(NUM_SUITS):
        if mask & (1 << suit):
            count *= 6
    for i in range(count):
        rest, outcome = i, 0
        for suit in range(NUM_SUITS - 1, -1, -1):
            if mask & (1 << suit):
                outcome += outcome_digit(rest % 6, suit)
                rest //= 6
        out[i] = outcome
    return count


@njit(cache=True)
def _roll(s):
    """A random outcome of the roll at a chance node (each die fair and independent)."""
    mask = rolling_suits(s)
    outcome = 0
    for suit in range(NUM_SUITS):
        if mask & (1 << suit):
            outcome += outcome_digit(np.random.randint(6), suit)
    return outcome


# -- legal actions --------------------------------------------------------------------------------


@njit(cache=True)
def legal_actions_into(s, params, geo, work, out):
    """Write the legal actions (or outcomes) of an unfinished position into ``out``; count."""
    if is_chance_node(s):
        return _outcomes(s, out)
    if s[STAGE_AT] == PLAY1:
        return m.phase_one_actions(s, params, geo, work, out)
    return m.phase_two_actions(s, params, geo, work, out)


# -- why a move is refused ------------------------------------------------------------------------

# illegal_reason's ``piece``: a coin code (a value coin, a stone), or PAWN_PIECE + suit for a pawn;
# END_PIECE asks about ``end`` and FLIP_PIECE + coin code about turning that coin.
PAWN_PIECE = 100
FLIP_PIECE = 200
END_PIECE = -1

# illegal_reason codes: which rule refuses a well-formed move (explain.py words each for people)
LEGAL_MOVE = 0
WHY_DICE_FIRST = 1  # a move at a chance node
WHY_SUIT_FACE_FIRST = 2  # end while a suit face is not honoured
WHY_IN_HOLE = 3  # the destination is in the hole of the large board
WHY_FLIP_NOT_NOW = 4  # coins turn only in phase 1
WHY_ALREADY_STONE = 5  # the coin to turn shows no value any more
WHY_NO_SUIT_FACE = 6  # the suit's die does not show the suit face
WHY_FACE_HONOURED = 7  # the suit face has turned a coin already
WHY_NOT_HIGHEST = 8  # stones=highest: turn the highest coin of the suit
WHY_NULL_NEVER_MOVES = 9
WHY_COIN_NOT_NOW = 10  # value coins move only with the phase-1 dice
WHY_NO_SUCH_COIN = 11  # the coin named is not on the origin
WHY_NO_DIE_VALUE = 12  # no unused phase-1 die shows the coin's value
WHY_COIN_LANDS_ON_PIECE = 13  # a coin ends on an empty space
WHY_NO_COIN_PATH = 14  # no path of exactly the value's steps
WHY_NO_SUCH_STONE = 15
WHY_STONE_CARRIES_PAWN = 16
WHY_SUIT_IN_PHASE_ONE = 17
WHY_SUIT_HOME = 18
WHY_NOT_PHASE_TWO_NOW = 19  # stones and pawns move only in phase 2
WHY_NOT_A_PHASE_TWO_DIE = 20
WHY_NO_STEPS_LEFT = 21
WHY_STONE_LANDS_ON_PIECE = 22  # a stone ends on an empty space
WHY_TOO_FAR = 23  # the shortest path costs more than the die's budget
WHY_NO_STONE_PATH = 24
WHY_PAWN_HOME = 25
WHY_PAWN_ELSEWHERE = 26
WHY_NO_PAWN_PATH = 27


@njit(cache=True)
def _moving_piece(s, origin):
    """The piece a move from ``origin`` moves, as `illegal_reason` names it (-2 for none)."""
    if s[STAGE_AT] == PLAY2 and s[PAWN_AT + origin] != 0:
        return PAWN_PIECE + s[PAWN_AT + origin] - 1
    code = s[COIN_AT + origin]
    return code if code != 0 else -2


@njit(cache=True)
def _find_coin(s, params, code):
    for square in range(params[P_NUM_SQUARES]):
        if s[COIN_AT + square] == code:
            return square
    return -1


@njit(cache=True)
def _phase_two_problem(s, suit):
    if s[STAGE_AT] != PLAY2:
        return WHY_NOT_PHASE_TWO_NOW
    if s[PHASE2_DIE_AT + suit] == 0:
        return WHY_NOT_A_PHASE_TWO_DIE
    if s[BUDGET_AT + suit] == 0:
        return WHY_NO_STEPS_LEFT
    return LEGAL_MOVE


@njit(cache=True)
def _why_flip(s, params, code):
    suit = m.coin_suit(code)
    if s[STAGE_AT] != PLAY1:
        return WHY_FLIP_NOT_NOW
    if _find_coin(s, params, code) < 0:
        return WHY_ALREADY_STONE
    if s[FACE_AT + suit] != FACE_SUIT:
        return WHY_NO_SUIT_FACE
    if s[USED_AT + suit] != 0:
        return WHY_FACE_HONOURED
    return WHY_NOT_HIGHEST


@njit(cache=True)
def _why_coin(s, code, origin, destination):
    value = m.coin_value(code)
    if value == 0:
        return WHY_NULL_NEVER_MOVES
    if s[STAGE_AT] != PLAY1:
        return WHY_COIN_NOT_NOW
    if s[COIN_AT + origin] != code:
        return WHY_NO_SUCH_COIN
    has_die = False
    for suit in range(NUM_SUITS):
        if s[FACE_AT + suit] == value and s[USED_AT + suit] == 0:
            has_die = True
    if not has_die:
        return WHY_NO_DIE_VALUE
    if s[PAWN_AT + destination] != 0 or s[COIN_AT + destination] != 0:
        return WHY_COIN_LANDS_ON_PIECE
    return WHY_NO_COIN_PATH


@njit(cache=True)
def _why_phase_two(s, params, geo, suit, origin, destination, pawn_suit):
    problem = _phase_two_problem(s, suit)
    if problem != LEGAL_MOVE:
        return problem
    if pawn_suit < 0 and not m.is_empty(s, geo, destination):
        return WHY_STONE_LANDS_ON_PIECE
    cost = m.shortest_cost(s, params, geo, origin, destination, pawn_suit)
    if cost > s[BUDGET_AT + suit]:
        return WHY_TOO_FAR
    return WHY_NO_STONE_PATH if pawn_suit < 0 else WHY_NO_PAWN_PATH


@njit(cache=True)
def _why_stone(s, params, geo, suit, origin, destination):
    if s[COIN_AT + origin] != STONE_BASE + suit:
        return WHY_NO_SUCH_STONE
    if s[PAWN_AT + origin] != 0:
        return WHY_STONE_CARRIES_PAWN
    if m.is_retired(s, geo, suit):
        return WHY_SUIT_HOME
    if m.in_phase_one(s, suit):
        return WHY_SUIT_IN_PHASE_ONE
    return _why_phase_two(s, params, geo, suit, origin, destination, -1)


@njit(cache=True)
def _why_pawn(s, params, geo, suit, origin, destination):
    if m.is_retired(s, geo, suit):
        return WHY_PAWN_HOME
    if s[PAWN_SQUARE_AT + suit] != origin:
        return WHY_PAWN_ELSEWHERE
    if m.in_phase_one(s, suit):
        return WHY_SUIT_IN_PHASE_ONE
    return _why_phase_two(s, params, geo, suit, origin, destination, suit)


@njit(cache=True)
def illegal_reason(s, params, geo, piece, origin, destination):
    """Which rule refuses moving ``piece`` from ``origin`` to ``destination`` in ``s``.

    ``piece`` is a coin code, ``PAWN_PIECE + suit``, ``FLIP_PIECE + coin code`` (the squares are
    then ignored) or ``END_PIECE``. The move is legal exactly when `legal_actions` lists its
    action and the action moves that piece; otherwise the first rule it breaks is found with the
    kernels that build the legal moves. Returns a ``WHY_*`` code, or `LEGAL_MOVE`.
    """
    if is_chance_node(s):
        return WHY_DICE_FIRST
    if piece == END_PIECE:
        action = END
    elif piece >= FLIP_PIECE:
        square = _find_coin(s, params, piece - FLIP_PIECE)
        action = FLIP_BASE + square if square >= 0 else -1
    else:
        moves_it = _moving_piece(s, origin) == piece
        action = origin * STRIDE + destination if moves_it else -1
    if action >= 0:
        out = np.empty(MAX_LEGAL, dtype=np.int64)
        n = legal_actions_into(s, params, geo, new_work(), out)
        for i in range(n):
            if out[i] == action:
                return LEGAL_MOVE
    if piece == END_PIECE:
        return WHY_SUIT_FACE_FIRST
    if piece >= FLIP_PIECE:
        return _why_flip(s, params, piece - FLIP_PIECE)
    if geo[destination, m.HOLE_COLUMN] != 0:
        return WHY_IN_HOLE
    if piece >= PAWN_PIECE:
        return _why_pawn(s, params, geo, piece - PAWN_PIECE, origin, destination)
    if m.is_value_coin(piece):
        return _why_coin(s, piece, origin, destination)
    return _why_stone(s, params, geo, m.coin_suit(piece), origin, destination)


# -- the turn -------------------------------------------------------------------------------------


@njit(cache=True)
def _finish(s, status, reason):
    s[STATUS_AT] = status
    s[REASON_AT] = reason


@njit(cache=True)
def settle(s, params, geo):
    """Recount the value coins and set the status and reason from the rest of the array."""
    m.count_value_coins(s, params)
    _finish(s, ONGOING, NO_REASON)
    home = 0
    for suit in range(NUM_SUITS):
        if m.is_retired(s, geo, suit):
            home += 1
    if home == NUM_SUITS:
        _finish(s, WON, ALL_HOME)
    elif s[RESIGNED_AT] != 0:
        _finish(s, LOST, RESIGNED)
    elif (
        s[STAGE_AT] == ROLL2
        and not m.any_phase_one(s)
        and not m.has_a_piece_that_can_move(s, params, geo)
    ):
        _finish(s, LOST, DEAD)
    elif s[TURNS_AT] >= params[P_MAX_TURNS]:
        _finish(s, LOST, TURN_CAP)


@njit(cache=True)
def start_turn(s, geo):
    """Clear the dice and decide which suits roll in phase 1 and which in phase 2."""
    for suit in range(NUM_SUITS):
        s[FACE_AT + suit] = NO_FACE
        s[USED_AT + suit] = 0
        s[BUDGET_AT + suit] = 0
        in_play = not m.is_retired(s, geo, suit)
        s[PHASE2_DIE_AT + suit] = 1 if in_play and not m.in_phase_one(s, suit) else 0
    s[STAGE_AT] = ROLL1 if m.any_phase_one(s) else ROLL2


@njit(cache=True)
def _end_turn(s, geo):
    s[TURNS_AT] += 1
    start_turn(s, geo)


@njit(cache=True)
def _end_phase_one(s, geo):
    """The phase-2 dice are rolled next, if this turn has any; otherwise the turn ends."""
    any_phase_two = False
    for suit in range(NUM_SUITS):
        s[FACE_AT + suit] = NO_FACE
        s[USED_AT + suit] = 0
        if s[PHASE2_DIE_AT + suit] != 0:
            any_phase_two = True
    if any_phase_two:
        s[STAGE_AT] = ROLL2
    else:
        _end_turn(s, geo)


@njit(cache=True)
def _use_value_die(s, value):
    """Mark the first unused phase-1 die showing ``value`` (in suit order) as used."""
    for suit in range(NUM_SUITS):
        if s[FACE_AT + suit] == value and s[USED_AT + suit] == 0:
            s[USED_AT + suit] = 1
            return


@njit(cache=True)
def _move_pawn(s, geo, suit, origin, destination):
    s[PAWN_AT + origin] = 0
    s[PAWN_AT + destination] = suit + 1
    s[PAWN_SQUARE_AT + suit] = destination
    if m.is_retired(s, geo, suit):  # home: its die leaves play, with whatever budget it had
        s[PHASE2_DIE_AT + suit] = 0
        s[BUDGET_AT + suit] = 0


@njit(cache=True)
def _apply_roll(s, outcome):
    stage = s[STAGE_AT]
    mask = rolling_suits(s)
    for suit in range(NUM_SUITS):
        if mask & (1 << suit):
            face = outcome_face(outcome, suit)
            if stage == ROLL1:
                s[FACE_AT + suit] = face
            else:
                s[BUDGET_AT + suit] = phase_two_budget(face)
    s[STAGE_AT] = PLAY1 if stage == ROLL1 else PLAY2


@njit(cache=True)
def _apply_move(s, origin, destination, params, geo, work):
    if s[STAGE_AT] == PLAY1:  # a value move: exactly as many steps as the coin's value
        _use_value_die(s, m.coin_value(s[COIN_AT + origin]))
        s[COIN_AT + destination] = s[COIN_AT + origin]
        s[COIN_AT + origin] = 0
        return
    pawn_suit = s[PAWN_AT + origin] - 1  # -1: a stone moves
    suit = pawn_suit if pawn_suit >= 0 else m.coin_suit(s[COIN_AT + origin])
    budget = s[BUDGET_AT + suit]
    cost = m.path_cost(s, params, geo, origin, destination, budget, pawn_suit, work)
    _phase_two_move(s, geo, origin, destination, pawn_suit, suit, cost)


@njit(cache=True)
def _phase_two_move(s, geo, origin, destination, pawn_suit, suit, cost):
    """Move ``suit``'s pawn (``pawn_suit`` >= 0) or stone, paying ``cost`` from its budget."""
    s[BUDGET_AT + suit] -= cost
    if pawn_suit >= 0:
        _move_pawn(s, geo, suit, origin, destination)
    else:
        s[COIN_AT + destination] = s[COIN_AT + origin]
        s[COIN_AT + origin] = 0


@njit(cache=True)
def apply_action_inplace(s, action, params, geo, work):
    """Play a legal ``action`` (or chance outcome) on ``s`` in place and settle the result."""
    if action == RESIGN:
        s[RESIGNED_AT] = 1
    elif is_chance_node(s):
        _apply_roll(s, action)
    elif action == END:
        if s[STAGE_AT] == PLAY1:
            _end_phase_one(s, geo)
        else:
            _end_turn(s, geo)
    elif action >= FLIP_BASE:
        square = action - FLIP_BASE
        suit = m.coin_suit(s[COIN_AT + square])
        s[COIN_AT + square] = STONE_BASE + suit
        s[USED_AT + suit] = 1
    else:
        _apply_move(s, action // STRIDE, action % STRIDE, params, geo, work)
    settle(s, params, geo)


@njit(cache=True)
def settled(s, params, geo):
    """A copy of ``s`` with the derived counts, status and reason set (after parsing)."""
    t = s.copy()
    settle(t, params, geo)
    return t


@njit(cache=True)
def started(s, params, geo):
    """A copy of ``s`` at the start of a turn (dice cleared), settled."""
    t = s.copy()
    m.count_value_coins(t, params)
    start_turn(t, geo)
    settle(t, params, geo)
    return t


# -- the contract's primitives (docs/kernels.md): the rest is generated into kernels/__init__.py

CONTRACT = {"args": ("params", "geo"), "chance": True}
LEGAL_BUFFER = MAX_LEGAL


@njit(cache=True, inline="always")
def new_scratch(params, geo):
    """The path searches' work space (`moves.new_work`)."""
    return new_work()


DEVICE_WORK = m.WORK_SIZE  # the words of a GPU thread's workspace (ludoteca.rl.gpu)


@njit(cache=True, inline="always")
def device_scratch(work, params, geo):
    """`new_scratch` over ``work`` (`DEVICE_WORK` words): a GPU thread's workspace."""
    return m.clear_work(work)


@njit(cache=True, inline="always")
def is_over(s):
    """Whether the game is over."""
    return s[STATUS_AT] != ONGOING


@njit(cache=True, inline="always")
def is_chance(s):
    """`is_chance_node`: dice are to be rolled."""
    return is_chance_node(s)


@njit(cache=True, inline="always")
def mover(s):
    """The one player."""
    return 0


@njit(cache=True)
def winner(s):
    """0 for a won game; a lost one has no winner."""
    return 0 if s[STATUS_AT] == WON else NO_WINNER


@njit(cache=True, inline="always")
def safeguard_ended(s):
    """Whether the ``max_turns`` safeguard ended the game."""
    return s[REASON_AT] == TURN_CAP


@njit(cache=True, inline="always")
def legal_into(s, params, geo, scratch, out):
    """`legal_actions_into` with the work space."""
    return legal_actions_into(s, params, geo, scratch, out)


@njit(cache=True, inline="always")
def play(s, params, geo, action, scratch):
    """`apply_action_inplace` with the work space."""
    apply_action_inplace(s, action, params, geo, scratch)


@njit(cache=True, inline="always")
def draw_outcome(s, params, geo, rng, row):
    """The roll of the dice due, each fair, from game ``row``'s generator.

    A turn may roll twice: the phase-1 dice, then (after ``end``) the phase-2 dice.
    """
    mask = rolling_suits(s)
    outcome = 0
    for suit in range(NUM_SUITS):
        if mask & (1 << suit):
            outcome += outcome_digit(random_below(rng, row, 6), suit)
    return outcome
