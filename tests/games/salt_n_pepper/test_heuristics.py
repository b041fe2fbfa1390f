"""The Salt 'n' Pepper heuristic: the race home, as a value in [-1, 1] for each side."""

from __future__ import annotations

import random

import pytest

from ludoteca.games.salt_n_pepper import SaltNPepperGame
from ludoteca.games.salt_n_pepper.heuristics import evaluate
from ludoteca.games.salt_n_pepper.state import SaltNPepperState
from tests.support import make_game

GAMES = {
    "default": make_game("salt_n_pepper", SaltNPepperGame),
    "sideways": make_game("salt_n_pepper", SaltNPepperGame, pepper_sideways=True),
    "six-ranks": make_game("salt_n_pepper", SaltNPepperGame, ranks=6, first=1),
}

each_game = pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())

# Ranks 10 down to 1. Salt has come four ranks down (ranks 4-6), Pepper is where it started.
SALT_AHEAD = (
    "........../........../........../........../S.S.S.S.S./.S.S.S.S.S/S.S.S.S.S./"
    "P.P.P.P.P./.P.P.P.P.P/P.P.P.P.P. s 30 0"
)
# Salt where it started, Pepper four ranks up (ranks 5-7).
PEPPER_AHEAD = (
    "S.S.S.S.S./.S.S.S.S.S/S.S.S.S.S./P.P.P.P.P./.P.P.P.P.P/P.P.P.P.P./"
    "........../........../........../.......... s 30 0"
)


def played_positions(game: SaltNPepperGame, games: int = 6) -> list[SaltNPepperState]:
    """Every position of a few seeded random games, chance nodes and finished ones included."""
    rng = random.Random(3)
    found: list[SaltNPepperState] = []
    for _ in range(games):
        state = game.initial_state()
        found.append(state)
        while not state.is_over and len(found) < 400 * games:
            after = state.apply(rng.choice(state.legal_moves()))
            assert isinstance(after, SaltNPepperState)
            state = after
            found.append(state)
    return found


@each_game
def test_values_are_in_range_with_one_entry_per_player(game: SaltNPepperGame) -> None:
    for state in played_positions(game):
        values = evaluate(state)
        assert len(values) == game.num_players
        assert all(isinstance(v, float) and -1.0 <= v <= 1.0 for v in values)


@each_game
def test_values_are_zero_sum(game: SaltNPepperGame) -> None:
    for state in played_positions(game):
        first, second = evaluate(state)
        assert first == -second


@each_game
def test_a_finished_game_is_worth_its_returns(game: SaltNPepperGame) -> None:
    for state in played_positions(game):
        if state.outcome is not None:
            assert evaluate(state) == pytest.approx(state.outcome.returns)


@each_game
def test_evaluate_is_deterministic(game: SaltNPepperGame) -> None:
    for state in played_positions(game, games=2):
        again = game.parse_state(state.to_text())
        assert evaluate(state) == evaluate(state) == evaluate(again)


def test_the_start_position_is_even() -> None:
    assert evaluate(GAMES["default"].initial_state()) == (0.0, 0.0)


def test_moving_first_is_half_a_move_ahead() -> None:
    salt_first = GAMES["default"].initial_state().apply("first-0")
    assert isinstance(salt_first, SaltNPepperState)
    salt, _ = evaluate(salt_first)
    assert 0 < salt < 0.1


@pytest.mark.parametrize("leader, text", [(0, SALT_AHEAD), (1, PEPPER_AHEAD)])
def test_the_side_nearer_home_is_ahead(leader: int, text: str) -> None:
    values = evaluate(make_game("salt_n_pepper", SaltNPepperGame, first=0).parse_state(text))
    assert values[leader] > 0.9
    assert values[1 - leader] < -0.9


def test_pieces_home_count_as_arrived() -> None:
    game = make_game("salt_n_pepper", SaltNPepperGame, first=0)
    # Salt has five pieces home (its rank-4 row is gone), Pepper is where it started.
    home = game.parse_state(SALT_AHEAD.replace("S.S.S.S.S./P.P", "........../P.P"))
    assert evaluate(home)[0] > evaluate(game.parse_state(SALT_AHEAD))[0]
