"""Golden playthroughs and random playouts of Steppin' Stones.

A playthrough is a seeded random game recorded ply by ply in ``data/playthroughs.txt``: the
dice come from `ludoteca.core.chance.sample_outcome` and the moves from ``rng.choice`` over
``legal_moves()``, both driven by one ``random.Random(seed)``. The file changes only when the
rules (or the order of the legal moves) change; a mismatch names the first ply that differs.
To rewrite the file after a deliberate change, run
``python -m tests.games.steppin_stones.test_playthroughs``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import ludoteca
from ludoteca.core.chance import sample_outcome
from tests.games.steppin_stones.diagrams import position
from tests.games.steppin_stones.positions import PHASE_TWO

DATA = Path(__file__).parent / "data" / "playthroughs.txt"

# name -> (options, start position text or None for the start, seed, plies)
PLAYTHROUGHS: dict[str, tuple[dict[str, object], str | None, int, int]] = {
    "from-the-start": ({}, None, 7, 120),
    "phase-two": ({}, position(PHASE_TWO, "roll2 S M C A"), 3, 120),
    "large-board-four-aces": ({"large_board": True, "aces": 4}, None, 11, 80),
}


def playthrough(name: str) -> list[str]:
    """The lines of one playthrough: ``<ply> <move> | <position text after it>``."""
    options, start, seed, plies = PLAYTHROUGHS[name]
    game = ludoteca.make("steppin_stones", **options)
    state = game.initial_state() if start is None else game.parse_state(start)
    rng = random.Random(seed)
    lines = [f"{name} start | {state.to_text()}"]
    for ply in range(1, plies + 1):
        if state.is_over:
            break
        if state.to_move == ludoteca.CHANCE:
            move = sample_outcome(state, rng)
        else:
            move = rng.choice(state.legal_moves())
        state = state.apply(move)
        lines.append(f"{name} {ply} {move} | {state.to_text()}")
    return lines


def recorded(name: str) -> list[str]:
    return [line for line in DATA.read_text().splitlines() if line.startswith(f"{name} ")]


@pytest.mark.parametrize("name", PLAYTHROUGHS)
def test_a_seeded_game_plays_as_recorded(name: str) -> None:
    expected, got = recorded(name), playthrough(name)
    assert expected, f"no playthrough {name!r} in {DATA}"
    for want, have in zip(expected, got, strict=False):
        assert have == want, f"first difference:\nrecorded: {want}\nplayed:   {have}"
    assert len(got) == len(expected)


def test_random_playouts_are_seeded_and_add_up() -> None:
    game = ludoteca.make("steppin_stones", max_turns=40)
    stats = game.random_playouts(20, seed=5)
    assert stats == game.random_playouts(20, seed=5)
    assert stats.games == 20
    assert sum(stats.wins) + stats.draws == 20  # a solitaire: draws count the lost games
    assert stats.decisions < stats.plies <= 20 * stats.longest
    assert stats.legal_moves >= stats.decisions


@pytest.mark.parametrize(
    "options",
    [{"stones": "highest"}, {"aces": 4, "aces_as_stones": True}, {"large_board": True}],
)
def test_random_playouts_run_under_every_option(options: dict[str, object]) -> None:
    stats = ludoteca.make("steppin_stones", max_turns=30, **options).random_playouts(5, seed=1)
    assert stats.games == 5 and stats.plies > 0


if __name__ == "__main__":  # rewrite the golden file
    lines = [
        "# Steppin' Stones golden playthroughs (tests/games/steppin_stones/test_playthroughs.py)."
    ]
    for name in PLAYTHROUGHS:
        lines += playthrough(name)
    DATA.write_text("\n".join(lines) + "\n")
    sys.stdout.write(f"wrote {len(lines)} lines to {DATA}\n")
