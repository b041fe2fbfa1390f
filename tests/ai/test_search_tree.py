"""The compiled MCTS tree: untried edges, UCB1 selection, chance sampling, backup and growth."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ludoteca.ai.search_tree import (
    ACTION,
    CHILD,
    FINISHED,
    NEEDS_ACTIONS,
    NEEDS_LEAF,
    NO_CHILD,
    SUMS,
    TOTAL,
    VISITS,
    SearchTree,
)
from ludoteca.core.playouts import CHANCE_NODE, GAME_OVER
from ludoteca.core.search import seed_generator

NONE = np.zeros(0)


def values(*returns: float) -> np.ndarray:
    return np.array(returns, dtype=np.float64)


def test_the_root_asks_for_its_actions_first_then_tries_each_once_in_a_seeded_order() -> None:
    tree = SearchTree(root_player=0, num_players=2)
    seed_generator(5)
    assert tree.descend(1.0) == (NEEDS_ACTIONS, 0, -1)
    tree.add_edges(0, np.array([10, 20, 30, 40]), NONE)
    tried = []
    for i in range(4):
        status, node, edge = tree.descend(1.0)
        assert (status, node) == (NEEDS_LEAF, 0)
        assert edge == i  # each new try is swapped just after the tried ones
        tried.append(int(tree.edges_i[edge, ACTION]))
        tree.attach(edge, 1, values(0.5, -0.5))
    assert sorted(tried) == [10, 20, 30, 40]
    actions, visits, sums = tree.root_edges()
    assert actions.tolist() == tried
    assert visits.tolist() == [1, 1, 1, 1]
    assert sums.tolist() == [0.5] * 4  # the root player's return
    assert tree.nodes[0, TOTAL] == 4
    assert tree.root_untried() == 0


def test_the_untried_order_depends_on_the_seed_only() -> None:
    def order(seed: int) -> list[int]:
        tree = SearchTree(0, 2)
        seed_generator(seed)
        tree.descend(1.0)
        tree.add_edges(0, np.arange(8), NONE)
        for _ in range(8):
            _, _, edge = tree.descend(1.0)
            tree.attach(edge, 1, values(0.0, 0.0))
        return tree.root_edges()[0].tolist()

    assert order(1) == order(1)
    assert {tuple(order(seed)) for seed in range(5)} != {tuple(order(1))}


def test_selection_takes_the_ucb1_maximum_from_the_movers_point_of_view() -> None:
    tree = SearchTree(0, 2)
    seed_generator(0)
    tree.descend(1.0)
    tree.add_edges(0, np.array([1, 2, 3]), NONE)
    for value in (0.2, 0.9, -0.4):  # the root player's return through each new child
        _, _, edge = tree.descend(1.0)
        tree.attach(edge, 1, values(value, -value))
    visits, sums = (column.copy() for column in tree.root_edges()[1:])
    exploration = 0.7
    scores = sums / visits + exploration * np.sqrt(math.log(3) / visits)
    best = int(np.argmax(scores))
    status, node, edge = tree.descend(exploration)
    child = int(tree.edges_i[best, CHILD])
    # The best child has no actions listed yet: the walk went through it and stops there.
    assert (status, node) == (NEEDS_ACTIONS, child)
    tree.add_edges(child, np.array([7]), NONE)
    status, node, edge = tree.descend(exploration)
    assert (status, node) == (NEEDS_LEAF, child)
    tree.attach(edge, 0, values(1.0, -1.0))
    # The path was root -> best -> new leaf: each got a visit, the root edge the root's return.
    assert tree.nodes[0, TOTAL] == 4
    assert tree.edges_f[best, VISITS] == 2
    assert tree.edges_f[best, SUMS] == pytest.approx(sums[best] + 1.0)
    assert tree.nodes[child, TOTAL] == 2
    assert tree.edges_f[edge, SUMS] == -1.0  # the child's mover (player 1) lost


def test_chance_nodes_sample_outcomes_with_their_probabilities() -> None:
    tree = SearchTree(CHANCE_NODE, 2)
    seed_generator(3)
    tree.descend(1.0)
    tree.add_edges(0, np.array([0, 1]), np.array([0.25, 1.0]), uniform=False)
    children: dict[int, int] = {}  # edge -> child node
    edge_of = {}  # child node -> edge
    counts = {0: 0, 1: 0}
    for _ in range(4000):
        status, node, edge = tree.descend(1.0)
        if status == NEEDS_LEAF:
            children[edge] = tree.attach(edge, GAME_OVER, values(1.0, -1.0))
            edge_of[children[edge]] = edge
            counts[int(tree.edges_i[edge, ACTION])] += 1
        else:  # both outcomes made: the walk ends at a finished child and backs it up itself
            assert status == FINISHED and node in edge_of
            counts[int(tree.edges_i[edge_of[node], ACTION])] += 1
    assert 0.22 < counts[0] / 4000 < 0.28
    assert tree.nodes[0, TOTAL] == 4000
    assert sum(int(tree.nodes[c, TOTAL]) for c in children.values()) == 4000


def test_a_finished_position_is_backed_up_with_its_stored_returns() -> None:
    tree = SearchTree(0, 2)
    seed_generator(0)
    tree.descend(1.0)
    tree.add_edges(0, np.array([5]), NONE)
    _, _, edge = tree.descend(1.0)
    tree.attach(edge, GAME_OVER, values(1.0, -1.0))
    for _ in range(3):
        assert tree.descend(1.0)[0] == FINISHED
    assert tree.root_edges()[1].tolist() == [4]
    assert tree.root_edges()[2].tolist() == [4.0]


def test_a_tree_that_outgrows_its_arrays_keeps_every_statistic() -> None:
    def grow(capacity: int) -> SearchTree:
        tree = SearchTree(0, 2, capacity=capacity)
        seed_generator(11)
        player = 0
        for _ in range(300):
            status, node, edge = tree.descend(1.4)
            while status == NEEDS_ACTIONS:
                tree.add_edges(node, np.arange(3), NONE)
                status, node, edge = tree.descend(1.4)
            if status == NEEDS_LEAF:
                player = 1 - player
                value = float(np.random.default_rng(edge).uniform(-1, 1))
                tree.attach(edge, player, values(value, -value))
        return tree

    small, large = grow(2), grow(4096)
    used_nodes, used_edges = int(small.sizes[0]), int(small.sizes[1])
    assert used_nodes == 301
    assert len(small.nodes) > 2
    assert np.array_equal(small.nodes[:used_nodes], large.nodes[:used_nodes])
    assert np.array_equal(small.edges_i[:used_edges], large.edges_i[:used_edges])
    assert np.array_equal(small.edges_f[:used_edges], large.edges_f[:used_edges])
    assert NO_CHILD in small.edges_i[:used_edges, CHILD]  # some edges were never tried


@pytest.mark.parametrize(
    ("exploration", "chosen"),
    [
        # By hand, with ln 29 = 3.3673 and score = mean + C sqrt(ln 29 / visits):
        (1.0, 1),  # 0.7 + 0.4103 = 1.1103;  0.4 + 1.0594 = 1.4594 (best);  0.6 + 0.7491 = 1.3491
        (0.5, 2),  # 0.7 + 0.2052 = 0.9052;  0.4 + 0.5297 = 0.9297;  0.6 + 0.3746 = 0.9746 (best)
        (0.3, 2),  # 0.7 + 0.1231 = 0.8231;  0.4 + 0.3178 = 0.7178;  0.6 + 0.2247 = 0.8247 (best)
        (0.1, 0),  # 0.7 + 0.0410 = 0.7410 (best);  0.4 + 0.1059 = 0.5059;  0.6 + 0.0749 = 0.6749
    ],
)
def test_selection_at_unequal_visits_is_the_hand_computed_ucb1_choice(
    exploration: float, chosen: int
) -> None:
    """Visits 20, 3 and 6 (29 in all) with means 0.7, 0.4 and 0.6: each exploration constant
    picks a different edge, neither always the best mean nor always the least visited."""
    tree = SearchTree(0, 2)
    seed_generator(0)
    tree.descend(1.0)
    tree.add_edges(0, np.array([1, 2, 3]), NONE)
    for _ in range(3):
        _, _, edge = tree.descend(1.0)
        tree.attach(edge, 1, values(0.0, 0.0))
    _, visits, sums = tree.root_edges()  # views of the tree's own statistics
    visits[:] = [20, 3, 6]
    sums[:] = [14.0, 1.2, 3.6]
    tree.nodes[0, TOTAL] = 29
    status, node, _ = tree.descend(exploration)
    assert (status, node) == (NEEDS_ACTIONS, int(tree.edges_i[chosen, CHILD]))
