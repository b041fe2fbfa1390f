"""The engine's view of one position, for an analysis board: each player's chance and a best line.

Three ways, chosen by what the game declares (as for game reviews, `ludoteca.analysis.review`):

- **exact** (a solved game, ``GameInfo.exact_values``, Pente Grammai): the value under perfect
  play; at a chance node the average over its outcomes, each outcome's value exact too. The best
  line follows the best moves until the next chance node (what comes then depends on the dice).
- **playouts** (``GameInfo.expert_playouts``, Steppin' Stones): ``budget`` games played to the end
  by the game's expert policy; the chance is the share won, with its Wilson 95 % interval.
- **search** (the others): an MCTS search of ``budget`` iterations from the position (from each
  outcome of a chance node with few outcomes, the first-player draw). Its value is a mean of
  rollout returns through the best move, not an unbiased sample of the position's value, so the
  interval given is a rough one: the mean's 95 % half-width for returns in [-1, 1] over the
  best move's visits, at most 1.96 / (2 √visits) of chance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from ludoteca.analysis.ratings import wilson_interval
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import State
from ludoteca.core.outcome import CHANCE

Method = Literal["exact", "playouts", "search", "over"]
#: Chance nodes with more outcomes than this are not searched outcome by outcome.
MAX_SEARCHED_OUTCOMES = 8
MAX_LINE = 8
#: Budgets when none is given: a search is quick, the expert's playouts much slower (Steppin'
#: Stones: about a quarter of a second of CPU each).
DEFAULT_SEARCH_ITERATIONS = 2000
DEFAULT_PLAYOUTS = 20
Z_95 = 1.959964


@dataclass(frozen=True, slots=True)
class PositionValue:
    """What the engine thinks of a position.

    Attributes:
        chances: Each player's chance of winning, 0 to 1 (a draw counts half); in a solitaire,
            the chance of winning the game.
        method: ``"exact"``, ``"playouts"``, ``"search"``, or ``"over"`` (the game has ended).
        interval: A 95 % interval of the first player's chance where it is sampled, else
            ``None``.
        best_line: The best moves from here (texts), up to the next chance node.
        budget: Playouts or search iterations spent (0 when exact).
    """

    chances: tuple[float, ...]
    method: Method
    interval: tuple[float, float] | None
    best_line: tuple[str, ...]
    budget: int = 0


def _chance(value: float) -> float:
    return min(1.0, max(0.0, (value + 1.0) / 2.0))


def _chances_of(first_player_value: float, players: int) -> tuple[float, ...]:
    """Chances of a two-player zero-sum value, or of a solitaire's return."""
    first = _chance(first_player_value)
    return (first,) if players == 1 else (first, 1.0 - first)


def default_budget(state: State) -> int:
    """The budget `evaluate` uses for ``state``'s game unless told otherwise."""
    info = state.game.info
    if info.exact_values is None and info.expert_playouts is not None:
        return DEFAULT_PLAYOUTS
    return DEFAULT_SEARCH_ITERATIONS


def evaluate(state: State, *, budget: int | None = None, seed: int = 0) -> PositionValue:
    """The engine's value of ``state`` (see the module docs for the three methods).

    ``budget`` is the search's iterations or the number of playouts (`default_budget` if
    ``None``; unused where the value is exact).

    Raises:
        LudotecaError: ``budget`` below 1, or a chance node with too many outcomes to search.
    """
    if budget is None:
        budget = default_budget(state)
    if budget < 1:
        raise LudotecaError(f"the budget is at least 1 (playouts or iterations); got {budget}")
    players = state.game.num_players
    if state.is_over:
        outcome = state.outcome
        assert outcome is not None
        return PositionValue(_chances_of(outcome.returns[0], players), "over", None, ())
    info = state.game.info
    if info.exact_values is not None:
        value = _exact_value(state)
        return PositionValue(_chances_of(value, players), "exact", None, _exact_line(state))
    if info.expert_playouts is not None and info.expert is not None:
        wins = info.expert_playouts(state, budget, seed)
        share = wins / budget
        line = () if state.to_move == CHANCE else (_expert_move(state),)
        chances = (share,) if players == 1 else (share, 1.0 - share)
        return PositionValue(chances, "playouts", wilson_interval(wins, budget), line, budget)
    return _searched(state, budget, seed)


def _exact_value(state: State) -> float:
    """The first player's exact value of ``state`` (a return in [-1, 1])."""
    if state.is_over:
        outcome = state.outcome
        assert outcome is not None
        return outcome.returns[0]
    if state.to_move == CHANCE:
        return sum(p * _exact_value(state.apply(move)) for move, p in state.chance_outcomes())
    exact_values = state.game.info.exact_values
    assert exact_values is not None
    best = max(exact_values(state).values())
    return best if state.to_move == 0 else -best


def _exact_line(state: State) -> tuple[str, ...]:
    exact_values = state.game.info.exact_values
    assert exact_values is not None
    line: list[str] = []
    while not state.is_over and state.to_move != CHANCE and len(line) < MAX_LINE:
        values = exact_values(state)
        action = max(values, key=lambda a: (values[a], -a))  # ties: the lowest action
        move = state.move_from_index(action)
        line.append(move.text)
        state = state.apply(move)
    return tuple(line)


def _expert_move(state: State) -> str:
    expert = state.game.info.expert
    assert expert is not None
    action, _ = expert(state)
    return state.move_from_index(action).text


def _searched(state: State, budget: int, seed: int) -> PositionValue:
    from ludoteca.ai.mcts import MCTSAgent  # the AI layer only where a search is needed

    players = state.game.num_players
    if state.to_move == CHANCE:
        outcomes = state.chance_outcomes()
        if len(outcomes) > MAX_SEARCHED_OUTCOMES:
            raise LudotecaError(
                f"this roll has {len(outcomes)} outcomes, too many to search each; play one "
                "(type it, or see moves) and evaluate the position after it"
            )
        share = max(1, budget // len(outcomes))
        first, width = 0.0, 0.0
        for move, probability in outcomes:
            value = _searched(state.apply(move), share, seed)
            first += probability * value.chances[0]
            if value.interval is not None:
                width += probability * (value.interval[1] - value.interval[0]) / 2
        averaged = (max(0.0, first - width), min(1.0, first + width))
        chances = (first,) if players == 1 else (first, 1.0 - first)
        return PositionValue(chances, "search", averaged, (), share * len(outcomes))
    agent = MCTSAgent(
        state.game, iterations=budget, rollout_plies=state.game.info.rollout_plies, seed=seed
    )
    result = agent.search(state)
    mover = state.to_move
    assert mover is not None
    mover_chance = min(1.0, max(0.0, result.win_chance))
    visits = result.visits.get(result.move.text, 0)
    first = mover_chance if mover == 0 else 1.0 - mover_chance
    if visits:
        half = Z_95 / (2.0 * math.sqrt(visits))
        interval: tuple[float, float] | None = (max(0.0, first - half), min(1.0, first + half))
    else:  # a winning move found without a search: certain
        interval = (first, first)
    line = [result.move.text]
    after = state.apply(result.move)
    follow = max(1, budget // 4)
    while len(line) < 3 and not after.is_over and after.to_move != CHANCE:
        reply = MCTSAgent(
            state.game, iterations=follow, rollout_plies=state.game.info.rollout_plies, seed=seed
        ).search(after)
        line.append(reply.move.text)
        after = after.apply(reply.move)
    chances = (first,) if players == 1 else (first, 1.0 - first)
    return PositionValue(chances, "search", interval, tuple(line), budget)
