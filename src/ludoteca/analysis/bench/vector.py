"""Batched environments (`ludoteca.rl.VectorEnv`) against the PettingZoo environment."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ludoteca.analysis.bench.measure import BenchError, Meter, Usage
from ludoteca.core.game import Game


@dataclass(frozen=True, slots=True)
class EnvRate:
    """How fast one environment took steps: decisions played, with what it cost.

    Attributes:
        steps: Env steps: one player's decision each (chance outcomes, played inside the
            environment, are not steps).
        steps_per_second: ``steps`` over the wall time measured.
        usage: Wall and CPU time of the measured calls, and the load average around them.
    """

    steps: int
    steps_per_second: float
    usage: Usage

    def to_dict(self) -> dict[str, Any]:
        """The figures as a JSON-ready dictionary."""
        cpu = self.usage.cpu_seconds
        return {
            "steps": self.steps,
            "steps_per_second": self.steps_per_second,
            "steps_per_cpu_second": self.steps / cpu if cpu > 0 else 0.0,
            **self.usage.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class VectorBenchResult:
    """`ludoteca.rl.VectorEnv` against the PettingZoo environment, for one game and options.

    Attributes:
        game: The game id.
        options: The options, as ``name=value`` text.
        num_envs: Games in the batch.
        vector: `VectorEnv.step` with random legal actions (observations and masks included).
        games_finished: Games the batch finished (and restarted) while measured.
        pettingzoo: The PettingZoo AEC environment, one game at a time (``None``: not measured).
        pettingzoo_note: Why it was not measured, when it was not.
    """

    game: str
    options: str
    num_envs: int
    vector: EnvRate
    games_finished: int
    pettingzoo: EnvRate | None
    pettingzoo_note: str = ""

    @property
    def speedup(self) -> float | None:
        """VectorEnv's steps per second over PettingZoo's (``None`` if not measured)."""
        if self.pettingzoo is None or self.pettingzoo.steps_per_second <= 0:
            return None
        return self.vector.steps_per_second / self.pettingzoo.steps_per_second

    def to_dict(self) -> dict[str, Any]:
        """The figures as a JSON-ready dictionary."""
        return {
            "game": self.game,
            "options": self.options,
            "num_envs": self.num_envs,
            "vector": self.vector.to_dict(),
            "games_finished": self.games_finished,
            "pettingzoo": None if self.pettingzoo is None else self.pettingzoo.to_dict(),
            "pettingzoo_note": self.pettingzoo_note,
            "speedup": self.speedup,
        }


def _nothing() -> None:
    """No device to wait for."""


def env_rate(
    step: Callable[..., Any],
    num_envs: int,
    seconds: float,
    *,
    draw: Callable[[], Any] | None = None,
    wait: Callable[[], None] = _nothing,
    seen: Callable[[Any], None] | None = None,
) -> EnvRate:
    """Env steps per second of a batch of ``num_envs`` games, for about ``seconds`` measured.

    With ``draw``, each step plays ``draw()``'s actions, drawn outside the timed stretch, and
    ``seen`` (if given) gets each step's result, also untimed; without it, ``step()`` draws its
    own and is timed eight calls at a time. ``wait`` blocks until a device has finished the
    work given to it, inside the timed stretch (and after an untimed draw).
    """
    meter = Meter()
    steps = 0
    while meter.wall < seconds:
        if draw is None:
            with meter.measure():
                for _ in range(8):
                    step()
                wait()
            steps += 8 * num_envs
            continue
        actions = draw()
        wait()
        with meter.measure():
            result = step(actions)
            wait()
        if seen is not None:
            seen(result)
        steps += num_envs
    usage = meter.usage()
    return EnvRate(steps, steps / usage.wall_seconds, usage)


def bench_vector(
    game: Game, num_envs: int, *, seconds: float = 3.0, seed: int = 0, pettingzoo: bool = True
) -> VectorBenchResult:
    """Env steps per second of `VectorEnv` at ``num_envs`` games, and of the PettingZoo env.

    Each runs for about ``seconds`` of measured time after a warm-up. Only the environments'
    own calls are timed: `VectorEnv.step` (observations, masks, chance, auto-reset included),
    and the PettingZoo env's ``reset``, ``last`` (which builds the observation and mask) and
    ``step``. Drawing the random legal actions is the agent's work and is not timed.

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
    finished = 0

    def count_finished(result: Any) -> None:
        nonlocal finished
        finished += int(result.terminated.sum())

    vector = env_rate(env.step, num_envs, seconds, draw=env.random_actions, seen=count_finished)
    rate: EnvRate | None = None
    note = "not asked for"
    if pettingzoo:
        rate, note = _bench_pettingzoo(game, seconds=seconds, seed=seed)
    return VectorBenchResult(
        game=game.id,
        options=game.describe_options(),
        num_envs=num_envs,
        vector=vector,
        games_finished=finished,
        pettingzoo=rate,
        pettingzoo_note=note,
    )


def _bench_pettingzoo(game: Game, *, seconds: float, seed: int) -> tuple[EnvRate | None, str]:
    """The PettingZoo env's decisions per second, or ``None`` and why it was not measured."""
    try:
        from ludoteca.rl import pettingzoo_env  # needs the rl extra

        options: dict[str, Any] = game.options
        env = pettingzoo_env(game.id, **options)
    except ImportError as error:
        return None, str(error)
    rng = random.Random(seed)
    meter = Meter()
    steps = 0
    with meter.measure():
        env.reset(seed=seed)
    while meter.wall < seconds:
        with meter.measure():
            observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            with meter.measure():
                env.step(None)
                if not env.agents:
                    env.reset()
            continue
        action = rng.choice(_legal(observation["action_mask"]))
        with meter.measure():
            env.step(action)
        steps += 1
    usage = meter.usage()
    return EnvRate(steps, steps / usage.wall_seconds, usage), ""


def _legal(mask: Any) -> list[int]:
    return [int(i) for i in mask.nonzero()[0]]
