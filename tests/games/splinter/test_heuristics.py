"""The Splinter heuristic: material, the scarcest type weighing most, as a value per side."""

from __future__ import annotations

import random

import pytest

from ludoteca.games.splinter import SplinterGame
from ludoteca.games.splinter.heuristics import evaluate
from ludoteca.games.splinter.state import SplinterState
from tests.support import make_game

GAMES = {
    "default": make_game("splinter", SplinterGame),
    "drawn-first": make_game("splinter", SplinterGame, first="random"),
    "small": make_game("splinter", SplinterGame, size="9x10", first=1),
}

each_game = pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())

START = "15/15/15/15/15/15/5oOoOo5/5OxXxO5/5oXsSo5/5OsSxO5/5oXxXo5/5OoOoO5/15/15/15/15/15/15 b 0 -"
RED_SQUARE_LOST = START.replace("5oXsSo5", "5oX1So5")  # Red's square on h10 is gone
BLUE_SQUARE_LOST = START.replace("5OsSxO5", "5Os1xO5")  # Blue's square on h9 is gone
RED_CIRCLE_LOST = START.replace("5oXsSo5", "6XsSo5")  # Red's circle on f10 is gone


def played_positions(game: SplinterGame, games: int = 6) -> list[SplinterState]:
    """Every position of a few seeded random games, chance nodes and finished ones included."""
    rng = random.Random(3)
    found: list[SplinterState] = []
    for _ in range(games):
        state = game.initial_state()
        found.append(state)
        while not state.is_over and len(found) < 400 * games:
            after = state.apply(rng.choice(state.legal_moves()))
            assert isinstance(after, SplinterState)
            state = after
            found.append(state)
    return found


@each_game
def test_values_are_in_range_with_one_entry_per_player(game: SplinterGame) -> None:
    for state in played_positions(game):
        values = evaluate(state)
        assert len(values) == game.num_players
        assert all(isinstance(v, float) and -1.0 <= v <= 1.0 for v in values)


@each_game
def test_values_are_zero_sum(game: SplinterGame) -> None:
    for state in played_positions(game):
        first, second = evaluate(state)
        assert first == -second


@each_game
def test_a_finished_game_is_worth_its_returns(game: SplinterGame) -> None:
    for state in played_positions(game):
        if state.outcome is not None:
            assert evaluate(state) == pytest.approx(state.outcome.returns)


@each_game
def test_evaluate_is_deterministic(game: SplinterGame) -> None:
    for state in played_positions(game, games=2):
        again = game.parse_state(state.to_text())
        assert evaluate(state) == evaluate(state) == evaluate(again)


@each_game
def test_the_start_position_is_even(game: SplinterGame) -> None:
    assert evaluate(game.initial_state()) == (0.0, 0.0)


@pytest.mark.parametrize("leader, text", [(0, RED_SQUARE_LOST), (1, BLUE_SQUARE_LOST)])
def test_the_side_that_lost_a_square_is_behind(leader: int, text: str) -> None:
    values = evaluate(GAMES["default"].parse_state(text))
    assert values[leader] > 0.4
    assert values[1 - leader] < -0.4


def test_a_scarce_type_weighs_more_than_a_plentiful_one() -> None:
    game = GAMES["default"]
    square_lost = evaluate(game.parse_state(RED_SQUARE_LOST))[0]
    circle_lost = evaluate(game.parse_state(RED_CIRCLE_LOST))[0]
    assert square_lost > 3 * circle_lost > 0
