"""Tables of games written by hand, for tests whose right answer can be counted."""

from __future__ import annotations

import numpy as np

from ludoteca.analysis.study import GameTable
from ludoteca.analysis.study_games import CURVE_BINS


def table(winners: list[int], first_movers: list[int], plies: list[int] | None = None) -> GameTable:
    """A table of two-player games with these winners (-1: draw) and first movers."""
    n = len(winners)
    lengths = np.array(plies if plies is not None else [100] * n, dtype=np.int64)
    curve = np.zeros(CURVE_BINS, dtype=np.int64)
    curve[0] = n
    return GameTable(
        columns={
            "plies": lengths,
            "decisions": lengths,
            "turns": lengths,
            "legal_moves": 10 * lengths,
            "winner": np.array(winners, dtype=np.int64),
            "safeguard": np.zeros(n, dtype=np.bool_),
            "first_mover": np.array(first_movers, dtype=np.int64),
            "lead_changes": np.full(n, -1, dtype=np.int64),
            "decided_at": np.full(n, np.nan),
        },
        curve_sum=10 * curve,
        curve_count=curve,
    )
