"""What the front ends draw of a Splinter position, and the clicks that make its moves."""

from __future__ import annotations

from collections import Counter

from ludoteca.games.splinter.view import click_paths, drawing
from tests.games.splinter.test_rules import TWO_BLOCKS, make, small
from tests.support import play


def test_the_start_shows_each_sides_squares_crosses_and_circles() -> None:
    picture = drawing(make().initial_state())
    assert Counter((p.style, p.shape) for p in picture.pieces) == {
        ("blue", "square"): 2,
        ("blue", "cross"): 4,
        ("blue", "circle"): 9,
        ("red", "square"): 2,
        ("red", "cross"): 4,
        ("red", "circle"): 9,
    }
    assert {p.label for p in picture.pieces if p.region == "h9"} == {"Blue square"}
    assert picture.region("h9").label == "h9, Blue square"
    assert picture.notes[:2] == (
        "Blue: 2 squares, 4 crosses, 9 circles.",
        "Red: 2 squares, 4 crosses, 9 circles.",
    )


def test_the_board_follows_the_size_option() -> None:
    picture = drawing(make(size="7x8").initial_state())
    assert len(picture.regions) == 56
    assert (picture.width, picture.height) == (7.6, 8.6)
    a1, g8 = picture.region("a1"), picture.region("g8")
    assert a1.y > g8.y and a1.x < g8.x


def test_a_move_is_clicked_as_the_piece_then_the_square_it_moves_to() -> None:
    paths = click_paths(make().initial_state())
    assert paths["h9-NE"] == ("h9", "i10")
    assert paths["f7-S"] == ("f7", "f6")
    assert len(paths) == len(make().initial_state().legal_moves())


def test_splinter_push_with_two_surviving_groups_gives_two_moves_with_one_path() -> None:
    paths = click_paths(small(TWO_BLOCKS))
    assert paths["e5-NW/b3"] == paths["e5-NW/f6"] == ("e5", "d6")
    assert paths["e5-SE/b3"] == paths["e5-SE/f6"] == ("e5", "f4")
    assert Counter(paths.values())[("e5", "d6")] == 2


def test_the_no_return_rule_is_noted_and_marked_on_the_squares_it_holds() -> None:
    state = play(make().initial_state(), "g8-NE")
    picture = drawing(state)
    record = state.no_return
    assert record is not None
    direction, squares = record
    assert any(note.startswith("No return: the pieces on") for note in picture.notes)
    for square in squares:
        assert f"moved {direction} last turn (no return)" in picture.region(square).label


def test_while_the_first_player_is_drawn_nothing_is_clicked() -> None:
    state = make(first="random").initial_state()
    assert click_paths(state) == {}
    assert (
        drawing(state).status == "Who starts is drawn at random: first-0 (Blue) or first-1 (Red)."
    )
