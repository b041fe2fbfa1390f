"""Continuations of environments and states, shared by the copy tests and their worker processes.

Each function plays on from where its argument stands, with actions drawn from a generator of
its own (seeded), and returns what it saw as bytes and numbers, so that the original, its copies
and its pickles can be compared step for step, in this process or another.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

STEPS = 40


def digest(*arrays: Any) -> str:
    """A short digest of arrays and values (what a step showed)."""
    hasher = hashlib.sha256()
    for array in arrays:
        hasher.update(np.asarray(array).tobytes())
    return hasher.hexdigest()[:16]


def continue_aec(env: Any, seed: int, steps: int = STEPS) -> list[tuple[Any, ...]]:
    """Play a PettingZoo AEC environment on for ``steps`` agent turns (masked random actions)."""
    rng = np.random.default_rng(seed)
    seen: list[tuple[Any, ...]] = []
    for agent in env.agent_iter(max_iter=steps):
        observation, reward, terminated, truncated, _info = env.last()
        mask = observation["action_mask"]
        seen.append((agent, digest(observation["observation"], mask), reward, terminated))
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(mask))))
    seen.append(env.position.to_text())
    return seen


def continue_parallel(env: Any, seed: int, steps: int = STEPS) -> list[tuple[Any, ...]]:
    """Play a PettingZoo parallel environment on for ``steps`` steps (or to its end)."""
    rng = np.random.default_rng(seed)
    observations = {agent: env.aec_env.observe(agent) for agent in env.agents}
    seen: list[tuple[Any, ...]] = []
    for _ in range(steps):
        if not env.agents:
            break
        actions = {}
        for agent in env.agents:
            legal = np.flatnonzero(observations[agent]["action_mask"])
            actions[agent] = int(rng.choice(legal)) if len(legal) else 0
        observations, rewards, terminations, _, _ = env.step(actions)
        seen.append(
            (
                digest(*(observations[a]["observation"] for a in sorted(observations))),
                tuple(sorted(rewards.items())),
                tuple(sorted(terminations.items())),
            )
        )
    return seen


def continue_gymnasium(env: Any, seed: int, steps: int = STEPS) -> list[tuple[Any, ...]]:
    """Play a Gymnasium environment on (resetting with no seed after each episode)."""
    rng = np.random.default_rng(seed)
    seen: list[tuple[Any, ...]] = []
    for _ in range(steps):
        masks = env.get_wrapper_attr("action_masks")()
        if not masks.any():
            observation, _info = env.reset()
            seen.append(("reset", digest(observation)))
            continue
        observation, reward, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(masks)))
        )
        seen.append((digest(observation), reward, terminated, truncated))
    return seen


def continue_vector(env: Any, seed: int, steps: int = STEPS) -> list[tuple[Any, ...]]:
    """Step a `VectorEnv` on with its own random actions (``seed`` is unused: they are seeded)."""
    seen: list[tuple[Any, ...]] = []
    for _ in range(steps):
        result = env.step(env.random_actions())
        seen.append(tuple(digest(array) for array in result))
    return seen


def continue_spiel(state: Any, seed: int, steps: int = STEPS) -> list[tuple[Any, ...]]:
    """Play an OpenSpiel state on: chance outcomes and moves drawn from a seeded generator."""
    rng = np.random.default_rng(seed)
    seen: list[tuple[Any, ...]] = []
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            action = int(rng.choice(actions, p=np.asarray(probabilities) / sum(probabilities)))
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        seen.append((action, str(state.current_player()), tuple(state.returns())))
    seen.append(state.position.to_text())
    return seen


CONTINUATIONS = {
    "aec": continue_aec,
    "parallel": continue_parallel,
    "gymnasium": continue_gymnasium,
    "vector": continue_vector,
    "spiel": continue_spiel,
}


def continue_pickled(kind: str, pickled: bytes, seed: int) -> list[tuple[Any, ...]]:
    """Unpickle an environment or state (in a worker process) and play it on."""
    import pickle

    import ludoteca.rl
    import ludoteca.rl.openspiel  # noqa: F401 (registers the OpenSpiel games)

    return CONTINUATIONS[kind](pickle.loads(pickled), seed)
