"""The configurations ``ludoteca bench`` measures.

Each game's default options, then the rows a game declares of its own (`ludoteca.core.BenchRow`
in its `GameInfo`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ludoteca.core.registry import game_class, game_ids


@dataclass(frozen=True, slots=True)
class Row:
    """One configuration to measure: a game with options, and what the row shows."""

    game: str
    options: dict[str, Any]
    label: str
    measures: str


def default_rows(ids: Sequence[str] | None = None) -> list[Row]:
    """Each game's default options, then the rows those games declare (`GameInfo.bench_rows`)."""
    chosen = list(game_ids()) if ids is None else list(ids)
    rows = [
        Row(game_id, {}, "defaults", "uniformly random games from the start, default options")
        for game_id in chosen
    ]
    rows += [
        Row(game_id, dict(extra.options), extra.label, extra.measures)
        for game_id in game_ids()
        if game_id in chosen
        for extra in game_class(game_id).info.bench_rows
    ]
    return rows
