"""The named accessors of Steppin' Stones' position array agree with the layout and the stub."""

from __future__ import annotations

import numpy as np

import ludoteca
from ludoteca.games.steppin_stones import kernels as k
from ludoteca.games.steppin_stones import layout as c
from ludoteca.games.steppin_stones.state import SteppinStonesState
from tests.games.accessors import stub_problems

COMPILED = ("coin_cell", "pawn_cell", "pawn_square", "value_coins_left", "budget_left")


def test_the_stub_types_every_compiled_copy() -> None:
    assert stub_problems(k, COMPILED) == []


def test_the_accessors_read_the_start_position() -> None:
    state = ludoteca.make("steppin_stones").initial_state()
    assert isinstance(state, SteppinStonesState)
    cells = state.cells
    coins, pawns = c.coin_cells(cells), c.pawn_cells(cells)
    assert coins.size == pawns.size == c.MAX_SQUARES and not coins.flags.writeable
    for suit in range(c.NUM_SUITS):
        square = c.pawn_square(cells, suit)
        assert c.pawn_cell(cells, square) == pawns[square] == suit + 1
        assert c.value_coins_left(cells, suit) == 5
        assert not c.die_used(cells, suit)
        assert c.budget_left(cells, suit) == 0
    for square in range(c.MAX_SQUARES):
        assert c.coin_cell(cells, square) == coins[square]


def test_the_compiled_copies_read_the_same() -> None:
    cells = ludoteca.make("steppin_stones").initial_state().cells
    for suit in range(c.NUM_SUITS):
        assert k.pawn_square(cells, suit) == c.pawn_square(cells, suit)
        assert k.value_coins_left(cells, suit) == c.value_coins_left(cells, suit)
        assert k.budget_left(cells, suit) == c.budget_left(cells, suit)
    for square in range(c.MAX_SQUARES):
        assert k.coin_cell(cells, square) == c.coin_cell(cells, square)
        assert k.pawn_cell(cells, square) == c.pawn_cell(cells, square)


def test_the_setters_write_through() -> None:
    cells = np.zeros(c.CELLS_SIZE, dtype=np.int32)
    c.set_coin_cell(cells, 12, c.STONE_BASE + 2)
    c.place_pawn(cells, 3, 40)
    c.set_die_face(cells, 1, c.FACE_SUIT)
    c.set_die_used(cells, 1, True)
    c.set_phase_two_die(cells, 2, True)
    c.set_budget_left(cells, 2, 4)
    assert c.coin_cell(cells, 12) == c.coin_cells(cells)[12] == c.STONE_BASE + 2
    assert (c.pawn_square(cells, 3), c.pawn_cell(cells, 40)) == (40, 4)
    assert (c.die_face(cells, 1), c.die_used(cells, 1)) == (c.FACE_SUIT, True)
    assert c.phase_two_die(cells, 2) and not c.phase_two_die(cells, 1)
    assert c.budget_left(cells, 2) == 4
    c.set_die_used(cells, 1, False)
    c.set_phase_two_die(cells, 2, False)
    assert not c.die_used(cells, 1) and not c.phase_two_die(cells, 2)
