"""Splinter positions written as board diagrams, for tests a reviewer can check by eye.

A diagram is one line per rank, the top rank first, each an optional rank number and then one
cell per file separated by spaces: ``.`` for an empty square, or a piece letter (``S`` square,
``X`` cross, ``O`` circle; upper case Blue, lower case Red). Blank lines around it are ignored::

    10 . . . . . . . . .
     9 . . . S x . . . .
     ...
     1 . . . . . . . . .

`position` turns a diagram into the position text that ``game.parse_state`` reads. It checks only
the diagram's shape; the parser checks everything else.
"""

from __future__ import annotations

FILES = "abcdefghijklmnopqrstuvwxy"


def board_text(diagram: str) -> str:
    """The ``<ranks>`` field of the position text for ``diagram``."""
    lines = [line.split() for line in diagram.strip().splitlines() if line.strip()]
    widths = {len(cells) - (cells[0].isdigit()) for cells in lines}
    if len(widths) != 1:
        raise ValueError(f"every rank needs the same number of cells; got {sorted(widths)}")
    ranks = []
    for number, cells in zip(range(len(lines), 0, -1), lines, strict=True):
        if cells[0].isdigit():
            label, *cells = cells
            if label != str(number):
                raise ValueError(f"rank {number} is labelled {label!r}")
        items: list[str] = []
        empty = 0
        for cell in cells:
            if cell == ".":
                empty += 1
                continue
            if empty:
                items.append(str(empty))
                empty = 0
            items.append(cell)
        if empty:
            items.append(str(empty))
        ranks.append("".join(items))
    return "/".join(ranks)


def position(diagram: str, ply: int = 0, record: str = "-", *, first: int = 0) -> str:
    """Position text for ``diagram`` after ``ply`` turns (whose turn follows from ``first``).

    Args:
        diagram: The board, as described in the module docstring.
        ply: Turns played; with ``first=0`` Blue moves on even counts.
        record: The no-return record, e.g. ``"N:e5,e6"`` (``"-"``: nothing restricted).
        first: The side that moved first (the game's ``first`` option).
    """
    return f"{board_text(diagram)} {'br'[(first + ply) % 2]} {ply} {record}"
