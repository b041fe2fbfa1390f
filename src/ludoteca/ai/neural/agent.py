"""The neural player: a PUCT search (`ludoteca.ai.neural.puct`) guided by a game's own network.

A game offers it by declaring a `ludoteca.core.info.LearnedPlayer` in its ``GameInfo``: the
weights file it ships and the search budget. The agent evaluates a new position with the network
on the observation of its player to move (``State.observation``): the policy gives the priors of
the legal moves, the value head the position's value. Playing needs numpy and numba only.
"""

from __future__ import annotations

import numpy as np

from ludoteca.ai.agents import Agent, AgentError, require_decision_node
from ludoteca.ai.mcts import SearchResult
from ludoteca.ai.neural.network import Network, NetworkError, load_network
from ludoteca.ai.neural.puct import FloatArray, IntArray, PUCTResult, PUCTSearch
from ludoteca.core.game import Game, Move, State

DEFAULT_EXPLORATION = 1.5


def game_network(game: Game) -> Network:
    """The network ``game`` ships for its learned player.

    Raises:
        AgentError: The game ships none, or its weights cannot be read.
    """
    learned = game.info.learned
    if learned is None:
        raise AgentError(f"{game.name} ships no learned player; `neural` needs a network for it")
    try:
        return load_network(learned.weights, game.id)
    except NetworkError as error:
        raise AgentError(str(error)) from None


class NetworkEvaluator:
    """The leaf evaluator of a network (`ludoteca.ai.neural.puct.LeafEvaluator`).

    It values a position from the observation of its player to move.
    """

    def __init__(self, network: Network) -> None:
        self.network = network

    def __call__(self, state: State, actions: IntArray) -> tuple[FloatArray, float]:
        """The priors of ``actions`` and the value to the player to move."""
        player = state.to_move
        assert player is not None and player >= 0
        return self.network.evaluate(state.observation(player), actions)


class NeuralAgent(Agent):
    """PUCT with chance nodes, guided by a policy/value network.

    Args:
        game: A two-player game (the tree keeps one value per node, player 0's).
        network: The network; ``None`` loads the one ``game`` ships.
        iterations: Iterations per move; ``None`` takes the game's declared budget unless
            ``seconds`` is given.
        seconds: Wall-time limit per move, or ``None``.
        exploration: The constant ``C`` of the selection formula.
        seed: Accepted like every agent's; the search draws nothing at random, so a budget of
            iterations plays the same move on any machine with or without it.
        name: The agent's name in tables.

    Raises:
        AgentError: The game is not for two players, or ships no readable network.
    """

    def __init__(
        self,
        game: Game,
        *,
        network: Network | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        seed: int | None = None,
        name: str | None = None,
    ) -> None:
        if game.num_players != 2:
            raise AgentError(f"the neural player plays two-player games; {game.name} is not one")
        if iterations is not None and iterations < 1:
            raise AgentError(f"iterations must be at least 1; got {iterations}")
        if seconds is not None and not 0 < seconds < 3600:
            raise AgentError(f"seconds must be above 0 and below 3600; got {seconds}")
        self.game = game
        self.network = network if network is not None else game_network(game)
        _check_fits(self.network, game)
        if iterations is None and seconds is None:
            learned = game.info.learned
            iterations = learned.iterations if learned is not None else 800
        self.seed = seed
        self.name = name or "neural"
        self._search = PUCTSearch(
            NetworkEvaluator(self.network),
            iterations=iterations,
            seconds=seconds,
            exploration=exploration,
        )

    def _choose(self, state: State) -> Move:
        return self.search(state).move

    def analyse(self, state: State) -> PUCTResult:
        """The search's statistics at the root ``state`` (a decision node)."""
        require_decision_node(state, self.game)
        return self._search.run(state)

    def search(self, state: State) -> SearchResult:
        """Search ``state`` and report the move as the other engines do (`SearchResult`)."""
        result = self.analyse(state)
        best = result.best
        moves = {move.index: move for move in state.legal_moves()}
        return SearchResult(
            move=moves[int(result.actions[best])],
            value=float(np.clip(result.values[best], -1.0, 1.0)),
            iterations=result.iterations,
            visits={
                moves[int(a)].text: int(v)
                for a, v in zip(result.actions, result.visits, strict=True)
                if v
            },
        )


def _check_fits(network: Network, game: Game) -> None:
    inputs = int(np.prod(game.observation_shape))
    if network.observation_size != inputs or network.num_actions != game.num_actions:
        raise AgentError(
            f"the network takes {network.observation_size} inputs and scores "
            f"{network.num_actions} actions; {game!r} has {inputs} and {game.num_actions} "
            "(it was trained with other options)"
        )
