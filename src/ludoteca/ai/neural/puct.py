"""PUCT search with explicit chance nodes, guided by a policy/value evaluator.

The search grows a tree (`ludoteca.ai.neural.puct_tree`, whose docstring states the selection
formula and the backup rule) one node per iteration. A new decision node is valued by the
evaluator, which also gives the priors of its moves; a new chance node gets every outcome made
at once, and its value is the expectation of theirs, weighted by the outcomes' probabilities; a
finished game is worth its returns. The move played is the root's most visited (ties: the higher
value, then the lower action). Nothing is drawn at random except the exploration noise that
self-play adds at the root, from the generator it is given.

The evaluator is any function ``(state, actions) -> (priors, value)``: the priors of the legal
``actions`` (summing to 1) and the value of the position to its player to move, in [-1, 1].
`ludoteca.ai.neural.agent` uses the network; tests use exact or uniform evaluators.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ludoteca.ai.neural.puct_tree import FINISHED, NO_CHILD, PUCTTree
from ludoteca.core.array_state import ArrayState
from ludoteca.core.game import State
from ludoteca.core.outcome import CHANCE
from ludoteca.core.playouts import CHANCE_NODE, GAME_OVER

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
#: ``evaluate(state, actions) -> (priors, value)``; see the module docs.
LeafEvaluator = Callable[[State, IntArray], tuple[FloatArray, float]]

# How often the search looks at the clock and at whether its choice is settled.
_CHECK_EVERY = 16


@dataclass(frozen=True, slots=True)
class RootNoise:
    """Dirichlet noise mixed into the root's priors, for self-play's exploration.

    Attributes:
        alpha: The Dirichlet concentration.
        fraction: The share of the noise in the mixed priors.
        generator: The generator the noise is drawn from.
    """

    alpha: float
    fraction: float
    generator: np.random.Generator


@dataclass(frozen=True, slots=True)
class PUCTResult:
    """What a search found at the root (a decision node).

    Attributes:
        actions: The root's legal actions.
        visits: Each action's visit count.
        values: Each action's value to the mover (the root's own value where never visited).
        value: The root's value to the mover.
        iterations: Iterations run.
    """

    actions: IntArray
    visits: IntArray
    values: FloatArray
    value: float
    iterations: int

    @property
    def best(self) -> int:
        """Index into `actions` of the most visited action (ties: higher value, lower action)."""
        order = np.lexsort((-self.actions, self.values, self.visits))
        return int(order[-1])


class PUCTSearch:
    """One PUCT search per call of `run` (see the module docs).

    Args:
        evaluate: The leaf evaluator.
        iterations: Iterations per search; ``None`` for no limit (then ``seconds`` is needed).
        seconds: Wall-time limit per search; ``None`` for none.
        exploration: The constant ``C`` of the selection formula.
        stop_early: Whether to stop once the most visited move can no longer be overtaken.
    """

    def __init__(
        self,
        evaluate: LeafEvaluator,
        *,
        iterations: int | None,
        seconds: float | None = None,
        exploration: float = 1.5,
        stop_early: bool = True,
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("a search needs a budget: iterations, seconds or both")
        self.evaluate = evaluate
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.stop_early = stop_early

    def run(self, root: State, noise: RootNoise | None = None) -> PUCTResult:
        """Search from the decision node ``root``."""
        if root.is_over or root.to_move == CHANCE:
            raise ValueError("a search starts at a decision node")
        tree = _Tree(self.evaluate)
        tree.make(root)
        actions = tree.tree.edges(0)[0]
        if noise is not None and len(actions) > 1:
            priors = tree.tree.edges(0)[1]
            drawn = noise.generator.dirichlet(np.full(len(actions), noise.alpha))
            tree.tree.set_weights(0, (1 - noise.fraction) * priors + noise.fraction * drawn)
        budget = 0 if len(actions) == 1 else self.iterations
        budget_left = math.inf if budget is None else budget
        started = time.perf_counter()
        deadline = math.inf if self.seconds is None else started + self.seconds
        done = 0
        while done < budget_left:
            tree.iterate(self.exploration)
            done += 1
            if done % _CHECK_EVERY == 0:
                now = time.perf_counter()
                if now >= deadline:
                    break
                rate = done / max(now - started, 1e-9)
                left = min(budget_left - done, rate * (deadline - now))
                if self.stop_early and _settled(tree.root_visits(), left):
                    break
        return tree.result(root.to_move, done)


class _Tree:
    """A tree and the positions of its nodes; makes new nodes with the evaluator."""

    def __init__(self, evaluate: LeafEvaluator) -> None:
        self.evaluate = evaluate
        self.tree = PUCTTree()
        self.states: list[State] = []

    def make(self, state: State) -> int:
        """Make the node of ``state`` (and, at a chance node, of every outcome)."""
        tree = self.tree
        player = state.to_move
        if player is None:
            outcome = state.outcome
            assert outcome is not None
            return self._add(state, GAME_OVER, outcome.returns[0], _NO_ACTIONS, _NO_WEIGHTS)
        if player == CHANCE:
            outcomes, probabilities = _chance_outcomes(state)
            children = np.array([self.make(_successor(state, int(o))) for o in outcomes])
            value = float(
                sum(p * tree.value(int(c)) for p, c in zip(probabilities, children, strict=True))
            )
            return self._add(state, CHANCE_NODE, value, outcomes, probabilities, children)
        actions = _legal_actions(state)
        priors, value = self.evaluate(state, actions)
        return self._add(state, player, value if player == 0 else -value, actions, priors)

    def _add(
        self,
        state: State,
        player: int,
        value: float,
        actions: IntArray,
        weights: FloatArray,
        children: IntArray | None = None,
    ) -> int:
        node = self.tree.add_node(player, value, actions, weights, children)
        self.states.append(state)
        assert len(self.states) == node + 1
        return node

    def iterate(self, exploration: float) -> None:
        status, node, edge = self.tree.descend(exploration)
        if status == FINISHED:
            return
        child = self.make(_successor(self.states[node], self.tree.action(edge)))
        self.tree.attach(edge, child)

    def root_visits(self) -> IntArray:
        children = self.tree.edges(0)[2]
        return np.array([0 if c == NO_CHILD else self.tree.visits(int(c)) for c in children])

    def result(self, mover: int | None, iterations: int) -> PUCTResult:
        tree = self.tree
        sign = 1.0 if mover == 0 else -1.0
        actions, _, children = tree.edges(0)
        root_value = sign * tree.value(0)
        values = np.array(
            [root_value if c == NO_CHILD else sign * tree.value(int(c)) for c in children]
        )
        return PUCTResult(
            actions=actions,
            visits=self.root_visits(),
            values=values,
            value=root_value,
            iterations=iterations,
        )


def _settled(visits: IntArray, iterations_left: float) -> bool:
    """Whether the most visited move stays most visited whatever the remaining iterations do."""
    if len(visits) < 2:
        return True
    first, second = np.partition(visits, -2)[-2:][::-1]
    return bool(first - second > iterations_left)


def _successor(state: State, action: int) -> State:
    if isinstance(state, ArrayState):  # the action comes from the state's own list
        return state.successor(action)
    return state.apply_action(action)


def _legal_actions(state: State) -> IntArray:
    if isinstance(state, ArrayState):
        return state.legal_action_array()
    return np.array(state.legal_actions(), dtype=np.int64)


def _chance_outcomes(state: State) -> tuple[IntArray, FloatArray]:
    if isinstance(state, ArrayState):
        return state.legal_action_array(), state.chance_probability_array()
    pairs = state.chance_outcome_actions()
    return (
        np.array([o for o, _ in pairs], dtype=np.int64),
        np.array([p for _, p in pairs], dtype=np.float64),
    )


_NO_ACTIONS: IntArray = np.zeros(0, dtype=np.int64)
_NO_WEIGHTS: FloatArray = np.zeros(0, dtype=np.float64)
