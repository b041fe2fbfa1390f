"""Compiled helpers that every game's batch kernels (``vector_reset``, ``vector_step``) share.

A batch of games draws its chance outcomes from one small generator per game, kept in a
``uint64`` array (``rng``, one state per game) rather than from numba's global generator: the
games of a `ludoteca.rl.VectorEnv` then repeat exactly for a seed whatever else the process
draws, and two environments never disturb each other. The generator is SplitMix64 (Steele,
Lea and Flood, 2014): one addition and two multiply-xorshift rounds per number.

Like `ludoteca.core.playout_kernels`, these are plain typed functions (mypy checks them)
compiled once here with numba's on-disk cache; the kernels of every game call the compiled
versions.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

UInt64Array = npt.NDArray[np.uint64]
BoolArray = npt.NDArray[np.bool_]
Int64Array = npt.NDArray[np.int64]
Float32Array = npt.NDArray[np.float32]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_STREAM = np.uint64(0xD1B54A32D192ED03)


def _next_random(rng: UInt64Array, row: int) -> np.uint64:
    """The next 64-bit number of game ``row``'s generator (SplitMix64), advancing it."""
    z = rng[row] + _GOLDEN
    rng[row] = z
    z = (z ^ (z >> np.uint64(30))) * _MIX_1
    z = (z ^ (z >> np.uint64(27))) * _MIX_2
    return np.uint64(z ^ (z >> np.uint64(31)))


next_random = njit(cache=True)(_next_random)


def _random_below(rng: UInt64Array, row: int, n: int) -> int:
    """A number in ``range(n)`` from game ``row``'s generator (uniform to within n / 2**64)."""
    return int(next_random(rng, row) % np.uint64(n))


random_below = njit(cache=True)(_random_below)


def _seed_generators(rng: UInt64Array, seed: int) -> None:
    """Give every game of the batch its own stream, all of them fixed by ``seed``."""
    base = np.uint64(seed)
    for row in range(rng.shape[0]):
        rng[row] = base ^ (np.uint64(row + 1) * _STREAM)
        next_random(rng, row)  # the first number mixes the seed and the row together


seed_generators = njit(cache=True)(_seed_generators)


def _random_legal_actions(masks: BoolArray, rng: UInt64Array, out: Int64Array) -> int:
    """Write one action per row of ``masks``, uniform among the row's legal ones, into ``out``.

    Returns the first row without a legal action (nothing is drawn for it), or -1.
    """
    for row in range(masks.shape[0]):
        legal = 0
        for action in range(masks.shape[1]):
            if masks[row, action]:
                legal += 1
        if legal == 0:
            return row
        pick = random_below(rng, row, legal)
        for action in range(masks.shape[1]):
            if masks[row, action]:
                if pick == 0:
                    out[row] = action
                    break
                pick -= 1
    return -1


random_legal_actions = njit(cache=True)(_random_legal_actions)


def _first_illegal(actions: Int64Array, masks: BoolArray) -> int:
    """The first row whose action is not legal by its row of ``masks``, or -1 if all are."""
    for row in range(actions.shape[0]):
        action = actions[row]
        if action < 0 or action >= masks.shape[1] or not masks[row, action]:
            return row
    return -1


first_illegal = njit(cache=True)(_first_illegal)


def _write_returns(rewards: Float32Array, row: int, winner: int) -> None:
    """The returns of a finished game into ``rewards[row]``: +1 win, -1 loss, 0 each in a draw.

    ``winner`` is a player index, or negative for a draw. A solitaire (one column) scores -1
    for a game without a winner, as `ludoteca.core.outcome.Outcome` does.
    """
    players = rewards.shape[1]
    for player in range(players):
        if winner < 0:
            rewards[row, player] = -1.0 if players == 1 else 0.0
        elif player == winner:
            rewards[row, player] = 1.0
        else:
            rewards[row, player] = -1.0


write_returns = njit(cache=True)(_write_returns)

NO_ILLEGAL = -1
"""What the batch kernels return when every action was legal (else: the first bad row)."""
ENDS_BEFORE_DECISION = -2
"""What ``vector_reset`` returns when a new game ends before its first decision."""
