"""Whole games played by the expert policy, in one compiled call: how often it wins from a position.

The policy is the strongest level's: the planner's move (`planner.choose`), replaced one time in
two by a uniformly random legal move (the random moves break the jams a greedy plan walks into;
see `ludoteca.ai.levels`). Dice are rolled fairly. Game reviews use the share of games won as
the winning chance of a position under good play (`ludoteca.core.GameInfo.expert_playouts`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from ludoteca.games.steppin_stones import kernels as k
from ludoteca.games.steppin_stones.kernels import moves as m
from ludoteca.games.steppin_stones.kernels import rules
from ludoteca.games.steppin_stones.planner import choose
from ludoteca.games.steppin_stones.state import SteppinStonesState

#: How often the policy plays a random move instead of the planner's (as level 5 does).
RANDOM_MOVE_SHARE = 0.5


@njit(cache=True)
def _wins(
    start: npt.NDArray[np.int32],
    params: npt.NDArray[np.int64],
    geo: npt.NDArray[np.int64],
    count: int,
    seed: int,
    random_share: float,
) -> int:
    np.random.seed(seed)
    work = m.new_work()
    out = np.empty(m.MAX_LEGAL, dtype=np.int64)
    s = start.copy()
    wins = 0
    for _ in range(count):
        s[:] = start
        while s[k.STATUS_AT] == k.ONGOING:
            if k.is_chance_node(s):
                action = rules._roll(s)
            elif np.random.random() < random_share:
                n = k.legal_actions_into(s, params, geo, work, out)
                action = out[np.random.randint(n)]
            else:
                action, _ = choose(s, params, geo)
            k.apply_action_inplace(s, action, params, geo, work)
        if s[k.STATUS_AT] == k.WON:
            wins += 1
    return wins


def expert_playouts(state: SteppinStonesState, count: int, seed: int) -> int:
    """How many of ``count`` games played by the expert policy from ``state`` are won."""
    game = state.game
    return int(_wins(state.cells, game.params, game.geometry, count, seed, RANDOM_MOVE_SHARE))
