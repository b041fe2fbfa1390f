"""Splinter's kernels play the same seeded random games as before they were made faster."""

from __future__ import annotations

from typing import Any

import pytest

import ludoteca
from ludoteca.core.array_state import KernelGame
from tests.games.playout_identity import fingerprint

# Recorded from the kernels before the speed-up (see tests/games/playout_identity.py).
EXPECTED: dict[str, tuple[dict[str, str], dict[str, Any]]] = {
    "splinter": (
        {},
        {
            "totals_1_0": [55, 55, 4063, 55, 1, 55, 0, 0, 0],
            "totals_7_1": [357, 357, 35919, 69, 0, 357, 0, 5, 2],
            "totals_50_12345": [2261, 2261, 218810, 74, 4, 2261, 0, 27, 19],
            "records": "97cb419de8371826",
            "rollouts": "7ad9e648d4466ddc",
        },
    ),
}


@pytest.mark.parametrize("configuration", sorted(EXPECTED))
def test_seeded_random_play_is_unchanged(configuration: str) -> None:
    options, expected = EXPECTED[configuration]
    game = ludoteca.make("splinter", **options)
    assert isinstance(game, KernelGame)
    assert fingerprint(game) == expected
