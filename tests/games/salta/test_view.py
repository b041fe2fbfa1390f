"""What the terminal shows of a Salta position (``str(state)``): the board and a status line."""

from __future__ import annotations

from tests.games.salta.test_rules import (
    BOTH_ONE_STEP_AWAY,
    SHARING_A_SQUARE,
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
