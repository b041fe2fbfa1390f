"""The Salta heuristic: the race to the goal squares, as a value in [-1, 1] for each side."""

from __future__ import annotations

import random

import pytest

from ludoteca.games.salta import SaltaGame
from ludoteca.games.salta.heuristics import evaluate
from ludoteca.games.salta.state import SaltaState
from tests.support import make_game

GAMES = {
    "default": make_game("salta", SaltaGame),
    "played-scoring": make_game("salta", SaltaGame, move_limit=6, scoring_cap=15),
    "simplified-scoring": make_game("salta", SaltaGame, move_limit=6, scoring="simplified"),
}

each_game = pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())


def played_positions(game: SaltaGame, games: int = 6) -> list[SaltaState]:
    """Every position of a few seeded random games, chance nodes and finished ones included."""
    rng = random.Random(3)
    found: list[SaltaState] = []
    for _ in range(games):
        state = game.initial_state()
        found.append(state)
        while not state.is_over and len(found) < 400 * games:
            after = state.apply(rng.choice(state.legal_moves()))
            assert isinstance(after, SaltaState)
            state = after
            found.append(state)
    return found


@each_game
def test_values_are_in_range_with_one_entry_per_player(game: SaltaGame) -> None:
    for state in played_positions(game):
        values = evaluate(state)
        assert len(values) == game.num_players
        assert all(isinstance(v, float) and -1.0 <= v <= 1.0 for v in values)


@each_game
def test_values_are_zero_sum(game: SaltaGame) -> None:
    for state in played_positions(game):
        first, second = evaluate(state)
        assert first == -second


@each_game
def test_a_finished_game_is_worth_its_returns(game: SaltaGame) -> None:
    for state in played_positions(game):
        if state.outcome is not None:
            assert evaluate(state) == pytest.approx(state.outcome.returns)


@each_game
def test_evaluate_is_deterministic(game: SaltaGame) -> None:
    for state in played_positions(game, games=2):
        again = game.parse_state(state.to_text())
        assert evaluate(state) == evaluate(state) == evaluate(again)


def race(game: SaltaGame, leader: int, plies: int) -> SaltaState:
    """The position after ``leader`` heads for its goal while the other side backs away."""
    state = game.initial_state()
    for _ in range(plies):
        mover = state.to_move
        assert mover is not None
        successors: list[SaltaState] = []
        for move in state.legal_moves():
            after = state.apply(move)
            assert isinstance(after, SaltaState)
            successors.append(after)
        ranked = sorted(successors, key=lambda after: after.goal_distance(mover))
        after = ranked[0] if mover == leader else ranked[-1]
        assert isinstance(after, SaltaState)
        state = after
    return state


def test_the_start_position_is_about_even() -> None:
    green, _ = evaluate(GAMES["default"].initial_state())
    assert abs(green) < 0.1
    assert green > 0  # Green moves first: half a step ahead


@pytest.mark.parametrize("leader", [0, 1])
def test_the_side_nearer_its_goal_is_ahead(leader: int) -> None:
    state = race(GAMES["default"], leader, 30)
    assert state.goal_distance(leader) < state.goal_distance(1 - leader)
    values = evaluate(state)
    assert values[leader] > 0.5
    assert values[1 - leader] < -0.5


def test_in_the_played_scoring_phase_moves_made_count() -> None:
    game = GAMES["played-scoring"]
    state = race(game, 0, 14)
    assert state.in_scoring_phase
    green, red = state.scoring_moves
    lead = (red + state.goal_distance(1)) - (green + state.goal_distance(0))
    assert lead > 0
    assert evaluate(state)[0] > 0


def test_a_lead_counts_for_more_when_less_is_left_to_play() -> None:
    early = race(GAMES["default"], 0, 10)
    late = race(make_game("salta", SaltaGame, move_limit=6, scoring="simplified"), 0, 10)
    assert early.goal_distance(1) - early.goal_distance(0) == (
        late.goal_distance(1) - late.goal_distance(0)
    )
    assert evaluate(late)[0] > evaluate(early)[0] > 0
