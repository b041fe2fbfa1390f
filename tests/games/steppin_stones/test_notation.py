"""Steppin' Stones notation, position text, and the errors for bad input."""

from __future__ import annotations

import re

import pytest

import ludoteca
from ludoteca import IllegalMoveError, InvalidMoveError, InvalidStateError
from tests.games.steppin_stones.diagrams import board_text
from tests.games.steppin_stones.helpers import make, state_at
from tests.games.steppin_stones.positions import PHASE_TWO, START
from tests.support import play, refused


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("s* m0 c4 a2", "S* M0 C4 A2"),
        ("S*M0C4A2", "S* M0 C4 A2"),
        ("  S*   M0 C4  A2 ", "S* M0 C4 A2"),
    ],
)
def test_a_roll_is_read_in_any_case_and_spacing(typed: str, canonical: str) -> None:
    assert make().initial_state().parse_move(typed).text == canonical


@pytest.mark.parametrize(
    ("roll", "typed", "canonical"),
    [
        ("S* M0 C4 A2", "s2:b6-c5", "S2:b6-c5"),
        ("S* M0 C4 A2", "S2 : B6-C5", "S2:b6-c5"),
        ("S* M0 C4 A2", "FLIP:s2", "flip:S2"),
        ("S0 M0 C4 A2", "End", "end"),
    ],
)
def test_a_move_is_read_in_any_case_and_spacing(roll: str, typed: str, canonical: str) -> None:
    state = play(make().initial_state(), roll)
    assert state.parse_move(typed).text == canonical


def test_stone_and_pawn_moves_are_written_with_the_suit() -> None:
    state = state_at(PHASE_TWO, "play2 S2 M0 C0 A0")
    texts = {move.text for move in state.legal_moves()}
    assert {"S:e3-d3", "SP:e4-e3", "end"} <= texts
    assert state.parse_move("sp:E4-E3").text == "SP:e4-e3"


@pytest.mark.parametrize("text", ["S1 M0 C0 A0", "S2-b6-c5", "move S2", "flip:S", "SP:e4", "pass"])
def test_text_that_is_not_a_move_is_a_syntax_error(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="accepted forms"):
        make().initial_state().apply(text)


def test_a_move_before_the_roll_is_refused() -> None:
    assert "the dice come first; roll the phase-1 dice of the Suns, Moons, Crowns, Arms" in (
        refused(make().initial_state(), "end")
    )


def test_a_roll_naming_the_wrong_dice_is_refused() -> None:
    state = state_at(PHASE_TWO, "roll2 S M")
    message = refused(state, "S* M0 C4 A2")
    assert "roll the phase-2 dice of the Suns, Moons and name each die once" in message
    assert "e.g. S* M0" in message


def test_a_roll_after_the_dice_are_rolled_is_refused() -> None:
    state = play(make().initial_state(), "S* M0 C4 A2")
    assert "the dice for this part of the turn have been rolled" in refused(state, "S0 M0 C0 A0")


def test_squares_off_the_board_are_refused() -> None:
    state = play(make().initial_state(), "S* M0 C4 A2")
    assert "squares run from a1 to h8" in refused(state, "S2:b6-i9")


# -- position text --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "stage",
    [
        "roll1",
        "play1 S* M0 C4 A2",
        "play1 S*- M0 C4- A2-",
        "play1 S* M0 C4 A2 resigned",
    ],
)
def test_position_text_round_trips_at_every_stage_of_phase_one(stage: str) -> None:
    text = f"{board_text(START)} 3 {stage}"
    state = make().parse_state(text)
    assert state.to_text() == text
    assert make().parse_state(state.to_text()) == state


@pytest.mark.parametrize("stage", ["roll2 S M C A", "roll2 M", "play2 S6 M0 C1 A5", "play2 A3"])
def test_position_text_round_trips_at_every_stage_of_phase_two(stage: str) -> None:
    text = f"{board_text(PHASE_TWO)} 12 {stage}"
    assert make().parse_state(text).to_text() == text


def test_dice_of_one_value_are_interchangeable_in_position_text() -> None:
    first = make().parse_state(f"{board_text(START)} 0 play1 S2 M0 C2- A0")
    assert first.to_text().endswith("play1 S2- M0 C2 A0")
    assert first == play(make().initial_state(), "S2 M0 C2 A0", "A2:b3-b1").game.parse_state(
        first.to_text()
    )


def test_repr_evaluates_back_to_an_equal_state() -> None:
    state = play(make(aces=2).initial_state(), "S* M0 C4 A2", "flip:S3")
    assert eval(repr(state), {"ludoteca": ludoteca}) == state


BOARD = board_text(START)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "position text has 0 fields"),
        (f"{BOARD} 0", "position text has 2 fields"),
        ("........ 0 roll1", "the board has 1 ranks; expected 8"),
        (BOARD.replace("S3S2S0", "S3S2S9") + " 0 roll1", "rank 6 ('S3S2S9..M0M2M3') must be 8"),
        (BOARD.replace("A5..C5..", "A5..C5.#") + " 0 roll1", "'#' marks the hole"),
        (BOARD.replace("S3S2S0", "S3S2S2") + " 0 roll1", "the Suns have five coins"),
        (BOARD.replace("S3S2S0", "S3S2.") + "x 0 roll1", "must be 8 cells"),
        (BOARD.replace("CPAP", ".AP") + " 0 roll1", "the Crown pawn is missing"),
        (BOARD.replace("...MPSP...", "...MP.SP..") + " 0 roll1", "not on the bare space f4"),
        (f"{BOARD} x roll1", "turns completed must be a whole number"),
        (f"{BOARD} 0 roll3", "the stage must be one of roll1, play1, roll2, play2"),
        (f"{BOARD} 0 roll1 S*", "roll1 is followed by nothing"),
        (f"{BOARD} 0 play1 S* M0 C4", "every suit in phase 1 rolls its die; missing: A"),
        (f"{BOARD} 0 play1 M0 S* C4 A2", "in suit order S M C A"),
        (f"{BOARD} 0 play1 S* M0- C4 A2", "a null die does nothing"),
        (f"{BOARD} 0 roll2 S", "the Suns are still in phase 1"),
        (f"{board_text(PHASE_TWO)} 0 play2 S7", "budgets such as S4 M0"),
        (f"{board_text(PHASE_TWO)} 0 roll1", "no suit is in phase 1, so a turn begins with roll2"),
        (f"{board_text(PHASE_TWO)} 0 roll2", "roll2 names the suits"),
        (f"{board_text(PHASE_TWO)} 0 play1 S2", "the Suns show no value any more"),
        (BOARD.replace("...CPAP...", "..S*CPAP...") + " 0 roll1", "the aces stand on fixed"),
    ],
)
def test_bad_position_text_is_refused_with_what_is_expected(text: str, message: str) -> None:
    with pytest.raises(InvalidStateError, match=re.escape(message)):
        make().parse_state(text)


def test_a_pawn_may_not_have_moved_while_its_suit_is_in_phase_one() -> None:
    moved = board_text(START).replace("S3S2S0", "SP+sS2S0").replace("MPSP", "MP.")
    with pytest.raises(InvalidStateError, match="the Sun pawn has moved, so every Sun coin"):
        make().parse_state(f"{moved} 0 roll1")


def test_a_pawn_stands_only_on_stones_of_its_own_suit() -> None:
    wrong = board_text(PHASE_TWO).replace("MPSPm", "MP.SP+m")
    with pytest.raises(InvalidStateError, match="the Sun pawn stands only on Sun stones"):
        make().parse_state(f"{wrong} 0 roll2 S M C A")


def test_an_illegal_move_leaves_the_state_unchanged() -> None:
    state = play(make().initial_state(), "S* M0 C4 A2")
    refused(state, "S5:c8-d8")
    with pytest.raises(IllegalMoveError):
        state.apply("S2:b6-b7")
