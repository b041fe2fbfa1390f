"""Pente Grammai's kernels play the same seeded random games as before they were made faster."""

from __future__ import annotations

from typing import Any

import pytest

import ludoteca
from ludoteca.core.array_state import KernelGame
from tests.games.playout_identity import fingerprint

# Recorded from the kernels before the speed-up (see tests/games/playout_identity.py).
EXPECTED: dict[str, tuple[dict[str, str], dict[str, Any]]] = {
    "pente_grammai": (
        {},
        {
            "totals_1_0": [1269, 634, 1300, 1269, 0, 634, 0, 0, 1],
            "totals_7_1": [10565, 5279, 10697, 4597, 0, 5279, 0, 5, 2],
            "totals_50_12345": [52630, 26290, 53321, 4309, 0, 26290, 0, 27, 23],
            "records": "ce69ff9d679b102d",
            "rollouts": "0c5625a9b1ce3760",
        },
    ),
    "pente_grammai,sacred=storage": (
        {"sacred": "storage"},
        {
            "totals_1_0": [145, 72, 91, 145, 0, 72, 0, 0, 1],
            "totals_7_1": [873, 433, 544, 259, 2, 433, 0, 0, 5],
            "totals_50_12345": [7484, 3717, 4858, 251, 4, 3717, 0, 22, 24],
            "records": "8c67f52e5198dd01",
            "rollouts": "78ccf012d88c37f0",
        },
    ),
}


@pytest.mark.parametrize("configuration", sorted(EXPECTED))
def test_seeded_random_play_is_unchanged(configuration: str) -> None:
    options, expected = EXPECTED[configuration]
    game = ludoteca.make("pente_grammai", **options)
    assert isinstance(game, KernelGame)
    assert fingerprint(game) == expected
