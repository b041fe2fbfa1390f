"""Perft counts kept as data (`data/perft.txt`), computed through the public API.

The counts come from `tests.games.salt_n_pepper.reference`, which shares no code with the
engine. When a count is wrong the test fails with the per-move split ("divide") of the engine
next to the reference's, so the first move whose subtree differs is named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

import ludoteca
from tests.games.salt_n_pepper import reference
from tests.games.salt_n_pepper.helpers import make

PERFT_DATA = Path(__file__).parent / "data" / "perft.txt"
QUICK_LIMIT = 25_000


@dataclass
class PerftCase:
    """One position of the data file with its options and expected counts by depth."""

    name: str
    options: dict[str, str] = field(default_factory=dict)
    text: str = ""
    counts: dict[int, int] = field(default_factory=dict)


def read_perft_cases(path: Path) -> list[PerftCase]:
    """Read the data file (format in its header)."""
    cases: list[PerftCase] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "id":
            cases.append(PerftCase(rest.strip()))
        elif keyword == "options" and cases:
            cases[-1].options = dict(item.split("=", 1) for item in rest.split())
        elif keyword == "position" and cases:
            cases[-1].text = rest.strip()
        elif keyword == "perft" and cases:
            depth, count = rest.split()
            cases[-1].counts[int(depth)] = int(count)
        else:
            raise ValueError(f"{path.name}:{number}: cannot read {line!r}")
    return cases


def perft(state: ludoteca.State, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``state`` (public API only)."""
    if state.is_over:
        return 0
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(state.apply(move), depth - 1) for move in moves)


def divide(state: ludoteca.State, depth: int) -> dict[str, int]:
    """Perft below each legal move: move text -> count at ``depth - 1`` after it."""
    return {
        move.text: perft(state.apply(move), depth - 1) if depth > 1 else 1
        for move in state.legal_moves()
    }


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
    got = perft(state, depth)
    if got != expected:
        engine, ref = divide(state, depth), reference_divide(case, depth)
        lines = [
            f"{move}: engine {engine.get(move)}, reference {ref.get(move)}"
            for move in sorted(set(engine) | set(ref))
            if engine.get(move) != ref.get(move)
        ]
        pytest.fail(
            f"perft {depth} of {case.name}: {got}, expected {expected}\n" + "\n".join(lines)
        )


def test_the_data_file_has_every_case_in_full() -> None:
    cases = read_perft_cases(PERFT_DATA)
    assert {case.name for case in cases} >= {"start-salt-first", "start-pepper-sideways"}
    assert all(case.text and case.counts for case in cases)
