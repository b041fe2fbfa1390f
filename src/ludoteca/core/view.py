"""What a front end draws: a game-agnostic picture of a position, and how clicks make moves.

Every game may declare two functions over its states in its view (``GameInfo.view``)::

    drawing(state) -> Drawing            # the board, the pieces, the dice, the status
    click_paths(state) -> dict[str, tuple[str, ...]]
                                         # legal move text -> the region ids clicked, in order

A `Drawing` is plain data in board units (the front end scales it): clickable `Region` values
(squares, points, a hand, a home), the `Piece` values standing on them, `Mark` decorations
(coordinates, lines) and `Die` values. Nothing here knows about HTML: the web layer turns a
drawing into SVG and the terminal could draw it as text.

Click paths make one input method for every game: a person clicks regions one after another;
the moves whose path starts with the clicks so far stay possible and the next regions of their
paths are highlighted; when the clicks equal exactly one move's whole path, that move is played.
Moves whose paths are equal, or that are a prefix of another move's path (Splinter's choice of
the surviving group), are offered by their text once the clicks reach them. A move with the
empty path (``pass``, ``end``, a resignation) is offered as a button only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from ludoteca.core.grids import FILE_LETTERS

RegionShape = Literal["rect", "circle"]
#: The shapes the front ends can draw; a game picks one per piece, its colours come from the
#: piece's ``style`` (declared in ``GameInfo.piece_styles``). Unknown shapes are drawn as discs.
PieceShape = Literal[
    "disc",  # a plain round counter
    "star",  # a five-pointed star
    "moon",  # a crescent
    "sun",  # a twelve-rayed sun
    "square",  # a square with slightly rounded corners
    "cross",  # a plus-shaped cross
    "circle",  # a ring (the style's colour on the outline, hollow inside)
    "coin",  # a round coin with a rim, usually with ``text`` (a value or a suit)
    "pawn",  # a pawn: a head on a base
    "tile",  # a square tile with rounded corners
]


@dataclass(frozen=True, slots=True)
class Region:
    """A place that can be clicked: a square, a point, a hand, a home.

    Attributes:
        id: Unique within the drawing; the name the notation uses where there is one (``"c3"``).
        x: Left edge, in board units.
        y: Top edge, in board units (y grows downwards, as in SVG).
        width: Width in board units.
        height: Height in board units.
        label: Text alternative read by screen readers, e.g. ``"c3, dark square"``.
        style: A style name for the front end (``"dark"``, ``"light"``, ``"sacred"``,
            ``"home"``, ``"hand"``, ``"hole"``, ...).
        shape: ``"rect"``, or ``"circle"`` inscribed in the rectangle.
    """

    id: str
    x: float
    y: float
    width: float
    height: float
    label: str
    style: str = ""
    shape: RegionShape = "rect"


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece standing on a region (several on one region are stacked by the front end).

    Attributes:
        region: The id of the region it stands on.
        owner: The player index that owns it, or ``None`` for neutral pieces.
        shape: How to draw it (see `PieceShape`).
        text: A short text drawn on it (``"3"``, ``"♠"``), possibly empty.
        label: Text alternative, e.g. ``"Green Star 3"``.
        style: A style name for colour (``"green"``, ``"red"``, ``"salt"``, ``"moons"``, ...).
    """

    region: str
    owner: int | None
    shape: PieceShape
    text: str
    label: str
    style: str = ""


@dataclass(frozen=True, slots=True)
class Mark:
    """A decoration: a text (coordinates, captions) or a line between two points.

    Attributes:
        kind: ``"text"`` (at ``x, y``, centred) or ``"line"`` (from ``x, y`` to ``x2, y2``).
        x: Horizontal position in board units.
        y: Vertical position in board units.
        text: The text of a ``"text"`` mark.
        x2: End of a line.
        y2: End of a line.
        style: A style name (``"coordinate"``, ``"sacred"``, ``"caption"``, ...).
    """

    kind: Literal["text", "line"]
    x: float
    y: float
    text: str = ""
    x2: float = 0.0
    y2: float = 0.0
    style: str = ""


@dataclass(frozen=True, slots=True)
class Die:
    """A die as shown beside the board.

    Attributes:
        value: The face shown (``0`` when not rolled yet).
        faces: The number of faces (6 for an ordinary die).
        label: What the die is and what it can still do, e.g. ``"white die 4: unused"``.
        used: Whether it has been used up this turn.
        text: The face as drawn when it is not a number (a piecepack suit), else empty.
    """

    value: int
    faces: int
    label: str
    used: bool = False
    text: str = ""


@dataclass(frozen=True, slots=True)
class Drawing:
    """Everything a front end needs to draw one position.

    Attributes:
        width: Width of the board area in board units.
        height: Height of the board area in board units.
        regions: The clickable places, in drawing order.
        pieces: The pieces, each on one of ``regions``.
        marks: Decorations drawn over the regions and under the pieces.
        dice: The dice, empty for games without them.
        status: One line: whose turn and what they must do, or the result with its reason.
        notes: Further short lines shown beside the board (pieces in hand, scores, phase).
    """

    width: float
    height: float
    regions: tuple[Region, ...]
    pieces: tuple[Piece, ...] = ()
    marks: tuple[Mark, ...] = ()
    dice: tuple[Die, ...] = ()
    status: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)

    def region(self, region_id: str) -> Region:
        """The region with this id.

        Raises:
            KeyError: No region has this id.
        """
        for region in self.regions:
            if region.id == region_id:
                return region
        raise KeyError(region_id)


#: Room left of a grid for the rank numbers and below it for the file letters (board units).
GRID_MARGIN: Final = 0.6


def grid_coordinates(files: int, ranks: int, *, top: float = 0.0) -> tuple[Mark, ...]:
    """The file letters below and the rank numbers left of a grid of unit squares.

    The grid's left edge is at `GRID_MARGIN` and its top at ``top``; rank 1 is the bottom row.
    """
    letters = [
        Mark(
            "text",
            GRID_MARGIN + f + 0.5,
            top + ranks + GRID_MARGIN / 2,
            FILE_LETTERS[f],
            style="coordinate",
        )
        for f in range(files)
    ]
    numbers = [
        Mark("text", GRID_MARGIN / 2, top + ranks - r - 0.5, str(r + 1), style="coordinate")
        for r in range(ranks)
    ]
    return (*letters, *numbers)


# -- terminal boards ------------------------------------------------------------------------------
#
# A game's view (``GameInfo.view``) may also give
# ``board_text(state, *, marked=frozenset()) -> str``: the board as the terminal shows it after
# every move, at most 20 lines of at most 80 characters under the default options, with the
# squares (region ids) in ``marked`` bracketed; the terminal marks the origin and target of the
# last move that way. `join_marked` draws those brackets.


def join_marked(
    cells: Sequence[str], marked: Sequence[bool], separator: str = " ", brackets: str = "[]"
) -> str:
    """Join the cells of one board row, enclosing each run of marked cells in brackets.

    The result starts and ends with ``separator``; the brackets replace the separator character
    next to the run (so the row keeps its width and columns), e.g. with one space:
    ``" .[O X]. "`` for cells ``.``, ``O``, ``X``, ``.`` with the middle two marked.
    """
    opening, closing = brackets[0], brackets[1]
    gaps = [separator] * (len(cells) + 1)  # gaps[i] comes before cells[i]
    for index, is_marked in enumerate(marked):
        if not is_marked:
            continue
        if index == 0 or not marked[index - 1]:
            gaps[index] = gaps[index][:-1] + opening
        if index == len(cells) - 1 or not marked[index + 1]:
            gaps[index + 1] = closing + gaps[index + 1][1:]
    return "".join(gap + cell for gap, cell in zip(gaps, [*cells, ""], strict=True))
