"""Batched environments on a CUDA GPU (`ludoteca.rl.gpu.GpuEnv`) beside `VectorEnv` on one core.

Each is measured twice at the same batch size: with the random legal actions drawn and played
in the timed loop (``with_draws``: `VectorEnv.random_actions` on the CPU, `GpuEnv.random_actions`
on the device), and the step alone (``step``: the draw is made, then only the step is timed).
A GPU figure waits for the device at the end of each timed stretch, so it counts the kernels'
whole run. Where no GPU is present the GPU figures are absent and ``gpu_note`` says why.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from typing import Any

from ludoteca.analysis.bench.measure import BenchError
from ludoteca.analysis.bench.vector import EnvRate, env_rate
from ludoteca.core.game import Game

GPU_HINT = "pip install 'ludoteca[gpu]'"


@dataclass(frozen=True, slots=True)
class GpuBenchResult:
    """`VectorEnv` and `GpuEnv` at one batch size, for one game and options.

    Attributes:
        game: The game id.
        options: The options, as ``name=value`` text.
        num_envs: Games in the batch.
        cpu_with_draws: `VectorEnv`, drawing the random actions and stepping.
        cpu_step: `VectorEnv.step` alone.
        gpu_with_draws: `GpuEnv`, drawing on the device and stepping (``None``: no GPU).
        gpu_step: `GpuEnv.step` alone (``None``: no GPU).
        device: The GPU's name ("" without one).
        gpu_note: Why the GPU was not measured ("" when it was).
    """

    game: str
    options: str
    num_envs: int
    cpu_with_draws: EnvRate
    cpu_step: EnvRate
    gpu_with_draws: EnvRate | None
    gpu_step: EnvRate | None
    device: str
    gpu_note: str

    @property
    def speedup(self) -> float | None:
        """The GPU's steps per second with draws over the CPU's (``None`` without a GPU)."""
        if self.gpu_with_draws is None or self.cpu_with_draws.steps_per_second <= 0:
            return None
        return self.gpu_with_draws.steps_per_second / self.cpu_with_draws.steps_per_second

    def to_dict(self) -> dict[str, Any]:
        """The figures as a JSON-ready dictionary."""

        def rate(value: EnvRate | None) -> dict[str, Any] | None:
            return None if value is None else value.to_dict()

        return {
            "game": self.game,
            "options": self.options,
            "num_envs": self.num_envs,
            "cpu_with_draws": rate(self.cpu_with_draws),
            "cpu_step": rate(self.cpu_step),
            "gpu_with_draws": rate(self.gpu_with_draws),
            "gpu_step": rate(self.gpu_step),
            "device": self.device,
            "gpu_note": self.gpu_note,
            "speedup": self.speedup,
        }


def gpu_missing() -> str:
    """Why `GpuEnv` cannot run here ("" when it can)."""
    if importlib.util.find_spec("numba_cuda") is None:
        return f"numba-cuda is not installed (the gpu extra: {GPU_HINT})"
    from ludoteca.rl.gpu import SIMULATED, no_device_reason

    if SIMULATED:
        return "numba's CUDA simulator is on (NUMBA_ENABLE_CUDASIM): no GPU is measured"
    return no_device_reason()


def bench_gpu(game: Game, num_envs: int, *, seconds: float = 3.0, seed: int = 0) -> GpuBenchResult:
    """Env steps per second of `VectorEnv` and, where a GPU is present, of `GpuEnv`.

    Each of the four rates runs for about ``seconds`` of measured time after a warm-up (on
    the GPU the warm-up compiles the kernels).

    Raises:
        BenchError: The game has no compiled batch kernels.
    """
    from ludoteca.rl.vector import VectorEnv  # imported here: only this measurement needs it

    try:
        env = VectorEnv(game, num_envs, seed=seed)
    except (NotImplementedError, ValueError) as error:
        raise BenchError(f"{game.id}: no VectorEnv: {error}") from None
    env.reset()
    env.step(env.random_actions())  # the warm-up loads the kernels
    cpu_with_draws = env_rate(lambda: env.step(env.random_actions()), num_envs, seconds)
    cpu_step = env_rate(env.step, num_envs, seconds, draw=env.random_actions)
    note = gpu_missing()
    gpu_with_draws = gpu_step = None
    device = ""
    if not note:
        from ludoteca.rl.gpu import GpuEnv, device_name

        gpu = GpuEnv(game, num_envs, seed=seed)
        device = device_name()
        gpu.reset()
        gpu.step(gpu.random_actions())  # compiles the kernels
        gpu.synchronize()
        gpu_with_draws = env_rate(
            lambda: gpu.step(gpu.random_actions()), num_envs, seconds, wait=gpu.synchronize
        )
        gpu_step = env_rate(
            gpu.step, num_envs, seconds, draw=gpu.random_actions, wait=gpu.synchronize
        )
    return GpuBenchResult(
        game=game.id,
        options=game.describe_options(),
        num_envs=num_envs,
        cpu_with_draws=cpu_with_draws,
        cpu_step=cpu_step,
        gpu_with_draws=gpu_with_draws,
        gpu_step=gpu_step,
        device=device,
        gpu_note=note,
    )
