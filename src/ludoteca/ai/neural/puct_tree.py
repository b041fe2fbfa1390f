"""The PUCT tree as arrays, with its selection and backup compiled by numba.

The tree serves two-player zero-sum games: every value is player 0's expected return, in
[-1, 1] (player 1's is its negative). A node is a player to move (or `CHANCE_NODE`, or
`GAME_OVER`), a visit count ``N``, a value ``V`` and a slice of edges; an edge is an action (or
a chance outcome) with its weight (the network's prior, or the outcome's probability) and its
child node, once made. Node 0 is the root. The values obey::

    decision node:  V = (v + sum over children c of N(c) V(c)) / N,   N = 1 + sum of N(c)
    chance node:    V = sum over outcomes o of p(o) V(o)              (every outcome is made)
    finished game:  V = player 0's return

where ``v`` is the network's value of the node when it was made. For a tree of decision nodes
this is AlphaZero's mean of the values backed up through a node; at a chance node it is the
exact expectation over the outcomes, weighted by their probabilities, whatever the visits. The
backup keeps ``N V`` in a running sum per node and updates it along the path, so an iteration
costs a walk down and up, not a pass over every child.

Selection at a decision node of player ``p`` takes the edge maximising::

    Q_p(c) + C * prior(c) * sqrt(N(node)) / (1 + N(c))

where ``Q_p(c)`` is ``V(c)`` seen by ``p``, and a child not made yet counts as ``Q_p`` of the
node itself (its first-play value); ties go to the lowest edge. At a chance node the walk takes
the outcome whose visits lag furthest behind its probability (the largest
``p(o) (T + 1) - N(o)``, ``T`` the outcomes' visits), so visits follow the probabilities without
random draws. Nothing in the tree is random.

One iteration::

    status, node, edge = tree.descend(exploration)
    # NEEDS_LEAF: make the child of `node` after `edge` (tree.add_node), then
    #             tree.attach(edge, child)
    # FINISHED: the walk reached a finished game and backed up its value itself
"""

from __future__ import annotations

import math
from typing import TypeVar

import numpy as np
import numpy.typing as npt
from numba import njit

from ludoteca.core.playouts import CHANCE_NODE, GAME_OVER

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
Grown = TypeVar("Grown", IntArray, FloatArray)

# Node columns: integers and floats.
PLAYER, FIRST, COUNT, VISITS = range(4)
NODE_INTS = 4
SUM, VALUE = range(2)
NODE_FLOATS = 2
# Edge columns: integers; the float array holds one weight per edge.
ACTION, CHILD = range(2)
NO_CHILD = -1
# What `descend` reports.
FINISHED, NEEDS_LEAF = range(2)
# Sizes: nodes and edges in use, and the depth of the current path.
NODES, EDGES, DEPTH = range(3)


@njit(cache=True)
def _add_node(
    nodes_i: IntArray,
    nodes_f: FloatArray,
    edges_i: IntArray,
    weights: FloatArray,
    sizes: IntArray,
    player: int,
    value: float,
    actions: IntArray,
    edge_weights: FloatArray,
    children: IntArray,
) -> int:
    node = sizes[NODES]
    sizes[NODES] = node + 1
    first = sizes[EDGES]
    count = actions.shape[0]
    sizes[EDGES] = first + count
    nodes_i[node, PLAYER] = player
    nodes_i[node, FIRST] = first
    nodes_i[node, COUNT] = count
    nodes_i[node, VISITS] = 1
    nodes_f[node, SUM] = value
    nodes_f[node, VALUE] = value
    for i in range(count):
        edges_i[first + i, ACTION] = actions[i]
        edges_i[first + i, CHILD] = children[i]
        weights[first + i] = edge_weights[i]
    return int(node)


@njit(cache=True)
def _backup(
    nodes_i: IntArray,
    nodes_f: FloatArray,
    weights: FloatArray,
    path: IntArray,
    sizes: IntArray,
    old_visits: int,
    old_value: float,
    new_visits: int,
    new_value: float,
) -> None:
    """Carry one child's change, ``(N, V)`` from old to new, up the path; empty the path."""
    for i in range(sizes[DEPTH] - 1, -1, -1):
        node = path[i, 0]
        edge = path[i, 1]
        before_visits = nodes_i[node, VISITS]
        before_value = nodes_f[node, VALUE]
        visits = before_visits + 1
        if nodes_i[node, PLAYER] == CHANCE_NODE:
            total = nodes_f[node, SUM] + weights[edge] * (new_value - old_value)
            value = total
        else:
            total = nodes_f[node, SUM] + new_visits * new_value - old_visits * old_value
            value = total / visits
        nodes_i[node, VISITS] = visits
        nodes_f[node, SUM] = total
        nodes_f[node, VALUE] = value
        old_visits, old_value = before_visits, before_value
        new_visits, new_value = visits, value
    sizes[DEPTH] = 0


@njit(cache=True)
def _select(
    nodes_i: IntArray,
    nodes_f: FloatArray,
    edges_i: IntArray,
    weights: FloatArray,
    node: int,
    exploration: float,
) -> int:
    sign = 1.0 if nodes_i[node, PLAYER] == 0 else -1.0
    first_play = sign * nodes_f[node, VALUE]
    scale = exploration * math.sqrt(nodes_i[node, VISITS])
    first = nodes_i[node, FIRST]
    best, best_score = first, -math.inf
    for edge in range(first, first + nodes_i[node, COUNT]):
        child = edges_i[edge, CHILD]
        if child == NO_CHILD:
            score = first_play + scale * weights[edge]
        else:
            visits = nodes_i[child, VISITS]
            score = sign * nodes_f[child, VALUE] + scale * weights[edge] / (1 + visits)
        if score > best_score:
            best, best_score = edge, score
    return int(best)


@njit(cache=True)
def _lagging_outcome(nodes_i: IntArray, edges_i: IntArray, weights: FloatArray, node: int) -> int:
    first = nodes_i[node, FIRST]
    count = nodes_i[node, COUNT]
    total = 0
    for edge in range(first, first + count):
        total += nodes_i[edges_i[edge, CHILD], VISITS]
    best, best_lag = first, -math.inf
    for edge in range(first, first + count):
        lag = weights[edge] * (total + 1) - nodes_i[edges_i[edge, CHILD], VISITS]
        if lag > best_lag:
            best, best_lag = edge, lag
    return int(best)


@njit(cache=True)
def descend(
    nodes_i: IntArray,
    nodes_f: FloatArray,
    edges_i: IntArray,
    weights: FloatArray,
    path: IntArray,
    sizes: IntArray,
    exploration: float,
) -> tuple[int, int, int]:
    """Walk from the root until a child must be made (see the module docs for the rules).

    Returns ``(status, node, edge)``: `NEEDS_LEAF` with the node and the edge whose child is
    missing, or `FINISHED` after backing up a finished game reached again.
    """
    sizes[DEPTH] = 0
    node = 0
    while True:
        player = nodes_i[node, PLAYER]
        if player == GAME_OVER:
            visits = nodes_i[node, VISITS]
            value = nodes_f[node, VALUE]
            nodes_i[node, VISITS] = visits + 1
            nodes_f[node, SUM] += value
            _backup(nodes_i, nodes_f, weights, path, sizes, visits, value, visits + 1, value)
            return FINISHED, node, -1
        if player == CHANCE_NODE:
            edge = _lagging_outcome(nodes_i, edges_i, weights, node)
        else:
            edge = _select(nodes_i, nodes_f, edges_i, weights, node, exploration)
        depth = sizes[DEPTH]
        path[depth, 0] = node
        path[depth, 1] = edge
        sizes[DEPTH] = depth + 1
        child = edges_i[edge, CHILD]
        if child == NO_CHILD:
            return NEEDS_LEAF, node, edge
        node = child


@njit(cache=True)
def _attach(
    nodes_i: IntArray,
    nodes_f: FloatArray,
    edges_i: IntArray,
    weights: FloatArray,
    path: IntArray,
    sizes: IntArray,
    edge: int,
    child: int,
) -> None:
    edges_i[edge, CHILD] = child
    _backup(
        nodes_i, nodes_f, weights, path, sizes, 0, 0.0, nodes_i[child, VISITS],
        nodes_f[child, VALUE],
    )  # fmt: skip


class PUCTTree:
    """The arrays of one search's tree, grown as needed (see the module docs)."""

    def __init__(self, capacity: int = 1024) -> None:
        self.nodes_i: IntArray = np.zeros((capacity, NODE_INTS), dtype=np.int64)
        self.nodes_f: FloatArray = np.zeros((capacity, NODE_FLOATS), dtype=np.float64)
        self.edges_i: IntArray = np.zeros((8 * capacity, 2), dtype=np.int64)
        self.weights: FloatArray = np.zeros(8 * capacity, dtype=np.float64)
        self.path: IntArray = np.zeros((capacity + 1, 2), dtype=np.int64)
        self.sizes: IntArray = np.zeros(3, dtype=np.int64)
        self._nodes_used = 0
        self._edges_used = 0

    def add_node(
        self,
        player: int,
        value: float,
        actions: IntArray,
        edge_weights: FloatArray,
        children: IntArray | None = None,
    ) -> int:
        """Make a node (not yet linked to a parent) and return its index; the first is the root.

        Args:
            player: Its player to move, `CHANCE_NODE` or `GAME_OVER`.
            value: Its value to player 0: the network's, a chance node's expectation, or the
                final return.
            actions: Its actions or chance outcomes (none once the game is over).
            edge_weights: The priors of the actions, or the outcomes' probabilities.
            children: The nodes already made for the outcomes of a chance node.
        """
        count = len(actions)
        if self._nodes_used == len(self.nodes_i):
            self._grow_nodes(2 * self._nodes_used)
        if self._edges_used + count > len(self.edges_i):
            self._grow_edges(2 * (self._edges_used + count))
        self._nodes_used += 1
        self._edges_used += count
        if children is None:
            children = np.full(count, NO_CHILD, dtype=np.int64)
        node: int = _add_node(
            self.nodes_i, self.nodes_f, self.edges_i, self.weights, self.sizes, player, value,
            actions, edge_weights, children,
        )  # fmt: skip
        return node

    def descend(self, exploration: float) -> tuple[int, int, int]:
        """The next thing the walk needs (see `descend`)."""
        status, node, edge = descend(
            self.nodes_i, self.nodes_f, self.edges_i, self.weights, self.path, self.sizes,
            exploration,
        )  # fmt: skip
        return status, node, edge

    def attach(self, edge: int, child: int) -> None:
        """Link ``child`` (made by `add_node`) below ``edge`` and back its value up the path."""
        _attach(
            self.nodes_i, self.nodes_f, self.edges_i, self.weights, self.path, self.sizes,
            edge, child,
        )  # fmt: skip

    def action(self, edge: int) -> int:
        """The action (or chance outcome) of an edge."""
        return int(self.edges_i[edge, ACTION])

    def player(self, node: int) -> int:
        """A node's player to move, `CHANCE_NODE` or `GAME_OVER`."""
        return int(self.nodes_i[node, PLAYER])

    def value(self, node: int) -> float:
        """A node's value to player 0."""
        return float(self.nodes_f[node, VALUE])

    def visits(self, node: int) -> int:
        """A node's visit count."""
        return int(self.nodes_i[node, VISITS])

    def edges(self, node: int) -> tuple[IntArray, FloatArray, IntArray]:
        """A node's actions, weights and children (copies; `NO_CHILD` where none is made)."""
        first, count = self.nodes_i[node, FIRST], self.nodes_i[node, COUNT]
        span = slice(first, first + count)
        return (
            self.edges_i[span, ACTION].copy(),
            self.weights[span].copy(),
            self.edges_i[span, CHILD].copy(),
        )

    def set_weights(self, node: int, edge_weights: FloatArray) -> None:
        """Replace a node's edge weights (the root's priors mixed with exploration noise)."""
        first, count = self.nodes_i[node, FIRST], self.nodes_i[node, COUNT]
        self.weights[first : first + count] = edge_weights

    def _grow_nodes(self, rows: int) -> None:
        self.nodes_i = _grown(self.nodes_i, rows)
        self.nodes_f = _grown(self.nodes_f, rows)
        self.path = _grown(self.path, rows + 1)  # a path holds each node at most once

    def _grow_edges(self, rows: int) -> None:
        self.edges_i = _grown(self.edges_i, rows)
        self.weights = _grown(self.weights, rows)


def _grown(array: Grown, rows: int) -> Grown:
    bigger = np.zeros((rows, *array.shape[1:]), dtype=array.dtype)
    bigger[: len(array)] = array
    return bigger
