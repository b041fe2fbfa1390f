"""`ludoteca.rl.VectorEnv`: the batch plays exactly the games of the single-game API.

Each env's game is followed move for move with `State.apply_action`: the chance outcomes the
batch drew are found among the state's own, and every row's position, observation, mask,
player, reward and termination must be what the single game gives.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import ludoteca
from ludoteca.core.array_state import ArrayState
from ludoteca.core.outcome import CHANCE
from ludoteca.rl import VectorEnv

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"

GAMES = [
    ("salt_n_pepper", {"ranks": 6}),
    ("salt_n_pepper", {"first": 1, "pepper_sideways": True, "max_plies": 40}),
    ("pente_grammai", {}),
    ("pente_grammai", {"sacred": "storage", "capture": True, "max_plies": 90}),
]


def _after_chance(state: ArrayState) -> list[ArrayState]:
    """Every position the chance outcomes from ``state`` can lead to before a decision."""
    if state.to_move != CHANCE:
        return [state]
    reached: list[ArrayState] = []
    for action, _ in state.chance_outcome_actions():
        reached.extend(_after_chance(state.apply_action(action)))
    return reached


def _follow(state: ArrayState, cells: np.ndarray) -> ArrayState:
    """The decision the batch reached from ``state`` through chance outcomes (its row)."""
    target = state.child(cells)
    matches = [s for s in _after_chance(state) if s == target]
    assert matches, f"the batch reached {target.to_text()!r}, which chance cannot reach"
    return matches[0]


def _finish(state: ArrayState, rewards: np.ndarray) -> None:
    """The game after the last action must end (maybe after chance) with these returns."""
    ends = [s for s in _after_chance(state) if s.is_over] if not state.is_over else [state]
    assert any(s.returns() == tuple(float(r) for r in rewards) for s in ends), (
        f"no end of {state.to_text()!r} has the returns {rewards.tolist()}"
    )


@pytest.mark.parametrize(("game_id", "options"), GAMES)
def test_the_batch_agrees_with_the_single_game_move_for_move(
    game_id: str, options: dict[str, object]
) -> None:
    env = VectorEnv(game_id, num_envs=6, seed=3, **options)
    game = env.game
    observations, masks = env.reset()
    singles = [_follow(game.initial_state(), row) for row in env.cells]
    assert env.players.tolist() == [single.to_move for single in singles]
    finished = 0
    for _ in range(250):
        for row, single in enumerate(singles):
            assert single.to_move is not None and single.to_move != CHANCE
            assert np.array_equal(observations[row], single.observation(single.to_move))
            assert np.array_equal(masks[row], single.legal_action_mask())
        actions = env.random_actions()
        result = env.step(actions)
        observations, masks = result.observations, result.masks
        for row in range(env.num_envs):
            after = singles[row].apply_action(int(actions[row]))
            if result.terminated[row]:
                _finish(after, result.rewards[row])
                after = _follow(game.initial_state(), env.cells[row])
                finished += 1
            else:
                assert not result.rewards[row].any()
                after = _follow(after, env.cells[row])
            assert result.players[row] == after.to_move
            singles[row] = after
    assert finished > 0, "the test must see games end and restart"
    assert env.states() == singles


@pytest.mark.parametrize("game_id", ["salt_n_pepper", "pente_grammai"])
def test_the_same_seed_plays_the_same_games(game_id: str) -> None:
    def play(seed: int) -> list[bytes]:
        env = VectorEnv(game_id, num_envs=16, seed=seed)
        env.reset()
        seen = []
        for _ in range(60):
            result = env.step(env.random_actions())
            seen.append(env.cells.tobytes() + result.rewards.tobytes())
        return seen

    assert play(5) == play(5)
    assert play(5) != play(6)


def test_other_random_play_in_the_process_changes_nothing() -> None:
    """The batch draws from its own generators, not numba's global one that rollouts use."""

    def play(disturb: bool) -> list[bytes]:
        env = VectorEnv("pente_grammai", num_envs=8, seed=4)
        env.reset()
        seen = []
        for step in range(40):
            if disturb:
                env.game.random_playouts(1, step)  # reseeds and draws from numba's generator
            env.step(env.random_actions())
            seen.append(env.cells.tobytes())
        return seen

    assert play(disturb=True) == play(disturb=False)


def test_reset_with_a_seed_starts_the_same_games_again() -> None:
    env = VectorEnv("pente_grammai", num_envs=8, seed=1)
    first, _ = env.reset()
    first = first.copy()
    env.step(env.random_actions())
    again, _ = env.reset(seed=1)
    assert np.array_equal(first, again)
    other, _ = env.reset(seed=2)
    assert not np.array_equal(first, other)  # eight first rolls: all equal by chance 6**-8
    assert np.array_equal(VectorEnv("pente_grammai", num_envs=8, seed=1).reset()[0], first)


def test_reset_without_a_seed_deals_new_games() -> None:
    """The first reset seeds from the construction's seed; later ones go on with the
    generators, so no two resets replay the same games (each: 16 envs' first rolls)."""
    env = VectorEnv("pente_grammai", num_envs=16, seed=1)
    starts = [env.reset()[0].tobytes()]
    for _ in range(3):
        env.step(env.random_actions())
        starts.append(env.reset()[0].tobytes())
    starts.append(env.reset()[0].tobytes())  # twice in a row: new games too
    assert len(set(starts)) == len(starts)
    replay = VectorEnv("pente_grammai", num_envs=16, seed=1)
    again = [replay.reset()[0].tobytes()]
    for _ in range(3):
        replay.step(replay.random_actions())
        again.append(replay.reset()[0].tobytes())
    again.append(replay.reset()[0].tobytes())
    assert again == starts  # the whole sequence still follows the seed


def test_a_step_can_be_kept_by_copying_it() -> None:
    env = VectorEnv("salt_n_pepper", num_envs=4, seed=3, ranks=6)
    env.reset()
    kept = env.step(env.random_actions()).copy()
    seen = env.step(env.random_actions())
    assert not np.array_equal(kept.observations, seen.observations)  # the buffers moved on
    kept.observations[0, 0, 0, 0] = 0.5  # writable, and the env's buffers are not touched
    assert seen.observations[0, 0, 0, 0] != 0.5


def test_the_results_are_read_only_with_the_documented_shapes() -> None:
    env = VectorEnv("salt_n_pepper", num_envs=5, seed=0, ranks=8)
    observations, masks = env.reset()
    assert observations.shape == (5, 8, 8, 10) and observations.dtype == np.float32
    assert masks.shape == (5, env.game.num_actions) and masks.dtype == np.bool_
    result = env.step(env.random_actions())
    assert result.rewards.shape == (5, 2) and result.rewards.dtype == np.float32
    assert result.terminated.shape == (5,) and result.players.shape == (5,)
    with pytest.raises(ValueError, match="read-only"):
        result.masks[0, 0] = True


@pytest.mark.parametrize("seat", [0, 1])
def test_an_illegal_action_loses_its_game_for_the_player_to_move(seat: int) -> None:
    """Row 2 plays an illegal move (Salt's a1 is never a legal step at the start) for the player
    to move, ``seat``: that game is lost by that seat and restarts; the others play on exactly
    as a twin batch with legal actions everywhere."""
    env = VectorEnv("salt_n_pepper", num_envs=4, seed=2, first=seat, ranks=6)
    twin = VectorEnv("salt_n_pepper", num_envs=4, seed=2, first=seat, ranks=6)
    env.reset()
    twin.reset()
    actions = env.random_actions()
    twin.random_actions()
    assert env.players[2] == seat
    illegal = actions.copy()
    illegal[2] = 0
    result = env.step(illegal).copy()
    expected = twin.step(actions).copy()
    assert result.illegal.tolist() == [False, False, True, False]
    assert result.terminated.tolist() == [False, False, True, False]
    loser_row = [1.0, 1.0]
    loser_row[seat] = -1.0
    assert result.rewards[2].tolist() == loser_row
    others = [0, 1, 3]
    assert np.array_equal(env.cells[others], twin.cells[others])
    assert np.array_equal(result.observations[others], expected.observations[others])
    assert np.array_equal(result.rewards[others], expected.rewards[others])
    start = VectorEnv("salt_n_pepper", num_envs=1, seed=2, first=seat, ranks=6)
    assert env.states()[2] == start.game.initial_state()  # a new game, no move played
    assert env.players[2] == seat
    after = env.step(env.random_actions())
    assert not after.illegal.any()  # the flag is about the last step only


def test_values_outside_the_action_space_are_refused_and_move_nothing() -> None:
    env = VectorEnv("salt_n_pepper", num_envs=4, seed=2)
    env.reset()
    actions = env.random_actions()
    before = env.cells.copy()
    for value in (env.game.num_actions, -1):
        actions[2] = value
        with pytest.raises(ValueError, match=f"env 2 got {value}"):
            env.step(actions)
        assert np.array_equal(env.cells, before)


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (np.zeros(3, dtype=np.int64), r"shape \(4,\), one per env; got \(3,\)"),
        (np.zeros((4, 1), dtype=np.int64), r"got \(4, 1\)"),
        (np.zeros(4, dtype=np.float64), "must be integers; got dtype float64"),
        ("a1-b2", "shape"),
    ],
)
def test_bad_actions_are_refused(actions: object, message: str) -> None:
    env = VectorEnv("pente_grammai", num_envs=4, seed=0)
    env.reset()
    with pytest.raises(ValueError, match=message):
        env.step(actions)  # type: ignore[arg-type]


def test_actions_of_another_integer_type_are_accepted() -> None:
    env = VectorEnv("pente_grammai", num_envs=4, seed=0)
    env.reset()
    as_int32 = env.random_actions().astype(np.int32)
    env.step(as_int32)
    env.step(env.random_actions().tolist())
    strided = np.repeat(env.random_actions(), 2)[::2]
    strided.flags.writeable = False
    env.step(strided)


def test_bad_construction_and_order_are_refused() -> None:
    with pytest.raises(ValueError, match="num_envs must be from 1"):
        VectorEnv("pente_grammai", num_envs=0)
    with pytest.raises(ValueError, match="num_envs must be an integer"):
        VectorEnv("pente_grammai", num_envs=True)
    with pytest.raises(ValueError, match="seed must be from 0"):
        VectorEnv("pente_grammai", num_envs=2, seed=-1)
    with pytest.raises(ValueError, match="unknown game"):
        VectorEnv("chess", num_envs=2)
    with pytest.raises(ValueError, match="pass options with a game id"):
        VectorEnv(ludoteca.make("salt_n_pepper"), num_envs=2, ranks=8)
    env = VectorEnv("pente_grammai", num_envs=2)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step"):
        env.step([0, 0])


def test_a_game_without_batch_kernels_is_refused() -> None:
    from tests.core.toy_games import ToyDiceGame

    with pytest.raises(ValueError, match="has no compiled batch kernels"):
        VectorEnv(ToyDiceGame(), num_envs=2)


def test_options_under_which_a_game_ends_before_a_decision_are_refused() -> None:
    env = VectorEnv("pente_grammai", num_envs=2, max_plies=2)  # the draw and the first roll
    with pytest.raises(ValueError, match="ends before its first decision"):
        env.reset()


def test_the_example_in_the_docs_runs(capsys: pytest.CaptureFixture[str]) -> None:
    section = DOCS.read_text().split("## Batched simulation: VectorEnv")[1]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert code is not None
    exec(compile(code.group(1), str(DOCS), "exec"), {})
    assert "games finished" in capsys.readouterr().out


def test_a_plug_in_game_plays_in_a_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nim (tests/example_game) from pile 5, everyone taking one: the first player takes the
    last counter on the fifth step, wins, and the game starts again."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "example_game"))
    from ludoteca_nim import NimGame

    env = VectorEnv(NimGame(pile=5, max_take=2), num_envs=3, seed=0)
    observations, masks = env.reset()
    assert np.allclose(observations, [[0.05, 1.0]] * 3)
    assert masks.tolist() == [[True, True] + [False] * 7] * 3
    for step in range(1, 6):
        result = env.step([0, 0, 0])
        assert result.terminated.tolist() == [step == 5] * 3
        assert result.players.tolist() == [step % 2 if step < 5 else 0] * 3
    assert result.rewards.tolist() == [[1.0, -1.0]] * 3
    assert np.allclose(result.observations, [[0.05, 1.0]] * 3)  # the new game's first move
    result = env.step([0, 2, 0])  # Nim's move "take 3" is not legal with max_take=2
    assert result.illegal.tolist() == [False, True, False]
    assert result.rewards[1].tolist() == [-1.0, 1.0]
