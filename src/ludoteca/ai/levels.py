"""Strength levels 1-5 for every game, and hints.

A level is a search engine with a budget, tuned per game (docs/ai.md lists them and the
tournaments that rank them):

1. **Beginner**: a small MCTS (50 iterations) that plays a random move one time in four.
2. **Casual**: MCTS with 200 iterations.
3. **Club**: MCTS with 1,000 iterations.
4. **Strong**: MCTS with 3,000 iterations.
5. **Strongest**: the best engine for the game: expectimax alpha-beta where it won at equal
   time (40,000 positions in Salt 'n' Pepper, 80,000 in Splinter); MCTS with 10,000 iterations
   by default (5,000 in Salta, whose games are long).

Pente Grammai is solved (`ludoteca.games.pente_grammai.solution`), so its levels play perfectly
except for random moves: one in two at level 1, one in four, one in ten, one in 25, and none at
level 5. Its dice leave little room for skill: perfect play beats MCTS with 200 iterations in
58 % of games, and MCTS with 50 iterations that plays a random move one time in four in 70 %.

Steppin' Stones has a planner (`ludoteca.games.steppin_stones.planner`) that plays a whole game
in well under a second. It is greedy, and a greedy plan walks into jams that random moves break:
alone it won 68.5 % of 200 games, with a random move one time in two 84.3 % of 300. Its levels
mix the planner with random moves, fewer as the level rises; hints show the planner's own move.

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
from typing import Literal

from ludoteca.ai.agents import Agent, AgentError
from ludoteca.ai.alphabeta import AlphaBetaAgent
from ludoteca.ai.evaluation import expert_value_kind
from ludoteca.ai.expert import ExpertAgent
from ludoteca.ai.mcts import MCTSAgent
from ludoteca.core.game import Game, Move, State

LEVELS = (1, 2, 3, 4, 5)
Engine = Literal["mcts", "alphabeta", "expert"]


@dataclass(frozen=True, slots=True)
class LevelSetting:
    """How one level plays.

    Attributes:
        summary: One line for menus and docs.
        engine: ``"mcts"``, ``"alphabeta"`` or ``"expert"`` (the game's own expert move).
        budget: MCTS iterations, or alpha-beta positions searched, per move (0 for the expert).
        blunder: Chance of playing a uniformly random move instead.
    """

    summary: str
    engine: Engine
    budget: int
    blunder: float = 0.0


MOVE_TIME_CAP = 1.8  # seconds: every level answers within 2 s on the development machine

_DEFAULT_LEVELS = (
    LevelSetting("beginner: MCTS 50 iterations, a random move one time in four", "mcts", 50, 0.25),
    LevelSetting("casual: MCTS 200 iterations", "mcts", 200),
    LevelSetting("club: MCTS 1,000 iterations", "mcts", 1000),
    LevelSetting("strong: MCTS 3,000 iterations", "mcts", 3000),
    LevelSetting("strongest: MCTS 10,000 iterations", "mcts", 10_000),
)

#: Per game: plies of random rollout before the heuristic evaluation (``None``: to the end).
ROLLOUT_PLIES: dict[str, int | None] = {
    "pente_grammai": 10,
    "salt_n_pepper": 10,
    "salta": 10,
    "splinter": 4,
    "steppin_stones": 10,
}


#: Per game: level settings that differ from the defaults, by level number.
_GAME_LEVELS: dict[str, dict[int, LevelSetting]] = {
    "pente_grammai": {  # solved: every level plays perfectly, but for its random moves
        1: LevelSetting("beginner: a random move one time in two", "expert", 0, 0.5),
        2: LevelSetting("casual: a random move one time in four", "expert", 0, 0.25),
        3: LevelSetting("club: a random move one time in ten", "expert", 0, 0.1),
        4: LevelSetting("strong: a random move one time in 25", "expert", 0, 0.04),
        5: LevelSetting("strongest: perfect play (the game is solved)", "expert", 0),
    },
    "salta": {  # long games (about 180 decisions a side): smaller budgets than the default
        4: LevelSetting("strong: MCTS 2,000 iterations", "mcts", 2000),
        5: LevelSetting("strongest: MCTS 5,000 iterations", "mcts", 5000),
    },
    "salt_n_pepper": {
        5: LevelSetting("strongest: alpha-beta, 40,000 positions", "alphabeta", 40_000),
    },
    "splinter": {
        5: LevelSetting("strongest: alpha-beta, 80,000 positions", "alphabeta", 80_000),
    },
    "steppin_stones": {  # the planner; a random move breaks the jams a greedy plan walks into
        1: LevelSetting(
            "beginner: a random move 9 times in 10, else the planner's", "expert", 0, 0.9
        ),
        2: LevelSetting(
            "casual: a random move 7 times in 8, else the planner's", "expert", 0, 0.875
        ),
        3: LevelSetting(
            "club: a random move 17 times in 20, else the planner's", "expert", 0, 0.85
        ),
        4: LevelSetting("strong: a random move 4 times in 5, else the planner's", "expert", 0, 0.8),
        5: LevelSetting(
            "strongest: the planner, with a random move one time in two", "expert", 0, 0.5
        ),
    },
}


def rollout_plies(game: Game) -> int | None:
    """Plies of random rollout before the heuristic evaluation in ``game``'s MCTS searches.

    ``None`` plays rollouts to the end of the game.
    """
    return ROLLOUT_PLIES.get(game.id)


def level_setting(game: Game, level: int) -> LevelSetting:
    """The setting of ``level`` for ``game``.

    Raises:
        AgentError: ``level`` is not 1-5.
    """
    if isinstance(level, bool) or level not in LEVELS:
        raise AgentError(f"level must be 1, 2, 3, 4 or 5; got {level!r}")
    return _GAME_LEVELS.get(game.id, {}).get(level, _DEFAULT_LEVELS[level - 1])


def make_agent(game: Game, level: int = 3, *, seed: int | None = None) -> Agent:
    """The computer player of ``level`` (1 weakest - 5 strongest) for ``game``.

    Raises:
        AgentError: ``level`` is not 1-5.
    """
    setting = level_setting(game, level)
    name = f"level:{level}"
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
    assert isinstance(engine, MCTSAgent | AlphaBetaAgent | ExpertAgent)
    result = engine.search(state)
    estimate = expert_value_kind(state.game) if isinstance(engine, ExpertAgent) else "win chance"
    return Hint(
        move=result.move,
        win_chance=min(1.0, max(0.0, result.win_chance)),
        level=level,
        estimate=estimate,
    )
