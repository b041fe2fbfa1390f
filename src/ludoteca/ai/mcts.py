"""Monte-Carlo tree search (UCT) with explicit chance nodes, for any number of players.

One iteration walks from the root to a leaf, evaluates the leaf, and backs the value up:

* **Selection** at a decision node of player ``p`` takes the child ``c`` maximising::

      Q_p(c) + C * sqrt(ln N(parent) / N(c))

  where ``Q_p(c)`` is the mean return of player ``p`` over the iterations through ``c`` (returns
  lie in [-1, 1]), ``N`` counts visits and ``C`` is `exploration` (default 1.0). Children not yet
  visited are expanded first, in a seeded random order (drawn one at a time, as needed).
* **Chance nodes** are not selected but sampled: the outcome is drawn with its probability
  (dice, a bag draw, a random first player), so every chance node's value converges to the
  expectation over its outcomes.
* **Expansion** adds one new node per iteration (a decision child, or a chance outcome not met
  before), and that node is the leaf.
* **Evaluation** of a non-terminal leaf plays a random rollout in the game's compiled kernels (one
  call): to the end of the game, or for ``rollout_plies`` plies followed by the game's
  heuristic evaluation (``games/<game>/heuristics.py``) when the game has one (with
  ``heuristic=False``, a rollout cut short is scored as a draw). A terminal leaf is worth its
  returns.
* **Backup** adds the leaf's vector of returns (one entry per player) to every node on the path,
  so each decision node is judged by the player who chose it, whatever the number of players.

The move played is the root child with the most visits (ties: the higher mean), except that a
move winning at once is played without search (UCT values a certain win later just as much). The
search stops early when that child can no longer be overtaken within the budget left (unless
``stop_early=False``), and at once when only one move is legal. With an iteration budget and a
seed the search is reproducible; a time budget also stops at the deadline.

The tree is kept lean: a node lists its legal actions only when it is first searched through
(one kernel call, an array), child statistics live in the parent's arrays, the selection formula
runs as a compiled kernel over those arrays, and children of games with compiled kernels are
made straight from the kernels, without checking again that a legal action is legal.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import cast

import numpy as np
import numpy.typing as npt

from ludoteca.ai.agents import Agent, AgentError, require_decision_node
from ludoteca.ai.evaluation import Evaluator, evaluator_for
from ludoteca.core.array_state import ArrayState, Cells, KernelGame
from ludoteca.core.game import Game, Move, State
from ludoteca.core.info import SearchLeaf
from ludoteca.core.outcome import CHANCE
from ludoteca.core.playouts import GAME_OVER
from ludoteca.core.search import GOING_ON, seed_generator, select_ucb

Returns = Sequence[float]
FloatArray = npt.NDArray[np.float64]


class _Node:
    """A position in the search tree, with the statistics of its children.

    A decision node lists its actions when first searched through (`expand`); ``visits[i]`` and
    ``sums[i]`` count the iterations through its ``i``-th action and the mover's summed returns.
    The last ``untried`` actions have no child yet; one is drawn at random when needed.

    A node made by the game's compiled search leaf (`ludoteca.core.info.SearchLeaf`) holds its
    position as the kernels' array (``cells``) and its player; its `State` is built only if
    something needs it (a chance node's probabilities), and a finished one keeps its
    ``returns``.
    """

    __slots__ = (
        "actions",
        "cells",
        "children",
        "cumulative",
        "outcomes",
        "player",
        "returns",
        "state",
        "sums",
        "total",
        "uniform",
        "untried",
        "visits",
    )

    def __init__(self, state: State | None, player: int | None = None) -> None:
        self.state = state
        self.player = player if state is None else state.to_move
        self.cells: Cells = _NO_CELLS if state is None else _cells_of(state)
        self.returns: Sequence[float] = ()
        self.total = 0  # iterations through this node
        self.actions: list[int] = []
        self.children: list[_Node | None] | dict[int, _Node] = []
        self.untried = -1  # -1: not expanded yet
        self.visits: FloatArray = _EMPTY
        self.sums: FloatArray = _EMPTY
        self.outcomes: list[int] = []
        self.cumulative: list[float] = []
        self.uniform = True

    def expand(self, state: State) -> None:
        """List the actions (or the chance outcomes with their probabilities) of ``state``."""
        if self.player == CHANCE:
            if isinstance(state, ArrayState):
                self.outcomes = state.legal_action_array().tolist()
                probabilities = state._chance_probabilities()
            else:
                pairs = state.chance_outcomes()
                self.outcomes = [move.index for move, _ in pairs]
                probabilities = tuple(p for _, p in pairs)
            self.uniform = all(p == probabilities[0] for p in probabilities)
            self.cumulative = list(accumulate(probabilities))
            self.children = {}
            self.untried = 0
            return
        if isinstance(state, ArrayState):
            self.list_actions(state.legal_action_array())
        else:
            self.list_actions(state.legal_actions())

    def list_actions(self, actions: Sequence[int] | npt.NDArray[np.int64]) -> None:
        """Make this decision node's children slots, one per legal action."""
        self.actions = actions.tolist() if isinstance(actions, np.ndarray) else list(actions)
        count = len(self.actions)
        self.untried = count
        self.children = [None] * count
        self.visits = np.zeros(count)
        self.sums = np.zeros(count)


_EMPTY: FloatArray = np.zeros(0)
_NO_CELLS: Cells = np.zeros(0, dtype=np.int32)


def _cells_of(state: State) -> Cells:
    return state.cells if isinstance(state, ArrayState) else _NO_CELLS


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found at the root.

    Attributes:
        move: The move chosen (most visited).
        value: The mover's mean return through that move, in [-1, 1].
        iterations: Iterations run.
        visits: Visits per root move text.
    """

    move: Move
    value: float
    iterations: int
    visits: dict[str, int]

    @property
    def win_chance(self) -> float:
        """``value`` read as a chance of winning, ``(value + 1) / 2``."""
        return (self.value + 1.0) / 2.0


class MCTSAgent(Agent):
    """UCT search with chance nodes (see the module docs for the formula and the backup rule).

    Args:
        game: The game it plays (its heuristics module is used when ``rollout_plies`` is set).
        iterations: Iterations per move; ``None`` for no limit (then ``seconds`` must be set).
        seconds: Wall-time budget per move; ``None`` for no limit.
        exploration: The constant ``C`` of the selection formula.
        rollout_plies: Plies of random rollout before the heuristic evaluation; ``None`` plays
            rollouts to the end of the game.
        seed: Seeds the search's generator (tie orders, chance samples, rollouts).
        name: The agent's name in tables.
        heuristic: Whether a rollout cut short after ``rollout_plies`` is scored by the game's
            heuristic (``False``: as a draw, e.g. plain UCT with capped random rollouts).
        stop_early: Whether the search stops once its best move can no longer change.
    """

    def __init__(
        self,
        game: Game,
        *,
        iterations: int | None = 1000,
        seconds: float | None = None,
        exploration: float = 1.0,
        rollout_plies: int | None = None,
        seed: int | None = None,
        name: str | None = None,
        heuristic: bool = True,
        stop_early: bool = True,
    ) -> None:
        if iterations is None and seconds is None:
            raise AgentError("MCTS needs a budget: iterations, seconds or both")
        if iterations is not None and iterations < 1:
            raise AgentError(f"iterations must be at least 1; got {iterations}")
        if seconds is not None and not 0 < seconds < 3600:
            raise AgentError(f"seconds must be above 0 and below 3600; got {seconds}")
        if rollout_plies is not None and rollout_plies < 0:
            raise AgentError(f"rollout_plies must be 0 or more; got {rollout_plies}")
        self.game = game
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_plies = rollout_plies
        self.stop_early = stop_early
        self._evaluate: Evaluator | None = None
        self._draw: Returns = (0.0,) * game.num_players
        if rollout_plies is not None and heuristic:
            self._evaluate = evaluator_for(game)
        self._cut_rollouts = rollout_plies is not None and (
            not heuristic or self._evaluate is not None
        )
        self._rng = random.Random(seed)
        self._kernel_states = False
        # The game's compiled leaf (apply, rollout and evaluation in one call), used on kernel
        # states: the same plies, draws and values as the three calls it replaces.
        self._leaf = game.info.search_leaf
        self._leaf_plies = rollout_plies if self._cut_rollouts else _FULL_GAME
        self._leaf_heuristic = self._evaluate is not None
        self._compiled_leaf = False
        self._root_state: State | None = None
        self.name = name or _describe(iterations, seconds)

    def _choose(self, state: State) -> Move:
        return self.search(state).move

    def search(self, state: State) -> SearchResult:
        """Run one search from the decision node ``state`` and report the best move.

        Raises:
            AgentError: ``state`` is over or a chance node.
        """
        require_decision_node(state, self.game)
        winning = _winning_move(state)
        if winning is not None:
            return SearchResult(move=winning, value=1.0, iterations=0, visits={})
        # Kernel states make children without a second legality check, and roll out from
        # numba's generator, seeded once per search (not per rollout).
        self._kernel_states = isinstance(state, ArrayState)
        self._compiled_leaf = self._kernel_states and self._leaf is not None
        self._root_state = state
        root = _Node(state)
        root.expand(state)
        seed_generator(self._rng.getrandbits(31))
        started = time.perf_counter()
        deadline = math.inf if self.seconds is None else started + self.seconds
        budget = self.iterations if self.iterations is not None else math.inf
        done = 0
        if len(root.actions) == 1:  # a forced move needs no search
            budget = 1
        while done < budget:
            self._iterate(root)
            done += 1
            if done % _CHECK_EVERY == 0:
                now = time.perf_counter()
                if now >= deadline:
                    break
                left = min(budget - done, done / (now - started) * (deadline - now))
                if self.stop_early and _decided(root, left):
                    break
        player = root.player
        assert player is not None
        tried = [i for i in range(len(root.actions)) if root.visits[i] > 0]
        best = max(tried, key=lambda i: (root.visits[i], root.sums[i] / root.visits[i]))
        by_index = {move.index: move for move in state.legal_moves()}
        return SearchResult(
            move=by_index[root.actions[best]],
            value=float(root.sums[best] / root.visits[best]),
            iterations=done,
            visits={by_index[root.actions[i]].text: int(root.visits[i]) for i in tried},
        )

    def _iterate(self, root: _Node) -> None:
        node = root
        path: list[tuple[_Node, int]] = []  # (node, index of the action taken; -1 at chance)
        rng = self._rng
        while True:
            if node.player is None:
                value = _returns_of(node.state) if node.state is not None else node.returns
                break
            if node.untried < 0:
                self._expand(node)
            if node.player == CHANCE:
                if node.uniform:
                    outcome = node.outcomes[rng.randrange(len(node.outcomes))]
                else:
                    outcome = rng.choices(node.outcomes, cum_weights=node.cumulative)[0]
                children = cast(dict[int, _Node], node.children)
                path.append((node, -1))
                child = children.get(outcome)
                if child is None:
                    child, value = self._new_leaf(node, outcome)
                    children[outcome] = child
                    path.append((child, -1))
                    break
                node = child
                continue
            decided = cast(list[_Node | None], node.children)
            if node.untried > 0:
                # Draw one untried action and move it just after the tried ones, so children
                # keep the order in which they were expanded (ties go to the earliest).
                tried = len(node.actions) - node.untried
                pick = rng.randint(tried, len(node.actions) - 1)
                actions = node.actions
                actions[pick], actions[tried] = actions[tried], actions[pick]
                node.untried -= 1
                child, value = self._new_leaf(node, actions[tried])
                decided[tried] = child
                path.append((node, tried))
                path.append((child, -1))
                break
            index = select_ucb(node.visits, node.sums, node.total, self.exploration)
            path.append((node, index))
            node = cast(_Node, decided[index])
        for visited, index in path:
            visited.total += 1
            if index >= 0:
                visited.visits[index] += 1
                visited.sums[index] += value[visited.player]  # type: ignore[index]

    def _expand(self, node: _Node) -> None:
        if node.state is None and node.player != CHANCE:
            game = cast(KernelGame, self.game)
            node.list_actions(game.kernels.legal_actions(node.cells, *game.kernel_args))
            return
        if node.state is None:  # a chance node's probabilities come from its state
            node.state = cast(ArrayState, self._root_state).child(node.cells)
        node.expand(node.state)

    def _new_leaf(self, node: _Node, action: int) -> tuple[_Node, Sequence[float]]:
        """The child of ``node`` after ``action`` and its estimated returns."""
        if self._compiled_leaf:
            game = cast(KernelGame, self.game)
            leaf = cast(SearchLeaf, self._leaf)
            cells, player, values = leaf(
                node.cells, *game.kernel_args, action, self._leaf_plies, self._leaf_heuristic
            )
            child = _Node(None, None if player == GAME_OVER else player)
            child.cells = cells
            child.returns = values
            return child, values
        child = _Node(self._successor(cast(State, node.state), action))
        return child, self._evaluate_leaf(cast(State, child.state))

    def _successor(self, state: State, action: int) -> State:
        """The position after a legal ``action``, without a second legality check if possible."""
        if self._kernel_states:
            return cast(ArrayState, state).successor(action)
        return state.apply_action(action)

    def _rollout(self, state: State, plies: int) -> State:
        if self._kernel_states:
            return state.random_rollout(plies, GOING_ON)
        return state.random_rollout(plies, self._rng.getrandbits(31))

    def _evaluate_leaf(self, state: State) -> Returns:
        if state.is_over:
            return _returns_of(state)
        if not self._cut_rollouts:
            return _returns_of(self._rollout(state, _FULL_GAME))
        if self.rollout_plies:
            state = self._rollout(state, self.rollout_plies)
        if state.is_over:
            return _returns_of(state)
        if self._evaluate is None:
            return self._draw
        return self._evaluate(state)


def _winning_move(state: State) -> Move | None:
    """A move that wins at once, if there is one.

    UCT alone does not prefer a win now to a certain win later.
    """
    mover = state.to_move
    if isinstance(state, ArrayState):  # every child in one kernel call
        actions, children, players = state.expand()
        for i in np.flatnonzero(players == GAME_OVER):
            outcome = state.child(children[i]).outcome
            if outcome is not None and outcome.winner == mover:
                return state.move_from_index(int(actions[i]))
        return None
    for action in state.legal_actions():
        outcome = state.apply_action(action).outcome
        if outcome is not None and outcome.winner == mover:
            return state.move_from_index(action)
    return None


# How often the search looks at the clock and at whether the best move is already decided.
_CHECK_EVERY = 64


def _decided(root: _Node, iterations_left: float) -> bool:
    """Whether the most visited move stays most visited whatever the remaining iterations do."""
    if root.untried:
        return False
    if len(root.visits) < 2:
        return True
    first, second = np.partition(root.visits, -2)[-2:][::-1]
    return bool(first - second > iterations_left)


# A rollout "to the end": every game ends long before this (each has its own ply cap).
_FULL_GAME = 1 << 30


def _returns_of(state: State) -> Returns:
    outcome = state.outcome
    assert outcome is not None
    return outcome.returns


def _describe(iterations: int | None, seconds: float | None) -> str:
    parts = []
    if iterations is not None:
        parts.append(f"iters={iterations}")
    if seconds is not None:
        parts.append(f"seconds={seconds:g}")
    return "mcts:" + ",".join(parts)
