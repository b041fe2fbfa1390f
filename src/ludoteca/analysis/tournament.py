"""Round-robin tournaments between agent specs, run in parallel processes.

Every pair of specs plays ``games_per_pair`` games with the seats alternated (the first spec of
the pair takes seat 0 in even-numbered games); in a solitaire every spec plays that many games
alone. Game ``k`` of the schedule is seeded with ``seed + k``, which fixes its dice and the
agents' generators, so a tournament with iteration-budget agents is reproducible whatever the
number of processes or Ray workers (``ray=``). Results: win/draw/loss counts, the score with its
Wilson interval, and (for two players) Elo ratings with standard errors
(`ludoteca.analysis.ratings`).
"""

from __future__ import annotations

import multiprocessing
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from multiprocessing.pool import IMapIterator
from pathlib import Path
from typing import Any

from ludoteca.ai.agents import AgentError
from ludoteca.ai.specs import agent_from_spec
from ludoteca.analysis.batches import run_batches, start_pool
from ludoteca.analysis.match import play_specs
from ludoteca.analysis.ratings import elo_ratings, wilson_interval
from ludoteca.core import records
from ludoteca.core.game import Game
from ludoteca.core.registry import make


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game of the tournament.

    Attributes:
        number: Its place in the schedule (its seed is the tournament's seed plus this).
        seats: The spec playing each seat.
        returns: Each seat's return (+1 win, -1 loss, 0 draw).
        plies: Moves and chance outcomes played.
        reason: How it ended.
        record: Where the saved game was written, or ``None``.
    """

    number: int
    seats: tuple[str, ...]
    returns: tuple[float, ...]
    plies: int
    reason: str
    record: str | None


@dataclass(frozen=True, slots=True)
class Standing:
    """One spec's results over the tournament.

    Attributes:
        spec: The agent spec.
        games: Games played.
        wins: Games won.
        draws: Games drawn (in a solitaire: none; a game not won is lost).
        losses: Games lost.
        score: Points per game, a win 1 and a draw 1/2.
        low: Lower end of the 95 % Wilson interval of ``score``.
        high: Upper end of that interval.
        elo: Elo rating (mean 0 over the field); ``None`` in a solitaire.
        elo_error: Standard error of ``elo``.
    """

    spec: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    low: float
    high: float
    elo: float | None
    elo_error: float | None


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """Everything a tournament produced."""

    game: str
    options: dict[str, Any]
    seed: int
    games_per_pair: int
    standings: tuple[Standing, ...]
    results: tuple[GameResult, ...]

    def head_to_head(self, spec: str, opponent: str) -> tuple[float, int]:
        """Points ``spec`` scored against ``opponent`` and the games they played."""
        points, games = 0.0, 0
        for result in self.results:
            if spec in result.seats and opponent in result.seats and spec != opponent:
                points += (result.returns[result.seats.index(spec)] + 1) / 2
                games += 1
        return points, games

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class _Job:
    number: int
    game_id: str
    options: dict[str, Any]
    seats: tuple[str, ...]
    seed: int
    record_path: str | None


def schedule(specs: Sequence[str], games_per_pair: int, num_players: int) -> list[tuple[str, ...]]:
    """The seatings of every game, in order: pairs alternate seats, solitaire specs play alone."""
    if num_players == 1:
        return [(spec,) for spec in specs for _ in range(games_per_pair)]
    if num_players != 2:
        raise AgentError("tournaments are for one- and two-player games")
    seatings: list[tuple[str, ...]] = []
    for first, second in combinations(specs, 2):
        for k in range(games_per_pair):
            seatings.append((first, second) if k % 2 == 0 else (second, first))
    return seatings


def run_tournament(
    game: Game,
    specs: Sequence[str],
    *,
    games_per_pair: int,
    seed: int = 0,
    jobs: int = 1,
    save_dir: Path | None = None,
    progress: Callable[[GameResult], None] | None = None,
    ray: str | None = None,
) -> TournamentResult:
    """Play the round robin of ``specs`` and rate them.

    Args:
        game: The game and options.
        specs: Agent specs, all different (a two-player game needs at least two).
        games_per_pair: Games per pair of specs (per spec in a solitaire).
        seed: The first game's seed.
        jobs: Worker processes (1 plays in this process).
        save_dir: Where to write each game as a saved-game JSON file, or ``None``.
        progress: Called with each result as it comes in.
        ray: ``None`` to play locally; ``""`` for a local Ray, else a Ray cluster's address
            (`ludoteca.analysis.batches`); the results are the same.

    Raises:
        ClusterError: Ray was asked for and cannot be used.
        AgentError: A spec is invalid or repeated, too few specs, or ``games_per_pair`` < 1.
    """
    _check_specs(game, specs, games_per_pair)
    seatings = schedule(specs, games_per_pair, game.num_players)
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    work = [
        _Job(
            number=k,
            game_id=game.id,
            options=game.options,
            seats=seats,
            seed=seed + k,
            record_path=None if save_dir is None else str(save_dir / _record_name(k, seats)),
        )
        for k, seats in enumerate(seatings)
    ]
    results: list[GameResult] = []
    if ray is not None:
        results = run_batches(
            _play_job,
            work,
            ray=ray,
            on_result=lambda index, result: progress(result) if progress else None,
        )
    elif jobs <= 1:
        for job in work:
            results.append(_play_job(job))
            if progress:
                progress(results[-1])
    else:
        # Workers ignore Ctrl+C; this process stops them at once instead (Pool.terminate), so
        # an interrupted tournament neither hangs on games in progress nor prints their stacks.
        pool = start_pool(jobs)
        try:
            for result in _as_they_finish(pool.imap(_play_job, work)):
                results.append(result)
                if progress:
                    progress(result)
            pool.close()
        finally:
            pool.terminate()
            pool.join()
    return TournamentResult(
        game=game.id,
        options=game.options,
        seed=seed,
        games_per_pair=games_per_pair,
        standings=_standings(specs, results, game.num_players),
        results=tuple(results),
    )


_WAKE_EVERY = 0.2  # seconds


def _as_they_finish(results: IMapIterator[GameResult]) -> Iterator[GameResult]:
    """The pool's results in order, waiting in short steps.

    Python runs signal handlers in the main thread only. Ctrl+C may be delivered to one of the
    pool's helper threads instead, and a main thread blocked without a timeout would not notice
    it until the next game ended; waking every `_WAKE_EVERY` seconds notices it at once.
    """
    while True:
        try:
            yield results.next(timeout=_WAKE_EVERY)
        except multiprocessing.TimeoutError:
            continue
        except StopIteration:
            return


def default_jobs() -> int:
    """One worker per core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _check_specs(game: Game, specs: Sequence[str], games_per_pair: int) -> None:
    if games_per_pair < 1:
        raise AgentError(f"games per pair must be at least 1; got {games_per_pair}")
    if len(set(specs)) != len(specs):
        raise AgentError("each agent spec may appear once; give repeated agents different seeds")
    needed = 1 if game.num_players == 1 else 2
    if len(specs) < needed:
        raise AgentError(f"a {game.num_players}-player tournament needs at least {needed} specs")
    for spec in specs:
        agent_from_spec(spec, game, seed=0)  # raises on a bad spec, before any game starts


def _record_name(number: int, seats: Sequence[str]) -> str:
    names = "-vs-".join(re.sub(r"[^A-Za-z0-9.=]+", "_", spec) for spec in seats)
    return f"{number:04d}-{names}.json"


def _play_job(job: _Job) -> GameResult:
    game = make(job.game_id, **job.options)
    record = play_specs(game, job.seats, job.seed)
    if job.record_path is not None:
        records.save(record, job.record_path)
    outcome = record.outcome
    assert outcome is not None
    return GameResult(
        number=job.number,
        seats=job.seats,
        returns=outcome.returns,
        plies=len(record.moves),
        reason=outcome.reason,
        record=job.record_path,
    )


def _standings(
    specs: Sequence[str], results: Sequence[GameResult], num_players: int
) -> tuple[Standing, ...]:
    pair_scores: dict[tuple[str, str], tuple[float, int]] = {}
    for result in results:
        if num_players == 2:
            first, second = result.seats
            key, flip = ((first, second), False) if first < second else ((second, first), True)
            points, games = pair_scores.get(key, (0.0, 0))
            points_first = (result.returns[0] + 1) / 2
            pair_scores[key] = (points + (1 - points_first if flip else points_first), games + 1)
    ratings = elo_ratings(list(specs), pair_scores) if num_players == 2 else {}
    standings = []
    for spec in specs:
        returns = [r.returns[r.seats.index(spec)] for r in results if spec in r.seats]
        wins = sum(1 for value in returns if value > 0)
        losses = sum(1 for value in returns if value < 0)
        draws = len(returns) - wins - losses
        points = wins + draws / 2
        low, high = wilson_interval(points, len(returns))
        rating = ratings.get(spec)
        standings.append(
            Standing(
                spec=spec,
                games=len(returns),
                wins=wins,
                draws=draws,
                losses=losses,
                score=points / len(returns) if returns else 0.0,
                low=low,
                high=high,
                elo=None if rating is None else rating.elo,
                elo_error=None if rating is None else rating.error,
            )
        )
    standings.sort(key=lambda s: s.elo if s.elo is not None else s.score, reverse=True)
    return tuple(standings)
