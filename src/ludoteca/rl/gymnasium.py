"""Gymnasium: every game as a single-agent environment, against a fixed opponent when it has one.

Importing this module (``import ludoteca.rl`` does) registers one environment per game, named
after the game: ``ludoteca/SteppinStones-v0`` (the solitaire), ``ludoteca/Salta-v0``,
``ludoteca/Splinter-v0`` and so on. ``gymnasium.make("ludoteca.rl:ludoteca/Salta-v0")`` imports
it on the way::

    env = gymnasium.make("ludoteca/Splinter-v0", opponent="level:2", size=7)
    observation, info = env.reset(seed=1)
    action = int(np.flatnonzero(info["action_mask"])[0])
    observation, reward, terminated, truncated, info = env.step(action)

The agent plays ``player`` (default 0); ``opponent`` is an agent spec (``random``, the default,
``level:1`` to ``level:5``, ``mcts:iters=200``, ... as on the command line) that plays every other
seat. Every other keyword is a game option. Observations are the float32 tensor of
``state.observation(player)``; actions are move indices (``Discrete(game.num_actions)``), and
``info["action_mask"]`` marks the legal ones with 1. The opponent's moves and every chance
outcome are played inside ``step``, from the generator that ``reset(seed=...)`` seeds (the
opponent is seeded from it too), so a seed and the same actions replay the same game.

The reward is 0 until the end, then the game's return for the agent (+1 win, -1 loss, 0 draw).
An action of the action space that is not legal in the position loses the game, as in every
interface of ``ludoteca.rl``: reward -1, ``terminated``, ``info["illegal_action"] = True``, and
the position is left as it was. Mask the policy with ``action_masks()`` (sb3-contrib's
MaskablePPO reads it) or ``info["action_mask"]``. A value outside the action space raises
`IllegalMoveError` (a ValueError). Games end by their rules or their engine
safeguards (a move limit is a draw), so episodes end as terminated, never truncated.
``render_mode="ansi"`` gives the terminal's board, ``"rgb_array"`` the web page's drawing as an
RGB array (`ludoteca.rl.rendering`), so Gymnasium's ``RecordVideo`` can film episodes.
"""

from __future__ import annotations

import operator
import re
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.error import ResetNeeded

from ludoteca.ai.agents import Agent
from ludoteca.ai.specs import agent_from_spec
from ludoteca.core.errors import IllegalMoveError, InvalidOptionError
from ludoteca.core.game import Game, State
from ludoteca.core.registry import game_class, game_ids, make
from ludoteca.rl._chance import roll_chance
from ludoteca.rl._spaces import action_space, observation_box

#: The namespace of Ludoteca's environments in Gymnasium's registry.
NAMESPACE = "ludoteca"
_SEED_LIMIT = 2**31  # agent seeds drawn from the environment's generator


def env_name(game: type[Game] | Game) -> str:
    """The environment's name for a game: its name in capitalised words, ``"SaltNPepper"``."""
    words = re.findall(r"[A-Za-z0-9]+", game.name)
    return "".join(word[0].upper() + word[1:] for word in words)


def env_id(game: type[Game] | Game) -> str:
    """The registered id of a game's environment, e.g. ``"ludoteca/SaltNPepper-v0"``."""
    return f"{NAMESPACE}/{env_name(game)}-v0"


def register_envs() -> tuple[str, ...]:
    """Register every game's environment (built-in, plug-in and registered games); the ids.

    Registering again does nothing for ids already registered.
    """
    registered = []
    for game_id in game_ids():
        name = env_id(game_class(game_id))
        if name not in gymnasium.registry:
            gymnasium.register(
                id=name,
                entry_point=f"{__name__}:LudotecaEnv",
                kwargs={"game_id": game_id},
            )
        registered.append(name)
    return tuple(registered)


class LudotecaEnv(gymnasium.Env[npt.NDArray[Any], np.int64]):
    """One game of Ludoteca for a single agent (see the module docs)."""

    # Gymnasium reads the render modes from the class, before it makes an environment.
    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        *,
        opponent: str | None = None,
        player: int = 0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        """Build the environment; every keyword after ``render_mode`` is a game option.

        Raises:
            UnknownGameError, InvalidOptionError: A bad game id or option.
            AgentError: A bad opponent spec (the message lists the accepted ones).
            ValueError: A bad ``player`` or ``render_mode``, or an opponent for a solitaire.
        """
        game = make(game_id, **options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not supported; accepted: None, 'ansi', 'rgb_array'"
            )
        if isinstance(player, bool) or not isinstance(player, int):
            raise ValueError(f"player must be an integer player index; got {player!r}")
        if not 0 <= player < game.num_players:
            raise ValueError(
                f"player must be from 0 to {game.num_players - 1} in {game.name}; got {player}"
            )
        if game.num_players == 1 and opponent is not None:
            raise InvalidOptionError(f"{game.name} is a solitaire: it has no opponent")
        self.game = game
        self.player = player
        self.opponent = "random" if opponent is None and game.num_players > 1 else opponent
        if self.opponent is not None:
            agent_from_spec(self.opponent, game)  # a bad spec is refused here, not at reset
        self.render_mode = render_mode
        self.observation_space = observation_box(game)
        self.action_space = action_space(game)
        #: The current position in the single-game API (an immutable `State`).
        self.position: State = game.initial_state()
        self._opponents: dict[int, Agent] = {}
        self._episode_over = True  # until reset() starts a game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Start a new game: roll its chance nodes and play the opponent up to the agent's turn."""
        super().reset(seed=seed)
        if self.opponent is not None:
            self._opponents = {
                seat: agent_from_spec(
                    self.opponent, self.game, seed=int(self.np_random.integers(_SEED_LIMIT))
                )
                for seat in range(self.game.num_players)
                if seat != self.player
            }
        self.position = self._play_on(self.game.initial_state())
        self._episode_over = self.position.is_over
        return self._observation(), self._info()

    def step(
        self, action: int | np.int64
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play ``action`` for the agent, then the opponent and the dice up to its next turn.

        An action of the action space that is not legal here loses the game: reward -1,
        ``terminated``, ``info["illegal_action"] = True``, the position unchanged.

        Raises:
            ResetNeeded: The episode is over, or none was started (call ``reset``).
            IllegalMoveError: ``action`` is not an integer of the action space (a ValueError).
        """
        if self._episode_over:
            raise ResetNeeded("no game is under way: call reset() to start one")
        try:
            index = operator.index(action)
        except TypeError:
            index = -1
        if not 0 <= index < self.game.num_actions:
            raise IllegalMoveError(
                f"an action is an integer from 0 to {self.game.num_actions - 1}; got {action!r}"
            )
        if index not in self.position.legal_actions():
            self._episode_over = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), -1.0, True, False, info
        self.position = self._play_on(self.position.apply_action(index))
        self._episode_over = self.position.is_over
        reward = float(self.position.returns()[self.player])
        return self._observation(), reward, self._episode_over, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the agent now, True at each (sb3-contrib's MaskablePPO asks this).

        All False once the episode is over.
        """
        if self._episode_over:
            return np.zeros(self.game.num_actions, dtype=np.bool_)
        return self.position.legal_action_mask()

    def _play_on(self, state: State) -> State:
        """Roll dice and play the opponents from ``state`` until the agent is to move or the end."""
        state = roll_chance(state, self.np_random)
        while not state.is_over and state.to_move != self.player:
            seat = state.to_move
            assert seat is not None and seat >= 0  # roll_chance stops at decisions only
            state = state.apply(self._opponents[seat].choose(state))
            state = roll_chance(state, self.np_random)
        return state

    def _observation(self) -> npt.NDArray[np.float32]:
        return np.asarray(self.position.observation(self.player), dtype=np.float32)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8)}

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


register_envs()
