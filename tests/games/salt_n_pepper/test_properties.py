"""Properties over random Salt 'n' Pepper games: round trips, immutability, and agreement with a
plain-Python reading of the rules (`tests.games.salt_n_pepper.reference`)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ludoteca import CHANCE
from ludoteca.core.chance import sample_outcome
from ludoteca.games.salt_n_pepper import SaltNPepperGame, SaltNPepperState
from tests.games.salt_n_pepper import reference
from tests.games.salt_n_pepper.helpers import make

OPTIONS = st.fixed_dictionaries(
    {
        "first": st.sampled_from(["random", 0, 1]),
        "pepper_sideways": st.booleans(),
        "ranks": st.sampled_from([6, 7, 10, 13]),
    }
)


def check_position(game: SaltNPepperGame, state: SaltNPepperState) -> None:
    """What must hold at every position of every game."""
    text = state.to_text()
    parsed = game.parse_state(text)
    assert parsed == state and hash(parsed) == hash(state) and parsed.to_text() == text
    if state.is_over or state.to_move == CHANCE:
        return
    side = state.to_move
    assert side is not None
    board = reference.read_board(text)
    expected = reference.legal_moves(board, side, game.ranks, bool(game.options["pepper_sideways"]))
    assert {move.text for move in state.legal_moves()} == expected, text
    assert state.has_a_move(1) or state.pieces_home(1) == 15  # Pepper is never stuck


def play_out(game: SaltNPepperGame, rng: random.Random, plies: int) -> None:
    state = game.initial_state()
    for _ in range(plies):
        check_position(game, state)
        if state.is_over:
            return
        if state.to_move == CHANCE:
            move = sample_outcome(state, rng)
        else:
            move = rng.choice(state.legal_moves())
        before = state.to_text()
        after = state.apply(move)
        assert state.to_text() == before  # the state did not change
        if not move.is_chance:
            side = state.to_move
            assert side is not None
            board = reference.played(reference.read_board(before), side, move.text)
            assert reference.read_board(after.to_text()) == board
        assert isinstance(after, SaltNPepperState)
        state = after


@settings(max_examples=12, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 2**32 - 1))
def test_whole_random_games_agree_with_the_reference_and_round_trip(
    options: dict[str, object], seed: int
) -> None:
    play_out(make(**options), random.Random(seed), 3_000)


@settings(max_examples=25, deadline=None)
@given(options=OPTIONS, data=st.data())
def test_every_prefix_of_a_game_round_trips(
    options: dict[str, object], data: st.DataObject
) -> None:
    game = make(**options)
    state = game.initial_state()
    for _ in range(data.draw(st.integers(0, 60), label="plies")):
        if state.is_over:
            break
        moves = state.legal_moves()
        move = moves[data.draw(st.integers(0, len(moves) - 1), label="move")]
        assert state.parse_move(move.text) == move
        assert state.move_from_index(move.index) == move
        state = state.apply(move)
        assert isinstance(state, SaltNPepperState)
    check_position(game, state)


def test_random_playouts_are_deterministic_by_seed() -> None:
    game = make(pepper_sideways=True)
    assert game.random_playouts(20, 7) == game.random_playouts(20, 7)
    assert game.playout_totals(20, 7) != game.playout_totals(20, 8)


def test_random_playouts_report_whole_games() -> None:
    stats = make(first=0).random_playouts(50, 1)
    assert stats.games == 50 and sum(stats.wins) + stats.draws == 50
    assert stats.plies == stats.decisions  # no bag draw with first=0
    assert 1 <= stats.legal_moves / stats.decisions <= 45
    assert stats.longest <= 2 * 15 * 10  # without sideways, every move but a pass gains ground
