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


@pytest.mark.parametrize("spec", ["level:1", "level:5", "mcts:iters=10", "alphabeta:depth=1"])
def test_an_agent_refuses_a_position_of_another_game(spec: str) -> None:
    salta = ludoteca.make("salta")
    other = ludoteca.make("salt_n_pepper", first=0).initial_state()
    agent = agent_from_spec(spec, salta, seed=1)
    with pytest.raises(AgentError, match=r"made for ludoteca.make\('salta'\) and cannot play"):
        agent.choose(other)


def test_an_agent_refuses_the_same_game_with_other_options() -> None:
    agent = agent_from_spec("level:2", ludoteca.make("splinter"), seed=1)
    small = ludoteca.make("splinter", size="9x10").initial_state()
    with pytest.raises(AgentError, match="size='9x10'"):
        agent.choose(small)


def test_the_random_agent_plays_any_game() -> None:
    state = ludoteca.make("splinter").initial_state()
    assert RandomAgent(1).choose(state) in state.legal_moves()
