"""Per-game playout records (`KernelGame.playout_records`) against the totals of the same games.

The records kernel plays exactly the games `random_playouts` plays with the same seed, so the
columns of the records sum to the totals, game by game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ludoteca
from ludoteca.core.array_state import KernelGame
from ludoteca.core.game import PlayoutStats
from ludoteca.core.playouts import CURVE_LENGTH, NO_WINNER, PlayoutRecords

CASES: dict[str, tuple[str, dict[str, Any], int]] = {
    "pente_grammai": ("pente_grammai", {}, 20),
    "pente_grammai-capped": ("pente_grammai", {"max_plies": 60}, 20),
    "salt_n_pepper": ("salt_n_pepper", {}, 20),
    "salta-simplified": ("salta", {"scoring": "simplified"}, 10),
    "salta-capped": ("salta", {"move_limit": None, "max_plies": 40}, 10),
    "splinter": ("splinter", {"first": "random"}, 20),
    "steppin_stones": ("steppin_stones", {"max_turns": 30}, 10),
}


def _records(
    case: tuple[str, dict[str, Any], int], seed: int
) -> tuple[PlayoutStats, PlayoutRecords]:
    game_id, options, count = case
    game = ludoteca.make(game_id, **options)
    assert isinstance(game, KernelGame)
    return game.random_playouts(count, seed), game.playout_records(count, seed)


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_records_sum_to_the_totals_of_the_same_games(case: tuple[str, dict[str, Any], int]) -> None:
    stats, records = _records(case, seed=11)
    assert records.games == stats.games == case[2]
    assert int(records.plies.sum()) == stats.plies
    assert int(records.decisions.sum()) == stats.decisions
    assert int(records.legal_moves.sum()) == stats.legal_moves
    assert int(records.turns.sum()) == stats.turns
    assert int(records.safeguard.sum()) == stats.safeguard_ends
    assert int(records.plies.max()) == stats.longest
    assert int((records.winner == NO_WINNER).sum()) == stats.draws
    for player, wins in enumerate(stats.wins):
        assert int((records.winner == player).sum()) == wins
    assert records.legal_curve_sum.shape == records.legal_curve_count.shape == (CURVE_LENGTH,)
    assert int(records.legal_curve_sum.sum()) == stats.legal_moves
    assert int(records.legal_curve_count.sum()) == stats.decisions
    # Every game has a first decision (bin 0), made by one of the players.
    assert int(records.legal_curve_count[0]) == stats.games
    assert set(records.first_mover.tolist()) <= set(range(len(stats.wins)))


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_records_are_seeded(case: tuple[str, dict[str, Any], int]) -> None:
    _, first = _records(case, seed=5)
    _, again = _records(case, seed=5)
    assert np.array_equal(first.plies, again.plies)
    assert np.array_equal(first.legal_curve_sum, again.legal_curve_sum)


def test_safeguard_ends_are_counted() -> None:
    stats, records = _records(("salta", {"move_limit": None, "max_plies": 40}, 10), seed=2)
    assert stats.safeguard_ends == 10 and bool(records.safeguard.all())
    assert (records.plies == 40).all() and (records.winner == NO_WINNER).all()


def test_turns_per_game() -> None:
    """One turn per decision in the one-decision-a-turn games; a roll and its move in Pente
    Grammai (the first-player draw is no turn); several decisions per turn in Steppin' Stones."""
    for case in (CASES["salt_n_pepper"], CASES["splinter"], CASES["pente_grammai"]):
        _, records = _records(case, seed=3)
        assert np.array_equal(records.turns, records.decisions)
    _, stones = _records(CASES["steppin_stones"], seed=3)
    assert (stones.turns <= 30).all() and (stones.decisions >= stones.turns).all()
    assert (stones.turns > 0).all()
    assert (stones.turns[stones.safeguard] == 30).all()  # lost to max_turns=30
