"""Whole-turn puzzles of the solitaire (Steppin' Stones): listing the turns of a roll, the
acceptance rule, determinism at a small budget, and judging an answer.

The position `LAST_TURN` is an endgame of a real self-play game with its turn count set to the
last turn the engine's safeguard allows (``max_turns`` 500): only the one turn that brings the
Arms pawn home wins, and every other turn loses at once, so the values are exact and a tiny
budget makes a real puzzle of it. `EARLIER` is the same board three turns before the limit,
where the self-play goes on by itself and the turns' values are read by playouts.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ludoteca.analysis import puzzle_turns
from ludoteca.analysis.puzzle_generation import generate_set
from ludoteca.analysis.puzzle_turns import (
    Reading,
    TurnBudget,
    TurnError,
    clear,
    margin_for,
    play_turn,
    puzzles_of_game,
    screen,
    screen_order,
    split_turn,
    turns,
    verify,
)
from ludoteca.analysis.puzzles import Puzzle, PuzzleError, check, judge, load, save
from ludoteca.core import make
from ludoteca.core.errors import IllegalMoveError
from tests.support import run_combined

BOARD = "......s./.SPsss.MP./......m./sc.m..m./....a.m./c.AP+aaccc./..a..mCP./.a......"
LAST_TURN = f"{BOARD} 499 play2 A2"
EARLIER = f"{BOARD} 497 roll2 A"
TINY = TurnBudget(screen=4, verify=8, max_outcomes=100, least_margin=0.10)


def test_the_turns_of_a_roll_are_listed_once_each_with_a_turn_that_leaves_them() -> None:
    state = make("steppin_stones").parse_state(LAST_TURN)
    outcomes = turns(state, max_outcomes=200)
    assert outcomes is not None and len(outcomes) > 10
    texts = [text for text, _ in outcomes.values()]
    assert len(set(texts)) == len(texts) and "end" in texts
    for key, (text, after) in outcomes.items():
        _, left = play_turn(state, split_turn(text))
        assert left.to_text() == key == after.to_text()
    assert turns(state, max_outcomes=5) is None  # too many to judge: not listed


def test_a_turn_must_be_legal_and_whole() -> None:
    state = make("steppin_stones").parse_state(LAST_TURN)
    with pytest.raises(TurnError, match="not finished"):
        play_turn(state, ["AP:c3-d3"])
    with pytest.raises(TurnError, match="one too many"):
        play_turn(state, ["end", "end"])
    with pytest.raises(IllegalMoveError, match="move 1 of the turn: .*no such path"):
        play_turn(state, ["AP:c3-h8"])


def test_the_rule_wants_a_lead_by_the_margin_with_intervals_apart() -> None:
    def reading(won: dict[str, int], games: int, exact: frozenset[str] = frozenset()) -> Reading:
        return Reading(won, {t: 1 if t in exact else games for t in won}, exact)

    assert clear(reading({"a": 380, "b": 200, "c": 150}, 400), 0.15) == ("a", pytest.approx(0.45))
    assert clear(reading({"a": 380, "b": 350}, 400), 0.15) is None  # 0.95 against 0.875
    assert clear(reading({"a": 7, "b": 4}, 8), 0.15) is None  # lead 0.375, intervals overlap
    win = reading({"win": 1, "b": 300}, 400, frozenset({"win"}))
    assert clear(win, 0.15) == ("win", pytest.approx(0.25))  # exact 1 against 0.75
    assert clear(reading({"a": 380}, 400), 0.15) is None  # one turn: nothing to find


def test_the_margin_is_four_times_the_largest_spread_of_a_lead() -> None:
    assert margin_for(400) == pytest.approx(0.15)  # 4 * sqrt(0.5 / 400) = 0.141
    assert margin_for(100_000) == pytest.approx(0.10)
    assert TurnBudget(verify=400, least_margin=0.3).margin == pytest.approx(0.3)


def test_the_last_turn_is_verified_exactly() -> None:
    state = make("steppin_stones").parse_state(LAST_TURN)
    outcomes = turns(state, max_outcomes=200)
    assert outcomes is not None
    found = verify(outcomes, TINY, (1, 2))
    assert found is not None
    best, lead, chances, intervals, gap = found
    assert best == "AP:c3-b2" and chances[best] == 1.0 and lead == 1.0 and gap == 0.0
    assert set(intervals.values()) == {0.0}  # every value is exact here


def test_the_screen_reads_the_most_promising_turns_first_and_gives_up_early() -> None:
    game = make("steppin_stones")
    last = turns(game.parse_state(LAST_TURN), max_outcomes=200)
    assert last is not None
    order = [text for text, _ in screen_order(last)]
    assert order[0] == "AP:c3-b2"  # the win, then the turns that lose at once
    assert screen(last, TINY, 1)  # every turn read: one wins, every other loses
    # Two turns earlier every turn still has time to win, so the two read first are alike.
    earlier = turns(game.parse_state(f"{BOARD} 497 play2 A2"), max_outcomes=200)
    assert earlier is not None and not screen(earlier, TINY, 1)


def test_self_play_gives_the_same_puzzles_for_a_seed() -> None:
    first = puzzles_of_game("steppin_stones", {}, 3, 1, TINY, start=EARLIER)
    assert first == puzzles_of_game("steppin_stones", {}, 3, 1, TINY, start=EARLIER)
    game = make("steppin_stones")
    for found in first:
        state = game.parse_state(found.position)
        assert play_turn(state, split_turn(found.solution))
        others = [c for t, c in found.chances.items() if t != found.solution]
        assert all(found.chances[found.solution] - c >= TINY.margin for c in others)
    rolls = [s.to_text() for s, _ in puzzle_turns.self_play(game, 3, 1, EARLIER)]
    assert rolls == [s.to_text() for s, _ in puzzle_turns.self_play(game, 3, 1, EARLIER)]
    assert rolls != [s.to_text() for s, _ in puzzle_turns.self_play(game, 4, 1, EARLIER)]


def _last_turn_puzzle() -> Puzzle:
    state = make("steppin_stones").parse_state(LAST_TURN)
    outcomes = turns(state, max_outcomes=200)
    assert outcomes is not None
    found = verify(outcomes, TINY, (1, 2))
    assert found is not None
    best, lead, chances, intervals, _ = found
    return Puzzle(
        id="steppin_stones-1",
        position=LAST_TURN,
        to_move="Player",
        solution=best,
        chances=chances,
        margin=lead,
        source="test",
        estimate=TINY.describe(),
        intervals=intervals,
        turn=True,
    )


def test_the_solution_is_accepted_and_another_turn_refused_with_why(tmp_path: Path) -> None:
    game = make("steppin_stones")
    puzzle = _last_turn_puzzle()
    path = tmp_path / "turns.json"
    save(game, 1, [puzzle], path, {"margin": TINY.margin})
    (loaded,) = load(game, path)
    assert loaded == puzzle and check(game, loaded) == []
    right, why = judge(game, loaded, "ap:c3-b2")
    assert right and "exactly 100 %" in why
    right, why = judge(game, loaded, ["A:b1-a1", "A:c2-b2", "end"])
    assert not right
    assert "A:b1-a1, A:c2-b2, end leaves a position that wins exactly 0 %" in why
    assert "AP:c3-b2 wins exactly 100 %" in why
    with pytest.raises(TurnError, match="not finished"):
        judge(game, loaded, ["A:b1-a1"])
    # The same position by another order of moves is the same turn.
    right, why = judge(game, loaded, "A:c2-b2, A:b1-a1, end")
    assert not right and why.startswith(
        "A:c2-b2, A:b1-a1, end leaves a position that wins exactly 0 %"
    )


def test_a_check_finds_a_solution_that_does_not_lead() -> None:
    wrong = replace(_last_turn_puzzle(), solution="end")
    assert any("does not lead" in problem for problem in check(make("steppin_stones"), wrong))


def test_a_set_needs_expert_playouts_and_counts_what_it_found() -> None:
    with pytest.raises(PuzzleError, match="only 0 puzzles in 1 games"):
        generate_set(make("steppin_stones", max_turns=1), 1, 1, max_games=1)


def test_a_turn_puzzle_is_played_in_the_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = make("steppin_stones")
    path = tmp_path / "turns.json"
    save(game, 1, [_last_turn_puzzle()], path, {"margin": TINY.margin})
    command = ["puzzles", "play", "steppin_stones", "--file", str(path)]
    status, text = run_combined(capsys, command, "A:b1-a1", "A:b1-a1, A:c2-b2, end", "q")
    assert status == 0 and "whole turn" in text and "your turn>" in text
    assert "the turn is not finished" in text
    assert "Not the best." in text and "AP:c3-b2 wins exactly 100 %" in text
    status, text = run_combined(capsys, command, "AP:c3-b2")
    assert status == 0 and "Right!" in text and "Solved 1 of 1." in text
