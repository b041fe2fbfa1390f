"""What the front ends draw of a Pente Grammai position, and the clicks that make its moves."""

from __future__ import annotations

from collections import Counter

from ludoteca.games.pente_grammai.view import click_paths, drawing
from tests.games.pente_grammai.positions import at, make

# White's five counters on W1-W5: with a 1 only W2-W3 (a sacred point) and W5-B1 can move.
FIVE_ON_WHITES_SIDE = {"W1": "w", "W2": "w", "W3": "w", "W4": "w", "W5": "w"}
# With a 4 White can neither enter (Blue holds W4) nor move W5 to B4 (Blue holds it too).
BLOCKED = {"W4": "b", "W5": "w", "B4": "b"}


def test_the_board_has_ten_points_and_two_hands_and_the_sacred_points_stand_out() -> None:
    picture = drawing(make().initial_state())
    assert [region.id for region in picture.regions] == [
        *("W1", "W2", "W3", "W4", "W5", "B1", "B2", "B3", "B4", "B5"),
        *("hand-blue", "hand-white"),
    ]
    assert {r.id for r in picture.regions if r.style == "sacred"} == {"W3", "B3"}
    assert picture.region("W3").label == "W3, sacred point, Blue's goal, empty"
    assert picture.region("B3").shape == "circle"
    w1, w5, b1 = picture.region("W1"), picture.region("W5"), picture.region("B1")
    assert w1.y > w5.y  # W1 is on line 1, nearest White at the bottom
    assert b1.x < w5.x and b1.y == w5.y  # B1 and W5 are the ends of line 5
    assert [mark.style for mark in picture.marks if mark.kind == "line"].count("sacred") == 1


def test_every_counter_is_drawn_in_hand_on_its_point_or_in_the_store() -> None:
    start = drawing(make().initial_state())
    assert Counter((p.region, p.style) for p in start.pieces) == {
        ("hand-white", "white"): 5,
        ("hand-blue", "blue"): 5,
    }
    state = at({"W4": "w", "B3": "wwb"}, side="w", die=4)
    picture = drawing(state)
    assert Counter((p.region, p.style) for p in picture.pieces) == {
        ("W4", "white"): 1,
        ("B3", "white"): 2,
        ("B3", "blue"): 1,
        ("hand-white", "white"): 2,
        ("hand-blue", "blue"): 4,
    }
    assert all(p.shape == "disc" for p in picture.pieces)
    assert picture.region("B3").label == (
        "B3, sacred point, White's goal, 2 White counters and 1 Blue counter"
    )


def test_with_storage_each_side_has_a_store_holding_its_stored_counters() -> None:
    state = at({"W4": "w"}, side="w", die=4, stored=(2, 1), sacred="storage")
    picture = drawing(state)
    assert picture.region("store-white").style == "store"
    stored = Counter(p.style for p in picture.pieces if p.region.startswith("store-"))
    assert stored == {"white": 2, "blue": 1}
    assert len(picture.pieces) == 10


def test_pente_grammai_die_label_says_what_the_die_can_do() -> None:
    def die_label(**kwargs: object) -> str:
        (die,) = drawing(at(**kwargs)).dice  # type: ignore[arg-type]
        return die.label

    assert die_label(side="w", die=4) == "die 4: White must enter a counter on W4"
    assert die_label(points=FIVE_ON_WHITES_SIDE, side="w", die=1) == (
        "die 1: White moves one counter 1 point: W2-W3, W5-B1"
    )
    assert die_label(side="b", die=None) == "die: to be rolled by Blue"
    assert die_label(points=BLOCKED, side="w", die=4) == (
        "die 4: White can neither enter nor move a counter, so passes"
    )


def test_the_die_is_unrolled_before_who_starts_is_drawn() -> None:
    (die,) = drawing(make().initial_state()).dice
    assert (die.value, die.label) == (0, "die: not rolled yet; first who starts is drawn")


def test_one_click_moves_a_counter_the_hand_enters_one_and_pass_has_none() -> None:
    assert click_paths(at(side="w", die=4)) == {"hand-W4": ("hand-white",)}
    assert click_paths(at(side="b", die=6)) == {"hand-W1": ("hand-blue",)}
    moving = at(FIVE_ON_WHITES_SIDE, side="w", die=1)
    assert click_paths(moving) == {"W2-W3": ("W2",), "W5-B1": ("W5",)}
    assert click_paths(at(BLOCKED, side="w", die=4)) == {"pass": ()}


def test_at_a_roll_nothing_is_clicked() -> None:
    assert click_paths(make().initial_state()) == {}
    assert click_paths(at(side="w", die=None)) == {}


def test_the_status_and_notes_say_whose_turn_and_where_the_counters_are() -> None:
    picture = drawing(at(side="w", die=4))
    assert picture.status == "White rolled a 4. Legal moves: hand-W4"
    assert picture.notes == (
        "White: 5 in hand, 0 home on B3.",
        "Blue: 5 in hand, 0 home on W3.",
    )
