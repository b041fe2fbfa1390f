"""Finding a game's heuristic evaluation (``games/<game>/heuristics.py``) for the searches.

A heuristics module provides ``evaluate(state) -> tuple[float, ...]``: the estimated return of
each player, in [-1, 1], for a running position. Games without one are searched with rollouts to
the end of the game only.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable

from ludoteca.core.game import Game, State

Evaluator = Callable[[State], tuple[float, ...]]


def evaluator_for(game: Game) -> Evaluator | None:
    """The ``evaluate`` function of ``game``'s heuristics module, or ``None`` if it has none."""
    name = f"{type(game).__module__}.heuristics"  # game classes live in their package
    try:
        if importlib.util.find_spec(name) is None:
            return None
    except ModuleNotFoundError:
        return None
    evaluate: Evaluator = importlib.import_module(name).evaluate
    return evaluate
