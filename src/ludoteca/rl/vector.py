"""`VectorEnv`: many games of one kind played side by side, one compiled call per step.

Every game of the batch is a row of one ``int32`` array; `VectorEnv.step` hands the whole batch
to the game's ``vector_step`` kernel, which plays each row's action, plays chance outcomes
(drawn from a small generator per row, seeded by ``seed``) until a player must decide, starts a
finished game again, and writes every row's observation and legal-action mask. Only numpy and
numba are needed. docs/rl.md describes the tensors, the rewards and the auto-reset.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ludoteca.core.array_state import ArrayState, KernelGame
from ludoteca.core.game import Game
from ludoteca.core.registry import make
from ludoteca.core.vector_kernels import (
    ENDS_BEFORE_DECISION,
    NO_ILLEGAL,
    random_legal_actions,
    seed_generators,
)

MAX_ENVS = 1 << 20
"""The most games one `VectorEnv` holds (a guard against typos such as ``num_envs=10**9``)."""


class VectorStep(NamedTuple):
    """What `VectorEnv.step` returns, one row per game.

    The arrays are the environment's own buffers, read-only, and overwritten by the next
    `VectorEnv.step` or `VectorEnv.reset`: copy what you keep.

    Attributes:
        observations: float32 ``(num_envs, *game.observation_shape)``, each from the view of
            the row's player to move (after an auto-reset: of the new game).
        masks: bool ``(num_envs, game.num_actions)``, the legal actions of that player.
        rewards: float32 ``(num_envs, game.num_players)``: the finished game's returns in a
            row whose game ended with this step (+1 win, -1 loss, 0 draw), zeros elsewhere.
        terminated: bool ``(num_envs,)``: whether the row's game ended with this step (and a
            new one began).
        players: int64 ``(num_envs,)``: the player to move in each row, whose view the
            observation is.
        illegal: bool ``(num_envs,)``: whether the row's action was not legal, which lost
            the row's game (see `VectorEnv.step`; then ``terminated`` is True too).
    """

    observations: npt.NDArray[np.float32]
    masks: npt.NDArray[np.bool_]
    rewards: npt.NDArray[np.float32]
    terminated: npt.NDArray[np.bool_]
    players: npt.NDArray[np.int64]
    illegal: npt.NDArray[np.bool_]

    def copy(self) -> VectorStep:
        """The same step in fresh, writable arrays that the next step leaves alone."""
        return VectorStep(
            self.observations.copy(),
            self.masks.copy(),
            self.rewards.copy(),
            self.terminated.copy(),
            self.players.copy(),
            self.illegal.copy(),
        )


class VectorEnv:
    """``num_envs`` games of one game and options, stepped together in compiled code.

    Example::

        env = VectorEnv("salt_n_pepper", num_envs=1024, seed=7)
        observations, masks = env.reset()
        for _ in range(100):
            result = env.step(env.random_actions())

    Args:
        game: A game id (with ``options``) or a `Game` made by `ludoteca.make`.
        num_envs: How many games to play side by side (1 to `MAX_ENVS`).
        seed: Fixes every chance outcome: the same seed and the same actions give the same
            games. `random_actions` draws from a generator of its own, also fixed by ``seed``.
            The first `reset` starts from it; a later `reset` without a seed goes on with the
            generators, so it deals new games.
        **options: The game's options when ``game`` is an id.

    Raises:
        ValueError: An unknown game or option, a bad ``num_envs`` or ``seed``, or a game
            without the compiled batch kernels of docs/kernels.md.
    """

    def __init__(self, game: str | Game, num_envs: int, seed: int = 0, **options: Any) -> None:
        if isinstance(game, Game):
            if options:
                raise ValueError("pass options with a game id, not with a Game object")
            the_game = game
        else:
            the_game = make(game, **options)
        missing = [
            name
            for name in ("observation", "action_mask", "vector_reset", "vector_step")
            if not hasattr(getattr(the_game, "kernels", None), name)
        ]
        if not isinstance(the_game, KernelGame) or missing:
            raise ValueError(
                f"{the_game.name} has no compiled batch kernels (observation, action_mask,"
                " vector_reset, vector_step; see docs/kernels.md); VectorEnv needs them"
            )
        self.game: KernelGame = the_game
        self.num_envs = _check_count(num_envs)
        self._seed = _check_seed(seed)
        self.observation_shape: tuple[int, ...] = the_game.observation_shape
        self.num_actions: int = the_game.num_actions
        self.num_players: int = the_game.num_players
        self._initial = np.array(the_game.initial_state().cells, dtype=np.int32)
        n = self.num_envs
        size = int(np.prod(self.observation_shape))
        self._batch = np.empty((n, self._initial.shape[0]), dtype=np.int32)
        self._observations = np.zeros((n, size), dtype=np.float32)
        self._masks = np.zeros((n, self.num_actions), dtype=np.bool_)
        self._players = np.zeros(n, dtype=np.int64)
        self._rewards = np.zeros((n, self.num_players), dtype=np.float32)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._illegal = np.zeros(n, dtype=np.bool_)
        self._chance_rng = np.zeros(n, dtype=np.uint64)
        self._action_rng = np.zeros(n, dtype=np.uint64)
        self._actions = np.zeros(n, dtype=np.int64)
        self._is_reset = False
        self._is_seeded = False  # whether the generators have been seeded from `_seed`
        self._result = self._views()

    def _views(self) -> VectorStep:
        """Read-only views of the buffers, as `step` returns them."""
        return VectorStep(
            _read_only(self._observations.reshape((self.num_envs, *self.observation_shape))),
            _read_only(self._masks),
            _read_only(self._rewards),
            _read_only(self._terminated),
            _read_only(self._players),
            _read_only(self._illegal),
        )

    # A copy or an unpickled env has buffers of its own: the views that `step` returns are
    # made anew over them (a copied view would be a frozen snapshot of the old buffers).
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        del state["_result"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._result = self._views()

    def reset(
        self, seed: int | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Start every game anew; return ``(observations, masks)`` (read-only, see `VectorStep`).

        Chance outcomes before the first decision are played (drawn from the generators). A
        ``seed`` reseeds the generators (it replaces the one given at construction), so the
        same seed deals the same games again; without one the first reset seeds them from the
        construction's seed and later ones go on with them, dealing new games.

        Raises:
            ValueError: A bad seed, or options under which a game ends before its first move.
        """
        if seed is not None:
            self._seed = _check_seed(seed)
        if seed is not None or not self._is_seeded:
            seed_generators(self._chance_rng, self._seed)
            seed_generators(self._action_rng, self._seed ^ 0x5DEECE66D)
            self._is_seeded = True
        self._rewards[:] = 0.0
        self._terminated[:] = False
        self._illegal[:] = False
        game = self.game
        status = game.kernels.vector_reset(
            self._batch,
            *game.kernel_args,
            self._initial,
            self._observations,
            self._masks,
            self._players,
            self._chance_rng,
        )
        if status == ENDS_BEFORE_DECISION:
            raise ValueError(self._ends_before_decision())
        self._is_reset = True
        return self._result.observations, self._result.masks

    def step(self, actions: npt.ArrayLike) -> VectorStep:
        """Play ``actions[i]`` in game ``i``, for every game, in one compiled call.

        A game that ends is started again at once (its chance outcomes played), so every row
        of the result shows a player to move; ``terminated`` and ``rewards`` say which games
        ended and how.

        An action that is not legal in its game (one of ``range(num_actions)`` that the row's
        mask does not allow) loses that game, as in every interface of `ludoteca.rl`: the row's
        rewards are -1 for the player to move and +1 for every other player, ``terminated`` and
        ``illegal`` are True, and the row starts a new game; the illegal move is never played.

        Args:
            actions: One action index per game: integers in ``range(num_actions)``, shape
                ``(num_envs,)``.

        Raises:
            ValueError: ``actions`` has the wrong shape or type, or holds a number outside
                ``range(num_actions)``; then no game has moved.
            RuntimeError: `reset` has not been called.
        """
        if not self._is_reset:
            raise RuntimeError("call reset() before step()")
        chosen = self._check_actions(actions)
        status = self._step_kernel(chosen)
        if status == NO_ILLEGAL:  # the fast path: nothing more than the compiled call
            self._illegal[:] = False
            return self._result
        if not (chosen.min() >= 0 and chosen.max() < self.num_actions):
            row = int(np.flatnonzero((chosen < 0) | (chosen >= self.num_actions))[0])
            raise ValueError(
                f"actions are integers from 0 to {self.num_actions - 1}; env {row} got"
                f" {int(chosen[row])} (no env has moved)"
            )
        self._lose_illegal_games(chosen)
        return self._result

    def _step_kernel(self, chosen: npt.NDArray[np.int64]) -> int:
        game = self.game
        status = int(
            game.kernels.vector_step(
                self._batch,
                *game.kernel_args,
                self._initial,
                chosen,
                self._observations,
                self._masks,
                self._players,
                self._rewards,
                self._terminated,
                self._chance_rng,
            )
        )
        if status == ENDS_BEFORE_DECISION:
            raise ValueError(self._ends_before_decision())
        return status

    def _lose_illegal_games(self, chosen: npt.NDArray[np.int64]) -> None:
        """Step the legal rows; end the others as lost by their player to move, and restart them.

        The illegal rows play a legal action in the compiled step (so the batch is stepped in one
        call) and are then dealt new games, from their own generators, in a second call.
        """
        rows = np.arange(self.num_envs)
        illegal = ~self._masks[rows, chosen]
        losers = self._players[illegal].copy()
        stand_ins = chosen.copy()
        stand_ins[illegal] = np.argmax(self._masks[illegal], axis=1)
        status = self._step_kernel(stand_ins)
        assert status == NO_ILLEGAL  # every stand-in is a legal action
        bad = rows[illegal]
        batch = self._batch[bad]
        observations = self._observations[bad]
        masks = self._masks[bad]
        players = self._players[bad]
        generators = self._chance_rng[bad]
        game = self.game
        status = game.kernels.vector_reset(
            batch,
            *game.kernel_args,
            self._initial,
            observations,
            masks,
            players,
            generators,
        )
        if status == ENDS_BEFORE_DECISION:
            raise ValueError(self._ends_before_decision())
        self._batch[bad] = batch
        self._observations[bad] = observations
        self._masks[bad] = masks
        self._players[bad] = players
        self._chance_rng[bad] = generators
        self._rewards[bad] = 1.0
        self._rewards[bad, losers] = -1.0
        self._terminated[bad] = True
        self._illegal[:] = illegal

    def random_actions(self) -> npt.NDArray[np.int64]:
        """One action per game, uniform among its legal ones (a fresh array).

        Drawn in compiled code from generators of their own, fixed by the seed, so they
        never change the chance outcomes.

        Raises:
            RuntimeError: `reset` has not been called.
        """
        if not self._is_reset:
            raise RuntimeError("call reset() before random_actions()")
        out = np.empty(self.num_envs, dtype=np.int64)
        random_legal_actions(self._masks, self._action_rng, out)
        return out

    @property
    def players(self) -> npt.NDArray[np.int64]:
        """The player to move in each game, whose view its observation is (read-only).

        Set by `reset` and by every `step` (the same array as `VectorStep.players`).
        """
        return self._result.players

    @property
    def cells(self) -> npt.NDArray[np.int32]:
        """The position arrays of the games, one row each (read-only; changed by `step`)."""
        return _read_only(self._batch)

    def states(self) -> list[ArrayState]:
        """The games as `ArrayState` values of the single-game API (copies)."""
        start = self.game.initial_state()
        return [start.child(row) for row in self._batch]

    def _check_actions(self, actions: npt.ArrayLike) -> npt.NDArray[np.int64]:
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise ValueError(
                f"actions must have shape ({self.num_envs},), one per env; got {array.shape}"
            )
        if not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"actions must be integers; got dtype {array.dtype}")
        # Always the env's own int64 buffer: a read-only or strided array would make numba
        # compile the kernel again for its type.
        self._actions[:] = array
        return self._actions

    def _ends_before_decision(self) -> str:
        return (
            f"{self.game!r} ends before its first decision (see its max_plies); VectorEnv needs"
            " games in which a player moves"
        )


def _read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    view = array.view()
    view.flags.writeable = False
    return view


def _check_count(num_envs: int) -> int:
    if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
        raise ValueError(f"num_envs must be an integer from 1 to {MAX_ENVS}; got {num_envs!r}")
    if not 1 <= num_envs <= MAX_ENVS:
        raise ValueError(f"num_envs must be from 1 to {MAX_ENVS}; got {num_envs}")
    return int(num_envs)


def _check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be an integer from 0 to 2**63 - 1; got {seed!r}")
    if not 0 <= seed < 2**63:
        raise ValueError(f"seed must be from 0 to 2**63 - 1; got {seed}")
    return int(seed)
