"""Puzzles of the games without exact values: the acceptance rule, determinism, the shipped sets,
and playing them in the terminal (estimates worded as estimates).

The searches here use small budgets (`SMALL`): the rule and the determinism do not depend on
the budget, and the shipped sets were made with the real one (their files record it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ludoteca.ai.mcts import SearchResult
from ludoteca.analysis import puzzle_search
from ludoteca.analysis.puzzle_search import Budget, accepts, puzzles_of_game, verify, wins_at_once
from ludoteca.analysis.puzzles import PuzzleError, check, judge, load, load_set, percent
from ludoteca.core import make
from ludoteca.core.registry import game_class, game_ids
from tests.support import run_combined

SMALL = Budget(screen=200, deep=3_000, margin=0.10, noise=0.01)
ESTIMATED = [g for g in game_ids() if game_class(g).info.exact_values is None]
SHIPPED = [g for g in game_ids() if game_class(g).info.puzzles is not None]


def _result(values: dict[str, float], visits: dict[str, int]) -> SearchResult:
    state = make("salta").initial_state()
    move = state.legal_moves()[0]
    best = max(visits, key=lambda m: visits[m])
    return SearchResult(move, values[best], sum(visits.values()), visits, values)


def test_the_rule_accepts_a_clear_lead_and_refuses_near_equal_moves() -> None:
    clear = _result({"a": 0.5, "b": 0.1, "c": -0.2}, {"a": 900, "b": 60, "c": 40})
    # chances 0.75, 0.55, 0.40: a leads by 0.20
    accepted = accepts([clear, clear], 3, 0.10)
    assert accepted is not None and accepted[0] == "a" and accepted[1] == pytest.approx(0.20)
    close = _result({"a": 0.5, "b": 0.46, "c": -0.2}, {"a": 600, "b": 360, "c": 40})
    assert accepts([close], 3, 0.10) is None  # 0.75 against 0.73
    # A move left unvisited, two searches naming different moves, a best that is not the most
    # visited: each is refused.
    assert accepts([_result({"a": 0.5, "b": 0.1}, {"a": 900, "b": 60})], 3, 0.10) is None
    other = _result({"a": 0.1, "b": 0.5, "c": -0.2}, {"a": 60, "b": 900, "c": 40})
    assert accepts([clear, other], 3, 0.10) is None
    starved = _result({"a": 0.5, "b": 0.1, "c": -0.2}, {"a": 40, "b": 900, "c": 60})
    assert accepts([starved], 3, 0.10) is None
    assert accepts([clear], 3, 0.25) is None  # the margin counts


def test_a_real_win_at_once_is_accepted_and_an_opening_with_equal_moves_refused() -> None:
    game = make("salta")
    winning = next(
        p for p in load(game, game.info.puzzles or Path()) if 0 in (p.intervals or {}).values()
    )
    state = game.parse_state(winning.position)
    assert winning.solution in wins_at_once(state)
    found = verify(state, SMALL, (1, 2, 3))
    assert found is not None and found[0] == winning.solution and found[2][found[0]] == 1.0
    # Salt 'n' Pepper's opening: the first moves are worth about the same.
    snp = make("salt_n_pepper")
    opening = snp.initial_state()
    while opening.to_move is None or opening.to_move < 0:  # the bag draw of the first player
        opening = opening.apply(opening.chance_outcomes()[0][0])
    assert len(opening.legal_moves()) >= 2
    assert verify(opening, SMALL, (1, 2, 3)) is None


def test_a_game_of_puzzles_is_the_same_for_a_seed_and_in_parallel() -> None:
    first = puzzles_of_game("salta", {}, 10, 1, SMALL)
    assert first == puzzles_of_game("salta", {}, 10, 1, SMALL)
    assert first, "a Salta self-play game gives puzzles with this budget"
    for found in first:
        state = make("salta").parse_state(found.position)
        assert found.solution in {m.text for m in state.legal_moves()}
        others = [c for m, c in found.chances.items() if m != found.solution]
        assert all(found.chances[found.solution] - c >= SMALL.margin for c in others)
    serial, _ = puzzle_search.generate_found(make("salta"), 2, 10, SMALL, jobs=1)
    parallel, _ = puzzle_search.generate_found(make("salta"), 2, 10, SMALL, jobs=2)
    assert serial == parallel == first[:2]
    assert puzzles_of_game("salta", {}, 11, 1, SMALL) != first


def test_a_set_resumed_after_a_game_is_the_set_made_at_once(tmp_path: Path) -> None:
    game = make("salta")
    first = puzzles_of_game("salta", {}, 10, 1, SMALL)  # all that game 1 gives
    whole, games = puzzle_search.generate_found(game, len(first) + 1, 10, SMALL)
    resumed, again = puzzle_search.generate_found(
        game, len(first) + 1, 10, SMALL, found_before=first, games_before=1
    )
    assert resumed == whole and again == games
    # A file left by --keep records its games; one that does not is resumed after the game of
    # its last puzzle, with the margin and the budget its header records.
    shipped = game.info.puzzles
    assert shipped is not None
    data = json.loads(Path(shipped).read_text(encoding="utf-8"))
    data.pop("games", None)
    path = tmp_path / "salta.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    left = load_set(game, path, data["seed"])
    last = int(data["puzzles"][-1]["source"].split("game ")[1].split(",")[0])
    assert left.header["games"] == last and len(left.puzzles) == len(data["puzzles"])
    assert puzzle_search.budget_of_header(left.header).margin == data["margin"]
    with pytest.raises(PuzzleError, match="resuming needs seed 2"):
        load_set(game, path, 2)


def test_noise_sets_the_margin() -> None:
    noise = puzzle_search.Noise(3, 4, [0.01, 0.03], [0.02], [[0.3, 0.31]], unstable=1)
    assert noise.margin() == pytest.approx(max(0.10, 4 * 0.03))
    wide = puzzle_search.Noise(3, 4, [0.05], [0.02], [[0.3]], unstable=0)
    assert wide.margin() == pytest.approx(0.20)
    assert noise.summary()["unstable"] == 1


@pytest.mark.parametrize("game_id", SHIPPED)
def test_every_shipped_puzzle_parses_and_its_solution_is_legal(game_id: str) -> None:
    game = make(game_id)
    path = game.info.puzzles
    assert path is not None
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    puzzles = load(game, Path(path))
    assert puzzles and len({p.position.rsplit(" ", 1)[0] for p in puzzles}) == len(puzzles)
    for puzzle in puzzles:
        state = game.parse_state(puzzle.position)
        assert state.parse_move(puzzle.solution).text == puzzle.solution
        assert game.player_names[state.to_move or 0] == puzzle.to_move
    if game_id in ESTIMATED:
        assert data["method"]["kind"] == "estimate" and data["margin"] >= 0.10
        assert data["method"]["deep_iterations"] >= 10 * 5_000
        assert [p for puzzle in puzzles for p in check(game, puzzle)] == []
        assert all(p.estimate and p.margin >= data["margin"] - 1e-4 for p in puzzles)


def test_estimates_are_worded_as_estimates() -> None:
    assert percent(0.7123) == "71.2%"
    assert percent(0.7123, 0.031) == "about 71 % ± 3"
    assert percent(1.0, 0.0) == "exactly 100 %"
    game = make("salta")
    puzzle = load(game, game.info.puzzles or Path())[0]
    right, why = judge(game, puzzle, puzzle.solution)
    assert right and "about" in why and "the engine's estimates: MCTS" in why
    wrong = next(m for m in puzzle.chances if m != puzzle.solution)
    right, why = judge(game, puzzle, wrong)
    assert not right and wrong in why and puzzle.solution in why and "about" in why


def test_playing_salta_puzzles_in_the_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = make("salta")
    first = load(game, game.info.puzzles or Path())[0]
    wrong = next(m for m in first.chances if m != first.solution)
    status, text = run_combined(capsys, ["puzzles", "play", "salta"], wrong, "q")
    assert status == 0 and "Not the best." in text and "about" in text
    assert f"{first.solution} wins " in text and "Solved 0 of 1." in text
    status, text = run_combined(capsys, ["puzzles", "play", "salta"], first.solution)
    assert status == 0 and "Right!" in text and "estimate" in text
    status, text = run_combined(
        capsys, ["puzzles", "generate", "salta", "--count", "1", "--jobs", "0"]
    )
    assert status == 2 and "--jobs must be from 1 to 64" in text
    status, text = run_combined(capsys, ["puzzles", "play", "steppin_stones"])
    assert status == 2 and "Steppin' Stones ships no puzzles" in text
