"""Square names on rectangular boards.

Files are letters ``a, b, c, ...`` from left to right and ranks are numbers ``1, 2, ...`` from
bottom to top, as seen by player 0. A square's index is ``(rank - 1) * width + (file - 1)``, so
``a1`` is 0 and the index grows along each rank first.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"

SQUARE_PATTERN = r"[a-z][1-9][0-9]?"
"""A regular expression (as text) for one square name, for use inside move syntax patterns."""

_SQUARE = re.compile(r"([a-z])([1-9][0-9]?)")


@lru_cache(maxsize=4096)  # drawing a board names each square several times
def square_name(index: int, width: int) -> str:
    """The name of square ``index`` on a board ``width`` files wide, e.g. 0 -> ``"a1"``."""
    rank, file = divmod(int(index), width)
    return f"{FILE_LETTERS[file]}{rank + 1}"


def parse_square(text: str, width: int, height: int) -> int | None:
    """The index of the square named ``text``, or ``None`` if it is not on the board."""
    match = _SQUARE.fullmatch(text)
    if match is None:
        return None
    file = FILE_LETTERS.index(match.group(1))
    rank = int(match.group(2)) - 1
    if file >= width or rank >= height:
        return None
    return rank * width + file


@cache
def square_names(width: int, height: int) -> tuple[str, ...]:
    """All square names of a board, by index."""
    return tuple(square_name(i, width) for i in range(width * height))
