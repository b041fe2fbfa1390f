"""The named accessors of Salt 'n' Pepper's position array agree with the layout and the stub."""

from __future__ import annotations

import numpy as np

import ludoteca
from ludoteca.games.salt_n_pepper import kernels as k
from ludoteca.games.salt_n_pepper.state import SaltNPepperState
from tests.games.accessors import stub_problems

ACCESSORS = (
    "board_cells",
    "board_cell",
    "set_board_cell",
    "pieces_on_board",
    "set_pieces_on_board",
    "piece_slots",
    "piece_squares",
)


def test_the_stub_types_every_accessor() -> None:
    assert stub_problems(k, ACCESSORS) == []


def test_the_accessors_read_the_pieces_and_the_board() -> None:
    state = ludoteca.make("salt_n_pepper").initial_state().apply("first-0")
    assert isinstance(state, SaltNPepperState)
    cells = state.cells
    board = k.board_cells(cells)
    assert board.size == 10 * 10 and not board.flags.writeable
    for side in (k.SALT, k.PEPPER):
        squares = k.piece_squares(cells, side)
        assert k.pieces_on_board(cells, side) == squares.size == 15
        assert np.array_equal(k.piece_slots(cells, side), squares)
        assert list(squares) == sorted(squares)
        assert all(k.board_cell(cells, int(q)) == side + 1 for q in squares)
        assert int(np.count_nonzero(board == side + 1)) == 15


def test_the_setters_write_through_and_views_share_memory() -> None:
    cells = np.array(ludoteca.make("salt_n_pepper").initial_state().cells)
    k.set_board_cell(cells, 44, k.PEPPER_CELL)
    assert k.board_cell(cells, 44) == k.PEPPER_CELL == k.board_cells(cells)[44]
    k.set_pieces_on_board(cells, k.SALT, 14)
    assert k.pieces_on_board(cells, k.SALT) == 14
    assert k.piece_squares(cells, k.SALT).size == 14
    k.piece_slots(cells, k.SALT)[14] = k.NO_SQUARE
    assert k.piece_slots(cells, k.SALT)[14] == k.NO_SQUARE
