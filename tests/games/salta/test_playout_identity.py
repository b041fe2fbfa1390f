"""Salta's kernels play the same seeded random games as before they were made faster."""

from __future__ import annotations

from typing import Any

import pytest

import ludoteca
from ludoteca.core.array_state import KernelGame
from tests.games.playout_identity import fingerprint

# Recorded from the kernels before the speed-up (see tests/games/playout_identity.py).
EXPECTED: dict[str, tuple[dict[str, str], dict[str, Any]]] = {
    "salta": (
        {},
        {
            "totals_1_0": [1040, 1040, 30837, 1040, 0, 1040, 0, 0, 1],
            "totals_7_1": [7276, 7276, 212400, 1040, 0, 7276, 0, 4, 3],
            "totals_50_12345": [51982, 51982, 1522699, 1040, 2, 51982, 0, 19, 29],
            "records": "cd4b18522cc8cfa8",
            "rollouts": "8a4a9d17fbb6a031",
        },
    ),
    "salta,scoring=simplified": (
        {"scoring": "simplified"},
        {
            "totals_1_0": [240, 240, 3384, 240, 0, 240, 0, 1, 0],
            "totals_7_1": [1680, 1680, 24155, 240, 0, 1680, 0, 3, 4],
            "totals_50_12345": [12000, 12000, 175908, 240, 3, 12000, 0, 26, 21],
            "records": "020b3b41e6c7828d",
            "rollouts": "31cb613e5a9fd1ad",
        },
    ),
}


@pytest.mark.parametrize("configuration", sorted(EXPECTED))
def test_seeded_random_play_is_unchanged(configuration: str) -> None:
    options, expected = EXPECTED[configuration]
    game = ludoteca.make("salta", **options)
    assert isinstance(game, KernelGame)
    assert fingerprint(game) == expected
