"""Pente Grammai's options, one named scenario per option value (RULES.md, "Options").

`first` decides who starts, `sacred` how the sacred points work, `capture` the knock-off mode
and `start` where the counters begin; `max_plies` is in test_rules.py.
"""

from __future__ import annotations

import pytest

import ludoteca
from ludoteca import CHANCE, InvalidOptionError, Outcome
from tests.games.pente_grammai.positions import BLUE, WHITE, at, board, make
from tests.support import moves, play, refused


def test_default_options() -> None:
    assert make().options == {
        "first": "random",
        "sacred": "schaedler",
        "capture": False,
        "start": "hand",
        "max_plies": 10_000,
    }


# -- first ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("first", "side"), [(0, WHITE), (1, BLUE)])
def test_first_fixes_who_starts_without_a_draw(first: int, side: int) -> None:
    state = make(first=first).initial_state()
    assert state.to_move == CHANCE and state.side == side and state.ply == 0
    assert [move.text for move in state.legal_moves()] == [f"d{face}" for face in range(1, 7)]
    assert play(state, "d2").to_move == side


def test_first_random_draws_who_starts_before_the_first_roll() -> None:
    state = make(first="random").initial_state()
    assert state.side is None
    assert [move.text for move in state.legal_moves()] == ["first-0", "first-1"]
    assert "who starts is drawn first" in refused(state, "d3")
    assert "who starts was decided already" in refused(state.apply("first-0"), "first-1")


# -- capture (Locus Ludi's knock-off mode) --------------------------------------------------------


def test_capture_sends_a_lone_opponent_counter_back_to_its_hand() -> None:
    state = at({"W2": "w", "W4": "b"}, side="w", die=2, capture=True)  # W2 blocks the entry
    assert moves(state) == {"W2-W4"}
    after = state.apply("W2-W4")
    assert board(after) == {"W4": "w"}
    assert after.hand(BLUE) == 5


def test_capture_also_happens_when_entering() -> None:
    state = at({"W2": "b"}, side="w", die=2, capture=True)
    assert moves(state) == {"hand-W2"}
    after = state.apply("hand-W2")
    assert board(after) == {"W2": "w"} and after.hand(BLUE) == 5 and after.hand(WHITE) == 4


def test_capture_a_six_knocks_the_counter_off_the_opponents_point_1() -> None:
    state = at({"W1": "w"}, side="b", die=6, capture=True)
    assert moves(state) == {"hand-W1"}
    after = state.apply("hand-W1")
    assert board(after) == {"W1": "b"} and after.hand(WHITE) == 5 and after.hand(BLUE) == 4


def test_capture_only_the_counter_landed_on_not_those_passed_over() -> None:
    state = at({"W1": "w", "W2": "b", "W3": "b", "B3": "wwww"}, side="w", die=3, capture=True)
    assert moves(state) == {"W1-W4"}  # B3-W1 would land on White's own counter
    after = state.apply("W1-W4")
    assert board(after) == {"W2": "b", "W3": "b", "W4": "w", "B3": "wwww"}
    assert after.hand(BLUE) == 3


def test_capture_never_happens_on_a_sacred_point() -> None:
    state = at({"B2": "w", "B3": "b", "W1": "w"}, side="w", die=1, capture=True)
    assert moves(state) == {"W1-W2", "B2-B3"}
    after = state.apply("B2-B3")
    assert board(after) == {"B3": "wb", "W1": "w"} and after.hand(BLUE) == 4


def test_capture_never_lands_on_an_own_counter() -> None:
    state = at({"W1": "w", "W2": "w", "W3": "w"}, side="w", die=1, capture=True)
    assert moves(state) == {"W2-W3", "W3-W4"}


def test_without_capture_an_opponent_counter_blocks() -> None:
    state = at({"W2": "w", "W4": "b"}, side="w", die=2)
    assert moves(state) == {"pass"}
    assert "W4 holds a Blue counter" in refused(state, "W2-W4")
    assert "capture is off" in refused(state, "W2-W4")


def test_a_captured_counter_must_enter_again_before_its_side_moves() -> None:
    state = at({"W2": "w", "W4": "b", "B1": "b"}, side="w", die=2, capture=True)
    state = play(state, "W2-W4", "d2")  # Blue: four in hand now, and B2 is free
    assert state.hand(BLUE) == 4
    assert moves(state) == {"hand-B2"}


def test_capture_with_storage_spares_counters_on_sacred_points() -> None:
    points = {"W1": "b", "W3": "w", "B2": "b"}
    state = at(points, side="b", die=2, sacred="storage", capture=True)
    assert moves(state) == {"B2-B4"}  # White's counter on W3 is safe there and blocks W1-W3


# -- sacred="storage" (the Ludii-like reading) ----------------------------------------------------


def test_storage_landing_exactly_on_the_empty_goal_stores_the_counter() -> None:
    state = at({"B1": "w", "W1": "w", "W2": "w", "W3": "w", "W4": "w"}, die=2, sacred="storage")
    assert "B1-B3" in moves(state)
    after = state.apply("B1-B3")
    assert after.stored(WHITE) == 1 and after.counters("B3") == (0, 0)
    assert after.home(WHITE) == 1


def test_storage_blue_stores_a_counter_landing_exactly_on_the_empty_w3() -> None:
    state = at({"B5": "b", "B3": "b"}, side="b", die=3, sacred="storage")  # B3 blocks the entry
    assert moves(state) == {"B5-W3", "B3-W1"}
    after = state.apply("B5-W3")
    assert after.stored(BLUE) == 1 and after.counters("W3") == (0, 0)
    assert board(after) == {"B3": "b"}


def test_storage_the_own_sacred_point_is_a_one_counter_stop_not_a_store() -> None:
    after = at(side="w", die=3, sacred="storage").apply("hand-W3")
    assert board(after) == {"W3": "w"} and after.stored(WHITE) == 0 and after.home(WHITE) == 0


def test_storage_stored_counters_are_frozen() -> None:
    state = at({"B1": "w", "W1": "w"}, side="w", die=6, stored=(3, 0), sacred="storage")
    assert moves(state) == {"B1-W2", "W1-B2"}  # nothing leaves the store
    assert "stored counters stay in the store" in refused(state, "B3-W4")
    assert state.apply("W1-B2").stored(WHITE) == 3


def test_storage_sacred_points_hold_one_counter() -> None:
    points = {"W1": "w", "W2": "w", "W3": "w"}
    assert moves(at(points, side="w", die=1)) == {"W2-W3", "W3-W4"}
    state = at(points, side="w", die=1, sacred="storage")
    assert moves(state) == {"W3-W4"}
    assert "with sacred=storage a sacred point holds one" in refused(state, "W2-W3")
    assert moves(at({"W3": "w"}, side="w", die=3)) == {"hand-W3"}
    assert moves(at({"W3": "w"}, side="w", die=3, sacred="storage")) == {"W3-B1"}


def test_storage_an_occupied_goal_cannot_be_landed_on() -> None:
    state = at({"B1": "w", "B3": "b", "W2": "w"}, side="w", die=2, sacred="storage")
    assert moves(state) == {"W2-W4"}
    assert "B3 already holds a counter" in refused(state, "B1-B3")


def test_storage_a_counter_that_overshoots_the_goal_keeps_circling() -> None:
    state = at({"B2": "w", "W1": "w"}, side="w", die=3, stored=(3, 0), sacred="storage")
    assert moves(state) == {"B2-B5", "W1-W4"}
    assert play(state, "B2-B5").stored(WHITE) == 3


def test_storage_all_five_stored_wins() -> None:
    state = at({"B1": "w"}, side="w", die=2, stored=(4, 0), sacred="storage")
    after = state.apply("B1-B3")
    assert after.outcome == Outcome.win(WHITE, 2, "White stored all five counters")


def test_storage_a_position_where_nobody_can_ever_move_is_a_draw() -> None:
    # An engine safeguard: all ten one-counter points taken, each goal held by the other side.
    points = {"W1": "b", "W3": "w", "W4": "w", "W5": "w", "B1": "b", "B2": "w"}
    points |= {"B3": "b", "B4": "b", "B5": "b"}
    state = at(points, side="w", die=2, sacred="storage")
    assert moves(state) == {"hand-W2"}
    after = state.apply("hand-W2")
    assert after.outcome is not None and after.outcome.winner is None
    assert "no roll can ever give either side a move again" in after.outcome.reason


def test_storage_with_the_schaedler_start_needs_capture() -> None:
    with pytest.raises(InvalidOptionError, match="no counter could ever move"):
        make(sacred="storage", start="schaedler")
    assert not make(sacred="storage", start="schaedler", capture=True).initial_state().is_over


# -- start ----------------------------------------------------------------------------------------


def test_start_hand_puts_every_counter_in_hand() -> None:
    state = make(start="hand").initial_state()
    assert board(state) == {} and state.hand(WHITE) == state.hand(BLUE) == 5


def test_start_schaedler_puts_white_on_w1_to_w5_and_blue_on_b1_to_b5() -> None:
    state = make(start="schaedler").initial_state()
    assert board(state) == {f"W{n}": "w" for n in range(1, 6)} | {f"B{n}": "b" for n in range(1, 6)}
    assert state.hand(WHITE) == state.hand(BLUE) == 0
    assert state.to_text() == "w/w/w/w/w/b/b/b/b/b 0 0 0 0 - - 0"


def test_start_schaedler_first_moves() -> None:
    state = play(make(start="schaedler", first=0).initial_state(), "d1")
    assert moves(state) == {"W2-W3"}  # W3 takes any number; the other points are full
    assert moves(play(state, "W2-W3", "d4")) == {"B3-W2", "B4-W3"}


# -- validation -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"first": 2}, "accepted: one of random, 0, 1"),
        ({"first": "white"}, "accepted: one of random, 0, 1"),
        ({"sacred": "ludii"}, "accepted: one of schaedler, storage"),
        ({"capture": "sometimes"}, "accepted: true or false"),
        ({"start": "board"}, "accepted: one of hand, schaedler"),
        ({"max_plies": 0}, "accepted: an integer from 1 to 1000000"),
        ({"max_plies": "many"}, "accepted: an integer from 1 to 1000000"),
        ({"max_plies": 1.5}, "accepted: an integer from 1 to 1000000"),
        ({"first": None}, "accepted: one of random, 0, 1"),
        ({"sacred": ""}, "accepted: one of schaedler, storage"),
        ({"dice": 2}, "accepted options: first, sacred, capture, start, max_plies"),
    ],
)
def test_bad_options_are_refused_with_the_accepted_values(
    options: dict[str, object], expected: str
) -> None:
    with pytest.raises(InvalidOptionError) as caught:
        ludoteca.make("pente_grammai", **options)
    assert expected in str(caught.value)


def test_options_given_as_text_are_read() -> None:
    game = make(first="1", capture="true", sacred="storage", max_plies="500")
    assert game == make(first=1, capture=True, sacred="storage", max_plies=500)
    assert game.options["first"] == 1
