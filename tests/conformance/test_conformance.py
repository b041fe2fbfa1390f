"""The conformance suite: every registered game, under several options, must pass it unchanged."""

from __future__ import annotations

import pytest

import ludoteca
from ludoteca.core.conformance import ConformanceError, check_game
from tests.core.toy_games import ToyDiceGame

# Options that change how games end, so the suite also walks those paths.
VARIANTS: dict[str, list[dict[str, object]]] = {
    "pente_grammai": [{"sacred": "storage"}, {"capture": True, "max_plies": 600}],
    "salt_n_pepper": [{"first": 1, "pepper_sideways": True, "ranks": 7}, {"max_plies": 60}],
    "salta": [
        {"scoring": "simplified"},
        {"goal": "ludii", "move_limit": 30},
        {"move_limit": None, "max_plies": 400},
    ],
    "splinter": [{"first": "random", "size": "7x8"}, {"first": 1, "max_plies": 12}],
    "steppin_stones": [
        {"stones": "highest", "aces": 4, "max_turns": 60},
        {"large_board": True, "aces": 2, "aces_as_stones": True, "max_turns": 40},
    ],
}


@pytest.mark.parametrize("game_id", ludoteca.game_ids())  # plug-in games included
def test_every_game_conforms_with_default_options(game_id: str) -> None:
    check_game(ludoteca.make(game_id), games=2, seed=11)


@pytest.mark.parametrize(
    ("game_id", "options"),
    [(game_id, options) for game_id, variants in VARIANTS.items() for options in variants],
)
def test_every_game_conforms_with_option_variants(game_id: str, options: dict[str, object]) -> None:
    check_game(ludoteca.make(game_id, **options), games=2, seed=5)


def test_chance_nodes_conform() -> None:
    check_game(ToyDiceGame(), games=30, seed=1)


def test_the_checker_catches_a_broken_position_text() -> None:
    class BrokenTextGame(ToyDiceGame):
        def parse_state(self, text: str):  # type: ignore[no-untyped-def]
            state = super().parse_state(text)
            return state.apply(state.legal_moves()[0]) if not state.is_over else state

    with pytest.raises(ConformanceError, match="parse_state"):
        check_game(BrokenTextGame(), games=1)


def test_the_checker_catches_non_termination() -> None:
    with pytest.raises(ConformanceError, match="did not end"):
        check_game(ToyDiceGame(max_plies=10_000), games=1, max_plies=5)
