from __future__ import annotations

import pytest

import ludoteca
from ludoteca.ai import (
    AgentError,
    AlphaBetaAgent,
    ExpertAgent,
    MCTSAgent,
    RandomAgent,
    agent_from_spec,
)
from ludoteca.ai.levels import BlunderingAgent


def test_specs_build_the_agents_they_name() -> None:
    game = ludoteca.make("splinter")
    assert isinstance(agent_from_spec("random", game), RandomAgent)
    mcts = agent_from_spec("mcts:iters=2000,c=1.4,rollout=end,seed=3", game)
    assert isinstance(mcts, MCTSAgent)
    assert (mcts.iterations, mcts.exploration, mcts.rollout_plies) == (2000, 1.4, None)
    timed = agent_from_spec("mcts:seconds=0.5,rollout=12", game)
    assert isinstance(timed, MCTSAgent)
    assert (timed.iterations, timed.seconds, timed.rollout_plies) == (None, 0.5, 12)
    depth = agent_from_spec("alphabeta:depth=3", game)
    assert isinstance(depth, AlphaBetaAgent)
    assert (depth.seconds, depth.max_depth) == (None, 3)
    nodes = agent_from_spec("alphabeta:nodes=5000", game)
    assert isinstance(nodes, AlphaBetaAgent)
    assert (nodes.seconds, nodes.max_nodes) == (None, 5000)
    assert isinstance(agent_from_spec("level:1,seed=4", game), BlunderingAgent)
    assert agent_from_spec("level:4", game).name == "level:4"
    assert isinstance(agent_from_spec(" Expert ", ludoteca.make("pente_grammai")), ExpertAgent)


def test_a_spec_seed_makes_the_agent_reproducible() -> None:
    game = ludoteca.make("salta")
    state = game.initial_state()
    first = agent_from_spec("mcts:iters=50,seed=8", game).choose(state)
    again = agent_from_spec("mcts:iters=50", game, seed=8).choose(state)
    assert first == again


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphazero", "unknown agent 'alphazero'; accepted: random"),
        ("level", "write a level as level:N"),
        ("level:9", "level must be 1, 2, 3, 4 or 5"),
        ("level:two", "write a level as level:N"),
        ("mcts:iters=0", "iters must be at least 1"),
        ("mcts:iters=many", "iters must be an integer"),
        ("mcts:seconds=-2", "seconds must be a positive number"),
        ("mcts:seconds=nan", "seconds must be a positive number"),
        ("mcts:depth=3", "the mcts agent has no parameter 'depth'; accepted: iters, seconds"),
        ("alphabeta:iters=3", "the alphabeta agent has no parameter 'iters'"),
        ("alphabeta:depth=0", "depth must be at least 1"),
        ("alphabeta:nodes=-5", "nodes must be at least 1"),
        ("mcts:iters", "is not of the form name=value"),
        ("expert:seed=3", "the expert agent takes no parameters; got 'seed=3'"),
        ("expert", "splinter has no expert player; use level:N, mcts or alphabeta instead"),
    ],
)
def test_bad_specs_say_what_is_accepted(spec: str, message: str) -> None:
    with pytest.raises(AgentError, match=message):
        agent_from_spec(spec, ludoteca.make("splinter"))
