"""A game's AI knowledge, as its package declares it (`ludoteca.core.GameInfo`).

- ``evaluate(state) -> tuple[float, ...]``: the estimated return of each player, in [-1, 1],
  for a running position; the searches use it. Games without one are searched with rollouts to
  the end of the game only.
- ``expert(state) -> tuple[int, float]``: the game's own best move at a decision node (an action
  of ``state.legal_actions()``) and its value to the mover in [-1, 1], from knowledge a general
  search lacks: an exact solution, or a planner. `ExpertAgent` plays it.
"""

from __future__ import annotations

from ludoteca.core.game import Game
from ludoteca.core.info import Evaluator, ExpertMove, ExpertValue

__all__ = ["Evaluator", "ExpertMove", "evaluator_for", "expert_for", "expert_value_kind"]


def evaluator_for(game: Game) -> Evaluator | None:
    """The heuristic evaluation ``game`` declares, or ``None`` if it has none."""
    return game.info.evaluate


def expert_for(game: Game) -> ExpertMove | None:
    """The expert move ``game`` declares, or ``None`` if it has none."""
    return game.info.expert


def expert_value_kind(game: Game) -> ExpertValue:
    """What the expert's value means: ``"win chance"`` or ``"progress"``.

    ``"win chance"`` (the default) is an expected return, as from a solved game; ``"progress"``
    is how far the game has come.
    """
    return game.info.expert_value
