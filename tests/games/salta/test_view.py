"""What Salta shows: the terminal's board and status line (``str(state)``), and the front ends'
drawing and click paths (`ludoteca.games.salta.view`)."""

from __future__ import annotations

from collections import Counter

from ludoteca.games.salta.view import click_paths, drawing
from tests.games.salta.test_rules import (
    BOTH_ONE_STEP_AWAY,
    SHARING_A_SQUARE,
    TWO_JUMPS,
    WALLED_IN,
    make,
    state_at,
)
from tests.support import play

START_BOARD = """\
10    s5    s4    s3    s2    s1
 9 m5    m4    m3    m2    m1
 8    o5    o4    o3    o2    o1
 7  .     .     .     .     .
 6     .     .     .     .     .
 5  .     .     .     .     .
 4     .     .     .     .     .
 3 O1    O2    O3    O4    O5
 2    M1    M2    M3    M4    M5
 1 S1    S2    S3    S4    S5
    a  b  c  d  e  f  g  h  i  j
Green to move, ply 1."""


def test_the_board_is_drawn_with_coordinates_dark_squares_only() -> None:
    assert str(make().initial_state()) == START_BOARD


def test_the_status_line_says_whose_turn_it_is() -> None:
    state = make().initial_state().apply("c3-d4")
    assert str(state).splitlines()[-1] == "Red to move, ply 2."
    assert " 4     .    O2     .     .     ." in str(state)


def test_the_status_line_announces_reds_extra_move() -> None:
    state = state_at(BOTH_ONE_STEP_AWAY, 100).apply("a7-b8")
    assert str(state).splitlines()[-1] == "Red to move, ply 102 (Red's extra move)."


def test_the_status_line_gives_the_result_with_its_reason() -> None:
    drawn = play(state_at(BOTH_ONE_STEP_AWAY, 100), "a7-b8", "b4-a3")
    assert str(drawn).splitlines()[-1] == (
        "Draw: Green reached its goal and Red reached its own with the extra move: a draw."
    )
    red_won = state_at(BOTH_ONE_STEP_AWAY, 101).apply("b4-a3")
    assert str(red_won).splitlines()[-1] == "Red wins: Red reached its goal first."


def test_the_status_line_shows_the_scoring_counts() -> None:
    state = state_at(WALLED_IN, 6, (2, 3), move_limit=2)
    assert str(state).splitlines()[-1] == (
        "Green to move, ply 7 (scoring phase: Green 2 moves, Red 3 moves)."
    )


def test_a_shared_square_widens_every_cell_and_keeps_the_columns() -> None:
    lines = str(state_at(SHARING_A_SQUARE, 4, (0, 0), move_limit=2).apply("a7-b8")).splitlines()
    rank_8, files = lines[2], lines[10]
    assert rank_8 == " 8       S1+s5          S2          S3          S4          S5"
    assert files == "       a     b     c     d     e     f     g     h     i     j"
    assert rank_8.index("S1+s5") + len("S1+s5") == files.index("b") + 1


# -- the front ends' drawing and click paths ------------------------------------------------------


def test_salta_start_shows_15_green_and_15_red_pieces_with_their_numbers() -> None:
    pieces = drawing(make().initial_state()).pieces
    assert Counter(piece.style for piece in pieces) == {"green": 15, "red": 15}
    assert Counter((piece.shape, piece.text) for piece in pieces) == {
        (shape, str(number)): 2 for shape in ("star", "moon", "sun") for number in range(1, 6)
    }
    by_label = {piece.label: piece for piece in pieces}
    assert len(by_label) == 30  # every piece has its own name
    assert by_label["Green Star 3"].region == "e1"
    assert by_label["Red Sun 1"].region == "j8"
    assert by_label["Red Moon 5"].owner == 1


def test_the_board_is_ten_by_ten_squares_with_coordinates_around_it() -> None:
    picture = drawing(make().initial_state())
    assert len(picture.regions) == 100
    a1, j10 = picture.region("a1"), picture.region("j10")
    assert (a1.style, j10.style, picture.region("b1").style) == ("dark", "dark", "light")
    assert a1.y > j10.y and a1.x < j10.x  # rank 10 at the top, file a at the left
    texts = {mark.text for mark in picture.marks if mark.style == "coordinate"}
    assert texts == set("abcdefghij") | {str(rank) for rank in range(1, 11)}


def test_a_square_label_names_its_piece_and_whose_goal_it_is() -> None:
    picture = drawing(make().initial_state())
    assert picture.region("b8").label == "b8, dark square, Red Sun 5, goal of Green Star 1"
    assert picture.region("d4").label == "d4, dark square"


def test_a_step_is_clicked_as_origin_then_destination() -> None:
    paths = click_paths(make().initial_state())
    assert paths["c3-d4"] == ("c3", "d4")
    assert len(paths) == 9


def test_a_jumps_path_is_origin_then_landing() -> None:
    assert click_paths(state_at(TWO_JUMPS, 10)) == {
        "c3xe5": ("c3", "e5"),
        "e3xc5": ("e3", "c5"),
    }


def test_a_pass_has_no_click() -> None:
    assert click_paths(state_at(WALLED_IN, 41)) == {"pass": ()}


def test_the_status_and_notes_give_the_turn_the_move_count_and_the_goals() -> None:
    picture = drawing(make().initial_state().apply("c3-d4"))
    assert picture.status == "Red to move, ply 2."
    assert picture.notes == (
        "Moves played: Green 1, Red 0 (the 120-move rule after 120 moves each).",
        "Pieces on their goal squares: Green 0/15, Red 0/15.",
    )
    assert drawing(make(move_limit=None, max_plies=400).initial_state()).notes[0] == (
        "Moves played: Green 0, Red 0 (no move limit)."
    )


def test_two_pieces_sharing_a_square_in_the_scoring_phase_are_both_drawn() -> None:
    state = state_at(SHARING_A_SQUARE, 4, (0, 0), move_limit=2).apply("a7-b8")
    picture = drawing(state)
    on_b8 = [piece.label for piece in picture.pieces if piece.region == "b8"]
    assert on_b8 == ["Green Star 1", "Red Star 5"]
    assert "Green Star 1, Red Star 5" in picture.region("b8").label
    assert len(picture.pieces) == 30
