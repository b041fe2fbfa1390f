"""The Steppin' Stones heuristic: progress towards bringing the pawns home, from -1 to 1."""

from __future__ import annotations

import random

import pytest

from ludoteca.games.steppin_stones import SteppinStonesGame
from ludoteca.games.steppin_stones.heuristics import evaluate
from ludoteca.games.steppin_stones.state import SteppinStonesState
from tests.support import make_game

GAMES = {
    "default": make_game("steppin_stones", SteppinStonesGame),
    "highest-aces": make_game("steppin_stones", SteppinStonesGame, stones="highest", aces=2),
    "large": make_game("steppin_stones", SteppinStonesGame, large_board=True),
}

each_game = pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())

# Ranks 8 down to 1, a to h (see docs/rules/steppin_stones.md).
START = (
    "..S5..M5../..S4..M4../S3S2S0..M0M2M3/...CPAP.../...MPSP.../"
    "A3A2A0..C0C2C3/..A4..C4../..A5..C5.. 0 roll1"
)
SUN_STONES = (  # every Sun coin turned: the Suns are in phase 2, the pawn still on e4
    "..s..M5../..s..M4../sss..M0M2M3/...CPAP.../...MPSP.../"
    "A3A2A0..C0C2C3/..A4..C4../..A5..C5.. 0 roll1"
)
SUN_PAWN_ON_C6 = (  # ... and the Sun pawn on its stone on c6, two steps from b7
    "..s..M5../..s..M4../ssSP+s..M0M2M3/...CPAP.../...MP..../"
    "A3A2A0..C0C2C3/..A4..C4../..A5..C5.. 0 roll1"
)
SUN_PAWN_HOME = (  # ... and the Sun pawn home on a8: the Suns have retired
    "SP.s..M5../..s..M4../sss..M0M2M3/...CPAP.../...MP..../"
    "A3A2A0..C0C2C3/..A4..C4../..A5..C5.. 0 roll1"
)


def played_positions(game: SteppinStonesGame, games: int = 6) -> list[SteppinStonesState]:
    """Every position of a few seeded random games, chance nodes and finished ones included."""
    rng = random.Random(3)
    found: list[SteppinStonesState] = []
    for _ in range(games):
        state = game.initial_state()
        found.append(state)
        while not state.is_over and len(found) < 400 * games:
            after = state.apply(rng.choice(state.legal_moves()))
            assert isinstance(after, SteppinStonesState)
            state = after
            found.append(state)
    return found


@each_game
def test_values_are_in_range_with_one_entry_per_player(game: SteppinStonesGame) -> None:
    for state in played_positions(game):
        values = evaluate(state)
        assert len(values) == game.num_players
        assert all(isinstance(v, float) and -1.0 <= v <= 1.0 for v in values)


@each_game
def test_a_finished_game_is_worth_its_returns(game: SteppinStonesGame) -> None:
    for state in played_positions(game):
        if state.outcome is not None:
            assert evaluate(state) == pytest.approx(state.outcome.returns)


@each_game
def test_evaluate_is_deterministic(game: SteppinStonesGame) -> None:
    for state in played_positions(game, games=2):
        again = game.parse_state(state.to_text())
        assert evaluate(state) == evaluate(state) == evaluate(again)


@each_game
def test_no_progress_at_the_start_is_minus_one(game: SteppinStonesGame) -> None:
    assert evaluate(game.initial_state()) == (-1.0,)


def test_each_stage_of_a_suit_is_progress() -> None:
    game = GAMES["default"]
    assert game.parse_state(START) == game.initial_state()
    values = [
        evaluate(game.parse_state(text))[0]
        for text in (START, SUN_STONES, SUN_PAWN_ON_C6, SUN_PAWN_HOME)
    ]
    assert values == sorted(values)
    assert len(set(values)) == 4
    assert values[-1] == pytest.approx(-0.5)  # one suit of four done


def test_a_lost_game_is_minus_one() -> None:
    game = GAMES["default"]
    resigned = game.initial_state().apply("resign")
    assert isinstance(resigned, SteppinStonesState)
    assert resigned.is_over
    assert evaluate(resigned) == (-1.0,)
