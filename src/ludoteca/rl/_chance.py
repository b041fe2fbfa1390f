"""Chance nodes played out inside an environment, from the environment's own seeded generator.

The environments give their agents decision points only: dice and random first players are
rolled here with their probabilities, so that ``reset(seed=...)`` makes a whole game repeatable.
"""

from __future__ import annotations

import numpy as np

from ludoteca.core.game import State
from ludoteca.core.outcome import CHANCE


def roll_chance(state: State, rng: np.random.Generator) -> State:
    """The first position from ``state`` where a player chooses, or the game is over.

    Each chance outcome is drawn with its probability, one uniform number from ``rng`` each.
    """
    while state.to_move == CHANCE:
        outcomes = state.chance_outcome_actions()
        cumulative = np.cumsum([probability for _, probability in outcomes])
        # The draw is scaled by the total so that rounding in the probabilities never leaves
        # the last outcome out of reach.
        pick = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
        state = state.apply_action(outcomes[min(pick, len(outcomes) - 1)][0])
    return state
