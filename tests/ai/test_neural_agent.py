"""The neural player: its network file, numpy against torch, the shipped weights, the specs."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import ludoteca
from ludoteca.ai import AgentError, agent_from_spec, make_agent
from ludoteca.ai.neural import NetworkError, NeuralAgent, load_network, save_weights
from ludoteca.ai.neural.network import network_arrays, network_from_arrays
from ludoteca.core.info import NEURAL_LEVEL, GameInfo, LearnedPlayer, LevelSetting
from ludoteca.core.info import declaration_problems as problems_of
from ludoteca.core.outcome import CHANCE

LEARNED_GAMES = [g for g in ludoteca.GAMES if ludoteca.make(g).info.learned is not None]


def random_network(game_id: str, inputs: int, hidden: list[int], actions: int, seed: int):
    rng = np.random.default_rng(seed)
    arrays = {}
    width = inputs
    for i, units in enumerate(hidden):
        arrays[f"hidden_{i}_weight"] = rng.normal(0, 0.3, (width, units)).astype(np.float32)
        arrays[f"hidden_{i}_bias"] = rng.normal(0, 0.1, units).astype(np.float32)
        width = units
    arrays["policy_weight"] = rng.normal(0, 0.5, (actions, width)).astype(np.float32)
    arrays["policy_bias"] = rng.normal(0, 0.1, actions).astype(np.float32)
    arrays["value_weight"] = rng.normal(0, 0.3, width).astype(np.float32)
    arrays["value_bias"] = np.array([0.05], np.float32)
    return network_from_arrays(game_id, arrays)


def test_the_numpy_forward_pass_equals_torchs_on_the_same_weights():
    torch = pytest.importorskip("torch", reason="torch (the learn extra) is not installed")
    from ludoteca.ai.neural.train import PolicyValueMLP

    network = random_network("pente_grammai", 140, [32, 16], 12, seed=3)
    model = PolicyValueMLP(140, [32, 16], 12)
    model.load_arrays(network_arrays(network))
    rng = np.random.default_rng(4)
    observations = (rng.random((20, 140)) * (rng.random((20, 140)) < 0.3)).astype(np.float32)
    with torch.no_grad():
        logits, values = model(torch.from_numpy(observations))
    for row in range(20):
        legal = np.sort(rng.choice(12, size=1 + row % 12, replace=False)).astype(np.int64)
        priors, value = network.evaluate(observations[row], legal)
        expected = torch.softmax(logits[row, torch.from_numpy(legal)], dim=0).numpy()
        np.testing.assert_allclose(priors, expected, rtol=1e-4, atol=1e-6)
        assert value == pytest.approx(float(values[row]), abs=1e-5)
        assert priors.sum() == pytest.approx(1.0)


def test_a_weights_file_round_trips_and_bad_files_are_refused(tmp_path: Path):
    network = random_network("salt_n_pepper", 10, [4], 7, seed=1)
    path = tmp_path / "network.npz"
    save_weights(network, path)
    loaded = load_network(path, "salt_n_pepper")
    for name, array in network_arrays(network).items():
        np.testing.assert_array_equal(network_arrays(loaded)[name], array)
    with pytest.raises(NetworkError, match="for 'salt_n_pepper', not for 'salta'"):
        load_network(path, "salta")
    with pytest.raises(NetworkError, match="cannot read"):
        load_network(tmp_path / "missing.npz", "salta")
    damaged = tmp_path / "damaged.npz"
    damaged.write_bytes(path.read_bytes()[:100])
    with pytest.raises(NetworkError, match="cannot read"):
        load_network(damaged, "salt_n_pepper")
    arrays = network_arrays(network)
    del arrays["policy_bias"]
    with pytest.raises(NetworkError, match="lack the array 'policy_bias'"):
        network_from_arrays("salt_n_pepper", arrays)


def positions(game, count: int, seed: int):
    """Decision nodes reached by random play, for both seats."""
    rng = random.Random(seed)
    found = []
    state = game.initial_state()
    while len(found) < count:
        if state.is_over:
            state = game.initial_state()
        elif state.to_move == CHANCE:
            state = state.apply(rng.choice(state.legal_moves()))
        else:
            found.append(state)
            state = state.apply(rng.choice(state.legal_moves()))
    return found


@pytest.mark.parametrize("game_id", LEARNED_GAMES)
def test_the_shipped_network_loads_and_plays_legal_moves_for_both_seats(game_id):
    game = ludoteca.make(game_id)
    agent = NeuralAgent(game, iterations=16)
    seats = set()
    for state in positions(game, 12, seed=5):
        move = agent.choose(state)
        assert move in state.legal_moves()
        seats.add(state.to_move)
    assert seats == {0, 1}


@pytest.mark.parametrize("game_id", LEARNED_GAMES)
def test_a_seeded_neural_player_replays_its_game(game_id):
    game = ludoteca.make(game_id)

    def game_moves(seed: int) -> list[str]:
        agents = [agent_from_spec(f"neural:iters=8,seed={seed}", game) for _ in range(2)]
        rng = random.Random(seed)
        state, moves = game.initial_state(), []
        while not state.is_over and len(moves) < 30:
            if state.to_move == CHANCE:
                move = rng.choice(state.legal_moves())
            else:
                move = agents[state.to_move].choose(state)
            moves.append(move.text)
            state = state.apply(move)
        return moves

    assert game_moves(3) == game_moves(3)


def test_level_six_is_the_neural_player_where_a_game_declares_it():
    base = type(ludoteca.make("pente_grammai"))
    learned = base.info.learned
    assert learned is not None

    class WithLevelSix(base):  # type: ignore[misc, valid-type]
        info = replace(
            base.info, learned=replace(learned, level=LevelSetting("learned", "neural", 24))
        )

    game = WithLevelSix()
    agent = make_agent(game, NEURAL_LEVEL, seed=1)
    assert isinstance(agent, NeuralAgent) and agent.name == "level:6"
    assert game.info.level_numbers == (1, 2, 3, 4, 5, 6)
    state = positions(game, 1, seed=2)[0]
    assert agent.choose(state) in state.legal_moves()


def test_level_six_is_refused_where_a_game_does_not_declare_it():
    for game_id in ludoteca.GAMES:
        game = ludoteca.make(game_id)
        learned = game.info.learned
        if learned is not None and learned.level is not None:
            agent = make_agent(game, NEURAL_LEVEL, seed=1)
            assert isinstance(agent, NeuralAgent) and agent.name == "level:6"
            assert NEURAL_LEVEL in game.info.level_numbers
        else:
            with pytest.raises(AgentError, match="level must be 1, 2, 3, 4 or 5; got 6"):
                make_agent(game, NEURAL_LEVEL)


def test_specs_name_the_neural_player_and_refuse_what_cannot_be_played():
    with pytest.raises(AgentError, match="ships no learned player"):
        agent_from_spec("neural", ludoteca.make("splinter"))
    with pytest.raises(AgentError, match="plays two-player games"):
        agent_from_spec("neural", ludoteca.make("steppin_stones"))
    with pytest.raises(AgentError, match="iters must be at least 1"):
        agent_from_spec("neural:iters=0", ludoteca.make("pente_grammai"))
    with pytest.raises(AgentError, match="has no parameter 'rollout'"):
        agent_from_spec("neural:rollout=3", ludoteca.make("pente_grammai"))


def test_a_learned_player_declaration_is_checked():
    good = LearnedPlayer(Path("w.npz"), 100, LevelSetting("learned", "neural", 100))
    assert problems_of(GameInfo(learned=good)) == []
    assert GameInfo(learned=good).level(NEURAL_LEVEL) is good.level
    bad_level = LearnedPlayer(Path("w.npz"), 100, LevelSetting("learned", "mcts", 100))
    assert any("engine 'neural'" in p for p in problems_of(GameInfo(learned=bad_level)))
    bad_budget = LearnedPlayer(Path("w.npz"), 0)
    assert any(
        "iterations must be at least 1" in p for p in problems_of(GameInfo(learned=bad_budget))
    )
    not_a_path = LearnedPlayer("w.npz", 5)  # type: ignore[arg-type]
    assert any("pathlib.Path" in p for p in problems_of(GameInfo(learned=not_a_path)))
