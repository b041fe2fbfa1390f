"""Steppin' Stones: scenarios for rules and options the other test files left unpinned.

Phase timing beside a suit already in phase 2, the phase-2 roll as one chance node, passing in
phase 2 (pawns, coins worth 2 or more, the hole), retired stones, the null under
``stones=highest``, aces with ``aces_as_stones``, the large board's hole and aces, and the
remaining bad option values and position texts.
"""

from __future__ import annotations

import re

import pytest

from ludoteca import CHANCE, InvalidOptionError, InvalidStateError
from tests.games.steppin_stones.diagrams import position
from tests.games.steppin_stones.helpers import destinations, make, state_at
from tests.games.steppin_stones.positions import (
    ALMOST_WON,
    HOME_RUN,
    LAST_SUN,
    NULL_IN_THE_WAY,
    PHASE_TWO,
)
from tests.support import moves, play, refused

SUN, MOON, CROWN, ARMS = 0, 1, 2, 3

# The Suns have one coin left to turn (the Sun 5 on c6); the Moons are in phase 2 already.
LAST_SUN_MOONS_IN_PHASE_TWO = """
8 .  .  s  .  .  m  .  .
7 .  .  s  .  .  m  .  .
6 s  s  S5 .  .  m  m  .
5 .  .  .  CP AP .  .  .
4 .  .  .  MP SP .  .  .
3 A3 A2 A0 .  .  C0 C2 C3
2 .  .  A4 .  .  C4 .  .
1 .  .  A5 .  .  C5 .  m
"""

# Every suit in phase 2; the Sun stone on c5 has the Crown and Arms pawns on d5 and e5 east of
# it and an open rank 6 above.
PAWNS_IN_THE_WAY = """
8 .  .  s  .  .  m  .  .
7 .  .  .  s  .  m  .  .
6 .  .  .  .  .  .  .  .
5 .  .  s  CP AP .  .  .
4 .  .  .  MP SP m  .  .
3 a  a  a  .  s  c  c  c
2 .  .  a  .  s  c  .  m
1 .  .  a  .  m  c  .  .
"""

# The large board: the Sun pawn (on its stone on f3) and the Arms pawn (on its stone on e7)
# have left the hole, so f5 and f6 are empty hole squares between the Sun stone on f4 and f7.
ACROSS_THE_HOLE = """
10 .  .  s  .  .  .  .  m  .  .
 9 .  .  s  .  .  .  .  m  .  .
 8 .  .  s  .  .  .  .  m  m  m
 7 .  .  .  .  AP+a .  .  .  .  .
 6 .  .  .  .  CP #  .  .  .  .
 5 .  .  .  .  MP #  .  .  .  .
 4 .  .  .  .  .  s  .  .  .  .
 3 a  a  a  .  .  SP+s .  c  c  c
 2 .  .  a  .  .  .  .  c  .  .
 1 .  .  .  .  .  .  .  c  .  .
"""

# The large board with the Sun pawn still in the hole (f5), a Sun stone beside it on g5 and
# another below it on f4.
LEAVING_THE_HOLE = """
10 .  .  s  .  .  .  .  m  .  .
 9 .  .  s  .  .  .  .  m  .  .
 8 .  .  s  .  .  .  .  m  m  m
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  CP AP .  .  .  .
 5 .  .  .  .  MP SP s  .  .  .
 4 .  .  .  .  .  s  .  .  .  .
 3 a  a  a  .  .  .  .  c  c  c
 2 .  .  a  .  .  .  .  c  .  .
 1 .  .  a  .  .  .  .  c  .  .
"""


# -- the phases -----------------------------------------------------------------------------------


def test_a_suit_turned_in_step_one_waits_while_the_earlier_phase_two_dice_roll() -> None:
    state = state_at(LAST_SUN_MOONS_IN_PHASE_TWO)
    assert state.rolling_suits == (SUN, CROWN, ARMS)
    assert state.phase_two_dice == (MOON,)
    state = play(state, "S* C0 A0", "flip:S5", "end")
    assert state.phase(SUN) == 2
    assert state.to_text().endswith(" 0 roll2 M")  # the Suns' die does not join this roll
    assert len(state.legal_moves()) == 6
    state = play(state, "M2")
    assert moves(state, "S") == set()
    assert "the Sun die is not a phase-2 die this turn" in refused(state, "S:c8-d8")
    next_turn = play(state, "end")
    assert next_turn.rolling_suits == (CROWN, ARMS)
    assert next_turn.phase_two_dice == (SUN, MOON)
    assert play(next_turn, "C0 A0", "end").to_text().endswith(" 1 roll2 S M")


def test_the_phase_two_dice_are_rolled_together_as_one_chance_node() -> None:
    state = state_at(PHASE_TWO, "roll2 S M C A")
    assert state.to_move == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 6**4
    assert all(probability == pytest.approx(1 / 6**4) for _, probability in outcomes)
    assert outcomes[0][0].text == "S0 M0 C0 A0"
    assert play(state, "S5 M4 C3 A2").to_text().endswith(" 0 play2 S5 M4 C3 A2")


# -- passing in phase 2 ---------------------------------------------------------------------------


def test_a_stone_never_passes_over_a_pawn() -> None:
    # c5-d5-e5-f5 would take 3 steps over two pawns; the way round by rank 6 takes 5
    short = state_at(PAWNS_IN_THE_WAY, "play2 S4 M0 C0 A0")
    assert "S:c5-f5" not in moves(short)
    assert "that takes 5 steps, and the Sun die has 4 left" in refused(short, "S:c5-f5")
    assert play(state_at(PAWNS_IN_THE_WAY, "play2 S5 M0 C0 A0"), "S:c5-f5").budget(SUN) == 0


def test_a_stone_never_passes_over_a_coin_showing_2_or_more() -> None:
    with_null = state_at(NULL_IN_THE_WAY, "play2 S3 M0 C0")
    assert "S:e3-c3" in moves(with_null)  # over the Arms null on d3
    with_two = NULL_IN_THE_WAY.replace("3 a  a  .  A0 s", "3 a  A0 .  A2 s")
    state = state_at(with_two, "play2 S3 M0 C0")
    assert moves(state, "S:e3-") == set()  # the Sun pawn, a stone, a Crown stone, the Arms 2
    assert "a stone passes only over empty spaces and null coins" in refused(state, "S:e3-c3")


def test_no_coin_or_stone_passes_across_the_hole_of_the_large_board() -> None:
    # f4-f5-f6-f7 would take 3 steps across the empty hole; the way round by file g takes 5
    short = state_at(ACROSS_THE_HOLE, "play2 S4 M0 C0 A0", large_board=True)
    assert "S:f4-f7" not in moves(short)
    assert "that takes 5 steps, and the Sun die has 4 left" in refused(short, "S:f4-f7")
    round_by_g = state_at(ACROSS_THE_HOLE, "play2 S5 M0 C0 A0", large_board=True)
    assert play(round_by_g, "S:f4-f7").budget(SUN) == 0


# -- pawns and retired suits ----------------------------------------------------------------------


def test_a_pawn_leaves_the_hole_of_the_large_board_onto_its_own_stones() -> None:
    state = state_at(LEAVING_THE_HOLE, "play2 S2 M0 C0 A0", large_board=True)
    assert destinations(state, "SP") == {"g5", "f4"}
    left = play(state, "SP:f5-g5")
    assert left.to_text().split()[0].split("/")[5] == "....MP#SP+s..."
    assert left.budget(SUN) == 1
    assert destinations(left, "SP") == set()  # f5 is hole now, and g4, g6, h5 are bare


def test_a_retired_suits_stones_stay_on_the_board_as_obstacles() -> None:
    home = play(state_at(HOME_RUN, "play2 S5 M1 C0 A0"), "SP:c7-b7")
    board = home.to_text().split()[0]
    assert board.count("s") == 5
    assert "a stone ends on an empty space, and e4 holds a Sun stone" in refused(home, "M:f4-e4")
    later = play(home, "end", "M* C0 A0")
    assert later.to_text().split()[0] == board
    assert "the Suns are home: their die has left play" in refused(later, "S:c5-d5")


# -- options --------------------------------------------------------------------------------------


def test_stones_highest_counts_the_null_as_the_lowest_coin() -> None:
    two_and_null = LAST_SUN.replace("6 s  s  S5", "6 s  S2 S0")
    state = state_at(two_and_null, "play1 S* M0 C0 A0", stones="highest")
    assert moves(state, "flip:") == {"flip:S2"}
    assert "must turn the highest Sun coin showing a value, S2" in refused(state, "flip:S0")
    later = play(state, "flip:S2", "end", "S* M0 C0 A0")
    assert moves(later, "flip:") == {"flip:S0"}


def test_with_aces_as_stones_coins_still_never_pass_or_land_on_an_ace() -> None:
    state = play(make(aces=2, aces_as_stones=True).initial_state(), "S0 M0 C0 A2")
    assert "b4" not in destinations(state, "S2")  # b6-b5-b4 over the Sun ace
    assert "b5" not in destinations(state, "A2")  # b3-b4-b5 would end on it
    assert "never over a pawn or an ace" in refused(state, "S2:b6-b4")


def test_two_aces_on_the_large_board_are_the_suns_and_the_crowns() -> None:
    layout = make(large_board=True, aces=2).layout
    assert {"SMCA"[suit]: layout.name(sq) for suit, sq in layout.aces.items()} == {
        "S": "b7",
        "C": "i4",
    }


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"aces_as_stones": "maybe"}, "option 'aces_as_stones' does not accept 'maybe'"),
        ({"max_turns": "many"}, "option 'max_turns' does not accept 'many'"),
        ({"max_turns": None}, "option 'max_turns' does not accept None"),
        ({"stones": None}, "option 'stones' does not accept None"),
        ({"aces": "two"}, "option 'aces' does not accept 'two'"),
        ({"jokers": 2}, "steppin_stones has no option 'jokers'"),
    ],
)
def test_other_bad_options_are_refused_by_name(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=re.escape(message)):
        make(**options)


# -- bad position text ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("diagram", "stage", "options", "message"),
    [
        (ALMOST_WON, "play2 S2 A2", {}, "the Suns are home: their die has left play"),
        (ALMOST_WON, "roll2 M A", {}, "the Moons are home: their die has left play"),
        (PHASE_TWO, "play2 S2 S3", {}, "dice are listed once each, in suit order"),
        (LEAVING_THE_HOLE, "roll2 S M C A", {}, "the board has 10 ranks; expected 8"),
    ],
)
def test_bad_dice_and_boards_in_position_text_are_refused(
    diagram: str, stage: str, options: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidStateError, match=re.escape(message)):
        make(**options).parse_state(position(diagram, stage))


def test_a_pawn_in_the_hole_stands_only_on_its_start_square() -> None:
    swapped = LEAVING_THE_HOLE.replace("CP AP", "AP CP")
    with pytest.raises(InvalidStateError, match="e6 is in the hole|not on the bare space"):
        make(large_board=True).parse_state(position(swapped, "roll2 S M C A"))
