"""The agent interface and the random agent.

An agent chooses a move for the player to move. Agents own their random generator, seeded at
construction, so the same seed and the same positions give the same moves.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game, Move, State
from ludoteca.core.outcome import CHANCE


class AgentError(LudotecaError):
    """An agent was asked for a move where none can be chosen, or an agent spec is invalid."""


class Agent(ABC):
    """Something that chooses moves: `choose` checks the position, `_choose` decides."""

    #: A short name for tables and saved games, e.g. ``"random"``.
    name: str
    #: The game (rules and options) the agent was made for; ``None`` plays any game.
    game: Game | None = None

    def choose(self, state: State) -> Move:
        """A legal move for the player to move in ``state``.

        Raises:
            AgentError: The game is over, ``state`` is a chance node (dice are rolled, not
                chosen), or ``state`` belongs to another game than the agent's.
        """
        require_decision_node(state, self.game)
        return self._choose(state)

    @abstractmethod
    def _choose(self, state: State) -> Move:
        """Choose among ``state.legal_moves()``; ``state`` is a decision node."""


def require_decision_node(state: State, game: Game | None = None) -> None:
    """Check that a player chooses in ``state``: searches call this before they start.

    Args:
        state: The position to choose a move in.
        game: The game the searching agent was made for (its rules, heuristics and kernels);
            ``None`` accepts any game.

    Raises:
        AgentError: ``state`` is not a position, is of another game than ``game``, is over, or
            is a chance node.
    """
    if not isinstance(state, State):
        raise AgentError(f"an agent chooses a move in a position (a State); got {state!r}")
    if game is not None and state.game != game:
        raise AgentError(
            f"this agent was made for {game!r} and cannot play a position of {state.game!r}; "
            "make an agent for that game"
        )
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
