"""``ludoteca bench`` and ``ludoteca warmup`` from the command line: the JSON's shape and
invariants (docs/bench.md documents it) and the tables. Bad arguments: tests/cli/test_cli.py."""

from __future__ import annotations

import json

import pytest

import ludoteca
from tests.support import run

RESULT_KEYS = {
    "game", "options", "row", "measures", "seconds", "cpu_seconds", "cpu_share", "playouts",
    "plies", "decisions", "turns", "playouts_per_second", "plies_per_second",
    "decisions_per_second", "turns_per_second", "mean_plies", "mean_turns", "mean_legal_moves",
    "longest_plies", "wins", "draws", "safeguard_ends", "load_start", "load_end",
    "mcts_iterations_per_second", "mcts", "per_cpu_second",
}  # fmt: skip
MCTS_KEYS = {
    "setting", "description", "rollout_plies", "heuristic", "exploration", "positions",
    "mean_legal_moves", "iterations", "iterations_per_second", "wall_seconds", "cpu_seconds",
    "cpu_share", "load_start", "load_end", "iterations_per_cpu_second",
}  # fmt: skip


def test_bench_json_has_every_figure_with_cpu_time_and_load(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["bench", "salta", "--seconds", "0.1", "--search-seconds", "0.02", "--json"]
    status, out, _ = run(capsys, argv)
    assert status == 0
    payload = json.loads(out)
    assert {"machine", "results", "wall_seconds", "cpu_seconds", "load_start"} <= set(payload)
    assert "numba" in payload["machine"] and len(payload["load_end"]) == 3
    default, play_phase = payload["results"]
    assert (default["row"], play_phase["row"]) == ("defaults", "play phase")
    assert "scoring=simplified" in play_phase["options"]
    for result in payload["results"]:
        assert set(result) == RESULT_KEYS
        assert result["game"] == "salta" and result["plies_per_second"] > 0
        assert 0 < result["decisions"] <= result["plies"]
        assert 0 < result["turns"] <= result["plies"]
        assert result["cpu_seconds"] > 0 and len(result["load_start"]) == 3
        per_cpu = result["per_cpu_second"]
        assert per_cpu["plies"] == pytest.approx(result["plies"] / result["cpu_seconds"])
        assert per_cpu["decisions"] <= per_cpu["plies"]
        assert set(result["mcts"]) == {"levels", "uct200"}
        for setting, figures in result["mcts"].items():
            assert set(figures) == MCTS_KEYS and figures["setting"] == setting
            assert figures["iterations"] > 0 and figures["cpu_seconds"] > 0
            for text in figures["positions"]:
                assert len(ludoteca.make("salta").parse_state(text).legal_moves()) >= 2
        assert result["mcts"]["uct200"]["heuristic"] is False
        assert result["mcts"]["uct200"]["rollout_plies"] == 200
        levels = result["mcts"]["levels"]
        assert levels["heuristic"] is True
        assert result["mcts_iterations_per_second"] == levels["iterations_per_second"]


def test_bench_with_options_measures_that_configuration_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["bench", "--game", "salta", "-o", "scoring=simplified", "--seconds", "0.1"]
    status, out, _ = run(capsys, [*argv, "--no-mcts", "--json"])
    assert status == 0
    (result,) = json.loads(out)["results"]
    assert result["row"] == "scoring=simplified" and "scoring=simplified" in result["options"]
    assert result["mcts"] == {} and result["mcts_iterations_per_second"] == 0


def test_bench_tables_say_what_they_measure(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "splinter", "--seconds", "0.1", "--search-seconds", "0.02"]
    status, out, _ = run(capsys, argv)
    assert status == 0
    for text in ("plies/s", "decisions/s", "turns/s", "CPU/wall", "levels it/s", "uct200 it/s"):
        assert text in out
    assert "no heuristic, UCB1 with C = sqrt(2)" in out
    assert "random rollouts of 4 plies, then the game's heuristic" in out
    assert "load average" in out and "numba" in out


def test_warmup_prepares_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, ["warmup", "--json"])
    assert status == 0
    payload = json.loads(out)
    assert [entry["game"] for entry in payload["games"]] == list(ludoteca.GAMES)
    assert payload["failed"] == []
    assert all(isinstance(entry["compiled"], bool) for entry in payload["games"])
    assert all(entry["cpu_seconds"] > 0 for entry in payload["games"])
    # In parallel processes: the whole takes as long as the longest game, at least.
    assert payload["seconds"] >= max(entry["seconds"] for entry in payload["games"])
    assert payload["cpu_seconds"] >= sum(entry["cpu_seconds"] for entry in payload["games"])
    assert 1 <= payload["processes"] <= len(ludoteca.GAMES)
