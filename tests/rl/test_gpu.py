"""`ludoteca.rl.gpu.GpuEnv` plays exactly the games of `VectorEnv`, under numba's CUDA simulator.

No GPU is needed: the kernels run on the CPU in numba's simulator (``NUMBA_ENABLE_CUDASIM=1``,
which tests/conftest.py sets unless the run sets it: set it to 0 on a machine with a GPU to run
these tests on the device). For every game, random trajectories from several seeds, with the
actions drawn on the device, are replayed in a `VectorEnv` with the same seed: every step's
positions, observations, masks, players, rewards, terminations and illegal flags must be equal,
so the chance outcomes (drawn from the same generators) are too. Short safeguards make games end
within the trajectories, so the restarts are compared as well.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from ludoteca.rl import VectorEnv
from tests.extras import extra_required

if importlib.util.find_spec("numba_cuda") is None and not extra_required("gpu"):
    pytest.skip("numba-cuda is not installed (the gpu extra)", allow_module_level=True)

from ludoteca.rl.gpu import GpuEnv, as_dlpack, device_ready

if not device_ready():
    pytest.fail("neither a CUDA GPU nor numba's simulator is there", pytrace=False)

# Each game with safeguards short enough that games end (and restart) within a trajectory.
GAMES = [
    ("pente_grammai", {"max_plies": 40}),
    ("pente_grammai", {"sacred": "storage", "capture": True, "max_plies": 40}),
    ("salt_n_pepper", {"ranks": 6, "max_plies": 30}),
    ("salta", {"max_plies": 30, "move_limit": None}),
    ("splinter", {"max_plies": 10}),
    ("steppin_stones", {"max_turns": 3}),
]
NUM_ENVS = 4
STEPS = 36
SEEDS = (0, 11)


def _assert_same(gpu: GpuEnv, cpu: VectorEnv, where: str) -> None:
    assert np.array_equal(gpu.cells.copy_to_host(), cpu.cells), f"positions differ {where}"


# The first test of a game compiles its rule functions for the simulator's calls (cached after).
@pytest.mark.timeout(900)
@pytest.mark.parametrize(("game_id", "options"), GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_device_trajectories_equal_the_vector_env(
    game_id: str, options: dict[str, object], seed: int
) -> None:
    gpu = GpuEnv(game_id, NUM_ENVS, seed=seed, **options)
    cpu = VectorEnv(game_id, NUM_ENVS, seed=seed, **options)
    observations, masks = gpu.reset()
    expected = cpu.reset()
    assert np.array_equal(observations.copy_to_host(), expected[0])
    assert np.array_equal(masks.copy_to_host(), expected[1])
    _assert_same(gpu, cpu, "after reset")
    legal = expected[1].copy()
    ended = 0
    for step in range(STEPS):
        actions = gpu.random_actions().copy_to_host()
        assert legal[np.arange(NUM_ENVS), actions].all()
        got = gpu.step(actions).to_host()
        want = cpu.step(actions)
        for name, a, b in zip(want._fields, got, want, strict=True):
            assert a.dtype == b.dtype and a.shape == b.shape, f"{name} at step {step}"
            assert np.array_equal(a, b), f"{name} differs at step {step}"
        _assert_same(gpu, cpu, f"at step {step}")
        legal = want.masks.copy()
        ended += int(want.terminated.sum())
    assert ended > 0  # the restarts were compared too


@pytest.mark.timeout(900)
@pytest.mark.parametrize(("game_id", "options"), [GAMES[0], GAMES[2], GAMES[4]])
def test_illegal_actions_lose_the_game_as_in_the_vector_env(
    game_id: str, options: dict[str, object]
) -> None:
    gpu = GpuEnv(game_id, NUM_ENVS, seed=3, **options)
    cpu = VectorEnv(game_id, NUM_ENVS, seed=3, **options)
    gpu.reset()
    legal = cpu.reset()[1].copy()
    for step in range(6):
        actions = gpu.random_actions().copy_to_host()
        if step % 2 == 1:  # rows 0 and 2 choose an action their mask forbids
            for row in (0, 2):
                actions[row] = int(np.flatnonzero(~legal[row])[0])
        got = gpu.step(actions).to_host()
        want = cpu.step(actions)
        legal = want.masks.copy()
        for name, a, b in zip(want._fields, got, want, strict=True):
            assert np.array_equal(a, b), f"{name} differs at step {step}"
        if step % 2 == 1:
            assert got.illegal[[0, 2]].all() and got.terminated[[0, 2]].all()
        _assert_same(gpu, cpu, f"at step {step}")


def test_device_draws_are_uniform_among_the_legal_actions() -> None:
    env = GpuEnv("pente_grammai", 64, seed=5)
    _, masks = env.reset()
    legal = masks.copy_to_host()
    seen = np.zeros_like(legal, dtype=np.int64)
    for _ in range(6):
        drawn = env.random_actions().copy_to_host()
        assert legal[np.arange(64), drawn].all()
        seen[np.arange(64), drawn] += 1
    # With two or more legal actions, some row drew each of at least two of them.
    several = legal.sum(axis=1) > 1
    if several.any():
        assert ((seen[several] > 0).sum(axis=1) > 1).any()


def test_the_same_seed_deals_the_same_games_again() -> None:
    env = GpuEnv("salt_n_pepper", 4, seed=9, ranks=6)
    first = env.reset()[0].copy_to_host()
    env.step(env.random_actions())
    again = env.reset(seed=9)[0].copy_to_host()
    assert np.array_equal(first, again)


def test_device_arrays_export_through_dlpack() -> None:
    env = GpuEnv("pente_grammai", 4, seed=1)
    observations, _ = env.reset()
    exported = np.from_dlpack(as_dlpack(observations))
    assert np.array_equal(exported, observations.copy_to_host())


def test_bad_actions_are_refused_with_a_clear_error() -> None:
    env = GpuEnv("pente_grammai", 4, seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(4, dtype=np.int64))
    env.reset()
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="integers"):
        env.step(np.zeros(4, dtype=np.float32))
