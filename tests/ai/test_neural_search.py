"""The PUCT search of the neural player: chance nodes, solved facts, determinism."""

from __future__ import annotations

import numpy as np
import pytest

from ludoteca.ai.neural.puct import PUCTSearch, RootNoise
from ludoteca.ai.neural.puct_tree import FINISHED, PUCTTree
from ludoteca.core.playouts import CHANCE_NODE, GAME_OVER
from tests.core.toy_games import BetGame, TakeAwayGame, ToyDiceGame


def uniform(state, actions):
    """No knowledge: equal priors, every position a draw."""
    return np.full(len(actions), 1 / len(actions)), 0.0


@pytest.mark.parametrize("won_percent", [30, 45, 55, 70])
def test_a_chance_node_is_worth_the_expectation_weighted_by_its_probabilities(won_percent):
    game = BetGame(won_percent=won_percent)
    result = PUCTSearch(uniform, iterations=40, stop_early=False).run(game.initial_state())
    bet, fold = list(result.actions).index(0), list(result.actions).index(1)
    # The bet is worth 2p - 1 exactly, however its two outcomes were visited.
    assert result.values[bet] == pytest.approx(2 * won_percent / 100 - 1, abs=1e-12)
    assert result.values[fold] == 0.0
    assert result.best == (bet if won_percent > 50 else fold)


def test_chance_outcomes_are_visited_in_proportion_to_their_probabilities():
    probabilities = np.array([0.5, 0.3, 0.2])
    # A decision with one move, into a chance node whose outcomes end the game worth +1, 0
    # and -1 to player 0.
    tree = PUCTTree(capacity=4)
    root = tree.add_node(0, 0.0, np.array([0]), np.array([1.0]))
    leaves = [
        tree.add_node(GAME_OVER, value, np.zeros(0, np.int64), np.zeros(0))
        for value in (1.0, 0.0, -1.0)
    ]
    chance = tree.add_node(
        CHANCE_NODE, 0.5 - 0.2, np.arange(3), probabilities, np.array(leaves, np.int64)
    )
    _, _, edge = tree.descend(1.0)
    tree.attach(edge, chance)
    for _ in range(197):
        status, _, _ = tree.descend(1.0)
        assert status == FINISHED
    visits = np.array([tree.visits(leaf) for leaf in leaves])
    assert visits.sum() == 3 + 197
    assert np.all(np.abs(visits - probabilities * visits.sum()) <= 1.0)
    # The chance node's value stays the exact expectation: 0.5 - 0.2.
    assert tree.value(chance) == pytest.approx(0.3)
    assert tree.value(root) == pytest.approx(0.3, abs=0.01)


@pytest.mark.parametrize("pile", [5, 6, 7, 9, 10, 11])
def test_finds_the_move_that_leaves_a_multiple_of_four(pile):
    state = TakeAwayGame().parse_state(f"{pile} 0")
    result = PUCTSearch(uniform, iterations=1500).run(state)
    assert (pile - (int(result.actions[result.best]) + 1)) % 4 == 0


def test_runs_through_chance_nodes_of_a_dice_race():
    game = ToyDiceGame()
    state = game.parse_state("9 8 0 1 10")  # advancing by the roll of 1 wins at once
    result = PUCTSearch(uniform, iterations=200).run(state)
    assert int(result.actions[result.best]) == 0  # advance
    assert result.values[result.best] == 1.0


def test_a_forced_move_needs_no_search():
    state = TakeAwayGame().parse_state("1 0")
    result = PUCTSearch(uniform, iterations=100).run(state)
    assert result.iterations == 0 and list(result.actions) == [0]


def test_a_search_is_deterministic_and_noise_comes_from_the_generator_given():
    game = ToyDiceGame()
    state = game.parse_state("3 4 1 2 7")
    search = PUCTSearch(uniform, iterations=300, stop_early=False)
    assert search.run(state).visits.tolist() == search.run(state).visits.tolist()

    def noisy(seed):
        return search.run(state, RootNoise(0.3, 0.5, np.random.default_rng(seed))).visits.tolist()

    assert noisy(1) == noisy(1)


def test_a_search_refuses_a_chance_node_or_a_finished_game():
    game = BetGame()
    with pytest.raises(ValueError, match="decision node"):
        PUCTSearch(uniform, iterations=10).run(game.parse_state("betting"))
    with pytest.raises(ValueError, match="decision node"):
        PUCTSearch(uniform, iterations=10).run(game.parse_state("won"))
