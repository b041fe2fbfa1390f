"""Steppin' Stones's kernels play the same seeded random games as before they were made faster."""

from __future__ import annotations

from typing import Any

import pytest

import ludoteca
from ludoteca.core.array_state import KernelGame
from tests.games.playout_identity import fingerprint

# Recorded from the kernels before the speed-up (see tests/games/playout_identity.py).
EXPECTED: dict[str, tuple[dict[str, str], dict[str, Any]]] = {
    "steppin_stones": (
        {},
        {
            "totals_1_0": [4350, 3816, 292775, 4350, 1, 500, 1, 0],
            "totals_7_1": [29634, 25964, 1992568, 4317, 7, 3500, 7, 0],
            "totals_50_12345": [216398, 190167, 14806384, 4488, 50, 25000, 50, 0],
            "records": "2641b45c4fc9506b",
            "rollouts": "3ee3afe1e3d39a18",
        },
    ),
}


@pytest.mark.parametrize("configuration", sorted(EXPECTED))
def test_seeded_random_play_is_unchanged(configuration: str) -> None:
    options, expected = EXPECTED[configuration]
    game = ludoteca.make("steppin_stones", **options)
    assert isinstance(game, KernelGame)
    assert fingerprint(game) == expected
