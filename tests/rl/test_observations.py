"""Observation tensors, masks, returns and chance indices of the single-game API (docs/rl.md)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ludoteca
from ludoteca.core.array_state import ArrayState
from ludoteca.core.outcome import CHANCE
from ludoteca.games.pente_grammai import kernels as pg
from ludoteca.games.salt_n_pepper import kernels as snp


def _random_states(game_id: str, seed: int, **options: object) -> list[ArrayState]:
    """The positions of one seeded random game, start and end included."""
    rng = random.Random(seed)
    state = ludoteca.make(game_id, **options).initial_state()
    assert isinstance(state, ArrayState)
    states = [state]
    while not state.is_over:
        state = state.apply_action(rng.choice(state.legal_actions()))
        states.append(state)
    return states


@pytest.mark.parametrize(
    ("game_id", "options", "shape"),
    [
        ("salt_n_pepper", {}, (8, 10, 10)),
        ("salt_n_pepper", {"ranks": 13}, (8, 13, 10)),
        ("pente_grammai", {}, (14, 10)),
        ("pente_grammai", {"sacred": "storage"}, (14, 10)),
    ],
)
def test_the_shape_follows_the_options(
    game_id: str, options: dict[str, object], shape: tuple[int, ...]
) -> None:
    game = ludoteca.make(game_id, **options)
    assert game.observation_shape == shape
    state = game.initial_state()
    for player in range(game.num_players):
        tensor = state.observation(player)
        assert tensor.shape == shape and tensor.dtype == np.float32
        assert tensor.flags.writeable  # a fresh array: changing it changes nothing else
        tensor[...] = 7.0
        assert not np.array_equal(state.observation(player), tensor)


def test_salt_n_pepper_shows_own_and_opponent_pieces() -> None:
    state = ludoteca.make("salt_n_pepper", first=0).initial_state()
    salt, pepper = state.observation(0), state.observation(1)
    text = state.to_text().split()[0].split("/")  # top rank first, file a first
    for rank0 in range(10):
        row = text[9 - rank0]
        assert salt[snp.OBS_OWN, rank0].tolist() == [float(c == "S") for c in row]
        assert salt[snp.OBS_OPPONENT, rank0].tolist() == [float(c == "P") for c in row]
    assert np.array_equal(salt[snp.OBS_OWN], pepper[snp.OBS_OPPONENT])
    assert np.array_equal(salt[snp.OBS_OPPONENT], pepper[snp.OBS_OWN])
    assert not salt[snp.OBS_IS_PEPPER].any() and pepper[snp.OBS_IS_PEPPER].all()
    assert salt[snp.OBS_TO_MOVE].all() and not pepper[snp.OBS_TO_MOVE].any()


def test_salt_n_pepper_counters_and_countdowns() -> None:
    states = _random_states("salt_n_pepper", 4, ranks=6, max_plies=300)
    end = states[-1]
    assert end.outcome is not None
    salt, pepper = end.observation(0), end.observation(1)
    for plane_a, plane_b in ((snp.OBS_OWN_HOME, snp.OBS_OPPONENT_HOME),):
        assert np.array_equal(salt[plane_a], pepper[plane_b])
    home = [15 - int((end.observation(p)[snp.OBS_OWN]).sum()) for p in (0, 1)]
    assert salt[snp.OBS_OWN_HOME, 0, 0] == pytest.approx(home[0] / 15)
    assert pepper[snp.OBS_OWN_HOME, 0, 0] == pytest.approx(home[1] / 15)
    plies = int(end.cells[snp.PLY_AT])
    assert salt[snp.OBS_PLIES, 0, 0] == pytest.approx(plies / 300)
    assert not salt[snp.OBS_TO_MOVE].any() and not pepper[snp.OBS_TO_MOVE].any()


def _mirrored(state: ArrayState) -> ArrayState:
    """Pente Grammai's position with the colours swapped (White's W-points become Blue's B)."""
    cells = np.array(state.cells, copy=True)
    source = state.cells
    for side in range(2):
        for point in range(pg.NUM_POINTS):
            mirror = (point + pg.NUM_POINTS // 2) % pg.NUM_POINTS
            cells[pg.COUNT_AT + (1 - side) * pg.NUM_POINTS + mirror] = source[
                pg.COUNT_AT + side * pg.NUM_POINTS + point
            ]
        cells[pg.HAND_AT + 1 - side] = source[pg.HAND_AT + side]
        cells[pg.STORE_AT + 1 - side] = source[pg.STORE_AT + side]
    if source[pg.SIDE_AT] != pg.NO_SIDE:
        cells[pg.SIDE_AT] = 1 - source[pg.SIDE_AT]
    return state.child(cells)


@pytest.mark.parametrize("options", [{}, {"sacred": "storage", "capture": True}])
def test_pente_grammai_looks_the_same_to_both_sides_of_a_mirrored_position(
    options: dict[str, object],
) -> None:
    for state in _random_states("pente_grammai", 8, **options):
        mirrored = _mirrored(state)
        assert np.array_equal(state.observation(0), mirrored.observation(1)), state.to_text()
        assert np.array_equal(state.observation(1), mirrored.observation(0)), state.to_text()


def test_pente_grammai_shows_the_die_and_each_sides_own_points_first() -> None:
    game = ludoteca.make("pente_grammai", first=1, start="schaedler")
    state = game.initial_state().apply_action(3)  # Blue rolls a 4
    blue, white = state.observation(1), state.observation(0)
    assert blue[pg.OBS_DIE + 3].all() and blue[pg.OBS_DIE : pg.OBS_DIE + 6].sum() == 10
    assert blue[pg.OBS_TO_MOVE].all() and not white[pg.OBS_TO_MOVE].any()
    # Each side sees its own counters on its points 1-5, the first five columns.
    for view in (blue, white):
        assert (view[pg.OBS_OWN] * 5).tolist() == [1.0] * 5 + [0.0] * 5
        assert (view[pg.OBS_OPPONENT] * 5).tolist() == [0.0] * 5 + [1.0] * 5


@pytest.mark.parametrize("game_id", ["salt_n_pepper", "pente_grammai"])
def test_the_mask_is_the_legal_actions_and_empty_at_chance_and_at_the_end(game_id: str) -> None:
    states = _random_states(game_id, 2, max_plies=200)
    for state in states:
        mask = state.legal_action_mask()
        assert mask.shape == (state.game.num_actions,) and mask.dtype == np.bool_
        if state.to_move is None or state.to_move == CHANCE:
            assert not mask.any()
        else:
            assert np.flatnonzero(mask).tolist() == sorted(state.legal_actions())
    assert any(s.to_move == CHANCE for s in states)


@pytest.mark.parametrize("game_id", ["salt_n_pepper", "pente_grammai"])
def test_returns_are_zero_until_the_end(game_id: str) -> None:
    states = _random_states(game_id, 9, max_plies=400)
    assert all(s.returns() == (0.0, 0.0) for s in states[:-1])
    end = states[-1]
    assert end.outcome is not None and end.returns() == end.outcome.returns


def test_chance_outcomes_have_their_own_indices() -> None:
    game = ludoteca.make("pente_grammai")
    assert game.num_chance_outcomes == 8
    draw = game.initial_state()
    assert draw.chance_outcome_actions() == ((6, 0.5), (7, 0.5))
    roll = draw.apply_action(6)
    assert roll.chance_outcome_actions() == tuple((i, pytest.approx(1 / 6)) for i in range(6))
    assert roll.apply_action(2).chance_outcome_actions() == ()  # a decision: no outcomes
    salt = ludoteca.make("salt_n_pepper")
    assert salt.num_chance_outcomes == 2
    assert salt.initial_state().chance_outcome_actions() == ((0, 0.5), (1, 0.5))


def test_max_game_length_bounds_the_games() -> None:
    assert ludoteca.make("salt_n_pepper").max_game_length == 2_001
    assert ludoteca.make("salt_n_pepper", first=0, max_plies=50).max_game_length == 50
    assert ludoteca.make("pente_grammai", max_plies=77).max_game_length == 77
    states = _random_states("salt_n_pepper", 1, max_plies=30)
    assert len(states) - 1 <= states[0].game.max_game_length


@pytest.mark.parametrize("player", [-1, 2, 0.0, True, "0", None])
def test_a_bad_player_is_refused(player: object) -> None:
    state = ludoteca.make("salt_n_pepper").initial_state()
    with pytest.raises(ValueError, match=r"player must be a player index, 0 to 1; got"):
        state.observation(player)  # type: ignore[arg-type]
