"""Salta positions written as board diagrams, for tests a reviewer can check by eye.

A diagram is ten lines, rank 10 at the top, each an optional rank number and then ten cells
separated by spaces: ``.`` for an empty square, or a piece token (``S1`` Green Star 1, ``m3`` Red
Moon 3, ``O5`` Green Sun 5; upper case Green, lower case Red), or in the played scoring phase two
tokens sharing a square (``S1+s3``). Blank lines around the diagram are ignored::

    10 .  s5 .  s4 .  s3 .  s2 .  s1
     9 m5 .  m4 .  m3 .  m2 .  m1 .
     ...
     1 S1 .  S2 .  S3 .  S4 .  S5 .

`position` turns a diagram into the position text that ``game.parse_state`` reads. It checks only
the diagram's shape; the parser checks everything else (and its errors are what some tests want).
"""

from __future__ import annotations

from collections.abc import Mapping

from tests.support import diagram_board

FILES = "abcdefghij"


def board_text(diagram: str) -> str:
    """The board field of the position text (ten ranks, ``/`` between them) for ``diagram``."""
    return diagram_board(diagram, width=10, ranks=10)


def position(diagram: str, ply: int, scoring: tuple[int, int] | None = None) -> str:
    """Position text for ``diagram`` after ``ply`` plies (the side to move follows from it).

    Args:
        diagram: Ten ranks as described in the module docstring.
        ply: Plies played; even means Green to move, odd Red.
        scoring: The two move counts of the played scoring phase, when the position is in it.
    """
    text = f"{board_text(diagram)} {'gr'[ply % 2]} {ply}"
    if scoring is not None:
        text += f" scoring {scoring[0]} {scoring[1]}"
    return text


def position_from_pieces(pieces: Mapping[str, str], ply: int) -> str:
    """Position text for ``pieces`` (square name -> token, e.g. ``{"a1": "S1"}``) after ``ply``."""
    ranks = [
        "".join(pieces.get(f"{file}{rank}", ".") for file in FILES) for rank in range(10, 0, -1)
    ]
    return f"{'/'.join(ranks)} {'gr'[ply % 2]} {ply}"
