"""Where everything stands: the board, the home tiles, and the start squares for each option.

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

import numpy as np
import numpy.typing as npt

from ludoteca.core.grids import square_names

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
MAX_SQUARES = 100  # the large board; the array layout is the same for both boards


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
def layout(large_board: bool, aces: int) -> Layout:
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
