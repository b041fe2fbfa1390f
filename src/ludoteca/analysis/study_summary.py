"""The numbers of a study: each variant summarised, and each variant compared with the baseline.

`summarise` turns the per-game tables of `ludoteca.analysis.study.run_study` into one
JSON-ready dictionary (the ``study.json`` of a study). It holds only what the games and the plan
fix: the same seed gives the same dictionary whatever ran the games.

Rates carry 95 % Wilson intervals (`ludoteca.analysis.ratings.wilson_interval`). Comparisons
use the first player's win rate (the solitaire's win rate): the difference with Newcombe's
interval, the pooled two-sided z test, and Holm's correction over all comparisons of the study
(`ludoteca.analysis.proportions`).
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
from ludoteca.analysis.proportions import holm_adjust, two_proportion_test
from ludoteca.analysis.ratings import wilson_interval
from ludoteca.analysis.study import NO_WINNER, GameTable, StudyPlan
from ludoteca.core.game import Game
from ludoteca.core.registry import make

LEVEL = 0.05  # significance level of the comparisons, after Holm's correction
HISTOGRAM_BINS = 40


def summarise(plan: StudyPlan, tables: Sequence[GameTable]) -> dict[str, Any]:
    """The study as a JSON-ready dictionary (see docs/study.md for every field)."""
    game = make(plan.game_id, **plan.variants[0].options)
    plies = _span([t.columns["plies"] for t in tables])
    turns = _span([t.columns["turns"] for t in tables])
    variants = [
        _variant(make(plan.game_id, **variant.options), variant.varied, table, plies, turns)
        for variant, table in zip(plan.variants, tables, strict=True)
    ]
    return {
        "game": game.id,
        "name": game.name,
        "version": game.version,
        "players": list(game.player_names),
        "agents": list(plan.agents),
        "games_per_variant": plan.games,
        "seed": plan.seed,
        "baseline": plan.baseline,
        "varied": list(plan.variants[0].varied),
        "variants": variants,
        "comparisons": _comparisons(variants, plan.baseline),
        "level": LEVEL,
        "versions": versions(),
    }


def versions() -> dict[str, str]:
    """The versions of Python and the libraries that produced the numbers."""
    found = {"ludoteca": __version__, "python": platform.python_version()}
    for name in ("numpy", "numba"):
        found[name] = str(importlib.import_module(name).__version__)
    return found


def _span(columns: Sequence[npt.NDArray[np.int64]]) -> tuple[int, int]:
    """The smallest and largest value over every variant (the histograms' common range)."""
    return min(int(c.min()) for c in columns), max(int(c.max()) for c in columns)


def _variant(
    game: Game,
    varied: dict[str, Any],
    table: GameTable,
    plies_span: tuple[int, int],
    turns_span: tuple[int, int],
) -> dict[str, Any]:
    c = table.columns
    n = table.games
    winner, first = c["winner"], c["first_mover"]
    wins = [int(np.count_nonzero(winner == seat)) for seat in range(game.num_players)]
    draws = int(np.count_nonzero(winner == NO_WINNER)) if game.num_players > 1 else 0
    first_wins = int(np.count_nonzero((winner == first) & (winner != NO_WINNER)))
    chance_plies = int(c["plies"].sum() - c["decisions"].sum())
    curve = np.divide(
        table.curve_sum,
        table.curve_count,
        out=np.zeros(table.curve_sum.size),
        where=table.curve_count > 0,
    )
    reached = int(np.count_nonzero(table.curve_count))
    result: dict[str, Any] = {
        "label": _label(varied or _changed_options(game)),
        "options": game.options,
        "varied": varied,
        "games": n,
        "wins": wins,
        "draws": draws,
        "safeguard_ends": int(np.count_nonzero(c["safeguard"])),
        "win_rate": [w / n for w in wins],
        "win_ci": [list(wilson_interval(w, n)) for w in wins],
        "draw_rate": draws / n,
        "draw_ci": list(wilson_interval(draws, n)),
        "first_mover_games": [int(np.count_nonzero(first == s)) for s in range(game.num_players)],
        "first_player_wins": first_wins,
        "first_player_win_rate": first_wins / n,
        "first_player_ci": list(wilson_interval(first_wins, n)),
        "plies": _distribution(c["plies"], plies_span),
        "turns": _distribution(c["turns"], turns_span),
        "legal_moves_mean": float(c["legal_moves"].sum() / max(1, c["decisions"].sum())),
        "legal_moves_curve": [round(float(v), 4) for v in curve[:reached]],
        "chance_ply_share": chance_plies / max(1, int(c["plies"].sum())),
        "exact_first_player_value": exact_first_player_value(game),
    }
    if game.num_players == 1:
        won = winner == 0
        result["turns_to_win"] = _distribution(c["turns"][won], turns_span) if wins[0] else None
    lead = c["lead_changes"]
    measured = lead >= 0
    result["lead_changes_mean"] = float(lead[measured].mean()) if measured.any() else None
    decided = c["decided_at"][~np.isnan(c["decided_at"])]
    result["decisiveness"] = float(decided.mean()) if decided.size else None
    return result


def _distribution(values: npt.NDArray[np.int64], span: tuple[int, int]) -> dict[str, Any]:
    """Mean, median, p10/p90, max and a histogram on whole-number bins shared by every variant."""
    if values.size == 0:
        return {"mean": None, "median": None, "p10": None, "p90": None, "max": None}
    low, high = span
    width = max(1, math.ceil((high - low + 1) / HISTOGRAM_BINS))
    edges = np.arange(low, high + width + 1, width)
    counts, _ = np.histogram(values, bins=edges)
    return {
        "mean": float(values.mean()),
        "median": float(np.median(values)),
        "p10": float(np.percentile(values, 10)),
        "p90": float(np.percentile(values, 90)),
        "max": int(values.max()),
        "histogram": {"edges": [int(e) for e in edges], "counts": [int(k) for k in counts]},
    }


def _comparisons(variants: Sequence[dict[str, Any]], baseline: int) -> list[dict[str, Any]]:
    """Each variant's first-player win rate against the baseline's, Holm-corrected."""
    base = variants[baseline]
    found = []
    for index, variant in enumerate(variants):
        if index == baseline:
            continue
        test = two_proportion_test(
            variant["first_player_wins"],
            variant["games"],
            base["first_player_wins"],
            base["games"],
        )
        found.append(
            {
                "variant": index,
                "baseline": baseline,
                "label": variant["label"],
                "difference": test.difference,
                "ci": [test.low, test.high],
                "z": test.z,
                "p_value": test.p_value,
            }
        )
    adjusted = holm_adjust([c["p_value"] for c in found])
    for comparison, p in zip(found, adjusted, strict=True):
        comparison["p_adjusted"] = p
        comparison["significant"] = p < LEVEL
    return found


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


def _label(varied: dict[str, Any]) -> str:
    if not varied:
        return "default"
    parts = []
    for name, value in varied.items():
        text = "none" if value is None else str(value).lower() if isinstance(value, bool) else value
        parts.append(f"{name}={text}")
    return " ".join(parts)
