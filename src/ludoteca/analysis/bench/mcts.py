"""MCTS iterations per second over a fixed set of decision positions, in two settings.

``levels`` is the rollout length of the game's MCTS levels and ``mcts:`` specs, then the game's
heuristic; ``uct200`` is plain UCT: uniform random rollouts cut at 200 plies, no heuristic, UCB1
with C = sqrt(2). Only search iterations over the time spent inside the searches are counted.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from typing import Any, Literal

from ludoteca.ai.levels import rollout_plies
from ludoteca.ai.mcts import MCTSAgent
from ludoteca.analysis.bench.measure import BenchError, Meter, Usage
from ludoteca.core.game import Game, State
from ludoteca.core.outcome import CHANCE

Setting = Literal["levels", "uct200"]
#: The two MCTS settings, in the order they are reported.
SETTINGS: tuple[Setting, ...] = ("levels", "uct200")
#: Rollout cap of the ``uct200`` setting, in plies.
UCT200_PLIES = 200
#: UCB1's exploration constant in the ``uct200`` setting: sqrt(2).
UCT200_EXPLORATION = 2**0.5
#: Plies of random play before each benchmark position (the first decision with at least two
#: legal moves from there on is taken; a game that ends first is replayed with the next draws).
POSITION_PLIES = (0, 3, 6, 10, 15, 20, 30, 40)
#: Seconds of each search: 1 s, the length of the searches of the comparison with Ludii's UCT.
#: (A tree's iterations get dearer as it grows, so rates are compared at the same length.)
SEARCH_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class MCTSResult:
    """MCTS iterations per second over a game's benchmark positions, for one setting.

    Attributes:
        setting: ``"levels"`` or ``"uct200"``.
        description: What the setting searches with, in words.
        rollout_plies: Plies of random rollout per iteration (``None``: to the end of the game).
        heuristic: Whether a rollout cut short is scored by the game's heuristic (else 0).
        exploration: UCB1's constant C.
        positions: The positions searched (position text), one search each.
        mean_legal_moves: Mean number of legal moves at those positions.
        iterations: Search iterations run in all.
        iterations_per_second: ``iterations`` over the time spent inside the searches.
        usage: Wall and CPU time inside the searches, and the load average around them.
    """

    setting: Setting
    description: str
    rollout_plies: int | None
    heuristic: bool
    exploration: float
    positions: tuple[str, ...]
    mean_legal_moves: float
    iterations: int
    iterations_per_second: float
    usage: Usage

    def to_dict(self) -> dict[str, Any]:
        """The figures as a JSON-ready dictionary."""
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "usage"}
        data["positions"] = list(self.positions)
        data.update(self.usage.to_dict())
        cpu = self.usage.cpu_seconds
        data["iterations_per_cpu_second"] = self.iterations / cpu if cpu > 0 else 0.0
        return data


def decision_positions(game: Game, seed: int = 0) -> tuple[State, ...]:
    """The fixed positions MCTS is measured on: one per entry of `POSITION_PLIES`.

    Each is the first decision with at least two legal moves and no move that wins at once (a
    search plays such a move without searching) at or after that many plies of seeded random
    play from the start (chance outcomes drawn with their probabilities). The
    same game and seed always give the same positions.

    Raises:
        BenchError: Random games keep ending before a position is found.
    """
    rng = random.Random(seed)
    positions: list[State] = []
    for target in POSITION_PLIES:
        for _ in range(100):
            found = _position_after(game.initial_state(), target, rng)
            if found is not None:
                positions.append(found)
                break
        else:
            raise BenchError(
                f"{game.id}: random games ended before {target} plies 100 times; "
                "no benchmark position found"
            )
    return tuple(positions)


def _position_after(state: State, target: int, rng: random.Random) -> State | None:
    ply = 0
    while not state.is_over:
        if state.to_move == CHANCE:
            outcomes = state.chance_outcomes()
            move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            moves = state.legal_moves()
            if ply >= target and len(moves) >= 2 and not _wins_at_once(state):
                return state
            move = rng.choice(moves)
        state = state.apply(move)
        ply += 1
    return None


def _wins_at_once(state: State) -> bool:
    mover = state.to_move
    for move in state.legal_moves():
        outcome = state.apply(move).outcome
        if outcome is not None and outcome.winner == mover:
            return True
    return False


def mcts_agent(game: Game, setting: Setting, *, seconds: float, seed: int) -> MCTSAgent:
    """A search of ``setting`` with a time budget, spending all of it (no early stop)."""
    if setting == "levels":
        return MCTSAgent(
            game,
            iterations=None,
            seconds=seconds,
            rollout_plies=rollout_plies(game),
            seed=seed,
            stop_early=False,
        )
    return MCTSAgent(
        game,
        iterations=None,
        seconds=seconds,
        exploration=UCT200_EXPLORATION,
        rollout_plies=UCT200_PLIES,
        heuristic=False,
        seed=seed,
        stop_early=False,
    )


def describe_setting(game: Game, setting: Setting) -> str:
    """The setting in words, for tables and JSON."""
    if setting == "uct200":
        return (
            f"plain UCT: uniform random rollouts cut at {UCT200_PLIES} plies (0 for an "
            "unfinished game), no heuristic, UCB1 with C = sqrt(2)"
        )
    plies = rollout_plies(game)
    rollout = "to the end of the game" if plies is None else f"of {plies} plies"
    return f"the MCTS levels' setting: random rollouts {rollout}, then the game's heuristic, C = 1"


def bench_mcts(
    game: Game, setting: Setting = "levels", *, seconds: float = SEARCH_SECONDS, seed: int = 0
) -> MCTSResult:
    """MCTS iterations per second (single-threaded) over `decision_positions`.

    Each position gets one search of ``seconds`` that spends its whole budget (no early
    stop). Only the searches are timed: building the positions
    and the agents, and a short warm-up search, are not.
    """
    if setting not in SETTINGS:
        raise BenchError(f"unknown MCTS setting {setting!r}; use one of {', '.join(SETTINGS)}")
    positions = decision_positions(game, seed)
    warm = mcts_agent(game, setting, seconds=0.001, seed=seed)
    warm.search(positions[0])
    iterations = 0
    meter = Meter()
    for index, state in enumerate(positions):
        agent = mcts_agent(game, setting, seconds=seconds, seed=seed + index)
        with meter.measure():
            result = agent.search(state)
        iterations += result.iterations
    usage = meter.usage()
    heuristic = setting == "levels"
    return MCTSResult(
        setting=setting,
        description=describe_setting(game, setting),
        rollout_plies=rollout_plies(game) if heuristic else UCT200_PLIES,
        heuristic=heuristic,
        exploration=1.0 if heuristic else UCT200_EXPLORATION,
        positions=tuple(state.to_text() for state in positions),
        mean_legal_moves=sum(len(s.legal_moves()) for s in positions) / len(positions),
        iterations=iterations,
        iterations_per_second=iterations / usage.wall_seconds,
        usage=usage,
    )
