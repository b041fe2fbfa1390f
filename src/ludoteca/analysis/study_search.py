"""A variant search: which combination of option values best meets an objective, by racing.

``ludoteca study GAME --search NAME=V1,V2 [--search ...] --objective OBJECTIVE`` plays the grid
of every combination of the values, but not evenly: games go where the ranking is still
uncertain, and a variant that is clearly worse than the best stops playing.

**Racing.** Every variant still in the race plays the same number of games: `FIRST_ROUND`
games each (``AGENT_FIRST_ROUND`` with agents), then twice as many in all at every round, up
to ``max_games`` per variant. After each round each variant's score gets an interval
(`ludoteca.analysis.study_objectives.Objective.score`), and a variant is dropped when its whole
interval is worse than the whole interval of the variant leading the race. The intervals are
Bonferroni-corrected for every look the race may take: with K variants, R rounds at most and an
objective built from P intervals, each is drawn at the level ``LEVEL / (K R P)``, so the chance
that the race ever drops the truly best variant is at most `LEVEL` (5 %) in all. The race stops
when one variant is left, when every one left has played ``max_games``, or when the budget (in
games, or in seconds) is spent; the variants still in the race then cannot be told apart at
that precision.

**Equal precision.** The saving is counted against the full grid at equal precision: every
variant playing as many games as the search gave its best one, so that each score is known as
precisely as the winner's. A full grid looks at its results once, so it could draw its
intervals at a milder level (``LEVEL / (K P)``) than the race; ``full_grid_one_look_games``
says what it would need then (the games scale with the square of the two levels' z ratio).

**Seeds.** Batch ``b`` of variant ``v`` is seeded from (seed, v, b) as in a study
(`ludoteca.analysis.study.SeedBook`), and what to play next depends only on the games' results,
so a search gives the same ranking on one process, many, or Ray. A budget in seconds is the
exception: where it stops depends on the machine.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

from ludoteca.ai.evaluation import evaluator_for
from ludoteca.analysis.batches import BatchRunner
from ludoteca.analysis.ratings import Z_95
from ludoteca.analysis.study import (
    SeedBook,
    StudyError,
    Variant,
    check_games_and_seed,
    plan_variants,
    variant_batch,
)
from ludoteca.analysis.study_games import AGENT_BATCH, Batch, GameTable, play_batch
from ludoteca.analysis.study_objectives import AGENT_MEASURES, Objective, Score, parse_objective
from ludoteca.analysis.study_summary import label, versions
from ludoteca.core.registry import make

LEVEL = 0.05  # chance, over the whole race, of dropping the truly best variant
SEARCH_BATCH = 1_000  # games per batch of random play in a search
FIRST_ROUND = 1_000  # games per variant in the first round, random play
AGENT_FIRST_ROUND = 4 * AGENT_BATCH
MAX_GAMES_RANDOM = 100_000  # default games per variant at most, random play
MAX_GAMES_AGENTS = 400  # the same with agents


@dataclass(frozen=True, slots=True)
class SearchPlan:
    """Everything that fixes a search's results (with a budget in games)."""

    game_id: str
    variants: tuple[Variant, ...]
    searched: dict[str, list[Any]]
    objective: Objective
    seed: int
    max_games: int
    budget_games: int | None
    budget_seconds: float | None
    batch_size: int
    first_round: int

    def schedule(self) -> list[int]:
        """Games per variant after each round, if nothing stops the race early."""
        totals = [min(self.max_games, self.first_round)]
        while totals[-1] < self.max_games:
            totals.append(min(self.max_games, 2 * totals[-1]))
        return totals


def plan_search(
    game_id: str,
    *,
    search: Sequence[str],
    objective: str = "balance",
    options: Sequence[str] = (),
    lineup: Sequence[str] = ("random",),
    max_games: int | None = None,
    budget: str | None = None,
    seed: int = 0,
) -> SearchPlan:
    """Check a search's settings.

    Args:
        game_id: The game.
        search: ``NAME=V1,V2,...`` items; the grid is every combination of their values.
        objective: The ``--objective`` text (`ludoteca.analysis.study_objectives`).
        options: ``NAME=VALUE`` options shared by every variant.
        lineup: One agent spec per seat, or one for all.
        max_games: Games per variant at most (default `MAX_GAMES_RANDOM`, or
            `MAX_GAMES_AGENTS` with agents).
        budget: Games in all (``200000``) or seconds (``90s``); ``None`` for no budget.
        seed: The search's seed.

    Raises:
        LudotecaError: A bad option, value, agent, objective or budget (the message says
            what is accepted).
    """
    if not search:
        raise StudyError("--search needs at least one NAME=V1,V2,... to search over")
    goal = parse_objective(objective)
    variants, _ = plan_variants(
        game_id, options=options, vary=search, lineups=[lineup], flag="--search"
    )
    if len(variants) < 2:
        raise StudyError("--search gives one variant; give at least two values to compare")
    random_play = variants[0].random_play
    games = (
        max_games
        if max_games is not None
        else (MAX_GAMES_RANDOM if random_play else MAX_GAMES_AGENTS)
    )
    check_games_and_seed(games, seed)
    game = make(game_id, **variants[0].options)
    _check_objective(goal, game.num_players, random_play, evaluator_for(game) is not None)
    batch_size = SEARCH_BATCH if random_play else AGENT_BATCH
    first_round = FIRST_ROUND if random_play else AGENT_FIRST_ROUND
    budget_games, budget_seconds = parse_budget(budget)
    return SearchPlan(
        game_id=game.id,
        variants=tuple(variants),
        searched={name: [v.varied[name] for v in variants] for name in variants[0].varied},
        objective=goal,
        seed=seed,
        max_games=games,
        budget_games=budget_games,
        budget_seconds=budget_seconds,
        batch_size=batch_size,
        first_round=min(first_round, games),
    )


def _check_objective(goal: Objective, players: int, random_play: bool, evaluates: bool) -> None:
    if goal.kind == "balance" and players != 2:
        raise StudyError("--objective balance needs a two-player game")
    agent_only = goal.names & AGENT_MEASURES
    if agent_only and (random_play or players != 2 or not evaluates):
        raise StudyError(
            f"--objective {goal.text!r} reads {', '.join(sorted(agent_only))}, which only agent "
            "play in a two-player game with an evaluation measures; give --agents, e.g. level:2"
        )


def parse_budget(text: str | None) -> tuple[int | None, float | None]:
    """``--budget``: games (``200000``) or seconds (``90s``); ``(None, None)`` for none.

    Raises:
        StudyError: Neither a positive whole number of games nor a number of seconds.
    """
    if text is None:
        return (None, None)
    cleaned = text.strip().replace("_", "").replace(",", "")
    try:
        if cleaned.endswith("s"):
            seconds = float(cleaned[:-1])
            if math.isfinite(seconds) and seconds > 0:
                return (None, seconds)
        elif int(cleaned) > 0:
            return (int(cleaned), None)
    except ValueError:
        pass
    raise StudyError(
        f"--budget {text!r}: give a number of games (e.g. 200000) or of seconds (e.g. 90s)"
    )


@dataclass(slots=True)
class _Racer:
    """One variant in the race: its games so far and whether it still plays."""

    index: int
    variant: Variant
    table: GameTable
    dropped_after: int | None = None

    @property
    def games(self) -> int:
        return self.table.games


def run_search(
    plan: SearchPlan,
    runner: BatchRunner,
    *,
    progress: Callable[[Batch], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> dict[str, Any]:
    """Race the variants of ``plan`` on ``runner``'s backend; return ``search.json``'s content."""
    schedule = plan.schedule()
    looks = len(plan.variants) * len(schedule) * plan.objective.parts
    z_race = NormalDist().inv_cdf(1 - LEVEL / looks / 2)
    book = SeedBook(plan.seed)
    racers = [_Racer(i, v, GameTable.empty()) for i, v in enumerate(plan.variants)]
    started = clock()
    used = 0
    rounds: list[dict[str, Any]] = []
    stopped = ""
    for round_number, target in enumerate(schedule, start=1):
        alive = [r for r in racers if r.dropped_after is None]
        if len(alive) == 1:
            break
        if plan.budget_seconds is not None and clock() - started >= plan.budget_seconds:
            stopped = f"the time budget ({plan.budget_seconds:g} s) was spent"
            break
        more = target - alive[0].games
        if plan.budget_games is not None:
            room = (plan.budget_games - used) // (len(alive) * plan.batch_size) * plan.batch_size
            if room < more:
                more = room
                stopped = f"the budget of {plan.budget_games:,} games was spent"
        if more <= 0:
            break
        batches = _round_batches(plan, alive, more, book)
        tables = runner.run(play_batch, batches, _reporter(progress, batches))
        for racer in alive:
            mine = [t for b, t in zip(batches, tables, strict=True) if b.variant == racer.index]
            racer.table = GameTable.join([racer.table, *mine])
        used += sum(b.count for b in batches)
        scores = {r.index: _score(plan, r, z_race) for r in alive}
        dropped = _drop(plan.objective, alive, scores, round_number)
        rounds.append(
            {
                "round": round_number,
                "games_per_variant": alive[0].games,
                "racing": [r.index for r in alive],
                "dropped": [r.index for r in dropped],
                "intervals": {str(i): _numbers([s.low, s.high]) for i, s in scores.items()},
            }
        )
        if stopped:
            break
    if len([r for r in racers if r.dropped_after is None]) == 1:
        stopped = "one variant left"
    elif not stopped:
        stopped = f"every variant left has played --games ({plan.max_games:,})"
    return _result(plan, racers, rounds, used, stopped, z_race)


def _reporter(
    progress: Callable[[Batch], None] | None, batches: list[Batch]
) -> Callable[[int, GameTable], None] | None:
    """``progress`` called with each batch of the round as it comes in."""
    if progress is None:
        return None
    report = progress
    return lambda index, _: report(batches[index])


def _round_batches(plan: SearchPlan, alive: list[_Racer], more: int, book: SeedBook) -> list[Batch]:
    batches = []
    for racer in alive:
        first = racer.games
        for start in range(first, first + more, plan.batch_size):
            count = min(plan.batch_size, first + more - start)
            number = start // plan.batch_size
            batches.append(
                variant_batch(plan.game_id, racer.index, racer.variant, number, start, count, book)
            )
    return batches


def _score(plan: SearchPlan, racer: _Racer, z: float) -> Score:
    """A racer's score; an expression's bootstrap is seeded by the search, variant and games."""
    entropy = [plan.seed, racer.index, racer.games]
    seed = int(np.random.SeedSequence(entropy).generate_state(1, dtype=np.uint32)[0])
    return plan.objective.score(racer.table, z=z, seed=seed)


def _drop(
    objective: Objective, alive: list[_Racer], scores: dict[int, Score], round_number: int
) -> list[_Racer]:
    """Drop every variant whose interval lies wholly on the worse side of the leader's."""
    known = [r for r in alive if not math.isnan(scores[r.index].low)]
    if not known:
        return []
    if objective.goal == "min":
        bar = min(scores[r.index].high for r in known)
        worse = [r for r in known if scores[r.index].low > bar]
    else:
        bar = max(scores[r.index].low for r in known)
        worse = [r for r in known if scores[r.index].high < bar]
    for racer in worse:
        racer.dropped_after = round_number
    return worse


def _result(
    plan: SearchPlan,
    racers: list[_Racer],
    rounds: list[dict[str, Any]],
    used: int,
    stopped: str,
    z_race: float,
) -> dict[str, Any]:
    objective = plan.objective
    final = {r.index: _score(plan, r, Z_95) for r in racers}
    alive = [r for r in racers if r.dropped_after is None]

    def order(racer: _Racer) -> tuple[int, float]:
        estimate = final[racer.index].estimate
        key = estimate if objective.goal == "min" else -estimate
        return (racer.dropped_after is not None, math.inf if math.isnan(key) else key)

    ranked = sorted(racers, key=order)
    best = ranked[0]
    game = make(plan.game_id, **plan.variants[0].options)
    ranking = []
    for racer in ranked:
        score = final[racer.index]
        if racer is best:
            status = "best"
        elif racer.dropped_after is None:
            status = "not told apart from the best"
        else:
            status = "worse"
        ranking.append(
            {
                "options": racer.variant.options,
                "varied": racer.variant.varied,
                "label": label(racer.variant.varied),
                "score": _number(score.estimate),
                "ci": _numbers([score.low, score.high]),
                "games": racer.games,
                "status": status,
                "significantly_worse": racer.dropped_after is not None,
                "dropped_after_round": racer.dropped_after,
            }
        )
    full_grid = len(plan.variants) * best.games
    # A full grid looks once, so its intervals need less widening than the race's many looks:
    # the games for the same interval width shrink with the square of the z ratio.
    z_once = NormalDist().inv_cdf(1 - LEVEL / (len(plan.variants) * objective.parts) / 2)
    per_variant_once = math.ceil(best.games * (z_once / z_race) ** 2)
    return {
        "game": game.id,
        "name": game.name,
        "version": game.version,
        "players": list(game.player_names),
        "agents": list(plan.variants[0].agents),
        "objective": {
            "text": objective.text,
            "goal": objective.goal,
            "definition": objective.definition,
        },
        "searched": {name: list(dict.fromkeys(values)) for name, values in plan.searched.items()},
        "seed": plan.seed,
        "max_games": plan.max_games,
        "budget": {"games": plan.budget_games, "seconds": plan.budget_seconds},
        "ranking": ranking,
        "best": ranking[0]["label"],
        "decided": len(alive) == 1,
        "stopped": stopped,
        "rounds": rounds,
        "games_used": used,
        "full_grid_games": full_grid,
        "saved_games": full_grid - used,
        "saved_share": (full_grid - used) / full_grid if full_grid else 0.0,
        "full_grid_one_look_games": len(plan.variants) * per_variant_once,
        "level": LEVEL,
        "race_z": z_race,
        "variants": [label(v.varied) for v in plan.variants],
        "versions": versions(),
    }


def _number(value: float) -> float | None:
    """A float for JSON (``None`` for nan)."""
    return None if math.isnan(value) else float(value)


def _numbers(values: Sequence[float]) -> list[float | None]:
    return [_number(v) for v in values]
