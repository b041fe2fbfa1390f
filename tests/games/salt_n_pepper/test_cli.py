"""Salt 'n' Pepper in the terminal, driven as a person would: typed lines in, text out."""

from __future__ import annotations

from pathlib import Path

import pytest

import ludoteca
from ludoteca import records
from tests.support import listed_moves, run


def test_two_people_play_after_a_typed_bag_draw(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "game.json"
    status, out, _ = run(
        capsys,
        ["play", "salt_n_pepper", "--dice", "manual"],
        "first-1",
        "a8-b7",  # Pepper was drawn: Salt's move is refused, nothing changes
        "moves",
        "a3-a4",
        "a8-b6",
        "a8-b7",
        f"save {saved}",
        "quit",
    )
    assert status == 0
    assert "Bag draw: who moves first?" in out
    assert "type the result (who starts: 0 or " in out
    assert "a8-b7: there is no Pepper piece on a8" in out
    pepper_first = ludoteca.make("salt_n_pepper").initial_state().apply("first-1")
    assert listed_moves(out) == [[move.text for move in pepper_first.legal_moves()]]
    assert "a Salt step goes exactly 1 square diagonally forward" in out
    assert "Pepper to move, ply 3." in out
    assert records.load(saved).moves == ("first-1", "a3-a4", "a8-b7")


def test_an_illegal_move_leaves_the_game_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, ["play", "salt_n_pepper", "-o", "first=0"], "a8-a7", "pass", "board", "moves"
    )
    assert status == 0
    assert "a Salt step goes exactly 1 square diagonally forward" in out
    assert "pass is only allowed when Salt has no move" in out
    assert out.count("Salt to move, ply 1.") == 2  # the start, and again on "board"
    salt_first = ludoteca.make("salt_n_pepper", first=0).initial_state()
    assert sorted(*listed_moves(out)) == sorted(move.text for move in salt_first.legal_moves())


def test_the_computer_plays_a_whole_game_with_the_program_drawing_first(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["play", "salt_n_pepper", "--p0", "random", "--p1", "random", "--seed", "5"]
    status, out, _ = run(capsys, argv)
    assert status == 0
    assert "starts (bag draw)." in out
    assert "Game over." in out and "brought all 15 pieces home" in out


def test_rules_shows_the_rules_page(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, ["rules", "salt_n_pepper"])
    assert status == 0
    assert "Martin H. Samuel" in out and "pepper_sideways" in out


def test_a_bad_option_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, ["play", "salt_n_pepper", "-o", "ranks=30"])
    assert status == 2
    assert "option 'ranks' does not accept '30'; accepted: an integer from 6 to 20" in err
    assert "Traceback" not in out + err


def test_a_saved_game_records_every_option_value(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "game.json"
    argv = ["play", "salt_n_pepper", "-o", "first=1", "-o", "pepper_sideways=true"]
    argv += ["-o", "ranks=8"]
    status, _, _ = run(capsys, argv, "a1-b1", f"save {saved}", "quit")
    assert status == 0
    record = records.load(saved)
    assert record.to_dict()["options"] == {
        "first": 1,
        "pepper_sideways": True,
        "ranks": 8,
        "max_plies": 2000,
    }
    assert record.moves == ("a1-b1",)
    assert record.final_state.to_text().endswith(" s 1 0")
