"""`GpuEnv`: `VectorEnv`'s batch of games, played on a CUDA GPU.

The positions, observations, masks, rewards and generators stay in device memory; `reset` and
`step` launch one kernel each (one thread per game) and return device arrays, which PyTorch,
JAX or CuPy take without a copy (`as_dlpack`, or the ``__cuda_array_interface__`` that every
array has). The tensors are those of `ludoteca.rl.VectorEnv`, to the bit, for the same seed and
actions: docs/rl.md describes them.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ludoteca.core.array_state import KernelGame
from ludoteca.core.game import Game
from ludoteca.core.vector_kernels import ENDS_BEFORE_DECISION, NO_ILLEGAL, seed_generators
from ludoteca.rl.gpu._cuda import SIMULATED, cuda, cuda_random, device_ready, no_device_reason
from ludoteca.rl.gpu.kernels import THREADS_PER_BLOCK, build, draw_legal, needs_workspace
from ludoteca.rl.vector import MAX_ENVS, VectorStep
from ludoteca.rl.vector import _check_seed as check_seed

ACTION_STREAM = 0x5DEECE66D
"""Mixed into the seed for the action generators, as `VectorEnv` does for its own."""


class NoDeviceError(RuntimeError):
    """No CUDA GPU (nor numba's simulator) is there to run the kernels."""


class DeviceStep(NamedTuple):
    """What `GpuEnv.step` returns: `VectorStep`'s arrays, in device memory.

    They are the environment's own buffers, overwritten by the next step or reset. Each has
    ``__cuda_array_interface__``; `as_dlpack` gives an object that ``torch.from_dlpack`` and
    ``jax.dlpack.from_dlpack`` take without a copy.
    """

    observations: Any
    masks: Any
    rewards: Any
    terminated: Any
    players: Any
    illegal: Any

    def to_host(self) -> VectorStep:
        """The step copied into fresh numpy arrays (a `VectorStep`)."""
        return VectorStep(*(array.copy_to_host() for array in self))


class GpuEnv:
    """``num_envs`` games of one game and options, stepped together on the GPU.

    Example::

        env = GpuEnv("salt_n_pepper", num_envs=65536, seed=7)
        observations, masks = env.reset()
        for _ in range(100):
            result = env.step(env.random_actions())

    Args:
        game: A game id (with ``options``) or a `Game` made by `ludoteca.make`.
        num_envs: How many games to play side by side (1 to `MAX_ENVS`).
        seed: Fixes the chance outcomes exactly as `VectorEnv`'s seed does (the same seed and
            actions give the same games on both), and the device's action generators.
        **options: The game's options when ``game`` is an id.

    Raises:
        NoDeviceError: No CUDA GPU is present (the message says why).
        ValueError: An unknown game or option, a bad ``num_envs`` or ``seed``, or a game
            without the compiled batch kernels.
    """

    def __init__(self, game: str | Game, num_envs: int, seed: int = 0, **options: Any) -> None:
        if not device_ready():
            raise NoDeviceError(f"GpuEnv needs a CUDA GPU: {no_device_reason()}")
        from ludoteca.rl.vector import VectorEnv  # the same checks, one place

        shape = VectorEnv(game, 1, seed, **options)
        self.game: KernelGame = shape.game
        if not 1 <= num_envs <= MAX_ENVS or isinstance(num_envs, bool):
            raise ValueError(f"num_envs must be from 1 to {MAX_ENVS}; got {num_envs!r}")
        self.num_envs = int(num_envs)
        self._seed = int(seed)
        self.observation_shape: tuple[int, ...] = shape.observation_shape
        self.num_actions: int = shape.num_actions
        self.num_players: int = shape.num_players
        kernels = self.game.kernels
        args = tuple(self.game.kernel_args)
        if needs_workspace(kernels, args) and not hasattr(kernels, "device_scratch"):
            raise ValueError(
                f"{self.game.name}'s rules need a workspace that has no device form"
                " (device_scratch); GpuEnv cannot play it"
            )
        self._kernels = _compiled(type(self.game).__name__, kernels, len(args))
        n = self.num_envs
        size = int(np.prod(self.observation_shape))
        initial = np.array(self.game.initial_state().cells, dtype=np.int32)
        self._args = tuple(cuda.to_device(np.ascontiguousarray(arg)) for arg in args)
        if len(self._args) == 1:
            self._args = (self._args[0], self._args[0])
        self._initial = cuda.to_device(initial)
        self._batch = cuda.device_array((n, initial.shape[0]), dtype=np.int32)
        self._observations = cuda.device_array((n, size), dtype=np.float32)
        self._masks = cuda.device_array((n, self.num_actions), dtype=np.bool_)
        self._players = cuda.device_array(n, dtype=np.int64)
        self._rewards = cuda.device_array((n, self.num_players), dtype=np.float32)
        self._terminated = cuda.device_array(n, dtype=np.bool_)
        self._illegal = cuda.device_array(n, dtype=np.bool_)
        self._actions = cuda.device_array(n, dtype=np.int64)
        self._status = cuda.to_device(np.array([NO_ILLEGAL], dtype=np.int64))
        self._chance_rng = cuda.device_array(n, dtype=np.uint64)
        self._action_rng: Any = None
        self._threads = min(THREADS_PER_BLOCK, n)
        self._blocks = (n + self._threads - 1) // self._threads
        self._is_reset = False
        self._is_seeded = False
        self._result = DeviceStep(
            self._observations.reshape((n, *self.observation_shape)),
            self._masks,
            self._rewards,
            self._terminated,
            self._players,
            self._illegal,
        )

    def reset(self, seed: int | None = None) -> tuple[Any, Any]:
        """Start every game anew; return ``(observations, masks)`` (device arrays).

        The seeds work as in `VectorEnv.reset`: a ``seed`` deals the same games again, none
        goes on with the generators.

        Raises:
            ValueError: A bad seed, or options under which a game ends before its first move.
        """
        if seed is not None:
            self._seed = check_seed(seed)
        if seed is not None or not self._is_seeded:
            rng = np.zeros(self.num_envs, dtype=np.uint64)
            seed_generators(rng, self._seed)
            self._chance_rng.copy_to_device(rng)
            with _generator_warnings_quiet():
                self._action_rng = cuda_random.create_xoroshiro128p_states(
                    self.num_envs, seed=(self._seed ^ ACTION_STREAM) % 2**64
                )
            self._is_seeded = True
        self._launch(self._kernels.reset, None)
        self._check_status()
        self._is_reset = True
        return self._result.observations, self._result.masks

    def step(self, actions: Any) -> DeviceStep:
        """Play ``actions[i]`` in game ``i``, for every game, in one kernel launch.

        ``actions`` is a device array (anything with ``__cuda_array_interface__``: a PyTorch
        tensor on the GPU, a CuPy or numba array) or a host array of ``num_envs`` integers.
        Finished games start again at once, as in `VectorEnv.step`; an action that the row's
        mask does not allow loses that row's game (``illegal`` says which rows), and so does
        one outside ``range(num_actions)``, which `VectorEnv` refuses instead: checking it
        here would cost a copy back to the host at every step.

        Raises:
            ValueError: ``actions`` has the wrong shape or type.
            RuntimeError: `reset` has not been called.
        """
        if not self._is_reset:
            raise RuntimeError("call reset() before step()")
        self._launch(self._kernels.step, self._device_actions(actions))
        return self._result

    def random_actions(self) -> Any:
        """One action per game, uniform among its legal ones, drawn on the device.

        Returns the environment's own device buffer (``int64``), overwritten by the next call;
        the generators are the device's (xoroshiro128+), one stream per game fixed by the seed,
        so they never change the chance outcomes.

        Raises:
            RuntimeError: `reset` has not been called.
        """
        if not self._is_reset:
            raise RuntimeError("call reset() before random_actions()")
        with _generator_warnings_quiet():
            _kernel(draw_legal)[self._blocks, self._threads](
                self._masks, self._action_rng, self._actions
            )
        return self._actions

    @property
    def players(self) -> Any:
        """The player to move in each game (a device array, as `DeviceStep.players`)."""
        return self._players

    @property
    def cells(self) -> Any:
        """The position arrays of the games, one row each (a device array)."""
        return self._batch

    def synchronize(self) -> None:
        """Wait until every launched kernel has finished (for timing)."""
        cuda.synchronize()

    def _launch(self, kernel: Any, actions: Any) -> None:
        a1, a2 = self._args
        common = (self._batch, a1, a2, self._initial)
        tail = (
            self._observations,
            self._masks,
            self._players,
            self._rewards,
            self._terminated,
            self._illegal,
            self._chance_rng,
            self._status,
        )
        arguments = common + tail if actions is None else (*common, actions, *tail)
        kernel[self._blocks, self._threads](*arguments)

    def _device_actions(self, actions: Any) -> Any:
        if isinstance(actions, type(self._actions)) or hasattr(actions, "__cuda_array_interface__"):
            device = (
                actions if isinstance(actions, type(self._actions)) else cuda.as_cuda_array(actions)
            )
            if device.shape != (self.num_envs,) or device.dtype != np.int64:
                raise ValueError(
                    f"device actions must be int64 of shape ({self.num_envs},); got"
                    f" {device.dtype} {device.shape}"
                )
            return device
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise ValueError(
                f"actions must have shape ({self.num_envs},), one per env; got {array.shape}"
            )
        if not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"actions must be integers; got dtype {array.dtype}")
        self._actions.copy_to_device(np.ascontiguousarray(array, dtype=np.int64))
        return self._actions

    def _check_status(self) -> None:
        if int(self._status.copy_to_host()[0]) == ENDS_BEFORE_DECISION:
            self._status.copy_to_device(np.array([NO_ILLEGAL], dtype=np.int64))
            raise ValueError(
                f"{self.game!r} ends before its first decision (see its max_plies); GpuEnv"
                " needs games in which a player moves"
            )


@contextmanager
def _generator_warnings_quiet() -> Iterator[None]:
    """Silence the simulator's warnings about the action generators (none on a GPU).

    The simulator runs numba's xoroshiro128+ in numpy scalars, which warn of the wrap-around
    that the generator's arithmetic relies on, and compiles its seeding in object mode.
    """
    if not SIMULATED:
        yield
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


_KERNELS: dict[tuple[str, int], Any] = {}
_JITTED: dict[Any, Any] = {}


def _kernel(function: Any) -> Any:
    """``function`` compiled by ``cuda.jit``, once per process."""
    if function not in _JITTED:
        _JITTED[function] = cuda.jit(function)
    return _JITTED[function]


class _Compiled(NamedTuple):
    reset: Any
    step: Any


def _compiled(name: str, kernels: Any, count: int) -> _Compiled:
    """A game's reset and step kernels, built and handed to ``cuda.jit`` once per process."""
    key = (name, count)
    if key not in _KERNELS:
        built = build(kernels, count)
        _KERNELS[key] = _Compiled(_kernel(built.reset), _kernel(built.step))
    compiled: _Compiled = _KERNELS[key]
    return compiled


def as_dlpack(array: Any) -> Any:
    """An object with ``__dlpack__`` over a device array of `GpuEnv` (no copy).

    ``torch.from_dlpack(as_dlpack(a))`` and ``jax.dlpack.from_dlpack(as_dlpack(a))`` give a
    tensor sharing ``a``'s memory. Under numba's simulator the arrays live on the host, and
    this is the numpy array itself.
    """
    if SIMULATED:
        return array._ary
    from cuda.core.utils import StridedMemoryView

    # stream -1: the consumer orders itself after the kernels (they run on the default stream).
    return StridedMemoryView.from_cuda_array_interface(array, stream_ptr=-1)


def to_numpy(array: Any) -> npt.NDArray[Any]:
    """A host copy of a device array."""
    host: npt.NDArray[Any] = array.copy_to_host()
    return host
