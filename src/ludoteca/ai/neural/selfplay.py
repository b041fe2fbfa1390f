"""Self-play games of the neural player, recorded as training examples (numpy only).

Each decision with more than one legal move gives an example: the mover's observation (flat),
the root's legal actions with their share of the search's visits (the policy target), the
root's value to the mover, and, once the game is over, the mover's return. Chance outcomes are
drawn with their probabilities; the search's exploration comes from Dirichlet noise at the root,
and the first ``sampled_moves`` moves of each player are drawn in proportion to the visits
instead of taking the most visited (AlphaZero's temperature 1, then 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ludoteca.ai.neural.agent import NetworkEvaluator
from ludoteca.ai.neural.network import Network
from ludoteca.ai.neural.puct import PUCTSearch, RootNoise
from ludoteca.core.game import Game, State
from ludoteca.core.outcome import CHANCE


@dataclass(frozen=True, slots=True)
class SelfPlaySettings:
    """How self-play searches and explores.

    Attributes:
        iterations: PUCT iterations per move.
        exploration: The selection formula's ``C``.
        noise_alpha: Dirichlet concentration of the root noise.
        noise_fraction: The noise's share of the root priors.
        sampled_moves: Plies (decisions) at the start of a game whose move is drawn by visits.
    """

    iterations: int = 100
    exploration: float = 1.5
    noise_alpha: float = 0.3
    noise_fraction: float = 0.25
    sampled_moves: int = 20


@dataclass(slots=True)
class Examples:
    """Training examples: flat arrays, the policy targets as ragged rows (offsets).

    Attributes:
        observations: ``(n, observation size)`` float32.
        offsets: ``(n + 1,)``: example ``i``'s actions are ``actions[offsets[i]:offsets[i+1]]``.
        actions: The legal actions of every example, one after the other.
        targets: The visit share of each of those actions.
        search_values: The root's value to the mover.
        returns: The mover's return at the end of the game.
    """

    observations: npt.NDArray[np.float32]
    offsets: npt.NDArray[np.int64]
    actions: npt.NDArray[np.int64]
    targets: npt.NDArray[np.float32]
    search_values: npt.NDArray[np.float32]
    returns: npt.NDArray[np.float32]

    def __len__(self) -> int:
        return len(self.returns)

    @classmethod
    def empty(cls, observation_size: int) -> Examples:
        """No examples."""
        return cls(
            np.zeros((0, observation_size), np.float32),
            np.zeros(1, np.int64),
            np.zeros(0, np.int64),
            np.zeros(0, np.float32),
            np.zeros(0, np.float32),
            np.zeros(0, np.float32),
        )

    @classmethod
    def joined(cls, parts: list[Examples]) -> Examples:
        """The examples of ``parts``, in order (at least one part)."""
        offsets = [np.zeros(1, np.int64)]
        shift = 0
        for part in parts:
            offsets.append(part.offsets[1:] + shift)
            shift += int(part.offsets[-1])
        return cls(
            np.concatenate([p.observations for p in parts]),
            np.concatenate(offsets),
            np.concatenate([p.actions for p in parts]),
            np.concatenate([p.targets for p in parts]),
            np.concatenate([p.search_values for p in parts]),
            np.concatenate([p.returns for p in parts]),
        )

    def arrays(self) -> dict[str, npt.NDArray[np.generic]]:
        """The arrays by name (for ``np.savez``)."""
        return {
            "observations": self.observations,
            "offsets": self.offsets,
            "actions": self.actions,
            "targets": self.targets,
            "search_values": self.search_values,
            "returns": self.returns,
        }


@dataclass(slots=True)
class _Recorder:
    observations: list[npt.NDArray[np.float32]] = field(default_factory=list)
    actions: list[npt.NDArray[np.int64]] = field(default_factory=list)
    targets: list[npt.NDArray[np.float32]] = field(default_factory=list)
    search_values: list[float] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)


def play_game(
    game: Game, network: Network, settings: SelfPlaySettings, generator: np.random.Generator
) -> tuple[Examples, State]:
    """One self-play game from the start: its examples and its final position."""
    search = PUCTSearch(
        NetworkEvaluator(network),
        iterations=settings.iterations,
        exploration=settings.exploration,
        stop_early=False,
    )
    noise = RootNoise(settings.noise_alpha, settings.noise_fraction, generator)
    record = _Recorder()
    state = game.initial_state()
    decisions = 0
    while not state.is_over:
        if state.to_move == CHANCE:
            outcomes = state.chance_outcome_actions()
            probabilities = np.array([p for _, p in outcomes])
            pick = generator.choice(len(outcomes), p=probabilities / probabilities.sum())
            state = state.apply_action(outcomes[pick][0])
            continue
        mover = state.to_move
        assert mover is not None
        result = search.run(state, noise)
        if len(result.actions) > 1:
            share = result.visits / result.visits.sum()
            record.observations.append(state.observation(mover).reshape(-1))
            record.actions.append(result.actions)
            record.targets.append(share.astype(np.float32))
            record.search_values.append(result.value)
            record.movers.append(mover)
            if decisions < settings.sampled_moves:
                choice = int(generator.choice(len(share), p=share))
            else:
                choice = result.best
        else:
            choice = 0
        decisions += 1
        state = state.apply_action(int(result.actions[choice]))
    returns = state.returns()
    size = int(np.prod(game.observation_shape))
    if not record.movers:
        return Examples.empty(size), state
    lengths = [len(a) for a in record.actions]
    return (
        Examples(
            np.stack(record.observations).astype(np.float32),
            np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64),
            np.concatenate(record.actions).astype(np.int64),
            np.concatenate(record.targets),
            np.array(record.search_values, np.float32),
            np.array([returns[m] for m in record.movers], np.float32),
        ),
        state,
    )
