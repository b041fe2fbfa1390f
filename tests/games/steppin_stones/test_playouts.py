"""Random playouts of Steppin' Stones: seeded, adding up, and running under every option.

The golden playthroughs (seeded random games written out ply by ply) are in ``data/golden.txt``,
written for every game by ``python -m tools.golden`` and checked by ``tests/games/test_golden.py``.
"""

from __future__ import annotations

import pytest

import ludoteca


def test_random_playouts_are_seeded_and_add_up() -> None:
    game = ludoteca.make("steppin_stones", max_turns=40)
    stats = game.random_playouts(20, seed=5)
    assert stats == game.random_playouts(20, seed=5)
    assert stats.games == 20
    assert sum(stats.wins) + stats.draws == 20  # a solitaire: draws count the lost games
    assert stats.decisions < stats.plies <= 20 * stats.longest
    assert stats.legal_moves >= stats.decisions


@pytest.mark.parametrize(
    "options",
    [{"stones": "highest"}, {"aces": 4, "aces_as_stones": True}, {"large_board": True}],
)
def test_random_playouts_run_under_every_option(options: dict[str, object]) -> None:
    stats = ludoteca.make("steppin_stones", max_turns=30, **options).random_playouts(5, seed=1)
    assert stats.games == 5 and stats.plies > 0
