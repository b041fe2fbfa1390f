"""What the terminal shows of a Steppin' Stones position (``str(state)``)."""

from __future__ import annotations

from tests.games.steppin_stones.helpers import make, state_at
from tests.games.steppin_stones.positions import ALMOST_WON, PHASE_TWO, WALLED_IN
from tests.support import play

START_BOARD = """\
Steppin' Stones · turn 1
      a     b     c     d     e     f     g     h
 8   [S]   [S]    S5    .     .     M5   [M]   [M]    8
 7   [S]   [S]    S4    .     .     M4   [M]   [M]    7
 6    S3    S2    S0    .     .     M0    M2    M3    6
 5    .     .     .     CP    AP    .     .     .     5
 4    .     .     .     MP    SP    .     .     .     4
 3    A3    A2    A0    .     .     C0    C2    C3    3
 2   [A]   [A]    A4    .     .     C4   [C]   [C]    2
 1   [A]   [A]    A5    .     .     C5   [C]   [C]    1
      a     b     c     d     e     f     g     h"""


def test_the_board_is_drawn_with_coordinates_and_home_tiles() -> None:
    assert str(make().initial_state()).startswith(START_BOARD + "\n")


def test_each_suit_shows_its_phase() -> None:
    text = str(play(make().initial_state(), "S* M0 C4 A2", "flip:S2"))
    assert "Suns   phase 1: 1 of 5 coins are stones; to turn: S0 S3 S4 S5" in text
    assert "Moons  phase 1: 0 of 5 coins are stones" in text
    phase_two = str(state_at(PHASE_TWO, "roll2 S M C A"))
    assert "Suns   phase 2: all five coins are stones; pawn on e4" in phase_two


def test_the_dice_show_their_phase_and_what_each_can_still_do() -> None:
    text = str(play(make().initial_state(), "S* M0 C4 A2", "S2:b6-c5"))
    assert (
        "  S*  must turn a Sun coin into a stone: flip:S0 flip:S2 flip:S3 flip:S4 flip:S5" in text
    )
    assert "  M0  null: does nothing" in text
    assert "  C4  may move one coin showing 4 exactly 4 steps: A4 -> " in text
    assert "S4 -> b4 a5 c5 d6 a7 e7 b8 d8" not in text  # c6 and c5 are full now
    assert "  A2  used" in text
    assert "No phase-2 dice this turn." in text


def test_the_phase_two_dice_show_the_steps_left_and_what_can_use_them() -> None:
    text = str(state_at(PHASE_TWO, "play2 S2 M1 C0 A0"))
    assert "  Suns   2 left: stone e2 -> d1 d2 d3; stone e3 -> d2 d3; pawn e4 -> e2 e3;" in text
    assert "  Crowns 0 left: nothing of theirs can move" in text


def test_a_chance_node_says_which_dice_roll_and_how_to_type_them() -> None:
    assert str(make().initial_state()).endswith(
        "Next: roll the phase-1 dice: Suns, Moons, Crowns, Arms (typed like S* M0 C4 A2).\n"
        "No phase-2 dice this turn."
    )
    assert str(state_at(PHASE_TWO, "roll2 M A")).endswith(
        "Next: roll the phase-2 dice: Moons, Arms (typed like M* A0)."
    )


def test_the_result_is_shown_when_the_game_ends() -> None:
    won = play(state_at(ALMOST_WON, "play2 A2"), "AP:c2-b2")
    assert str(won).endswith("Won: all four pawns are home.")
    lost = play(state_at(WALLED_IN, "play2 A1"), "end")
    assert str(lost).endswith(
        "Lost: the position is dead: no suit is in phase 1 and no stone or pawn can move."
    )


def test_the_large_board_shows_its_hole() -> None:
    state = make(large_board=True).initial_state()
    assert " 6    .     .     .     .     CP    AP    .     .     .     .     6" in str(state)
