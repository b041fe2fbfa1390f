"""Properties over many Pente Grammai games: round trips, immutability, a reference, playouts."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludoteca
from ludoteca.core.chance import sample_outcome
from ludoteca.core.conformance import check_game
from ludoteca.games.pente_grammai import PenteGrammaiState
from tests.games.pente_grammai import reference
from tests.games.pente_grammai.positions import make
from tests.support import played_games

VARIANTS: list[dict[str, object]] = [
    {},
    {"first": 0},
    {"first": 1, "start": "schaedler"},
    {"sacred": "storage"},
    {"capture": True},
    {"sacred": "storage", "capture": True, "start": "schaedler"},
    {"capture": True, "start": "schaedler", "max_plies": 40},
]

# -- hypothesis: games built by drawing an index into legal_moves() at each ply -------------------


def games() -> st.SearchStrategy[list[PenteGrammaiState]]:
    """The positions of a game with drawn options, up to 120 plies long."""
    starts = st.sampled_from(VARIANTS).map(lambda options: make(**options).initial_state())
    return played_games(starts, max_plies=120)


@settings(max_examples=40, deadline=None)
@given(games())
def test_position_text_round_trips(states: list[PenteGrammaiState]) -> None:
    for state in states:
        text = state.to_text()
        parsed = state.game.parse_state(text)
        assert parsed == state and hash(parsed) == hash(state)
        assert parsed.to_text() == text
        assert parsed.legal_moves() == state.legal_moves()


@settings(max_examples=40, deadline=None)
@given(games(), st.data())
def test_moves_round_trip_and_apply_changes_nothing(
    states: list[PenteGrammaiState], data: st.DataObject
) -> None:
    state = states[-1]
    if state.is_over:
        assert state.legal_moves() == () and state.to_move is None
        return
    before_text, before_hash = state.to_text(), hash(state)
    move = data.draw(st.sampled_from(state.legal_moves()))
    assert state.parse_move(move.text) == move
    assert state.move_from_index(move.index) == move
    after = state.apply(move)
    assert after == state.apply(move.text)
    assert state.to_text() == before_text and hash(state) == before_hash
    assert not state.cells.flags.writeable
    with pytest.raises(AttributeError):
        state.foo = 1  # type: ignore[attr-defined]


@settings(max_examples=40, deadline=None)
@given(games())
def test_counters_are_never_lost_and_points_never_overfilled(
    states: list[PenteGrammaiState],
) -> None:
    for state in states:
        for side in (0, 1):
            on_board = sum(state.counters(point)[side] for point in reference.CIRCUIT)
            assert on_board + state.hand(side) + state.stored(side) == 5
        for point in reference.CIRCUIT:
            if point not in reference.SACRED or state.game.options["sacred"] == "storage":
                assert sum(state.counters(point)) <= 1


# -- the plain-Python reference -------------------------------------------------------------------


@pytest.mark.parametrize("options", VARIANTS)
def test_the_engine_agrees_with_the_reference_over_random_games(
    options: dict[str, object],
) -> None:
    game = make(**options)
    rng = random.Random(2024)
    decisions = 0
    for _ in range(10):
        state = game.initial_state()
        for _ in range(400):
            if state.is_over:
                break
            if state.to_move == ludoteca.CHANCE:
                state = state.apply(sample_outcome(state, rng))
                continue
            position = reference.from_text(state.to_text(), options)
            expected = reference.legal_moves(position)
            assert {move.text for move in state.legal_moves()} == expected, state.to_text()
            move = rng.choice(sorted(expected))
            state = state.apply(move)
            after = reference.play(position, move)
            assert state.to_text().startswith(reference.board_text(after) + " "), move
            winner = reference.winner(after)
            assert (state.outcome is not None and state.outcome.winner is not None) == (
                winner is not None
            )
            decisions += 1
    assert decisions > 100


# -- the contract, under the options the shared conformance suite does not list -------------------


@pytest.mark.parametrize(
    "options",
    [
        {"first": 1, "start": "schaedler"},
        {"sacred": "storage", "capture": True, "start": "schaedler"},
        {"first": 0, "max_plies": 300},
    ],
)
def test_other_option_variants_conform(options: dict[str, object]) -> None:
    check_game(make(**options), games=2, seed=3)


# -- compiled random playouts ---------------------------------------------------------------------


def test_random_playouts_are_determined_by_the_seed() -> None:
    game = make()
    assert game.random_playouts(20, 5) == game.random_playouts(20, 5)
    assert game.random_playouts(20, 5) != game.random_playouts(20, 6)


@pytest.mark.parametrize("options", VARIANTS)
def test_random_playouts_count_every_game_and_ply(options: dict[str, object]) -> None:
    stats = make(**options).random_playouts(50, 1)
    assert stats.games == sum(stats.wins) + stats.draws == 50
    assert stats.decisions <= stats.plies and stats.legal_moves >= stats.decisions
    assert 0 < stats.longest <= int(str(make(**options).options["max_plies"]))


def test_random_playouts_play_one_roll_and_one_move_per_turn() -> None:
    # With storage every game ends on a move (a win or a deadlock), never on the ply cap, so
    # each game is the first-player draw plus whole turns of a roll and a move.
    stats = make(sacred="storage").random_playouts(200, 9)
    assert stats.plies == 2 * stats.decisions + stats.games
