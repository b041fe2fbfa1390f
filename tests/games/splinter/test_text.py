"""Splinter's notation, position text, options and the errors for bad input."""

from __future__ import annotations

import pytest

import ludoteca
from ludoteca import IllegalMoveError, InvalidMoveError, InvalidOptionError, InvalidStateError
from ludoteca.games.splinter import SplinterMove
from tests.games.splinter.diagrams import position
from tests.games.splinter.test_rules import EDGE, START_TEXT, TWO_BLOCKS, make, small
from tests.support import refused

START_BOARD = START_TEXT.split()[0]


# -- notation -------------------------------------------------------------------------------


def test_a_move_is_written_square_dash_direction() -> None:
    move = make().initial_state().parse_move("h9-N")
    assert isinstance(move, SplinterMove)
    assert (str(move), move.origin, move.direction, move.keeps) == ("h9-N", "h9", "N", None)


def test_a_tie_move_names_the_first_square_of_the_group_that_stays() -> None:
    move = small(TWO_BLOCKS).parse_move("e5-SE/f6")
    assert isinstance(move, SplinterMove)
    assert (move.origin, move.direction, move.keeps) == ("e5", "SE", "f6")


def test_move_text_is_read_regardless_of_case_and_spacing() -> None:
    state = make().initial_state()
    assert state.parse_move(" H9 - n ") == state.parse_move("h9-N")
    assert small(TWO_BLOCKS).parse_move("E5-se/F6").text == "e5-SE/f6"
    assert make(first="random").initial_state().parse_move("FIRST-1").text == "first-1"


@pytest.mark.parametrize("text", ["", "h9", "h9-", "h9-UP", "h9N", "h9-N/", "9h-N", "pass it"])
def test_malformed_move_text_is_refused_with_the_accepted_forms(text: str) -> None:
    with pytest.raises(InvalidMoveError, match=r"accepted forms: h9-NE \(the piece on h9"):
        make().initial_state().parse_move(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a1-N", "a1 is empty"),
        ("g7-N", "the piece on g7 is Red's; Blue moves only its own"),
        ("p1-N", "squares run from a1 to o18"),
        ("h9-N/h10", "this move leaves one largest group, so there is no choice; play h9-N"),
        ("pass", "pass is only allowed when Blue has no move"),
        ("first-0", "first-0 is the draw of the first player, only at the start with first=random"),
    ],
)
def test_an_illegal_move_is_refused_with_the_reason(text: str, expected: str) -> None:
    assert expected in refused(make().initial_state(), text)


def test_at_the_draw_of_the_first_player_only_the_draw_is_accepted() -> None:
    state = make(first="random").initial_state()
    assert "first the first player is drawn" in refused(state, "h9-N")


def test_a_move_object_from_another_position_is_refused_with_the_reason() -> None:
    tie = small(TWO_BLOCKS).parse_move("e5-NW/b3")
    assert "e5 is empty" in refused(small(EDGE), tie)  # type: ignore[arg-type]


def test_a_finished_game_refuses_every_move() -> None:
    state = make(max_plies=1).initial_state().apply("h9-N")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.apply("h13-S")


# -- position text ----------------------------------------------------------------------------


def test_the_start_position_text() -> None:
    assert make().initial_state().to_text() == START_TEXT
    assert make().parse_state(START_TEXT) == make().initial_state()


def test_position_text_carries_the_no_return_record() -> None:
    state = make().initial_state().apply("h9-N")
    assert state.to_text() == (
        "15/15/15/15/15/7o7/5oOXOo5/5OxsxO5/5oXSSo5/5Os1xO5/5oXxXo5/5OoOoO5/15/15/15/15/15/15 "
        "r 1 N:h10,h11,h12,h13"
    )
    again = make().parse_state(state.to_text())
    assert again == state and again.legal_moves() == state.legal_moves()
    assert len(state.legal_moves()) == 118  # h13-S and h11-S would push pieces back


def test_position_text_of_the_draw_of_the_first_player() -> None:
    game = make(first="random")
    assert game.initial_state().to_text() == START_BOARD + " ? 0 -"
    assert game.parse_state(START_BOARD + " r 0 -").to_move == 1


def test_position_text_on_another_board_size() -> None:
    text = position(EDGE, 3, "W:d5")
    with pytest.raises(InvalidStateError, match="the board has 10 ranks; expected 18"):
        make().parse_state(text)
    assert make(size="9x10").parse_state(text).to_text() == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "has 0 fields; expected '<18 ranks from the top"),
        (START_BOARD + " b 0", "has 3 fields"),
        (START_BOARD + " b 0 - x", "has 5 fields"),
        ("15/" * 16 + "15 b 0 -", "the board has 17 ranks; expected 18"),
        (START_TEXT.replace("5oOoOo5", "5oOoOo6", 1), "rank 12 ('5oOoOo6') must describe 15"),
        (START_TEXT.replace("5oOoOo5", "5oOoOq5", 1), "a piece letter (S X O Blue, s x o Red)"),
        (START_TEXT.replace("5oOoOo5", "05oOoOo5", 1), "rank 12 ('05oOoOo5') must describe"),
        (START_TEXT.replace("15/15/15/15", "X14/15/15/15", 1), "Blue has 5 crosses on the"),
        ("/".join(["15"] * 18) + " b 0 -", "the board is empty"),
        (START_TEXT.replace(" b 0 -", " b x -"), "turns played must be a whole number"),
        (START_TEXT.replace(" b 0 -", " r 0 -"), "with first=0 (Blue starts)"),
        (START_TEXT.replace(" b 0 -", " g 0 -"), "side to move must be b, r or ?"),
        (START_TEXT.replace(" b 0 -", " ? 0 -"), "only for the start of a game with first=random"),
        (START_TEXT.replace(" b 0 -", " b 0 N:h10"), "a no-return record needs a turn"),
        (START_TEXT.replace(" b 0 -", " r 1 Q:h10"), "the no-return record must be '-' or"),
        (START_TEXT.replace(" b 0 -", " r 1 N:"), "the no-return record must be '-' or"),
        (START_TEXT.replace(" b 0 -", " r 1 N:z99"), "names 'z99', not a square here"),
        (START_TEXT.replace(" b 0 -", " r 1 N:h13"), "names h13, which is empty"),
        (START_TEXT.replace(" b 0 -", " r 1 N:h10,h12"), "must follow each other towards N"),
        (START_TEXT.replace(" b 0 -", " r 1 N:h10,h11"), "so h10 must hold a Blue piece"),
        (START_TEXT.replace(" b 0 -", " r 1 N:g10"), "the square it left must be an empty"),
    ],
)
def test_bad_position_text_is_refused_with_the_reason(text: str, expected: str) -> None:
    with pytest.raises(InvalidStateError) as caught:
        make().parse_state(text)
    assert expected in str(caught.value)


def test_position_text_with_two_groups_is_refused() -> None:
    split = EDGE.replace("4 S s O o", "4 S s . o")
    with pytest.raises(InvalidStateError, match="the pieces form 2 groups; after every move"):
        make(size="9x10").parse_state(position(split.replace("5 o O x X", "5 o O . X")))


def test_position_text_must_be_a_string() -> None:
    with pytest.raises(InvalidStateError, match="must be a string"):
        make().parse_state(None)  # type: ignore[arg-type]


def test_str_draws_the_board_with_coordinates_counts_and_whose_turn() -> None:
    lines = str(make().initial_state().apply("h9-N")).splitlines()
    assert lines[0] == "18 . . . . . . . . . . . . . . ."
    assert lines[6] == "12 . . . . . o O X O o . . . . ."
    assert lines[18] == "   a b c d e f g h i j k l m n o"
    assert lines[19:] == [
        "Blue (S X O): squares 2, crosses 4, circles 9",
        "Red (s x o): squares 2, crosses 4, circles 9",
        "No return: the pieces on h10, h11, h12, h13 moved N last turn and may not be pushed "
        "back S.",
        "Red to move, turn 2.",
    ]


# -- options ----------------------------------------------------------------------------------


def test_default_options() -> None:
    assert make().options == {
        "size": "15x18",
        "layout": "OOO/XX/OSO/XS/OXO/OO",
        "first": 0,
        "max_plies": 1000,
    }


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"size": "16x18"}, "an odd number of files from 5 to 25 and an even number of ranks"),
        ({"size": "15x17"}, "accepted: files x ranks, such as 15x18"),
        ({"size": "3x4"}, "accepted: files x ranks"),
        ({"size": "27x28"}, "accepted: files x ranks"),
        ({"size": 15}, "accepted: files x ranks"),
        ({"size": "27x26"}, "accepted: files x ranks"),
        ({"size": "25x28"}, "accepted: files x ranks"),
        ({"size": "3x6"}, "accepted: files x ranks"),
        ({"size": "5x4"}, "accepted: files x ranks"),
        ({"size": "15x18x2"}, "accepted: files x ranks"),
        ({"layout": 7}, "accepted: Blue's 15 start cells row by row"),
        ({"layout": "OOO/XX/OSO/XS/OXO"}, "rows of 3/2/3/2/3/2 letters"),
        ({"layout": "SSS/XX/OOO/XO/OOO/OO"}, "with 2 squares, 4 crosses and 9 circles"),
        ({"layout": "OOO/XX/OQO/XS/OXO/OO"}, "(S square, X cross, O circle)"),
        ({"first": 2}, "accepted: one of 0, 1, random"),
        ({"first": "blue"}, "accepted: one of 0, 1, random"),
        ({"max_plies": 0}, "accepted: an integer from 1 to 1000000"),
        ({"max_plies": None}, "accepted: an integer from 1 to 1000000"),
        ({"max_plies": "many"}, "accepted: an integer from 1 to 1000000"),
        ({"colour": "blue"}, "accepted options: size, layout, first, max_plies"),
    ],
)
def test_bad_options_are_refused_with_the_accepted_values(
    options: dict[str, object], expected: str
) -> None:
    with pytest.raises(InvalidOptionError) as caught:
        ludoteca.make("splinter", **options)
    assert expected in str(caught.value)


@pytest.mark.parametrize(
    ("size", "files", "ranks"),
    [("5x6", "abcde", (1, 6)), ("25x26", "klmno", (11, 16)), ("5x26", "abcde", (11, 16))],
)
def test_option_size_accepts_the_smallest_and_largest_boards(
    size: str, files: str, ranks: tuple[int, int]
) -> None:
    state = make(size=size).initial_state()
    assert {square[0] for square in state.pieces()} == set(files)
    assert {int(square[1:]) for square in state.pieces()} == set(range(ranks[0], ranks[1] + 1))
    assert state.counts(0) == state.counts(1) == (2, 4, 9)


def test_options_given_as_text_are_read() -> None:
    game = make(size=" 9X10 ", first="1", max_plies="50")
    assert game.options == {
        "size": "9x10",
        "layout": "OOO/XX/OSO/XS/OXO/OO",
        "first": 1,
        "max_plies": 50,
    }
    assert game == make(size="9x10", first=1, max_plies=50)
    assert make(first="random").options["first"] == "random"
