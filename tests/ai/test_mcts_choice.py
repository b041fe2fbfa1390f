"""MCTS plays the root move with the most visits, not the one with the best mean return.

They differ when a move tried a few times has a high mean by luck: the visits are where the
search settled, weighing means and doubt (docs/ai.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ludoteca.ai import mcts
from ludoteca.ai.mcts import MCTSAgent, most_visited
from tests.core.toy_games import ToyDiceGame


def test_the_most_visited_move_wins_over_a_better_mean() -> None:
    visits = np.array([10.0, 3.0, 7.0])
    sums = np.array([2.0, 2.7, 4.9])  # means 0.2, 0.9 (the best) and 0.7
    assert most_visited(visits, sums) == 0


def test_equal_visits_go_to_the_higher_mean_and_untried_moves_never_count() -> None:
    assert most_visited(np.array([5.0, 5.0, 2.0]), np.array([1.0, 3.0, 2.0])) == 1
    assert most_visited(np.array([0.0, 1.0]), np.array([0.0, -1.0])) == 1


def test_a_real_search_plays_its_most_visited_move_where_the_best_mean_differs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seeded short searches of the dice race; the first whose root statistics rank the moves
    differently by visits and by mean must play the most visited one."""
    seen: list[tuple[Any, Any]] = []

    def recording(visits: Any, sums: Any) -> int:
        seen.append((visits.copy(), sums.copy()))
        return most_visited(visits, sums)

    monkeypatch.setattr(mcts, "most_visited", recording)
    game = ToyDiceGame()
    state = game.initial_state().apply("first-0").apply("r1")
    for seed in range(200):
        seen.clear()
        result = MCTSAgent(game, iterations=12, seed=seed, stop_early=False).search(state)
        assert len(seen) == 1, "the search chose its move some other way"
        visits, sums = seen[0]
        by_visits = max(result.visits, key=lambda text: result.visits[text])
        means = sums / visits
        if visits[0] != visits[1] and means[np.argmax(visits)] < means.max():
            assert result.move.text == by_visits
            assert result.value == pytest.approx(means[np.argmax(visits)])  # not the better mean
            return
    pytest.fail("no seed gave a search whose most visited move differs from its best mean")
