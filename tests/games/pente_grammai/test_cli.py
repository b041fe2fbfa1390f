"""Pente Grammai in the terminal, driven as a person would: typed lines in, text out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ludoteca import records
from tests.support import listed_moves, run


def test_a_game_with_a_real_die_refuses_an_illegal_move_and_carries_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "pente.json"
    status, out, _ = run(
        capsys,
        ["play", "pente_grammai", "--dice", "manual", "--option", "first=0"],
        "d7",
        "d4",
        "W1-W5",
        "hand-W3",
        "moves",
        "hand-W4",
        "d6",
        "hand-W1",
        f"save {saved}",
        "quit",
    )
    assert status == 0
    assert "Roll: type the result (1 to 6, or d1 to d6)" in out
    assert "'d7' is not a roll here; type 1 to 6, or d1 to d6" in out
    assert "White rolled a 4. Legal moves: hand-W4" in out
    assert "W1-W5: there is no White counter on W1" in out
    assert "hand-W3: for White a 4 enters on W4, not on W3" in out
    assert "Legal moves: hand-W4" in out  # the refused moves changed nothing
    assert "Blue rolled a 6. Legal moves: hand-W1" in out
    record = records.load(saved)
    assert record.moves == ("d4", "hand-W4", "d6", "hand-W1")
    assert record.final_state.to_text() == "b/././w/./././././. 4 4 0 0 w - 4"


def test_the_program_rolls_the_die_and_the_first_player_from_a_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(
        capsys, ["play", "pente_grammai", "--p1", "random", "--seed", "3"], "moves", "quit"
    )
    assert status == 0
    assert re.search(r"(White|Blue) starts\. Rolled [1-6]\.", out)
    assert all(move.startswith("hand-") for move in listed_moves(out)[0])
    again = run(capsys, ["play", "pente_grammai", "--p1", "random", "--seed", "3"], "moves", "quit")
    played = out.split("The game is autosaved in")[0]  # each game has its own autosave file
    assert again[1].split("The game is autosaved in")[0] == played


def test_a_saved_game_can_be_continued(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    argv = ["play", "pente_grammai", "--dice", "manual"]
    run(capsys, argv, "first-1", "d2", "hand-B2", f"save {saved}")
    _, out, _ = run(capsys, [*argv, "--load", str(saved)], "d5", "hand-W5", f"save {saved}")
    assert "White rolled a 5. Legal moves: hand-W5" in out
    assert records.load(saved).moves == ("first-1", "d2", "hand-B2", "d5", "hand-W5")


def test_computer_against_computer_plays_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "pente_grammai", "--p0", "random", "--p1", "random", "--seed", "2"]
    status, out, _ = run(capsys, [*argv, "--option", "sacred=storage"])
    assert status == 0
    assert "Game over." in out


def test_a_bad_option_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, ["play", "pente_grammai", "--option", "sacred=ludii"])
    assert status == 2
    assert "accepted: one of schaedler, storage" in err
    assert "Traceback" not in out + err


def test_the_rules_page_is_shown(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, ["rules", "pente_grammai"])
    assert status == 0
    assert "Schädler" in out and "sacred line" in out
