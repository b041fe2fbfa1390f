"""How pieces move: the openings, steps, leaps and what is never allowed (RULES.md).

Diagrams put rank 10 at the top; ``S`` is Salt (dark squares, moving down), ``P`` Pepper (moving
up). Pieces not drawn are home. a1 is light: a square is dark when file + rank is odd (a = 1).
"""

from __future__ import annotations

from tests.games.salt_n_pepper.helpers import PEPPER, SALT, make, state_at
from tests.support import moves, play, refused

# -- the openings -------------------------------------------------------------------------------


def test_salt_has_the_nine_opening_moves_of_its_front_rank() -> None:
    state = make(first=0).initial_state()
    assert state.to_move == SALT
    assert moves(state) == {
        "a8-b7", "c8-b7", "c8-d7", "e8-d7", "e8-f7", "g8-f7", "g8-h7", "i8-h7", "i8-j7",
    }  # fmt: skip


def test_pepper_has_fifteen_opening_moves_one_straight_up_per_piece() -> None:
    state = make(first=1).initial_state()
    assert state.to_move == PEPPER
    assert moves(state) == {
        "a1-a2", "c1-c2", "e1-e2", "g1-g2", "i1-i2",
        "b2-b3", "d2-d3", "f2-f3", "h2-h3", "j2-j3",
        "a3-a4", "c3-c4", "e3-e4", "g3-g4", "i3-i4",
    }  # fmt: skip


def test_pepper_sideways_gives_forty_two_opening_moves() -> None:
    state = make(first=1, pepper_sideways=True).initial_state()
    sideways = moves(state) - moves(make(first=1).initial_state())
    assert len(state.legal_moves()) == 42
    assert len(sideways) == 27  # 15 pieces, two ways each, less the 3 at the edges
    assert {"a1-b1", "c1-b1", "c1-d1", "j2-i2", "i3-j3"} <= sideways


# -- steps --------------------------------------------------------------------------------------

# Salt's d5 in the open; Salt's e2 near its back rank; Pepper's e3 with Salt's e2 just behind it
# (e1 empty), and Pepper's e6 with f7 empty diagonally above Salt's d5.
OPEN = """
10 .  .  .  .  .  .  .  .  .  .
 9 .  .  .  .  .  .  .  .  .  .
 8 .  .  .  .  .  .  .  .  .  .
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  P  .  .  .  .  .
 5 .  .  .  S  .  .  .  .  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 .  .  .  .  P  .  .  .  .  .
 2 .  .  .  .  S  .  .  .  .  .
 1 .  .  .  .  .  .  .  .  .  .
"""


def test_salt_steps_one_square_diagonally_forward_only() -> None:
    assert moves(state_at(OPEN, "s")) == {"d5-c4", "d5-e4", "e2-d1", "e2-f1"}


def test_pepper_steps_one_square_straight_up_only() -> None:
    assert moves(state_at(OPEN, "p")) == {"e6-e7", "e3-e4"}


def test_salt_never_moves_backward_or_sideways() -> None:
    state = state_at(OPEN, "s")
    for text in ("d5-c6", "d5-e6", "d5-d4", "d5-d6", "d5-c5"):
        assert "a Salt step goes exactly 1 square diagonally forward (down" in refused(state, text)


def test_pepper_never_moves_down_and_sideways_needs_the_option() -> None:
    state = state_at(OPEN, "p")
    assert "sideways only with the pepper_sideways option" in refused(state, "e3-d3")
    assert "straight up (sideways" in refused(state, "e6-e5")
    assert "straight up or sideways (never down)" in refused(
        state_at(OPEN, "p", pepper_sideways=True), "e6-e5"
    )


def test_a_step_needs_an_empty_square() -> None:
    state = play(make(first=0).initial_state(), "a8-b7")
    assert "b7 is occupied" in refused(play(state, "a3-a4"), "c8-b7")


def test_a_step_moves_one_piece_and_passes_the_turn() -> None:
    state = play(state_at(OPEN, "s"), "d5-c4")
    assert state.to_move == PEPPER
    assert state.squares(SALT) == ("e2", "c4")
    assert state.squares(PEPPER) == ("e3", "e6")


# -- leaps --------------------------------------------------------------------------------------

# Salt's d5 can leap over Pepper's c4 to b3, or step to e4. Pepper's h4 can leap over Salt's h5
# to h6 (its only move), and Pepper's c4 can step up.
LEAPS = """
10 .  .  .  .  .  .  .  .  .  .
 9 .  .  .  .  .  .  .  .  .  .
 8 .  .  .  .  .  .  .  .  .  .
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  S  .  .  .  S  .  .
 4 .  .  P  .  .  .  .  P  .  .
 3 .  .  .  .  .  .  .  .  .  .
 2 .  .  .  .  .  .  .  .  .  .
 1 .  .  .  .  .  .  .  .  .  .
"""


def test_salt_leaps_diagonally_forward_over_an_opponent_piece() -> None:
    state = state_at(LEAPS, "s")
    assert "d5xb3" in moves(state)
    after = state.apply("d5xb3")
    assert after.squares(SALT) == ("b3", "h5")


def test_a_leap_captures_nothing() -> None:
    after = state_at(LEAPS, "s").apply("d5xb3")
    assert after.squares(PEPPER) == ("c4", "h4")
    assert after.pieces_home(PEPPER) == 13


def test_leaping_is_optional() -> None:
    assert moves(state_at(LEAPS, "s")) == {"d5xb3", "d5-e4", "h5-g4", "h5-i4"}


def test_pepper_leaps_straight_up_over_an_opponent_piece() -> None:
    state = state_at(LEAPS, "p")
    assert moves(state) == {"h4xh6", "c4-c5"}
    assert state.apply("h4xh6").squares(PEPPER) == ("c4", "h6")


def test_a_pepper_leap_captures_nothing_either() -> None:
    after = state_at(LEAPS, "p").apply("h4xh6")
    assert after.squares(SALT) == ("d5", "h5")
    assert after.pieces_home(SALT) == 13


def test_one_leap_per_turn_never_a_chain() -> None:
    # With Pepper's c2 below, b3xd1 would follow d5xb3 if leaps chained.
    chain = LEAPS.replace(" 2 .  .  .", " 2 .  .  P")
    after = state_at(chain, "s").apply("d5xb3")
    assert after.to_move == PEPPER
    assert "b3xd1" in moves(play(after, "c4-c5"))  # the second leap waits for the next turn


# Salt's c4 stands in front of Salt's d5 (b3 empty beyond); Pepper's h4 in front of Pepper's h3.
OWN_PIECES = """
10 .  .  .  .  .  .  .  .  .  .
 9 .  .  .  .  .  .  .  .  .  .
 8 .  .  .  .  .  .  .  .  .  .
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  S  .  .  .  .  .  .
 4 .  .  S  .  .  .  .  P  .  .
 3 .  .  .  .  .  .  .  P  .  .
 2 .  .  .  .  .  .  .  .  .  .
 1 .  .  .  .  .  .  .  .  .  .
"""


def test_no_leap_over_an_own_piece() -> None:
    salt = state_at(OWN_PIECES, "s")
    assert moves(salt) == {"c4-b3", "c4-d3", "d5-e4"}
    assert "never leap over an own piece (c4 holds a Salt piece)" in refused(salt, "d5xb3")
    pepper = state_at(OWN_PIECES, "p")
    assert moves(pepper) == {"h4-h5"}
    assert "never leap over an own piece (h4 holds a Pepper piece)" in refused(pepper, "h3xh5")


def test_a_leap_needs_an_empty_landing_square() -> None:
    blocked = LEAPS.replace(" 3 .  .", " 3 .  P")
    state = state_at(blocked, "s")
    assert "d5xb3" not in moves(state)
    assert "the landing square b3 is occupied" in refused(state, "d5xb3")


def test_a_leap_goes_over_a_piece() -> None:
    assert "a leap goes over an opponent piece, and e4 is empty" in refused(
        state_at(OPEN, "s"), "d5xf3"
    )


def test_no_leap_backward() -> None:
    # Salt's d5 has Pepper's e6 diagonally behind it with f7 empty; Pepper's e3 has Salt's e2
    # straight behind it with e1 empty.
    assert "d5xf7" not in moves(state_at(OPEN, "s"))
    assert "diagonally forward" in refused(state_at(OPEN, "s"), "d5xf7")
    assert "e3xe1" not in moves(state_at(OPEN, "p", pepper_sideways=True))
    assert "never down" in refused(state_at(OPEN, "p", pepper_sideways=True), "e3xe1")


def test_a_leap_cannot_land_off_the_side_of_the_board() -> None:
    edge = """
10 .  .  .  .  .  .  .  .  .  .
 9 .  .  .  .  .  .  .  .  .  .
 8 .  .  .  .  .  .  .  .  .  .
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  S  .  .  .  .  .  .  .  .
 4 P  .  P  .  .  .  .  .  .  .
 3 .  .  .  P  .  .  .  .  .  .
 2 .  .  .  .  .  .  .  .  .  .
 1 .  .  .  .  .  .  .  .  .  .
"""
    assert moves(state_at(edge, "s")) == {"pass"}  # a4 leads off the board, d3 blocks the other


# -- the pepper_sideways option ----------------------------------------------------------------

SIDEWAYS = """
10 .  .  .  .  .  .  .  .  .  .
 9 .  .  .  .  .  .  .  .  .  .
 8 .  .  .  .  .  .  .  .  .  .
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 .  .  .  .  .  .  .  .  .  .
 3 .  .  .  S  P  .  .  .  .  .
 2 .  .  .  .  .  .  .  .  .  .
 1 .  .  .  .  .  .  .  .  .  .
"""


def test_pepper_sideways_allows_sideways_steps_and_leaps_but_never_backward() -> None:
    assert moves(state_at(SIDEWAYS, "p", pepper_sideways=True)) == {"e3-e4", "e3-f3", "e3xc3"}
    assert moves(state_at(SIDEWAYS, "p")) == {"e3-e4"}


def test_pepper_sideways_does_not_change_salt() -> None:
    assert moves(state_at(SIDEWAYS, "s", pepper_sideways=True)) == {"d3-c2", "d3-e2"}


# Pepper's b4 and c4 side by side, with Salt's a4 at the edge next to b4.
SIDE_BY_SIDE = """
10 .  .  .  .  .  .  .  .  .  .
 9 .  .  .  .  .  .  .  .  .  .
 8 .  .  .  .  .  .  .  .  .  .
 7 .  .  .  .  .  .  .  S  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 S  P  P  .  .  .  .  .  .  .
 3 .  .  .  .  .  .  .  .  .  .
 2 .  .  .  .  .  .  .  .  .  .
 1 .  .  .  .  .  .  .  .  .  .
"""


def test_pepper_sideways_never_leaps_over_an_own_piece_nor_off_the_side() -> None:
    state = state_at(SIDE_BY_SIDE, "p", pepper_sideways=True)
    # b4 over Salt's a4 would land off the board; b4 and c4 may not leap over each other.
    assert moves(state) == {"b4-b5", "c4-c5", "c4-d4"}
    assert "never leap over an own piece (b4 holds a Pepper piece)" in refused(state, "c4xa4")
    assert "never leap over an own piece (c4 holds a Pepper piece)" in refused(state, "b4xd4")
    assert "c4 is occupied" in refused(state, "b4-c4")
