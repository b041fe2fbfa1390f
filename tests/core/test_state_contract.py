"""The State contract's behaviour on bad input, shown with Salta."""

from __future__ import annotations

import pytest

import ludoteca
from ludoteca.core.game import Move


@pytest.fixture
def start() -> ludoteca.State:
    return ludoteca.make("salta").initial_state()


def test_states_are_immutable(start: ludoteca.State) -> None:
    with pytest.raises(AttributeError, match="immutable"):
        start.to_move = 1  # type: ignore[misc]


def test_apply_returns_a_new_state_and_leaves_the_old_one(start: ludoteca.State) -> None:
    before = start.to_text()
    after = start.apply("c3-d4")
    assert after != start
    assert start.to_text() == before


def test_unparsable_move_text_says_what_is_accepted(start: ludoteca.State) -> None:
    with pytest.raises(ludoteca.InvalidMoveError, match="accepted forms: c3-d4"):
        start.apply("knight to f3")


def test_a_move_that_is_not_text_or_move_is_refused(start: ludoteca.State) -> None:
    with pytest.raises(ludoteca.InvalidMoveError, match="Move or move text"):
        start.apply(42)  # type: ignore[arg-type]
    with pytest.raises(ludoteca.InvalidMoveError, match="a move is text"):
        start.parse_move(None)  # type: ignore[arg-type]


def test_an_illegal_move_says_why(start: ludoteca.State) -> None:
    with pytest.raises(ludoteca.IllegalMoveError, match="no Green piece on d4"):
        start.apply("d4-e5")


def test_a_move_from_another_position_is_refused(start: ludoteca.State) -> None:
    later = start.apply("c3-d4").apply("h8-g7")
    move = later.parse_move("d4-e5")
    with pytest.raises(ludoteca.IllegalMoveError):
        start.apply(move)
    with pytest.raises(ludoteca.IllegalMoveError, match="not a legal move"):
        start.apply(Move(3, "nonsense"))


def test_move_text_is_read_leniently_and_written_canonically(start: ludoteca.State) -> None:
    assert str(start.parse_move(" C3 - D4 ")) == "c3-d4"


def test_move_from_index_refuses_unknown_actions(start: ludoteca.State) -> None:
    move = start.legal_moves()[0]
    assert start.move_from_index(move.index) == move
    with pytest.raises(ludoteca.IllegalMoveError, match="action 0 is not legal"):
        start.move_from_index(0)


def test_bad_position_text_says_what_is_expected() -> None:
    game = ludoteca.make("salta")
    with pytest.raises(ludoteca.InvalidStateError, match="expected"):
        game.parse_state("hello")
    with pytest.raises(ludoteca.InvalidStateError, match="must be a string"):
        game.parse_state(7)  # type: ignore[arg-type]


def test_states_hash_and_compare_by_value(start: ludoteca.State) -> None:
    a = start.apply("c3-d4")
    b = ludoteca.make("salta").initial_state().apply("c3-d4")
    assert a == b and hash(a) == hash(b)
    assert a != ludoteca.make("salta", goal="ludii").initial_state().apply("c3-d4")
    assert eval(repr(a), {"ludoteca": ludoteca}) == a
