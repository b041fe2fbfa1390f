"""What a front end draws of a Splinter position, and which squares a person clicks to move.

The board is drawn with rank 1 at the bottom, one unit per square, the file letters under it and
the rank numbers at its left (see `ludoteca.core.view`). Every square is a region named as in the
notation (``"h9"``); its label names the piece on it and says when the no-return rule holds it.
Pieces are drawn by type (``square``, ``cross``, ``circle``) in their side's colour (``blue``,
``red``). Pieces pushed off the board are gone, so the drawing shows only those on it; the notes
count each side's pieces by type.

A move is made by clicking the piece, then the square it moves to (``h9-NE``: ``h9``, ``i10``).
When a move splits the pieces into tied largest groups, its variants (``h9-NE/k12``,
``h9-NE/f8``) share that path and the front end offers them by their text. ``pass`` has no click.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Final

from ludoteca.core.grids import parse_square, square_name
from ludoteca.core.outcome import CHANCE
from ludoteca.core.view import (
    GRID_MARGIN,
    Drawing,
    Piece,
    PieceShape,
    Region,
    grid_coordinates,
)
from ludoteca.games.splinter import kernels as k
from ludoteca.games.splinter.layout import TYPE_NAMES, TYPE_PLURALS
from ludoteca.games.splinter.position import SIDE_NAMES
from ludoteca.games.splinter.state import SplinterMove

if TYPE_CHECKING:
    from ludoteca.core.game import Move
    from ludoteca.games.splinter.state import SplinterState

MARGIN: Final = GRID_MARGIN
SIDE_STYLES: Final = ("blue", "red")
TYPE_SHAPES: Final[tuple[PieceShape, ...]] = ("square", "cross", "circle")
PIECE_LETTERS: Final = "SXOsxo"  # as in `SplinterState.pieces`


def board_text(state: SplinterState, *, marked: Collection[str] = frozenset()) -> str:
    """The terminal's board, 22 lines on the default board.

    The squares in ``marked`` are bracketed; the pieces left are counted on one line, then come
    the no-return rule and the status.
    """
    return state.board_text(marked)


def drawing(state: SplinterState) -> Drawing:
    """The whole position: every square, every piece on the board, the status and notes."""
    width, height = state.game.width, state.game.height
    letters = state.pieces()
    record = state.no_return if not state.is_over else None
    held = set(record[1]) if record is not None else set()
    regions = []
    pieces = []
    for square in range(width * height):
        rank, file = divmod(square, width)
        name = square_name(square, width)
        dark = (file + rank) % 2 == 0
        parts = [name]
        letter = letters.get(name)
        if letter is not None:
            side, kind = divmod(PIECE_LETTERS.index(letter), k.NUM_TYPES)
            piece_name = f"{SIDE_NAMES[side]} {TYPE_NAMES[kind]}"
            parts.append(piece_name)
            pieces.append(Piece(name, side, TYPE_SHAPES[kind], "", piece_name, SIDE_STYLES[side]))
        if name in held and record is not None:
            parts.append(f"moved {record[0]} last turn (no return)")
        regions.append(
            Region(
                id=name,
                x=MARGIN + file,
                y=float(height - 1 - rank),
                width=1.0,
                height=1.0,
                label=", ".join(parts),
                style="dark" if dark else "light",
            )
        )
    return Drawing(
        width=MARGIN + width,
        height=height + MARGIN,
        regions=tuple(regions),
        pieces=tuple(pieces),
        marks=grid_coordinates(width, height),
        status=state._status_line(),
        notes=_notes(state),
    )


def _notes(state: SplinterState) -> tuple[str, ...]:
    """Each side's pieces by type, the no-return rule, the turns against the safeguard."""
    notes = []
    for side in (k.BLUE, k.RED):
        counts = ", ".join(
            f"{n} {TYPE_PLURALS[kind] if n != 1 else TYPE_NAMES[kind]}"
            for kind, n in enumerate(state.counts(side))
        )
        notes.append(f"{SIDE_NAMES[side]}: {counts}.")
    record = state.no_return
    if record is not None and not state.is_over:
        back = k.DIRECTION_NAMES[k.opposite(k.DIRECTION_NAMES.index(record[0]))]
        notes.append(
            f"No return: the pieces on {', '.join(record[1])} moved {record[0]} last turn and "
            f"may not be pushed back {back}."
        )
    notes.append(f"Turns played: {state.ply} of {state.game.options['max_plies']} (a tie after).")
    return tuple(notes)


def click_paths(state: SplinterState) -> dict[str, tuple[str, ...]]:
    """Legal move text -> the squares clicked: the moving piece, then the square it moves to.

    The variants of a move that choose among tied largest groups share one path; ``pass`` has
    the empty path; while the first player is drawn (a chance node) there are no paths.
    """
    if state.to_move is None or state.to_move == CHANCE:
        return {}
    game = state.game
    paths: dict[str, tuple[str, ...]] = {}
    for move in state.legal_moves():
        assert isinstance(move, SplinterMove)
        origin, direction = move.origin, move.direction
        if origin is None or direction is None:
            paths[move.text] = ()
            continue
        origin_index = parse_square(origin, game.width, game.height)
        assert origin_index is not None  # a legal move starts on the board
        target = int(game.nbr[origin_index, k.DIRECTION_NAMES.index(direction)])
        paths[move.text] = (origin, square_name(target, game.width))
    return paths


def chance_text(state: SplinterState, move: Move, *, short: bool = False) -> str:
    """The first-player draw in words: ``"Blue starts"`` (after ``first-0``)."""
    side = SIDE_NAMES[int(move.text.rpartition("-")[2])]
    return f"{side} starts" if short else f"{side} starts (drawn)"
