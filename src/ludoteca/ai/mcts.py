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

The tree lives in arrays (`ludoteca.ai.search_tree`) and its walk, expansion and backup run as
compiled code; the search calls the game only for a new node's actions and for a new leaf. A game
with compiled kernels makes a leaf without checking again that a legal action is legal, and a game
that declares a compiled search leaf (`ludoteca.core.info.SearchLeaf`) makes the child, plays the
rollout and scores it in one call. Random draws (the order of untried moves, chance outcomes, the
kernels' rollouts) come from numba's generator, seeded once a search from the agent's own generator.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

import numpy as np
import numpy.typing as npt

from ludoteca.ai.agents import Agent, AgentError, require_decision_node
from ludoteca.ai.evaluation import Evaluator, evaluator_for
from ludoteca.ai.search_tree import ACTION, NEEDS_ACTIONS, NEEDS_LEAF, PLAYER, SearchTree
from ludoteca.core.array_state import ArrayState, Cells, KernelGame
from ludoteca.core.game import Game, Move, State
from ludoteca.core.outcome import CHANCE
from ludoteca.core.playouts import GAME_OVER
from ludoteca.core.search import GOING_ON, seed_generator

Returns = Sequence[float]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found at the root.

    Attributes:
        move: The move chosen (most visited).
        value: The mover's mean return through that move, in [-1, 1].
        iterations: Iterations run.
        visits: Visits per root move text.
        values: The mover's mean return through each visited root move, per move text.
    """

    move: Move
    value: float
    iterations: int
    visits: dict[str, int]
    values: dict[str, float] = field(default_factory=dict)

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

    def _successor(self, state: State, action: int) -> State:
        """The position after a legal ``action``, without a second legality check if possible."""
        if isinstance(state, ArrayState):
            return state.successor(action)
        return state.apply_action(action)

    def _rollout(self, state: State, plies: int) -> State:
        if isinstance(state, ArrayState):  # numba's generator goes on (seeded once a search)
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

    def search(
        self, state: State, *, win_at_once: bool = True, exclude: frozenset[int] = frozenset()
    ) -> SearchResult:
        """Run one search from the decision node ``state`` and report the best move.

        Args:
            state: The decision node.
            win_at_once: Play a move that wins at once without search (``False`` searches
                anyway, e.g. to value the other moves too).
            exclude: Root actions left out of the search (to value the others with the
                whole budget); with any, a single move left is searched all the same.

        Raises:
            AgentError: ``state`` is over or a chance node.
        """
        require_decision_node(state, self.game)
        winning = _winning_move(state) if win_at_once else None
        if winning is not None:
            return SearchResult(move=winning, value=1.0, iterations=0, visits={})
        search = _Search(self, state, exclude)
        # numba's generator (the tree's draws, the kernels' rollouts) is seeded once a search.
        seed_generator(self._rng.getrandbits(31))
        tree = search.tree
        started = time.perf_counter()
        deadline = math.inf if self.seconds is None else started + self.seconds
        budget = self.iterations if self.iterations is not None else math.inf
        done = 0
        if len(tree.root_edges()[0]) == 1 and not exclude:  # a forced move needs no search
            budget = 1
        while done < budget:
            search.iterate()
            done += 1
            if done % _CHECK_EVERY == 0:
                now = time.perf_counter()
                if now >= deadline:
                    break
                left = min(budget - done, done / (now - started) * (deadline - now))
                if self.stop_early and _decided(tree, left):
                    break
        actions, visits, sums = tree.root_edges()
        tried = [i for i in range(len(actions)) if visits[i] > 0]
        best = most_visited(visits, sums)
        by_index = {move.index: move for move in state.legal_moves()}
        return SearchResult(
            move=by_index[int(actions[best])],
            value=float(sums[best] / visits[best]),
            iterations=done,
            visits={by_index[int(actions[i])].text: int(visits[i]) for i in tried},
            values={by_index[int(actions[i])].text: float(sums[i] / visits[i]) for i in tried},
        )


class _Search:
    """One search: the tree (`ludoteca.ai.search_tree`) and the positions of its nodes.

    The tree's walk and backup are compiled; this class does what needs the game: listing a new
    node's actions and making and valuing a new leaf. With the game's compiled search leaf
    (`ludoteca.core.info.SearchLeaf`) a node's position is the kernels' array, and a `State` is
    built only for a chance node's probabilities; otherwise every node keeps its `State`.
    """

    def __init__(
        self, agent: MCTSAgent, root: State, exclude: frozenset[int] = frozenset()
    ) -> None:
        self.agent = agent
        self.exclude = exclude
        self.game = root.game
        self.exploration = agent.exploration
        self.root = root
        self.kernel_states = isinstance(root, ArrayState)
        self.leaf = agent._leaf if self.kernel_states else None
        self.kernel_args = cast(KernelGame, self.game).kernel_args if self.kernel_states else ()
        self.states: list[State | None] = [root]
        self.cells: list[Cells] = [cast(ArrayState, root).cells if self.kernel_states else _NONE]
        self.tree = SearchTree(_player_code(root.to_move), self.game.num_players)
        self._list_actions(0)

    def iterate(self) -> None:
        """One iteration: walk down, list actions or make a leaf as needed, back up."""
        tree = self.tree
        while True:
            status, node, edge = tree.descend(self.exploration)
            if status != NEEDS_ACTIONS:
                break
            self._list_actions(node)
        if status == NEEDS_LEAF:
            action = int(tree.edges_i[edge, ACTION])
            if self.leaf is not None:
                agent = self.agent
                cells, player, values = self.leaf(
                    self.cells[node], *self.kernel_args, action, agent._leaf_plies,
                    agent._leaf_heuristic,
                )  # fmt: skip
                tree.attach(edge, player, values)
                self.cells.append(cells)
                self.states.append(None)
                return
            state = self.agent._successor(self._state(node), action)
            returns = self.agent._evaluate_leaf(state)
            tree.attach(edge, _player_code(state.to_move), np.asarray(returns, dtype=np.float64))
            self.states.append(state)
            self.cells.append(_NONE)

    def _state(self, node: int) -> State:
        state = self.states[node]
        if state is None:
            state = self.states[node] = cast(ArrayState, self.root).child(self.cells[node])
        return state

    def _list_actions(self, node: int) -> None:
        tree = self.tree
        if tree.nodes[node, PLAYER] == CHANCE:
            state = self._state(node)
            if isinstance(state, ArrayState):
                outcomes = state.legal_action_array()
                probabilities = tuple(state.chance_probability_array().tolist())
            else:
                pairs = state.chance_outcomes()
                outcomes = np.array([move.index for move, _ in pairs], dtype=np.int64)
                probabilities = tuple(p for _, p in pairs)
            uniform = all(p == probabilities[0] for p in probabilities)
            cumulative = np.cumsum(np.asarray(probabilities, dtype=np.float64))
            tree.add_edges(node, outcomes, cumulative, uniform=uniform)
            return
        if self.leaf is not None:
            kernels = cast(KernelGame, self.game).kernels
            actions = kernels.legal_actions(self.cells[node], *self.kernel_args)
        else:
            state = self._state(node)
            if isinstance(state, ArrayState):
                actions = state.legal_action_array()
            else:
                actions = np.array(state.legal_actions(), dtype=np.int64)
        if node == 0 and self.exclude:
            actions = actions[~np.isin(actions, np.array(sorted(self.exclude), dtype=np.int64))]
        tree.add_edges(node, actions, _NO_PROBABILITIES)


def most_visited(visits: npt.NDArray[np.float64], sums: npt.NDArray[np.float64]) -> int:
    """The root edge that the search plays: the most visits, ties to the higher mean return.

    Not the best mean: a move tried a few times can have a high mean by luck, and the visits
    are where the search, weighing mean and doubt, settled.
    """
    tried = [i for i in range(len(visits)) if visits[i] > 0]
    return max(tried, key=lambda i: (visits[i], sums[i] / visits[i]))


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


def _decided(tree: SearchTree, iterations_left: float) -> bool:
    """Whether the most visited move stays most visited whatever the remaining iterations do."""
    if tree.root_untried():
        return False
    visits = tree.root_edges()[1]
    if len(visits) < 2:
        return True
    first, second = np.partition(visits, -2)[-2:][::-1]
    return bool(first - second > iterations_left)


# A rollout "to the end": every game ends long before this (each has its own ply cap).
_FULL_GAME = 1 << 30


def _player_code(player: int | None) -> int:
    """A state's ``to_move`` as the tree stores it (`GAME_OVER` for ``None``)."""
    return GAME_OVER if player is None else player


_NONE: Cells = np.zeros(0, dtype=np.int32)  # no array: a node kept as a State
_NO_PROBABILITIES: FloatArray = np.zeros(0)


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
