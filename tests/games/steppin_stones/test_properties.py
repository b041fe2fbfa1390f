"""Properties of Steppin' Stones states and moves, checked with hypothesis.

Each example is a position from anywhere along a random game (`tests.support.midgame_states`),
chance outcomes included, played from the start or from one of the phase-2 positions of the
scenario tests (`STARTS`), then a few moves further by index into ``legal_moves()``. Each
property runs once per game in `GAMES`; small turn caps bring the end within reach. Built move
by move from the starts instead, 11 or 12 of 20 examples of two variants were finished games;
`test_most_examples_are_games_still_running` keeps that share below a third.
"""

from __future__ import annotations

import hypothesis.strategies as st
import pytest
from hypothesis import given, settings

import ludoteca
from ludoteca import CHANCE
from ludoteca.games.steppin_stones import SteppinStonesMove, SteppinStonesState
from tests.games.steppin_stones.diagrams import position
from tests.games.steppin_stones.positions import ALMOST_WON, HOME_RUN, NULL_IN_THE_WAY, PHASE_TWO
from tests.support import finished_share, midgame_states

DEFAULT = ludoteca.make("steppin_stones", max_turns=12)

# Starting points besides the start position, so that phase 2 and the end come within reach.
STARTS: dict[ludoteca.Game, list[str]] = {
    DEFAULT: [
        position(PHASE_TWO, "roll2 S M C A"),
        position(HOME_RUN, "play2 S5 M1 C0 A0"),
        position(ALMOST_WON, "play2 A2"),
        position(NULL_IN_THE_WAY, "roll1"),
    ]
}

GAMES = {
    "default": DEFAULT,
    "highest-four-aces": ludoteca.make("steppin_stones", stones="highest", aces=4, max_turns=12),
    "large-board": ludoteca.make(
        "steppin_stones", large_board=True, aces=2, aces_as_stones=True, max_turns=12
    ),
}

SETTINGS = settings(max_examples=20, deadline=None)

each_game = pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())


def stones_states(game: ludoteca.Game) -> st.SearchStrategy[SteppinStonesState]:
    """A position from anywhere in a random game of ``game`` from one of its starts."""
    starts = [game.initial_state(), *map(game.parse_state, STARTS.get(game, []))]
    return midgame_states(starts)


@each_game
def test_most_examples_are_games_still_running(game: ludoteca.Game) -> None:
    assert finished_share(stones_states(game)) < 1 / 3


@each_game
@given(data=st.data())
@SETTINGS
def test_position_text_round_trips(game: ludoteca.Game, data: st.DataObject) -> None:
    state = data.draw(stones_states(game))
    again = state.game.parse_state(state.to_text())
    assert again == state
    assert hash(again) == hash(state)
    assert again.to_text() == state.to_text()
    assert again.outcome == state.outcome
    assert again.legal_moves() == state.legal_moves()


@each_game
@given(data=st.data())
@SETTINGS
def test_move_text_round_trips_in_any_case(game: ludoteca.Game, data: st.DataObject) -> None:
    state = data.draw(stones_states(game))
    for move in state.legal_moves():
        assert state.parse_move(str(move)) == move
        assert state.parse_move(str(move).upper()) == move
        assert state.parse_move(str(move).lower()) == move
        assert state.move_from_index(move.index) == move


@each_game
@given(data=st.data())
@SETTINGS
def test_legal_moves_are_unique_and_well_formed(game: ludoteca.Game, data: st.DataObject) -> None:
    state = data.draw(stones_states(game))
    moves = state.legal_moves()
    assert len({m.text for m in moves}) == len(moves)
    assert len({m.index for m in moves}) == len(moves)
    assert all(isinstance(m, SteppinStonesMove) for m in moves)
    assert (state.to_move is None) == (moves == ())
    if state.to_move == CHANCE:
        assert len(moves) == 6 ** len(state.rolling_suits)
        assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    elif moves:
        assert all(0 <= m.index < game.num_actions and not m.is_chance for m in moves)
        assert "resign" not in {m.text for m in moves}


@each_game
@given(data=st.data())
@SETTINGS
def test_apply_never_mutates(game: ludoteca.Game, data: st.DataObject) -> None:
    state = data.draw(stones_states(game))
    text, key, moves, cells = state.to_text(), hash(state), state.legal_moves(), state.cells.copy()
    if not moves:
        return
    move = moves[data.draw(st.integers(0, len(moves) - 1))]
    after = state.apply(move)
    assert after is not state
    assert state.to_text() == text
    assert hash(state) == key
    assert state.legal_moves() == moves
    assert (state.cells == cells).all()
    assert not state.cells.flags.writeable


@each_game
@given(data=st.data())
@SETTINGS
def test_the_five_coins_of_each_suit_are_always_on_the_board(
    game: ludoteca.Game, data: st.DataObject
) -> None:
    state = data.draw(stones_states(game))
    board = state.to_text().split()[0].replace("+", "")
    for letter in "SMCA":
        values = sum(board.count(f"{letter}{v}") for v in "02345")
        stones = board.count(letter.lower())
        assert values + stones == 5
        assert board.count(f"{letter}P") == 1
