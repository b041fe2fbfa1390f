"""Strength levels 1-5 for every game, and hints.

A level is a search engine with a budget. Each game declares its own five levels in its package
(`ludoteca.core.GameInfo.levels`); a game that declares none gets these (docs/ai.md lists every
game's levels and the tournaments that rank them):

1. **Beginner**: a small MCTS (50 iterations) that plays a random move one time in four.
2. **Casual**: MCTS with 200 iterations.
3. **Club**: MCTS with 1,000 iterations.
4. **Strong**: MCTS with 3,000 iterations.
5. **Strongest**: the best engine for the game: expectimax alpha-beta where it won at equal
   time (40,000 positions in Salt 'n' Pepper, 80,000 in Splinter); MCTS with 10,000 iterations
   by default (5,000 in Salta, whose games are long).

Pente Grammai is solved (`ludoteca.games.pente_grammai.solver`), so its levels play perfectly
except for random moves: one in two at level 1, one in four, one in ten, one in 25, and none at
level 5. Its dice leave little room for skill: perfect play beats MCTS with 200 iterations in
58 % of games, and MCTS with 50 iterations that plays a random move one time in four in 70 %.

Steppin' Stones has a planner (`ludoteca.games.steppin_stones.planner`) that plays a whole game
in well under a second. It is greedy, and a greedy plan walks into jams that random moves break:
alone it won 68.5 % of 200 games, with a random move one time in two 84.3 % of 300. Its levels
mix the planner with random moves, fewer as the level rises; hints show the planner's own move.

A game that ships a learned player (`ludoteca.core.LearnedPlayer`, played by
`ludoteca.ai.neural`) offers it as level 6 where it declares that level: only where the learned
player was measured stronger than level 5.

Every search level also stops at 1.8 s, so a move comes within 2 s on the development machine
(level 5 typically takes 0.3-1.5 s there; the experts answer in milliseconds). Budgets count
iterations or positions rather than seconds, so that a seeded level plays the same moves on any
machine and tournaments between the levels fit in minutes; ``mcts:seconds=1.9`` or
``alphabeta:seconds=1.9`` use the whole two seconds. Salta, whose games last hundreds of
decisions, uses smaller MCTS budgets. A search also stops early when its best move can no
longer change, and at once when a move is forced.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ludoteca.ai.agents import Agent, AgentError
from ludoteca.ai.alphabeta import AlphaBetaAgent
from ludoteca.ai.evaluation import expert_value_kind
from ludoteca.ai.expert import ExpertAgent
from ludoteca.ai.mcts import MCTSAgent
from ludoteca.ai.neural.agent import NeuralAgent
from ludoteca.core.game import Game, Move, State
from ludoteca.core.info import LEVELS, Engine, LevelSetting

__all__ = [
    "LEVELS",
    "MOVE_TIME_CAP",
    "BlunderingAgent",
    "Engine",
    "Hint",
    "LevelSetting",
    "hint",
    "level_setting",
    "make_agent",
    "rollout_plies",
]


MOVE_TIME_CAP = 1.8  # seconds: every level answers within 2 s on the development machine


def rollout_plies(game: Game) -> int | None:
    """Plies of random rollout before the heuristic evaluation in ``game``'s MCTS searches.

    ``None`` plays rollouts to the end of the game (see `ludoteca.core.GameInfo.rollout_plies`).
    """
    return game.info.rollout_plies


def level_setting(game: Game, level: int) -> LevelSetting:
    """The setting of ``level`` for ``game``.

    Raises:
        AgentError: ``level`` is not one of the game's levels (1-5, and 6 where declared).
    """
    try:
        return game.info.level(level)
    except ValueError as error:
        raise AgentError(str(error)) from None


def make_agent(game: Game, level: int = 3, *, seed: int | None = None) -> Agent:
    """The computer player of ``level`` (1 weakest - 5 strongest; 6 where a game declares one).

    Raises:
        AgentError: ``level`` is not one of the game's levels.
    """
    setting = level_setting(game, level)
    name = f"level:{level}"
    if setting.engine == "neural":
        return NeuralAgent(
            game, iterations=setting.budget, seconds=MOVE_TIME_CAP, seed=seed, name=name
        )
    engine: MCTSAgent | AlphaBetaAgent | ExpertAgent
    if setting.engine == "expert":
        engine = ExpertAgent(game, name=name)
    elif setting.engine == "alphabeta":
        engine = AlphaBetaAgent(
            game, seconds=MOVE_TIME_CAP, max_nodes=setting.budget, seed=seed, name=name
        )
    else:
        engine = MCTSAgent(
            game,
            iterations=setting.budget,
            seconds=MOVE_TIME_CAP,
            rollout_plies=rollout_plies(game),
            seed=seed,
            name=name,
        )
    if setting.blunder:
        return BlunderingAgent(engine, setting.blunder, seed=seed)
    return engine


class BlunderingAgent(Agent):
    """Plays like ``inner`` but picks a uniformly random move with probability ``rate``."""

    def __init__(self, inner: Agent, rate: float, *, seed: int | None = None) -> None:
        if not 0.0 <= rate <= 1.0:
            raise AgentError(f"a blunder rate is between 0 and 1; got {rate}")
        self.inner = inner
        self.game = inner.game
        self.rate = rate
        self.name = inner.name
        self._rng = random.Random(seed)

    def _choose(self, state: State) -> Move:
        if self._rng.random() < self.rate:
            return self._rng.choice(state.legal_moves())
        return self.inner.choose(state)


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move with the engine's estimate.

    Attributes:
        move: The move the level-5 engine would play.
        win_chance: The engine's value of the move for the player to move, read from 0 to 1:
            its estimated chance of winning (a draw counts half), or, when ``estimate`` is
            ``"progress"``, how far the game has come; that is not a chance.
        level: The level that produced it.
        estimate: ``"win chance"`` or ``"progress"`` (Steppin' Stones' planner scores how far
            the suits have come towards home).
    """

    move: Move
    win_chance: float
    level: int
    estimate: str = "win chance"

    @property
    def meaning(self) -> str:
        """The number in words, e.g. ``"estimated win chance 62%"``."""
        if self.estimate == "progress":
            return (
                f"progress {self.win_chance:.0%} of the way home after it, by the planner's "
                "measure; not a win chance"
            )
        return f"estimated win chance {self.win_chance:.0%}"


def hint(state: State, *, level: int = 5, seed: int | None = 0) -> Hint:
    """The move the computer at ``level`` would play in ``state``, with its win chance.

    Raises:
        AgentError: The game is over, ``state`` is a chance node, or ``level`` is not 1-5.
    """
    agent = make_agent(state.game, level, seed=seed)
    engine = agent.inner if isinstance(agent, BlunderingAgent) else agent  # hints never blunder
    assert isinstance(engine, MCTSAgent | AlphaBetaAgent | ExpertAgent | NeuralAgent)
    result = engine.search(state)
    estimate = expert_value_kind(state.game) if isinstance(engine, ExpertAgent) else "win chance"
    return Hint(
        move=result.move,
        win_chance=min(1.0, max(0.0, result.win_chance)),
        level=level,
        estimate=estimate,
    )
