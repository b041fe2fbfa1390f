"""The Pente Grammai network against the exact solution.

Plays self-play games of the neural player (``neural:iters=N``, chance drawn from the seed) and
takes its decision positions with at least two legal moves until ``--positions`` are found. In
each it asks the network alone (no search) for its policy and value, and the solved table
(`ludoteca.games.pente_grammai.solver`) for every move's exact value. Prints one JSON object:

- ``policy_optimal``: the share of positions where the policy's most likely move is optimal
  (its exact value within 1e-9 of the best);
- ``value_mae``: the mean absolute error of the value head against the exact value of the
  position (the best move's value to the mover), on the [-1, 1] scale;
- the same share for the search (``search_optimal``) and for a uniformly random move
  (``random_optimal``, the expected share), and the error of a value of 0 everywhere
  (``zero_mae``), for scale;
- CPU and wall seconds and the load average.

    python tools/neural_pente_grammai.py [--positions 1000] [--iterations 200] [--seed 7]
        [--weights FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time

import numpy as np

import ludoteca
from ludoteca.ai.neural import NeuralAgent, load_network
from ludoteca.ai.neural.agent import game_network
from ludoteca.core.outcome import CHANCE
from ludoteca.games.pente_grammai.solver import exact_move_values

TIE = 1e-9


def main() -> None:
    """Measure and print the figures (see the module docs)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--weights", default=None, help="a weights file (default: the shipped)")
    args = parser.parse_args()
    game = ludoteca.make("pente_grammai")
    network = game_network(game) if args.weights is None else load_network(args.weights, game.id)
    agent = NeuralAgent(game, network=network, iterations=args.iterations)
    rng = random.Random(args.seed)
    started_wall, started_cpu = time.perf_counter(), time.process_time()
    load_before = os.getloadavg()
    found = policy_hits = search_hits = 0
    random_share = 0.0
    errors: list[float] = []
    exact_values: list[float] = []
    games = 0
    while found < args.positions:
        state = game.initial_state()
        games += 1
        while not state.is_over and found < args.positions:
            if state.to_move == CHANCE:
                state = state.apply(rng.choice(state.legal_moves()))
                continue
            legal = np.array(state.legal_actions(), dtype=np.int64)
            result = agent.analyse(state)
            if len(legal) >= 2:
                exact = exact_move_values(state)
                best = max(exact.values())
                optimal = {a for a, v in exact.items() if v >= best - TIE}
                priors, value = network.evaluate(state.observation(state.to_move), legal)
                policy_hits += int(legal[int(np.argmax(priors))]) in optimal
                search_hits += int(result.actions[result.best]) in optimal
                random_share += len(optimal) / len(legal)
                errors.append(abs(value - best))
                exact_values.append(best)
                found += 1
            state = state.apply_action(int(result.actions[result.best]))
    print(
        json.dumps(
            {
                "positions": found,
                "games": games,
                "search_iterations": args.iterations,
                "policy_optimal": round(policy_hits / found, 4),
                "search_optimal": round(search_hits / found, 4),
                "random_optimal": round(random_share / found, 4),
                "value_mae": round(float(np.mean(errors)), 4),
                "zero_mae": round(float(np.mean(np.abs(exact_values))), 4),
                "cpu_seconds": round(time.process_time() - started_cpu, 1),
                "wall_seconds": round(time.perf_counter() - started_wall, 1),
                "load_before": [round(x, 2) for x in load_before],
                "load_after": [round(x, 2) for x in os.getloadavg()],
            }
        )
    )


if __name__ == "__main__":
    main()
