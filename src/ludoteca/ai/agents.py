"""The agent interface and the random agent.

An agent chooses a move for the player to move. Agents own their random generator, seeded at
construction, so the same seed and the same positions give the same moves.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Move, State
from ludoteca.core.outcome import CHANCE


class AgentError(LudotecaError):
    """An agent was asked for a move where none can be chosen, or an agent spec is invalid."""


class Agent(ABC):
    """Something that chooses moves: `choose` checks the position, `_choose` decides."""

    #: A short name for tables and saved games, e.g. ``"random"``.
    name: str

    def choose(self, state: State) -> Move:
        """A legal move for the player to move in ``state``.

        Raises:
            AgentError: The game is over, or ``state`` is a chance node (dice are rolled, not
                chosen).
        """
        require_decision_node(state)
        return self._choose(state)

    @abstractmethod
    def _choose(self, state: State) -> Move:
        """Choose among ``state.legal_moves()``; ``state`` is a decision node."""


def require_decision_node(state: State) -> None:
    """Check that a player chooses in ``state``: searches call this before they start.

    Raises:
        AgentError: The game is over, or ``state`` is a chance node.
    """
    if state.is_over:
        raise AgentError("the game is over; there is no move to choose")
    if state.to_move == CHANCE:
        raise AgentError(
            "this is a chance node: its outcome is rolled (see chance_outcomes()), not chosen "
            "by an agent"
        )


class RandomAgent(Agent):
    """Plays a uniformly random legal move."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self._rng = random.Random(seed)

    def _choose(self, state: State) -> Move:
        return self._rng.choice(state.legal_moves())
