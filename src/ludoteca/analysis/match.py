"""Playing one game between agents, with chance outcomes drawn from a seeded generator."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ludoteca.ai.agents import Agent
from ludoteca.ai.specs import agent_from_spec
from ludoteca.core import records
from ludoteca.core.chance import sample_outcome
from ludoteca.core.game import Game, Move
from ludoteca.core.outcome import CHANCE


def play_game(
    game: Game, agents: Sequence[Agent], *, seed: int, names: Sequence[str] | None = None
) -> records.GameRecord:
    """Play ``game`` to the end with ``agents[p]`` choosing for player ``p``.

    Chance outcomes come from a generator seeded with ``seed``, so seeded agents give the same
    game again. Returns the game as a record (``names`` become its players).
    """
    rng = random.Random(seed)
    state = game.initial_state()
    moves: list[Move] = []
    while not state.is_over:
        to_move = state.to_move
        if to_move == CHANCE:
            move = sample_outcome(state, rng)
        else:
            assert to_move is not None
            move = agents[to_move].choose(state)
        moves.append(move)
        state = state.apply(move)
    players = tuple(names) if names is not None else tuple(agent.name for agent in agents)
    return records.create(game, moves, players=players)


def play_specs(game: Game, specs: Sequence[str], seed: int) -> records.GameRecord:
    """Play one game between agents built from ``specs`` (one per seat), all seeded from ``seed``.

    Raises:
        AgentError: A spec is invalid.
    """
    agents = [
        agent_from_spec(spec, game, seed=seed * 7919 + seat) for seat, spec in enumerate(specs)
    ]
    return play_game(game, agents, seed=seed, names=specs)
