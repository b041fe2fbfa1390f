"""Copies and pickles of every interface continue exactly as the original, and alone.

For every game: a state, a PettingZoo AEC and parallel environment, a Gymnasium environment, an
OpenSpiel game and state and a `VectorEnv` are copied (``copy.deepcopy``) and pickled in the
middle of a game; the original and each copy then play on with the same actions, in this process
and in a worker process, and must see the same observations, masks, rewards and positions. A copy
played first must leave the original where it stood. Gymnasium's ``AsyncVectorEnv`` runs the
Gymnasium environments in worker processes and must agree with ``SyncVectorEnv``.

Skipped where the rl extra is not installed (``pip install 'ludoteca[rl]'``), except where
the extra is required (tests/extras.py), as in .ci/run's second run: there they must run.
"""

from __future__ import annotations

import copy
import multiprocessing
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ludoteca
from tests.extras import extra_required

if not extra_required("rl"):
    for module in ("gymnasium", "pettingzoo", "pyspiel"):
        pytest.importorskip(module, reason="the rl extra is missing: pip install 'ludoteca[rl]'")

import gymnasium
import pyspiel

from ludoteca.core.game import restore_game, restore_state
from ludoteca.core.registry import game_class
from ludoteca.rl import VectorEnv
from ludoteca.rl.gymnasium import env_id
from ludoteca.rl.openspiel import short_name
from ludoteca.rl.pettingzoo import parallel_env, pettingzoo_env
from tests.core.toy_games import ToyDiceGame
from tests.rl.copying_support import (
    continue_aec,
    continue_gymnasium,
    continue_parallel,
    continue_pickled,
    continue_spiel,
    continue_vector,
)

# Options that keep games short, so that a copy made after a few moves reaches the end too.
SHORT: dict[str, dict[str, Any]] = {
    "pente_grammai": {"max_plies": 60},
    "salt_n_pepper": {"ranks": 6, "max_plies": 50},
    "salta": {"move_limit": 10, "max_plies": 40, "scoring": "simplified"},
    "splinter": {"size": "9x10", "max_plies": 30},
    "steppin_stones": {"max_turns": 4},
}
GAMES = ludoteca.GAMES


def copies(thing: Any) -> list[Any]:
    return [copy.deepcopy(thing), pickle.loads(pickle.dumps(thing))]


def check_copies(
    make: Callable[[], Any], advance: Callable[[Any], Any], play_on: Callable[[Any, int], Any]
) -> Any:
    """Advance an original, copy it, play a copy first, then the original: all see the same."""
    original = make()
    advance(original)
    made = copies(original)
    seen = [play_on(made[0], 7)]
    assert seen[0], "the continuation must see something"
    seen.append(play_on(original, 7))  # after the copy played: the original had not moved
    seen.append(play_on(made[1], 7))
    assert seen[0] == seen[1] == seen[2]
    return original


# -- states and games -----------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_a_state_pickles_as_its_game_options_and_position_text(game_id: str) -> None:
    game = ludoteca.make(game_id, **SHORT[game_id])
    state = game.initial_state()
    for _ in range(9):
        if not state.is_over:
            state = state.apply(state.legal_moves()[-1])
    assert state.__reduce__() == (restore_state, (game, state.to_text()))
    assert game.__reduce__() == (restore_game, (game_id, game.options))
    data = pickle.dumps(state)
    assert state.to_text().encode() in data and game_id.encode() in data
    assert len(data) < 200 + len(state.to_text()) + 24 * len(game.options)
    again = pickle.loads(data)
    assert again == state and again.to_text() == state.to_text()
    assert again.legal_moves() == state.legal_moves()
    assert copy.deepcopy(state) is state and copy.copy(state) is state  # immutable values
    assert copy.deepcopy(game) is game


def test_states_pickled_together_share_one_game() -> None:
    game = ludoteca.make("salt_n_pepper", ranks=7)
    first = game.initial_state()
    second = first.apply(first.legal_moves()[0])
    a, b = pickle.loads(pickle.dumps([first, second]))
    assert (a, b) == (first, second) and a.game is b.game


def test_a_game_that_is_not_registered_pickles_by_its_class() -> None:
    game = ToyDiceGame()
    state = game.initial_state()
    state = state.apply(state.legal_moves()[0])
    again = pickle.loads(pickle.dumps(state))
    assert again == state and type(again.game) is ToyDiceGame


# -- PettingZoo ----------------------------------------------------------------------------


def advance_aec(env: Any, steps: int = 6) -> None:
    env.reset(seed=3)
    continue_aec(env, seed=1, steps=steps)


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_aec_copies_continue_identically(game_id: str) -> None:
    original = check_copies(
        lambda: pettingzoo_env(game_id, **SHORT[game_id]), advance_aec, continue_aec
    )
    assert original.agents == [] or original.position.to_move is not None


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_parallel_copies_continue_identically(game_id: str) -> None:
    def advance(env: Any) -> None:
        env.reset(seed=3)
        continue_parallel(env, seed=1, steps=4)

    check_copies(lambda: parallel_env(game_id, **SHORT[game_id]), advance, continue_parallel)


# -- Gymnasium -----------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_gymnasium_copies_continue_identically(game_id: str) -> None:
    def advance(env: Any) -> None:
        env.reset(seed=3)
        continue_gymnasium(env, seed=1, steps=3)

    check_copies(
        lambda: gymnasium.make(env_id(game_class(game_id)), **SHORT[game_id]),
        advance,
        continue_gymnasium,
    )


def test_a_gymnasium_copy_keeps_a_searching_opponents_generator() -> None:
    def advance(env: Any) -> None:
        env.reset(seed=5)
        continue_gymnasium(env, seed=2, steps=2)

    check_copies(
        lambda: gymnasium.make(
            "ludoteca/PenteGrammai-v0", opponent="mcts:iters=30,rollout=10", max_plies=60
        ),
        advance,
        continue_gymnasium,
    )


# -- OpenSpiel -----------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_games_and_states_copy_and_continue_identically(game_id: str) -> None:
    parameters = dict(SHORT[game_id])
    game = pyspiel.load_game(short_name(game_id), parameters)
    for again in copies(game):
        assert again.ludoteca_game == game.ludoteca_game and str(again) == str(game)
        assert again.get_parameters() == game.get_parameters()

    def advance(state: Any) -> None:
        continue_spiel(state, seed=1, steps=5)

    check_copies(game.new_initial_state, advance, continue_spiel)


# -- VectorEnv ------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_vector_env_copies_continue_identically_and_never_freeze(game_id: str) -> None:
    def advance(env: VectorEnv) -> None:
        env.reset()
        continue_vector(env, seed=0, steps=5)

    original = check_copies(
        lambda: VectorEnv(game_id, num_envs=6, seed=9, **SHORT[game_id]), advance, continue_vector
    )
    for make_copy in (copy.deepcopy, lambda env: pickle.loads(pickle.dumps(env))):
        again = make_copy(original)
        before = original.step(original.random_actions()).copy()
        result = again.step(again.random_actions())
        # The copy's results are views of its own buffers, updated by each step.
        assert not np.shares_memory(result.observations, before.observations)
        assert np.array_equal(result.observations, before.observations)
        assert result.observations is again.step(again.random_actions()).observations
        assert np.array_equal(again.players, result.players)
        assert np.array_equal(again.cells, np.stack([s.cells for s in again.states()]))


# -- other processes ------------------------------------------------------------------------


def test_pickles_continue_identically_in_a_spawned_process() -> None:
    """One fresh interpreter (spawn: nothing inherited) plays on every pickled interface."""
    jobs: list[tuple[str, bytes, list[Any]]] = []
    for game_id in ("pente_grammai", "salt_n_pepper"):
        options = SHORT[game_id]
        aec = pettingzoo_env(game_id, **options)
        advance_aec(aec)
        gym = gymnasium.make(env_id(game_class(game_id)), **options)
        gym.reset(seed=4)
        vector = VectorEnv(game_id, num_envs=3, seed=2, **options)
        vector.reset()
        spiel = pyspiel.load_game(short_name(game_id), dict(options)).new_initial_state()
        continue_spiel(spiel, seed=3, steps=4)
        for kind, thing, play_on in (
            ("aec", aec, continue_aec),
            ("gymnasium", gym, continue_gymnasium),
            ("vector", vector, continue_vector),
            ("spiel", spiel, continue_spiel),
        ):
            data = pickle.dumps(thing)
            jobs.append((kind, data, play_on(thing, 11)))
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        results = pool.starmap(continue_pickled, [(kind, data, 11) for kind, data, _ in jobs])
    for (kind, _, expected), result in zip(jobs, results, strict=True):
        assert result == expected, kind


@pytest.mark.parametrize("game_id", GAMES)
def test_async_vector_env_runs_the_gymnasium_envs_in_worker_processes(game_id: str) -> None:
    """Masked random play (the masks from ``action_masks()``, as MaskablePPO reads them) in
    worker processes gives what the same envs give in this process."""
    name = env_id(game_class(game_id))
    options = SHORT[game_id]

    def run(vector_class: type[Any]) -> list[str]:
        envs = vector_class([lambda: gymnasium.make(name, **options) for _ in range(2)])
        try:
            rng = np.random.default_rng(0)
            observations, infos = envs.reset(seed=[5, 6])
            seen = [observations.tobytes().hex()[:64]]
            for _ in range(12):
                masks = np.stack(envs.call("action_masks"))
                assert np.array_equal(masks, infos["action_mask"].astype(bool))
                actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks]
                observations, rewards, terminated, _truncated, infos = envs.step(actions)
                seen.append(f"{observations.tobytes().hex()[:64]} {rewards} {terminated}")
            return seen
        finally:
            envs.close()

    local = run(gymnasium.vector.SyncVectorEnv)
    assert run(gymnasium.vector.AsyncVectorEnv) == local
