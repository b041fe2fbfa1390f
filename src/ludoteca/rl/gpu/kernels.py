"""The device kernels of a game's batch, built from the game's own compiled rule functions.

One thread plays one game. The rule functions are the primitives of the game's kernel contract
(docs/kernels.md: ``is_over``, ``is_chance``, ``mover``, ``winner``, ``legal_into``, ``play``,
``observation``, ``draw_outcome``), the very ``@njit`` functions the CPU kernels call: numba
compiles them a second time for CUDA, so the rules have one source. What this module adds is
the loop around them, which mirrors the generated ``vector_reset`` and ``vector_step`` of
`ludoteca.core.kernel_template` row by row, and the uniform draw of a legal action.

The chance outcomes come from the same SplitMix64 generator per game as on the CPU
(`ludoteca.core.vector_kernels.random_below`), so a device batch and a `VectorEnv` with the same
seed and the same actions play the same games. Random actions are drawn from numba's device
generator (xoroshiro128+, ``numba.cuda.random``), one stream per game.

A kernel cannot allocate: the legal-action list lives in a thread-local array of the game's
``LEGAL_BUFFER`` entries, and a game whose ``legal_into`` and ``play`` need a workspace
(``new_scratch``) gives ``DEVICE_WORK`` (words of a thread-local ``int64`` array) and
``device_scratch(work, *args)``, which builds the workspace over that array.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
from numba import int64, njit

from ludoteca.core.vector_kernels import ENDS_BEFORE_DECISION, write_returns
from ludoteca.rl.gpu._cuda import cuda, cuda_random, device_function

xoroshiro128p_next = cuda_random.xoroshiro128p_next

THREADS_PER_BLOCK = 128
"""Threads of a block: few enough that every thread keeps its local arrays in fast memory."""


@njit(cache=True)
def _never(cells):  # type: ignore[no-untyped-def]
    """`is_chance` of a game without chance nodes."""
    return False


@njit(cache=True)
def _no_scratch(work, a1, a2):  # type: ignore[no-untyped-def]
    """The workspace of a game whose rules need none."""
    return 0


@dataclass(frozen=True)
class DeviceKernels:
    """The Python functions of a game's batch kernels (compile them with ``cuda.jit``).

    ``reset(batch, a1, a2, initial, observations, masks, players, rewards, terminated, illegal,
    rng, status)`` and ``step(... the same, with actions after initial ...)`` take the game's
    kernel arguments as ``a1, a2`` (a game with one passes it twice); ``draw(masks, states,
    actions)`` draws a legal action per row.
    """

    reset: Callable[..., None]
    step: Callable[..., None]
    draw: Callable[..., None]


def needs_workspace(kernels: ModuleType, args: tuple[Any, ...]) -> bool:
    """Whether the game's rules work in a workspace (``new_scratch`` returns buffers)."""
    return not isinstance(kernels.new_scratch(*args), int)


def _two_args(kernels: ModuleType, count: int) -> dict[str, Callable[..., Any]]:
    """The primitives that take the kernel arguments, all taking two (``a1, a2``)."""
    legal_into = device_function(kernels.legal_into)
    play = device_function(kernels.play)
    observation = device_function(kernels.observation)
    chance = hasattr(kernels, "draw_outcome")
    draw_outcome = device_function(kernels.draw_outcome) if chance else None
    scratch = device_function(getattr(kernels, "device_scratch", _no_scratch))
    if count == 2:
        return {
            "legal_into": legal_into,
            "play": play,
            "observation": observation,
            "draw_outcome": draw_outcome or device_function(_no_outcome2),
            "scratch": scratch,
        }
    if count != 1:
        raise ValueError(f"device kernels take one or two kernel arguments, not {count}")

    @cuda.jit(device=True)
    def legal_into1(cells, a1, a2, work, out):  # type: ignore[no-untyped-def]
        return legal_into(cells, a1, work, out)

    @cuda.jit(device=True)
    def play1(cells, a1, a2, action, work):  # type: ignore[no-untyped-def]
        play(cells, a1, action, work)

    @cuda.jit(device=True)
    def observation1(cells, a1, a2, player, out):  # type: ignore[no-untyped-def]
        observation(cells, a1, player, out)

    outcome1: Callable[..., Any] = device_function(_no_outcome2)
    if draw_outcome is not None:
        one_arg_outcome = draw_outcome

        @cuda.jit(device=True)
        def outcome1(cells, a1, a2, rng, row):  # type: ignore[no-untyped-def]
            return one_arg_outcome(cells, a1, rng, row)

    @cuda.jit(device=True)
    def scratch1(work, a1, a2):  # type: ignore[no-untyped-def]
        return scratch(work, a1)

    return {
        "legal_into": legal_into1,
        "play": play1,
        "observation": observation1,
        "draw_outcome": outcome1,
        "scratch": scratch1 if hasattr(kernels, "device_scratch") else scratch,
    }


@njit(cache=True)
def _no_outcome2(cells, a1, a2, rng, row):  # type: ignore[no-untyped-def]
    """`draw_outcome` of a game without chance nodes (never called)."""
    return 0


def build(kernels: ModuleType, count: int) -> DeviceKernels:
    """The batch kernels of the game whose contract module is ``kernels``.

    ``count`` is the number of the game's kernel arguments (one or two).
    """
    two = _two_args(kernels, count)
    legal_into = two["legal_into"]
    play = two["play"]
    observation = two["observation"]
    draw_outcome = two["draw_outcome"]
    new_scratch = two["scratch"]
    is_over = device_function(kernels.is_over)
    is_chance = device_function(getattr(kernels, "is_chance", _never))
    mover = device_function(kernels.mover)
    winner = device_function(kernels.winner)
    returns = device_function(write_returns)
    legal_size = int(kernels.LEGAL_BUFFER)
    work_size = max(1, int(getattr(kernels, "DEVICE_WORK", 1)))
    ends_early = ENDS_BEFORE_DECISION

    @cuda.jit(device=True)
    def play_chance(cells, a1, a2, scratch, rng, row):  # type: ignore[no-untyped-def]
        """Play the chance outcomes up to the next decision, from game ``row``'s generator."""
        while not is_over(cells) and is_chance(cells):
            play(cells, a1, a2, draw_outcome(cells, a1, a2, rng, row), scratch)

    @cuda.jit(device=True)
    def start_game(cells, a1, a2, initial, scratch, rng, row):  # type: ignore[no-untyped-def]
        """Set game ``row`` to ``initial``, play its chance outcomes; False if it ended already."""
        for i in range(cells.shape[0]):
            cells[i] = initial[i]
        play_chance(cells, a1, a2, scratch, rng, row)
        return not is_over(cells)

    @cuda.jit(device=True)
    def show(cells, a1, a2, row, observations, masks, players, scratch, legal):  # type: ignore[no-untyped-def]
        """Write what the player to move sees in game ``row``: player, observation, mask."""
        player = mover(cells)
        players[row] = player
        observation(cells, a1, a2, player, observations[row])
        for action in range(masks.shape[1]):
            masks[row, action] = False
        if not is_over(cells) and not is_chance(cells):
            n = legal_into(cells, a1, a2, scratch, legal)
            for i in range(n):
                masks[row, legal[i]] = True

    def reset(  # type: ignore[no-untyped-def]
        batch,
        a1,
        a2,
        initial,
        observations,
        masks,
        players,
        rewards,
        terminated,
        illegal,
        rng,
        status,
    ):
        """Start game ``row`` from ``initial`` (its chance outcomes played) and show it."""
        row = cuda.grid(1)
        if row >= batch.shape[0]:
            return
        legal = cuda.local.array(legal_size, int64)
        work = cuda.local.array(work_size, int64)
        scratch = new_scratch(work, a1, a2)
        cells = batch[row]
        for player in range(rewards.shape[1]):
            rewards[row, player] = 0.0
        terminated[row] = False
        illegal[row] = False
        if not start_game(cells, a1, a2, initial, scratch, rng, row):
            status[0] = ends_early
            return
        show(cells, a1, a2, row, observations, masks, players, scratch, legal)

    def step(  # type: ignore[no-untyped-def]
        batch,
        a1,
        a2,
        initial,
        actions,
        observations,
        masks,
        players,
        rewards,
        terminated,
        illegal,
        rng,
        status,
    ):
        """Play ``actions[row]`` in game ``row``; a finished game starts again.

        An action that the row's mask does not allow (or outside the mask) loses the game for
        the player to move, as `ludoteca.rl.VectorEnv` plays it: the first legal action stands
        in for it in the step (so the generator moves on as on the CPU), then a new game starts.
        """
        row = cuda.grid(1)
        if row >= batch.shape[0]:
            return
        legal = cuda.local.array(legal_size, int64)
        work = cuda.local.array(work_size, int64)
        scratch = new_scratch(work, a1, a2)
        cells = batch[row]
        action = actions[row]
        bad = action < 0 or action >= masks.shape[1] or not masks[row, action]
        loser = players[row]
        if bad:
            action = 0
            while action < masks.shape[1] - 1 and not masks[row, action]:
                action += 1
        play(cells, a1, a2, action, scratch)
        play_chance(cells, a1, a2, scratch, rng, row)
        for player in range(rewards.shape[1]):
            rewards[row, player] = 0.0
        over = is_over(cells)
        if over:
            returns(rewards, row, winner(cells))
            if not start_game(cells, a1, a2, initial, scratch, rng, row):
                status[0] = ends_early
                return
        if bad:
            if not start_game(cells, a1, a2, initial, scratch, rng, row):
                status[0] = ends_early
                return
            for player in range(rewards.shape[1]):
                rewards[row, player] = 1.0
            rewards[row, loser] = -1.0
            over = True
        terminated[row] = over
        illegal[row] = bad
        show(cells, a1, a2, row, observations, masks, players, scratch, legal)

    return DeviceKernels(reset=reset, step=step, draw=draw_legal)


def draw_legal(masks, states, actions):  # type: ignore[no-untyped-def]
    """Write into ``actions[row]`` an action uniform among the row's legal ones (-1 for none).

    The draw is the row's next 64-bit number modulo the number of legal actions (uniform to
    within that number / 2**64), from its own xoroshiro128+ stream.
    """
    row = cuda.grid(1)
    if row >= masks.shape[0]:
        return
    legal = 0
    for action in range(masks.shape[1]):
        if masks[row, action]:
            legal += 1
    if legal == 0:
        actions[row] = -1
        return
    pick = int(xoroshiro128p_next(states, row) % np.uint64(legal))
    for action in range(masks.shape[1]):
        if masks[row, action]:
            if pick == 0:
                actions[row] = action
                return
            pick -= 1


__all__ = ["THREADS_PER_BLOCK", "DeviceKernels", "build", "draw_legal", "needs_workspace"]
