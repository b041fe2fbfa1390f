"""PUCT's selection at unequal visit counts, against scores worked out by hand.

score = Q + C × prior × sqrt(N) / (1 + n), with Q the child's value seen by the mover
(`ludoteca.ai.neural.puct_tree`).
"""

from __future__ import annotations

import numpy as np
import pytest

from ludoteca.ai.neural.puct_tree import CHILD, FIRST, NEEDS_LEAF, VISITS, PUCTTree

PRIORS = np.array([0.5, 0.3, 0.2])
CHILD_VISITS = (9, 2, 4)  # the root's N is 16: sqrt(N) = 4
CHILD_VALUES = (0.5, 0.1, 0.3)  # to player 0


def _tree(root_player: int) -> tuple[PUCTTree, list[int]]:
    """A root with three children of unequal statistics, linked in the tree's own arrays."""
    tree = PUCTTree()
    tree.add_node(root_player, 0.0, np.array([0, 1, 2]), PRIORS)
    first = int(tree.nodes_i[0, FIRST])
    children = []
    for index in range(3):
        child = tree.add_node(1 - root_player, CHILD_VALUES[index], np.array([0]), np.ones(1))
        tree.edges_i[first + index, CHILD] = child
        tree.nodes_i[child, VISITS] = CHILD_VISITS[index]
        children.append(child)
    tree.nodes_i[0, VISITS] = 16
    assert [tree.value(c) for c in children] == list(CHILD_VALUES)
    return tree, children


@pytest.mark.parametrize(
    ("root_player", "exploration", "chosen"),
    [
        # Player 0, Q = value:  C = 1.5:  0.5 + 1.5·0.5·4/10 = 0.80 (best);
        #   0.1 + 1.5·0.3·4/3 = 0.70;  0.3 + 1.5·0.2·4/5 = 0.54
        (0, 1.5, 0),
        # C = 3:  0.5 + 0.60 = 1.10;  0.1 + 1.20 = 1.30 (best);  0.3 + 0.48 = 0.78
        (0, 3.0, 1),
        # Player 1, Q = -value:  C = 1.5:  -0.5 + 0.30 = -0.20;  -0.1 + 0.60 = 0.50 (best);
        #   -0.3 + 0.24 = -0.06
        (1, 1.5, 1),
        # C = 0.5:  -0.5 + 0.10 = -0.40;  -0.1 + 0.20 = 0.10 (best);  -0.3 + 0.08 = -0.22
        (1, 0.5, 1),
        # C = 0.1:  -0.5 + 0.02 = -0.48;  -0.1 + 0.04 = -0.06 (best);  -0.3 + 0.016 = -0.284
        (1, 0.1, 1),
    ],
)
def test_puct_takes_the_hand_computed_edge(
    root_player: int, exploration: float, chosen: int
) -> None:
    tree, children = _tree(root_player)
    status, node, _ = tree.descend(exploration)
    assert (status, node) == (NEEDS_LEAF, children[chosen])
