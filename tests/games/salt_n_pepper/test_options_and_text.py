"""Options (first, ranks, the refusals), notation and position text of Salt 'n' Pepper."""

from __future__ import annotations

import pytest

import ludoteca
from ludoteca import CHANCE, InvalidMoveError, InvalidOptionError, InvalidStateError
from ludoteca.games.salt_n_pepper import SaltNPepperMove
from tests.games.salt_n_pepper.helpers import PEPPER, SALT, make
from tests.support import moves, play, refused

START_TEXT = (
    "S.S.S.S.S./.S.S.S.S.S/S.S.S.S.S./........../........../........../........../"
    "P.P.P.P.P./.P.P.P.P.P/P.P.P.P.P. - 0 0"
)

# -- option first: the bag draw ------------------------------------------------------------------


def test_by_default_the_bag_draw_is_a_chance_node_at_even_odds() -> None:
    state = make().initial_state()
    assert state.to_move == CHANCE
    assert [(move.text, p) for move, p in state.chance_outcomes()] == [
        ("first-0", 0.5),
        ("first-1", 0.5),
    ]
    assert all(move.is_chance for move in state.legal_moves())
    assert "Bag draw: who moves first?" in str(state)


def test_the_bag_draw_decides_who_moves_first() -> None:
    salt_first = make().initial_state().apply("first-0")
    pepper_first = make().initial_state().apply("first-1")
    assert salt_first.to_move == SALT and salt_first.first == SALT
    assert pepper_first.to_move == PEPPER and pepper_first.first == PEPPER
    assert len(salt_first.legal_moves()) == 9 and len(pepper_first.legal_moves()) == 15
    assert pepper_first.to_text().endswith(" p 0 0")


def test_turns_alternate_from_whoever_was_drawn() -> None:
    state = play(make().initial_state(), "first-1", "a3-a4", "a8-b7")
    assert state.to_move == PEPPER and state.ply == 2


def test_a_move_before_the_bag_draw_is_refused_with_the_reason() -> None:
    assert "the bag draw comes first" in refused(make().initial_state(), "a8-b7")


def test_the_bag_draw_cannot_be_made_twice() -> None:
    state = make().initial_state().apply("first-0")
    assert "the bag draw is over; Salt moved first" in refused(state, "first-1")


@pytest.mark.parametrize(("first", "side", "letter"), [(0, SALT, "s"), (1, PEPPER, "p")])
def test_first_fixes_who_moves_first_without_a_draw(first: int, side: int, letter: str) -> None:
    state = make(first=first).initial_state()
    assert state.to_move == side
    assert state.chance_outcomes() == ()
    assert state.to_text() == START_TEXT.replace(" - 0 0", f" {letter} 0 0")


# -- option ranks ---------------------------------------------------------------------------------


def test_ranks_sets_the_board_height_and_both_sides_start_on_the_far_three_ranks() -> None:
    state = make(first=0, ranks=8).initial_state()
    assert state.squares(SALT)[:5] == ("a6", "c6", "e6", "g6", "i6")  # the dark squares of rank 6
    assert state.squares(PEPPER) == make(first=0).initial_state().squares(PEPPER)
    assert len(state.to_text().split()[0].split("/")) == 8
    assert moves(state) == {
        "a6-b5", "c6-b5", "c6-d5", "e6-d5", "e6-f5", "g6-f5", "g6-h5", "i6-h5", "i6-j5",
    }  # fmt: skip
    assert " 8  " in str(state) and " 9  " not in str(state)


def test_pepper_goes_home_past_the_top_rank_of_a_shorter_board() -> None:
    game = make(ranks=6)
    state = game.parse_state(
        "..S......./..P......./........../........../........../.......... p 3 0"
    )
    assert moves(state) == {"c5xhome"}
    assert "only a piece on Pepper's back rank (rank 6)" in refused(state, "c5-home")
    assert "squares run from a1 to j6" in refused(state, "c5xc7")


def test_the_largest_board_has_twenty_ranks() -> None:
    state = make(first=0, ranks=20).initial_state()
    assert state.squares(SALT)[:5] == ("a18", "c18", "e18", "g18", "i18")
    assert state.squares(PEPPER) == make(first=0).initial_state().squares(PEPPER)
    assert "i18-j17" in moves(state) and len(state.legal_moves()) == 9


def test_the_smallest_board_still_keeps_the_armies_apart() -> None:
    state = make(first=1, ranks=6).initial_state()
    assert set(state.squares(SALT)).isdisjoint(state.squares(PEPPER))
    assert len(state.legal_moves()) == 15


# -- refused options -----------------------------------------------------------------------------


def test_default_options() -> None:
    assert make().options == {
        "first": "random",
        "pepper_sideways": False,
        "ranks": 10,
        "max_plies": 2000,
    }


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"first": 2}, "accepted: one of random, 0, 1"),
        ({"first": "salt"}, "accepted: one of random, 0, 1"),
        ({"first": True}, "accepted: one of random, 0, 1"),
        ({"pepper_sideways": "sometimes"}, "accepted: true or false"),
        ({"ranks": 5}, "accepted: an integer from 6 to 20"),
        ({"ranks": 21}, "accepted: an integer from 6 to 20"),
        ({"ranks": "ten"}, "accepted: an integer from 6 to 20"),
        ({"pepper_sideways": 1}, "accepted: true or false"),
        ({"max_plies": 0}, "accepted: an integer from 1 to 1000000"),
        ({"max_plies": "many"}, "accepted: an integer from 1 to 1000000"),
        ({"max_plies": None}, "accepted: an integer from 1 to 1000000"),
        ({"colour": "white"}, "accepted options: first, pepper_sideways, ranks, max_plies"),
    ],
)
def test_bad_options_are_refused_with_the_accepted_values(
    options: dict[str, object], expected: str
) -> None:
    with pytest.raises(InvalidOptionError) as caught:
        ludoteca.make("salt_n_pepper", **options)
    assert expected in str(caught.value)


def test_options_given_as_text_are_read() -> None:
    game = make(first="1", pepper_sideways="true", ranks="12", max_plies="500")
    assert game == make(first=1, pepper_sideways=True, ranks=12, max_plies=500)


# -- notation ----------------------------------------------------------------------------------


def test_each_kind_of_move_has_its_text_and_parses_back() -> None:
    game = make()
    state = game.parse_state(
        "........../........../........../........../........../........../"
        "........../........../..S......./.P.P...... s 7 0"
    )
    for move in state.legal_moves():
        assert state.parse_move(move.text) == move
    home = state.parse_move("c2xhome")
    assert isinstance(home, SaltNPepperMove)
    assert (home.origin, home.destination, home.is_leap, home.is_home) == ("c2", "home", True, True)


def test_a_step_and_a_pass_describe_themselves() -> None:
    step = make(first=0).initial_state().parse_move("a8-b7")
    assert isinstance(step, SaltNPepperMove)
    assert (step.origin, step.destination, step.is_leap, step.is_home) == ("a8", "b7", False, False)
    draw = make().initial_state().legal_moves()[0]
    assert isinstance(draw, SaltNPepperMove) and draw.origin is None and not draw.is_leap


def test_move_text_is_read_regardless_of_case_and_spacing() -> None:
    state = make(first=0).initial_state()
    assert state.parse_move(" A8 - B7 ") == state.parse_move("a8-b7")


def test_home_moves_are_read_regardless_of_case_and_spacing() -> None:
    state = make().parse_state(
        "........../........../........../........../........../........../"
        "........../........../..S......./.P.P...... s 7 0"
    )
    assert state.parse_move("C2 X HOME") == state.parse_move("c2xhome")
    assert state.parse_move(" c2 x Home ") == state.parse_move("c2xhome")


@pytest.mark.parametrize("text", ["", "a8", "a8-", "a8=b7", "a8-b7-c6", "home", "first-2", "a0-b1"])
def test_malformed_move_text_is_refused_with_the_accepted_forms(text: str) -> None:
    with pytest.raises(InvalidMoveError, match=r"accepted forms: c8-b7 \(a step\)"):
        make(first=0).initial_state().parse_move(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("b7-a6", "there is no Salt piece on b7"),
        ("a3-a4", "there is no Salt piece on a3"),
        ("k8-j7", "squares run from a1 to j10"),
        ("a8-b6", "a Salt step goes exactly 1 square diagonally forward"),
        ("a8xc6", "a leap goes over an opponent piece, and b7 is empty"),
        ("b9-c8", "c8 is occupied"),
        ("a8-home", "only a piece on Salt's back rank (rank 1) can move home"),
        ("pass", "pass is only allowed when Salt has no move"),
    ],
)
def test_an_illegal_move_is_refused_with_the_reason(text: str, expected: str) -> None:
    assert expected in refused(make(first=0).initial_state(), text)


# -- position text -------------------------------------------------------------------------------


def test_the_start_position_text() -> None:
    assert make().initial_state().to_text() == START_TEXT
    assert make().parse_state(START_TEXT) == make().initial_state()


RANKS = START_TEXT.split()[0].split("/")


def _with(rank: int, text: str, tail: str = "- 0 0") -> str:
    rows = list(RANKS)
    rows[10 - rank] = text
    return "/".join(rows) + " " + tail


@pytest.mark.parametrize(
    ("text", "options", "expected"),
    [
        ("", {}, "has 0 fields"),
        (START_TEXT + " 0", {}, "has 5 fields"),
        ("/".join(RANKS[:9]) + " - 0 0", {}, "the board has 9 ranks; expected 10"),
        (START_TEXT, {"ranks": 12}, "expected 12 (option ranks)"),
        (_with(5, "...x......"), {}, "rank 5 ('...x......') must be 10 cells"),
        (_with(5, "........."), {}, "must be 10 cells"),
        (_with(5, "S........."), {}, "Salt on a5: Salt stays on the dark squares"),
        (_with(5, ".S.S.S...."), {}, "Salt has 18 pieces on the board; at most 15"),
        ("/".join([".........."] * 10) + " s 4 0", {}, "both sides cannot have every piece home"),
        (_with(5, "..........", "s x 0"), {}, "plies played must be a whole number"),
        (_with(5, "..........", "s 3 4"), {}, "passes in a row must be 0, 1 or 2"),
        (_with(5, "..........", "w 3 0"), {}, "the side to move must be 's' (Salt), 'p'"),
        (START_TEXT, {"first": 0}, "'-' (before the bag draw) needs the option first=random"),
        (START_TEXT.replace("- 0 0", "- 2 0"), {}, "the bag draw comes before any ply"),
        (_with(8, "..........").replace("S", "."), {}, "before the bag draw both sides need"),
        (START_TEXT.replace("- 0 0", "s 1 0"), {"first": 0}, "with first=0, after 1 plies the"),
        (START_TEXT.replace("- 0 0", "s 0 1"), {}, "1 passes in a row cannot follow 0 plies"),
        (START_TEXT.replace("- 0 0", "s 9 0"), {"max_plies": 8}, "the game ends after 8 plies"),
    ],
)
def test_bad_position_text_is_refused_with_the_reason(
    text: str, options: dict[str, object], expected: str
) -> None:
    with pytest.raises(InvalidStateError) as caught:
        make(**options).parse_state(text)
    assert expected in str(caught.value)


def test_a1_is_light_and_salt_may_stand_only_where_file_plus_rank_is_odd() -> None:
    empty = ["." * 10] * 10

    def salt_on(rank: int, cells: str) -> str:
        rows = list(empty)
        rows[10 - rank] = cells
        rows[7] = "P........."  # a Pepper piece on a3, so the game is not over
        return "/".join(rows) + " s 4 0"

    game = make()
    with pytest.raises(InvalidStateError, match="Salt on a1: Salt stays on the dark squares"):
        game.parse_state(salt_on(1, "S........."))
    with pytest.raises(InvalidStateError, match="Salt on b2: Salt stays on the dark squares"):
        game.parse_state(salt_on(2, ".S........"))
    assert game.parse_state(salt_on(1, ".S........")).squares(SALT) == ("b1",)
    assert game.parse_state(salt_on(2, "S.........")).squares(SALT) == ("a2",)


def test_position_text_must_be_a_string() -> None:
    with pytest.raises(InvalidStateError, match="must be a string"):
        make().parse_state(None)  # type: ignore[arg-type]


def test_a_side_with_every_piece_home_has_just_moved() -> None:
    text = "/".join(["P........."] + ["." * 10] * 9) + " p 20 0"
    with pytest.raises(InvalidStateError, match="Salt has every piece home, so the last ply"):
        make().parse_state(text.replace(" p 20 0", " s 20 0"))
    assert make().parse_state(text).outcome == ludoteca.Outcome.win(
        SALT, 2, "Salt brought all 15 pieces home"
    )


def test_the_board_diagram_has_coordinates_and_says_whose_turn_it_is() -> None:
    text = str(make(first=0).initial_state())
    assert text.splitlines()[1] == "10  S     S     S     S     S"
    assert text.splitlines()[-3] == "    a  b  c  d  e  f  g  h  i  j"
    assert "Salt (S) home: 0/15" in text and "Pepper (P) home: 0/15" in text
    assert text.endswith("Salt to move, ply 1.")
