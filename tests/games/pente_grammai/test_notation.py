"""Pente Grammai's notation, position text and board diagram (docs/rules/pente_grammai.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludoteca import InvalidMoveError, InvalidStateError
from ludoteca.games import pente_grammai
from ludoteca.games.pente_grammai import PenteGrammaiMove
from tests.games.pente_grammai.positions import at, make, position_text
from tests.support import moves, play, refused

# -- moves ----------------------------------------------------------------------------------------


def test_move_text_is_read_regardless_of_case_and_spacing() -> None:
    state = at({"W1": "w"}, side="w", die=1)
    assert state.parse_move(" w1 - w2 ").text == "W1-W2"
    assert at(side="w", die=4).parse_move("HAND-w4").text == "hand-W4"
    assert make().initial_state().parse_move("First-1").text == "first-1"
    assert make(first=0).initial_state().parse_move(" D6").text == "d6"


@pytest.mark.parametrize(
    "text", ["", "W6-B1", "hand-W6", "d7", "d0", "W4B2", "hand", "first-2", "W4-", "e2-e4", "x"]
)
def test_malformed_move_text_is_refused_with_the_accepted_forms(text: str) -> None:
    with pytest.raises(InvalidMoveError, match=r"accepted forms: d1 … d6 \(the die\)"):
        at({"W1": "w"}, side="w", die=4).parse_move(text)


def test_a_move_knows_its_origin_and_destination() -> None:
    entry = at(side="w", die=4).parse_move("hand-W4")
    assert isinstance(entry, PenteGrammaiMove)
    assert (entry.is_entry, entry.origin, entry.destination) == (True, "hand", "W4")
    step = at({"W1": "w"}, side="w", die=1).parse_move("W1-W2")
    assert isinstance(step, PenteGrammaiMove)
    assert (step.is_entry, step.origin, step.destination) == (False, "W1", "W2")
    roll = make(first=0).initial_state().parse_move("d3")
    assert isinstance(roll, PenteGrammaiMove)
    assert (roll.is_chance, roll.index, roll.origin, roll.destination) == (True, 2, None, None)


def test_the_action_codec_numbers_moves_by_origin_point() -> None:
    state = at({"W1": "w", "B3": "wwww"}, side="w", die=1)
    assert [(move.index, move.text) for move in state.legal_moves()] == [(0, "W1-W2"), (7, "B3-B4")]
    assert at(side="w", die=1).legal_moves()[0].index == 10  # enter
    assert at({"W1": "b", "B4": "w", "B5": "b"}, die=1).legal_moves()[0].index == 11  # pass
    assert [move.index for move in make().initial_state().legal_moves()] == [6, 7]


@pytest.mark.parametrize(
    ("points", "die", "text", "expected"),
    [
        ({"W1": "w"}, 1, "W2-W3", "there is no White counter on W2"),
        ({"W1": "w"}, 1, "B1-B2", "there is no White counter on B1"),
        ({"W1": "w"}, 1, "W1-W3", "with a 1 the counter on W1 goes to W2"),
        ({}, 4, "hand-W5", "for White a 4 enters on W4, not on W5"),
        ({}, 6, "hand-W1", "a 6 enters on B1, the opponent's point 1, not on W1"),
        ({"W1": "w", "W2": "w", "W3": "w", "W4": "w", "W5": "w"}, 1, "hand-W1", "no counters"),
    ],
)
def test_an_illegal_move_is_refused_with_the_reason(
    points: dict[str, str], die: int, text: str, expected: str
) -> None:
    assert expected in refused(at(points, side="w", die=die), text)


def test_a_move_before_the_roll_is_refused_with_the_reason() -> None:
    state = make(first=0).initial_state()
    assert "White's turn starts with a roll of the die (d1 … d6)" in refused(state, "hand-W4")
    assert "who starts was decided already" in refused(state, "first-0")


def test_a_roll_after_the_roll_is_refused_with_the_reason() -> None:
    message = refused(at(side="b", die=4), "d3")
    assert "Blue has rolled a 4 already and must now move; legal moves: hand-B4" in message


# -- position text --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "text"),
    [
        ({}, "./././././././././. 5 5 0 0 - - 0"),
        ({"first": 0}, "./././././././././. 5 5 0 0 w - 0"),
        ({"first": 1, "sacred": "storage"}, "./././././././././. 5 5 0 0 b - 0"),
        ({"start": "schaedler", "first": 1}, "w/w/w/w/w/b/b/b/b/b 0 0 0 0 b - 0"),
    ],
)
def test_the_start_position_text(options: dict[str, object], text: str) -> None:
    game = make(**options)
    assert game.initial_state().to_text() == text
    assert game.parse_state(text) == game.initial_state()


def test_position_text_after_a_few_moves() -> None:
    state = play(make().initial_state(), "first-1", "d6", "hand-W1", "d3", "hand-W3", "d3")
    assert state.to_text() == "b/./w/././././././. 4 4 0 0 b 3 6"
    assert make().parse_state(state.to_text()) == state


def test_position_text_of_a_finished_game_round_trips() -> None:
    after = at({"B3": "wwww", "B1": "w"}, side="w", die=2).apply("B1-B3")
    assert after.to_text() == "./././././././wwwww/./. 0 5 0 0 b - 3"
    assert make().parse_state(after.to_text()).is_over


def test_position_text_with_stored_counters_round_trips() -> None:
    state = at({"B1": "w"}, side="w", die=2, stored=(2, 1), sacred="storage")
    assert state.to_text() == "./././././w/./././. 2 4 2 1 w 2 2"
    assert make(sacred="storage").parse_state(state.to_text()) == state


START = "./././././././././."


def board_with(**cells: str) -> str:
    """The ten points of the position text, empty but for ``cells`` (e.g. ``W1="ww"``)."""
    names = ("W1", "W2", "W3", "W4", "W5", "B1", "B2", "B3", "B4", "B5")
    return "/".join(cells.get(name, ".") for name in names)


@pytest.mark.parametrize(
    ("options", "text", "expected"),
    [
        ({}, "", "has 0 fields; expected 8"),
        ({}, f"{START} 5 5 0 0 - - 0 extra", "has 9 fields"),
        ({}, "./././././././././ 5 5 0 0 - - 0", "point B5 ('') must be '.'"),
        ({}, "./././. 5 5 0 0 - - 0", "the board has 4 points; expected 10"),
        ({}, "x/./././././././././. 5 5 0 0 - - 0", "the board has 11 points"),
        ({}, f"{board_with(W1='W')} 5 5 0 0 - - 0", "point W1 ('W') must be"),
        ({}, f"{board_with(W1='bw')} 5 5 0 0 - - 0", "point W1 ('bw') must be"),
        ({}, f"{board_with(W1='ww')} 3 5 0 0 - - 0", "W1 holds 2 counters; an ordinary point"),
        ({}, f"{START} 5 4 0 0 - - 0", "Blue has 0 on the board, 4 in hand and 0 stored: 4"),
        ({}, f"{START} 5 5 x 0 - - 0", "must be whole numbers"),
        ({}, f"{START} 4 5 1 0 - - 0", "stored counters exist only with sacred=storage"),
        ({"sacred": "storage"}, f"{board_with(W3='ww')} 3 5 0 0 w - 1", "W3 holds 2 counters; a"),
        (
            {"sacred": "storage"},
            f"{board_with(B3='w')} 4 5 0 0 w 3 2",
            "White counter landing on B3",
        ),
        (
            {"sacred": "storage"},
            f"{board_with(W3='b')} 5 4 0 0 w 3 2",
            "Blue counter landing on W3",
        ),
        ({}, f"{START} 5 5 0 0 - - x", "plies played must be a whole number"),
        ({"max_plies": 50}, f"{START} 5 5 0 0 w - 51", "ends in a draw after max_plies (50)"),
        ({}, f"{START} 5 5 0 0 x - 1", "expected the side to move (w, b or -)"),
        ({}, f"{START} 5 5 0 0 w 7 2", "and the die (1-6 or -)"),
        ({}, f"{START} 5 5 0 0 w - 0", "with first=random the game starts with '- -'"),
        ({}, f"{START} 5 5 0 0 - - 3", "after 3 plies the side to move must be w or b"),
        ({}, f"{START} 5 5 0 0 w 4 1", "after 1 plies the die field must be '-'"),
        ({}, f"{START} 5 5 0 0 w - 2", "after 2 plies the die field must be a die 1-6"),
        (
            {"first": 0},
            f"{START} 5 5 0 0 b - 0",
            "with first=0 the side to move after 0 plies is w",
        ),
        ({"start": "schaedler"}, f"{START} 5 5 0 0 - - 0", "every counter is on the board"),
        ({}, f"{board_with(B3='wwwww')} 0 5 0 0 w - 3", "White is home, so the game ended"),
        ({}, f"{board_with(B3='wwwww')} 0 5 0 0 b 2 4", "White is home, so the game ended"),
    ],
)
def test_bad_position_text_is_refused_with_the_reason(
    options: dict[str, object], text: str, expected: str
) -> None:
    with pytest.raises(InvalidStateError) as caught:
        make(**options).parse_state(text)
    assert expected in str(caught.value)


def test_position_text_must_be_a_string() -> None:
    with pytest.raises(InvalidStateError, match="must be a string"):
        make().parse_state(None)  # type: ignore[arg-type]


def test_the_position_helper_writes_canonical_text() -> None:
    text = position_text({"W1": "w", "B3": "wb"}, side="b", die=5)
    assert make().parse_state(text).to_text() == text


# -- the board diagram ----------------------------------------------------------------------------


def test_the_board_diagram_shows_the_points_counts_roll_and_legal_moves() -> None:
    state = at({"W1": "w", "B3": "wwb", "W4": "b"}, side="w", die=2)
    assert str(state) == "\n".join(
        [
            "                         Blue",
            "  B1 [    .     ]----------------------[    .     ] W5",
            "  B2 [    .     ]----------------------[    b     ] W4",
            "  B3 [   wwb    ]==== sacred line =====[    .     ] W3",
            "  B4 [    .     ]----------------------[    .     ] W2",
            "  B5 [    .     ]----------------------[    w     ] W1",
            "                        White",
            "Circuit: W1 > W2 > W3 > W4 > W5 > B1 > B2 > B3 > B4 > B5 > W1",
            "White: 2 in hand, 2 home on B3 · Blue: 3 in hand, 0 home on W3",
            "White rolled a 2. Legal moves: hand-W2",
        ]
    )


def test_the_status_line_says_whose_roll_a_pass_and_the_result() -> None:
    assert str(make().initial_state()).endswith(
        "Who starts is drawn: first-0 (White) or first-1 (Blue)."
    )
    assert str(make(first=1).initial_state()).endswith("Blue to roll the die (d1 … d6), ply 1.")
    passing = at({"W1": "b", "B4": "w", "B5": "b"}, side="w", die=1)
    assert str(passing).endswith("White rolled a 1 and can neither enter nor move: pass.")
    won = at({"B3": "wwww", "B1": "w"}, side="w", die=2).apply("B1-B3")
    assert str(won).endswith("White wins: White has all five counters on B3.")
    stored = at({"B1": "w"}, side="w", die=2, stored=(1, 0), sacred="storage")
    assert "White: 3 in hand, 1 stored from B3" in str(stored)


# -- the rules page and the module docstring -----------------------------------------------------

RULES_PAGE = Path(__file__).parents[3] / "docs" / "rules" / "pente_grammai.md"


def test_the_example_from_the_rules_page() -> None:
    state = play(make().initial_state(), "first-0", "d4", "hand-W4", "d6", "hand-W1", "d4")
    assert moves(state) == {"W4-B3"}
    message = refused(state, "hand-W4")
    assert "W4 already holds a White counter" in message
    assert "so White cannot enter and must move a counter instead" in message
    assert state.apply("W4-B3").home(0) == 1


def test_the_diagrams_in_the_docs_are_what_the_terminal_draws() -> None:
    drawn = str(make().initial_state()).splitlines()[:7]
    page = RULES_PAGE.read_text(encoding="utf-8").splitlines()
    start = page.index(drawn[1])
    assert page[start - 1 : start + 6] == drawn
    docstring = [line[4:] for line in (pente_grammai.__doc__ or "").splitlines()]
    start = docstring.index(drawn[1])
    assert docstring[start - 1 : start + 6] == drawn
