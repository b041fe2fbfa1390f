"""Finding a game's AI knowledge (``games/<game>/heuristics.py``) for the agents.

A heuristics module provides:

- ``evaluate(state) -> tuple[float, ...]``: the estimated return of each player, in [-1, 1],
  for a running position; the searches use it. Games without one are searched with rollouts to
  the end of the game only.
- optionally ``expert_move(state) -> tuple[int, float]``: the game's own best move at a decision
  node (an action of ``state.legal_actions()``) and its value to the mover in [-1, 1], from
  knowledge a general search lacks: an exact solution, or a planner. `ExpertAgent` plays it.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from types import ModuleType

from ludoteca.core.game import Game, State

Evaluator = Callable[[State], tuple[float, ...]]
ExpertMove = Callable[[State], tuple[int, float]]


def _heuristics_module(game: Game) -> ModuleType | None:
    name = f"{type(game).__module__}.heuristics"  # game classes live in their package
    try:
        if importlib.util.find_spec(name) is None:
            return None
    except ModuleNotFoundError:
        return None
    return importlib.import_module(name)


def evaluator_for(game: Game) -> Evaluator | None:
    """The ``evaluate`` function of ``game``'s heuristics module, or ``None`` if it has none."""
    module = _heuristics_module(game)
    if module is None:
        return None
    evaluate: Evaluator = module.evaluate
    return evaluate


def expert_for(game: Game) -> ExpertMove | None:
    """The ``expert_move`` function of ``game``'s heuristics module, or ``None`` if it has none."""
    module = _heuristics_module(game)
    expert: ExpertMove | None = getattr(module, "expert_move", None)
    return expert


def expert_value_kind(game: Game) -> str:
    """What the expert's value means: ``"win chance"`` or ``"progress"``.

    ``"win chance"`` (the default) is an expected return, as from a solved game; ``"progress"``
    is how far the game has come, declared by the game's heuristics module as ``EXPERT_VALUE``.
    """
    kind: str = getattr(_heuristics_module(game), "EXPERT_VALUE", "win chance")
    return kind
