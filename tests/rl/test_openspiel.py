"""Every game passes OpenSpiel's own consistency checks and OpenSpiel's MCTS bot plays it.

Skipped where OpenSpiel is not installed (``pip install 'ludoteca[rl]'``), except where
the extra is required (tests/extras.py), as in .ci/run's second run: there they must run.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

import ludoteca
from tests.extras import extra_required

if not extra_required("rl"):
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'ludoteca[rl]'")

import pyspiel
from absl import logging as absl_logging
from open_spiel.python.algorithms import evaluate_bots, mcts

from ludoteca.ai.agents import AgentError
from ludoteca.rl.openspiel import (
    AgentBot,
    CompiledRolloutEvaluator,
    LudotecaSpielState,
    register_games,
    short_name,
)

# absl makes its log handler on the stream that is sys.stderr when it is imported: here, pytest's
# capture file. A later logging.config.dictConfig (uvicorn's, in the web and load tests) closes
# every handler there is, and with it pytest's capture file, which ends the whole run. The real
# stderr is one that absl never closes.
absl_logging.get_absl_handler().python_handler.stream = sys.__stderr__

# Options that keep whole games short enough for a search written in Python to finish them.
SHORT = {
    "pente_grammai": {"max_plies": 80},
    "salt_n_pepper": {"ranks": 6, "max_plies": 80},
    "salta": {"move_limit": 20, "scoring": "simplified"},
    "splinter": {"size": "9x10", "max_plies": 60},
    "steppin_stones": {"max_turns": 6},
}


def load(game_id: str, **parameters: object) -> pyspiel.Game:
    return pyspiel.load_game(short_name(game_id), parameters)


def test_every_game_is_registered() -> None:
    assert register_games() == tuple(short_name(g) for g in ludoteca.GAMES)
    registered = {t.short_name for t in pyspiel.registered_games()}
    assert {"ludoteca_salta", "ludoteca_steppin_stones"} <= registered


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_openspiels_random_simulation_test_passes(game_id: str) -> None:
    pyspiel.random_sim_test(
        load(game_id, **SHORT[game_id]), num_sims=3, serialize=True, verbose=False
    )


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_openspiels_random_simulation_test_passes_with_the_default_options(game_id: str) -> None:
    pyspiel.random_sim_test(load(game_id), num_sims=3, serialize=True, verbose=False)


def mcts_bot(game: pyspiel.Game, simulations: int, seed: int) -> mcts.MCTSBot:
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng)


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_openspiels_mcts_bot_plays_whole_games(game_id: str) -> None:
    game = load(game_id, **SHORT[game_id])
    bots = [mcts_bot(game, 3, seed=p) for p in range(game.num_players())]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(1))
    assert len(returns) == game.num_players()
    assert all(r in (-1.0, 0.0, 1.0) for r in returns)


def mcts_against(spec: str, simulations: int) -> list[float]:
    """OpenSpiel's MCTS (compiled rollouts) as Salt against a Ludoteca agent as Pepper."""
    game = load("salt_n_pepper", ranks=6)
    openspiel_mcts = mcts.MCTSBot(
        game,
        2.0,
        simulations,
        CompiledRolloutEvaluator(seed=0),
        random_state=np.random.RandomState(0),
    )
    bots = [openspiel_mcts, AgentBot(game, spec, seed=1)]
    state = game.new_initial_state()
    returns: list[float] = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(2))
    assert state.is_terminal()
    return returns


def test_openspiels_mcts_plays_a_ludoteca_level_through_the_interop() -> None:
    assert sorted(mcts_against("level:1", 20)) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.slow
def test_openspiels_mcts_against_level_3_as_in_the_docs() -> None:
    assert sorted(mcts_against("level:3", 300)) in ([-1.0, 1.0], [0.0, 0.0])


def test_the_compiled_rollouts_estimate_returns_and_give_uniform_priors() -> None:
    game = load("pente_grammai")
    evaluator = CompiledRolloutEvaluator(n_rollouts=20, seed=3)
    state = game.new_initial_state()
    assert evaluator.prior(state) == state.chance_outcomes()
    state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.chance_outcomes()[0][0])
    legal = state.legal_actions()
    assert evaluator.prior(state) == [(a, 1.0 / len(legal)) for a in legal]
    value = evaluator.evaluate(state)
    assert value.shape == (2,) and value.sum() == pytest.approx(0.0)
    assert np.all(np.abs(value) <= 1.0)
    assert np.array_equal(CompiledRolloutEvaluator(20, seed=3).evaluate(state), value)
    with pytest.raises(ValueError, match="at least 1"):
        CompiledRolloutEvaluator(0)


def test_a_ludoteca_agent_is_a_bot() -> None:
    game = load("splinter", size="9x10")
    state = game.new_initial_state()
    assert AgentBot(game, "random", seed=1).step(state) in state.legal_actions()
    with pytest.raises(AgentError, match="accepted"):
        AgentBot(game, "grandmaster")
    with pytest.raises(TypeError, match="ludoteca_<game id>"):
        AgentBot(pyspiel.load_game("tic_tac_toe"), "random")


def test_options_are_typed_parameters() -> None:
    spec = pyspiel.load_game("ludoteca_salt_n_pepper").get_type().parameter_specification
    assert spec == {"first": -1, "pepper_sideways": False, "ranks": 10, "max_plies": 2000}
    game = pyspiel.load_game("ludoteca_salt_n_pepper(ranks=6,pepper_sideways=true,first=1)")
    state = game.new_initial_state()
    assert isinstance(state, LudotecaSpielState)
    assert state.position.game == ludoteca.make(
        "salt_n_pepper", ranks=6, pepper_sideways=True, first=1
    )
    assert state.current_player() == 1  # Pepper moves first, no draw
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()


@pytest.mark.parametrize(
    ("game_id", "parameters", "options"),
    [
        ("salt_n_pepper", {"first": -1}, {"first": "random"}),
        ("pente_grammai", {"first": 1}, {"first": 1}),
        ("splinter", {"first": -1, "size": "9x10"}, {"first": "random", "size": "9x10"}),
        ("salta", {"move_limit": 0}, {"move_limit": None}),
        ("salta", {"move_limit": 60, "max_plies": 400}, {"move_limit": 60, "max_plies": 400}),
    ],
)
def test_words_and_none_are_integers_and_no_parameter_shows_quotes(
    game_id: str, parameters: dict[str, object], options: dict[str, object]
) -> None:
    game = load(game_id, **parameters)
    assert game.ludoteca_game == ludoteca.make(game_id, **options)
    shown = game.get_parameters()
    assert {name: shown[name] for name in parameters} == parameters
    assert not any(isinstance(v, str) and '"' in v for v in shown.values())
    assert '"' not in str(game)
    again = pyspiel.load_game(str(game))  # the game string round-trips
    assert again.ludoteca_game == game.ludoteca_game
    assert again.get_parameters() == shown


def test_bad_parameters_are_refused_with_what_is_accepted() -> None:
    with pytest.raises(ludoteca.InvalidOptionError, match="an integer from 6 to 20"):
        load("salt_n_pepper", ranks=99)
    with pytest.raises(pyspiel.SpielError, match="Available parameters are"):
        load("salta", colour="red")
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter ranks"):
        load("salt_n_pepper", ranks="six")


def test_dice_are_chance_nodes_with_their_probabilities() -> None:
    game = load("pente_grammai")
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert load("salta").get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert outcomes == sorted(state.position.chance_outcome_actions())
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert max(a for a, _ in outcomes) < game.max_chance_outcomes()


def test_observations_returns_and_serialisation_follow_the_position() -> None:
    game = load("salt_n_pepper", ranks=6)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(15):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    for player in range(2):
        tensor = np.asarray(state.observation_tensor(player)).reshape(
            game.observation_tensor_shape()
        )
        assert np.array_equal(tensor, state.position.observation(player))
        assert state.observation_string(player) == state.position.to_text()
    assert state.returns() == list(state.position.returns())
    text = pyspiel.serialize_game_and_state(game, state)
    _, state_again = pyspiel.deserialize_game_and_state(text)
    assert state_again.position == state.position
    assert state_again.history() == state.history()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.position != state.position  # a clone moves on alone
