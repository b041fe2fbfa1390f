"""The conformance suite: every registered game, under several options, must pass it unchanged."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import ludoteca
from ludoteca.core.array_state import KernelGame
from ludoteca.core.conformance import ConformanceError, check_game, check_search_leaf
from ludoteca.core.info import SearchLeaf
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


# -- the compiled search leaf (ludoteca.core.info.SearchLeaf) --------------------------------------

LEAF_GAMES = [g for g in ludoteca.game_ids() if ludoteca.make(g).info.search_leaf is not None]


def test_the_built_in_games_declare_a_search_leaf() -> None:
    assert set(ludoteca.GAMES) <= set(LEAF_GAMES)


@pytest.mark.parametrize("game_id", LEAF_GAMES)
def test_every_search_leaf_gives_what_the_calls_it_replaces_give(game_id: str) -> None:
    game = ludoteca.make(game_id)
    assert isinstance(game, KernelGame)
    check_search_leaf(game, seed=1)  # check_game runs it too, from another seed


def _salt_n_pepper_with_leaf(leaf: SearchLeaf) -> KernelGame:
    base = type(ludoteca.make("salt_n_pepper"))

    class WrongLeafGame(base):  # type: ignore[valid-type,misc]
        info = dataclasses.replace(base.info, search_leaf=leaf)

    game = WrongLeafGame()
    assert isinstance(game, KernelGame)
    return game


def _negated(real: SearchLeaf) -> SearchLeaf:
    def leaf(*args: Any) -> tuple[Any, int, Any]:
        child, player, values = real(*args)
        return child, player, -values

    return leaf


def _always_heuristic(real: SearchLeaf) -> SearchLeaf:
    def leaf(*args: Any) -> tuple[Any, int, Any]:
        return real(*args[:-1], True)

    return leaf


def _one_ply_more(real: SearchLeaf) -> SearchLeaf:
    def leaf(*args: Any) -> tuple[Any, int, Any]:
        *rest, max_plies, heuristic = args
        return real(*rest, max_plies + 1, heuristic)

    return leaf


def _rolls_out_twice(real: SearchLeaf) -> SearchLeaf:
    def leaf(*args: Any) -> tuple[Any, int, Any]:
        result = real(*args)
        real(*args)  # right values, but the generator is left further on
        return result

    return leaf


def _as_tuple(real: SearchLeaf) -> SearchLeaf:
    def leaf(*args: Any) -> tuple[Any, int, Any]:
        child, player, values = real(*args)
        return child, player, tuple(values)

    return leaf


@pytest.mark.parametrize(
    ("wrong", "problem"),
    [
        (_negated, "gave the values"),
        (_always_heuristic, "heuristic False.* gave the values .*give \\[0.0, 0.0\\]"),
        (_one_ply_more, "gave the values"),
        (_rolls_out_twice, "must draw from numba's generator exactly as random_rollout does"),
        (_as_tuple, "float64 array of one value per player"),
    ],
)
def test_the_checker_catches_a_wrong_search_leaf(wrong: Any, problem: str) -> None:
    real = ludoteca.make("salt_n_pepper").info.search_leaf
    assert real is not None
    check_search_leaf(_salt_n_pepper_with_leaf(real))  # the real one passes
    with pytest.raises(ConformanceError, match=problem):
        check_search_leaf(_salt_n_pepper_with_leaf(wrong(real)))


def test_the_whole_conformance_check_checks_the_search_leaf() -> None:
    real = ludoteca.make("salt_n_pepper").info.search_leaf
    assert real is not None
    with pytest.raises(ConformanceError, match="search_leaf.* gave the values"):
        check_game(_salt_n_pepper_with_leaf(_negated(real)), games=1)
