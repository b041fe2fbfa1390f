"""Game reviews: exact chances in Pente Grammai, labels, determinism, every game, the JSON."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

import ludoteca
from ludoteca.analysis.review import (
    LABELS,
    Review,
    ReviewError,
    assemble_review,
    review,
    review_tasks,
    run_review_task,
)
from ludoteca.analysis.review_model import label_for, move_accuracy
from ludoteca.core import records
from ludoteca.games.pente_grammai.solver import solve


def random_moves(game: ludoteca.Game, plies: int, seed: int) -> list[str]:
    """Uniformly random moves (chance outcomes included) from the start, at most ``plies``."""
    rng = random.Random(seed)
    state, moves = game.initial_state(), []
    while not state.is_over and len(moves) < plies:
        move = rng.choice(state.legal_moves())
        moves.append(move.text)
        state = state.apply(move)
    return moves


def exact_chances(state: ludoteca.State) -> dict[str, float]:
    """Each legal move's exact chance for the mover, straight from the solved table."""
    values = solve(state.game.params).move_values(state)  # type: ignore[attr-defined]
    return {state.move_from_index(a).text: (v + 1) / 2 for a, v in values.items()}


def test_pente_grammai_chances_are_the_solved_values() -> None:
    game = ludoteca.make("pente_grammai")
    moves = random_moves(game, 120, seed=11)
    result = review((game, moves), jobs=1)
    state = game.initial_state()
    checked = 0
    by_ply = {decision.ply: decision for decision in result.decisions}
    for ply, move in enumerate(moves):
        if not state.is_over and state.to_move != ludoteca.CHANCE:
            chances = exact_chances(state)
            decision = by_ply[ply]
            assert decision.chance_before == pytest.approx(max(chances.values()), abs=1e-6)
            assert decision.chance_after == pytest.approx(chances[move], abs=1e-6)
            assert decision.best_chance == pytest.approx(max(chances.values()), abs=1e-6)
            checked += 1
        state = state.apply(move)
    assert checked == len(result.decisions) > 20


def test_a_move_that_throws_the_game_away_is_a_blunder() -> None:
    game = ludoteca.make("pente_grammai")
    rng = random.Random(1)
    state, moves = game.initial_state(), []
    while True:  # play on until some legal move loses at least 25 points
        assert not state.is_over, "no position with a blunder to make"
        if state.to_move != ludoteca.CHANCE:
            chances = exact_chances(state)
            worst = min(chances, key=lambda text: chances[text])
            if max(chances.values()) - chances[worst] >= 0.25:
                break
        move = rng.choice(state.legal_moves()).text
        moves.append(move)
        state = state.apply(move)
    ply = len(moves)
    result = review((game, [*moves, worst]), jobs=1)
    decision = result.decisions[-1]
    assert (decision.ply, decision.move, decision.label) == (ply, worst, "blunder")
    assert decision.loss >= 25 - 1e-6
    assert chances[decision.best_move] == pytest.approx(max(chances.values()))
    assert result.players[decision.player].labels["blunder"] >= 1


@pytest.mark.parametrize(
    ("loss", "label"),
    [(0.0, "best"), (0.049, "best"), (0.4, "good"), (4.99, "good"), (5, "inaccuracy"),
     (10, "mistake"), (19.9, "mistake"), (20, "blunder"), (80, "blunder")],
)  # fmt: skip
def test_labels_follow_the_thresholds(loss: float, label: str) -> None:
    assert label_for(loss, played_best=False) == label
    assert label_for(loss, played_best=True) == "best"


def test_accuracy_halves_with_every_ten_points_lost() -> None:
    assert [move_accuracy(loss) for loss in (0, 10, 20)] == [100, 50, 25]


def test_searched_reviews_are_the_same_whatever_the_number_of_workers() -> None:
    game = ludoteca.make("salta")
    moves = random_moves(game, 14, seed=2)
    alone = review((game, moves), budget=150, seed=7, jobs=1)
    shared = review((game, moves), budget=150, seed=7, jobs=2)
    assert alone.to_json() == shared.to_json()
    other_seed = review((game, moves), budget=150, seed=8, jobs=1)
    assert other_seed.seed == 8 and other_seed.to_json() != alone.to_json()


def test_tasks_run_in_any_order_give_the_same_review() -> None:
    game = ludoteca.make("splinter")
    moves = random_moves(game, 8, seed=3)
    tasks = review_tasks((game, moves), budget=100, seed=1)
    results = [run_review_task(task) for task in reversed(tasks)]
    built = assemble_review((game, moves), results, budget=100, seed=1)
    assert built == review((game, moves), budget=100, seed=1, jobs=1)
    with pytest.raises(ReviewError, match="missing"):
        assemble_review((game, moves), results[1:], budget=100, seed=1)


def test_a_searched_move_is_judged_by_the_position_it_leads_to() -> None:
    game = ludoteca.make("salta")
    result = review((game, random_moves(game, 16, seed=5)), budget=120, jobs=1)
    decisions = result.decisions
    for before, after in itertools.pairwise(decisions):
        if after.ply == before.ply + 1 and after.player != before.player:
            assert before.chance_after == pytest.approx(1 - after.chance_before)
    for decision in decisions:
        assert decision.loss >= 0 and decision.label in LABELS
        if decision.move != decision.best_move and decision.label != "best":
            assert decision.loss == pytest.approx(
                100 * (decision.best_chance - decision.chance_after)
            )


SHORT_GAMES = {
    "pente_grammai": (30, None),
    "salt_n_pepper": (8, 80),
    "salta": (8, 80),
    "splinter": (8, 80),
    "steppin_stones": (4, 1),
}


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_every_game_reviews_a_short_unfinished_game(game_id: str) -> None:
    game = ludoteca.make(game_id)
    plies, budget = SHORT_GAMES[game_id]
    moves = random_moves(game, plies, seed=1)
    result = review(records.create(game, moves), budget=budget, jobs=1)
    assert result.decisions and result.game == game_id
    assert [d.move for d in result.decisions] == [moves[d.ply] for d in result.decisions]
    for decision in result.decisions:
        for chance in (decision.chance_before, decision.chance_after, decision.best_chance):
            assert 0 <= chance <= 1
    assert sum(sum(p.labels.values()) for p in result.players) == len(result.decisions)
    assert Review.from_json(result.to_json()) == result
    if game_id == "steppin_stones":
        assert all(d.interval is not None and d.rollouts == 1 for d in result.decisions)
        assert result.method == "rollouts"


def test_the_json_has_the_documented_shape() -> None:
    game = ludoteca.make("pente_grammai")
    data = review((game, random_moves(game, 40, seed=2)), jobs=1).to_json()
    assert {"game", "options", "decisions", "players", "budget", "seed", "method"} <= set(data)
    assert data["game"] == "pente_grammai" and data["options"] == dict(game.options)
    keys = {"ply", "player", "move", "chance_before", "chance_after", "best_move"}
    keys |= {"best_chance", "loss", "label"}
    assert all(keys <= set(decision) for decision in data["decisions"])
    assert [set(player["labels"]) for player in data["players"]] == [set(LABELS)] * 2


def _broken(data: dict[str, Any], change: str) -> dict[str, Any]:
    data = {**data, "decisions": [dict(d) for d in data["decisions"]]}
    if change == "label":
        data["decisions"][0]["label"] = "brilliant"
    elif change == "chance":
        data["decisions"][0]["chance_after"] = 1.5
    elif change == "players":
        data["players"] = [{"accuracy": 50, "labels": {"best": 1}}]
    else:
        del data["decisions"]
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [("label", "label must be one of"), ("chance", "chance from 0 to 1"),
     ("players", "labels must count"), ("missing", "missing decisions")],
)  # fmt: skip
def test_a_bad_review_is_refused_with_the_reason(change: str, message: str) -> None:
    game = ludoteca.make("pente_grammai")
    data = review((game, random_moves(game, 20, seed=2)), jobs=1).to_json()
    with pytest.raises(ReviewError, match=message):
        Review.from_json(_broken(data, change))
    with pytest.raises(ReviewError, match="JSON object"):
        Review.from_json([1, 2])


def test_an_illegal_move_is_refused_with_its_ply() -> None:
    game = ludoteca.make("salta")
    moves = random_moves(game, 3, seed=1)
    with pytest.raises(ReviewError, match="ply 3"):
        review((game, [*moves, "a1-a1"]), jobs=1)
    with pytest.raises(ReviewError, match="budget"):
        review((game, moves), budget=0, jobs=1)
    with pytest.raises(ReviewError, match="jobs"):
        review((game, moves), budget=10, jobs=0)


def test_the_review_declarations_must_be_functions() -> None:
    from ludoteca.core.info import GameInfo, declaration_problems

    problems = declaration_problems(GameInfo(exact_values=3, expert_playouts="x"))  # type: ignore[arg-type]
    assert "exact_values must be a function" in problems
    assert "expert_playouts must be a function" in problems
    assert ludoteca.make("pente_grammai").info.exact_values is not None
    assert ludoteca.make("steppin_stones").info.expert_playouts is not None


def test_steppin_stones_playouts_are_seeded() -> None:
    game = ludoteca.make("steppin_stones")
    state = game.initial_state()
    for move in random_moves(game, 6, seed=2):
        state = state.apply(move)
    playouts = game.info.expert_playouts
    assert playouts is not None
    wins = playouts(state, 2, 5)
    assert 0 <= wins <= 2 and playouts(state, 2, 5) == wins
