"""Steppin' Stones' observation planes and legal-action mask (docs/rl.md, "Steppin' Stones")."""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
import pytest

import ludoteca
from ludoteca.core.outcome import CHANCE
from ludoteca.games.steppin_stones import SteppinStonesGame, SteppinStonesState
from ludoteca.games.steppin_stones import kernels as k
from ludoteca.games.steppin_stones import layout as c
from ludoteca.rl import VectorEnv
from tests.rl.vector_agreement import check_vector_env_agrees

VARIANTS = [
    {},
    {"stones": "highest", "aces": 4, "max_turns": 60},
    {"large_board": True, "aces": 2, "aces_as_stones": True, "max_turns": 40},
]


def random_states(game: SteppinStonesGame, seed: int, plies: int) -> list[SteppinStonesState]:
    """A game of random moves and fair rolls."""
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    for _ in range(plies):
        if state.is_over:
            break
        if state.to_move == CHANCE:
            outcomes = state.chance_outcomes()
            move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
            state = state.apply(move)
        else:
            state = state.apply_action(rng.choice(state.legal_actions()))
        states.append(state)
    return states


@pytest.mark.parametrize("options", VARIANTS)
def test_the_shape_follows_the_board_and_every_value_is_in_0_to_1(
    options: dict[str, object],
) -> None:
    game = ludoteca.make("steppin_stones", **options)
    assert isinstance(game, SteppinStonesGame)
    size = 10 if options.get("large_board") else 8
    assert game.observation_shape == (55, size, size)
    for state in random_states(game, seed=3, plies=300)[::10]:
        planes = state.observation(0)
        assert planes.shape == game.observation_shape and planes.dtype == np.float32
        assert planes.min() >= 0.0 and planes.max() <= 1.0


@pytest.mark.parametrize("options", VARIANTS)
def test_every_piece_is_on_its_plane(options: dict[str, object]) -> None:
    game = ludoteca.make("steppin_stones", **options)
    assert isinstance(game, SteppinStonesGame)
    size = game.layout.size
    for state in random_states(game, seed=5, plies=600)[::25]:
        planes = state.observation(0)
        coins = planes[k.OBS_VALUE_COINS : k.OBS_ACES]
        assert coins.sum() == 20  # every coin once, value side or stone
        assert planes[k.OBS_ACES].sum() == options.get("aces", 0)
        assert planes[k.OBS_HOLE].sum() == (4 if options.get("large_board") else 0)
        for suit in range(4):
            square = int(state.cells[c.PAWN_SQUARE_AT + suit])
            pawn = planes[k.OBS_PAWNS + suit]
            assert pawn.sum() == 1 and pawn[square // size, square % size] == 1
            home = np.argwhere(planes[k.OBS_HOMES + suit])
            assert sorted(r * size + f for r, f in home) == sorted(game.layout.home[suit])
            value_left = coins[suit * 5 : suit * 5 + 5].sum()
            assert value_left == state.cells[c.VALUE_LEFT_AT + suit]
            assert coins[20 + suit].sum() == 5 - value_left


def test_the_designer_example_turn() -> None:
    game = ludoteca.make("steppin_stones")
    state = game.initial_state()
    before = state.observation(0)
    assert before[k.OBS_STAGE + c.ROLL1].all()
    state = state.apply("S* M0 C4 A2")
    planes = state.observation(0)
    assert planes[k.OBS_STAGE + c.PLAY1].all() and not planes[k.OBS_STAGE + c.ROLL1].any()
    assert planes[k.OBS_UNUSED_VALUES + 2].all() and planes[k.OBS_UNUSED_VALUES + 0].all()
    assert planes[k.OBS_UNUSED_VALUES + 2, 0, 0] == planes[k.OBS_UNUSED_VALUES, 0, 0] == 0.25
    assert not planes[k.OBS_UNUSED_VALUES + 1].any() and not planes[k.OBS_UNUSED_VALUES + 3].any()
    assert planes[k.OBS_SUIT_FACES].all()
    assert not planes[k.OBS_SUIT_FACES + 1 : k.OBS_PHASE_TWO_DICE].any()
    # the Sun 2 on b6 (row 5, column 1) moves to c5
    assert planes[k.OBS_VALUE_COINS + 0 * 5 + 1, 5, 1] == 1
    state = state.apply("S2:b6-c5").apply("S4:c7-a5").apply("flip:S2")
    planes = state.observation(0)
    assert planes[k.OBS_STONES + 0, 4, 2] == 1  # the first stepping stone, on c5
    assert not planes[k.OBS_UNUSED_VALUES : k.OBS_PHASE_TWO_DICE].any()
    assert list(np.flatnonzero(state.legal_action_mask())) == [c.END]


def test_the_phase_two_budgets() -> None:
    game = ludoteca.make("steppin_stones")
    state = next(
        s
        for s in random_states(game, seed=7, plies=20_000)
        if s.cells[c.STAGE_AT] == c.PLAY2 and s.cells[c.BUDGET_AT : c.BUDGET_AT + 4].any()
    )
    planes = state.observation(0)
    for suit in range(4):
        rolls = state.cells[c.PHASE2_DIE_AT + suit] != 0
        assert planes[k.OBS_PHASE_TWO_DICE + suit].all() == rolls
        budget = state.cells[c.BUDGET_AT + suit] / 6 if rolls else 0.0
        assert planes[k.OBS_BUDGETS + suit] == pytest.approx(np.full((8, 8), budget))


def test_the_observation_is_a_function_of_the_position() -> None:
    game = ludoteca.make("steppin_stones")
    for state in random_states(game, seed=1, plies=200)[::10]:
        again = game.parse_state(state.to_text())
        assert np.array_equal(state.observation(0), again.observation(0))


@pytest.mark.parametrize("options", VARIANTS)
def test_the_mask_is_the_legal_actions(options: dict[str, object]) -> None:
    game = ludoteca.make("steppin_stones", **options)
    assert isinstance(game, SteppinStonesGame)
    for state in random_states(game, seed=2, plies=1500):
        legal = state.legal_action_mask()
        assert legal.dtype == np.bool_ and legal.shape == (game.num_actions,)
        expected = [] if state.to_move == CHANCE else list(state.legal_actions())
        assert list(np.flatnonzero(legal)) == expected
        assert not legal[c.RESIGN]


def test_the_kernel_writes_every_value() -> None:
    game = ludoteca.make("steppin_stones", large_board=True)
    assert isinstance(game, SteppinStonesGame)
    state = random_states(game, seed=4, plies=9)[-1]
    out: npt.NDArray[np.float32] = np.full(55 * 100, np.nan, dtype=np.float32)
    k.observation(state.cells, *game.kernel_args, 0, out)
    assert np.array_equal(out.reshape(55, 10, 10), state.observation(0))
    mask = np.ones(game.num_actions, dtype=np.bool_)
    k.action_mask(state.cells, *game.kernel_args, mask)
    assert np.array_equal(mask, state.legal_action_mask())


def test_chance_outcomes_and_the_longest_game() -> None:
    game = ludoteca.make("steppin_stones", max_turns=12)
    assert game.num_chance_outcomes == 6**4
    assert game.max_game_length == 32 * 12
    records = game.playout_records(200, seed=1)
    assert max(records.plies) <= game.max_game_length
    for state in random_states(game, seed=6, plies=400):
        if state.to_move == CHANCE:
            assert all(0 <= a < game.num_chance_outcomes for a, _ in state.chance_outcome_actions())


def test_the_vector_env_plays_the_rules() -> None:
    env = VectorEnv("steppin_stones", num_envs=4, seed=3, max_turns=4)
    assert check_vector_env_agrees(env, steps=120) > 0
