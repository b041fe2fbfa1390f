"""Pente Grammai puzzles: every shipped one proved by the solved table; making and playing them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from ludoteca.analysis.puzzle_generation import generate, generate_exact
from ludoteca.analysis.puzzles import (
    MARGIN,
    PuzzleError,
    check,
    clear_best,
    judge,
    load,
    move_chances,
)
from ludoteca.core import make
from tests.support import run_combined


@pytest.fixture(scope="module", autouse=True)
def own_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The solved table is solved into this module's own folder, never the user's cache."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LUDOTECA_CACHE", str(tmp_path_factory.mktemp("solution")))
        from ludoteca.games.pente_grammai import solver

        solver._solve_rules.cache_clear()
        yield
        solver._solve_rules.cache_clear()


def test_every_shipped_puzzle_is_proved_by_the_solved_table() -> None:
    game = make("pente_grammai")
    path = game.info.puzzles
    assert path is not None
    puzzles = load(game, path)
    assert len(puzzles) >= 100
    assert len({p.position.rsplit(" ", 1)[0] for p in puzzles}) == len(puzzles)
    problems = [problem for puzzle in puzzles for problem in check(game, puzzle)]
    assert problems == []
    for puzzle in puzzles:
        others = [c for m, c in puzzle.chances.items() if m != puzzle.solution]
        assert all(puzzle.chances[puzzle.solution] - c >= MARGIN for c in others)


def test_generating_is_deterministic_for_a_seed_and_only_clear_moves_qualify() -> None:
    game = make("pente_grammai")
    first = generate(game, 4, seed=5)
    assert first == generate(game, 4, seed=5)
    assert first != generate(game, 4, seed=6)
    assert all(check(game, puzzle) == [] for puzzle in first)
    assert clear_best({"a": 0.6, "b": 0.51}) is None
    assert clear_best({"a": 0.61, "b": 0.5}) == ("a", pytest.approx(0.11))
    assert clear_best({"a": 0.9}) is None


def test_exact_chances_are_refused_for_a_game_without_a_solved_table() -> None:
    with pytest.raises(PuzzleError, match="Salta is not solved"):
        move_chances(make("salta").initial_state())
    with pytest.raises(PuzzleError, match="Salta is not solved"):
        generate_exact(make("salta"), 1, seed=1)


def test_judging_says_why_with_the_exact_chances() -> None:
    game = make("pente_grammai")
    puzzle = load(game, game.info.puzzles or Path())[0]
    right, why = judge(game, puzzle, puzzle.solution)
    assert right and f"{puzzle.chances[puzzle.solution]:.1%}" in why
    other = next(m for m in puzzle.chances if m != puzzle.solution)
    right, why = judge(game, puzzle, other)
    assert not right and f"{puzzle.chances[other]:.1%}" in why and puzzle.solution in why


def test_the_commands(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "set.json"
    status, text = run_combined(
        capsys, ["puzzles", "generate", "pente_grammai", "--count", "3", "--out", str(out)]
    )
    assert status == 0 and "3 puzzles written to" in text and "3/3 puzzles · " in text
    written = json.loads(out.read_text())
    assert written["game"] == "pente_grammai" and len(written["puzzles"]) == 3
    first = load(make("pente_grammai"), out)[0]
    wrong = next(m for m in first.chances if m != first.solution)
    status, text = run_combined(
        capsys,
        ["puzzles", "play", "pente_grammai", "--file", str(out)],
        "hand-Z9",
        wrong,
        "skip",
        "q",
    )
    assert status == 0
    assert "Puzzle 1" in text and "not a move in Pente Grammai notation" in text
    assert "Not the best." in text and f"{first.solution} wins" in text
    assert "The solution:" in text and "Solved 0 of 1." in text
    status, text = run_combined(
        capsys, ["puzzles", "play", "pente_grammai", "--file", str(out)], first.solution
    )
    assert status == 0 and "Right!" in text and "Solved 1 of 1." in text
    status, text = run_combined(capsys, ["puzzles", "play", "steppin_stones"])
    assert status == 2 and "Steppin' Stones ships no puzzles" in text
