"""The Gymnasium environments pass Gymnasium's own checker, for every game.

Skipped where Gymnasium is not installed (``pip install 'ludoteca[rl]'``), except where
the extra is required (tests/extras.py), as in .ci/run's second run: there they must run.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ludoteca
from tests.extras import extra_required

if not extra_required("rl"):
    pytest.importorskip(
        "gymnasium", reason="Gymnasium is not installed: pip install 'ludoteca[rl]'"
    )

import gymnasium
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env

import ludoteca.rl
from ludoteca.ai.agents import AgentError
from ludoteca.core.registry import game_class, unregister
from ludoteca.rl.gymnasium import LudotecaEnv, env_id

ENV_IDS = [env_id(game_class(g)) for g in ludoteca.GAMES]


def test_every_game_is_registered_under_its_name() -> None:
    assert set(ENV_IDS) == {
        "ludoteca/PenteGrammai-v0",
        "ludoteca/SaltNPepper-v0",
        "ludoteca/Salta-v0",
        "ludoteca/Splinter-v0",
        "ludoteca/SteppinStones-v0",
    }
    assert set(ENV_IDS) <= set(gymnasium.registry)


@pytest.mark.parametrize("name", ENV_IDS)
def test_gymnasiums_checker_passes(name: str) -> None:
    env = gymnasium.make(name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_gymnasiums_checker_passes_against_a_searching_opponent() -> None:
    env = gymnasium.make("ludoteca/Splinter-v0", opponent="level:2", size="9x10")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def play_episode(env: gymnasium.Env[Any, Any], seed: int) -> tuple[list[bytes], float, int]:
    """One episode with the first legal action each time: observations, last reward, steps."""
    observation, info = env.reset(seed=seed)
    seen = [observation.tobytes()]
    for steps in range(1, 100_000):
        action = int(np.flatnonzero(info["action_mask"])[0])
        observation, reward, terminated, truncated, info = env.step(action)
        seen.append(observation.tobytes())
        assert not truncated
        if terminated:
            return seen, float(reward), steps
        assert reward == 0.0
        assert info["action_mask"].any()
    raise AssertionError("the episode did not end")


def test_a_whole_episode_against_level_2_ends_with_the_games_return() -> None:
    env = gymnasium.make("ludoteca/SaltNPepper-v0", opponent="level:2", ranks=6)
    _, reward, _ = play_episode(env, seed=4)
    state = env.unwrapped.position
    assert state.is_over
    assert reward == state.returns()[0] and reward in (-1.0, 0.0, 1.0)


def test_the_same_seed_replays_the_same_game_against_a_searching_opponent() -> None:
    # An iteration budget, not a time limit (levels also stop at 1.8 s a move), so that the
    # replay cannot depend on the machine's load.
    env = gymnasium.make(
        "ludoteca/PenteGrammai-v0", opponent="mcts:iters=20,rollout=10", max_plies=80
    )
    seen, reward, _ = play_episode(env, seed=4)
    assert play_episode(env, seed=4) == (seen, reward, len(seen) - 1)
    assert play_episode(env, seed=5)[0] != seen


def test_the_solitaire_plays_alone_and_its_dice_follow_the_seed() -> None:
    env = gymnasium.make("ludoteca/SteppinStones-v0", max_turns=3)
    first, reward, steps = play_episode(env, seed=1)
    assert reward in (-1.0, 1.0) and steps > 0
    assert play_episode(env, seed=1)[0] == first
    assert play_episode(env, seed=2)[0] != first


def test_the_agent_can_play_second() -> None:
    env = gymnasium.make("ludoteca/Salta-v0", player=1, opponent="random")
    observation, info = env.reset(seed=0)
    state = env.unwrapped.position
    assert state.to_move == 1
    assert np.array_equal(observation, state.observation(1))
    assert sorted(np.flatnonzero(info["action_mask"])) == sorted(state.legal_actions())


def test_an_illegal_action_loses_the_game_and_then_a_reset_is_needed() -> None:
    env = gymnasium.make("ludoteca/Salta-v0").unwrapped
    with pytest.raises(ResetNeeded, match="reset"):
        env.step(0)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.position
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert not info["action_mask"].any() and not env.action_masks().any()
    assert env.position == before
    with pytest.raises(ResetNeeded, match="reset"):
        env.step(0)


def test_the_agent_playing_second_loses_by_an_illegal_action_too() -> None:
    env = gymnasium.make("ludoteca/SaltNPepper-v0", player=1, ranks=6).unwrapped
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    assert env.step(illegal)[1:3] == (-1.0, True)


def test_values_outside_the_action_space_are_refused_and_change_nothing() -> None:
    env = gymnasium.make("ludoteca/Salta-v0").unwrapped
    env.reset(seed=0)
    before = env.position
    for action in (-1, env.action_space.n, "c3-d4", 2.5):
        with pytest.raises(ludoteca.IllegalMoveError, match="an action is an integer from 0 to"):
            env.step(action)
    assert env.position == before
    env.step(int(np.flatnonzero(env.action_masks())[0]))  # the episode goes on


def test_bad_opponents_players_and_options_are_refused_clearly() -> None:
    with pytest.raises(AgentError, match="accepted"):
        LudotecaEnv("splinter", opponent="grandmaster")
    with pytest.raises(ValueError, match="solitaire"):
        LudotecaEnv("steppin_stones", opponent="random")
    with pytest.raises(ValueError, match="player must be from 0 to 1"):
        LudotecaEnv("salta", player=2)
    with pytest.raises(ludoteca.InvalidOptionError, match="accepted"):
        gymnasium.make("ludoteca/SaltNPepper-v0", ranks=99)
    with pytest.raises(ValueError, match="accepted: None, 'ansi', 'rgb_array'"):
        LudotecaEnv("salta", render_mode="human")


def test_ansi_rendering_is_the_terminal_board() -> None:
    env = gymnasium.make("ludoteca/Salta-v0", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == str(env.unwrapped.position)


def test_the_module_path_form_makes_an_environment_without_importing_ludoteca_first() -> None:
    code = (
        "import gymnasium, sys\n"
        "assert 'ludoteca' not in sys.modules\n"
        "env = gymnasium.make('ludoteca.rl:ludoteca/Salta-v0')\n"
        "print(env.reset(seed=0)[0].shape)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(ludoteca.make("salta").observation_shape)


def test_a_plugin_game_is_registered_under_its_name_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "example_game"))
    import ludoteca_nim

    ludoteca.register(ludoteca_nim.NimGame)
    try:
        assert "ludoteca/Nim-v0" in ludoteca.rl.gymnasium.register_envs()
        assert gymnasium.spec("ludoteca/Nim-v0").kwargs == {"game_id": "nim"}
    finally:
        unregister("nim")
        del gymnasium.registry["ludoteca/Nim-v0"]
