"""Splinter's start position as data: the board size and the piece-type layout.

Both are Ludoteca's readings, not the designer's: his diagram of the start is not available to
us. They are options, so another reading needs no code: ``size`` (default ``"15x18"``) and
``layout`` (default ``"OOO/XX/OSO/XS/OXO/OO"``).

The start is a solid block of 5 files by 6 ranks in the middle of the board, coloured like a
checkerboard. With block offsets ``c = 0..4`` (files f-j on the default board) and ``r = 0..5``
(ranks 7-12), Blue holds the cells with ``c + r`` even and Red those with ``c + r`` odd. The
layout names the type of each of Blue's 15 cells, row by row from ``r = 0`` (Blue's side of the
block) to ``r = 5``, left to right, rows separated by ``/``: ``S`` square, ``X`` cross,
``O`` circle. Red's pieces are Blue's turned through 180° about the block's centre,
``(c, r) -> (4 - c, 5 - r)``. The default, drawn with Red in lower case (rank 12 at the top)::

    12  o O o O o
    11  O x X x O
    10  o X s S o
     9  O s S x O
     8  o X x X o
     7  O o O o O
        f g h i j
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ludoteca.core.options import OptionSpec, OptionValue
from ludoteca.games.splinter.kernels import DIRECTION_STEPS, FILE_COL, NUM_DIRECTIONS, RANK_COL

BLOCK_FILES, BLOCK_RANKS = 5, 6
MIN_WIDTH, MAX_WIDTH = BLOCK_FILES, 25
MIN_HEIGHT, MAX_HEIGHT = BLOCK_RANKS, 26
DEFAULT_SIZE = "15x18"
DEFAULT_LAYOUT = "OOO/XX/OSO/XS/OXO/OO"
TYPE_LETTERS = "SXO"  # square, cross, circle (the kernels' SQUARE, CROSS, CIRCLE)
TYPE_NAMES = ("square", "cross", "circle")
TYPE_PLURALS = ("squares", "crosses", "circles")
PIECES_OF_EACH_TYPE = (2, 4, 9)

SIZE_FORM = (
    "files x ranks, such as 15x18: an odd number of files from 5 to 25 and an even number of "
    "ranks from 6 to 26 (so that the 5x6 start block sits exactly in the middle)"
)
LAYOUT_FORM = (
    "Blue's 15 start cells row by row from its own side, rows of 3/2/3/2/3/2 letters separated "
    "by / (S square, X cross, O circle), with 2 squares, 4 crosses and 9 circles, "
    f"such as {DEFAULT_LAYOUT}"
)

_SIZE = re.compile(r"([0-9]{1,2})x([0-9]{1,2})")


def read_size(text: str) -> str | None:
    """The canonical form (``"15x18"``) of a board size, or ``None`` if it is not accepted."""
    match = _SIZE.fullmatch("".join(text.split()).lower())
    if match is None:
        return None
    width, height = int(match.group(1)), int(match.group(2))
    if not (MIN_WIDTH <= width <= MAX_WIDTH and width % 2 == 1):
        return None
    if not (MIN_HEIGHT <= height <= MAX_HEIGHT and height % 2 == 0):
        return None
    return f"{width}x{height}"


def size_of(size: str) -> tuple[int, int]:
    """Files and ranks of an accepted size, e.g. ``"15x18"`` -> ``(15, 18)``."""
    width, _, height = size.partition("x")
    return int(width), int(height)


def blue_cells() -> list[tuple[int, int]]:
    """Blue's cells in the block, ``(c, r)``, in the order the layout text lists them."""
    return [(c, r) for r in range(BLOCK_RANKS) for c in range(BLOCK_FILES) if (c + r) % 2 == 0]


def read_layout(text: str) -> str | None:
    """The canonical form of a piece-type layout (upper case), or ``None`` if not accepted."""
    canonical = "".join(text.split()).upper()
    rows = canonical.split("/")
    expected = [len([c for c in range(BLOCK_FILES) if (c + r) % 2 == 0]) for r in range(6)]
    if [len(row) for row in rows] != expected or set("".join(rows)) - set(TYPE_LETTERS):
        return None
    letters = "".join(rows)
    if tuple(letters.count(letter) for letter in TYPE_LETTERS) != PIECES_OF_EACH_TYPE:
        return None
    return canonical


def start_pieces(width: int, height: int, layout: str) -> list[tuple[int, int, int]]:
    """Every piece of the start position as ``(square, side, type)``; side 0 Blue, 1 Red."""
    first_file = (width - BLOCK_FILES) // 2
    first_rank = (height - BLOCK_RANKS) // 2
    kinds = [TYPE_LETTERS.index(letter) for letter in layout.replace("/", "")]
    pieces = []
    for (c, r), kind in zip(blue_cells(), kinds, strict=True):
        for side, (cc, rr) in ((0, (c, r)), (1, (BLOCK_FILES - 1 - c, BLOCK_RANKS - 1 - r))):
            pieces.append(((first_rank + rr) * width + first_file + cc, side, kind))
    return sorted(pieces)


def neighbour_table(width: int, height: int) -> npt.NDArray[np.int64]:
    """The board geometry the kernels read (read-only).

    ``nbr[square, direction]`` is the neighbouring square in that direction or -1 beyond the
    edge; columns ``RANK_COL`` and ``FILE_COL`` hold the square's rank and file.
    """
    nbr = np.full((width * height, NUM_DIRECTIONS + 2), -1, dtype=np.int64)
    for square in range(width * height):
        rank, file = divmod(square, width)
        nbr[square, RANK_COL] = rank
        nbr[square, FILE_COL] = file
        for direction, (df, dr) in enumerate(DIRECTION_STEPS):
            if 0 <= file + df < width and 0 <= rank + dr < height:
                nbr[square, direction] = (rank + dr) * width + file + df
    nbr.flags.writeable = False
    return nbr


def count_groups(occupied: set[int], nbr: npt.NDArray[np.int64]) -> int:
    """How many groups (touching through sides and corners) the ``occupied`` squares form."""
    left = set(occupied)
    groups = 0
    while left:
        groups += 1
        todo = [left.pop()]
        while todo:
            square = todo.pop()
            for neighbour in nbr[square, :NUM_DIRECTIONS]:
                if int(neighbour) in left:
                    left.remove(int(neighbour))
                    todo.append(int(neighbour))
    return groups


def _refuse_all(text: str) -> str | None:
    return None


@dataclass(frozen=True, slots=True)
class TextOptionSpec(OptionSpec):
    """An option whose value is text of a particular form, checked by ``reader``.

    Core's `OptionSpec` reads integers, booleans and fixed lists of choices; a board size or a
    layout is neither, so this subclass checks the text and keeps it in canonical form.

    Attributes:
        form: The accepted values, in words (shown when a value is refused).
        reader: Returns the canonical text of an accepted value, or ``None``.
    """

    form: str = ""
    reader: Callable[[str], str | None] = _refuse_all

    @property
    def accepted(self) -> str:
        """The accepted values, in words."""
        return self.form

    def coerce(self, value: Any) -> OptionValue:
        """Return ``value`` in canonical form.

        Raises:
            InvalidOptionError: The value is not accepted; the message says what is.
        """
        canonical = self.reader(value) if isinstance(value, str) else None
        if canonical is None:
            raise self._refuse(value)
        return canonical
