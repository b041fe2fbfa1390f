"""Compiled helpers that every game's random-play kernels share (see `ludoteca.core.playouts`).

They are plain typed functions (mypy checks them) compiled once here with numba's on-disk cache;
the kernels of every game call the compiled versions. They live apart from the slot numbers so
that reading those (as `ludoteca.core.game` does) never imports numba.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ludoteca.core.playouts import (
    CURVE_LENGTH,
    NUM_RECORD_COLUMNS,
    R_DECISIONS,
    R_FIRST_MOVER,
    R_LEGAL_MOVES,
    R_PLIES,
    R_SAFEGUARD,
    R_TURNS,
    R_WINNER,
    T_DECISIONS,
    T_DRAWS,
    T_LEGAL_MOVES,
    T_LONGEST,
    T_PLIES,
    T_SAFEGUARD,
    T_TURNS,
    T_WINS,
    Int64Array,
)


def _no_records() -> Int64Array:
    """The records array of a batch that keeps no records (``random_playouts``)."""
    return np.zeros((0, NUM_RECORD_COLUMNS), dtype=np.int64)


def _no_curve() -> Int64Array:
    """The curve array of a playout that keeps no legal-move curve (rollouts, totals)."""
    return np.zeros((2, 0), dtype=np.int64)


def _new_records(count: int) -> tuple[Int64Array, Int64Array]:
    """Zeroed records and curve arrays for ``count`` games."""
    records = np.zeros((count, NUM_RECORD_COLUMNS), dtype=np.int64)
    return records, np.zeros((2, CURVE_LENGTH), dtype=np.int64)


def _count_decision(
    totals: Int64Array, curve: Int64Array, decision: int, n: int, new_turn: bool
) -> None:
    """Count the ``decision``-th decision (from 0) of a playout, with ``n`` legal moves.

    Adds to the totals, and to the curve unless it has no bins; ``new_turn`` says whether this
    decision starts a turn.
    """
    totals[T_DECISIONS] += 1
    totals[T_LEGAL_MOVES] += n
    if new_turn:
        totals[T_TURNS] += 1
    bins = curve.shape[1]
    if bins > 0:
        d = min(decision, bins - 1)
        curve[0, d] += n
        curve[1, d] += 1


def _end_game(
    totals: Int64Array,
    before: Int64Array,
    records: Int64Array,
    row: int,
    winner: int,
    safeguard: bool,
    first_mover: int,
) -> None:
    """Book one finished game of a batch: longest, draws or wins, safeguard ends, its record.

    ``before`` holds ``totals[:T_WINS]`` as it was when the game started; ``records`` may have no
    rows (no records kept), else the game's row is ``row``.
    """
    plies = totals[T_PLIES] - before[T_PLIES]
    totals[T_LONGEST] = max(totals[T_LONGEST], plies)
    if winner < 0:
        totals[T_DRAWS] += 1
    else:
        totals[T_WINS + winner] += 1
    if safeguard:
        totals[T_SAFEGUARD] += 1
    if records.shape[0] > 0:
        records[row, R_PLIES] = plies
        records[row, R_DECISIONS] = totals[T_DECISIONS] - before[T_DECISIONS]
        records[row, R_LEGAL_MOVES] = totals[T_LEGAL_MOVES] - before[T_LEGAL_MOVES]
        records[row, R_TURNS] = totals[T_TURNS] - before[T_TURNS]
        records[row, R_WINNER] = winner
        records[row, R_SAFEGUARD] = 1 if safeguard else 0
        records[row, R_FIRST_MOVER] = first_mover


no_records = njit(cache=True)(_no_records)
no_curve = njit(cache=True)(_no_curve)
new_records = njit(cache=True)(_new_records)
count_decision = njit(cache=True)(_count_decision)
end_game = njit(cache=True)(_end_game)
