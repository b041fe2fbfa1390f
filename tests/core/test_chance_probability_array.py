"""`ArrayState.chance_probability_array`: the chance outcomes' probabilities for searches."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ludoteca
from ludoteca.core.array_state import ArrayState


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_it_agrees_with_chance_outcomes_along_a_game(game_id: str) -> None:
    rng = random.Random(7)
    state = ludoteca.make(game_id).initial_state()
    for _ in range(60):
        assert isinstance(state, ArrayState)
        probabilities = state.chance_probability_array()
        assert probabilities.dtype == np.float64
        if state.to_move == ludoteca.CHANCE:
            pairs = state.chance_outcome_actions()
            assert state.legal_action_array().tolist() == [index for index, _ in pairs]
            assert probabilities.tolist() == [p for _, p in pairs]
            assert probabilities.sum() == pytest.approx(1.0)
        else:
            assert probabilities.size == 0
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))


def test_it_is_a_fresh_array() -> None:
    state = ludoteca.make("pente_grammai").initial_state()
    assert state.to_move == ludoteca.CHANCE
    assert isinstance(state, ArrayState)
    first = state.chance_probability_array()
    first[0] = 2.0
    assert state.chance_probability_array()[0] == 0.5
