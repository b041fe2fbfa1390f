"""The expert agent: plays a game's own expert move (``GameInfo.expert``).

Some games have knowledge no general search matches at the same cost. Pente Grammai is solved
outright, so its expert plays perfectly and knows its exact winning chance; Steppin' Stones has
a planner that lays stepping stones towards the pawns' homes. Both answer in milliseconds.
"""

from __future__ import annotations

from ludoteca.ai.agents import Agent, AgentError, require_decision_node
from ludoteca.ai.evaluation import expert_for
from ludoteca.ai.mcts import SearchResult
from ludoteca.core.game import Game, Move, State


class ExpertAgent(Agent):
    """Plays ``game``'s expert move.

    Raises:
        AgentError: ``game`` declares no expert.
    """

    def __init__(self, game: Game, *, name: str = "expert") -> None:
        expert = expert_for(game)
        if expert is None:
            raise AgentError(
                f"{game.id} has no expert player; use level:N, mcts or alphabeta instead"
            )
        self.game = game
        self.name = name
        self._expert = expert

    def _choose(self, state: State) -> Move:
        return self.search(state).move

    def search(self, state: State) -> SearchResult:
        """The expert's move and its value to the mover; ``iterations`` is 1, ``visits`` empty.

        Raises:
            AgentError: ``state`` is over or a chance node.
        """
        require_decision_node(state, self.game)
        action, value = self._expert(state)
        move = state.move_from_index(action)
        return SearchResult(move=move, value=value, iterations=1, visits={})
