"""The Pente Grammai heuristic: the race of the counters home, as a value in [-1, 1] per side."""

from __future__ import annotations

import random

import pytest

from ludoteca.games.pente_grammai import PenteGrammaiGame
from ludoteca.games.pente_grammai.heuristics import evaluate
from ludoteca.games.pente_grammai.state import PenteGrammaiState
from tests.support import make_game

GAMES = {
    "default": make_game("pente_grammai", PenteGrammaiGame),
    "capture": make_game("pente_grammai", PenteGrammaiGame, capture=True),
    "storage": make_game("pente_grammai", PenteGrammaiGame, sacred="storage"),
}

each_game = pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())

# Points in circuit order W1 W2 W3 W4 W5 B1 B2 B3 B4 B5; White's goal is B3, Blue's W3.
WHITE_THREE_HOME = "./././././././www/./. 2 5 0 0 w - 8"
BLUE_THREE_HOME = "././bbb/././././././. 5 2 0 0 w - 8"


def played_positions(game: PenteGrammaiGame, games: int = 6) -> list[PenteGrammaiState]:
    """Every position of a few seeded random games, chance nodes and finished ones included."""
    rng = random.Random(3)
    found: list[PenteGrammaiState] = []
    for _ in range(games):
        state = game.initial_state()
        found.append(state)
        while not state.is_over and len(found) < 400 * games:
            after = state.apply(rng.choice(state.legal_moves()))
            assert isinstance(after, PenteGrammaiState)
            state = after
            found.append(state)
    return found


@each_game
def test_values_are_in_range_with_one_entry_per_player(game: PenteGrammaiGame) -> None:
    for state in played_positions(game):
        values = evaluate(state)
        assert len(values) == game.num_players
        assert all(isinstance(v, float) and -1.0 <= v <= 1.0 for v in values)


@each_game
def test_values_are_zero_sum(game: PenteGrammaiGame) -> None:
    for state in played_positions(game):
        first, second = evaluate(state)
        assert first == -second


@each_game
def test_a_finished_game_is_worth_its_returns(game: PenteGrammaiGame) -> None:
    for state in played_positions(game):
        if state.outcome is not None:
            assert evaluate(state) == pytest.approx(state.outcome.returns)


@each_game
def test_evaluate_is_deterministic(game: PenteGrammaiGame) -> None:
    for state in played_positions(game, games=2):
        again = game.parse_state(state.to_text())
        assert evaluate(state) == evaluate(state) == evaluate(again)


@each_game
def test_the_start_position_is_even(game: PenteGrammaiGame) -> None:
    assert evaluate(game.initial_state()) == (0.0, 0.0)


@pytest.mark.parametrize("leader, text", [(0, WHITE_THREE_HOME), (1, BLUE_THREE_HOME)])
def test_the_side_with_counters_home_is_ahead(leader: int, text: str) -> None:
    values = evaluate(make_game("pente_grammai", PenteGrammaiGame, first=0).parse_state(text))
    assert values[leader] > 0.5
    assert values[1 - leader] < -0.5


def test_a_counter_further_along_is_worth_more() -> None:
    game = make_game("pente_grammai", PenteGrammaiGame, first=0)
    near = game.parse_state("././././././w/././. 4 5 0 0 w - 8")  # on B2, one point from B3
    far = game.parse_state("w/././././././././. 4 5 0 0 w - 8")  # on W1
    assert evaluate(near)[0] > evaluate(far)[0] > 0


def test_with_capture_a_counter_in_reach_of_the_opponent_is_worth_less() -> None:
    # White's counter on B1 is two points ahead of Blue's on W4 (and on Blue's entry point 1).
    text = "./././b/./w/./././. 4 4 0 0 w - 8"
    plain = make_game("pente_grammai", PenteGrammaiGame, first=0).parse_state(text)
    capture = make_game("pente_grammai", PenteGrammaiGame, capture=True, first=0).parse_state(text)
    assert evaluate(plain)[0] > evaluate(capture)[0]
