"""A check shared by the per-game observation tests: `VectorEnv` plays the single-game rules.

Each step of a `VectorEnv` is replayed on the games' `ArrayState` values: the row's action,
then (where the rules call for one) a chance outcome, must reach exactly the position the
batch holds, and the batch's observation, mask, player and rewards must be what the single-game
API says of that position.
"""

from __future__ import annotations

import numpy as np

from ludoteca.core.array_state import ArrayState
from ludoteca.core.outcome import CHANCE
from ludoteca.rl import VectorEnv


def _after_chance(state: ArrayState, target: ArrayState) -> ArrayState:
    """``state`` at a decision; at a chance node, its outcome that gives ``target``.

    In the games checked here a chance node is always followed by a decision.
    """
    if state.to_move != CHANCE:
        return state
    _, children, _ = state.expand()
    for row in children:
        if np.array_equal(row, target.cells):
            return state.child(row)
    raise AssertionError("the batch holds a position that no chance outcome gives")


def check_vector_env_agrees(env: VectorEnv, steps: int) -> int:
    """Step ``env`` with its random actions and check every row against the single game.

    Returns how many games ended during the steps (so the caller can check resets happened).
    """
    observations, masks = env.reset()
    game = env.game
    states = env.states()
    for row, state in enumerate(states):
        assert _after_chance(game.initial_state(), state) == state  # type: ignore[arg-type]
        assert np.array_equal(observations[row], state.observation(int(state.to_move)))
        assert np.array_equal(masks[row], state.legal_action_mask())
    finished = 0
    for _ in range(steps):
        actions = env.random_actions()
        result = env.step(actions)
        after = env.states()
        for row, (before, now) in enumerate(zip(states, after, strict=True)):
            played = before.apply_action(int(actions[row]))
            if result.terminated[row]:
                finished += 1
                assert played.is_over  # (no roll or draw ends a game in these games)
                assert tuple(result.rewards[row]) == played.returns()
                played = _after_chance(game.initial_state(), now)  # type: ignore[arg-type]
            else:
                assert not result.rewards[row].any()
                played = _after_chance(played, now)
            assert played == now
            assert result.players[row] == now.to_move
            assert np.array_equal(result.observations[row], now.observation(int(now.to_move)))
            assert np.array_equal(result.masks[row], now.legal_action_mask())
        states = after
    return finished
