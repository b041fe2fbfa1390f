"""The board and the position array of Steppin' Stones, as Python code and the kernels read them.

**The array.** The position array, the coin codes and the action codec, in one place. The
kernels (`kernels.moves`, `kernels`) compile the small functions below with numba, and the
Python side (notation, position text, the view) calls them as they are, so both read the array
the same way.

Board indexing: ``square = rank0 * size + file0`` (size 8, or 10 on the large board)::

    rank 8 | 56 57 58 59 60 61 62 63
     ...   |
    rank 1 |  0  1  2  3  4  5  6  7
             a  b  c  d  e  f  g  h

The position array (``int32``), by offset:

- ``COIN_AT + square`` (100 slots): 0 for no coin; a coin showing its value is
  ``1 + suit * 6 + value`` (value 0 for the null, 2-5); a stepping stone (a coin turned to its
  suit side) is ``STONE_BASE + suit``; an ace of the ``aces`` variant is ``ACE_BASE + suit``.
  Stones of one suit are interchangeable, so a stone does not remember its value.
- ``PAWN_AT + square`` (100 slots): 0, or the suit + 1 of the pawn standing there (on a bare
  space, on a stone of its own suit, or on an ace).
- ``PAWN_SQUARE_AT + suit``: each pawn's square.
- ``VALUE_LEFT_AT + suit``: coins of the suit still showing their value (derived from the board,
  kept for speed; a suit with none left is in phase 2).
- ``TURNS_AT``: turns completed. ``STAGE_AT``: ``ROLL1`` (the phase-1 dice are to be rolled),
  ``PLAY1`` (their results are being used), ``ROLL2`` (the phase-2 dice are to be rolled) or
  ``PLAY2`` (their budgets are being spent).
- ``FACE_AT + suit``: the suit's phase-1 die this turn (``NO_FACE``, or ``FACE_NULL``,
  ``FACE_SUIT`` for the suit face ``*``, 2-5); ``USED_AT + suit``: whether it has been used.
- ``PHASE2_DIE_AT + suit``: whether the suit's die is a phase-2 die this turn;
  ``BUDGET_AT + suit``: the steps it has left.
- ``RESIGNED_AT``, ``STATUS_AT`` and ``REASON_AT``.

Action codec::

    action = origin * STRIDE + destination   # move a coin, a stone or a pawn
    action = FLIP_BASE + square              # turn the coin on square to its suit side
    action = END                             # finish this part of the turn
    action = RESIGN                          # give up (accepted at any time, never listed)

At a chance node the outcomes are numbered by the faces rolled, one base-6 digit per suit in
suit order S M C A, the digits of the suits that do not roll being 0::

    outcome = face_S * 216 + face_M * 36 + face_C * 6 + face_A     # 0 <= outcome < 1296

**Where everything stands**: the board, the home tiles, and the start squares for each option.
Both boards are built the same way from the corner of each suit's home tile. Counting ``across``
from the board edge the home tile touches on its side, and ``in`` from the top or bottom edge it
touches, every suit's pieces stand at the same offsets (the Moons are the Suns mirrored left to
right, the Crowns are the Moons mirrored top to bottom, and so on)::

    in / across    0     1     2
       0        home  home  coin 5
       1        home  home  coin 4
       2        coin 3 coin 2 coin 0
       3        .     ace   .          <- the ace (option ``aces``) stands beyond the 2 coin

The Suns' home tile is top left, the Moons' top right, the Crowns' bottom right and the Arms'
bottom left. Each pawn starts on the central square farthest from its home tile, so on the 8x8
board the Sun pawn is on e4, the Moon pawn on d4, the Crown pawn on d5 and the Arms pawn on e5.
The large board (10x10, option ``large_board``) has no tile in its centre: its four central
spaces e5, f5, e6 and f6 are a hole, where the pawns start and where nothing else may ever go.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ludoteca.core.grids import square_names

if TYPE_CHECKING:
    from ludoteca.core.kernels import Cells


NUM_SUITS = 4
MAX_SQUARES = 100  # the large board; the array layout is the same for both boards

# -- the position array ---------------------------------------------------------------------------
COIN_AT = 0
PAWN_AT = 100
PAWN_SQUARE_AT = 200
VALUE_LEFT_AT = 204
TURNS_AT = 208
STAGE_AT = 209
FACE_AT = 210
USED_AT = 214
PHASE2_DIE_AT = 218
BUDGET_AT = 222
RESIGNED_AT = 226
STATUS_AT = 227
REASON_AT = 228
CELLS_SIZE = 229

# STAGE values
ROLL1, PLAY1, ROLL2, PLAY2 = 0, 1, 2, 3
# STATUS values
ONGOING, WON, LOST = 0, 1, 2
# REASON values
NO_REASON, ALL_HOME, DEAD, RESIGNED, TURN_CAP = 0, 1, 2, 3, 4

# a suit's phase (`SteppinStonesState.phase`)
RETIRED, PHASE_ONE, PHASE_TWO = 0, 1, 2

# die faces (2..5 are the values)
NO_FACE, FACE_NULL, FACE_SUIT = -1, 0, 1

# -- coin codes -----------------------------------------------------------------------------------
STONE_BASE = 25
ACE_BASE = 29
NEVER_PASSED = 1000  # what an ace counts for when passed over: nothing may pass it


def value_coin(suit: int, value: int) -> int:
    """The code of the coin of ``suit`` showing ``value`` (0 for the null, 2-5)."""
    return 1 + suit * 6 + value


def is_value_coin(code: int) -> bool:
    """Whether ``code`` is a coin showing its value (not a stone, an ace or nothing)."""
    return 1 <= code < STONE_BASE


def is_stone(code: int) -> bool:
    """Whether ``code`` is a stepping stone."""
    return STONE_BASE <= code < ACE_BASE


def is_ace(code: int) -> bool:
    """Whether ``code`` is an ace of the ``aces`` variant."""
    return code >= ACE_BASE


def coin_suit(code: int) -> int:
    """The suit of a coin, stone or ace."""
    if code >= ACE_BASE:
        return code - ACE_BASE
    if code >= STONE_BASE:
        return code - STONE_BASE
    return (code - 1) // 6


def coin_value(code: int) -> int:
    """The value shown by a value-side coin (0 for the null, 2-5)."""
    return (code - 1) % 6


def passing_rank(code: int) -> int:
    """What a coin counts for when another passes over it: its value; a stone 1; an ace never."""
    if code >= ACE_BASE:
        return NEVER_PASSED
    if code >= STONE_BASE:
        return 1
    return (code - 1) % 6


# -- actions --------------------------------------------------------------------------------------
STRIDE = 100
FLIP_BASE = STRIDE * MAX_SQUARES
END = FLIP_BASE + MAX_SQUARES
RESIGN = END + 1
NUM_ACTIONS = RESIGN + 1
NUM_OUTCOMES = 6**NUM_SUITS
SUIT_PLACE = (216, 36, 6, 1)  # the weight of each suit's digit in a chance outcome


def move_action(origin: int, destination: int) -> int:
    """The action that moves the piece on ``origin`` to ``destination``."""
    return origin * STRIDE + destination


def outcome_face(outcome: int, suit: int) -> int:
    """The face shown by ``suit``'s die in the chance outcome ``outcome``."""
    return (outcome // SUIT_PLACE[suit]) % 6


def outcome_digit(face: int, suit: int) -> int:
    """The part of a chance outcome that says ``suit``'s die shows ``face``."""
    return face * SUIT_PLACE[suit]


def phase_two_budget(face: int) -> int:
    """Steps a phase-2 die gives: the null 1, the suit face 6, a value its value."""
    if face == FACE_NULL:
        return 1
    if face == FACE_SUIT:
        return 6
    return face


# -- Named accessors ------------------------------------------------------------------------------
# The layout read and written by name: code outside the kernels (notation, position text, the
# state, the view, the planner) calls these instead of doing arithmetic on the ``*_AT`` offsets.
# A region comes back as a view of ``s`` (read-only when ``s`` is). `kernels` compiles the ones
# that compiled code outside the kernels calls.


def coin_cells(s: Cells) -> Cells:
    """The coin code on every square (``MAX_SQUARES`` of them, 0 for none): a view."""
    return s[COIN_AT : COIN_AT + MAX_SQUARES]


def coin_cell(s: Cells, square: int) -> int:
    """The coin code on ``square`` (0 for none)."""
    return int(s[COIN_AT + square])


def set_coin_cell(s: Cells, square: int, code: int) -> None:
    """Put the coin ``code`` (0 for none) on ``square``."""
    s[COIN_AT + square] = code


def pawn_cells(s: Cells) -> Cells:
    """The pawn on every square (``MAX_SQUARES`` of them): 0, or its suit + 1: a view."""
    return s[PAWN_AT : PAWN_AT + MAX_SQUARES]


def pawn_cell(s: Cells, square: int) -> int:
    """The pawn on ``square``: 0, or its suit + 1."""
    return int(s[PAWN_AT + square])


def pawn_square(s: Cells, suit: int) -> int:
    """The square of ``suit``'s pawn."""
    return int(s[PAWN_SQUARE_AT + suit])


def place_pawn(s: Cells, suit: int, square: int) -> None:
    """Stand ``suit``'s pawn on ``square`` (an empty pawn cell; the old one is left alone)."""
    s[PAWN_AT + square] = suit + 1
    s[PAWN_SQUARE_AT + suit] = square


def value_coins_left(s: Cells, suit: int) -> int:
    """Coins of ``suit`` still showing their value (none left: the suit is in phase 2)."""
    return int(s[VALUE_LEFT_AT + suit])


def die_face(s: Cells, suit: int) -> int:
    """``suit``'s phase-1 die this turn: ``NO_FACE``, ``FACE_NULL``, ``FACE_SUIT`` or 2-5."""
    return int(s[FACE_AT + suit])


def set_die_face(s: Cells, suit: int, face: int) -> None:
    """Set ``suit``'s phase-1 die this turn."""
    s[FACE_AT + suit] = face


def die_used(s: Cells, suit: int) -> bool:
    """Whether ``suit``'s phase-1 die has been used this turn."""
    return bool(s[USED_AT + suit] != 0)


def set_die_used(s: Cells, suit: int, used: bool) -> None:
    """Mark ``suit``'s phase-1 die used (or not)."""
    s[USED_AT + suit] = 1 if used else 0


def phase_two_die(s: Cells, suit: int) -> bool:
    """Whether ``suit``'s die is a phase-2 die this turn."""
    return bool(s[PHASE2_DIE_AT + suit] != 0)


def set_phase_two_die(s: Cells, suit: int, is_phase_two: bool) -> None:
    """Make ``suit``'s die a phase-2 die this turn (or not)."""
    s[PHASE2_DIE_AT + suit] = 1 if is_phase_two else 0


def budget_left(s: Cells, suit: int) -> int:
    """Steps left on ``suit``'s phase-2 die."""
    return int(s[BUDGET_AT + suit])


def set_budget_left(s: Cells, suit: int, steps: int) -> None:
    """Set the steps left on ``suit``'s phase-2 die."""
    s[BUDGET_AT + suit] = steps


SUITS = "SMCA"
SUIT_NAMES = ("Suns", "Moons", "Crowns", "Arms")
SUIT_NAME = ("Sun", "Moon", "Crown", "Arms")
COIN_VALUES = (0, 2, 3, 4, 5)

# Offsets (across, in) from the corner of the suit's home tile.
COIN_OFFSETS = {0: (2, 2), 2: (1, 2), 3: (0, 2), 4: (2, 1), 5: (2, 0)}
HOME_OFFSETS = ((0, 0), (1, 0), (0, 1), (1, 1))
ACE_OFFSET = (1, 3)

# Which suits' aces are placed for each value of the option ``aces``: with two, the Suns' and
# the Crowns', whose home tiles are diagonally opposite, so the board stays balanced.
ACE_SUITS = {0: (), 2: (0, 2), 4: (0, 1, 2, 3)}

# Geometry table columns (see `Layout.geometry`).
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
HOME_COLUMN = 4
HOLE_COLUMN = 5
GEOMETRY_COLUMNS = 6


@dataclass(frozen=True, eq=False)
class Layout:
    """The board and the start squares for one choice of the options ``large_board`` and ``aces``.

    Attributes:
        size: Files and ranks (8, or 10 for the large board).
        home: Per suit, the four squares of its home tile.
        hole: The squares of the central hole (large board only; empty otherwise).
        coin_start: Per suit, value -> start square of the coin.
        pawn_start: Per suit, the pawn's start square.
        aces: Suit -> the square of its ace, for the suits whose aces are placed.
    """

    size: int
    home: tuple[tuple[int, ...], ...]
    hole: tuple[int, ...]
    coin_start: tuple[dict[int, int], ...]
    pawn_start: tuple[int, ...]
    aces: dict[int, int]

    @property
    def num_squares(self) -> int:
        """Squares on the board, hole included."""
        return self.size * self.size

    def name(self, square: int) -> str:
        """The name of ``square``, e.g. ``"b6"``."""
        return self.names[square]

    @cached_property
    def names(self) -> tuple[str, ...]:
        """Every square's name, by index."""
        return square_names(self.size, self.size)

    @cached_property
    def home_of(self) -> tuple[int | None, ...]:
        """For each square, the suit whose home tile holds it, or ``None``."""
        owner: list[int | None] = [None] * self.num_squares
        for suit, squares in enumerate(self.home):
            for square in squares:
                owner[square] = suit
        return tuple(owner)

    @cached_property
    def hole_set(self) -> frozenset[int]:
        """The squares of the hole, as a set."""
        return frozenset(self.hole)

    def home_suit(self, square: int) -> int | None:
        """The suit whose home tile ``square`` belongs to, if any."""
        return self.home_of[square]

    def geometry(self) -> npt.NDArray[np.int64]:
        """The table the kernels read, one row per square (``MAX_SQUARES`` rows).

        Columns 0-3: the orthogonal neighbour to the north, east, south and west (-1 off the
        board); column 4: the suit whose home tile holds the square (-1 for none); column 5: 1
        for a square of the central hole.
        """
        table = np.full((MAX_SQUARES, GEOMETRY_COLUMNS), -1, dtype=np.int64)
        table[:, HOLE_COLUMN] = 0
        steps = ((0, 1), (1, 0), (0, -1), (-1, 0))
        for square in range(self.num_squares):
            rank, file = divmod(square, self.size)
            for direction, (df, dr) in enumerate(steps):
                if 0 <= file + df < self.size and 0 <= rank + dr < self.size:
                    table[square, direction] = (rank + dr) * self.size + file + df
            suit = self.home_suit(square)
            table[square, HOME_COLUMN] = -1 if suit is None else suit
            table[square, HOLE_COLUMN] = int(square in self.hole)
        table.flags.writeable = False
        return table


def _square(size: int, suit: int, across: int, inward: int) -> int:
    """The square at (across, in) from the corner of ``suit``'s home tile."""
    left = suit in (0, 3)  # Suns and Arms sit on the left edge
    top = suit in (0, 1)  # Suns and Moons on the top edge
    file = across if left else size - 1 - across
    rank = size - 1 - inward if top else inward
    return rank * size + file


@cache
def board_layout(large_board: bool, aces: int) -> Layout:
    """The layout for the options ``large_board`` and ``aces`` (0, 2 or 4)."""
    size = 10 if large_board else 8
    half = size // 2
    home = tuple(tuple(_square(size, s, a, i) for a, i in HOME_OFFSETS) for s in range(4))
    coin_start = tuple(
        {value: _square(size, s, a, i) for value, (a, i) in COIN_OFFSETS.items()} for s in range(4)
    )
    pawn_start = tuple(_square(size, s, half, half) for s in range(4))
    hole: tuple[int, ...] = ()
    if large_board:
        hole = tuple(sorted(r * size + f for r in (half - 1, half) for f in (half - 1, half)))
    ace_squares = {s: _square(size, s, *ACE_OFFSET) for s in ACE_SUITS[aces]}
    return Layout(size, home, hole, coin_start, pawn_start, ace_squares)
