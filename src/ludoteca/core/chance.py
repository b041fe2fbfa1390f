"""Resolving chance nodes with an explicit random generator.

The rules never draw random numbers: a chance node lists its outcomes with probabilities, and
whoever drives the game (a player's client, an agent, a test) picks one with a generator it owns.
"""

from __future__ import annotations

import random

from ludoteca.core.game import Move, State


def sample_outcome(state: State, rng: random.Random) -> Move:
    """Draw one outcome of the chance node ``state`` with its probability.

    Raises:
        ValueError: ``state`` is not a chance node.
    """
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("sample_outcome needs a chance node; this state has a player to move")
    moves = [move for move, _ in outcomes]
    weights = [probability for _, probability in outcomes]
    return rng.choices(moves, weights=weights, k=1)[0]
