"""MCTS iterations per second on fixed decision positions, at two settings.

``levels``: the levels' setting (``rollout_plies(game)`` random plies, then the game's heuristic,
exploration 1.0). ``uct200``: uniform random rollouts capped at 200 plies scored without a
heuristic (a rollout cut short counts as a draw), UCB1 with c = sqrt(2), no early stop.

Positions: seeded random games from the start, the decision positions at a few ply counts that
have at least two legal moves and no move that wins at once. Prints one JSON object with, per
game and setting, iterations, wall and CPU seconds, iterations/s (wall and CPU), and the load
average before and after.

    python tools/bench_search.py [--iterations 2000] [--games salta,splinter]
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import random
import time
from typing import Any

import ludoteca
from ludoteca.ai import mcts
from ludoteca.ai.levels import rollout_plies
from ludoteca.ai.mcts import MCTSAgent
from ludoteca.core.game import Game, State

GAMES = ("pente_grammai", "salt_n_pepper", "salta", "splinter", "steppin_stones")
SAMPLE_PLIES = (4, 12, 30, 60)


def positions(game: Game, seed: int = 1) -> list[State]:
    """Decision positions with at least two legal moves and no immediate win."""
    found: list[State] = []
    rng = random.Random(seed)
    attempt = 0
    while len(found) < len(SAMPLE_PLIES) and attempt < 50:
        state = game.initial_state()
        target = SAMPLE_PLIES[len(found)]
        ply = 0
        while not state.is_over and ply < target:
            state = state.apply(rng.choice(state.legal_moves()))
            ply += 1
        while not state.is_over and (
            state.to_move is None or state.to_move < 0 or len(state.legal_actions()) < 2
        ):
            state = state.apply(rng.choice(state.legal_moves()))
        if not state.is_over and mcts._winning_move(state) is None:
            found.append(state)
        attempt += 1
    return found


def agent(game: Game, setting: str, iterations: int) -> MCTSAgent:
    """The searcher of ``setting`` (``levels`` or ``uct200``), seeded."""
    if setting == "levels":
        return MCTSAgent(game, iterations=iterations, rollout_plies=rollout_plies(game), seed=7)
    options: dict[str, Any] = {}
    parameters = inspect.signature(MCTSAgent).parameters
    if "heuristic" in parameters:
        options = {"heuristic": False, "stop_early": False}
    engine = MCTSAgent(
        game,
        iterations=iterations,
        rollout_plies=200,
        exploration=math.sqrt(2),
        seed=7,
        **options,
    )
    if not options:  # an older MCTSAgent: no heuristic, no early stop, by hand
        draw = (0.0,) * game.num_players
        engine._evaluate = lambda state: draw  # type: ignore[assignment]
        mcts._decided = lambda root, left: False  # type: ignore[assignment]
    return engine


def measure(game: Game, setting: str, iterations: int) -> dict[str, Any]:
    """Search every position once with a fresh agent; sum iterations and times."""
    states = positions(game)
    agent(game, setting, 20).search(states[0])  # compile / warm up
    done, wall, cpu = 0, 0.0, 0.0
    for state in states:
        engine = agent(game, setting, iterations)
        w0, c0 = time.perf_counter(), time.process_time()
        result = engine.search(state)
        wall += time.perf_counter() - w0
        cpu += time.process_time() - c0
        done += result.iterations
    return {
        "positions": len(states),
        "iterations": done,
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "iter_per_s_wall": round(done / wall),
        "iter_per_s_cpu": round(done / cpu),
    }


def load_average() -> list[str]:
    """The 1-, 5- and 15-minute load averages."""
    with open("/proc/loadavg") as file:
        return file.read().split()[:3]


def main() -> None:
    """Parse the arguments, measure, print."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--settings", default="levels,uct200")
    args = parser.parse_args()
    report: dict[str, Any] = {"load_before": load_average()}
    for game_id in args.games.split(","):
        game = ludoteca.make(game_id)
        for setting in args.settings.split(","):
            report[f"{game_id}/{setting}"] = measure(game, setting, args.iterations)
            print(game_id, setting, report[f"{game_id}/{setting}"], flush=True)
    report["load_after"] = load_average()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
