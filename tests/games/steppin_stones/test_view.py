"""What Steppin' Stones shows: the terminal's text (``str(state)``), and the front ends' drawing
and click paths (`ludoteca.games.steppin_stones.view`)."""

from __future__ import annotations

from collections import Counter

from ludoteca.games.steppin_stones.view import click_paths, drawing
from tests.games.steppin_stones.helpers import make, state_at
from tests.games.steppin_stones.positions import (
    ACE_NEXT_DOOR,
    ALMOST_WON,
    LARGE_PHASE_TWO,
    PHASE_TWO,
    WALLED_IN,
)
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


# -- the front ends' drawing and click paths ------------------------------------------------------


def test_steppin_stones_coins_show_value_or_suit() -> None:
    start = drawing(make().initial_state())
    coins = [p for p in start.pieces if p.shape == "coin"]
    assert sorted(p.text for p in coins) == sorted("02345" * 4)
    assert {p.label for p in coins if p.region == "c8"} == {"Sun 5 coin"}
    assert {p.label for p in coins if p.region == "c6"} == {"Sun null coin"}
    turned = drawing(play(make().initial_state(), "S* M0 C4 A2", "flip:S2"))
    (stone,) = [p for p in turned.pieces if p.region == "b6"]
    assert (stone.shape, stone.text, stone.label, stone.style) == (
        "coin",
        "☀",
        "Sun stepping stone",
        "suns",
    )


def test_the_start_shows_20_coins_4_pawns_and_the_home_tiles() -> None:
    picture = drawing(make().initial_state())
    assert Counter((p.shape, p.style) for p in picture.pieces) == {
        (shape, suit): count
        for suit in ("suns", "moons", "crowns", "arms")
        for shape, count in (("coin", 5), ("pawn", 1))
    }
    assert {p.label: p.region for p in picture.pieces if p.shape == "pawn"} == {
        "Sun pawn": "e4",
        "Moon pawn": "d4",
        "Crown pawn": "d5",
        "Arms pawn": "e5",
    }
    homes = Counter(r.style for r in picture.regions if r.style.startswith("home-"))
    assert homes == {"home-suns": 4, "home-moons": 4, "home-crowns": 4, "home-arms": 4}
    assert picture.region("a8").label == "a8, Suns' home tile"
    assert len(picture.regions) == 64


def test_the_large_board_has_its_hole_and_the_aces_are_coins_showing_a() -> None:
    large = drawing(make(large_board=True).initial_state())
    assert len(large.regions) == 100
    assert {r.id for r in large.regions if r.style == "hole"} == {"e5", "f5", "e6", "f6"}
    assert large.region("e5").label == "e5, the hole, Moon pawn"
    later = drawing(state_at(LARGE_PHASE_TWO, "roll2 S M C A", large_board=True))
    assert [p.label for p in later.pieces if p.region == "f4"] == [
        "Sun stepping stone",
        "Sun pawn",
    ]
    aces = drawing(state_at(ACE_NEXT_DOOR, "roll2 S M C A", aces=4))
    assert sorted((p.region, p.text) for p in aces.pieces if p.text == "A") == [
        ("b4", "A"),
        ("b5", "A"),
        ("g4", "A"),
        ("g5", "A"),
    ]
    assert "Sun ace, an obstacle" in aces.region("b5").label


def test_the_phase_one_dice_show_their_faces_and_what_each_can_still_do() -> None:
    state = play(make().initial_state(), "S* M0 C4 A2", "S2:b6-c5")
    suns, moons, crowns, arms = drawing(state).dice
    assert (suns.value, suns.text, suns.used) == (0, "☀", False)
    assert suns.label.startswith("Sun die *: must turn a Sun coin into a stone: flip:S0")
    assert (moons.value, moons.text, moons.label) == (0, "0", "Moon die 0: null: does nothing")
    assert (crowns.value, crowns.used) == (4, False)
    assert crowns.label.startswith("Crown die 4: may move one coin showing 4 exactly 4 steps")
    assert (arms.value, arms.used, arms.label) == (2, True, "Arms die 2: used")


def test_the_phase_two_dice_show_the_steps_left() -> None:
    suns, moons, crowns, arms = drawing(state_at(PHASE_TWO, "play2 S2 M1 C0 A0")).dice
    assert arms.label == "Arms die: 0 steps left: nothing of theirs can move"
    assert (suns.value, suns.used) == (2, False)
    assert suns.label.startswith("Sun die: 2 steps left: stone e2 -> d1 d2 d3;")
    assert moons.label.startswith("Moon die: 1 step left:")
    assert (crowns.value, crowns.used) == (0, True)
    assert crowns.label == "Crown die: 0 steps left: nothing of theirs can move"


def test_dice_to_be_rolled_are_blank_and_say_so() -> None:
    dice = drawing(make().initial_state()).dice
    assert [(d.value, d.label) for d in dice] == [
        (0, f"{suit} die: to be rolled (phase 1)") for suit in ("Sun", "Moon", "Crown", "Arms")
    ]
    later = drawing(state_at(PHASE_TWO, "roll2 M A")).dice
    assert [d.label for d in later] == [
        "Moon die: to be rolled (phase 2)",
        "Arms die: to be rolled (phase 2)",
    ]


def test_a_move_is_clicked_as_the_piece_then_where_it_ends() -> None:
    paths = click_paths(play(make().initial_state(), "S* M0 C4 A2"))
    assert paths["S2:b6-c5"] == ("b6", "c5")
    assert paths["flip:S2"] == ("b6",)  # one click on the coin to turn
    phase_two = click_paths(state_at(PHASE_TWO, "play2 S2 M1 C0 A0"))
    assert phase_two["SP:e4-e2"] == ("e4", "e2")
    assert phase_two["S:e2-d1"] == ("e2", "d1")
    assert phase_two["end"] == ()


def test_at_a_roll_nothing_is_clicked_and_the_status_says_what_to_roll() -> None:
    state = make().initial_state()
    assert click_paths(state) == {}
    assert drawing(state).status == "Turn 1: roll the phase-1 dice (Suns, Moons, Crowns, Arms)."


def test_the_drawing_gives_the_result_and_the_suits_phases() -> None:
    won = drawing(play(state_at(ALMOST_WON, "play2 A2"), "AP:c2-b2"))
    assert won.status == "Won: all four pawns are home."
    assert won.dice == ()
    notes = drawing(state_at(PHASE_TWO, "roll2 S M C A")).notes
    assert notes[0] == "Suns   phase 2: all five coins are stones; pawn on e4"
    assert notes[-1] == "Turns completed: 0 of 500 (the game is lost after)."
