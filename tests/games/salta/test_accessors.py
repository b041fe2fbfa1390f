"""The named accessors of Salta's position array agree with the layout and the stub."""

from __future__ import annotations

import numpy as np

import ludoteca
from ludoteca.games.salta import kernels as k
from ludoteca.games.salta.state import SaltaState
from tests.games.accessors import stub_problems

ACCESSORS = (
    "layer",
    "piece_squares",
    "piece_square",
    "put_piece",
    "scoring_moves_of",
    "set_scoring_moves",
)


def test_the_stub_types_every_accessor() -> None:
    assert stub_problems(k, ACCESSORS) == []


def test_the_layers_and_the_piece_squares_agree() -> None:
    state = ludoteca.make("salta").initial_state()
    assert isinstance(state, SaltaState)
    cells = state.cells
    for side in (k.GREEN, k.RED):
        squares = k.piece_squares(cells, side)
        board = k.layer(cells, side)
        assert squares.size == k.PIECES_PER_SIDE and not squares.flags.writeable
        assert board.size == k.NUM_SQUARES
        for piece, square in enumerate(squares.tolist()):
            assert k.piece_square(cells, side, piece) == square
            assert board[square] == piece + 1
        assert int(np.count_nonzero(board)) == k.PIECES_PER_SIDE
        assert k.scoring_moves_of(cells, side) == 0


def test_the_setters_write_through() -> None:
    cells = np.zeros(k.CELLS_SIZE, dtype=np.int32)
    k.put_piece(cells, k.RED, 14, 55)
    assert k.piece_square(cells, k.RED, 14) == 55 == k.piece_squares(cells, k.RED)[14]
    assert k.layer(cells, k.RED)[55] == 15 and k.layer(cells, k.GREEN)[55] == 0
    k.set_scoring_moves(cells, k.RED, 7)
    assert (k.scoring_moves_of(cells, k.GREEN), k.scoring_moves_of(cells, k.RED)) == (0, 7)
