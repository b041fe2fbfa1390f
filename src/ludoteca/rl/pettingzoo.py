"""PettingZoo: every game as an AEC (agent-environment cycle) environment.

>>> env = pettingzoo_env("splinter")            # doctest: +SKIP
>>> env.reset(seed=1)
>>> for agent in env.agent_iter():
...     observation, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else int(observation["action_mask"].argmax())
...     env.step(action)

Agents are named ``player_0``, ``player_1``, ... after the game's player indices. An observation
is a dict: ``"observation"``, the float32 tensor of ``state.observation(player)``, and
``"action_mask"``, an int8 vector over ``game.num_actions`` with 1 for each legal action of the
agent to move (all 0 for the others); the mask is also in the agent's ``info``. Rewards come at
the end only: the game's returns (+1 win, -1 loss, 0 draw). Chance nodes (dice, a random first
player) are rolled inside the environment from its generator, which ``reset(seed=...)`` seeds, so
a seed and the same actions replay the same game. ``render_mode="ansi"`` renders the board as the
terminal shows it.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ludoteca.core.errors import IllegalMoveError
from ludoteca.core.game import Game, State
from ludoteca.core.registry import make
from ludoteca.rl._chance import roll_chance
from ludoteca.rl._spaces import action_mask_box, action_space, observation_box

Observation = dict[str, npt.NDArray[Any]]


def pettingzoo_env(game_id: str, **options: Any) -> LudotecaAECEnv:
    """The AEC environment of ``game_id`` (see the module docs).

    ``render_mode`` (``None`` or ``"ansi"``) is taken from the keywords; the others are the game's
    options. (Options often come as one dict, so this keeps ``**options`` whole.)

    Raises:
        UnknownGameError: No game has this id.
        InvalidOptionError: An unknown option or a refused value; the message lists what is
            accepted.
        ValueError: A render mode other than ``None`` or ``"ansi"``.
    """
    render_mode = options.pop("render_mode", None)
    return LudotecaAECEnv(make(game_id, **options), render_mode=render_mode)


class LudotecaAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """One game of Ludoteca as a PettingZoo AEC environment (see the module docs)."""

    def __init__(self, game: Game, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(
                f"render_mode {render_mode!r} is not supported; accepted: None, 'ansi'"
            )
        self.game = game
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": ["ansi"],
            "is_parallelizable": False,
            "name": f"ludoteca_{game.id}_v0",
        }
        self.possible_agents = [f"player_{p}" for p in range(game.num_players)]
        self.observation_spaces = {
            agent: spaces.Dict(
                {"observation": observation_box(game), "action_mask": action_mask_box(game)}
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: action_space(game) for agent in self.possible_agents}
        self._rng: np.random.Generator | None = None
        self.state: State = game.initial_state()
        self._mask: npt.NDArray[np.int8] = np.zeros(game.num_actions, dtype=np.int8)

    def __str__(self) -> str:
        return str(self.metadata["name"])

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(game.num_actions)`` (the same object on every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` seeds the generator that rolls the dice from here on.

        Without a seed the generator goes on (it is seeded from the operating system the first
        time).
        """
        if seed is not None or self._rng is None:
            self._rng, _ = seeding.np_random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self._enter(roll_chance(self.game.initial_state(), self._rng))

    def step(self, action: int | None) -> None:
        """Play ``action`` (a legal move's index) for the agent to move, then roll any dice.

        A finished agent steps with ``None``, as PettingZoo asks.

        Raises:
            ResetNeeded: No game has been started (call ``reset`` first).
            IllegalMoveError: The action is not legal here (a ValueError); the message lists the
                legal ones.
        """
        if self._rng is None:
            raise ResetNeeded("no game has been started: call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalMoveError(f"{agent} is to move and must play an action, not None")
        try:
            index = operator.index(action)
        except TypeError:
            raise IllegalMoveError(
                f"an action is an integer from 0 to {self.game.num_actions - 1}; got {action!r}"
            ) from None
        self._cumulative_rewards[agent] = 0.0
        self._enter(roll_chance(self.state.apply_action(index), self._rng))
        self._accumulate_rewards()

    def _enter(self, state: State) -> None:
        """Make ``state`` (a decision node or the end) the current position."""
        self.state = state
        if not state.is_over:
            player = state.to_move
            assert player is not None and player >= 0  # roll_chance stops at decisions only
            self.agent_selection = self.possible_agents[player]
            self._mask = state.legal_action_mask().astype(np.int8)
            self.rewards = {agent: 0.0 for agent in self.agents}
        else:
            # Every agent gets a last turn to see the end, the last mover first.
            if getattr(self, "agent_selection", None) not in self.agents:
                self.agent_selection = self.agents[0]
            self._mask = np.zeros(self.game.num_actions, dtype=np.int8)
            returns = state.returns()
            self.rewards = {
                agent: float(returns[self.possible_agents.index(agent)]) for agent in self.agents
            }
            self.terminations = {agent: True for agent in self.agents}
        self.infos = {agent: {"action_mask": self._mask_of(agent)} for agent in self.agents}

    def _mask_of(self, agent: str) -> npt.NDArray[np.int8]:
        if agent == self.agent_selection and not self.state.is_over:
            return self._mask.copy()
        return np.zeros(self.game.num_actions, dtype=np.int8)

    def observe(self, agent: str) -> Observation:
        """``agent``'s view: the observation tensor and its action mask (fresh arrays)."""
        player = self.possible_agents.index(agent)
        return {
            "observation": np.asarray(self.state.observation(player), dtype=np.float32),
            "action_mask": self._mask_of(agent),
        }

    def render(self) -> str | None:
        """The board as the terminal shows it (``render_mode="ansi"``); nothing otherwise."""
        if self.render_mode == "ansi":
            return str(self.state)
        return None

    def close(self) -> None:
        """Nothing to release: the environment holds no outside resources."""
