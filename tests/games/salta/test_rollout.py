"""Random rollouts of Salta: seeded random play for at most ``max_plies`` plies.

`random_rollout` plays as `random_playouts` does: no chance nodes, only
moves uniformly among the legal ones. So every ply is a legal move, and with the seed of a
one-game `random_playouts` it reaches the end after exactly as many plies as that game had.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ludoteca.core.playouts import T_PLIES
from ludoteca.games.salta import SaltaGame
from ludoteca.games.salta import kernels as k
from ludoteca.games.salta.state import SaltaState
from tests.support import make_game

GAMES = {
    "default": make_game("salta", SaltaGame),
    "simplified-scoring": make_game("salta", SaltaGame, move_limit=4, scoring="simplified"),
    "played-scoring": make_game("salta", SaltaGame, move_limit=10, scoring_cap=15),
    "no-move-limit": make_game("salta", SaltaGame, move_limit=None, max_plies=40),
}

each_game = pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())


def rollout(game: SaltaGame, state: SaltaState, max_plies: int, seed: int) -> SaltaState:
    """The position ``random_rollout`` reaches from ``state``, as a state."""
    cells = k.random_rollout(state.cells, *game.kernel_args, max_plies, seed)
    assert cells.dtype == np.int32
    return SaltaState(game, cells)


def successors(game: SaltaGame, state: SaltaState) -> set[bytes]:
    """The arrays of the positions one legal move (or chance outcome) after ``state``."""
    args = game.kernel_args
    return {
        k.apply_action(state.cells, action, *args).tobytes()
        for action in k.legal_actions(state.cells, *args)
    }


def positions(game: SaltaGame) -> list[SaltaState]:
    """The start and the positions after 5, 20 and 60 seeded random plies."""
    rng = random.Random(1)
    state = game.initial_state()
    found = [state]
    for ply in range(1, 60 + 1):
        if state.is_over:
            break
        after = state.apply(rng.choice(state.legal_moves()))
        assert isinstance(after, SaltaState)
        state = after
        if ply in (5, 20, 60):
            found.append(state)
    return found


@each_game
def test_zero_plies_return_an_equal_new_array(game: SaltaGame) -> None:
    for state in positions(game):
        cells = k.random_rollout(state.cells, *game.kernel_args, 0, 5)
        assert cells is not state.cells
        assert cells.flags.writeable
        assert np.array_equal(cells, state.cells)


@each_game
def test_one_ply_reaches_a_successor(game: SaltaGame) -> None:
    for state in positions(game):
        after = {state.apply(move) for move in state.legal_moves()}
        reached = {rollout(game, state, 1, seed) for seed in range(12)}
        assert reached <= after
        if len(after) > 1:
            assert len(reached) > 1


@each_game
def test_every_ply_of_a_rollout_is_a_legal_move(game: SaltaGame) -> None:
    # With one seed, the rollout of n + 1 plies plays one ply more than the rollout of n.
    for state in positions(game):
        previous = state
        for max_plies in range(1, 40 + 1):
            current = rollout(game, state, max_plies, 11)
            if previous.is_over:
                assert current == previous
            else:
                assert current.cells.tobytes() in successors(game, previous)
            previous = current


@each_game
def test_the_start_array_is_left_unchanged(game: SaltaGame) -> None:
    start = np.array(game.initial_state().cells)  # a writable copy
    before = start.copy()
    k.random_rollout(start, *game.kernel_args, 1_000_000, 3)
    assert np.array_equal(start, before)


@each_game
def test_a_long_rollout_ends_the_game(game: SaltaGame) -> None:
    for state in positions(game):
        assert rollout(game, state, 1_000_000, 2).is_over


@each_game
def test_a_finished_game_stays_as_it_is(game: SaltaGame) -> None:
    over = rollout(game, game.initial_state(), 1_000_000, 4)
    assert rollout(game, over, 10, 9) == over


@each_game
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_rollout_plays_the_game_random_playouts_plays(game: SaltaGame, seed: int) -> None:
    start = game.initial_state()
    totals = k.random_playouts(start.cells, *game.kernel_args, 1, seed)
    plies = int(totals[T_PLIES])
    assert rollout(game, start, plies, seed).is_over
    assert not rollout(game, start, plies - 1, seed).is_over


@each_game
def test_the_same_seed_gives_the_same_position(game: SaltaGame) -> None:
    for state in positions(game):
        assert rollout(game, state, 30, 8) == rollout(game, state, 30, 8)


@each_game
def test_different_seeds_usually_give_different_positions(game: SaltaGame) -> None:
    for state in positions(game):
        if not state.is_over:
            assert len({rollout(game, state, 30, seed) for seed in range(8)}) > 1
