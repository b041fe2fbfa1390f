"""Monte-Carlo tree search (UCT) with explicit chance nodes, for any number of players.

One iteration walks from the root to a leaf, evaluates the leaf, and backs the value up:

* **Selection** at a decision node of player ``p`` takes the child ``c`` maximising::

      Q_p(c) + C * sqrt(ln N(parent) / N(c))

  where ``Q_p(c)`` is the mean return of player ``p`` over the iterations through ``c`` (returns
  lie in [-1, 1]), ``N`` counts visits and ``C`` is `exploration` (default 1.0). Children not yet
  visited are expanded first, in a seeded random order.
* **Chance nodes** are not selected but sampled: the outcome is drawn with its probability
  (dice, a bag draw, a random first player), so every chance node's value converges to the
  expectation over its outcomes.
* **Expansion** adds one new node per iteration (a decision child, or a chance outcome not met
  before), and that node is the leaf.
* **Evaluation** of a non-terminal leaf plays a random rollout in the game's compiled kernels (one
  call): to the end of the game, or for ``rollout_plies`` plies followed by the game's
  heuristic evaluation (``games/<game>/heuristics.py``) when the game has one. A terminal leaf is
  worth its returns.
* **Backup** adds the leaf's vector of returns (one entry per player) to every node on the path,
  so each decision node is judged by the player who chose it, whatever the number of players.

The move played is the root child with the most visits (ties: the higher mean), except that a
move winning at once is played without search (UCT values a certain win later just as much). The
search
stops early when that child can no longer be overtaken within the budget left, and at once when
only one move is legal. With an iteration budget and a seed the search is reproducible; a time
budget also stops at the deadline.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from itertools import accumulate

from ludoteca.ai.agents import Agent, AgentError, require_decision_node
from ludoteca.ai.evaluation import Evaluator, evaluator_for
from ludoteca.core.game import Game, Move, State
from ludoteca.core.outcome import CHANCE

Returns = tuple[float, ...]


class _Node:
    """A position in the search tree with its visit count and summed returns per player."""

    __slots__ = (
        "children",
        "cumulative",
        "outcomes",
        "player",
        "returns",
        "state",
        "untried",
        "visits",
    )

    def __init__(self, state: State, rng: random.Random) -> None:
        self.state = state
        self.player = state.to_move
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.returns: list[float] = [0.0] * state.game.num_players
        self.untried: list[int] = []
        self.outcomes: tuple[int, ...] = ()
        self.cumulative: list[float] = []
        if state.is_over:
            return
        if self.player == CHANCE:
            pairs = state.chance_outcomes()
            self.outcomes = tuple(move.index for move, _ in pairs)
            self.cumulative = list(accumulate(p for _, p in pairs))
        else:
            self.untried = list(state.legal_actions())
            rng.shuffle(self.untried)


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
        heuristic: ``False`` never uses the game's heuristic: a rollout cut at ``rollout_plies``
            scores 0 for every player (plain UCT, as benchmarks compare it with other engines).
        stop_early: Whether the search stops once its best move can no longer change
            (``False`` spends the whole budget, as benchmarks of the search rate need).
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
        self._evaluate: Evaluator | None = None
        if rollout_plies is not None and heuristic:
            self._evaluate = evaluator_for(game)
        self._cut = _FULL_GAME if heuristic or rollout_plies is None else rollout_plies
        self.stop_early = stop_early
        self._draw: Returns = (0.0,) * game.num_players
        self._rng = random.Random(seed)
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
        root = _Node(state, self._rng)
        started = time.perf_counter()
        deadline = math.inf if self.seconds is None else started + self.seconds
        budget = self.iterations if self.iterations is not None else math.inf
        done = 0
        if len(root.untried) == 1:  # a forced move needs no search
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
        action, best = max(
            root.children.items(),
            key=lambda item: (item[1].visits, item[1].returns[player] / item[1].visits),
        )
        by_index = {move.index: move for move in state.legal_moves()}
        return SearchResult(
            move=by_index[action],
            value=best.returns[player] / best.visits,
            iterations=done,
            visits={by_index[a].text: child.visits for a, child in root.children.items()},
        )

    def _iterate(self, root: _Node) -> None:
        node, path = root, [root]
        while True:
            if node.state.is_over:
                value = _returns_of(node.state)
                break
            if node.player == CHANCE:
                outcome = self._rng.choices(node.outcomes, cum_weights=node.cumulative)[0]
                child = node.children.get(outcome)
                if child is None:
                    child = node.children[outcome] = self._new_node(node, outcome)
                    path.append(child)
                    value = self._evaluate_leaf(child.state)
                    break
            elif node.untried:
                action = node.untried.pop()
                child = node.children[action] = self._new_node(node, action)
                path.append(child)
                value = self._evaluate_leaf(child.state)
                break
            else:
                child = self._select(node)
            node = child
            path.append(node)
        for visited in path:
            visited.visits += 1
            sums = visited.returns
            for player, reward in enumerate(value):
                sums[player] += reward

    def _new_node(self, parent: _Node, action: int) -> _Node:
        return _Node(parent.state.apply_action(action), self._rng)

    def _select(self, node: _Node) -> _Node:
        player = node.player
        assert player is not None and player >= 0
        log_visits = math.log(node.visits)
        exploration = self.exploration
        best, best_score = None, -math.inf
        for child in node.children.values():
            score = child.returns[player] / child.visits + exploration * math.sqrt(
                log_visits / child.visits
            )
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best

    def _evaluate_leaf(self, state: State) -> Returns:
        if state.is_over:
            return _returns_of(state)
        seed = self._rng.getrandbits(31)
        if self._evaluate is None:
            end = state.random_rollout(self._cut, seed)
            return _returns_of(end) if end.is_over else self._draw
        if self.rollout_plies:
            state = state.random_rollout(self.rollout_plies, seed)
        if state.is_over:
            return _returns_of(state)
        return self._evaluate(state)


def _winning_move(state: State) -> Move | None:
    """A move that wins at once, if there is one.

    UCT alone does not prefer a win now to a certain win later.
    """
    mover = state.to_move
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
    visits = sorted((child.visits for child in root.children.values()), reverse=True)
    return len(visits) < 2 or visits[0] - visits[1] > iterations_left


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
