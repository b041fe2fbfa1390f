"""Pente Grammai's rules with the default options, one named scenario per rule (RULES.md).

Positions are built from the counters on each point (see `tests.games.pente_grammai.positions`);
the circuit is W1 W2 W3 W4 W5 B1 B2 B3 B4 B5 and round again, White's goal is B3 and Blue's W3.
"""

from __future__ import annotations

import pytest

import ludoteca
from ludoteca import CHANCE, Outcome
from tests.games.pente_grammai.positions import BLUE, WHITE, at, board, make
from tests.support import moves, play, refused

# -- the turn: who starts, then a roll, then a move -----------------------------------------------


def test_who_starts_is_a_chance_node_with_even_odds() -> None:
    state = make().initial_state()
    assert state.to_move == CHANCE
    assert [(move.text, p) for move, p in state.chance_outcomes()] == [
        ("first-0", 0.5),
        ("first-1", 0.5),
    ]
    assert state.apply("first-1").side == BLUE


def test_every_turn_starts_with_a_roll_of_one_die_with_six_even_outcomes() -> None:
    state = make().initial_state().apply("first-0")
    assert state.to_move == CHANCE
    assert [(move.text, p) for move, p in state.chance_outcomes()] == [
        (f"d{face}", pytest.approx(1 / 6)) for face in range(1, 7)
    ]
    assert all(
        move.is_chance and move.index == face for face, move in enumerate(state.legal_moves())
    )
    rolled = state.apply("d5")
    assert rolled.to_move == WHITE and rolled.die == 5
    assert rolled.chance_outcomes() == ()


def test_turns_alternate_and_the_next_turn_starts_with_a_roll() -> None:
    state = play(make().initial_state(), "first-0", "d4", "hand-W4")
    assert state.to_move == CHANCE and state.side == BLUE and state.die is None
    state = play(state, "d2", "hand-B2", "d1")
    assert state.to_move == WHITE


def test_player_0_is_white_and_player_1_is_blue() -> None:
    game = make(first=0)
    assert game.player_names == ("White", "Blue")
    assert game.initial_state().side == WHITE
    assert make(first=1).initial_state().side == BLUE


# -- entering -------------------------------------------------------------------------------------


@pytest.mark.parametrize("die", [1, 2, 3, 4, 5])
def test_a_roll_of_1_to_5_enters_on_the_movers_own_point_of_that_number(die: int) -> None:
    white = at(side="w", die=die)
    assert moves(white) == {f"hand-W{die}"}
    after = white.apply(f"hand-W{die}")
    assert board(after) == {f"W{die}": "w"} and after.hand(WHITE) == 4
    assert moves(at(side="b", die=die)) == {f"hand-B{die}"}


def test_six_enters_on_the_opponents_point_1() -> None:
    assert moves(at(side="w", die=6)) == {"hand-B1"}
    assert moves(at(side="b", die=6)) == {"hand-W1"}
    assert board(at(side="b", die=6).apply("hand-W1")) == {"W1": "b"}


def test_entering_has_priority_over_moving() -> None:
    state = at({"W1": "w", "B2": "b"}, side="w", die=2)
    assert moves(state) == {"hand-W2"}  # W1-W3 would be possible, but entering comes first
    message = refused(state, "W1-W3")
    assert "entering has priority" in message and "hand-W2" in message


def test_a_blocked_entry_forces_a_move_instead() -> None:
    state = at({"W4": "w", "W1": "w"}, side="w", die=4)  # W4 is taken: no entry with a 4
    assert moves(state) == {"W1-W5", "W4-B3"}
    message = refused(state, "hand-W4")
    assert "W4 already holds a White counter" in message and "must move a counter" in message


def test_a_six_with_the_opponents_point_1_taken_forces_a_move() -> None:
    state = at({"W1": "w", "B2": "b"}, side="b", die=6)  # Blue's 6 would enter on W1
    assert state.hand(BLUE) == 4
    assert moves(state) == {"B2-W3"}
    assert "W1 holds a White counter" in refused(state, "hand-W1")


def test_an_entry_point_held_by_the_opponent_blocks_entering_without_capture() -> None:
    state = at({"B1": "b", "W2": "w"}, side="w", die=6)  # W2 + 6 = B3
    assert moves(state) == {"W2-B3"}
    assert "B1 holds a Blue counter" in refused(state, "hand-B1")


def test_entering_on_the_own_sacred_point_is_always_possible() -> None:
    state = at({"W3": "wbb"}, side="w", die=3)
    assert moves(state) == {"hand-W3"}
    assert board(state.apply("hand-W3")) == {"W3": "wwbb"}


def test_a_blocked_entry_and_no_possible_move_is_a_pass() -> None:
    state = at({"W1": "b", "B4": "w", "B5": "b"}, side="w", die=1)
    assert moves(state) == {"pass"}


# -- moving ---------------------------------------------------------------------------------------


def test_a_counter_moves_exactly_the_roll_along_the_circuit() -> None:
    state = at({"W2": "w"}, side="w", die=2)  # the entry point W2 is taken
    assert moves(state) == {"W2-W4"}
    assert board(state.apply("W2-W4")) == {"W4": "w"}
    assert "with a 2 the counter on W2 goes to W4" in refused(state, "W2-W5")


CIRCUIT = ["W1", "W2", "W3", "W4", "W5", "B1", "B2", "B3", "B4", "B5"]  # as RULES.md lists it


@pytest.mark.parametrize("die", [1, 2, 3, 4, 5, 6])
def test_the_circuit_takes_every_point_round_in_the_order_rules_md_gives(die: int) -> None:
    for number, point in enumerate(CIRCUIT):
        landing = CIRCUIT[(number + die) % 10]
        # The other four White counters wait on W3, which takes any number: nothing in hand.
        points = {"W3": "wwwww"} if point == "W3" else {point: "w", "W3": "wwww"}
        assert f"{point}-{landing}" in moves(at(points, side="w", die=die)), (point, die)


def test_counters_pass_over_other_counters() -> None:
    state = at({"W1": "w", "W2": "b", "W3": "wb", "W4": "w", "B4": "w", "B5": "w"}, die=4)
    assert moves(state) == {"W1-W5", "W3-B2", "W4-B3", "B4-W3"}  # W1-W5 passes W2, W3, W4


def test_the_circuit_runs_from_w5_to_b1_and_from_b5_to_w1() -> None:
    state = at({"W5": "w", "B5": "w", "W2": "w", "W3": "w", "W4": "w"}, side="w", die=1)
    assert moves(state) == {"W5-B1", "B5-W1", "W2-W3"}
    blue = at({"B5": "b", "B1": "b", "B2": "b", "B3": "b", "B4": "b"}, side="b", die=2)
    assert moves(blue) == {"B5-W2", "B1-B3", "B4-W1"}


def test_an_ordinary_point_holds_one_counter_of_either_side() -> None:
    state = at({"W1": "w", "W2": "w", "W3": "w", "W4": "w", "W5": "b"}, side="w", die=1)
    assert moves(state) == {"W2-W3"}  # W2 holds White's own counter, W5 Blue's
    assert "W2 already holds a White counter" in refused(state, "W1-W2")
    assert "W5 holds a Blue counter" in refused(state, "W4-W5")


def test_sacred_points_hold_any_number_of_counters_of_both_colours() -> None:
    state = at({"B3": "wwwbb", "B2": "w", "W4": "b", "W1": "w"}, side="w", die=1)
    assert moves(state) == {"W1-W2", "B2-B3", "B3-B4"}
    assert board(state.apply("B2-B3"))["B3"] == "wwwwbb"
    blue = at({"W3": "wwbbb", "W2": "b", "B1": "w"}, side="b", die=1)  # B1 taken: no entry
    assert moves(blue) == {"W2-W3", "W3-W4"}
    assert board(blue.apply("W2-W3"))["W3"] == "wwbbbb"


def test_the_goal_is_reached_only_by_landing_on_it_exactly() -> None:
    state = at({"B1": "w", "W1": "w", "W2": "w", "W3": "w", "W4": "w"}, side="w", die=4)
    assert moves(state) == {"B1-B5", "W1-W5", "W3-B2", "W4-B3"}
    assert state.apply("B1-B5").home(WHITE) == 0  # past B3, not onto it
    assert "with a 4 the counter on B1 goes to B5" in refused(state, "B1-B3")
    assert state.apply("W4-B3").home(WHITE) == 1


def test_a_counter_that_overshoots_the_goal_keeps_circling() -> None:
    state = at({"B4": "w", "W1": "w", "W2": "w", "W4": "w", "W5": "w"}, side="w", die=4)
    assert moves(state) == {"B4-W3", "W2-B1", "W4-B3"}  # B4 goes on round, past W1 and W2
    assert board(state.apply("B4-W3"))["W3"] == "w"


def test_an_overshooting_counter_comes_round_again_and_can_land_on_the_goal_later() -> None:
    state = at({"B1": "w", "W3": "wwww"}, side="w", die=4)
    state = play(state, "B1-B5", "d1", "hand-B1", "d4")  # past B3; Blue enters on B1
    assert moves(state) == {"B5-W4", "W3-B2"}
    state = play(state, "B5-W4", "d2", "hand-B2", "d4")  # round past W1 .. W3
    assert "W4-B3" in moves(state)
    assert state.apply("W4-B3").home(WHITE) == 1


def test_the_own_sacred_point_is_an_ordinary_stop_and_not_a_goal() -> None:
    state = at({"W2": "w", "W3": "wwww"}, side="w", die=1)
    assert moves(state) == {"W2-W3", "W3-W4"}
    after = state.apply("W2-W3")
    assert board(after) == {"W3": "wwwww"}
    assert not after.is_over  # five on W3 is Blue's goal point, not White's
    assert after.home(WHITE) == 0


def test_a_counter_on_the_goal_may_move_on() -> None:
    state = at({"B3": "ww", "W1": "w", "W2": "w", "W4": "w"}, side="w", die=2)
    assert moves(state) == {"B3-B5", "W1-W3", "W4-B1"}


def test_a_counter_on_the_goal_must_move_on_when_it_is_the_only_move() -> None:
    state = at({"B3": "wwww", "W1": "w", "W2": "b"}, side="w", die=1)
    assert moves(state) == {"B3-B4"}  # forced off the sacred line
    assert state.apply("B3-B4").home(WHITE) == 3


def test_skip_when_nothing_is_possible() -> None:
    # No counters in hand, and every counter's landing point holds a counter.
    points = {"W1": "w", "W2": "b", "W4": "w", "W5": "w", "B1": "b", "B4": "w", "B5": "w"}
    state = at(points, side="w", die=1)
    assert state.hand(WHITE) == 0
    assert moves(state) == {"pass"}
    after = state.apply("pass")
    assert board(after) == points and after.side == BLUE and after.to_move == CHANCE


def test_pass_is_refused_while_a_move_exists() -> None:
    message = refused(at({"W1": "w"}, side="w", die=1), "pass")
    assert "pass is only allowed when White can neither enter nor move" in message
    assert "legal moves: W1-W2" in message


# -- the end --------------------------------------------------------------------------------------


def test_all_five_on_the_goal_wins_at_once() -> None:
    state = at({"B3": "wwwwb", "B1": "w"}, side="w", die=2)
    after = state.apply("B1-B3")
    assert after.is_over and after.to_move is None and after.legal_moves() == ()
    assert after.outcome == Outcome.win(WHITE, 2, "White has all five counters on B3")


def test_blue_wins_with_all_five_on_w3() -> None:
    after = at({"W3": "wbbbb", "B5": "b"}, side="b", die=3).apply("B5-W3")
    assert after.outcome == Outcome.win(BLUE, 2, "Blue has all five counters on W3")


def test_four_on_the_goal_is_not_yet_a_win() -> None:
    after = at({"B3": "www", "B2": "w", "W1": "w"}, side="w", die=1).apply("B2-B3")
    assert after.home(WHITE) == 4 and not after.is_over


def test_no_move_is_legal_once_the_game_is_over() -> None:
    after = at({"B3": "wwww", "B1": "w"}, side="w", die=2).apply("B1-B3")
    with pytest.raises(ludoteca.IllegalMoveError, match="the game is over"):
        after.apply("d1")


def test_max_plies_ends_the_game_in_a_draw_counting_rolls_too() -> None:
    game = make(first=0, max_plies=3)
    state = play(game.initial_state(), "d4", "hand-W4")
    assert not state.is_over
    state = state.apply("d1")  # the third ply is a roll
    assert state.outcome == Outcome.draw(2, "engine safeguard: 3 plies without a result")


def test_a_win_on_the_last_ply_max_plies_allows_is_a_win_not_a_draw() -> None:
    state = at({"B3": "wwww", "B1": "w"}, side="w", die=2, max_plies=3)  # ply 2 of 3
    after = state.apply("B1-B3")
    assert after.ply == 3
    assert after.outcome == Outcome.win(WHITE, 2, "White has all five counters on B3")


def test_max_plies_defaults_to_10000() -> None:
    assert make().options["max_plies"] == 10_000
