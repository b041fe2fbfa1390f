"""Random rollouts (`random_rollout`) of every game: seeded random play for at most N plies.

Each game's kernel plays as its `random_playouts` does: chance outcomes (first players, dice,
the bag draw) drawn with their probabilities, then moves uniformly among the legal ones. So every
ply is a legal move, and with the seed of a one-game `random_playouts` it reaches the end after
exactly as many plies as that game had.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import ludoteca
from ludoteca.core.array_state import ArrayState, KernelGame
from ludoteca.core.playouts import T_PLIES

# (game id, options, plies after which positions are sampled, plies checked one by one)
CASES: dict[str, tuple[str, dict[str, Any], tuple[int, ...], int]] = {
    "pente_grammai": ("pente_grammai", {}, (5, 20, 60), 40),
    "pente_grammai-capture": ("pente_grammai", {"capture": True}, (5, 20, 60), 40),
    "pente_grammai-storage": ("pente_grammai", {"sacred": "storage", "first": 1}, (5, 20, 60), 40),
    "salt_n_pepper": ("salt_n_pepper", {}, (5, 20, 60), 40),
    "salt_n_pepper-sideways": ("salt_n_pepper", {"pepper_sideways": True}, (5, 20, 60), 40),
    "salt_n_pepper-six-ranks": ("salt_n_pepper", {"ranks": 6, "first": 1}, (5, 20, 60), 40),
    "salta": ("salta", {}, (5, 20, 60), 40),
    "salta-simplified": ("salta", {"move_limit": 4, "scoring": "simplified"}, (5, 20, 60), 40),
    "salta-played": ("salta", {"move_limit": 10, "scoring_cap": 15}, (5, 20, 60), 40),
    "salta-no-limit": ("salta", {"move_limit": None, "max_plies": 40}, (5, 20, 60), 40),
    "splinter": ("splinter", {}, (3, 10, 25), 25),
    "splinter-drawn-first": ("splinter", {"first": "random"}, (3, 10, 25), 25),
    "splinter-small": ("splinter", {"size": "9x10", "first": 1}, (3, 10, 25), 25),
    "steppin_stones": ("steppin_stones", {}, (5, 20, 60), 30),
    "steppin_stones-highest-aces": (
        "steppin_stones",
        {"stones": "highest", "aces": 2},
        (5, 20, 60),
        30,
    ),
    "steppin_stones-large": ("steppin_stones", {"large_board": True}, (5, 20, 60), 30),
}


@pytest.fixture(params=CASES.values(), ids=CASES.keys())
def case(request: pytest.FixtureRequest) -> tuple[KernelGame, list[ArrayState], int]:
    """A game, its start and a few positions of a seeded random game, and the plies to check."""
    game_id, options, sample_at, checked = request.param
    game = ludoteca.make(game_id, **options)
    assert isinstance(game, KernelGame)
    rng = random.Random(1)
    state = game.initial_state()
    found = [state]
    for ply in range(1, max(sample_at) + 1):
        if state.is_over:
            break
        after = state.apply(rng.choice(state.legal_moves()))
        assert isinstance(after, ArrayState)
        state = after
        if ply in sample_at:
            found.append(state)
    return game, found, checked


def rollout(state: ArrayState, max_plies: int, seed: int) -> ArrayState:
    return state.random_rollout(max_plies, seed)


def successors(game: KernelGame, state: ArrayState) -> set[bytes]:
    """The arrays of the positions one legal move (or chance outcome) after ``state``."""
    kernels, args = game.kernels, game.kernel_args
    return {
        kernels.apply_action(state.cells, *args, action).tobytes()
        for action in kernels.legal_actions(state.cells, *args)
    }


def test_zero_plies_return_an_equal_new_array(
    case: tuple[KernelGame, list[ArrayState], int],
) -> None:
    game, states, _ = case
    for state in states:
        cells = game.kernels.random_rollout(state.cells, *game.kernel_args, 0, 5)
        assert cells.dtype == np.int32
        assert cells is not state.cells
        assert cells.flags.writeable
        assert np.array_equal(cells, state.cells)


def test_one_ply_reaches_a_successor(case: tuple[KernelGame, list[ArrayState], int]) -> None:
    _, states, _ = case
    for state in states:
        after = {state.apply(move) for move in state.legal_moves()}
        reached = {rollout(state, 1, seed) for seed in range(12)}
        assert reached <= after
        if len(after) > 1:
            assert len(reached) > 1


def test_every_ply_of_a_rollout_is_a_legal_move(
    case: tuple[KernelGame, list[ArrayState], int],
) -> None:
    # With one seed, the rollout of n + 1 plies plays one ply more than the rollout of n.
    game, states, checked = case
    for state in states:
        previous = state
        for max_plies in range(1, checked + 1):
            current = rollout(state, max_plies, 11)
            if previous.is_over:
                assert current == previous
            else:
                assert current.cells.tobytes() in successors(game, previous)
            previous = current


def test_the_start_array_is_left_unchanged(case: tuple[KernelGame, list[ArrayState], int]) -> None:
    game, _, _ = case
    start = np.array(game.initial_state().cells)  # a writable copy
    before = start.copy()
    game.kernels.random_rollout(start, *game.kernel_args, 1_000_000, 3)
    assert np.array_equal(start, before)


def test_a_long_rollout_ends_the_game(case: tuple[KernelGame, list[ArrayState], int]) -> None:
    game, states, _ = case
    for state in states:
        assert rollout(state, 1_000_000, 2).is_over
    over = rollout(game.initial_state(), 1_000_000, 4)
    assert rollout(over, 10, 9) == over  # a finished game stays as it is


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_rollout_plays_the_game_random_playouts_plays(
    case: tuple[KernelGame, list[ArrayState], int], seed: int
) -> None:
    game, _, _ = case
    start = game.initial_state()
    totals = game.kernels.random_playouts(start.cells, *game.kernel_args, 1, seed)
    plies = int(totals[T_PLIES])
    assert rollout(start, plies, seed).is_over
    assert not rollout(start, plies - 1, seed).is_over


def test_seeds_decide_the_position(case: tuple[KernelGame, list[ArrayState], int]) -> None:
    _, states, _ = case
    for state in states:
        assert rollout(state, 30, 8) == rollout(state, 30, 8)
        if not state.is_over:
            assert len({rollout(state, 30, seed) for seed in range(8)}) > 1
