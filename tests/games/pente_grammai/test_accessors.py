"""The named accessors of Pente Grammai's position array agree with the layout and the stub."""

from __future__ import annotations

import numpy as np

import ludoteca
from ludoteca.games.pente_grammai import kernels as k
from ludoteca.games.pente_grammai.state import PenteGrammaiState
from tests.games.accessors import stub_problems

ACCESSORS = (
    "point_counts",
    "counters_on",
    "set_counters_on",
    "in_hand",
    "set_in_hand",
    "in_store",
    "set_in_store",
)


def test_the_stub_types_every_accessor() -> None:
    assert stub_problems(k, ACCESSORS) == []


def test_the_accessors_read_the_counters() -> None:
    state = ludoteca.make("pente_grammai", start="schaedler", first=0).initial_state()
    assert isinstance(state, PenteGrammaiState)
    cells = state.cells
    for side in (k.WHITE, k.BLUE):
        points = k.point_counts(cells, side)
        assert points.size == k.NUM_POINTS and not points.flags.writeable
        assert [k.counters_on(cells, side, p) for p in range(k.NUM_POINTS)] == points.tolist()
        assert k.in_hand(cells, side) == state.hand(side)
        assert k.in_store(cells, side) == state.stored(side) == 0
        assert int(points.sum()) + k.in_hand(cells, side) == k.COUNTERS


def test_the_setters_write_through() -> None:
    cells = np.array(ludoteca.make("pente_grammai").initial_state().cells)
    k.set_counters_on(cells, k.BLUE, k.W3, 4)
    assert k.counters_on(cells, k.BLUE, k.W3) == 4 == k.point_counts(cells, k.BLUE)[k.W3]
    assert k.counters_on(cells, k.WHITE, k.W3) == 0
    k.set_in_hand(cells, k.WHITE, 3)
    k.set_in_store(cells, k.BLUE, 2)
    assert (k.in_hand(cells, k.WHITE), k.in_store(cells, k.BLUE)) == (3, 2)
    assert (k.in_hand(cells, k.BLUE), k.in_store(cells, k.WHITE)) == (5, 0)
