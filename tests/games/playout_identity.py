"""Fingerprints of seeded random play, to prove that a faster kernel plays the very same games.

The random playouts pick a move by its index among the legal ones, so a kernel that lists the
same moves in another order, or draws from the generator once more or less, plays other games.
Each game's ``test_playout_identity.py`` pins the fingerprints that its kernels gave before they
were made faster; a change of the rules changes them too, and must update them on purpose.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from ludoteca.core.array_state import KernelGame

# (count, seed) of the `random_playouts` batches whose totals are pinned
BATCHES = ((1, 0), (7, 1), (50, 12345))
RECORDS = (30, 99)  # (count, seed) of the `random_playout_records` batch
PATH_PLIES = 40  # positions along one game at which the rollouts and `expand` are fingerprinted


def digest(*arrays: Any) -> str:
    """A short hash of the arrays' values (as ``int64``), in order."""
    h = hashlib.sha256()
    for array in arrays:
        h.update(np.ascontiguousarray(array).astype(np.int64).tobytes())
    return h.hexdigest()[:16]


def fingerprint(game: KernelGame) -> dict[str, Any]:
    """The totals of seeded batches, a digest of seeded records, and one of rollouts and expand.

    The rollouts start from the positions of one game (its moves picked by a fixed rule, not at
    random): a 10-ply rollout reseeded at each, then a 200-ply and a whole-game one going on
    with the generator's stream, so that both kinds of seeding are covered.
    """
    kernels = game.kernels
    args = game.kernel_args
    start = game.initial_state().cells
    result: dict[str, Any] = {}
    for count, seed in BATCHES:
        totals = kernels.random_playouts(start, *args, count, seed)
        result[f"totals_{count}_{seed}"] = [int(x) for x in totals]
    records, curve = kernels.random_playout_records(start, *args, *RECORDS)
    result["records"] = digest(records, curve)
    cells = start.copy()
    seen: list[Any] = []
    for i in range(PATH_PLIES):
        seen.append(kernels.random_rollout(cells, *args, 10, i))
        seen.append(kernels.random_rollout(cells, *args, 200, -1))
        seen.append(kernels.random_rollout(cells, *args, 1_000_000, 7 * i))
        actions = kernels.legal_actions(cells, *args)
        if len(actions) == 0:
            break
        expanded, children, players = kernels.expand(cells, *args)
        seen += [actions, expanded, children.ravel(), players]
        cells = kernels.apply_action(cells, *args, actions[(i * 7919) % len(actions)])
    result["rollouts"] = digest(*seen)
    return result
