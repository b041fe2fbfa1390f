"""What a front end draws of a Salt 'n' Pepper position, and which regions a person clicks.

The board is drawn with rank 1 at the bottom, one unit per square, the file letters under it and
the rank numbers at its left (see `ludoteca.core.view`). Every square is a region named as in the
notation (``"c8"``). Each side's home, where its pieces leave the board, is a region beyond its
back rank: ``"home-pepper"`` above the top rank (Pepper moves up) and ``"home-salt"`` below
rank 1, under the file letters (Salt moves down). The pieces that are home are drawn there, so
the drawing always shows all 30 pieces (``disc`` pieces styled ``salt`` and ``pepper``).

A move is made by clicking the piece, then where it goes: a square, or its side's home
(``d1-home`` and ``c2xhome``: ``d1`` or ``c2``, then ``home-salt``). ``pass`` has no click.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Final

from ludoteca.core.grids import square_name
from ludoteca.core.outcome import CHANCE
from ludoteca.core.view import GRID_MARGIN, Drawing, Piece, Region, grid_coordinates
from ludoteca.games.salt_n_pepper import kernels as k
from ludoteca.games.salt_n_pepper.position import is_dark, render_board, status_line
from ludoteca.games.salt_n_pepper.state import SIDE_NAMES, SaltNPepperMove

if TYPE_CHECKING:
    from ludoteca.core.game import Move
    from ludoteca.games.salt_n_pepper.state import SaltNPepperState

MARGIN: Final = GRID_MARGIN
HOME_HEIGHT: Final = 1.0
SIDE_STYLES: Final = ("salt", "pepper")
HOME_IDS: Final = ("home-salt", "home-pepper")


def board_text(state: SaltNPepperState, *, marked: Collection[str] = frozenset()) -> str:
    """The terminal's board: the diagram with the squares in ``marked`` bracketed."""
    return render_board(state, marked=marked)


def drawing(state: SaltNPepperState) -> Drawing:
    """The whole position: the squares, both homes, all 30 pieces, the status and notes."""
    ranks = state.game.ranks
    width = int(k.WIDTH)
    top = HOME_HEIGHT  # the board starts under Pepper's home
    owner = {name: side for side in (k.SALT, k.PEPPER) for name in state.squares(side)}
    regions = [_home_region(state, k.PEPPER, 0.0, ranks)]
    pieces = []
    for square in range(width * ranks):
        rank, file = divmod(square, width)
        name = square_name(square, width)
        dark = is_dark(square)
        side = owner.get(name)
        label = f"{name}, {'dark' if dark else 'light'} square"
        if side is not None:
            label += f", {SIDE_NAMES[side]} piece"
            pieces.append(_piece(name, side))
        regions.append(
            Region(
                id=name,
                x=MARGIN + file,
                y=top + ranks - 1 - rank,
                width=1.0,
                height=1.0,
                label=label,
                style="dark" if dark else "light",
            )
        )
    salt_home_y = top + ranks + MARGIN
    regions.append(_home_region(state, k.SALT, salt_home_y, ranks))
    for side in (k.SALT, k.PEPPER):
        pieces.extend(_piece(HOME_IDS[side], side) for _ in range(state.pieces_home(side)))
    return Drawing(
        width=MARGIN + width,
        height=salt_home_y + HOME_HEIGHT,
        regions=tuple(regions),
        pieces=tuple(pieces),
        marks=grid_coordinates(width, ranks, top=top),
        status=status_line(state),
        notes=_notes(state),
    )


def _piece(region: str, side: int) -> Piece:
    return Piece(region, side, "disc", "", f"{SIDE_NAMES[side]} piece", SIDE_STYLES[side])


def _home_region(state: SaltNPepperState, side: int, y: float, ranks: int) -> Region:
    where = "below rank 1" if side == k.SALT else f"above rank {ranks}"
    return Region(
        id=HOME_IDS[side],
        x=MARGIN,
        y=y,
        width=float(k.WIDTH),
        height=HOME_HEIGHT,
        label=f"{SIDE_NAMES[side]}'s home, {where}: {state.pieces_home(side)} of 15 pieces",
        style="home",
    )


def _notes(state: SaltNPepperState) -> tuple[str, ...]:
    """Pieces home per side, the plies played against the safeguard, who moved first."""
    notes = [f"Home: Salt {state.pieces_home(k.SALT)}/15, Pepper {state.pieces_home(k.PEPPER)}/15."]
    first = state.first
    if first is not None:
        notes.append(f"{SIDE_NAMES[first]} moved first.")
    notes.append(f"Plies played: {state.ply} of {state.game.options['max_plies']} (a draw after).")
    return tuple(notes)


def click_paths(state: SaltNPepperState) -> dict[str, tuple[str, ...]]:
    """Legal move text -> the regions clicked: the piece, then its square or its home.

    ``pass`` has the empty path; at the bag draw (a chance node) there are no paths.
    """
    side = state.to_move
    if side is None or side == CHANCE:
        return {}
    paths: dict[str, tuple[str, ...]] = {}
    for move in state.legal_moves():
        assert isinstance(move, SaltNPepperMove)
        origin, destination = move.origin, move.destination
        if origin is None or destination is None:
            paths[move.text] = ()
        else:
            paths[move.text] = (origin, HOME_IDS[side] if move.is_home else destination)
    return paths


def chance_text(state: SaltNPepperState, move: Move, *, short: bool = False) -> str:
    """The bag draw in words: ``"Salt starts"`` (after ``first-0``)."""
    side = SIDE_NAMES[int(move.text.rpartition("-")[2])]
    return f"{side} starts" if short else f"{side} starts (bag draw)"
