"""Splinter in the terminal, driven as a person would: typed lines in, text out."""

from __future__ import annotations

from pathlib import Path

import pytest

import ludoteca
from ludoteca import records
from tests.support import flat, listed_moves, run_combined


def test_two_people_play_and_an_illegal_move_leaves_the_game_unchanged(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "splinter.json"
    status, out = run_combined(
        capsys,
        ["play", "splinter"],
        "moves",
        "h9-N",
        "moves",
        "h13-S",
        "moves",
        "f12-N",
        f"save {saved}",
        "quit",
    )
    assert status == 0
    assert "Splinter — Blue: human, Red: human" in out
    assert "Red to move, turn 2." in out
    assert "No return: h10 h11 h12 h13 moved N; not back S." in out
    refusal = (
        "h13-S: the Red circle on h13 would go back to h12, the square it left on Blue's last "
        "turn (the no-return rule)"
    )
    assert refusal in flat(out)  # wrapped to the terminal
    after_h9 = ludoteca.make("splinter").initial_state().apply("h9-N")
    start = ludoteca.make("splinter").initial_state()
    legal = sorted(move.text for move in after_h9.legal_moves())
    first, before, after = listed_moves(out)  # before and after the refused move: nothing changed
    assert sorted(first) == sorted(move.text for move in start.legal_moves())
    assert sorted(before) == sorted(after) == legal
    assert "Blue to move, turn 3." in out
    assert records.load(saved).moves == ("h9-N", "f12-N")


def test_a_syntax_error_shows_the_accepted_forms(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run_combined(capsys, ["play", "splinter"], "h9 north", "quit")
    assert "'h9 north' is not a move in Splinter notation; accepted forms: h9-NE" in out


def test_the_first_player_can_be_drawn_with_real_dice(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "splinter", "--dice", "manual", "-o", "first=random", "-o", "size=9x10"]
    _, out = run_combined(capsys, argv, "first-1", "e8-N", "quit")
    assert "type the result (who starts: 0 or " in out
    assert "Red to move, turn 1." in out and "Blue to move, turn 2." in out


def test_the_computer_plays_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "splinter", "--p0", "random", "--p1", "random", "--seed", "4"]
    status, out = run_combined(capsys, [*argv, "-o", "size=7x8"])
    assert status == 0
    assert "Game over." in out and ("wins:" in out or "Tie:" in out or "Draw:" in out)


def test_rules_and_games_list_splinter(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run_combined(capsys, ["rules", "splinter"])
    assert status == 0 and "Ed Nadel" in out and "Readings that are ours" in out
    _, out = run_combined(capsys, ["games"])
    assert "splinter" in out and "size=15x18" in out


def test_a_bad_option_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run_combined(capsys, ["play", "splinter", "-o", "size=16x18"])
    assert status == 2
    assert "option 'size' does not accept '16x18'; accepted: files x ranks" in out
