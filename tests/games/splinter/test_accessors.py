"""The named accessors of Splinter's position array agree with the layout and the stub."""

from __future__ import annotations

import numpy as np

import ludoteca
from ludoteca.games.splinter import kernels as k
from ludoteca.games.splinter.state import SplinterState
from tests.games.accessors import stub_problems

ACCESSORS = (
    "board_cells",
    "board_cell",
    "set_board_cell",
    "piece_counts",
    "no_return_record",
    "set_no_return_record",
    "cells_size",
)


def test_the_stub_types_every_accessor() -> None:
    assert stub_problems(k, ACCESSORS) == []


def test_the_accessors_read_the_board_and_the_counts() -> None:
    state = ludoteca.make("splinter").initial_state()
    assert isinstance(state, SplinterState)
    cells = state.cells
    board = k.board_cells(cells)
    assert board.size == state.game.width * state.game.height and not board.flags.writeable
    assert cells.size == k.cells_size(state.game.width, state.game.height)
    for side in (k.BLUE, k.RED):
        counts = k.piece_counts(cells, side)
        assert tuple(int(n) for n in counts) == state.counts(side)
        for kind in range(k.NUM_TYPES):
            code = k.piece_code(side, kind)
            assert int(np.count_nonzero(board == code)) == counts[kind]
    square = int(np.flatnonzero(board)[0])
    assert k.board_cell(cells, square) == board[square] != 0
    assert k.no_return_record(cells)[2] == 0


def test_the_setters_write_through() -> None:
    cells = np.array(ludoteca.make("splinter").initial_state().cells)
    k.set_board_cell(cells, 0, k.piece_code(k.RED, 2))
    assert k.board_cells(cells)[0] == k.board_cell(cells, 0) == k.piece_code(k.RED, 2)
    k.set_no_return_record(cells, 3, 17, 2)
    assert k.no_return_record(cells) == (3, 17, 2)
