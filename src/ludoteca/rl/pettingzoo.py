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
a seed and the same actions replay the same game. An action of the action space that is not
legal loses the game, as in every interface of ``ludoteca.rl``: -1 to the agent that chose it,
+1 to every other, all terminated, ``info["illegal_action"]`` True for that agent, and the
position left as it was. A value outside the action space raises `IllegalMoveError`.
``render_mode="ansi"`` renders the board as the terminal shows it, ``"rgb_array"`` as the web
page draws it (`ludoteca.rl.rendering`).

With ``parallelizable=True`` every agent steps once per cycle, in seat order: the agent to move
at the start of the cycle chooses the move, the others' actions are ignored (their masks are all
0), and the move is played when the cycle ends. That is the shape PettingZoo's own conversion
needs, so `parallel_env` is ``aec_to_parallel`` of such an environment: all agents give an
action at every step and only the player to move's counts.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import aec_to_parallel

from ludoteca.core.errors import IllegalMoveError
from ludoteca.core.game import Game, State
from ludoteca.core.registry import make
from ludoteca.rl._chance import roll_chance
from ludoteca.rl._spaces import action_mask_box, action_space, observation_box

Observation = dict[str, npt.NDArray[Any]]


RENDER_MODES = ("ansi", "rgb_array")


def pettingzoo_env(game_id: str, **options: Any) -> LudotecaAECEnv:
    """The AEC environment of ``game_id`` (see the module docs).

    ``render_mode`` (``None``, ``"ansi"`` or ``"rgb_array"``) and ``parallelizable`` are taken
    from the keywords; the others are the game's options. (Options often come as one dict, so
    this keeps ``**options`` whole.)

    Raises:
        UnknownGameError: No game has this id.
        InvalidOptionError: An unknown option or a refused value; the message lists what is
            accepted.
        ValueError: An unknown render mode.
    """
    render_mode = options.pop("render_mode", None)
    parallelizable = bool(options.pop("parallelizable", False))
    return LudotecaAECEnv(
        make(game_id, **options), render_mode=render_mode, parallelizable=parallelizable
    )


def parallel_env(game_id: str, **options: Any) -> ParallelEnv[str, Observation, int | None]:
    """The game as a PettingZoo parallel environment: PettingZoo's ``aec_to_parallel`` of it.

    Every agent gives an action at every step; only the action of the player to move counts
    (the others' masks are all 0; give them 0 or any action). Keywords as for `pettingzoo_env`.
    """
    return aec_to_parallel(pettingzoo_env(game_id, parallelizable=True, **options))


class LudotecaAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """One game of Ludoteca as a PettingZoo AEC environment (see the module docs)."""

    agent_selection: str

    def __init__(
        self, game: Game, render_mode: str | None = None, *, parallelizable: bool = False
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode {render_mode!r} is not supported; accepted: None, 'ansi', 'rgb_array'"
            )
        self.game = game
        self.render_mode = render_mode
        self.parallelizable = parallelizable
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "render_fps": 4,
            "is_parallelizable": parallelizable,
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
        #: The global state's space: the whole position, as seat 0 sees it (see `state`).
        self.state_space = observation_box(game)
        self._rng: np.random.Generator | None = None
        #: The current position in the single-game API (an immutable `State`).
        self.position: State = game.initial_state()
        self._mask: npt.NDArray[np.int8] = np.zeros(game.num_actions, dtype=np.int8)
        self._mover = ""  # the agent to move (in a cycle: at its start); "" once over
        self._chosen: int | None = None  # the mover's action, in a cycle not yet ended

    def __str__(self) -> str:
        return str(self.metadata["name"])

    def state(self) -> npt.NDArray[np.float32]:
        """The global state (PettingZoo's ``state()``): the position as seat 0 sees it.

        The games have perfect information, so one player's view holds the whole position;
        its space is ``state_space``.
        """
        return self.position.observation(0)

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
        self._chosen = None
        self._enter(roll_chance(self.game.initial_state(), self._rng))

    def step(self, action: int | None) -> None:
        """Play ``action`` (a legal move's index) for the agent to move, then roll any dice.

        A finished agent steps with ``None``, as PettingZoo asks. In a parallelizable
        environment an agent that is not to move may give any action (it is ignored), and the
        move is played when the last agent of the cycle has stepped.

        An action of the action space that is not legal here loses the game for the agent
        that chose it (see the module docs); the move is not played.

        Raises:
            ResetNeeded: No game has been started (call ``reset`` first).
            IllegalMoveError: The agent to move gave ``None`` or a value outside the action
                space (a ValueError); nothing has changed.
        """
        if self._rng is None:
            raise ResetNeeded("no game has been started: call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if agent == self._mover:
            self._chosen = self._action_index(agent, action)
        self._cumulative_rewards[agent] = 0.0
        if self.parallelizable and agent != self.possible_agents[-1]:
            self.agent_selection = self.possible_agents[self.possible_agents.index(agent) + 1]
            return
        chosen, self._chosen = self._chosen, None
        assert chosen is not None  # the mover has stepped: first in its turn or in the cycle
        if chosen not in self.position.legal_actions():
            self._lose_by_illegal_action(self._mover)
            return
        self._enter(roll_chance(self.position.apply_action(chosen), self._rng))
        self._accumulate_rewards()

    def _action_index(self, agent: str, action: Any) -> int:
        """``action`` as an index of the action space, for ``agent``, who is to move."""
        if action is None:
            raise IllegalMoveError(f"{agent} is to move and must play an action, not None")
        try:
            index = int(operator.index(action))
        except TypeError:
            index = -1
        if not 0 <= index < self.game.num_actions:
            raise IllegalMoveError(
                f"an action is an integer from 0 to {self.game.num_actions - 1}; got {action!r}"
            )
        return index

    def _lose_by_illegal_action(self, agent: str) -> None:
        """End the game as lost by ``agent``: -1 to it, +1 to every other agent."""
        self._mover = ""
        self._chosen = None
        self._mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self.rewards = {other: -1.0 if other == agent else 1.0 for other in self.agents}
        self.terminations = {other: True for other in self.agents}
        self.infos = {
            other: {"action_mask": self._mask_of(other), "illegal_action": other == agent}
            for other in self.agents
        }
        if self.parallelizable:
            self.agent_selection = self.agents[0]
        self._accumulate_rewards()

    def _enter(self, state: State) -> None:
        """Make ``state`` (a decision node or the end) the current position."""
        self.position = state
        if not state.is_over:
            player = state.to_move
            assert player is not None and player >= 0  # roll_chance stops at decisions only
            self._mover = self.possible_agents[player]
            self.agent_selection = self.possible_agents[0] if self.parallelizable else self._mover
            self._mask = state.legal_action_mask().astype(np.int8)
            self.rewards = {agent: 0.0 for agent in self.agents}
        else:
            self._mover = ""
            # Every agent gets a last turn to see the end, the last mover first.
            if getattr(self, "agent_selection", None) not in self.agents or self.parallelizable:
                self.agent_selection = self.agents[0]
            self._mask = np.zeros(self.game.num_actions, dtype=np.int8)
            returns = state.returns()
            self.rewards = {
                agent: float(returns[self.possible_agents.index(agent)]) for agent in self.agents
            }
            self.terminations = {agent: True for agent in self.agents}
        self.infos = {agent: {"action_mask": self._mask_of(agent)} for agent in self.agents}

    def _mask_of(self, agent: str) -> npt.NDArray[np.int8]:
        if agent == self._mover:
            return self._mask.copy()
        return np.zeros(self.game.num_actions, dtype=np.int8)

    def observe(self, agent: str) -> Observation:
        """``agent``'s view: the observation tensor and its action mask (fresh arrays)."""
        player = self.possible_agents.index(agent)
        return {
            "observation": np.asarray(self.position.observation(player), dtype=np.float32),
            "action_mask": self._mask_of(agent),
        }

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The board: as the terminal shows it (``"ansi"``), or as an RGB array (``"rgb_array"``).

        Nothing without a render mode.
        """
        if self.render_mode == "ansi":
            return str(self.position)
        if self.render_mode == "rgb_array":
            from ludoteca.rl.rendering import board_rgb

            return board_rgb(self.position)
        return None

    def close(self) -> None:
        """Nothing to release: the environment holds no outside resources."""
