"""Properties of Splinter over many games: round trips, immutability, and agreement with a
plain-Python referee written straight from the rules (`tests.games.splinter.reference`)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludoteca
from ludoteca.games.splinter import SplinterMove, SplinterState
from tests.games.splinter import reference
from tests.support import play

Position = tuple[dict[reference.Square, str], dict[reference.Square, reference.Square]]


def referee_view(state: SplinterState) -> Position:
    """The position as the referee sees it: pieces by (file, rank), and where displaced pieces
    came from."""
    pieces = {_square(name): letter for name, letter in state.pieces().items()}
    moved: dict[reference.Square, reference.Square] = {}
    if state.no_return is not None:
        direction, names = state.no_return
        df, dr = reference.STEPS[direction]
        for name in names:
            file, rank = _square(name)
            moved[(file, rank)] = (file - df, rank - dr)
    return pieces, moved


def _square(name: str) -> reference.Square:
    return reference.FILES.index(name[0]), int(name[1:]) - 1


def check_against_the_referee(state: SplinterState, *, every_move: bool) -> None:
    """The legal moves, and the positions after them, are the referee's."""
    game = state.game
    pieces, moved = referee_view(state)
    assert state.to_move in (0, 1)
    expected = reference.legal_moves(pieces, moved, state.to_move, game.width, game.height)
    legal = state.legal_moves()
    assert {move.text for move in legal} == expected, state.to_text()
    for move in legal if every_move else legal[:: max(1, len(legal) // 6)]:
        assert isinstance(move, SplinterMove) and move.origin is not None
        assert move.direction is not None
        outcomes = reference.play(
            pieces, moved, _square(move.origin), move.direction, game.width, game.height
        )
        assert outcomes is not None
        (kept,) = [(p, m) for label, p, m in outcomes if label == move.keeps]
        assert referee_view(state.apply(move)) == kept, (state.to_text(), move.text)


@pytest.mark.parametrize(("size", "games"), [("5x6", 12), ("7x8", 6), ("15x18", 2)])
def test_moves_and_results_agree_with_the_referee(size: str, games: int) -> None:
    game = ludoteca.make("splinter", size=size)
    for seed in range(games):
        rng = random.Random(seed)
        state = game.initial_state()
        while not state.is_over:
            assert isinstance(state, SplinterState)
            check_against_the_referee(state, every_move=size != "15x18")
            state = state.apply(rng.choice(state.legal_moves()))


GAMES = st.tuples(
    st.sampled_from(["5x6", "7x8", "9x10", "15x18"]),
    st.sampled_from([0, 1, "random"]),
    st.lists(st.integers(min_value=0, max_value=10_000), min_size=5, max_size=80),
)


def play_out(size: str, first: object, choices: list[int]) -> list[SplinterState]:
    """The positions of a game on ``size`` picking ``legal_moves()[choice % n]`` each ply."""
    state = ludoteca.make("splinter", size=size, first=first).initial_state()
    assert isinstance(state, SplinterState)
    positions = [state]
    for choice in choices:
        if state.is_over:
            break
        legal = state.legal_moves()
        after = state.apply(legal[choice % len(legal)])
        assert isinstance(after, SplinterState)
        positions.append(after)
        state = after
    return positions


@settings(max_examples=25, deadline=None)
@given(GAMES)
def test_positions_and_moves_round_trip_through_text(spec: tuple[str, object, list[int]]) -> None:
    for state in play_out(*spec):
        game = state.game
        text = state.to_text()
        assert game.parse_state(text) == state
        assert game.parse_state(text).to_text() == text
        for move in state.legal_moves():
            assert state.parse_move(move.text) == move
            assert state.move_from_index(move.index) == move


@settings(max_examples=25, deadline=None)
@given(GAMES)
def test_applying_a_move_changes_nothing_in_the_position_it_came_from(
    spec: tuple[str, object, list[int]],
) -> None:
    for state in play_out(*spec):
        if state.is_over:
            continue
        text, cells, key = state.to_text(), state.cells.copy(), hash(state)
        for move in state.legal_moves()[:10]:
            state.apply(move)
        assert state.to_text() == text and (state.cells == cells).all() and hash(state) == key
        with pytest.raises(AttributeError):
            state.ply = 3  # type: ignore[misc]


@settings(max_examples=20, deadline=None)
@given(GAMES)
def test_every_position_agrees_with_the_referee(spec: tuple[str, object, list[int]]) -> None:
    for state in play_out(*spec):
        if not state.is_over and state.to_move != ludoteca.CHANCE:
            check_against_the_referee(state, every_move=False)


def test_the_largest_board_plays_by_the_rules_in_its_far_corner() -> None:
    # 25x26 is the largest size accepted; y26 is its last square. Pieces there are pushed off
    # the top and the right edge, and pieces on the edge may not step off it.
    game = ludoteca.make("splinter", size="25x26")
    text = "/".join(["22sOx", "22XSo", "23Oo", *["25"] * 23]) + " b 0 -"
    state = game.parse_state(text)
    assert isinstance(state, SplinterState)
    legal = {move.text for move in state.legal_moves()}
    assert {"x26-N", "x26-NE", "x26-NW"}.isdisjoint(legal)
    assert play(state, "x25-NE").counts(1) == (1, 0, 2)  # Red's cross on y26 falls off
    rng = random.Random(5)
    while not state.is_over:
        check_against_the_referee(state, every_move=True)
        after = state.apply(rng.choice(state.legal_moves()))
        assert isinstance(after, SplinterState)
        state = after
