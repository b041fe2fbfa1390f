"""What a front end draws of a Salta position, and which squares a person clicks to move.

The board is drawn as Green sees it, rank 10 at the top, one unit per square, with the file
letters under it and the rank numbers at its left (see `ludoteca.core.view`). Every square is a
region named as in the notation (``"c3"``); its label says its colour, the piece on it and whose
goal it is. Each of the 30 pieces is drawn with its kind (``star``, ``moon``, ``sun``), its number
and its side's colour, so that identity, which decides the goal, is always visible.

A step or a jump is made by clicking the piece, then the square it lands on; ``pass`` has no
click (the front end offers it as a button).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Final

from ludoteca.core.grids import square_name
from ludoteca.core.view import (
    GRID_MARGIN,
    Drawing,
    Piece,
    PieceShape,
    Region,
    grid_coordinates,
)
from ludoteca.games.salta import kernels as k
from ludoteca.games.salta.position import (
    KIND_LETTERS,
    SIDE_NAMES,
    moves_left_line,
    piece_name,
    render_board,
    status_line,
)
from ludoteca.games.salta.state import SaltaMove

if TYPE_CHECKING:
    from ludoteca.games.salta.state import SaltaState

MARGIN: Final = GRID_MARGIN
SIDE_STYLES: Final = ("green", "red")
KIND_SHAPES: Final[tuple[PieceShape, ...]] = ("star", "moon", "sun")


def board_text(state: SaltaState, *, marked: Collection[str] = frozenset()) -> str:
    """The terminal's board: ``marked`` squares bracketed, the status, the moves left."""
    countdown = moves_left_line(state)
    board = render_board(state, marked=marked)
    return board if countdown is None else f"{board}\n{countdown}"


def _token_piece(token: str) -> tuple[int, int]:
    """``(side, piece index 0..14)`` of a token such as ``"S1"`` or ``"o5"``."""
    side = k.GREEN if token[0].isupper() else k.RED
    return side, KIND_LETTERS.index(token[0].upper()) * 5 + int(token[1]) - 1


def _goal_owners(state: SaltaState) -> dict[int, list[str]]:
    """Square -> the names of the pieces whose goal it is."""
    owners: dict[int, list[str]] = {}
    for side in (k.GREEN, k.RED):
        for piece, square in enumerate(state.game.goals[side]):
            owners.setdefault(int(square), []).append(piece_name(side, piece))
    return owners


def drawing(state: SaltaState) -> Drawing:
    """The whole position: 100 squares, 30 pieces, coordinates, the status and notes."""
    occupants = state.pieces()
    goals = _goal_owners(state)
    size = k.WIDTH
    regions = []
    pieces = []
    for square in range(k.NUM_SQUARES):
        rank, file = divmod(square, size)
        name = square_name(square, size)
        dark = (file + rank) % 2 == 0
        tokens = occupants.get(name, [])
        parts = [name, "dark square" if dark else "light square"]
        parts += [piece_name(*_token_piece(token)) for token in tokens]
        if square in goals:
            parts.append(f"goal of {' and '.join(goals[square])}")
        regions.append(
            Region(
                id=name,
                x=MARGIN + file,
                y=float(size - 1 - rank),
                width=1.0,
                height=1.0,
                label=", ".join(parts),
                style="dark" if dark else "light",
            )
        )
        for token in tokens:
            side, piece = _token_piece(token)
            pieces.append(
                Piece(
                    region=name,
                    owner=side,
                    shape=KIND_SHAPES[piece // 5],
                    text=str(piece % 5 + 1),
                    label=piece_name(side, piece),
                    style=SIDE_STYLES[side],
                )
            )
    return Drawing(
        width=MARGIN + size,
        height=size + MARGIN,
        regions=tuple(regions),
        pieces=tuple(pieces),
        marks=grid_coordinates(size, size),
        status=status_line(state),
        notes=_notes(state),
    )


def _notes(state: SaltaState) -> tuple[str, ...]:
    """Moves played against the 120-move rule, and how many pieces stand on their goal."""
    limit = state.game.options["move_limit"]
    green, red = (state.ply + 1) // 2, state.ply // 2
    rule = "no move limit" if limit is None else f"the 120-move rule after {limit} moves each"
    notes = [f"Moves played: Green {green}, Red {red} ({rule})."]
    goals = state.game.goals
    on_goal = []
    for side in (k.GREEN, k.RED):
        squares = k.piece_squares(state.cells, side)
        count = sum(int(a) == int(b) for a, b in zip(squares, goals[side], strict=True))
        on_goal.append(f"{SIDE_NAMES[side]} {count}/15")
    notes.append(f"Pieces on their goal squares: {', '.join(on_goal)}.")
    if state.game.options["scoring"] == "simplified" and not state.is_over:
        notes.append(
            "Distance to goal (simplified scoring): "
            f"Green {state.goal_distance(k.GREEN)}, Red {state.goal_distance(k.RED)}."
        )
    return tuple(notes)


def click_paths(state: SaltaState) -> dict[str, tuple[str, ...]]:
    """Legal move text -> the squares clicked: origin then landing square; ``pass``: none."""
    paths: dict[str, tuple[str, ...]] = {}
    for move in state.legal_moves():
        assert isinstance(move, SaltaMove)
        origin, destination = move.origin, move.destination
        paths[move.text] = () if origin is None or destination is None else (origin, destination)
    return paths
