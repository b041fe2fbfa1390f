"""Every game's perft counts and golden playthroughs against the committed data.

The data files (``tests/games/<game>/data/perft.txt`` and ``golden.txt``) are written by one
generator for every game, ``python -m tools.golden``; its docstring describes them. A wrong
count fails with the per-move split ("divide"); a playthrough that differs names the first line
that does, with the position before it.
"""

from __future__ import annotations

import pytest
from tools import golden

import ludoteca
from tests import support

#: Counts above this run only with the slow tests.
QUICK_COUNT = 25_000

PERFT_CASES = [
    (game_id, case, depth)
    for game_id in sorted(golden.PERFT)
    for case in support.read_perft_cases(golden.data_path(game_id, golden.PERFT_FILE))
    for depth in sorted(case.counts)
]


def test_every_game_has_perft_data_and_golden_playthroughs() -> None:
    assert set(golden.PERFT) == set(ludoteca.GAMES)
    assert set(golden.GOLDEN) == set(ludoteca.GAMES)
    for game_id in ludoteca.GAMES:
        for name in golden.WRITERS:
            assert golden.data_path(game_id, name).is_file(), (
                f"run python -m tools.golden {game_id}"
            )


@pytest.mark.parametrize(
    ("game_id", "case", "depth"),
    [
        pytest.param(
            *item,
            id=f"{item[0]}-{item[1].name}-{item[2]}",
            marks=[pytest.mark.slow] if item[1].counts[item[2]] > QUICK_COUNT else [],
        )
        for item in PERFT_CASES
    ],
)
def test_perft(game_id: str, case: support.PerftCase, depth: int) -> None:
    state = ludoteca.make(game_id, **case.options).parse_state(case.text)
    count = support.perft(state, depth)
    if count != case.counts[depth]:
        split = "\n".join(f"{move:<16}{n:>10}" for move, n in support.divide(state, depth).items())
        pytest.fail(
            f"perft({game_id} {case.name}, {depth}) = {count}, expected {case.counts[depth]}\n"
            f"{state}\n{split}",
            pytrace=False,
        )


@pytest.mark.parametrize("game_id", sorted(golden.GOLDEN))
def test_golden_playthroughs(game_id: str) -> None:
    expected = golden.data_path(game_id, golden.GOLDEN_FILE).read_text().splitlines()
    played = golden.golden_file(game_id).splitlines()
    for number, (want, got) in enumerate(zip(expected, played, strict=False), start=1):
        if want != got:
            before = next(
                (line for line in reversed(played[: number - 1]) if line.startswith("position")),
                "",
            )
            pytest.fail(
                f"{game_id} golden.txt line {number} differs\n{before}\n"
                f"expected: {want}\n     got: {got}",
                pytrace=False,
            )
    assert len(played) == len(expected), f"{game_id}: {len(played)} lines, {len(expected)} kept"
