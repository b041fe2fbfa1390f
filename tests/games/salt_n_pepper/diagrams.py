"""Salt 'n' Pepper positions written as board diagrams, for tests a reviewer can check by eye.

A diagram is one line per rank, the top rank first, each an optional rank number and then ten
cells separated by spaces: ``S`` a Salt piece, ``P`` a Pepper piece, ``.`` an empty square.
Pieces not drawn are home. Blank lines around the diagram are ignored::

    10 .  .  .  .  .  .  .  .  .  .
     ...
     2 .  .  S  .  .  .  .  .  .  .
     1 .  P  .  .  .  .  .  .  .  .
       a  b  c  d  e  f  g  h  i  j

(the file letters are not part of the diagram). `position` turns a diagram into the position
text that ``game.parse_state`` reads; the parser checks everything else.
"""

from __future__ import annotations

from tests.support import diagram_board

FILES = "abcdefghij"


def board_text(diagram: str) -> str:
    """The board field of the position text for ``diagram`` (ranks top first, ``/`` between)."""
    return diagram_board(diagram, width=10)


def position(diagram: str, side: str, ply: int = 10, passes: int = 0) -> str:
    """Position text for ``diagram`` with ``side`` (``"s"``, ``"p"`` or ``"-"``) to move."""
    return f"{board_text(diagram)} {side} {ply} {passes}"
