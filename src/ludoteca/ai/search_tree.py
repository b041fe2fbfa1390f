"""The MCTS tree as arrays, with its selection, expansion and backup compiled by numba.

The tree knows nothing of a game: a node is a player (or `CHANCE_NODE`, or `GAME_OVER`), visit
counts and a slice of edges, and an edge is an action (or a chance outcome) with its statistics
and its child node, if made. The search (`ludoteca.ai.mcts`) asks the game for what the tree
cannot know (the actions of a new node, the value of a new leaf) and hands it to the tree, so the
walk from the root and the backup, done once per iteration at every level of the tree, run as
compiled code. The arrays grow by doubling; node 0 is the root.

One iteration::

    status, node, edge = tree.descend(exploration)
    # NEEDS_ACTIONS: call tree.add_actions(node, ...) (or add_outcomes) and descend again
    # NEEDS_LEAF: make the child of `node` after edge's action, then tree.attach(edge, ...)
    # FINISHED: the walk reached a finished position and backed up its returns itself

Selection at a decision node takes the edge maximising UCB1 (``sums/visits + C *
sqrt(ln(total)/visits)``, ties to the lowest edge), after every untried edge has been tried once
in a random order (drawn one at a time, as needed); a chance node samples an outcome with its
probability. Random draws come from numba's generator, which a search seeds once.
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

# Node columns.
PLAYER, TOTAL, FIRST, COUNT, UNTRIED, UNIFORM = range(6)
NODE_COLUMNS = 6
NOT_LISTED = -1  # COUNT of a node whose actions are not listed yet
# Edge columns: the integer and the float arrays.
ACTION, CHILD = range(2)
VISITS, SUMS, CUMULATIVE = range(3)
NO_CHILD = -1
# What `descend` asks for.
FINISHED, NEEDS_ACTIONS, NEEDS_LEAF = range(3)
# Sizes: nodes and edges in use, and the depth of the current path.
NODES, EDGES, DEPTH = range(3)


@njit(cache=True)
def _new_node(nodes: IntArray, sizes: IntArray, player: int) -> int:
    node = sizes[NODES]
    sizes[NODES] = node + 1
    nodes[node, PLAYER] = player
    nodes[node, TOTAL] = 0
    nodes[node, FIRST] = 0
    nodes[node, COUNT] = NOT_LISTED
    nodes[node, UNTRIED] = 0
    nodes[node, UNIFORM] = 1
    return int(node)


@njit(cache=True)
def _push(path: IntArray, sizes: IntArray, node: int, edge: int) -> None:
    depth = sizes[DEPTH]
    path[depth, 0] = node
    path[depth, 1] = edge
    sizes[DEPTH] = depth + 1


@njit(cache=True)
def _backup(
    nodes: IntArray, edges_f: FloatArray, path: IntArray, sizes: IntArray, values: FloatArray
) -> None:
    """Add one visit and ``values`` (one return per player) along the path; empty the path."""
    for i in range(sizes[DEPTH]):
        node = path[i, 0]
        edge = path[i, 1]
        nodes[node, TOTAL] += 1
        if edge >= 0:
            edges_f[edge, VISITS] += 1.0
            edges_f[edge, SUMS] += values[nodes[node, PLAYER]]
    sizes[DEPTH] = 0


@njit(cache=True)
def _select_ucb(nodes: IntArray, edges_f: FloatArray, node: int, exploration: float) -> int:
    log_total = math.log(nodes[node, TOTAL])
    first = nodes[node, FIRST]
    best, best_score = first, -math.inf
    for edge in range(first, first + nodes[node, COUNT]):
        n = edges_f[edge, VISITS]
        score = edges_f[edge, SUMS] / n + exploration * math.sqrt(log_total / n)
        if score > best_score:
            best, best_score = edge, score
    return int(best)


@njit(cache=True)
def _sample_outcome(nodes: IntArray, edges_f: FloatArray, node: int) -> int:
    first = nodes[node, FIRST]
    count = nodes[node, COUNT]
    if nodes[node, UNIFORM]:
        return int(first + np.random.randint(count))
    draw = np.random.random() * edges_f[first + count - 1, CUMULATIVE]
    for edge in range(first, first + count - 1):
        if draw < edges_f[edge, CUMULATIVE]:
            return int(edge)
    return int(first + count - 1)


@njit(cache=True)
def descend(
    nodes: IntArray,
    edges_i: IntArray,
    edges_f: FloatArray,
    returns: FloatArray,
    path: IntArray,
    sizes: IntArray,
    exploration: float,
) -> tuple[int, int, int]:
    """Walk from the root (or on from where the last walk stopped) until the game is needed.

    Returns ``(status, node, edge)``: `NEEDS_ACTIONS` for ``node``; `NEEDS_LEAF`, the child of
    ``node`` after ``edge``'s action; `FINISHED` (the walk reached a finished position and
    backed up its returns: the iteration is done).
    """
    node = path[sizes[DEPTH] - 1, 0] if sizes[DEPTH] > 0 else 0
    if sizes[DEPTH] > 0:
        sizes[DEPTH] -= 1  # the node is pushed again below
    while True:
        player = nodes[node, PLAYER]
        if player == GAME_OVER:
            _push(path, sizes, node, -1)
            _backup(nodes, edges_f, path, sizes, returns[node])
            return FINISHED, node, -1
        if nodes[node, COUNT] == NOT_LISTED:
            _push(path, sizes, node, -1)  # resumed from here once the actions are listed
            return NEEDS_ACTIONS, node, -1
        if player == CHANCE_NODE:
            edge = _sample_outcome(nodes, edges_f, node)
            _push(path, sizes, node, -1)
            child = edges_i[edge, CHILD]
            if child == NO_CHILD:
                return NEEDS_LEAF, node, edge
            node = child
            continue
        untried = nodes[node, UNTRIED]
        if untried > 0:
            # Draw an untried edge and swap it just after the tried ones, so the edges keep
            # the order in which they were tried (ties of the selection go to the earliest).
            first = nodes[node, FIRST]
            tried = first + nodes[node, COUNT] - untried
            pick = tried + np.random.randint(untried)
            action = edges_i[pick, ACTION]
            edges_i[pick, ACTION] = edges_i[tried, ACTION]
            edges_i[tried, ACTION] = action
            nodes[node, UNTRIED] = untried - 1
            _push(path, sizes, node, tried)
            return NEEDS_LEAF, node, tried
        edge = _select_ucb(nodes, edges_f, node, exploration)
        _push(path, sizes, node, edge)
        node = edges_i[edge, CHILD]


@njit(cache=True)
def add_edges(
    nodes: IntArray,
    edges_i: IntArray,
    edges_f: FloatArray,
    sizes: IntArray,
    node: int,
    actions: IntArray,
    cumulative: FloatArray,
    uniform: bool,
) -> None:
    """List ``node``'s actions (a decision) or outcomes (a chance node, with ``cumulative``)."""
    first = sizes[EDGES]
    count = actions.shape[0]
    sizes[EDGES] = first + count
    for i in range(count):
        edges_i[first + i, ACTION] = actions[i]
        edges_i[first + i, CHILD] = NO_CHILD
        edges_f[first + i, VISITS] = 0.0
        edges_f[first + i, SUMS] = 0.0
        edges_f[first + i, CUMULATIVE] = cumulative[i] if cumulative.shape[0] > 0 else 0.0
    nodes[node, FIRST] = first
    nodes[node, COUNT] = count
    is_chance = nodes[node, PLAYER] == CHANCE_NODE
    nodes[node, UNTRIED] = 0 if is_chance else count
    nodes[node, UNIFORM] = 1 if uniform else 0


@njit(cache=True)
def attach(
    nodes: IntArray,
    edges_i: IntArray,
    edges_f: FloatArray,
    returns: FloatArray,
    path: IntArray,
    sizes: IntArray,
    edge: int,
    player: int,
    values: FloatArray,
) -> int:
    """Make the child at ``edge`` and back up ``values``; returns the child's node.

    ``player`` is the child's player to move (`GAME_OVER` once over); ``values`` are each
    player's return, estimated or final.
    """
    child = _new_node(nodes, sizes, player)
    edges_i[edge, CHILD] = child
    if player == GAME_OVER:
        returns[child, :] = values
    _push(path, sizes, child, -1)
    _backup(nodes, edges_f, path, sizes, values)
    return child


class SearchTree:
    """The arrays of one search's tree, grown as needed (see the module docs)."""

    def __init__(self, root_player: int, num_players: int, capacity: int = 1024) -> None:
        self.nodes: IntArray = np.zeros((capacity, NODE_COLUMNS), dtype=np.int64)
        self.edges_i: IntArray = np.zeros((4 * capacity, 2), dtype=np.int64)
        self.edges_f: FloatArray = np.zeros((4 * capacity, 3), dtype=np.float64)
        self.returns: FloatArray = np.zeros((capacity, num_players), dtype=np.float64)
        self.path: IntArray = np.zeros((capacity + 1, 2), dtype=np.int64)
        self.sizes: IntArray = np.zeros(3, dtype=np.int64)
        _new_node(self.nodes, self.sizes, root_player)
        self._nodes_used, self._edges_used = 1, 0  # sizes[NODES] and [EDGES], as Python ints

    def descend(self, exploration: float) -> tuple[int, int, int]:
        """The next thing the walk needs (see `descend`)."""
        status, node, edge = descend(
            self.nodes, self.edges_i, self.edges_f, self.returns, self.path, self.sizes,
            exploration,
        )  # fmt: skip
        return status, node, edge

    def add_edges(
        self, node: int, actions: IntArray, cumulative: FloatArray, *, uniform: bool = True
    ) -> None:
        """List a node's actions, or its chance outcomes with their cumulative probabilities."""
        count = len(actions)
        if self._edges_used + count > len(self.edges_i):
            self._grow_edges(self._edges_used + count)
        self._edges_used += count
        add_edges(
            self.nodes, self.edges_i, self.edges_f, self.sizes, node, actions, cumulative, uniform
        )

    def attach(self, edge: int, player: int, values: FloatArray) -> int:
        """Make the child at ``edge`` and back up ``values``; returns the child's node."""
        if self._nodes_used == len(self.nodes):
            self._grow_nodes(2 * self._nodes_used)
        self._nodes_used += 1
        child: int = attach(
            self.nodes, self.edges_i, self.edges_f, self.returns, self.path, self.sizes, edge,
            player, values,
        )  # fmt: skip
        return child

    def root_edges(self) -> tuple[IntArray, FloatArray, FloatArray]:
        """The root's actions, visits and summed returns of its player (views)."""
        first, count = self.nodes[0, FIRST], self.nodes[0, COUNT]
        edges = slice(first, first + max(count, 0))
        return self.edges_i[edges, ACTION], self.edges_f[edges, VISITS], self.edges_f[edges, SUMS]

    def root_untried(self) -> int:
        """How many of the root's actions have not been tried yet."""
        return int(self.nodes[0, UNTRIED])

    def _grow_nodes(self, rows: int) -> None:
        self.nodes = _grown(self.nodes, rows)
        self.returns = _grown(self.returns, rows)
        self.path = _grown(self.path, rows + 1)  # a path holds each node once, and a new leaf

    def _grow_edges(self, needed: int) -> None:
        self.edges_i = _grown(self.edges_i, 2 * needed)
        self.edges_f = _grown(self.edges_f, 2 * needed)


def _grown(array: Grown, rows: int) -> Grown:
    bigger = np.zeros((rows, *array.shape[1:]), dtype=array.dtype)
    bigger[: len(array)] = array
    return bigger
