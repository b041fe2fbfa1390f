from __future__ import annotations

import pytest

import ludoteca
from ludoteca.ai import AgentError, RandomAgent, agent_from_spec
from tests.core.toy_games import ToyDiceGame


def test_the_random_agent_plays_legal_moves_deterministically_by_seed() -> None:
    game = ludoteca.make("salta")

    def play(seed: int) -> list[str]:
        agent, state, texts = RandomAgent(seed), game.initial_state(), []
        for _ in range(30):
            move = agent.choose(state)
            assert move in state.legal_moves()
            texts.append(move.text)
            state = state.apply(move)
        return texts

    assert play(4) == play(4)
    assert play(4) != play(5)


def test_an_agent_refuses_a_finished_game() -> None:
    game = ludoteca.make("salta", move_limit=1, scoring="simplified")
    state = game.initial_state().apply("c3-d4").apply("h8-g7")
    assert state.is_over
    with pytest.raises(AgentError, match="the game is over"):
        RandomAgent(1).choose(state)


def test_an_agent_refuses_a_chance_node() -> None:
    with pytest.raises(AgentError, match="chance node"):
        RandomAgent(1).choose(ToyDiceGame().initial_state())


def test_agent_specs() -> None:
    game = ludoteca.make("salta")
    state = game.initial_state()
    a, b = agent_from_spec("random:seed=9", game), agent_from_spec("random", game, seed=9)
    assert a.choose(state) == b.choose(state)
    for spec, message in [
        ("alphazero", "unknown agent 'alphazero'; accepted: random"),
        ("random:depth=3", "no parameter 'depth'"),
        ("random:seed=x", "seed must be an integer"),
        ("random:seed", "name=value"),
    ]:
        with pytest.raises(AgentError, match=message):
            agent_from_spec(spec, game)
