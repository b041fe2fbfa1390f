"""Steppin' Stones positions written as board diagrams, for tests a reviewer can check by eye.

A diagram is one line per rank, the top rank first, each an optional rank number and then one
cell per file separated by spaces, in the tokens of the position text: ``.`` an empty space,
``#`` an empty square of the large board's hole, ``S2`` a coin showing its value, ``s`` a
stepping stone, ``S*`` an ace, ``SP`` a pawn, ``SP+s`` a pawn on its stone. Blank lines around
the diagram are ignored::

    8 .  .  S5 .  .  M5 .  .
    7 .  .  S4 .  .  M4 .  .
    ...

`position` turns a diagram and the rest of the fields into the position text that
``game.parse_state`` reads; it checks only the diagram's shape (the parser checks the rest).
"""

from __future__ import annotations

from tests.support import diagram_board


def board_text(diagram: str) -> str:
    """The board field of the position text for ``diagram`` (ranks top first, ``/`` between)."""
    size = sum(1 for line in diagram.splitlines() if line.strip())
    if size not in (8, 10):
        raise ValueError(f"a diagram has 8 or 10 ranks; got {size}")
    return diagram_board(diagram, width=size)


def position(diagram: str, stage: str = "roll1", turns: int = 0) -> str:
    """Position text for ``diagram`` after ``turns`` turns, at ``stage`` (with its dice)."""
    return f"{board_text(diagram)} {turns} {stage}"
