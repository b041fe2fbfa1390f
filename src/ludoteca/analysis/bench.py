"""Single-threaded speed of the compiled rules and of the tree search.

For each game: random playouts, plies and branching, and MCTS iterations per second. Playout
figures are wall-clock rates over whole random games from the start, played inside the game's
kernels (move generation, apply and the terminal test for every ply).
"""

from __future__ import annotations

import os
import platform
import time
from dataclasses import asdict, dataclass
from importlib import metadata
from typing import Any

from ludoteca.ai.levels import rollout_plies
from ludoteca.ai.mcts import MCTSAgent
from ludoteca.core.game import Game
from ludoteca.core.outcome import CHANCE


@dataclass(frozen=True, slots=True)
class BenchResult:
    """One game's figures.

    Attributes:
        game: The game id.
        options: The options it ran with, as ``name=value`` text.
        seconds: Wall-clock time measured (after a warm-up).
        playouts: Random games played to the end.
        plies: Moves applied (chance outcomes included).
        playouts_per_second: ``playouts / seconds``.
        plies_per_second: ``plies / seconds``.
        mean_plies: Mean game length in plies.
        mean_legal_moves: Mean number of legal moves over the decision states visited.
        longest_plies: Plies in the longest game.
        wins: Games won, per player.
        draws: Games without a winner.
        mcts_iterations_per_second: MCTS iterations per second from the first decision of the
            game, with the MCTS levels' rollout setting (see `bench_mcts`).
    """

    game: str
    options: str
    seconds: float
    playouts: int
    plies: int
    playouts_per_second: float
    plies_per_second: float
    mean_plies: float
    mean_legal_moves: float
    longest_plies: int
    wins: tuple[int, ...]
    draws: int
    mcts_iterations_per_second: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The figures as a JSON-ready dictionary."""
        return asdict(self)


def bench_game(game: Game, *, seconds: float = 3.0, seed: int = 0) -> BenchResult:
    """Run random playouts of ``game`` for about ``seconds`` and return the rates.

    A short warm-up first loads (or compiles) the kernels, so it is not measured.
    """
    game.random_playouts(1, seed)
    batch, playouts, plies, decisions, legal, longest, draws = 1, 0, 0, 0, 0, 0, 0
    wins = [0] * game.num_players
    started = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        batch_started = time.perf_counter()
        stats = game.random_playouts(batch, seed + playouts + 1)
        batch_time = time.perf_counter() - batch_started
        playouts += stats.games
        plies += stats.plies
        decisions += stats.decisions
        legal += stats.legal_moves
        longest = max(longest, stats.longest)
        draws += stats.draws
        wins = [total + won for total, won in zip(wins, stats.wins, strict=True)]
        elapsed = time.perf_counter() - started
        if batch_time < 0.05:  # grow batches so the timer's overhead stays negligible
            batch *= 2
    return BenchResult(
        game=game.id,
        options=game.describe_options(),
        seconds=elapsed,
        playouts=playouts,
        plies=plies,
        playouts_per_second=playouts / elapsed,
        plies_per_second=plies / elapsed,
        mean_plies=plies / playouts,
        mean_legal_moves=legal / decisions if decisions else 0.0,
        longest_plies=longest,
        wins=tuple(wins),
        draws=draws,
        mcts_iterations_per_second=bench_mcts(game, seconds=seconds / 3, seed=seed),
    )


def bench_mcts(game: Game, *, seconds: float = 1.0, seed: int = 0) -> float:
    """MCTS iterations per second (single-threaded) from the game's first decision.

    Chance nodes before it take their first outcome. The search uses the rollout setting of the
    MCTS levels and ``mcts:`` specs (`ludoteca.ai.levels.rollout_plies`), so the figure is what
    such a search gets (Pente Grammai's and Steppin' Stones' levels play their game's expert
    instead); searches repeat until ``seconds`` have passed, after a short warm-up.
    """
    state = game.initial_state()
    while state.to_move == CHANCE:
        state = state.apply(state.legal_moves()[0])
    rollout = rollout_plies(game)
    MCTSAgent(game, iterations=20, rollout_plies=rollout, seed=seed).search(state)  # warm-up
    iterations, started = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        agent = MCTSAgent(game, iterations=None, seconds=seconds - elapsed, rollout_plies=rollout)
        iterations += agent.search(state).iterations
    return iterations / (time.perf_counter() - started)


def machine_info() -> dict[str, str]:
    """The machine and software versions the figures were measured with."""
    return {
        "cpu": _cpu_model(),
        "cores": str(os.cpu_count()),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numpy": metadata.version("numpy"),
        "numba": metadata.version("numba"),
        "ludoteca": metadata.version("ludoteca"),
    }


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()
