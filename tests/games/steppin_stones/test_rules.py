"""Steppin' Stones: the set-up, the designer's examples, phase 1 and the shape of a turn.

One named scenario per rule (RULES.md, section "Steppin' Stones"). Positions are drawn as
diagrams (see `tests.games.steppin_stones.diagrams`), rank 8 at the top.
"""

from __future__ import annotations

import pytest

import ludoteca
from ludoteca import CHANCE
from tests.games.steppin_stones.diagrams import board_text
from tests.games.steppin_stones.helpers import destinations, make, state_at
from tests.games.steppin_stones.positions import CORRIDOR, LAST_SUN, PHASE_TWO, START
from tests.support import moves, play, refused

SUN, MOON, CROWN, ARMS = 0, 1, 2, 3


# -- set-up ---------------------------------------------------------------------------------------


def test_the_start_position_has_every_coin_and_pawn_where_the_seed_puts_them() -> None:
    start = make().initial_state()
    assert start.to_text() == f"{board_text(START)} 0 roll1"
    names = start.layout.name
    assert [names(start.pawn_square(suit)) for suit in range(4)] == ["e4", "d4", "d5", "e5"]
    assert [sorted(map(names, start.layout.home[suit])) for suit in range(4)] == [
        ["a7", "a8", "b7", "b8"],
        ["g7", "g8", "h7", "h8"],
        ["g1", "g2", "h1", "h2"],
        ["a1", "a2", "b1", "b2"],
    ]


def test_every_suit_starts_in_phase_one() -> None:
    start = make().initial_state()
    assert [start.phase(suit) for suit in range(4)] == [1, 1, 1, 1]


def test_a_turn_begins_by_rolling_every_phase_one_die_together() -> None:
    start = make().initial_state()
    assert start.to_move == CHANCE
    outcomes = start.chance_outcomes()
    assert len(outcomes) == 6**4
    assert all(probability == pytest.approx(1 / 6**4) for _, probability in outcomes)
    assert outcomes[0][0].text == "S0 M0 C0 A0"
    assert outcomes[-1][0].text == "S5 M5 C5 A5"


def test_a_roll_names_each_die_in_suit_order() -> None:
    texts = [move.text for move in make().initial_state().legal_moves()]
    assert "S* M0 C4 A2" in texts
    assert "M0 S* C4 A2" not in texts
    assert texts[:7] == [
        "S0 M0 C0 A0",
        "S0 M0 C0 A*",
        "S0 M0 C0 A2",
        "S0 M0 C0 A3",
        "S0 M0 C0 A4",
        "S0 M0 C0 A5",
        "S0 M0 C* A0",
    ]


# -- the designer's examples ----------------------------------------------------------------------


def test_the_designers_example_turn_plays_through_exactly() -> None:
    """Null, 4, 2 and the Sun face: the Sun 2 goes b6-c5, the Sun 4 c7-a5 over the null and
    the 2, and the Sun 2 is turned into a stepping stone."""
    state = play(make().initial_state(), "S* M0 C4 A2")
    assert "S2:b6-c5" in moves(state)
    state = play(state, "S2:b6-c5")
    assert "S4:c7-a5" in moves(state)
    state = play(state, "S4:c7-a5")
    assert "end" not in moves(state)  # the Sun face is not honoured yet
    state = play(state, "flip:S2")
    assert state.to_text() == (
        "..S5..M5../.....M4../S3.S0..M0M2M3/S4.sCPAP.../...MPSP.../A3A2A0..C0C2C3/"
        "..A4..C4../..A5..C5.. 0 play1 S*- M0 C4- A2-"
    )
    assert moves(state) == {"end"}
    state = play(state, "end")
    assert state.to_text().endswith(" 1 roll1")
    assert state.to_move == CHANCE


def test_the_designers_second_example_splits_phase_two_budgets() -> None:
    """Suns and Moons are stones; Crowns 3 and 5 and the Arms 2 still show values."""
    diagram = """
    8 .  .  s  .  .  .  .  .
    7 .  .  s  .  .  m  .  .
    6 s  s  s  .  .  m  m  m
    5 .  .  .  CP AP .  .  .
    4 .  .  .  MP SP .  .  .
    3 a  A2 a  .  .  c  C3 c
    2 .  .  a  .  .  C5 .  .
    1 .  .  a  .  m  c  .  .
    """
    state = state_at(diagram)
    assert [move.text for move in state.legal_moves()][:2] == ["C0 A0", "C0 A*"]
    state = play(state, "C4 A3")
    assert moves(state, "C5:") == set()  # nothing shows 4: that die does nothing
    state = play(state, "C3:g3-f5", "end")
    assert state.rolling_suits == (SUN, MOON)
    state = play(state, "S2 M5", "S:c6-c4", "M:e1-d3", "MP:d4-d3", "M:f7-e7")
    assert (state.budget(SUN), state.budget(MOON)) == (0, 0)
    assert state.to_text().endswith(" 0 play2 S0 M0")


# -- phase 1: moving coins by value ---------------------------------------------------------------


def test_a_value_moves_one_coin_of_that_value_of_any_suit() -> None:
    state = play(make().initial_state(), "S0 M0 C4 A0")
    assert {text.partition(":")[0] for text in moves(state) - {"end"}} == {"S4", "M4", "C4", "A4"}


def test_a_coin_moves_exactly_its_value_in_orthogonal_steps() -> None:
    state = play(make().initial_state(), "S0 M0 C0 A2")
    assert destinations(state, "A2") == {"b1", "a2", "d3", "a4", "c4", "b5"}


def test_a_path_may_turn_but_never_visits_a_square_twice() -> None:
    state = play(make().initial_state(), "S4 M0 C0 A0")
    reached = destinations(state, "S4")
    assert "c5" in reached  # two squares away, by a path that turns: c7-b7-b6-b5-c5
    assert "c7" not in reached  # coming back would visit c7 twice
    assert reached == {"b4", "a5", "c5", "d6", "a7", "e7", "b8", "d8"}


def test_a_coin_passes_over_strictly_lower_coins_and_stones() -> None:
    state = state_at(CORRIDOR, "play1 S0 M4 C0 A0")
    # a1-b1-c1-d1-e1 passes the Sun 2, a Sun stone and the Sun null
    assert destinations(state, "A4") == {"e1"}


def test_a_coin_never_passes_over_a_coin_of_equal_value() -> None:
    state = state_at(CORRIDOR, "play1 S0 M4 C0 A0")
    assert "A4:a1-c3" not in moves(state)  # would pass the Moon 4 on c2
    assert "passing only over empty spaces and coins worth less" in refused(state, "A4:a1-c3")


def test_nothing_passes_over_or_onto_a_pawn() -> None:
    state = state_at(CORRIDOR, "play1 S0 M0 C3 A0")
    assert "f4" not in destinations(state, "M3")  # c4-d4-e4-f4 runs into two pawns
    assert not destinations(state, "M3") & {"d4", "e4", "d5", "e5"}  # nor onto one
    assert "never over a pawn" in refused(state, "M3:c4-f4")


def test_a_coin_ends_on_an_empty_space() -> None:
    state = play(make().initial_state(), "S0 M0 C0 A2")
    assert "A2:b3-c3" not in moves(state)
    assert "a coin ends on an empty space, and c2 holds the Arms 4" in refused(state, "A2:b3-c2")


def test_a_null_die_does_nothing() -> None:
    state = play(make().initial_state(), "S0 M0 C0 A0")
    assert moves(state) == {"end"}


def test_a_null_coin_never_moves() -> None:
    state = play(make().initial_state(), "S0 M0 C0 A2")
    assert "a null coin never moves" in refused(state, "S0:c6-d6")


def test_each_die_is_used_at_most_once() -> None:
    state = play(make().initial_state(), "S0 M0 C0 A2", "A2:b3-b1")
    assert moves(state) == {"end"}
    assert "no unused phase-1 die shows 2" in refused(state, "S2:b6-b4")


def test_two_dice_of_one_value_move_two_coins_or_one_coin_twice() -> None:
    state = play(make().initial_state(), "S0 M0 C2 A2", "A2:b3-b1")
    assert state.to_text().endswith("play1 S0 M0 C2- A2")
    assert "S2:b6-b4" in moves(state) and "A2:b1-b3" in moves(state)
    assert play(state, "A2:b1-b3").to_text().endswith("play1 S0 M0 C2- A2-")


def test_value_moves_are_optional() -> None:
    state = play(make().initial_state(), "S5 M4 C3 A2")
    assert "end" in moves(state)
    assert play(state, "end").to_text().endswith(" 1 roll1")


# -- phase 1: the suit face -----------------------------------------------------------------------


def test_the_suit_face_must_be_honoured_before_ending() -> None:
    state = play(make().initial_state(), "S* M0 C0 A0")
    assert "end" not in moves(state)
    message = refused(state, "end")
    assert "the S* must be honoured first" in message
    assert "flip:S0, flip:S2" in message or "flip:S3, flip:S2" in message


def test_the_suit_face_turns_a_coin_of_its_own_suit_chosen_by_the_player() -> None:
    state = play(make().initial_state(), "S0 M* C0 A0")
    assert moves(state) == {"flip:M0", "flip:M2", "flip:M3", "flip:M4", "flip:M5"}
    assert "only the Sun die showing the suit face" in refused(state, "flip:S2")
    after = play(state, "flip:M4")
    assert after.coin(after.layout.coin_start[MOON][4]) == 25 + MOON  # a Moon stone on f7
    assert moves(after) == {"end"}


def test_dice_are_used_in_any_order() -> None:
    flipped_first = play(make().initial_state(), "S* M0 C4 A2", "flip:S2")
    assert "there is no S2 on b6 (it is a stepping stone now)" in refused(flipped_first, "S2:b6-c5")
    state = play(flipped_first, "S4:c7-a5", "A2:b3-b1", "end")
    assert state.to_text().endswith(" 1 roll1")


def test_a_stone_counts_one_when_passed_over() -> None:
    diagram = """
    8 .  .  S5 .  .  M5 .  .
    7 .  .  S4 .  .  M4 .  .
    6 .  s  S0 .  .  M0 M2 M3
    5 .  S2 .  CP AP .  .  .
    4 .  .  .  MP SP .  .  .
    3 A3 A2 A0 .  .  C0 C2 C3
    2 .  .  A4 .  .  C4 .  .
    1 .  .  A5 .  .  C5 .  .
    """
    # the Sun 2 passes over the stone on b6 (worth 1) to reach b7
    state = state_at(diagram, "play1 S0 M0 C0 A2")
    assert "S2:b5-b7" in moves(state)


# -- the phases and the shape of a turn -----------------------------------------------------------


def test_a_suit_whose_five_coins_are_stones_is_in_phase_two() -> None:
    state = play(state_at(LAST_SUN, "play1 S* M0 C0 A0"), "flip:S5")
    assert state.phase(SUN) == 2 and state.phase(MOON) == 1


def test_a_suit_that_enters_phase_two_rolls_in_phase_two_from_the_next_turn() -> None:
    state = play(state_at(LAST_SUN, "play1 S* M0 C0 A0"), "flip:S5", "end")
    assert state.to_text().endswith(" 1 roll1")  # no phase-2 roll in the turn it finished
    assert state.rolling_suits == (MOON, CROWN, ARMS)
    state = play(state, "M0 C0 A0", "end")
    assert state.rolling_suits == (SUN,)
    assert state.to_text().endswith(" 1 roll2 S")
    assert len(state.legal_moves()) == 6


def test_the_phase_two_dice_are_rolled_after_phase_one_ends() -> None:
    state = state_at(LAST_SUN.replace("S5", "s"), "roll1")
    assert state.rolling_suits == (MOON, CROWN, ARMS)
    assert state.phase_two_dice == (SUN,)
    state = play(state, "M0 C0 A0")
    assert state.to_move == 0
    state = play(state, "end")
    assert state.to_move == CHANCE and state.rolling_suits == (SUN,)


def test_a_turn_without_phase_one_suits_begins_with_the_phase_two_roll() -> None:

    state = state_at(PHASE_TWO, "play2 S0 M0 C0 A0")
    after = play(state, "end")
    assert after.to_text().endswith(" 1 roll2 S M C A")
    assert after.rolling_suits == (SUN, MOON, CROWN, ARMS)


def test_the_game_is_a_solitaire() -> None:
    game = ludoteca.make("steppin_stones")
    assert game.num_players == 1
    assert game.player_names == ("Player",)
    assert "steppin_stones" in ludoteca.GAMES
