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


def board_text(diagram: str) -> str:
    """The board field of the position text for ``diagram`` (ranks top first, ``/`` between)."""
    lines = [line.split() for line in diagram.strip().splitlines() if line.strip()]
    size = len(lines)
    if size not in (8, 10):
        raise ValueError(f"a diagram has 8 or 10 ranks; got {size}")
    ranks = []
    for expected, cells in zip(range(size, 0, -1), lines, strict=True):
        if len(cells) == size + 1:
            label, *cells = cells
            if label != str(expected):
                raise ValueError(f"rank {expected} is labelled {label!r}")
        if len(cells) != size:
            raise ValueError(f"rank {expected} has {len(cells)} cells; expected {size}")
        ranks.append("".join(cells))
    return "/".join(ranks)


def position(diagram: str, stage: str = "roll1", turns: int = 0) -> str:
    """Position text for ``diagram`` after ``turns`` turns, at ``stage`` (with its dice)."""
    return f"{board_text(diagram)} {turns} {stage}"
