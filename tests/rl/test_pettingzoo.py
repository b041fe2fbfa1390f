"""The PettingZoo environments pass PettingZoo's own API and seed tests, for every two-player game.

Skipped where PettingZoo is not installed (``pip install 'ludoteca[rl]'``), except where
the extra is required (tests/extras.py), as in .ci/run's second run: there they must run.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
import pytest

import ludoteca
from tests.extras import extra_required

if not extra_required("rl"):
    pytest.importorskip(
        "pettingzoo", reason="PettingZoo is not installed: pip install 'ludoteca[rl]'"
    )

from gymnasium.error import ResetNeeded
from pettingzoo.test import api_test, parallel_api_test, seed_test

from ludoteca.rl import pettingzoo_env
from ludoteca.rl.pettingzoo import LudotecaAECEnv, parallel_env

TWO_PLAYER_GAMES = [g for g in ludoteca.GAMES if ludoteca.make(g).num_players == 2]

# PettingZoo's checker advises rather than fails with these. The first two are about the dict
# observation ({"observation", "action_mask"}) that PettingZoo's own board games use too (its
# checker exempts them by name); the third comes at the end of a game, where no action is legal.
ADVICE_WE_DECLINE = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
    "Action mask numpy array is all zeros (no legal actions)",
)


@contextmanager
def only_declined_advice() -> Iterator[None]:
    """Fail on any warning of the checkers other than the advice we decline (and say why)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(ADVICE_WE_DECLINE)
    ]
    assert unexpected == []


def test_two_player_games_are_all_there() -> None:
    assert set(TWO_PLAYER_GAMES) == {"pente_grammai", "salt_n_pepper", "salta", "splinter"}


# The solitaire too: a PettingZoo environment with one agent.
@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_pettingzoos_api_and_seed_tests_pass(game_id: str) -> None:
    with only_declined_advice():
        api_test(pettingzoo_env(game_id), num_cycles=60)
        seed_test(lambda: pettingzoo_env(game_id), num_cycles=60)


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_the_parallel_api_passes_pettingzoos_tests(game_id: str) -> None:
    """The parallel environment (PettingZoo's aec_to_parallel), and the AEC environment in the
    cycle shape that conversion needs."""
    with only_declined_advice():
        parallel_api_test(parallel_env(game_id), num_cycles=60)
        api_test(pettingzoo_env(game_id, parallelizable=True), num_cycles=60)
        seed_test(lambda: pettingzoo_env(game_id, parallelizable=True), num_cycles=60)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_pettingzoos_api_and_seed_tests_pass_over_whole_games(game_id: str) -> None:
    with only_declined_advice():
        api_test(pettingzoo_env(game_id), num_cycles=1000)
        seed_test(lambda: pettingzoo_env(game_id), num_cycles=1000)


def play(env: LudotecaAECEnv, choose: Callable[[np.ndarray], int]) -> dict[str, float]:
    """Play one game to the end; every agent's total reward."""
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        assert np.array_equal(observation["action_mask"], info["action_mask"])
        if terminated or truncated:
            env.step(None)
            continue
        assert not env.position.is_over and env.position.to_move == int(agent.split("_")[1])
        env.step(choose(observation["action_mask"]))
    return totals


@pytest.mark.parametrize("game_id", TWO_PLAYER_GAMES)
def test_a_whole_game_ends_with_the_games_returns_as_rewards(game_id: str) -> None:
    small = {"salta": {"move_limit": 20}, "splinter": {"size": "9x10"}}.get(game_id, {})
    env = pettingzoo_env(game_id, **small)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = play(env, lambda mask: int(rng.choice(np.flatnonzero(mask))))
    assert env.position.is_over
    assert tuple(totals.values()) == env.position.returns()
    assert env.agents == []


def test_the_same_seed_replays_the_same_dice_and_another_seed_changes_them() -> None:
    def first_rolls(seed: int) -> list[bytes]:
        env = pettingzoo_env("pente_grammai")
        env.reset(seed=seed)
        seen = []
        for _ in range(12):
            observation, *_ = env.last()
            seen.append(observation["observation"].tobytes())
            env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        return seen

    assert first_rolls(5) == first_rolls(5)
    assert first_rolls(5) != first_rolls(6)


def test_observations_and_masks_are_the_states_and_the_mask_is_the_legal_moves() -> None:
    env = pettingzoo_env("salt_n_pepper", ranks=6)
    env.reset(seed=1)
    state = env.position
    mover = env.agent_selection
    other = next(a for a in env.possible_agents if a != mover)
    seen = env.observe(mover)
    assert seen["observation"].dtype == np.float32
    assert np.array_equal(seen["observation"], state.observation(int(mover[-1])))
    assert sorted(np.flatnonzero(seen["action_mask"])) == sorted(state.legal_actions())
    assert not env.observe(other)["action_mask"].any()
    assert np.array_equal(env.observe(other)["observation"], state.observation(int(other[-1])))


@pytest.mark.parametrize("parallelizable", [False, True])
@pytest.mark.parametrize("seat", [0, 1])
def test_an_illegal_action_loses_the_game_for_the_agent_that_chose_it(
    seat: int, parallelizable: bool
) -> None:
    env = pettingzoo_env("salt_n_pepper", ranks=6, first=seat, parallelizable=parallelizable)
    env.reset(seed=0)
    offender, other = f"player_{seat}", f"player_{1 - seat}"
    before = env.position
    mask = env.observe(offender)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    for agent in env.possible_agents:  # in a cycle the other agent steps too
        assert env.agent_selection == agent or not parallelizable
        if env.agent_selection == offender or parallelizable:
            env.step(illegal if env.agent_selection == offender else 0)
        if not parallelizable:
            break
    assert env.position == before
    assert env.terminations == {offender: True, other: True}
    assert env.rewards == {offender: -1.0, other: 1.0}
    assert env.infos[offender]["illegal_action"] and not env.infos[other]["illegal_action"]
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        totals[agent] += env.last()[1]
        env.step(None)
    assert totals == {offender: -1.0, other: 1.0}


def test_values_outside_the_action_space_are_refused_and_change_nothing() -> None:
    env = pettingzoo_env("salta")
    with pytest.raises(ResetNeeded, match="reset"):
        env.step(0)
    env.reset(seed=0)
    before = env.position
    for value in (-1, env.game.num_actions, "c3-d4"):
        with pytest.raises(ludoteca.IllegalMoveError, match="integer"):
            env.step(value)  # type: ignore[arg-type]
    with pytest.raises(ludoteca.IllegalMoveError, match="must play an action"):
        env.step(None)
    assert env.position == before and not any(env.terminations.values())


def test_ansi_rendering_is_the_terminal_board() -> None:
    env = pettingzoo_env("splinter", render_mode="ansi", size="9x10")
    env.reset(seed=0)
    assert env.render() == str(env.position)
    assert pettingzoo_env("splinter").render() is None


def test_bad_games_options_and_render_modes_are_refused_clearly() -> None:
    with pytest.raises(ludoteca.UnknownGameError):
        pettingzoo_env("chess")
    with pytest.raises(ludoteca.InvalidOptionError, match="accepted"):
        pettingzoo_env("salt_n_pepper", ranks=99)
    with pytest.raises(ValueError, match="accepted: None, 'ansi', 'rgb_array'"):
        pettingzoo_env("salta", render_mode="human")


def test_without_the_extra_ludoteca_rl_imports_and_says_what_to_install() -> None:
    # A module set to None in sys.modules cannot be imported: the extra's absence, simulated.
    code = (
        "import sys\n"
        "sys.modules.update(gymnasium=None, pettingzoo=None, pyspiel=None)\n"
        "import ludoteca.rl\n"
        "env = ludoteca.rl.VectorEnv('salt_n_pepper', num_envs=2, seed=0)\n"
        "print(env.reset()[0].shape)\n"
        "try:\n"
        "    ludoteca.rl.pettingzoo_env('salta')\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    shape, message = result.stdout.strip().splitlines()
    assert shape == "(2, 8, 10, 10)"
    assert message == "the PettingZoo environments need PettingZoo: pip install 'ludoteca[rl]'"
