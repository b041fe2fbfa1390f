"""Splinter's observation planes and legal-action mask (docs/rl.md, "Splinter")."""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
import pytest

import ludoteca
from ludoteca.core.outcome import CHANCE
from ludoteca.games.splinter import SplinterGame, SplinterState
from ludoteca.games.splinter import kernels as k
from ludoteca.rl import VectorEnv
from tests.rl.vector_agreement import check_vector_env_agrees

VARIANTS = [{}, {"first": "random", "size": "7x8"}, {"first": 1, "size": "9x10", "max_plies": 40}]


def random_states(game: SplinterGame, seed: int, plies: int) -> list[SplinterState]:
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    for _ in range(plies):
        if state.is_over:
            break
        state = state.apply_action(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def mirrored(state: SplinterState) -> SplinterState:
    """The position with the colours swapped and the board turned through 180°."""
    game = state.game
    assert isinstance(game, SplinterGame)
    cells = np.array(state.cells, dtype=np.int32)
    turned = cells.copy()
    squares = game.width * game.height
    for square in range(squares):
        code = cells[k.BOARD_AT + square]
        swapped = 0 if code == 0 else (code - 1 + k.NUM_TYPES) % (2 * k.NUM_TYPES) + 1
        turned[k.BOARD_AT + squares - 1 - square] = swapped
    if cells[k.TO_MOVE_AT] != k.CHANCE:
        turned[k.TO_MOVE_AT] = 1 - cells[k.TO_MOVE_AT]
    if cells[k.LAST_COUNT_AT] > 0:
        turned[k.LAST_DIRECTION_AT] = (cells[k.LAST_DIRECTION_AT] + 4) % 8
        turned[k.LAST_FIRST_AT] = squares - 1 - cells[k.LAST_FIRST_AT]
    k.recount(turned, game.params)
    k.settle(turned, game.params)
    return SplinterState(game, turned)


@pytest.mark.parametrize("options", VARIANTS)
def test_the_shape_follows_the_board_and_every_value_is_in_0_to_1(
    options: dict[str, object],
) -> None:
    game = ludoteca.make("splinter", **options)
    assert isinstance(game, SplinterGame)
    assert game.observation_shape == (10, game.height, game.width)
    for state in random_states(game, seed=3, plies=60)[::6]:
        for player in (0, 1):
            planes = state.observation(player)
            assert planes.shape == game.observation_shape and planes.dtype == np.float32
            assert planes.min() >= 0.0 and planes.max() <= 1.0


def test_both_sides_see_the_same_start() -> None:
    game = ludoteca.make("splinter")
    start = game.initial_state()
    blue, red = start.observation(0), start.observation(1)
    assert blue[k.OBS_MY_TURN].all() and not red[k.OBS_MY_TURN].any()
    kept = [p for p in range(k.NUM_OBS_PLANES) if p != k.OBS_MY_TURN]
    assert np.array_equal(blue[kept], red[kept])
    # Blue's two squares on h9 and i10: row 8 column 7, row 9 column 8
    assert blue[k.OBS_MY_PIECES + k.SQUARE, 8, 7] == blue[k.OBS_MY_PIECES + k.SQUARE, 9, 8] == 1
    assert blue[k.OBS_MY_PIECES : k.OBS_THEIR_PIECES].sum() == 15
    assert not blue[k.OBS_NO_RETURN_PIECES].any() and not blue[k.OBS_NO_RETURN_SQUARES].any()


@pytest.mark.parametrize("options", VARIANTS[:2])
def test_blue_sees_what_red_sees_in_the_mirrored_position(options: dict[str, object]) -> None:
    game = ludoteca.make("splinter", **options)
    assert isinstance(game, SplinterGame)
    for state in random_states(game, seed=8, plies=50)[::3]:
        mirror = mirrored(state)
        if state.to_move is not None and state.to_move != CHANCE:
            assert mirror.to_move == 1 - state.to_move
        for player in (0, 1):
            assert np.array_equal(state.observation(player), mirror.observation(1 - player))


def test_the_no_return_planes_after_a_push_north() -> None:
    game = ludoteca.make("splinter")
    state = game.initial_state().apply("h9-N")
    for player in (0, 1):
        planes = state.observation(player)
        pieces = np.argwhere(planes[k.OBS_NO_RETURN_PIECES])
        left = np.argwhere(planes[k.OBS_NO_RETURN_SQUARES])
        if player == 0:  # h10-h13 moved up from h9-h12
            assert pieces.tolist() == [[9, 7], [10, 7], [11, 7], [12, 7]]
            assert left.tolist() == [[8, 7], [9, 7], [10, 7], [11, 7]]
        else:  # turned through 180°: rank r -> 17 - r, file f -> 14 - f
            assert pieces.tolist() == [[5, 7], [6, 7], [7, 7], [8, 7]]
            assert left.tolist() == [[6, 7], [7, 7], [8, 7], [9, 7]]
    assert state.observation(1)[k.OBS_MY_TURN].all()


def test_the_draw_of_the_first_player() -> None:
    game = ludoteca.make("splinter", first="random")
    start = game.initial_state()
    assert start.to_move == CHANCE
    assert not start.legal_action_mask().any()
    for player in (0, 1):
        assert not start.observation(player)[k.OBS_MY_TURN].any()
    assert game.num_chance_outcomes == 2 and game.max_game_length == 1001
    fixed = ludoteca.make("splinter", max_plies=30)
    assert fixed.num_chance_outcomes == 0 and fixed.max_game_length == 30


def test_the_turn_counter() -> None:
    game = ludoteca.make("splinter", max_plies=40)
    assert isinstance(game, SplinterGame)
    state = random_states(game, seed=2, plies=10)[10]
    assert state.observation(0)[k.OBS_TURNS] == pytest.approx(np.full((18, 15), 10 / 40))


def test_the_observation_is_a_function_of_the_position() -> None:
    game = ludoteca.make("splinter")
    assert isinstance(game, SplinterGame)
    for state in random_states(game, seed=1, plies=40)[::5]:
        again = game.parse_state(state.to_text())
        for player in (0, 1):
            assert np.array_equal(state.observation(player), again.observation(player))


@pytest.mark.parametrize("options", VARIANTS)
def test_the_mask_is_the_legal_actions(options: dict[str, object]) -> None:
    game = ludoteca.make("splinter", **options)
    assert isinstance(game, SplinterGame)
    for seed in (1, 2):
        for state in random_states(game, seed=seed, plies=200):
            legal = state.legal_action_mask()
            assert legal.dtype == np.bool_ and legal.shape == (game.num_actions,)
            expected = [] if state.to_move == CHANCE else list(state.legal_actions())
            assert list(np.flatnonzero(legal)) == expected


def test_the_kernel_writes_every_value() -> None:
    game = ludoteca.make("splinter", size="7x8")
    assert isinstance(game, SplinterGame)
    state = random_states(game, seed=4, plies=5)[-1]
    out: npt.NDArray[np.float32] = np.full(10 * 8 * 7, np.nan, dtype=np.float32)
    k.observation(state.cells, *game.kernel_args, 1, out)
    assert np.array_equal(out.reshape(10, 8, 7), state.observation(1))
    mask = np.ones(game.num_actions, dtype=np.bool_)
    k.action_mask(state.cells, *game.kernel_args, mask)
    assert np.array_equal(mask, state.legal_action_mask())


def test_the_vector_env_plays_the_rules() -> None:
    env = VectorEnv("splinter", num_envs=6, seed=3, first="random", size="7x8", max_plies=20)
    assert check_vector_env_agrees(env, steps=60) > 0
