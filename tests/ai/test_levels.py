"""The levels as they are shipped: the 1.8 s cap, the real budgets, and which level is stronger.

The quick tests of `test_search` swap the levels' budgets for tiny ones; here the settings of
`ludoteca.ai.levels` are used as they are. The time cap (`MOVE_TIME_CAP`) is checked on a fake
clock, so no test depends on the machine's speed. The strength tests (marked ``slow``) play
seeded games and require a result that chance alone would give less than one time in a hundred:
head to head, the stronger level's wins against a fair coin (a one-sided binomial test, draws
counted as losses); in the solitaire, its win count against the weaker level's (a one-sided
Fisher exact test).
"""

from __future__ import annotations

import math
import random
import time

import pytest

import ludoteca
from ludoteca.ai import AlphaBetaAgent, ExpertAgent, MCTSAgent, hint, levels, make_agent
from ludoteca.ai.levels import LEVELS, BlunderingAgent, level_setting
from ludoteca.analysis.match import play_game
from ludoteca.core.chance import sample_outcome

ALPHA = 0.01  # the chance that a level no stronger than the other passes a strength test


class FakeClock:
    """``time.perf_counter`` that moves ``step`` seconds on at every reading."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def midgame(game: ludoteca.Game, plies: int = 20, seed: int = 1) -> ludoteca.State:
    """A decision node with a choice of moves about ``plies`` random plies into a game."""
    for attempt in range(100):
        rng = random.Random(seed + 1000 * attempt)
        state = game.initial_state()
        for _ in range(plies):
            if state.is_over:
                break
            if state.to_move == ludoteca.CHANCE:
                state = state.apply(sample_outcome(state, rng))
            else:
                state = state.apply(rng.choice(state.legal_moves()))
        if not state.is_over and state.to_move != ludoteca.CHANCE and len(state.legal_moves()) > 3:
            return state
    raise AssertionError(f"no running position {plies} plies into {game}")


def engine_of(agent: object) -> MCTSAgent | AlphaBetaAgent | ExpertAgent:
    inner = agent.inner if isinstance(agent, BlunderingAgent) else agent
    assert isinstance(inner, MCTSAgent | AlphaBetaAgent | ExpertAgent)
    return inner


# -- the time cap -------------------------------------------------------------------------------

CAPPED = {"salta": MCTSAgent, "salt_n_pepper": AlphaBetaAgent, "splinter": AlphaBetaAgent}


@pytest.mark.parametrize("game_id", CAPPED)
def test_level_five_stops_at_the_time_cap(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a clock that moves 0.25 s at each reading, level 5 must stop when `MOVE_TIME_CAP` has
    passed, long before its budget, and a lower cap must stop it sooner.

    The search reads the clock once per 64 MCTS iterations or 256 alpha-beta positions, so
    passing 1.8 s takes 8 readings and 0.5 s takes 2.
    """
    game = ludoteca.make(game_id)
    state = midgame(game)
    searched = {}
    for cap, readings in ((levels.MOVE_TIME_CAP, 8), (0.5, 2)):
        monkeypatch.setattr(levels, "MOVE_TIME_CAP", cap)
        agent = engine_of(make_agent(game, 5, seed=1))
        assert isinstance(agent, CAPPED[game_id])
        clock = FakeClock(0.25)
        monkeypatch.setattr(time, "perf_counter", clock)
        result = agent.search(state)
        monkeypatch.undo()
        budget = level_setting(game, 5).budget
        if isinstance(agent, MCTSAgent):
            count, per_reading = result.iterations, 64
        else:
            count, per_reading = agent.nodes, 256
        assert 0 < count <= (readings + 1) * per_reading < budget, (cap, count)
        assert result.move in state.legal_moves()
        searched[cap] = count
    assert searched[0.5] < searched[levels.MOVE_TIME_CAP]


# -- the real budgets ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_every_level_plays_at_its_real_budget(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each level as shipped chooses a legal move within its budget, and the hint is the move of
    level 5's engine with the same seed. The time cap is lifted so that the budgets alone
    decide, whatever the machine's load."""
    monkeypatch.setattr(levels, "MOVE_TIME_CAP", 600.0)
    game = ludoteca.make(game_id)
    state = midgame(game, plies=30, seed=2)
    for level in LEVELS:
        setting = level_setting(game, level)
        agent = make_agent(game, level, seed=7)
        assert isinstance(agent, BlunderingAgent) == (setting.blunder > 0)
        engine = engine_of(agent)
        result = engine.search(state)
        assert result.move in state.legal_moves()
        assert -1.0 <= result.value <= 1.0
        if isinstance(engine, MCTSAgent):
            assert engine.iterations == setting.budget
            assert 0 < result.iterations <= setting.budget
        elif isinstance(engine, AlphaBetaAgent):
            assert engine.max_nodes == setting.budget
            assert 0 < engine.nodes <= setting.budget + 1 and result.iterations >= 2
        if level == 5:
            suggestion = hint(state, level=5, seed=7)
            assert suggestion.move == result.move
            assert suggestion.win_chance == pytest.approx(result.win_chance)


# -- strength -----------------------------------------------------------------------------------


def binomial_tail(wins: int, games: int) -> float:
    """P(X >= wins) for X ~ Binomial(games, 1/2): how often a fair coin does as well."""
    return sum(math.comb(games, k) for k in range(wins, games + 1)) / 2**games


def fisher_one_sided(wins_a: int, games_a: int, wins_b: int, games_b: int) -> float:
    """P(A wins at least ``wins_a`` games) if A and B were equally strong, given the total wins
    (the one-sided Fisher exact test)."""
    total = wins_a + wins_b
    denominator = math.comb(games_a + games_b, total)
    return (
        sum(
            math.comb(games_a, k) * math.comb(games_b, total - k)
            for k in range(wins_a, min(games_a, total) + 1)
        )
        / denominator
    )


def test_the_significance_tests_count_right() -> None:
    assert binomial_tail(12, 12) == 1 / 4096
    assert binomial_tail(0, 7) == 1.0
    assert binomial_tail(11, 12) == pytest.approx(13 / 4096)
    assert fisher_one_sided(3, 3, 0, 3) == pytest.approx(1 / 20)  # 1 / C(6, 3)
    assert fisher_one_sided(0, 5, 0, 5) == 1.0


# game -> (options that keep games short, stronger level, weaker level, games)
HEAD_TO_HEAD = {
    "salta": ({"move_limit": 30, "scoring": "simplified"}, 3, 1, 12),
    "salt_n_pepper": ({}, 2, 1, 12),
    "splinter": ({"size": "7x8"}, 4, 1, 12),
    "pente_grammai": ({}, 5, 1, 100),  # dice decide many games: more of them
}


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("game_id", HEAD_TO_HEAD)
def test_a_higher_level_beats_a_lower_one(game_id: str) -> None:
    options, strong, weak, games = HEAD_TO_HEAD[game_id]
    game = ludoteca.make(game_id, **options)
    wins = 0
    for number in range(games):
        seat = number % 2
        agents = [make_agent(game, strong, seed=number), make_agent(game, weak, seed=500 + number)]
        record = play_game(game, agents if seat == 0 else agents[::-1], seed=number)
        assert record.outcome is not None
        wins += record.outcome.returns[seat] > 0
    assert binomial_tail(wins, games) < ALPHA, f"level {strong} won {wins} of {games}"


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_solitaire_is_won_more_often_at_a_higher_level() -> None:
    game = ludoteca.make("steppin_stones")
    won = {}
    for level in (1, 5):
        won[level] = 0
        for number in range(12):
            record = play_game(game, [make_agent(game, level, seed=number)], seed=number)
            assert record.outcome is not None
            won[level] += record.outcome.returns[0] > 0
    assert fisher_one_sided(won[5], 12, won[1], 12) < ALPHA, won
