from __future__ import annotations

from pathlib import Path

import pytest

import ludoteca
from ludoteca.ai import AgentError
from ludoteca.analysis.tournament import run_tournament, schedule
from ludoteca.core import records


def test_the_schedule_alternates_seats_within_each_pair() -> None:
    seatings = schedule(["a", "b", "c"], 2, num_players=2)
    assert seatings == [("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"), ("c", "b")]
    assert schedule(["a", "b"], 3, num_players=1) == [("a",)] * 3 + [("b",)] * 3


def test_a_tournament_counts_results_saves_games_and_repeats_by_seed(tmp_path: Path) -> None:
    game = ludoteca.make("salt_n_pepper", ranks=6)
    specs = ["random", "mcts:iters=30"]
    result = run_tournament(game, specs, games_per_pair=4, seed=5, save_dir=tmp_path)
    again = run_tournament(game, specs, games_per_pair=4, seed=5, jobs=2)
    assert [r.returns for r in result.results] == [r.returns for r in again.results]
    assert [r.seats for r in result.results] == [tuple(specs), tuple(reversed(specs))] * 2
    for standing in result.standings:
        assert standing.games == 4
        assert standing.wins + standing.draws + standing.losses == 4
        assert standing.low <= standing.score <= standing.high
    saved = sorted(tmp_path.iterdir())
    assert len(saved) == 4
    record = records.load(saved[0])
    assert record.players == tuple(specs)
    assert record.outcome is not None
    assert record.outcome.returns == result.results[0].returns
    points, games = result.head_to_head("random", "mcts:iters=30")
    assert games == 4
    assert points == pytest.approx(
        4 * next(s for s in result.standings if s.spec == "random").score
    )


def test_a_solitaire_tournament_rates_win_rates_without_elo() -> None:
    game = ludoteca.make("steppin_stones", max_turns=3)
    result = run_tournament(game, ["random", "random:seed=2"], games_per_pair=2)
    assert len(result.results) == 4
    assert all(s.elo is None and s.games == 2 for s in result.standings)


@pytest.mark.parametrize(
    ("specs", "games", "message"),
    [
        (["random", "random"], 2, "each agent spec may appear once"),
        (["random"], 2, "needs at least 2 specs"),
        (["random", "mcts:iters=x"], 2, "iters must be an integer"),
        (["random", "level:3"], 0, "games per pair must be at least 1"),
    ],
)
def test_bad_tournaments_are_refused_before_any_game(
    specs: list[str], games: int, message: str
) -> None:
    with pytest.raises(AgentError, match=message):
        run_tournament(ludoteca.make("splinter"), specs, games_per_pair=games)
