"""Expectimax with alpha-beta pruning and iterative deepening, over a heuristic evaluation.

Values are the first player's return, in [-1, 1]: player 0 maximises, player 1 minimises (the
two-player games are zero-sum), and a chance node is worth the probability-weighted mean of its
outcomes. In a solitaire the one player maximises. Alpha-beta cuts apply at decision nodes;
chance nodes search every outcome with the full window, so their expectation stays exact.

Every ply (a chance outcome included) uses one unit of depth. At depth 0 the game's heuristic
(``games/<game>/heuristics.py``) estimates the position; a finished game is worth its returns.
Iterative deepening searches depth 1, 2, ... until the time or the node budget is spent and plays
the best move of the deepest search that finished, trying the previous best move first at each
new depth.
"""

from __future__ import annotations

import math
import random
import time

from ludoteca.ai.agents import Agent, AgentError, require_decision_node
from ludoteca.ai.evaluation import Evaluator, evaluator_for
from ludoteca.ai.mcts import SearchResult
from ludoteca.core.game import Game, Move, State
from ludoteca.core.outcome import CHANCE


class _OutOfTime(Exception):
    """Raised inside the search when the deadline passes; the deepest finished result stands."""


class AlphaBetaAgent(Agent):
    """Iterative-deepening expectimax with alpha-beta cuts (see the module docs).

    Args:
        game: The game it plays; it must have a heuristics module.
        seconds: Wall-time budget per move (the search may run 256 nodes past it).
        max_depth: The deepest search tried.
        max_nodes: Node budget per move: the search stops after this many positions (a budget
            that, unlike time, gives the same moves on every machine).
        seed: Seeds the order in which equally good root moves are tried.
        name: The agent's name in tables.
    """

    def __init__(
        self,
        game: Game,
        *,
        seconds: float | None = 1.0,
        max_depth: int = 64,
        max_nodes: int | None = None,
        seed: int | None = None,
        name: str | None = None,
    ) -> None:
        evaluate = evaluator_for(game)
        if evaluate is None:
            raise AgentError(f"alpha-beta needs a heuristics module; {game.id} has none")
        if game.num_players > 2:
            raise AgentError("alpha-beta plays one- and two-player games only")
        if seconds is not None and not 0 < seconds < 3600:
            raise AgentError(f"seconds must be above 0 and below 3600; got {seconds}")
        if max_depth < 1:
            raise AgentError(f"max_depth must be at least 1; got {max_depth}")
        if max_nodes is not None and max_nodes < 1:
            raise AgentError(f"max_nodes must be at least 1; got {max_nodes}")
        self.game = game
        self.seconds = seconds
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self._evaluate: Evaluator = evaluate
        self._rng = random.Random(seed)
        self._deadline = math.inf
        self.nodes = 0
        self.name = name or (
            f"alphabeta:seconds={seconds:g}" if seconds else f"alphabeta:depth={max_depth}"
        )

    def _choose(self, state: State) -> Move:
        return self.search(state).move

    def search(self, state: State) -> SearchResult:
        """Search the decision node ``state``; report the best move of the deepest search.

        ``SearchResult.iterations`` is the depth reached and ``visits`` is empty.

        Raises:
            AgentError: ``state`` is over or a chance node.
        """
        require_decision_node(state, self.game)
        started = time.perf_counter()
        self._deadline = math.inf if self.seconds is None else started + self.seconds
        self.nodes = 0
        actions = list(state.legal_actions())
        self._rng.shuffle(actions)
        sign = 1.0 if state.to_move == 0 else -1.0  # player 1 minimises player 0's value
        best_action, best_value, depth_done = actions[0], 0.0, 0
        depths = range(1, self.max_depth + 1) if len(actions) > 1 else range(0)  # forced: no search
        for depth in depths:
            try:
                action, value = self._root(state, actions, depth, sign)
            except _OutOfTime:
                break
            best_action, best_value, depth_done = action, value, depth
            actions.remove(action)
            actions.insert(0, action)  # the best move first at the next depth
        move = state.move_from_index(best_action)
        return SearchResult(move=move, value=sign * best_value, iterations=depth_done, visits={})

    def _root(self, state: State, actions: list[int], depth: int, sign: float) -> tuple[int, float]:
        best_action, best = actions[0], -math.inf
        alpha, beta = -math.inf, math.inf
        for action in actions:
            value = self._value(state.apply_action(action), depth - 1, alpha, beta)
            if sign * value > best:
                best_action, best = action, sign * value
                if sign > 0:
                    alpha = max(alpha, value)
                else:
                    beta = min(beta, value)
        return best_action, sign * best

    def _value(self, state: State, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _OutOfTime
        if self.nodes & 255 == 0 and time.perf_counter() > self._deadline:
            raise _OutOfTime
        outcome = state.outcome
        if outcome is not None:
            return outcome.returns[0]
        if depth <= 0:
            return self._evaluate(state)[0]
        to_move = state.to_move
        if to_move == CHANCE:
            return sum(
                probability
                * self._value(state.apply_action(move.index), depth - 1, -math.inf, math.inf)
                for move, probability in state.chance_outcomes()
            )
        if to_move == 0:
            value = -math.inf
            for action in state.legal_actions():
                value = max(value, self._value(state.apply_action(action), depth - 1, alpha, beta))
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
            return value
        value = math.inf
        for action in state.legal_actions():
            value = min(value, self._value(state.apply_action(action), depth - 1, alpha, beta))
            beta = min(beta, value)
            if alpha >= beta:
                break
        return value
