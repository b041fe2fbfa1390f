from __future__ import annotations

import ludoteca
from ludoteca.analysis.bench import bench_game, bench_mcts, machine_info


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


def test_random_playouts_are_deterministic_by_seed() -> None:
    game = ludoteca.make("salta", move_limit=20)
    assert game.random_playouts(5, 42) == game.random_playouts(5, 42)


def test_machine_info_names_the_versions() -> None:
    info = machine_info()
    assert set(info) >= {"cpu", "cores", "python", "numpy", "numba", "ludoteca"}


def test_bench_measures_mcts_iterations_per_second() -> None:
    rate = bench_mcts(ludoteca.make("pente_grammai"), seconds=0.3, seed=1)
    assert rate > 0  # the figure itself is for `ludoteca bench`; here: the search ran
