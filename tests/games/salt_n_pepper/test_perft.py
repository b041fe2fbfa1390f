"""Perft counts kept as data (`data/perft.txt`), computed through the public API.

The counts come from `tests.games.salt_n_pepper.reference`, which shares no code with the
engine. When a count is wrong the test fails with the per-move split ("divide") of the engine
next to the reference's, so the first move whose subtree differs is named.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.salt_n_pepper import reference
from tests.games.salt_n_pepper.helpers import make
from tests.support import PerftCase, assert_perft, read_perft_cases

PERFT_DATA = Path(__file__).parent / "data" / "perft.txt"
QUICK_LIMIT = 25_000


def reference_perft(
    board: reference.Board, side: int, ranks: int, sideways: bool, depth: int
) -> int:
    moves = reference.legal_moves(board, side, ranks, sideways)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        after = reference.played(board, side, move)
        if "SP"[side] in after.values():  # a side with no piece left has won
            total += reference_perft(after, 1 - side, ranks, sideways, depth - 1)
    return total


def reference_divide(case: PerftCase, depth: int) -> dict[str, int]:
    board = reference.read_board(case.text)
    side = "sp".index(case.text.split()[1])
    ranks = int(case.options.get("ranks", 10))
    sideways = case.options.get("pepper_sideways") == "true"
    return {
        move: reference_perft(
            reference.played(board, side, move), 1 - side, ranks, sideways, depth - 1
        )
        if depth > 1
        else 1
        for move in reference.legal_moves(board, side, ranks, sideways)
    }


def _params() -> list[object]:
    params: list[object] = []
    for case in read_perft_cases(PERFT_DATA):
        for depth, count in sorted(case.counts.items()):
            marks = [pytest.mark.slow] if count > QUICK_LIMIT else []
            params.append(pytest.param(case, depth, count, id=f"{case.name}-{depth}", marks=marks))
    return params


@pytest.mark.parametrize(("case", "depth", "expected"), _params())
def test_perft_counts_match_the_data(case: PerftCase, depth: int, expected: int) -> None:
    state = make(**case.options).parse_state(case.text)
    assert_perft(state, case.name, depth, expected, lambda: reference_divide(case, depth))


def test_the_data_file_has_every_case_in_full() -> None:
    cases = read_perft_cases(PERFT_DATA)
    assert {case.name for case in cases} >= {"start-salt-first", "start-pepper-sideways"}
    assert all(case.text and case.counts for case in cases)
