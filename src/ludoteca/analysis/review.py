"""Game reviews: every decision of a game judged by the chance of winning it kept.

For each decision (chance outcomes are not judged) a review gives the mover's chance of winning
before the move, under best play from there, and after the move played, the best move and its
chance, the loss in percentage points and a label (`LABELS`; thresholds in `label_for`). Each
player gets label counts and an accuracy figure. docs/review.md explains every figure.

How chances are estimated depends on what the game declares (`ludoteca.core.GameInfo`):

* ``exact``: a solved game (``exact_values``, Pente Grammai) gives every move's exact value.
* ``rollouts``: a game with expert playouts (``expert_playouts``, Steppin' Stones) plays
  ``budget`` games with its expert policy after the move played and after the expert's own move,
  with the same dice for both (common random numbers), and reports the share won with its 95 %
  Wilson interval.
* ``search``: every other game is searched by MCTS with ``budget`` iterations per position
  (`DEFAULT_SEARCH_BUDGET`), playing rollouts as the game's search levels do. The best move is
  the search's choice and its chance the search's mean return through it; the chance after the
  move played is the value of the position it leads to, as that position's own search finds it
  (an expectation over the outcomes at a chance node; the result at the end of the game). So a
  decision's ``chance_after`` is the next decision's ``chance_before`` seen from the other side.

The work is split into independent tasks, one per position (`review_tasks`), each seeded from
the review's seed and the task's place in the game, so the result is the same whether the tasks
run in this process, in a pool of workers (`review`) or one at a time elsewhere
(`run_review_task`), and in whatever order; `assemble_review` then builds the review.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ludoteca.analysis.batches import run_batches
from ludoteca.analysis.ratings import wilson_interval
from ludoteca.analysis.review_model import (
    LABELS,
    METHODS,
    PlayerSummary,
    Review,
    ReviewedDecision,
    ReviewError,
    label_for,
    summarise,
)
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game, State
from ludoteca.core.outcome import CHANCE
from ludoteca.core.records import GameRecord
from ludoteca.core.registry import make

__all__ = [
    "DEFAULT_ROLLOUTS",
    "DEFAULT_SEARCH_BUDGET",
    "LABELS",
    "METHODS",
    "PlayerSummary",
    "Review",
    "ReviewError",
    "ReviewTask",
    "ReviewTaskResult",
    "ReviewedDecision",
    "assemble_review",
    "default_budget",
    "method_for",
    "review",
    "review_tasks",
    "run_review_task",
]

#: MCTS iterations per position (``search``): a 200-ply Salta game in under 2 minutes on 2 cores.
DEFAULT_SEARCH_BUDGET: Final = 10_000
#: Expert playouts per candidate move (``rollouts``).
DEFAULT_ROLLOUTS: Final = 8
#: The largest budget accepted.
MAX_BUDGET: Final = 1_000_000

GameAndMoves = GameRecord | tuple[Game, Sequence[str]]
Progress = Callable[[int, int], None]


def method_for(game: Game) -> str:
    """How ``game``'s chances are estimated: ``exact``, ``rollouts`` or ``search``."""
    if game.info.exact_values is not None:
        return "exact"
    if game.info.expert_playouts is not None:
        return "rollouts"
    return "search"


def default_budget(game: Game) -> int | None:
    """The budget a review of ``game`` uses unless told otherwise (``None``: exact values)."""
    method = method_for(game)
    if method == "exact":
        return None
    return DEFAULT_ROLLOUTS if method == "rollouts" else DEFAULT_SEARCH_BUDGET


@dataclass(frozen=True)
class ReviewTask:
    """One position to evaluate: picklable, run by `run_review_task`.

    Attributes:
        key: Which position of the game: its ply (``"12"``), or a position off the game's path
            (``"12.3"``: after action 3 at ply 12).
        game: The game's id.
        options: Every option of the game.
        position: The position text.
        method: ``exact``, ``rollouts`` or ``search``.
        budget: Playouts per candidate, or iterations (0 for exact values).
        seed: This task's own seed (from the review's seed and ``key``).
        played: The move played here (``rollouts`` evaluates it beside the expert's move).
    """

    key: str
    game: str
    options: dict[str, Any]
    position: str
    method: str
    budget: int
    seed: int
    played: str = ""


@dataclass(frozen=True)
class ReviewTaskResult:
    """What one task found: the mover's chance after each move evaluated.

    Attributes:
        key: The task's key.
        best_move: The best move found.
        chances: The mover's chance after each move evaluated (text -> chance).
        intervals: 95 % intervals of the chances (``rollouts`` only).
        rollouts: Playouts behind each chance (``rollouts`` only, else 0).
    """

    key: str
    best_move: str
    chances: dict[str, float]
    intervals: dict[str, tuple[float, float]] = field(default_factory=dict)
    rollouts: int = 0


# -- the game and its positions -----------------------------------------------------------------


@dataclass(frozen=True)
class _Played:
    game: Game
    moves: tuple[str, ...]
    states: tuple[State, ...]  # states[i] is the position before moves[i]; one more at the end


def _played(record_or_game_and_moves: GameAndMoves) -> _Played:
    """The game, its moves and every position, checked."""
    if isinstance(record_or_game_and_moves, GameRecord):
        record = record_or_game_and_moves
        return _Played(record.game, record.moves, record.states)
    if not (isinstance(record_or_game_and_moves, tuple) and len(record_or_game_and_moves) == 2):
        raise ReviewError(
            "review a GameRecord or a (game, moves) pair; "
            f"got {type(record_or_game_and_moves).__name__}"
        )
    game, moves = record_or_game_and_moves
    if not isinstance(game, Game):
        raise ReviewError(f"the first of the pair must be a Game (see ludoteca.make); got {game!r}")
    if isinstance(moves, str) or not all(isinstance(move, str) for move in moves):
        raise ReviewError("the moves must be a list of move texts")
    states = [game.initial_state()]
    texts = []  # canonical texts: the tasks' results name moves by them
    for ply, text in enumerate(moves):
        try:
            move = states[-1].parse_move(text)
            states.append(states[-1].apply(move))
        except LudotecaError as error:
            raise ReviewError(f"ply {ply}: {error}") from None
        texts.append(move.text)
    return _Played(game, tuple(texts), tuple(states))


def _check_budget(budget: int | None, game: Game) -> int:
    """The budget to use (0 for exact values)."""
    if method_for(game) == "exact":
        return 0
    if budget is None:
        return default_budget(game) or 0
    if isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= MAX_BUDGET:
        raise ReviewError(f"budget must be a whole number from 1 to {MAX_BUDGET:,}; got {budget!r}")
    return budget


def _check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ReviewError(f"seed must be a whole number of at least 0; got {seed!r}")
    return seed


def _task_seed(seed: int, key: str) -> int:
    """A seed for one task, from the review's seed and the task's key (any order, any worker)."""
    digest = hashlib.sha256(f"{seed}:{key}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFF_FFFF


def _decisions(played: _Played) -> list[int]:
    """The plies at which a player chose a move."""
    return [
        ply
        for ply, state in enumerate(played.states[:-1])
        if not state.is_over and state.to_move != CHANCE
    ]


# Positions off the game's path are searched at most this many plies past it.
_OFF_PATH_DEPTH: Final = 4


def _value_node(played: _Played, key: str, state: State) -> State | None:
    """The state whose search values ``key`` (a searched position), or ``None`` if none needed."""
    if state.is_over or state.to_move == CHANCE:
        return None
    if len(state.legal_moves()) == 1 and key.count(".") < _OFF_PATH_DEPTH:
        return None
    return state


def _children(played: _Played, key: str, state: State) -> list[tuple[str, State, float]]:
    """The positions that ``key``'s value is made of: ``(key, state, weight)``.

    A chance node is worth the mean of its outcomes, a forced move the position it leads to.
    """
    if state.is_over:
        return []
    if state.to_move == CHANCE:
        outcomes = state.chance_outcomes()
    elif len(state.legal_moves()) == 1 and key.count(".") < _OFF_PATH_DEPTH:
        outcomes = ((state.legal_moves()[0], 1.0),)
    else:
        return []
    on_path = "." not in key and int(key) + 1 < len(played.states)
    children = []
    for move, probability in outcomes:
        if on_path and played.moves[int(key)] == move.text:
            children.append((str(int(key) + 1), played.states[int(key) + 1], probability))
        else:
            children.append((f"{key}.{move.index}", state.apply(move), probability))
    return children


def _searched_positions(played: _Played) -> dict[str, State]:
    """Every position a ``search`` review searches: each decision and what each move leads to."""
    needed: dict[str, State] = {}
    pending = []
    for ply in _decisions(played):
        pending.append((str(ply), played.states[ply]))
        pending.append((str(ply + 1), played.states[ply + 1]))
    while pending:
        key, state = pending.pop()
        if key in needed:
            continue
        node = _value_node(played, key, state)
        if node is not None:
            needed[key] = node
        pending.extend(
            (child, child_state) for child, child_state, _ in _children(played, key, state)
        )
    return needed


def review_tasks(
    record_or_game_and_moves: GameAndMoves, *, budget: int | None = None, seed: int = 0
) -> list[ReviewTask]:
    """The tasks of a review, one per position to evaluate (see `run_review_task`).

    Raises:
        ReviewError: A move is not legal (the message names its ply), or a bad budget or seed.
    """
    played = _played(record_or_game_and_moves)
    return _tasks(played, _check_budget(budget, played.game), _check_seed(seed))


def _tasks(played: _Played, budget: int, seed: int) -> list[ReviewTask]:
    game = played.game
    method = method_for(game)

    def task(key: str, state: State, move: str = "") -> ReviewTask:
        return ReviewTask(
            key=key,
            game=game.id,
            options=dict(game.options),
            position=state.to_text(),
            method=method,
            budget=budget,
            seed=_task_seed(seed, key),
            played=move,
        )

    if method == "search":
        positions = _searched_positions(played)
        return [task(key, positions[key]) for key in sorted(positions, key=_key_order)]
    return [task(str(ply), played.states[ply], played.moves[ply]) for ply in _decisions(played)]


def _key_order(key: str) -> tuple[int, ...]:
    return tuple(int(part) for part in key.split("."))


# -- running one task ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _game(game_id: str, options_json: str) -> Game:
    return make(game_id, **json.loads(options_json))


def run_review_task(task: ReviewTask) -> ReviewTaskResult:
    """Evaluate one position of a review (in this process; starts no process of its own)."""
    game = _game(task.game, json.dumps(task.options, sort_keys=True))
    state = game.parse_state(task.position)
    if task.method == "exact":
        return _exact(task, state)
    if task.method == "rollouts":
        return _rollouts(task, state)
    return _search(task, state)


def _chance(value: float) -> float:
    """A return in [-1, 1] as a chance of winning (a draw counts half)."""
    return min(1.0, max(0.0, (value + 1.0) / 2.0))


def _exact(task: ReviewTask, state: State) -> ReviewTaskResult:
    exact_values = state.game.info.exact_values
    assert exact_values is not None
    values = exact_values(state)
    best = max(values, key=lambda action: (values[action], -action))  # ties: the lowest action
    chances = {state.move_from_index(a).text: _chance(v) for a, v in values.items()}
    return ReviewTaskResult(task.key, state.move_from_index(best).text, chances)


def _rollouts(task: ReviewTask, state: State) -> ReviewTaskResult:
    info = state.game.info
    assert info.expert is not None and info.expert_playouts is not None
    mover = state.to_move
    expert_action, _ = info.expert(state)
    expert_text = state.move_from_index(expert_action).text
    candidates = [task.played] if task.played == expert_text else [task.played, expert_text]
    chances: dict[str, float] = {}
    intervals: dict[str, tuple[float, float]] = {}
    for text in candidates:
        after = state.apply(text)
        if after.is_over:
            outcome = after.outcome
            assert outcome is not None and mover is not None
            chance = _chance(outcome.returns[mover])
            chances[text], intervals[text] = chance, (chance, chance)
            continue
        # The same seed for every candidate: the same dice, so the comparison is fairer.
        wins = info.expert_playouts(after, task.budget, task.seed)
        won = wins if mover == 0 else task.budget - wins
        chances[text] = won / task.budget
        intervals[text] = wilson_interval(won, task.budget)
    # Ties go to the move played: no evidence that another move is better.
    best = max(candidates, key=lambda text: (chances[text], text == task.played))
    return ReviewTaskResult(task.key, best, chances, intervals, task.budget)


def _search(task: ReviewTask, state: State) -> ReviewTaskResult:
    from ludoteca.ai.mcts import MCTSAgent  # the AI layer only where a search is needed

    agent = MCTSAgent(
        state.game,
        iterations=task.budget,
        rollout_plies=state.game.info.rollout_plies,
        seed=task.seed,
    )
    result = agent.search(state)
    return ReviewTaskResult(task.key, result.move.text, {result.move.text: result.win_chance})


# -- assembling the review ----------------------------------------------------------------------


def assemble_review(
    record_or_game_and_moves: GameAndMoves,
    results: Sequence[ReviewTaskResult],
    *,
    budget: int | None,
    seed: int,
) -> Review:
    """The review made of the results of its tasks (in any order).

    Raises:
        ReviewError: A task's result is missing, or the results belong to another review.
    """
    played = _played(record_or_game_and_moves)
    game = played.game
    method = method_for(game)
    spent = _check_budget(budget, game)
    expected = {task.key for task in _tasks(played, spent, _check_seed(seed))}
    by_key = {result.key: result for result in results}
    missing = sorted(expected - set(by_key), key=_key_order)
    if missing:
        raise ReviewError(f"the results of {len(missing)} task(s) are missing: {missing[:5]}")
    decisions = [_judge(played, ply, by_key, method) for ply in _decisions(played)]
    return Review(
        game=game.id,
        options=dict(game.options),
        moves=played.moves,
        decisions=tuple(decisions),
        players=summarise(decisions, game.num_players),
        method=method,
        budget=spent or None,
        seed=seed,
    )


def _judge(
    played: _Played, ply: int, by_key: dict[str, ReviewTaskResult], method: str
) -> ReviewedDecision:
    state = played.states[ply]
    mover = state.to_move
    assert mover is not None
    move = played.moves[ply]
    forced = len(state.legal_moves()) == 1
    interval: tuple[float, float] | None = None
    rollouts: int | None = None
    if method == "search":
        after = _position_value(played, str(ply + 1), played.states[ply + 1], mover, by_key)
        if forced:
            best_move, best_chance = move, after
        else:
            result = by_key[str(ply)]
            best_move = result.best_move
            best_chance = result.chances[best_move]
    else:
        result = by_key[str(ply)]
        after = result.chances[move]
        best_move = result.best_move
        best_chance = result.chances[best_move]
        if method == "rollouts":
            interval, rollouts = result.intervals[move], result.rollouts
    played_best = move == best_move
    loss = 0.0 if played_best else max(0.0, (best_chance - after) * 100.0)
    return ReviewedDecision(
        ply=ply,
        player=mover,
        move=move,
        chance_before=best_chance,
        chance_after=after,
        best_move=best_move,
        best_chance=best_chance,
        loss=loss,
        label=label_for(loss, played_best=played_best),
        forced=forced,
        interval=interval,
        rollouts=rollouts,
    )


def _position_value(
    played: _Played, key: str, state: State, player: int, by_key: dict[str, ReviewTaskResult]
) -> float:
    """``player``'s chance in a position of a ``search`` review."""
    if state.is_over:
        outcome = state.outcome
        assert outcome is not None
        return _chance(outcome.returns[player])
    if key in by_key and state.to_move != CHANCE:
        result = by_key[key]
        chance = result.chances[result.best_move]
        return chance if state.to_move == player else 1.0 - chance
    return sum(
        weight * _position_value(played, child, child_state, player, by_key)
        for child, child_state, weight in _children(played, key, state)
    )


# -- the whole review ---------------------------------------------------------------------------


def review(
    record_or_game_and_moves: GameAndMoves,
    *,
    budget: int | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    jobs: int | None = None,
) -> Review:
    """Review a game: a `GameRecord`, or a ``(game, [move texts])`` pair (unfinished games too).

    Args:
        record_or_game_and_moves: The game.
        budget: Playouts per candidate move or search iterations per position (see
            `default_budget`); ignored where values are exact.
        seed: Seeds every estimate; the same seed and budget give the same review.
        progress: Called with ``(0, total)`` first, then ``(done, total)`` as positions are
            evaluated.
        jobs: Worker processes (``None``: every core; 1: in this process). The review is the
            same whatever the number.

    Raises:
        ReviewError: A move is not legal (the message names its ply), or a bad budget, seed or
            number of jobs.
    """
    tasks = review_tasks(record_or_game_and_moves, budget=budget, seed=seed)
    workers = (os.cpu_count() or 1) if jobs is None else jobs
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ReviewError(f"jobs must be a whole number of at least 1; got {jobs!r}")
    total = len(tasks)
    done = 0
    if progress is not None:
        progress(0, total)

    def advance(index: int, result: ReviewTaskResult) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    results = run_batches(run_review_task, tasks, jobs=workers, on_result=advance)
    return assemble_review(record_or_game_and_moves, results, budget=budget, seed=seed)
