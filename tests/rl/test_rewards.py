"""Every interface gives every seat its own return: a reward meant for another seat fails here.

Games are played with masked random moves until one is decisive (a draw would give both seats
0 and hide a swapped reward); the rewards each seat received must then be the game's returns
for that seat, and the winner's must be +1.

Skipped where the rl extra is not installed (``pip install 'ludoteca[rl]'``), except where
the extra is required (tests/extras.py), as in .ci/run's second run: there they must run.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.extras import extra_required

if not extra_required("rl"):
    for module in ("gymnasium", "pettingzoo", "pyspiel"):
        pytest.importorskip(module, reason="the rl extra is missing: pip install 'ludoteca[rl]'")

import gymnasium
import pyspiel

from ludoteca.core.registry import game_class
from ludoteca.rl import VectorEnv
from ludoteca.rl.gymnasium import env_id
from ludoteca.rl.openspiel import short_name
from ludoteca.rl.pettingzoo import parallel_env, pettingzoo_env

# Options under which random games are short and seldom drawn.
OPTIONS: dict[str, dict[str, Any]] = {
    "pente_grammai": {},
    "salt_n_pepper": {},  # on 10 ranks Salt wins a sixth of random games, on 6 a fifteenth
    "salta": {"move_limit": 30, "scoring": "simplified"},
    "splinter": {"size": "7x8"},
}
SEATS = [(game_id, seat) for game_id in OPTIONS for seat in (0, 1)]


def decisive(returns: tuple[float, ...]) -> bool:
    return max(returns) > 0


@pytest.mark.parametrize(("game_id", "seat"), SEATS)
def test_gymnasium_gives_the_agents_seat_its_return(game_id: str, seat: int) -> None:
    env = gymnasium.make(env_id(game_class(game_id)), player=seat, **OPTIONS[game_id])
    rng = np.random.default_rng(seat)
    outcomes = set()
    for seed in range(40):
        _, info = env.reset(seed=seed)
        terminated, total = False, 0.0
        while not terminated:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, _, info = env.step(action)
            total += reward
        returns = env.unwrapped.position.returns()
        assert total == returns[seat]
        if decisive(returns):
            outcomes.add(total)
        if outcomes == {1.0, -1.0}:
            return
    pytest.fail(f"forty games gave the seat only {outcomes}: no won and lost game to check")


@pytest.mark.parametrize(("game_id", "seat"), SEATS)
def test_pettingzoo_gives_each_agent_its_seats_return(game_id: str, seat: int) -> None:
    """``seat`` moves first (in Salta Green, seat 0, always does), in the AEC and the parallel
    API alike; every agent's rewards are checked."""
    first = {} if game_id == "salta" else {"first": seat}
    options = {**OPTIONS[game_id], **first}
    rng = np.random.default_rng(seat)
    for seed in range(12):
        env = pettingzoo_env(game_id, **options)
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            mask = observation["action_mask"]
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(mask))))
        returns = env.position.returns()
        if decisive(returns):
            assert totals == {"player_0": returns[0], "player_1": returns[1]}
            winner = env.position.outcome.winner
            assert totals[f"player_{winner}"] == 1.0
            break
    else:
        pytest.fail("no decisive game in twelve")
    parallel = parallel_env(game_id, **options)
    observations, _ = parallel.reset(seed=seed)
    rng = np.random.default_rng(seat)
    totals = dict.fromkeys(parallel.possible_agents, 0.0)
    while parallel.agents:
        actions = {}
        for agent in parallel.agents:
            legal = np.flatnonzero(observations[agent]["action_mask"])
            actions[agent] = int(rng.choice(legal)) if len(legal) else 0
        observations, rewards, _, _, _ = parallel.step(actions)
        for agent, reward in rewards.items():
            totals[agent] += reward
    returns = parallel.unwrapped.position.returns()
    assert totals == {"player_0": returns[0], "player_1": returns[1]}


@pytest.mark.parametrize("game_id", OPTIONS)
def test_vector_env_rewards_are_each_seats_return(game_id: str) -> None:
    """Each row that ends is replayed through the single-game API: its last position and
    action give the returns, seat by seat (no chance outcome comes between a last move and
    the end in these games)."""
    env = VectorEnv(game_id, num_envs=32, seed=4, **OPTIONS[game_id])
    env.reset()
    seen_winners: set[int] = set()
    for _ in range(400):
        before = env.states()
        actions = env.random_actions()
        result = env.step(actions)
        for row in np.flatnonzero(result.terminated):
            end = before[row].apply_action(int(actions[row]))
            assert end.is_over
            assert tuple(result.rewards[row].tolist()) == end.returns()
            if end.outcome.winner is not None:
                seen_winners.add(end.outcome.winner)
        if seen_winners == {0, 1}:
            return
    pytest.fail(f"only seats {seen_winners} won in 400 steps")


@pytest.mark.parametrize("game_id", OPTIONS)
def test_openspiel_returns_are_each_seats_return(game_id: str) -> None:
    game = pyspiel.load_game(short_name(game_id), dict(OPTIONS[game_id]))
    rng = np.random.default_rng(1)
    winners = set()
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probabilities)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        winner = state.position.outcome.winner
        if winner is not None:
            assert state.returns()[winner] == 1.0 and state.returns()[1 - winner] == -1.0
            winners.add(winner)
        if winners == {0, 1}:
            return
    pytest.fail(f"only seats {winners} won in twenty games")
