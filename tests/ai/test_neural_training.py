"""Self-play training (torch, the learn extra): a resumed run gives the same network."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ludoteca
from ludoteca.ai.neural import NeuralAgent, load_network
from ludoteca.ai.neural.network import network_arrays

pytest.importorskip("torch", reason="training needs torch (the learn extra)")

from ludoteca.ai.neural.train import main

SETTINGS = ["--games", "2", "--iterations", "4", "--hidden", "16", "--batch", "32", "--seed", "5"]


def run(out: Path, generations: int) -> None:
    assert (
        main(["pente_grammai", "--out", str(out), "--generations", str(generations), *SETTINGS])
        == 0
    )


@pytest.mark.slow
def test_an_interrupted_run_resumes_to_the_same_network_and_it_plays(tmp_path: Path):
    run(tmp_path / "straight", 2)
    run(tmp_path / "resumed", 1)
    run(tmp_path / "resumed", 2)
    straight = load_network(tmp_path / "straight" / "network.npz", "pente_grammai")
    resumed = load_network(tmp_path / "resumed" / "network.npz", "pente_grammai")
    for name, array in network_arrays(straight).items():
        np.testing.assert_array_equal(network_arrays(resumed)[name], array)
    lines = (tmp_path / "resumed" / "log.jsonl").read_text().splitlines()
    assert len(lines) == 2
    game = ludoteca.make("pente_grammai")
    state = game.initial_state()
    while state.to_move is not None and state.to_move < 0:
        state = state.apply(state.legal_moves()[0])
    assert NeuralAgent(game, network=resumed, iterations=8).choose(state) in state.legal_moves()


@pytest.mark.slow
def test_a_run_folder_refuses_other_settings(tmp_path: Path):
    run(tmp_path, 1)
    with pytest.raises(SystemExit, match="holds a run with other settings"):
        main(["pente_grammai", "--out", str(tmp_path), "--games", "3"])
