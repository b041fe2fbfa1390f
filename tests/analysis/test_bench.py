"""`ludoteca bench`'s figures: what it counts is checked exactly, against the same seeded
playouts and searches run directly, on a fake clock where the time matters (no speed is asserted:
rates are only ``count / seconds``, and the clock makes both known)."""

from __future__ import annotations

import dataclasses
import os
import platform
import time

import numba
import numpy as np
import pytest

import ludoteca
from ludoteca.ai import MCTSAgent, mcts
from ludoteca.analysis import bench
from ludoteca.analysis.bench import (
    POSITION_PLIES,
    UCT200_PLIES,
    bench_cold,
    bench_game,
    bench_mcts,
    decision_positions,
    default_rows,
    machine_info,
    mcts_agent,
)


class FakeClock:
    """``time.perf_counter`` that moves ``step`` seconds on at every reading."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_bench_counts_whole_random_games() -> None:
    result = bench_game(
        ludoteca.make("salta", scoring="simplified"), seconds=0.2, seed=3, search_seconds=0
    )
    assert result.playouts >= 1
    # Simplified scoring ends every game at the 120-move rule unless a goal is reached first.
    assert result.mean_plies <= 240
    assert result.plies == round(result.mean_plies * result.playouts)
    assert 1 <= result.mean_legal_moves <= 60
    assert result.plies_per_second > 0
    assert sum(result.wins) + result.draws == result.playouts
    assert result.longest_plies <= 240
    assert result.mcts == {} and result.mcts_iterations_per_second == 0


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_decisions_and_turns_never_exceed_plies(game_id: str) -> None:
    result = bench_game(ludoteca.make(game_id), seconds=0.05, search_seconds=0)
    assert 0 < result.decisions <= result.plies
    assert result.decisions_per_second == pytest.approx(result.decisions / result.seconds)
    assert 0 < result.turns <= result.plies
    assert result.turns_per_second == pytest.approx(result.turns / result.seconds)
    assert result.mean_turns == pytest.approx(result.turns / result.playouts)
    assert 0 <= result.safeguard_ends <= result.playouts
    assert result.cpu_seconds > 0
    assert len(result.load_start) == len(result.load_end) == 3


def test_pente_grammai_decisions_leave_the_die_rolls_out() -> None:
    """Every turn is a roll then a move or a pass: one decision a turn, two plies."""
    result = bench_game(ludoteca.make("pente_grammai"), seconds=0.05, search_seconds=0)
    assert result.decisions == result.turns
    assert result.plies == 2 * result.turns + result.playouts  # and each game's first-player draw


def test_bench_totals_are_its_seeded_batches_added_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a fake clock the batches are known (1, 2, 4, ... games, seeded ``seed + games so far
    + 1``, two readings each): every total must be theirs, and every rate the total over the
    measured time."""
    game = ludoteca.make("salta", scoring="simplified")
    game.random_playouts(1, 0)  # compiled before the clock is faked
    monkeypatch.setattr(time, "perf_counter", FakeClock(0.02))
    result = bench_game(game, seconds=0.09, seed=3, search_seconds=0)
    monkeypatch.undo()
    batches = 5  # 0.02 s each until 0.09 s have passed
    assert result.playouts == 2**batches - 1
    plies = decisions = turns = safeguard = legal = longest = draws = played = 0
    wins = [0, 0]
    for batch in range(batches):
        stats = game.random_playouts(2**batch, 3 + played + 1)
        played += stats.games
        plies += stats.plies
        decisions += stats.decisions
        turns += stats.turns
        safeguard += stats.safeguard_ends
        legal += stats.legal_moves
        longest = max(longest, stats.longest)
        draws += stats.draws
        wins = [a + b for a, b in zip(wins, stats.wins, strict=True)]
    assert (result.plies, result.decisions, result.turns) == (plies, decisions, turns)
    assert result.safeguard_ends == safeguard
    assert (result.longest_plies, result.draws) == (longest, draws)
    assert result.wins == tuple(wins)
    assert result.mean_plies == pytest.approx(plies / played)
    assert result.mean_legal_moves == pytest.approx(legal / decisions)
    assert result.seconds == pytest.approx(batches * 0.02)
    assert result.plies_per_second == pytest.approx(plies / result.seconds)
    assert result.playouts_per_second == pytest.approx(played / result.seconds)


def test_random_playouts_are_deterministic_by_seed() -> None:
    game = ludoteca.make("salta", move_limit=20)
    assert game.random_playouts(5, 42) == game.random_playouts(5, 42)
    assert game.random_playouts(5, 42) != game.random_playouts(5, 43)


def test_machine_info_names_the_versions() -> None:
    info = machine_info()
    assert set(info) >= {"cpu", "cores", "python", "numpy", "numba", "ludoteca"}
    assert info["cores"] == str(os.cpu_count())
    assert info["python"] == platform.python_version()
    assert (info["numpy"], info["numba"]) == (np.__version__, numba.__version__)
    assert info["ludoteca"] and info["cpu"]


def test_default_rows_are_each_game_then_the_salta_play_phase() -> None:
    rows = default_rows()
    assert [row.game for row in rows[: len(ludoteca.GAMES)]] == list(ludoteca.GAMES)
    assert all(row.options == {} and row.label == "defaults" for row in rows[:-2])
    extra = [(row.game, row.options, row.label) for row in rows[len(ludoteca.GAMES) :]]
    assert extra == [
        ("pente_grammai", {"sacred": "storage"}, "storage"),
        ("salta", {"scoring": "simplified"}, "play phase"),
    ]
    assert [row.label for row in default_rows(["splinter"])] == ["defaults"]
    assert len(default_rows(["salta"])) == 2


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_benchmark_positions_are_real_choices_and_fixed(game_id: str) -> None:
    game = ludoteca.make(game_id)
    positions = decision_positions(game, seed=0)
    assert len(positions) == len(POSITION_PLIES)
    for state in positions:
        assert not state.is_over and state.to_move is not None and state.to_move >= 0
        assert len(state.legal_moves()) >= 2
        for move in state.legal_moves():  # a search would play a win at once without searching
            assert state.apply(move).outcome is None or state.apply(move).outcome.winner != (
                state.to_move
            )
    assert decision_positions(game, seed=0) == positions
    assert len(set(positions)) > 1


def test_pente_grammai_positions_skip_the_forced_first_decision() -> None:
    """Its first decision has one legal move: a search there stops after one iteration."""
    game = ludoteca.make("pente_grammai")
    state = game.initial_state()
    while state.to_move == ludoteca.CHANCE:
        state = state.apply(state.legal_moves()[0])
    assert len(state.legal_moves()) == 1
    assert state not in decision_positions(game)


@pytest.mark.parametrize("setting", ["levels", "uct200"])
def test_mcts_rate_is_the_searches_iterations_over_their_time(
    monkeypatch: pytest.MonkeyPatch, setting: bench.Setting
) -> None:
    """Every position is searched once, its whole budget; the warm-up search is left out."""
    searched: list[tuple[ludoteca.State, int]] = []
    real_search = MCTSAgent.search

    def search(agent: MCTSAgent, state: ludoteca.State) -> mcts.SearchResult:
        result = real_search(agent, state)
        searched.append((state, result.iterations))
        return result

    monkeypatch.setattr(MCTSAgent, "search", search)
    game = ludoteca.make("salta")
    result = bench_mcts(game, setting, seconds=0.05, seed=1)
    monkeypatch.undo()
    _warm_up, *measured = searched
    positions = decision_positions(game, seed=1)
    assert [state for state, _ in measured] == list(positions)
    assert result.positions == tuple(state.to_text() for state in positions)
    assert all(iterations >= 64 for _, iterations in measured)  # budgets spent, not decided
    assert result.iterations == sum(iterations for _, iterations in measured)
    assert result.iterations_per_second == pytest.approx(
        result.iterations / result.usage.wall_seconds
    )
    assert result.usage.cpu_seconds > 0
    assert result.setting == setting


def test_mcts_rate_counts_search_time_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a fake clock: the time is the readings around the searches, nothing else."""
    game = ludoteca.make("splinter")
    decision_positions(game)
    bench_mcts(game, "levels", seconds=0.001)  # compiled and warmed before the clock is faked
    clock = FakeClock(0.001)
    monkeypatch.setattr(time, "perf_counter", clock)
    result = bench_mcts(game, "levels", seconds=0.01)
    monkeypatch.undo()
    # Per search: the meter's two readings, the search's start and one reading per 64 iterations
    # until its 0.01 s deadline; so at most a few thousandths of a second each.
    assert result.usage.wall_seconds < len(POSITION_PLIES) * 0.02
    assert result.iterations_per_second == pytest.approx(
        result.iterations / result.usage.wall_seconds
    )


def test_uct200_runs_without_the_heuristic(monkeypatch: pytest.MonkeyPatch) -> None:
    game = ludoteca.make("splinter")
    agent = mcts_agent(game, "uct200", seconds=0.1, seed=0)
    assert agent.rollout_plies == UCT200_PLIES and agent.exploration == pytest.approx(2**0.5)

    def no_heuristic(state: ludoteca.State) -> tuple[float, ...]:
        raise AssertionError("uct200 used the heuristic")

    monkeypatch.setattr(mcts, "evaluator_for", lambda game: no_heuristic)
    # The compiled search leaf scores positions inside numba, past the patched evaluator: search
    # without it (the same searches; tests/ai/test_search.py shows it) so the patch is seen.
    info = dataclasses.replace(type(game).info, search_leaf=None)
    monkeypatch.setattr(type(game), "info", info)
    result = bench_mcts(game, "uct200", seconds=0.01)
    assert result.iterations > 0 and not result.heuristic
    assert result.rollout_plies == UCT200_PLIES
    with pytest.raises(AssertionError, match="used the heuristic"):
        bench_mcts(game, "levels", seconds=0.01)  # while the levels' setting does use it


def test_an_unknown_setting_is_refused() -> None:
    with pytest.raises(bench.BenchError, match="use one of levels, uct200"):
        bench_mcts(ludoteca.make("splinter"), "uct100")  # type: ignore[arg-type]


@pytest.mark.slow
def test_cold_compile_runs_in_a_fresh_process_and_cache() -> None:
    result = bench_cold("splinter")
    assert result.game == "splinter"
    assert result.compile_seconds > 0 and result.compile_cpu_seconds > 0
    assert result.load_seconds > 0 and result.load_cpu_seconds > 0
    # Compiling is work the cached run does not do (CPU time, not a speed target).
    assert result.compile_cpu_seconds > result.load_cpu_seconds
    assert set(result.to_dict()) >= {"compile_seconds", "compile_cpu_seconds", "load_start"}


def test_cold_compile_refuses_an_unknown_game() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'; accepted: "):
        bench_cold("chess")


@pytest.mark.parametrize("game_id", ["pente_grammai", "splinter"])
def test_mcts_without_stop_early_spends_its_whole_budget(game_id: str) -> None:
    game = ludoteca.make(game_id)
    for state in decision_positions(game)[:4]:
        agent = MCTSAgent(game, iterations=700, rollout_plies=4, stop_early=False, seed=0)
        assert agent.search(state).iterations == 700


def test_mcts_without_heuristic_scores_a_cut_rollout_zero() -> None:
    """Rollouts of 0 plies from Salta's start never end a game: every leaf is worth 0."""
    game = ludoteca.make("salta")
    agent = MCTSAgent(game, iterations=300, rollout_plies=0, heuristic=False, stop_early=False)
    result = agent.search(game.initial_state())
    assert result.iterations == 300 and result.value == 0.0
    with_heuristic = MCTSAgent(game, iterations=300, rollout_plies=0, stop_early=False)
    assert with_heuristic.search(game.initial_state()).value != 0.0
