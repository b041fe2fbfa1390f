"""Salta's observation planes and legal-action mask (docs/rl.md, "Salta")."""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
import pytest

import ludoteca
from ludoteca.games.salta import SaltaGame, SaltaState
from ludoteca.games.salta import kernels as k
from ludoteca.rl import VectorEnv
from tests.rl.vector_agreement import check_vector_env_agrees

VARIANTS = [
    {},
    {"goal": "ludii", "move_limit": 30},
    {"scoring": "simplified", "move_limit": 20},
    {"move_limit": None, "max_plies": 300},
]


def observe(state: SaltaState, player: int) -> npt.NDArray[np.float32]:
    planes = state.observation(player)
    assert planes.shape == (39, 10, 10)
    return planes


def random_states(game: SaltaGame, seed: int, plies: int) -> list[SaltaState]:
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    for _ in range(plies):
        if state.is_over:
            break
        state = state.apply_action(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def mirrored(state: SaltaState) -> SaltaState:
    """The position with the colours swapped and the board turned through 180°.

    The ply count goes up by one, so that the other side is to move.
    """
    cells = np.array(state.cells, dtype=np.int32)
    turned = cells.copy()
    for side in (k.GREEN, k.RED):
        other = 1 - side
        for square in range(k.NUM_SQUARES):
            turned[k.LAYER_AT + other * k.NUM_SQUARES + k.NUM_SQUARES - 1 - square] = cells[
                k.LAYER_AT + side * k.NUM_SQUARES + square
            ]
        for piece in range(k.PIECES_PER_SIDE):
            square = cells[k.PIECE_SQUARE_AT + side * k.PIECES_PER_SIDE + piece]
            turned[k.PIECE_SQUARE_AT + other * k.PIECES_PER_SIDE + piece] = (
                k.NUM_SQUARES - 1 - square
            )
        turned[k.SCORING_MOVES_AT + other] = cells[k.SCORING_MOVES_AT + side]
    turned[k.PLY_AT] += 1
    return SaltaState(state.game, turned)  # type: ignore[arg-type]


@pytest.mark.parametrize("options", VARIANTS)
def test_the_shape_is_fixed_and_every_value_is_in_0_to_1(options: dict[str, object]) -> None:
    game = ludoteca.make("salta", **options)
    assert isinstance(game, SaltaGame)
    assert game.observation_shape == (39, 10, 10)
    for state in random_states(game, seed=3, plies=400)[::20]:
        for player in (0, 1):
            planes = observe(state, player)
            assert planes.dtype == np.float32
            assert np.isfinite(planes).all()
            assert planes.min() >= 0.0 and planes.max() <= 1.0


def test_the_start_seen_by_green() -> None:
    game = ludoteca.make("salta")
    planes = observe(game.initial_state(), 0)
    # Green's Star 1 on a1, Red's Sun 5 on b8 (row 7, column 1), no piece home yet
    assert planes[k.OBS_MY_PIECES, 0, 0] == 1.0
    assert planes[k.OBS_MY_PIECES].sum() == 1.0
    assert planes[k.OBS_THEIR_PIECES + 14, 7, 1] == 1.0
    assert planes[k.OBS_MY_PIECES : k.OBS_THEIR_PIECES].sum() == 15.0
    assert planes[k.OBS_MY_HOME].sum() == planes[k.OBS_THEIR_HOME].sum() == 0.0
    assert (planes[k.OBS_MY_TURN] == 1.0).all() and (planes[k.OBS_MOVES_FIRST] == 1.0).all()
    assert (planes[k.OBS_MOVE_RULE :] == 0.0).all()


def test_each_side_sees_its_own_army_at_the_bottom_of_the_start() -> None:
    game = ludoteca.make("salta")
    start = game.initial_state()
    green, red = observe(start, 0), observe(start, 1)
    same = [p for p in range(k.NUM_OBS_PLANES) if p not in (k.OBS_MY_TURN, k.OBS_MOVES_FIRST)]
    assert np.array_equal(green[same], red[same])
    assert (red[k.OBS_MY_TURN] == 0.0).all() and (red[k.OBS_MOVES_FIRST] == 0.0).all()


@pytest.mark.parametrize("options", VARIANTS[:2])
def test_green_sees_what_red_sees_in_the_mirrored_position(options: dict[str, object]) -> None:
    game = ludoteca.make("salta", **options)
    assert isinstance(game, SaltaGame)
    ply_planes = (k.OBS_MOVES_FIRST, k.OBS_MOVE_RULE, k.OBS_PLY_CAP)  # colour and ply differ
    kept = [p for p in range(k.NUM_OBS_PLANES) if p not in ply_planes]
    for state in random_states(game, seed=8, plies=300)[::15]:
        if state.is_over:
            continue
        mirror = mirrored(state)
        for player in (0, 1):
            assert np.array_equal(observe(state, player)[kept], observe(mirror, 1 - player)[kept])


def test_the_move_rule_and_scoring_counters() -> None:
    game = ludoteca.make("salta", move_limit=10, scoring_cap=40)
    assert isinstance(game, SaltaGame)
    states = random_states(game, seed=5, plies=60)
    planes = observe(states[10], 0)
    assert planes[k.OBS_MOVE_RULE, 0, 0] == pytest.approx(10 / 20)
    assert planes[k.OBS_SCORING].sum() == 0.0
    scoring = next(s for s in states if s.cells[k.SCORING_MOVES_AT + 1] > 0)
    planes = observe(scoring, 1)
    assert (planes[k.OBS_SCORING] == 1.0).all()
    assert planes[k.OBS_MOVE_RULE, 0, 0] == 1.0
    assert planes[k.OBS_MY_SCORING_MOVES, 0, 0] == pytest.approx(
        scoring.cells[k.SCORING_MOVES_AT + 1] / 40
    )
    assert planes[k.OBS_THEIR_SCORING_MOVES, 0, 0] == pytest.approx(
        scoring.cells[k.SCORING_MOVES_AT] / 40
    )


def test_the_observation_is_a_function_of_the_position() -> None:
    game = ludoteca.make("salta")
    for state in random_states(game, seed=1, plies=120)[::10]:
        again = game.parse_state(state.to_text())
        for player in (0, 1):
            assert np.array_equal(observe(state, player), observe(again, player))


@pytest.mark.parametrize("options", VARIANTS)
def test_the_mask_is_the_legal_actions(options: dict[str, object]) -> None:
    game = ludoteca.make("salta", **options)
    assert isinstance(game, SaltaGame)
    for seed in (1, 2):
        for state in random_states(game, seed=seed, plies=700):
            legal = state.legal_action_mask()
            assert legal.dtype == np.bool_ and legal.shape == (game.num_actions,)
            assert list(np.flatnonzero(legal)) == list(state.legal_actions())


def test_the_kernel_writes_every_value() -> None:
    game = ludoteca.make("salta")
    assert isinstance(game, SaltaGame)
    state = random_states(game, seed=4, plies=30)[-1]
    out = np.full(39 * 10 * 10, np.nan, dtype=np.float32)
    k.observation(state.cells, *game.kernel_args, 1, out)
    assert np.array_equal(out.reshape(39, 10, 10), state.observation(1))
    mask = np.ones(game.num_actions, dtype=np.bool_)
    k.action_mask(state.cells, *game.kernel_args, mask)
    assert np.array_equal(mask, state.legal_action_mask())


@pytest.mark.parametrize(
    ("options", "length"),
    [
        ({}, 240 + 800),
        ({"scoring": "simplified"}, 240),
        ({"move_limit": None, "max_plies": 500}, 500),
        ({"move_limit": 10, "scoring_cap": 20}, 20 + 40),
    ],
)
def test_the_longest_game(options: dict[str, object], length: int) -> None:
    game = ludoteca.make("salta", **options)
    assert game.max_game_length == length
    assert game.num_chance_outcomes == 0


def test_no_random_game_runs_longer_than_the_longest_game() -> None:
    game = ludoteca.make("salta", move_limit=15, scoring_cap=12)
    assert isinstance(game, SaltaGame)
    records = game.playout_records(100, seed=3)
    # Random armies never get home, so every game plays out the whole scoring phase.
    assert max(records.plies) == game.max_game_length == 30 + 24


def test_the_vector_env_plays_the_rules() -> None:
    env = VectorEnv("salta", num_envs=6, seed=3, move_limit=8, scoring_cap=6)
    assert check_vector_env_agrees(env, steps=80) > 0
