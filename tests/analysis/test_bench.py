"""`ludoteca bench`'s figures: what it counts is checked exactly, against the same seeded
playouts and searches run directly, on a fake clock (no speed is asserted: rates are only
``count / seconds``, and the clock makes both known)."""

from __future__ import annotations

import os
import platform
import time

import numba
import numpy as np
import pytest

import ludoteca
from ludoteca.ai import MCTSAgent
from ludoteca.analysis.bench import bench_game, bench_mcts, machine_info


class FakeClock:
    """``time.perf_counter`` that moves ``step`` seconds on at every reading."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_bench_counts_whole_random_games() -> None:
    result = bench_game(ludoteca.make("salta", scoring="simplified"), seconds=0.2, seed=3)
    assert result.playouts >= 1
    # Simplified scoring ends every game at the 120-move rule unless a goal is reached first.
    assert result.mean_plies <= 240
    assert result.plies == round(result.mean_plies * result.playouts)
    assert 1 <= result.mean_legal_moves <= 60
    assert result.plies_per_second > 0
    assert sum(result.wins) + result.draws == result.playouts
    assert result.longest_plies <= 240


def test_bench_totals_are_its_seeded_batches_added_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a fake clock the batches are known (1, 2, 4, ... games, seeded ``seed + games so far
    + 1``): every total must be theirs, and every rate the total over the measured time."""
    game = ludoteca.make("salta", scoring="simplified")
    clock = FakeClock(0.01)
    monkeypatch.setattr(time, "perf_counter", clock)
    result = bench_game(game, seconds=0.2, seed=3)
    monkeypatch.undo()
    batches = (result.playouts + 1).bit_length() - 1
    assert result.playouts == 2**batches - 1 and batches >= 3
    plies = decisions = legal = longest = draws = played = 0
    wins = [0, 0]
    for batch in range(batches):
        stats = game.random_playouts(2**batch, 3 + played + 1)
        played += stats.games
        plies += stats.plies
        decisions += stats.decisions
        legal += stats.legal_moves
        longest = max(longest, stats.longest)
        draws += stats.draws
        wins = [a + b for a, b in zip(wins, stats.wins, strict=True)]
    assert (result.plies, result.longest_plies, result.draws) == (plies, longest, draws)
    assert result.wins == tuple(wins)
    assert result.mean_plies == pytest.approx(plies / played)
    assert result.mean_legal_moves == pytest.approx(legal / decisions)
    assert result.seconds == pytest.approx(3 * batches * 0.01)  # three readings a batch
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


def test_bench_measures_mcts_iterations_per_second(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rate is the searches' own iterations (the warm-up left out) over the time measured."""
    searched: list[tuple[int, float]] = []
    clock = FakeClock(0.02)
    real_search = MCTSAgent.search

    def search(agent: MCTSAgent, state: ludoteca.State) -> object:
        result = real_search(agent, state)
        searched.append((result.iterations, clock.now))
        return result

    monkeypatch.setattr(MCTSAgent, "search", search)
    monkeypatch.setattr(time, "perf_counter", clock)
    rate = bench_mcts(ludoteca.make("salta"), seconds=0.3, seed=1)
    end = clock.now
    monkeypatch.undo()
    (_, warmed_up), *measured = searched
    # Many iterations a search (Salta's first move is a real choice), so counting searches
    # instead of iterations would show.
    assert measured and all(iterations > 64 for iterations, _ in measured)
    started = warmed_up + clock.step  # the first reading after the warm-up
    assert rate == pytest.approx(sum(i for i, _ in measured) / (end - started))
