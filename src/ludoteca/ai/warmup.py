"""Compile (or load from numba's cache) everything a game needs, before it is needed.

The rules kernels and the engines' searches are compiled on first use, which takes seconds per
game with a cold cache. A server calls `warm_up` before it accepts requests, so no player waits
on a compiler and a running server never freezes on one.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ludoteca.ai.evaluation import expert_for
from ludoteca.ai.specs import agent_from_spec
from ludoteca.core.registry import game_ids, make

#: Plies of random play per game: enough to reach each kernel (chance, captures, the end).
WARM_UP_PLIES = 400
#: The engines exercised per game, with small budgets: what they compile does not depend on it.
WARM_UP_AGENTS = ("random", "mcts:iters=30,seed=0", "alphabeta:nodes=300,seed=0")

Progress = Callable[[str, int, int], None]


def warm_up(progress: Progress | None = None) -> None:
    """Exercise every registered game's rules and engines once.

    Args:
        progress: Called with (game id, games done, games in all) before each game.
    """
    ids = game_ids()
    for done, game_id in enumerate(ids):
        if progress is not None:
            progress(game_id, done, len(ids))
        warm_up_game(game_id)
    if progress is not None:
        progress("", len(ids), len(ids))


def warm_up_game(game_id: str) -> None:
    """Exercise one game's rules (a random game, its texts) and each engine once."""
    game = make(game_id)
    rng = random.Random(0)
    state = game.initial_state()
    decision = None
    for _ in range(WARM_UP_PLIES):
        if state.is_over:
            break
        moves = state.legal_moves()
        if decision is None and state.to_move is not None and state.to_move >= 0 and len(moves) > 1:
            decision = state
        move = rng.choice(moves)
        state = state.apply(state.parse_move(move.text))
        assert game.parse_state(state.to_text()) == state
    if decision is None:
        return
    specs = list(WARM_UP_AGENTS)
    if expert_for(game) is not None:
        specs.append("expert")
    for spec in specs:
        agent_from_spec(spec, game, seed=0).choose(decision)
