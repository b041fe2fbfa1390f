"""Steppin' Stones in the terminal: ``ludoteca play steppin_stones`` as a solitaire."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludoteca import records
from tests.support import listed_moves, run_combined


def test_the_designers_turn_with_real_dice_and_a_refused_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "stones.json"
    status, out = run_combined(
        capsys,
        ["play", "steppin_stones", "--dice", "manual"],
        "S* M0 C4 A2",
        "end",
        "moves",
        "S2:b6-c5",
        "S4:c7-a5",
        "flip:S2",
        "end",
        f"save {saved}",
        "quit",
    )
    assert status == 0
    assert "Steppin' Stones — Player: human." in out
    assert "Roll: type the result (like S5 M5 C5 A5 or 5555; 1296 outcomes)" in out
    assert "end: the S* must be honoured first by turning a Sun coin into a stepping stone" in out
    # the refused move changed nothing: the same legal moves, the flips still among them
    listed = listed_moves(out)[-1]
    assert "A4:c2-b1" in listed and "flip:S5" in listed and "end" not in listed
    assert "  S*  honoured: a coin turned" in out
    record = records.load(saved)
    assert record.moves == ("S* M0 C4 A2", "S2:b6-c5", "S4:c7-a5", "flip:S2", "end")
    assert record.players == ("human",)
    assert record.final_state.to_text().endswith(" 1 roll1")


def test_the_program_rolls_the_dice_and_the_player_may_resign(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out = run_combined(capsys, ["play", "steppin_stones", "--seed", "4"], "resign", "quit")
    assert status == 0
    assert "Rolled S" in out
    assert "Lost: the player resigned.\n" in out and "Game over." in out
    assert out.count("the player resigned") == 1  # the result is printed once


def test_a_computer_player_plays_a_whole_solitaire(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run_combined(
        capsys,
        ["play", "steppin_stones", "--p0", "random", "--seed", "2", "-o", "max_turns=3"],
    )
    assert status == 0
    assert "Player (random) played" in out
    assert "Lost: engine safeguard: 3 turns played" in out and "Game over." in out


def test_the_rules_page_is_shown(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run_combined(capsys, ["rules", "steppin_stones"])
    assert status == 0
    assert "Ken Maher" in out and "piecepack" in out


def test_a_bad_option_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run_combined(capsys, ["play", "steppin_stones", "-o", "aces=3"])
    assert status == 2
    assert "option 'aces' does not accept '3'; accepted: one of 0, 2, 4" in out
