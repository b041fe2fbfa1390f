"""The review's first-player curve and accuracies, against figures worked out by hand.

First on a hand-made review, whose every number is written out below; then on a real Pente
Grammai game with forced moves, whose chances come straight from the solved table (not through
the review), put through the rules of docs/review.md: the curve is the first player's chance
before each decision and after the last, and a player's accuracy is the mean of
``100 × 0.5^(loss / 10)`` over their unforced decisions.
"""

from __future__ import annotations

import random

import pytest

import ludoteca
from ludoteca.analysis.review import review
from ludoteca.analysis.review_model import Review, ReviewedDecision, summarise
from ludoteca.games.pente_grammai.solver import solve


def decision(
    ply: int, player: int, before: float, after: float, label: str, *, forced: bool = False
) -> ReviewedDecision:
    loss = round((before - after) * 100, 9)
    return ReviewedDecision(
        ply=ply,
        player=player,
        move="played",
        chance_before=before,
        chance_after=after,
        best_move="played" if loss == 0 else "better",
        best_chance=before,
        loss=loss,
        label=label,
        forced=forced,
    )


def test_a_hand_made_review_gives_the_hand_computed_curve_and_accuracies() -> None:
    decisions = (
        decision(0, 0, 0.60, 0.55, "inaccuracy"),  # 5 points lost: 100 × 0.5^0.5 = 70.7107 %
        decision(1, 1, 0.45, 0.45, "best", forced=True),  # forced: left out of the accuracy
        decision(2, 1, 0.45, 0.35, "mistake"),  # 10 points lost: 50 %
        # ply 3 is a chance outcome: nobody chose it
        decision(4, 0, 0.65, 0.45, "blunder"),  # 20 points lost: 25 %
    )
    players = summarise(decisions, 2)
    assert players[0].accuracy == pytest.approx((70.710678 + 25) / 2, abs=1e-5)  # 47.8553
    assert players[1].accuracy == pytest.approx(50.0)  # not (100 + 50) / 2: the forced move
    assert players[1].labels["best"] == 1 and players[1].labels["mistake"] == 1
    made = Review("pente_grammai", {}, (), decisions, players, "exact", None, 0)
    # Player 1's chances are the first player's complements: 1 - 0.45 = 0.55, twice.
    expected = [(0, 0.60), (1, 0.55), (2, 0.55), (4, 0.65), (5, 0.45)]
    curve = made.first_player_curve()
    assert [ply for ply, _ in curve] == [ply for ply, _ in expected]
    assert [chance for _, chance in curve] == pytest.approx([c for _, c in expected])


def _game_with_forced_moves(game: ludoteca.Game) -> list[str]:
    """The first seeded random game whose decisions include forced moves for both players and
    unforced moves that lose something, so that counting a forced move would change a figure."""
    for seed in range(200):
        rng = random.Random(seed)
        state, moves, forced, lossy = game.initial_state(), [], set(), set()
        while not state.is_over and len(moves) < 60:
            legal = state.legal_moves()
            move = rng.choice(legal)
            if state.to_move != ludoteca.CHANCE:
                if len(legal) == 1:
                    forced.add(state.to_move)
                else:
                    chances = _exact_chances(state)
                    if max(chances.values()) - chances[move.text] > 1e-3:
                        lossy.add(state.to_move)
            moves.append(move.text)
            state = state.apply(move)
        if forced == lossy == {0, 1}:
            return moves
    raise AssertionError("no seeded game has forced and losing moves for both players")


def _exact_chances(state: ludoteca.State) -> dict[str, float]:
    """Each legal move's chance for the mover, from the solved table (a draw counts half)."""
    values = solve(state.game.params).move_values(state)  # type: ignore[attr-defined]
    return {state.move_from_index(a).text: (v + 1) / 2 for a, v in values.items()}


def test_a_real_game_with_forced_moves_gives_the_curve_and_accuracies_worked_out() -> None:
    game = ludoteca.make("pente_grammai")
    moves = _game_with_forced_moves(game)
    result = review((game, moves), jobs=1)

    curve: list[tuple[int, float]] = []
    accuracies: dict[int, list[float]] = {0: [], 1: []}
    state = game.initial_state()
    for ply, move in enumerate(moves):
        if not state.is_over and state.to_move != ludoteca.CHANCE:
            player = state.to_move
            assert player is not None
            chances = _exact_chances(state)  # a forced move has one: the position's own
            before, after = max(chances.values()), chances[move]
            curve.append((ply, before if player == 0 else 1 - before))
            if len(chances) > 1:
                accuracies[player].append(100 * 0.5 ** ((before - after) * 100 / 10))
            last = (ply, after if player == 0 else 1 - after)
        state = state.apply(move)
    curve.append((last[0] + 1, last[1]))  # after the last decision

    got = result.first_player_curve()
    assert [ply for ply, _ in got] == [ply for ply, _ in curve]
    assert [chance for _, chance in got] == pytest.approx([c for _, c in curve], abs=1e-6)
    for player in (0, 1):
        mean = sum(accuracies[player]) / len(accuracies[player])
        assert result.players[player].accuracy == pytest.approx(mean, abs=1e-6)
        assert result.players[player].accuracy < 100.0  # so a forced 100 % would show
    forced = [d for d in result.decisions if d.forced]
    assert {d.player for d in forced} == {0, 1}
    assert all(d.loss == 0 and d.label == "best" for d in forced)
