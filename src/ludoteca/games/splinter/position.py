"""Splinter position text: writing it, reading it back, and the board diagram.

Position text has four fields separated by spaces::

    <ranks> <to move> <turns> <no-return record>

- ``<ranks>``: the ranks from the top one down to rank 1, separated by ``/``; each rank from file
  a onward, a piece as one letter (``S`` square, ``X`` cross, ``O`` circle; upper case Blue,
  lower case Red) and a run of empty squares as its length, as in ``5OoOoO5``.
- ``<to move>``: ``b`` (Blue), ``r`` (Red), or ``?`` while the first player is still to be drawn
  (option ``first=random``). Turns alternate, so it must agree with the turn count and the
  ``first`` option.
- ``<turns>``: the turns played so far (passes included; the draw of the first player is not a
  turn).
- ``<no-return record>``: ``-`` when nothing is restricted, else the direction of the opponent's
  last move and the squares of the pieces it displaced that are still on the board, the moving
  piece's square first, as in ``N:h10,h11,h12,h13``: those pieces may not be pushed back
  (``S``) onto the squares they came from.

The start position on the default board::

    15/15/15/15/15/15/5oOoOo5/5OxXxO5/5oXsSo5/5OsSxO5/5oXxXo5/5OoOoO5/15/15/15/15/15/15 b 0 -
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import TYPE_CHECKING

import numpy as np

from ludoteca.core.array_state import Cells
from ludoteca.core.errors import InvalidStateError
from ludoteca.core.grids import FILE_LETTERS, parse_square, square_name
from ludoteca.core.view import join_marked
from ludoteca.games.splinter import kernels as k
from ludoteca.games.splinter.layout import (
    PIECES_OF_EACH_TYPE,
    TYPE_LETTERS,
    TYPE_PLURALS,
    count_groups,
)

if TYPE_CHECKING:
    from ludoteca.games.splinter import SplinterGame

SIDE_NAMES = ("Blue", "Red")
SIDE_LETTERS = ("b", "r")
DRAW_PENDING = "?"

_RANK_ITEM = re.compile(r"[SXOsxo]|[0-9]+")


def piece_letter(code: int) -> str:
    """The letter of a board value (1..6): ``S X O`` for Blue, ``s x o`` for Red."""
    side, kind = divmod(code - 1, k.NUM_TYPES)
    letter = TYPE_LETTERS[kind]
    return letter if side == k.BLUE else letter.lower()


def piece_code_of(letter: str) -> int:
    """The board value of a piece letter."""
    side = k.BLUE if letter.isupper() else k.RED
    return int(side * k.NUM_TYPES + TYPE_LETTERS.index(letter.upper()) + 1)


# -- writing --------------------------------------------------------------------------------


def board_text(cells: Cells, width: int, height: int) -> str:
    """The ``<ranks>`` field."""
    board = k.board_cells(cells)
    ranks = []
    for rank in range(height - 1, -1, -1):
        items: list[str] = []
        empty = 0
        for file in range(width):
            code = int(board[rank * width + file])
            if code == 0:
                empty += 1
                continue
            if empty:
                items.append(str(empty))
                empty = 0
            items.append(piece_letter(code))
        if empty:
            items.append(str(empty))
        ranks.append("".join(items))
    return "/".join(ranks)


def record_squares(cells: Cells, nbr: np.ndarray, width: int) -> tuple[str, list[str]] | None:
    """The no-return record as ``(direction name, square names)``, or ``None``."""
    direction, square, count = k.no_return_record(cells)
    if count == 0:
        return None
    names = []
    for _ in range(count):
        names.append(square_name(square, width))
        square = int(nbr[square, direction])
    return k.DIRECTION_NAMES[direction], names


def position_text(cells: Cells, nbr: np.ndarray, width: int, height: int) -> str:
    """The canonical one-line position text (see the module docstring)."""
    to_move = int(cells[k.TO_MOVE_AT])
    side = DRAW_PENDING if to_move == k.CHANCE else SIDE_LETTERS[to_move]
    record = record_squares(cells, nbr, width)
    record_text = "-" if record is None else f"{record[0]}:{','.join(record[1])}"
    return f"{board_text(cells, width, height)} {side} {int(cells[k.PLY_AT])} {record_text}"


# -- reading --------------------------------------------------------------------------------


def read_position(game: SplinterGame, text: str) -> Cells:
    """The position array of ``text``, checked to be a position the rules can reach.

    Raises:
        InvalidStateError: What is wrong with the text, and the expected form.
    """
    if not isinstance(text, str):
        raise InvalidStateError(f"Splinter position text must be a string; got {text!r}")
    width, height = game.width, game.height
    fields = text.split()
    form = (
        f"'<{height} ranks from the top, separated by /> <b|r|?> <turns played> "
        "<- or the no-return record such as N:h10,h11>'"
    )
    if len(fields) != 4:
        raise InvalidStateError(f"Splinter position text has {len(fields)} fields; expected {form}")
    board, side_text, ply_text, record_text = fields
    cells = np.zeros(k.cells_size(width, height), dtype=np.int32)
    _read_board(cells, board, width, height)
    _check_pieces(cells, game)
    if not ply_text.isdigit():
        raise InvalidStateError(f"turns played must be a whole number; got {ply_text!r}")
    cells[k.PLY_AT] = ply = int(ply_text)
    cells[k.TO_MOVE_AT] = _read_side(side_text, ply, game.options["first"])
    if record_text != "-":
        _read_record(cells, record_text, game)
    k.settle(cells, game.params)
    return cells


def _read_board(cells: Cells, board: str, width: int, height: int) -> None:
    ranks = board.split("/")
    if len(ranks) != height:
        raise InvalidStateError(
            f"the board has {len(ranks)} ranks; expected {height} separated by '/'"
        )
    last_file = FILE_LETTERS[width - 1]
    for row, rank_text in enumerate(ranks):
        rank = height - 1 - row
        items = _RANK_ITEM.findall(rank_text)
        file = 0
        well_formed = "".join(items) == rank_text and bool(items)
        for item in items if well_formed else []:
            if item.isdigit():
                if item.startswith("0"):
                    well_formed = False
                    break
                file += int(item)
            else:
                if file < width:
                    k.set_board_cell(cells, rank * width + file, piece_code_of(item))
                file += 1
        if not well_formed or file != width:
            raise InvalidStateError(
                f"rank {rank + 1} ({rank_text!r}) must describe {width} squares, a to "
                f"{last_file}: a piece letter (S X O Blue, s x o Red) or the number of empty "
                "squares in a row, as in 5OoOoO5"
            )


def _check_pieces(cells: Cells, game: SplinterGame) -> None:
    k.recount(cells, game.params)
    total = 0
    for side in (k.BLUE, k.RED):
        counts = k.piece_counts(cells, side)
        total += int(counts.sum())
        for kind, most in enumerate(PIECES_OF_EACH_TYPE):
            number = int(counts[kind])
            if number > most:
                raise InvalidStateError(
                    f"{SIDE_NAMES[side]} has {number} {TYPE_PLURALS[kind]} on the board; a side "
                    f"has at most {most}"
                )
    if total == 0:
        raise InvalidStateError("the board is empty; the largest group always stays")
    occupied = {int(square) for square in np.flatnonzero(k.board_cells(cells))}
    groups = count_groups(occupied, game.nbr)
    if groups > 1:
        raise InvalidStateError(
            f"the pieces form {groups} groups; after every move only one group (connected "
            "through sides and corners) stays on the board"
        )


def _read_side(side_text: str, ply: int, first: object) -> int:
    if side_text == DRAW_PENDING:
        if first != "random" or ply != 0:
            raise InvalidStateError(
                "'?' (first player still to be drawn) is only for the start of a game with "
                f"first=random, before any turn; here first={first} and {ply} turns were played"
            )
        return int(k.CHANCE)
    if side_text not in SIDE_LETTERS:
        raise InvalidStateError(f"side to move must be b, r or ?; got {side_text!r}")
    side = SIDE_LETTERS.index(side_text)
    if isinstance(first, int) and side != (first + ply) % 2:
        raise InvalidStateError(
            f"with first={first} ({SIDE_NAMES[first]} starts) and turns alternating, "
            f"{SIDE_NAMES[(first + ply) % 2]} is to move after {ply} turns; got {side_text!r}"
        )
    return side


def _read_record(cells: Cells, record_text: str, game: SplinterGame) -> None:
    """Read ``DIR:sq,sq,...`` and check that a move of the last mover could have left it."""
    direction_name, colon, squares_text = record_text.partition(":")
    expected = "'-' or a direction and the displaced pieces' squares, such as N:h10,h11"
    if not colon or direction_name not in k.DIRECTION_NAMES or not squares_text:
        raise InvalidStateError(f"the no-return record must be {expected}; got {record_text!r}")
    direction = k.DIRECTION_NAMES.index(direction_name)
    mover = int(cells[k.TO_MOVE_AT])
    if mover == k.CHANCE or int(cells[k.PLY_AT]) == 0:
        raise InvalidStateError("a no-return record needs a turn played before it")
    names = squares_text.split(",")
    squares = [parse_square(name, game.width, game.height) for name in names]
    for name, square in zip(names, squares, strict=True):
        if square is None:
            raise InvalidStateError(f"the no-return record names {name!r}, not a square here")
        if k.board_cell(cells, square) == 0:
            raise InvalidStateError(f"the no-return record names {name}, which is empty")
    for before, after, name in zip(squares, squares[1:], names[1:], strict=False):
        if int(game.nbr[before, direction]) != after:
            raise InvalidStateError(
                f"the no-return record's squares must follow each other towards {direction_name}"
                f"; {name} does not"
            )
    first = squares[0]
    assert first is not None
    code = k.board_cell(cells, first)
    if (code - 1) // k.NUM_TYPES != 1 - mover:
        raise InvalidStateError(
            f"the no-return record starts with the piece that moved, so {names[0]} must hold a "
            f"{SIDE_NAMES[1 - mover]} piece"
        )
    left = int(game.nbr[first, k.opposite(direction)])
    if left < 0 or k.board_cell(cells, left) != 0:
        raise InvalidStateError(
            f"the piece on {names[0]} moved {direction_name}, so the square it left must be an "
            "empty square of the board"
        )
    k.set_no_return_record(cells, direction, first, len(squares))


# -- the diagram ----------------------------------------------------------------------------


def board_diagram(
    cells: Cells, width: int, height: int, *, marked: Collection[str] = frozenset()
) -> list[str]:
    """The board as lines, the top rank first, with rank numbers and file letters.

    The squares named in ``marked`` are bracketed (``[O X]`` for two side by side).
    """
    board = k.board_cells(cells)
    lines = []
    for rank in range(height - 1, -1, -1):
        row = [
            piece_letter(int(code)) if code else "."
            for code in board[rank * width : (rank + 1) * width]
        ]
        row_marks = [square_name(rank * width + file, width) in marked for file in range(width)]
        lines.append(f"{rank + 1:>2}{join_marked(row, row_marks)}".rstrip())
    lines.append(f"   {' '.join(FILE_LETTERS[:width])}")
    return lines
