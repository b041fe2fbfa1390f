"""Steppin' Stones options: stones, aces, aces_as_stones, large_board and max_turns."""

from __future__ import annotations

import pytest

import ludoteca
from ludoteca import InvalidMoveError, InvalidOptionError, InvalidStateError
from tests.games.steppin_stones.helpers import destinations, make, state_at
from tests.games.steppin_stones.positions import ACE_NEXT_DOOR, LARGE_PHASE_TWO
from tests.support import moves, play, refused

SUN = 0


def ace_squares(game: ludoteca.Game) -> dict[str, str]:
    layout = game.layout  # type: ignore[attr-defined]
    return {"SMCA"[suit]: layout.name(square) for suit, square in layout.aces.items()}


# -- stones ---------------------------------------------------------------------------------------


def test_stones_any_lets_the_suit_face_turn_any_coin_of_its_suit() -> None:
    state = play(make(stones="any").initial_state(), "S* M0 C0 A0")
    assert moves(state) == {"flip:S0", "flip:S2", "flip:S3", "flip:S4", "flip:S5"}


def test_stones_highest_turns_the_highest_coin_still_showing_a_value() -> None:
    state = play(make(stones="highest").initial_state(), "S* M0 C0 A0")
    assert moves(state) == {"flip:S5"}
    message = refused(state, "flip:S2")
    assert (
        "with stones=highest the S* must turn the highest Sun coin showing a value, S5" in message
    )
    state = play(state, "flip:S5", "end", "S* M0 C0 A0")
    assert moves(state) == {"flip:S4"}


# -- aces -----------------------------------------------------------------------------------------


def test_no_aces_by_default() -> None:
    assert ace_squares(make()) == {}
    assert "*" not in make().initial_state().to_text()


def test_two_aces_are_the_suns_and_the_crowns_beyond_their_2_coins() -> None:
    game = make(aces=2)
    assert ace_squares(game) == {"S": "b5", "C": "g4"}
    assert game.initial_state().to_text().split()[0].split("/")[3] == ".S*.CPAP..."


def test_four_aces_stand_beyond_each_suits_2_coin() -> None:
    assert ace_squares(make(aces=4)) == {"S": "b5", "M": "g5", "C": "g4", "A": "b4"}


def test_aces_are_never_passed_over() -> None:
    plain = play(make().initial_state(), "S0 M0 C0 A2")
    with_aces = play(make(aces=2).initial_state(), "S0 M0 C0 A2")
    assert "b4" in destinations(plain, "S2")  # b6-b5-b4
    assert "b4" not in destinations(with_aces, "S2")  # the Sun ace on b5 is in the way
    assert "never over a pawn or an ace" in refused(with_aces, "S2:b6-b4")


def test_aces_are_never_moved_or_turned() -> None:
    state = play(make(aces=4).initial_state(), "S* M0 C0 A0")
    aces = set(ace_squares(state.game).values())
    assert not any(text.split(":")[1][:2] in aces for text in moves(state) if ":" in text)
    assert "flip:S5" in moves(state) and len(moves(state, "flip:")) == 5
    with pytest.raises(InvalidMoveError):
        state.apply("flip:S*")


def test_without_aces_as_stones_a_pawn_may_not_step_on_an_ace() -> None:
    state = state_at(ACE_NEXT_DOOR, "play2 S3 M0 C0 A0", aces=4)
    assert destinations(state, "SP") == set()


def test_aces_as_stones_lets_any_pawn_step_on_an_ace() -> None:
    state = state_at(ACE_NEXT_DOOR, "play2 S3 M0 C0 A0", aces=4, aces_as_stones=True)
    assert destinations(state, "SP") == {"b4", "b5"}  # the Arms ace, then the Sun ace
    on_ace = play(state, "SP:c4-b4")
    assert "SP+A*" in on_ace.to_text()
    assert on_ace.budget(SUN) == 2


def test_aces_as_stones_needs_aces() -> None:
    with pytest.raises(InvalidOptionError, match="aces_as_stones=true needs aces"):
        make(aces_as_stones=True)


def test_aces_stand_only_where_the_option_puts_them() -> None:
    text = make(aces=4).initial_state().to_text()
    with pytest.raises(InvalidStateError, match="the aces stand on fixed squares"):
        make(aces=2).parse_state(text)


# -- the large board ------------------------------------------------------------------------------


def test_the_large_board_is_ten_by_ten_with_the_pawns_in_the_central_hole() -> None:
    game = make(large_board=True)
    layout = game.layout
    assert layout.size == 10
    assert [layout.name(square) for square in layout.hole] == ["e5", "f5", "e6", "f6"]
    assert [layout.name(layout.pawn_start[suit]) for suit in range(4)] == ["f5", "e5", "e6", "f6"]
    assert game.initial_state().to_text() == (
        "..S5....M5../..S4....M4../S3S2S0....M0M2M3/........../....CPAP..../....MPSP..../"
        "........../A3A2A0....C0C2C3/..A4....C4../..A5....C5.. 0 roll1"
    )


def test_the_large_board_keeps_the_home_tiles_in_the_corners() -> None:
    layout = make(large_board=True).layout
    assert [sorted(map(layout.name, layout.home[suit])) for suit in range(4)] == [
        ["a10", "a9", "b10", "b9"],
        ["i10", "i9", "j10", "j9"],
        ["i1", "i2", "j1", "j2"],
        ["a1", "a2", "b1", "b2"],
    ]
    assert ace_squares(make(large_board=True, aces=4)) == {
        "S": "b7",
        "M": "i7",
        "C": "i4",
        "A": "b4",
    }


def test_nothing_ever_goes_into_the_hole() -> None:
    state = state_at(LARGE_PHASE_TWO, "play2 S6 M0 C0 A0", large_board=True)
    assert "f5" not in destinations(state, "S")
    assert "f5 is in the hole of the large board" in refused(state, "S:g5-f5")
    assert destinations(state, "SP") == set()  # the pawn never goes back into the hole
    assert "#" in state.to_text()


# -- max_turns and option values ------------------------------------------------------------------


def test_max_turns_is_500_by_default() -> None:
    assert make().options["max_turns"] == 500
    state = make().parse_state(make().initial_state().to_text().replace(" 0 roll1", " 499 roll1"))
    assert not state.is_over
    lost = play(state, "S0 M0 C0 A0", "end")
    assert lost.outcome is not None and "500 turns" in lost.outcome.reason


@pytest.mark.parametrize(
    ("options", "accepted"),
    [
        ({"stones": "lowest"}, "one of any, highest"),
        ({"aces": 3}, "one of 0, 2, 4"),
        ({"large_board": "yes"}, "true or false"),
        ({"max_turns": 0}, "an integer from 1 to 1000000"),
    ],
)
def test_bad_option_values_are_refused_with_the_accepted_ones(
    options: dict[str, object], accepted: str
) -> None:
    with pytest.raises(InvalidOptionError, match=accepted):
        make(**options)


def test_options_given_as_text_are_read() -> None:
    game = make(
        stones="highest", aces="4", aces_as_stones="true", large_board="false", max_turns="30"
    )
    assert game.options == {
        "stones": "highest",
        "aces": 4,
        "aces_as_stones": True,
        "large_board": False,
        "max_turns": 30,
    }
    assert game == make(stones="highest", aces=4, aces_as_stones=True, max_turns=30)
