"""The numbers of a study: each variant summarised, and every measure tested.

`summarise` turns the per-game tables of `ludoteca.analysis.study.run_study` into one
JSON-ready dictionary (the ``study.json`` of a study). It holds only what the games and the plan
fix: the same seed gives the same dictionary whatever ran the games.

Rates carry 95 % Wilson intervals (`ludoteca.analysis.ratings.wilson_interval`), means and
ratios normal 95 % intervals (`ludoteca.analysis.study_statistics`). The tests of every measure,
Holm-corrected together, are `ludoteca.analysis.study_measures.study_tests`; the plain-language
findings are `ludoteca.analysis.study_findings.findings`.
"""

from __future__ import annotations

import importlib
import math
import platform
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ludoteca import __version__
from ludoteca.analysis.ratings import wilson_interval
from ludoteca.analysis.study import StudyPlan
from ludoteca.analysis.study_findings import findings
from ludoteca.analysis.study_games import NO_WINNER, GameTable
from ludoteca.analysis.study_measures import LEVEL, first_mover_always, study_tests
from ludoteca.analysis.study_statistics import Interval, mean_interval, ratio_interval
from ludoteca.core.game import Game
from ludoteca.core.registry import make

HISTOGRAM_BINS = 40


def summarise(plan: StudyPlan, tables: Sequence[GameTable]) -> dict[str, Any]:
    """The study as a JSON-ready dictionary (see docs/study.md for every field)."""
    game = make(plan.game_id, **plan.variants[0].options)
    plies = _span([t.columns["plies"] for t in tables])
    turns = _span([t.columns["turns"] for t in tables])
    variants = [
        summarise_variant(
            make(plan.game_id, **variant.options), variant.varied, table, plies, turns
        )
        for variant, table in zip(plan.variants, tables, strict=True)
    ]
    for variant, planned in zip(variants, plan.variants, strict=True):
        variant["agents"] = list(planned.agents)
    tests = study_tests(
        variants,
        tables,
        players=game.player_names,
        baseline=plan.baseline,
        seed=plan.seed,
    )
    study: dict[str, Any] = {
        "game": game.id,
        "name": game.name,
        "version": game.version,
        "players": list(game.player_names),
        "lineups": [list(lineup) for lineup in plan.lineups],
        "random_play": all(v.random_play for v in plan.variants),
        "games_per_variant": plan.games,
        "seed": plan.seed,
        "baseline": plan.baseline,
        "varied": list(plan.variants[0].varied),
        "variants": variants,
        "tests": tests,
        "level": LEVEL,
        "versions": versions(),
    }
    study["findings"] = findings(study)
    return study


def versions() -> dict[str, str]:
    """The versions of Python and the libraries that produced the numbers."""
    found = {"ludoteca": __version__, "python": platform.python_version()}
    for name in ("numpy", "numba"):
        found[name] = str(importlib.import_module(name).__version__)
    return found


def _span(columns: Sequence[npt.NDArray[np.int64]]) -> tuple[int, int]:
    """The smallest and largest value over every variant (the histograms' common range)."""
    filled = [c for c in columns if c.size]
    if not filled:
        return (0, 0)
    return min(int(c.min()) for c in filled), max(int(c.max()) for c in filled)


def summarise_variant(
    game: Game,
    varied: dict[str, Any],
    table: GameTable,
    plies_span: tuple[int, int] | None = None,
    turns_span: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """One variant's numbers: outcomes, balance, lengths, choices, leads (JSON-ready)."""
    c = table.columns
    n = table.games
    winner, first = c["winner"], c["first_mover"]
    wins = [int(np.count_nonzero(winner == seat)) for seat in range(game.num_players)]
    draws = int(np.count_nonzero(winner == NO_WINNER)) if game.num_players > 1 else 0
    first_wins = int(np.count_nonzero((winner == first) & (winner != NO_WINNER)))
    first_move_games = int(np.count_nonzero((first != NO_WINNER) & (winner != NO_WINNER)))
    decided = sum(wins)
    safeguards = int(np.count_nonzero(c["safeguard"]))
    chance_plies = int(c["plies"].sum() - c["decisions"].sum())
    curve = np.divide(
        table.curve_sum,
        table.curve_count,
        out=np.zeros(table.curve_sum.size),
        where=table.curve_count > 0,
    )
    reached = int(np.count_nonzero(table.curve_count))
    result: dict[str, Any] = {
        "label": label(varied or _changed_options(game)),
        "options": game.options,
        "varied": varied,
        "games": n,
        "wins": wins,
        "draws": draws,
        "safeguard_ends": safeguards,
        "win_rate": [w / n for w in wins],
        "win_ci": [list(wilson_interval(w, n)) for w in wins],
        "draw_rate": draws / n,
        "draw_ci": list(wilson_interval(draws, n)),
        "safeguard_rate": safeguards / n,
        "safeguard_ci": list(wilson_interval(safeguards, n)),
        "decided_games": decided,
        "decided_share": [w / decided if decided else None for w in wins],
        "decided_share_ci": [list(wilson_interval(w, decided)) for w in wins],
        "first_mover_games": [int(np.count_nonzero(first == s)) for s in range(game.num_players)],
        "first_mover_always": first_mover_always(first),
        "first_player_wins": first_wins,
        "first_player_win_rate": first_wins / n,
        "first_player_ci": list(wilson_interval(first_wins, n)),
        "first_move_games": first_move_games,
        "first_move_wins": first_wins,
        "first_move_share": first_wins / first_move_games if first_move_games else None,
        "first_move_ci": list(wilson_interval(first_wins, first_move_games)),
        "plies": _distribution(c["plies"], plies_span or _span([c["plies"]])),
        "turns": _distribution(c["turns"], turns_span or _span([c["turns"]])),
        "legal_moves_mean": float(c["legal_moves"].sum() / max(1, c["decisions"].sum())),
        "legal_moves_ci": _ci(ratio_interval(c["legal_moves"], c["decisions"])),
        "legal_moves_curve": [round(float(v), 4) for v in curve[:reached]],
        "chance_ply_share": chance_plies / max(1, int(c["plies"].sum())),
        "exact_first_player_value": exact_first_player_value(game),
    }
    if game.num_players == 1:
        won = winner == 0
        span = turns_span or _span([c["turns"]])
        result["turns_to_win"] = _distribution(c["turns"][won], span) if wins[0] else None
    lead = c["lead_changes"][c["lead_changes"] >= 0]
    result["lead_changes_mean"] = float(lead.mean()) if lead.size else None
    result["lead_changes_ci"] = _ci(mean_interval(lead))
    decided_at = c["decided_at"][~np.isnan(c["decided_at"])]
    result["decisiveness"] = float(decided_at.mean()) if decided_at.size else None
    result["decisiveness_ci"] = _ci(mean_interval(decided_at))
    return result


def _ci(interval: Interval | None) -> list[float] | None:
    return None if interval is None else [interval.low, interval.high]


def _distribution(values: npt.NDArray[np.int64], span: tuple[int, int]) -> dict[str, Any]:
    """Mean (with its interval), median, p10/p90, max and a histogram on shared bins."""
    if values.size == 0:
        return {"mean": None, "median": None, "p10": None, "p90": None, "max": None}
    low, high = span
    width = max(1, math.ceil((high - low + 1) / HISTOGRAM_BINS))
    edges = np.arange(low, high + width + 1, width)
    counts, _ = np.histogram(values, bins=edges)
    return {
        "mean": float(values.mean()),
        "mean_ci": _ci(mean_interval(values)),
        "median": float(np.median(values)),
        "p10": float(np.percentile(values, 10)),
        "p90": float(np.percentile(values, 90)),
        "max": int(values.max()),
        "histogram": {"edges": [int(e) for e in edges], "counts": [int(k) for k in counts]},
    }


def exact_first_player_value(game: Game) -> float | None:
    """The first mover's exact winning chance under perfect play, where the game is solved.

    A game's heuristics module may provide ``exact_start_value(game)`` (the first mover's
    expected return, in [-1, 1]); the chance of winning is ``(value + 1) / 2`` (a draw counts
    half). ``None`` for games without one.
    """
    try:
        module = importlib.import_module(f"{type(game).__module__}.heuristics")
    except ModuleNotFoundError:
        return None
    exact = getattr(module, "exact_start_value", None)
    if exact is None:
        return None
    return (float(exact(game)) + 1.0) / 2.0


def _changed_options(game: Game) -> dict[str, Any]:
    """The options of ``game`` that differ from their defaults."""
    return {
        spec.name: game.options[spec.name]
        for spec in game.option_specs
        if game.options[spec.name] != spec.default
    }


def label(varied: dict[str, Any]) -> str:
    """A variant's name from the options it sets: ``ranks=8 first=random``."""
    if not varied:
        return "default"
    parts = []
    for name, value in varied.items():
        text = "none" if value is None else str(value).lower() if isinstance(value, bool) else value
        parts.append(f"{name}={text}")
    return " ".join(parts)
