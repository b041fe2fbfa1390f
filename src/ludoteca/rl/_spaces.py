"""The Gymnasium spaces of a game: its observation tensor and its integer actions."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from ludoteca.core.game import Game


def observation_box(game: Game) -> spaces.Box:
    """The float32 box of ``state.observation(player)``: the game's shape, values 0 to 1.

    Every plane of every game holds 0/1 marks or counts scaled to at most 1 (docs/rl.md).
    """
    return spaces.Box(low=0.0, high=1.0, shape=game.observation_shape, dtype=np.float32)


def action_mask_box(game: Game) -> spaces.Box:
    """The int8 0/1 vector of legal actions, one entry per action of ``game.num_actions``."""
    return spaces.Box(low=0, high=1, shape=(game.num_actions,), dtype=np.int8)


def action_space(game: Game) -> spaces.Discrete:
    """``Discrete(game.num_actions)``: an action is a move's integer index (``move.index``)."""
    return spaces.Discrete(game.num_actions)
