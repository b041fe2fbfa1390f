"""Steppin' Stones: phase 2 (budgets, stones, pawns, going home) and how the game ends."""

from __future__ import annotations

import pytest

from ludoteca import CHANCE, IllegalMoveError
from ludoteca.games.steppin_stones import layout as cells
from tests.games.steppin_stones.helpers import destinations, make, state_at
from tests.games.steppin_stones.positions import (
    ALMOST_WON,
    CORRIDOR,
    HOME_RUN,
    NULL_IN_THE_WAY,
    PHASE_TWO,
    WALLED_IN,
)
from tests.support import moves, play, refused

SUN, MOON, CROWN, ARMS = 0, 1, 2, 3


# -- budgets --------------------------------------------------------------------------------------


def test_phase_two_dice_give_budgets_null_one_suit_face_six_values_their_value() -> None:
    state = play(state_at(PHASE_TWO, "roll2 S M C A"), "S0 M* C2 A5")
    assert [state.budget(suit) for suit in range(4)] == [1, 6, 2, 5]
    assert state.to_text().endswith(" 0 play2 S1 M6 C2 A5")


def test_a_budget_is_spent_only_on_its_own_suits_stones_and_pawn() -> None:
    state = state_at(PHASE_TWO, "play2 S2 M0 C0 A0")
    assert {text.partition(":")[0] for text in moves(state)} == {"S", "SP", "end"}
    assert "the Moon die has no steps left" in refused(state, "M:f4-g4")


def test_a_budget_may_be_spread_over_several_moves() -> None:
    state = play(state_at(PHASE_TWO, "play2 S6 M0 C0 A0"), "S:b5-b7", "SP:e4-e3", "S:c8-d8")
    assert state.budget(SUN) == 2  # 6 - 2 - 1 - 1
    assert state.to_text().endswith(" 0 play2 S2 M0 C0 A0")


def test_end_is_always_legal_in_phase_two() -> None:
    state = state_at(PHASE_TWO, "play2 S6 M6 C6 A6")
    assert "end" in moves(state)
    assert play(state, "end").to_text().endswith(" 1 roll2 S M C A")


# -- stones ---------------------------------------------------------------------------------------


def test_a_stone_move_is_named_by_its_destination_and_costs_the_shortest_path() -> None:
    state = play(state_at(PHASE_TWO, "play2 S6 M0 C0 A0"), "S:b5-b7")
    assert state.budget(SUN) == 4  # b5-b6-b7, although longer paths lead there too


def test_a_stone_may_pass_over_a_null_but_not_over_another_stone() -> None:
    state = state_at(NULL_IN_THE_WAY, "play2 S3 M0 C0")
    assert "S:e3-c3" in moves(state)  # e3-d3-c3 over the Arms null
    assert play(state, "S:e3-c3").budget(SUN) == 1
    # b5-b6-b7 would pass the Arms stone on b6: the way round takes 4 steps
    assert "that takes 4 steps, and the Sun die has 3 left" in refused(state, "S:b5-b7")
    four = state_at(NULL_IN_THE_WAY, "play2 S4 M0 C0")
    assert play(four, "S:b5-b7").budget(SUN) == 0


def test_a_stone_ends_on_an_empty_space() -> None:
    state = state_at(PHASE_TWO, "play2 S6 M0 C0 A0")
    assert "d4" not in destinations(state, "S")
    assert "a stone ends on an empty space, and f4 holds a Moon stone" in refused(state, "S:e3-f4")


def test_a_stone_carrying_a_pawn_does_not_move() -> None:
    state = play(state_at(PHASE_TWO, "play2 S6 M0 C0 A0"), "SP:e4-e3")
    assert "S:e3-d3" not in moves(state)
    assert "a stone carrying a pawn stays put" in refused(state, "S:e3-d3")


def test_stones_of_a_suit_still_in_phase_one_do_not_move() -> None:
    state = state_at(CORRIDOR, "play1 S0 M0 C0 A0")
    assert "the Suns are still in phase 1" in refused(state, "S:c1-e1")


# -- pawns ----------------------------------------------------------------------------------------


def test_a_pawn_moves_only_once_its_suit_is_in_phase_two() -> None:
    state = state_at(CORRIDOR, "play1 S0 M0 C0 A0")
    assert "moves only once all five Sun coins are stepping stones" in refused(state, "SP:e4-e3")


def test_a_pawn_steps_only_onto_stones_of_its_own_suit() -> None:
    state = state_at(PHASE_TWO, "play2 S6 M0 C0 A0")
    assert destinations(state, "SP") == {"e3", "e2"}
    assert "every step of a pawn lands on a stone of its suit" in refused(state, "SP:e4-f4")


def test_a_pawn_move_costs_its_path_through_its_stones() -> None:
    state = play(state_at(PHASE_TWO, "play2 S6 M0 C0 A0"), "SP:e4-e2")
    assert state.budget(SUN) == 4
    assert state.pawn_square(SUN) == state.layout.names.index("e2")


def test_a_pawn_reaching_its_home_tile_retires_its_suit_and_its_die() -> None:
    state = state_at(HOME_RUN, "play2 S5 M1 C0 A0")
    assert destinations(state, "SP") == {"b7", "b8", "c8", "c6", "c5"}  # home stops the pawn
    home = play(state, "SP:c7-b7")
    assert home.phase(SUN) == 0
    assert home.budget(SUN) == 0  # the rest of the Sun budget leaves play with the die
    assert home.phase_two_dice == (MOON, CROWN, ARMS)
    assert moves(home, "S") == set()
    assert "the Sun pawn is home already" in refused(home, "SP:b7-c7")
    next_turn = play(home, "end")
    assert next_turn.rolling_suits == (MOON, CROWN, ARMS)


def test_a_home_space_holding_another_suits_coin_is_closed_to_the_pawn() -> None:
    blocked = HOME_RUN.replace("4 .  .  .  MP s  m", "4 .  .  .  MP s  .").replace(
        "7 .  .  SP+s .  .  m", "7 .  m  SP+s .  .  m"
    )
    state = state_at(blocked, "play2 S2 M0 C0 A0")
    assert "b7" not in destinations(state, "SP")
    assert "b8" in destinations(state, "SP")  # by way of the stone on c8


def test_a_pawn_may_step_onto_its_own_stone_on_its_home_tile() -> None:
    on_home = HOME_RUN.replace("4 .  .  .  MP s  m", "4 .  .  .  MP .  m").replace(
        "7 .  .  SP+s .  .  m", "7 .  s  SP+s .  .  m"
    )
    state = play(state_at(on_home, "play2 S1 M0 C0 A0"), "SP:c7-b7")
    assert state.phase(SUN) == 0
    assert "SP+s" in state.to_text()


# -- the end --------------------------------------------------------------------------------------


def test_the_game_is_won_when_all_four_pawns_are_home() -> None:
    state = play(state_at(ALMOST_WON, "play2 A2"), "AP:c2-b2")
    assert state.is_over and state.to_move is None
    assert state.outcome is not None
    assert state.outcome.winner == 0
    assert state.outcome.returns == (1.0,)
    assert state.outcome.reason == "all four pawns are home"
    assert state.legal_moves() == ()


def test_a_dead_position_is_lost_when_the_next_roll_comes() -> None:
    state = state_at(WALLED_IN, "play2 A4")
    assert moves(state) == {"end"}
    lost = play(state, "end")
    assert lost.is_over and lost.outcome is not None
    assert lost.outcome.winner is None and lost.outcome.returns == (-1.0,)
    assert "the position is dead" in lost.outcome.reason
    assert lost.to_text().endswith(" 1 roll2 A")


def test_a_suit_still_in_phase_one_keeps_the_position_alive() -> None:
    alive = WALLED_IN.replace("1 .  s  a  a  a  m", "1 .  s  a  a  A3 m")
    state = state_at(alive, "roll1")
    assert not state.is_over and state.to_move == CHANCE


def test_resign_loses_at_any_moment_but_is_never_listed() -> None:
    start = make().initial_state()
    assert "resign" not in moves(start)
    at_a_roll = start.apply("resign")
    assert at_a_roll.outcome is not None and at_a_roll.outcome.reason == "the player resigned"
    deciding = play(start, "S* M0 C4 A2")
    assert "resign" not in moves(deciding)
    resigned = play(deciding, "RESIGN")
    assert resigned.outcome is not None and resigned.outcome.returns == (-1.0,)
    assert resigned.to_text().endswith(" 0 play1 S* M0 C4 A2 resigned")
    assert deciding.move_from_index(cells.RESIGN).text == "resign"
    with pytest.raises(IllegalMoveError, match="the game is over"):
        resigned.apply("resign")


def test_the_turn_cap_ends_the_game_in_a_loss() -> None:
    state = make(max_turns=2).initial_state()
    state = play(state, "S0 M0 C0 A0", "end", "S0 M0 C0 A0")
    assert not state.is_over
    lost = play(state, "end")
    assert lost.outcome is not None
    assert lost.outcome.reason == (
        "engine safeguard: 2 turns played without bringing every pawn home"
    )
    assert lost.outcome.returns == (-1.0,)
