"""Playing a study's games: one batch at a time, into a table of per-game numbers.

**Random play** (``random`` for every seat) runs inside each game's compiled kernels: one call
per batch returns per-game arrays (`random_batch`). **Agent play** plays each game through the
public API with agents built from their specs (`agent_batch`), and follows the game's own
evaluation after every decision for the lead changes and the decisive point of the game
(`lead_measures`).

A batch is played from its seed alone, so the same batch gives the same table in any process.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ludoteca.ai.evaluation import evaluator_for
from ludoteca.ai.specs import agent_from_spec
from ludoteca.core.array_state import KernelGame
from ludoteca.core.chance import sample_outcome
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import Game
from ludoteca.core.outcome import CHANCE
from ludoteca.core.registry import make

RANDOM_BATCH = 5_000  # games per batch of random play (kernels)
AGENT_BATCH = 4  # games per batch of agent play
CURVE_BINS = 200  # decision indices of the legal-move curve; the last bin takes the rest
NO_WINNER = -1
SAFEGUARD_PREFIX = "engine safeguard"

#: Per-game columns, in the order of the CSV file.
COLUMNS = (
    "plies",
    "decisions",
    "turns",
    "legal_moves",
    "winner",
    "safeguard",
    "first_mover",
    "lead_changes",
    "decided_at",
)


class StudyError(LudotecaError):
    """A study was asked for with a bad game, option, variation, agent, objective or number."""


@dataclass(frozen=True, slots=True)
class Batch:
    """One batch of games: what a worker needs to play them (picklable)."""

    variant: int
    number: int
    first_game: int
    count: int
    game_id: str
    options: dict[str, Any]
    agents: tuple[str, ...]
    seed: int

    @property
    def random_play(self) -> bool:
        """Whether every seat plays uniformly at random (in the compiled kernels)."""
        return is_random_play(self.agents)


def is_random_play(agents: Sequence[str]) -> bool:
    """Whether a lineup is plain ``random`` on every seat (the compiled path)."""
    return all(spec == "random" for spec in agents)


@dataclass(slots=True)
class GameTable:
    """Per-game results as numpy arrays (one entry per game), plus the legal-move curve.

    ``lead_changes`` is -1 and ``decided_at`` NaN where not measured (random play, solitaires,
    games without an evaluation, drawn games for ``decided_at``).
    """

    columns: dict[str, npt.NDArray[Any]]
    curve_sum: npt.NDArray[np.int64]
    curve_count: npt.NDArray[np.int64]

    @property
    def games(self) -> int:
        """How many games the table holds."""
        return int(self.columns["plies"].size)

    @staticmethod
    def join(tables: Sequence[GameTable]) -> GameTable:
        """One table holding the games of ``tables`` in order."""
        if not tables:
            return GameTable.empty()
        return GameTable(
            columns={name: np.concatenate([t.columns[name] for t in tables]) for name in COLUMNS},
            curve_sum=np.sum([t.curve_sum for t in tables], axis=0, dtype=np.int64),
            curve_count=np.sum([t.curve_count for t in tables], axis=0, dtype=np.int64),
        )

    @staticmethod
    def empty() -> GameTable:
        """A table of no games."""
        return GameTable(
            columns={name: np.zeros(0, dtype=_dtype(name)) for name in COLUMNS},
            curve_sum=np.zeros(CURVE_BINS, dtype=np.int64),
            curve_count=np.zeros(CURVE_BINS, dtype=np.int64),
        )


def play_batch(batch: Batch) -> GameTable:
    """Play one batch: in the kernels for random play, else through the agents."""
    game = make(batch.game_id, **batch.options)
    if batch.random_play:
        return random_batch(game, batch.count, batch.seed)
    return agent_batch(game, batch.agents, batch.count, batch.seed)


def random_batch(game: Game, count: int, seed: int) -> GameTable:
    """``count`` uniformly random games played inside the compiled kernels."""
    if not isinstance(game, KernelGame):
        raise StudyError(f"{game.name} has no compiled kernels for random play; give --agents")
    records = game.playout_records(count, seed)
    columns: dict[str, npt.NDArray[Any]] = {
        "plies": np.asarray(records.plies, dtype=np.int64),
        "decisions": np.asarray(records.decisions, dtype=np.int64),
        "turns": np.asarray(records.turns, dtype=np.int64),
        "legal_moves": np.asarray(records.legal_moves, dtype=np.int64),
        "winner": np.asarray(records.winner, dtype=np.int64),
        "safeguard": np.asarray(records.safeguard, dtype=np.bool_),
        "first_mover": np.asarray(records.first_mover, dtype=np.int64),
        "lead_changes": np.full(count, -1, dtype=np.int64),
        "decided_at": np.full(count, np.nan),
    }
    curve_sum, curve_count = _rebin(
        np.asarray(records.legal_curve_sum, dtype=np.int64),
        np.asarray(records.legal_curve_count, dtype=np.int64),
    )
    return GameTable(columns, curve_sum, curve_count)


def _rebin(
    sums: npt.NDArray[np.int64], counts: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """A curve of any length on `CURVE_BINS` bins (the last one takes the rest)."""
    curve_sum = np.zeros(CURVE_BINS, dtype=np.int64)
    curve_count = np.zeros(CURVE_BINS, dtype=np.int64)
    used = min(CURVE_BINS - 1, sums.size)
    curve_sum[:used] = sums[:used]
    curve_count[:used] = counts[:used]
    curve_sum[CURVE_BINS - 1] += sums[used:].sum()
    curve_count[CURVE_BINS - 1] += counts[used:].sum()
    return curve_sum, curve_count


def agent_batch(game: Game, specs: Sequence[str], count: int, seed: int) -> GameTable:
    """``count`` games between agents built from ``specs``, played through the public API.

    Game ``k`` of the batch is seeded with ``seed * AGENT_BATCH + k``: its chance outcomes and
    every agent's generator (seat ``p`` gets ``game_seed * 7919 + p``, as in tournaments). The
    agents are built afresh for every game, so nothing one game taught them carries over.
    """
    evaluate = evaluator_for(game) if game.num_players == 2 else None
    rows: dict[str, list[Any]] = {name: [] for name in COLUMNS}
    curve_sum = np.zeros(CURVE_BINS, dtype=np.int64)
    curve_count = np.zeros(CURVE_BINS, dtype=np.int64)
    for k in range(count):
        game_seed = seed * AGENT_BATCH + k
        agents = [
            agent_from_spec(spec, game, seed=game_seed * 7919 + seat)
            for seat, spec in enumerate(specs)
        ]
        rng = random.Random(game_seed)
        state = game.initial_state()
        plies = decisions = turns = legal_total = 0
        first_mover = previous = NO_WINNER
        leaders: list[int] = []
        while not state.is_over:
            to_move = state.to_move
            if to_move == CHANCE:
                move = sample_outcome(state, rng)
                previous = CHANCE
            else:
                assert to_move is not None
                legal = len(state.legal_moves())
                bin_index = min(decisions, CURVE_BINS - 1)
                curve_sum[bin_index] += legal
                curve_count[bin_index] += 1
                legal_total += legal
                if first_mover == NO_WINNER:
                    first_mover = to_move
                if to_move != previous:
                    turns += 1
                previous = to_move
                decisions += 1
                move = agents[to_move].choose(state)
            state = state.apply(move)
            plies += 1
            if evaluate is not None and to_move != CHANCE and not state.is_over:
                values = evaluate(state)
                leaders.append(0 if values[0] > values[1] else 1 if values[1] > values[0] else -1)
        outcome = state.outcome
        assert outcome is not None
        if isinstance(getattr(state, "turn", None), int):  # the game numbers its turns itself
            turns = state.turn - game.initial_state().turn  # type: ignore[attr-defined]
        winner = NO_WINNER if outcome.winner is None else outcome.winner
        changes, decided = lead_measures(leaders, winner) if evaluate else (-1, float("nan"))
        for name, value in (
            ("plies", plies),
            ("decisions", decisions),
            ("turns", turns),
            ("legal_moves", legal_total),
            ("winner", winner),
            ("safeguard", outcome.reason.startswith(SAFEGUARD_PREFIX)),
            ("first_mover", first_mover),
            ("lead_changes", changes),
            ("decided_at", decided),
        ):
            rows[name].append(value)
    columns = {
        name: np.array(values, dtype=_dtype(name)).reshape(-1) for name, values in rows.items()
    }
    return GameTable(columns, curve_sum, curve_count)


def lead_measures(leaders: Sequence[int], winner: int) -> tuple[int, float]:
    """Lead changes and the decisive point of one game, from the leader after each decision.

    ``leaders[i]`` is the seat ahead by the game's evaluation after decision ``i`` (-1: level).
    A lead change is the lead passing from one seat to the other (level positions in between do
    not count). The decisive point is the share of the game's decisions played before the
    eventual winner went ahead for good (a level position after it led counts as not ahead): 0
    when it led from the first move on, near 1 when it only came ahead at the end; NaN for a
    game without a winner.

    >>> lead_measures([0, 0, 1, -1, 1, 1], winner=1)
    (1, 0.6666666666666666)
    """
    changes = 0
    last = -1
    for leader in leaders:
        if leader >= 0:
            if last >= 0 and leader != last:
                changes += 1
            last = leader
    if winner < 0:
        return changes, float("nan")
    since = len(leaders)
    while since > 0 and leaders[since - 1] == winner:
        since -= 1
    return changes, since / len(leaders) if leaders else 0.0


def _dtype(name: str) -> Any:
    if name == "safeguard":
        return np.bool_
    if name == "decided_at":
        return np.float64
    return np.int64
