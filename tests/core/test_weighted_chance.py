"""Every sampler of chance outcomes draws them with their probabilities, not uniformly.

The toy lottery's chance node has three outcomes of chances 0.7, 0.2 and 0.1. Each sampler draws
it many times from a fixed seed, and every outcome's count must lie inside the binomial interval
that holds with probability 1 - 2e-10 for a correct sampler: a correct sampler fails with any
seed far less often than once in a billion, while a uniform one (a third each) or one that
mixes the outcomes up is far outside (e.g. 6,667 golds of 20,000 where 14,000 are expected).
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from scipy.stats import binom

from ludoteca.ai.agents import Agent
from ludoteca.ai.mcts import MCTSAgent, _Search
from ludoteca.ai.search_tree import ACTION, CHILD, COUNT, FIRST, TOTAL
from ludoteca.analysis.match import play_game
from ludoteca.core.chance import sample_outcome
from ludoteca.core.game import Move, State
from ludoteca.core.outcome import CHANCE
from ludoteca.core.search import seed_generator
from ludoteca.rl._chance import roll_chance
from tests.core.toy_games import LOTTERY_PRIZES, LotteryGame

DRAWS = 20_000
TAIL = 1e-10  # each side of each outcome's interval


def check_counts(counts: Counter[str], draws: int) -> None:
    """Each outcome's count inside its binomial interval (false failure below 1e-9 in all)."""
    assert sum(counts.values()) == draws
    for prize, chance in LOTTERY_PRIZES.items():
        low, high = binom.ppf(TAIL, draws, chance), binom.isf(TAIL, draws, chance)
        assert low <= counts[prize] <= high, (prize, counts, (low, high))


@pytest.fixture
def drawing() -> State:
    state = LotteryGame().initial_state().apply("play")
    assert state.to_move == CHANCE
    return state


def test_the_interval_tells_a_uniform_sampler_apart() -> None:
    """The test's own power: a uniform sampler's expected counts are far outside."""
    uniform = Counter({prize: DRAWS // 3 for prize in LOTTERY_PRIZES})
    uniform["gold"] += DRAWS - sum(uniform.values())
    with pytest.raises(AssertionError):
        check_counts(uniform, DRAWS)
    swapped = Counter(gold=DRAWS * 2 // 10, silver=DRAWS * 7 // 10, lead=DRAWS // 10)
    with pytest.raises(AssertionError):
        check_counts(swapped, DRAWS)


def test_sample_outcome_draws_by_probability(drawing: State) -> None:
    """The sampler of the server, the terminal, matches, studies and the conformance checks."""
    rng = random.Random(11)
    check_counts(Counter(sample_outcome(drawing, rng).text for _ in range(DRAWS)), DRAWS)


def test_random_rollouts_draw_by_probability(drawing: State) -> None:
    """`State.random_rollout` (what MCTS's leaves play on a game without kernels)."""
    ends = Counter(drawing.random_rollout(5, seed).to_text() for seed in range(DRAWS))
    check_counts(ends, DRAWS)


def test_the_learning_environments_roll_by_probability(drawing: State) -> None:
    """`roll_chance`: how the PettingZoo and Gymnasium environments play chance nodes."""
    rng = np.random.default_rng(12)
    check_counts(Counter(roll_chance(drawing, rng).to_text() for _ in range(DRAWS)), DRAWS)


class Player(Agent):
    """Always plays the lottery."""

    name = "player"

    def _choose(self, state: State) -> Move:
        return state.legal_moves()[0]


def test_matches_draw_by_probability() -> None:
    """`play_game`, which the arena, tournaments and studies play their games with."""
    game = LotteryGame()
    ends: Counter[str] = Counter()
    for seed in range(DRAWS // 4):
        record = play_game(game, [Player(), Player()], seed=seed)
        ends[record.moves[-1]] += 1
    check_counts(ends, DRAWS // 4)


def test_the_mcts_tree_samples_chance_outcomes_by_probability() -> None:
    """The search tree's chance node: the visits of its outcomes follow their chances (a chance
    edge keeps no statistics of its own; each outcome's node counts its visits)."""
    game = LotteryGame()
    agent = MCTSAgent(game, iterations=DRAWS, seed=13)
    search = _Search(agent, game.initial_state())
    seed_generator(13)
    for _ in range(DRAWS):
        search.iterate()
    tree = search.tree
    actions, _, _ = tree.root_edges()
    play = int(np.flatnonzero(actions == 0)[0])  # the root's edge of "play"
    chance = int(tree.edges_i[int(tree.nodes[0, FIRST]) + play, CHILD])
    first, count = int(tree.nodes[chance, FIRST]), int(tree.nodes[chance, COUNT])
    names = list(LOTTERY_PRIZES)
    counts = Counter(
        {
            names[int(tree.edges_i[edge, ACTION])]: int(
                tree.nodes[tree.edges_i[edge, CHILD], TOTAL]
            )
            for edge in range(first, first + count)
        }
    )
    total = sum(counts.values())
    assert total > DRAWS // 2  # playing (worth 0.6) is searched far more than passing (0)
    check_counts(counts, total)
