"""The Salta heuristic: the race to the goal squares, as a value in [-1, 1] for each side."""

from __future__ import annotations

import random

import pytest

from ludoteca.games.salta import SaltaGame
from ludoteca.games.salta.heuristics import evaluate, plan_moves
from ludoteca.games.salta.state import SaltaState
from tests.games.salta.diagrams import position
from tests.support import make_game

GAMES = {
    "default": make_game("salta", SaltaGame),
    "played-scoring": make_game("salta", SaltaGame, move_limit=6, scoring_cap=15),
    "simplified-scoring": make_game("salta", SaltaGame, move_limit=6, scoring="simplified"),
}

each_game = pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())


def played_positions(game: SaltaGame, games: int = 6) -> list[SaltaState]:
    """Every position of a few seeded random games, chance nodes and finished ones included."""
    rng = random.Random(3)
    found: list[SaltaState] = []
    for _ in range(games):
        state = game.initial_state()
        found.append(state)
        while not state.is_over and len(found) < 400 * games:
            after = state.apply(rng.choice(state.legal_moves()))
            assert isinstance(after, SaltaState)
            state = after
            found.append(state)
    return found


@each_game
def test_values_are_in_range_with_one_entry_per_player(game: SaltaGame) -> None:
    for state in played_positions(game):
        values = evaluate(state)
        assert len(values) == game.num_players
        assert all(isinstance(v, float) and -1.0 <= v <= 1.0 for v in values)


@each_game
def test_values_are_zero_sum(game: SaltaGame) -> None:
    for state in played_positions(game):
        first, second = evaluate(state)
        assert first == -second


@each_game
def test_a_finished_game_is_worth_its_returns(game: SaltaGame) -> None:
    for state in played_positions(game):
        if state.outcome is not None:
            assert evaluate(state) == pytest.approx(state.outcome.returns)


@each_game
def test_evaluate_is_deterministic(game: SaltaGame) -> None:
    for state in played_positions(game, games=2):
        again = game.parse_state(state.to_text())
        assert evaluate(state) == evaluate(state) == evaluate(again)


def race(game: SaltaGame, leader: int, plies: int) -> SaltaState:
    """The position after ``leader`` heads for its goal while the other side backs away."""
    state = game.initial_state()
    for _ in range(plies):
        mover = state.to_move
        assert mover is not None
        successors: list[SaltaState] = []
        for move in state.legal_moves():
            after = state.apply(move)
            assert isinstance(after, SaltaState)
            successors.append(after)
        ranked = sorted(successors, key=lambda after: after.goal_distance(mover))
        after = ranked[0] if mover == leader else ranked[-1]
        assert isinstance(after, SaltaState)
        state = after
    return state


def test_the_start_position_is_about_even() -> None:
    green, _ = evaluate(GAMES["default"].initial_state())
    assert abs(green) < 0.1
    assert green > 0  # Green moves first: half a step ahead


@pytest.mark.parametrize("leader", [0, 1])
def test_the_side_nearer_its_goal_is_ahead(leader: int) -> None:
    state = race(GAMES["default"], leader, 30)
    assert state.goal_distance(leader) < state.goal_distance(1 - leader)
    values = evaluate(state)
    assert values[leader] > 0.5
    assert values[1 - leader] < -0.5


def test_in_the_played_scoring_phase_moves_made_count() -> None:
    game = GAMES["played-scoring"]
    state = race(game, 0, 14)
    assert state.in_scoring_phase
    green, red = state.scoring_moves
    lead = (red + state.goal_distance(1)) - (green + state.goal_distance(0))
    assert lead > 0
    assert evaluate(state)[0] > 0


def test_a_lead_counts_for_more_when_less_is_left_to_play() -> None:
    early = race(GAMES["default"], 0, 10)
    late = race(make_game("salta", SaltaGame, move_limit=6, scoring="simplified"), 0, 10)
    assert early.goal_distance(1) - early.goal_distance(0) == (
        late.goal_distance(1) - late.goal_distance(0)
    )
    assert evaluate(late)[0] > evaluate(early)[0] > 0


# -- the played scoring phase: the moves still needed ------------------------------------------

# Red is home in these positions (ranks 1-3), so only Green's race is open.
RED_HOME = """
 3 s5 .  s4 .  s3 .  s2 .  s1 .
 2 .  m5 .  m4 .  m3 .  m2 .  m1
 1 o5 .  o4 .  o3 .  o2 .  o1 .
"""


def scoring_position(
    green_ranks_10_to_4: str, red_moves: int = 80, green_moves: int = 0
) -> SaltaState:
    """A played-scoring position, Green to move, Red home after ``red_moves``."""
    diagram = green_ranks_10_to_4 + RED_HOME
    state = GAMES["default"].parse_state(position(diagram, 242, (green_moves, red_moves)))
    assert state.in_scoring_phase and not state.is_over
    return state


def green_plan(state: SaltaState) -> int:
    return int(plan_moves(state.cells, 0, state.game.goals))


GREEN_HOME_BUT = """
10 .  O1 .  O2 .  O3 .  O4 .  O5
 9 M1 .  M2 .  M3 .  {g9} .  M5 .
 8 .  S1 .  S2 .  S3 .  .  .  S5
 7 .  .  .  .  .  .  {g7} .  .  .
 6 .  .  .  .  .  .  .  .  .  M4
 5 .  .  .  .  .  .  .  .  .  .
 4 .  .  .  .  .  .  .  .  .  .
"""


def test_a_piece_on_another_pieces_goal_square_is_worse_than_the_square_empty() -> None:
    # Star 4 (goal h8) is one step from home either way, but on g9 it holds Moon 4's goal.
    squatting = scoring_position(GREEN_HOME_BUT.format(g9="S4", g7="."))
    aside = scoring_position(GREEN_HOME_BUT.format(g9=".", g7="S4"))
    assert squatting.goal_distance(0) == aside.goal_distance(0) == 4
    assert green_plan(aside) == 4
    assert green_plan(squatting) > green_plan(aside)
    assert evaluate(squatting)[0] < evaluate(aside)[0]


DEEP_OR_FRONT_EMPTY = """
10 .  O1 .  O2 .  {f10} .  O4 .  O5
 9 M1 .  M2 .  M3 .  M4 .  M5 .
 8 .  S1 .  S2 .  {f8} .  S4 .  S5
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  {f6} .  .  .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 .  .  .  .  .  {f4} .  .  .  .
"""


def test_filling_the_deepest_goal_rank_first_scores_better() -> None:
    # Four squares to go either way; but Sun 3 has to get through two full ranks to f10.
    front_empty = scoring_position(DEEP_OR_FRONT_EMPTY.format(f10="O3", f8=".", f6=".", f4="S3"))
    deep_empty = scoring_position(DEEP_OR_FRONT_EMPTY.format(f10=".", f8="S3", f6="O3", f4="."))
    assert front_empty.goal_distance(0) == deep_empty.goal_distance(0) == 4
    assert green_plan(front_empty) == 4
    assert green_plan(deep_empty) > green_plan(front_empty)
    assert evaluate(deep_empty)[0] < evaluate(front_empty)[0]


REVERSED_GOAL_AREA = """
10 .  S1 .  S2 .  S3 .  S4 .  S5
 9 M5 .  M4 .  M3 .  M2 .  M1 .
 8 .  O1 .  O2 .  O3 .  O4 .  O5
 7 .  .  .  .  .  .  .  .  .  .
 6 .  .  .  .  .  .  .  .  .  .
 5 .  .  .  .  .  .  .  .  .  .
 4 .  .  .  .  .  .  .  .  .  .
"""


def test_greedy_descent_finishes_the_scoring_phase_from_a_congested_position() -> None:
    # Every goal square is taken by the wrong piece: lowering the goal distance alone jams here.
    planned = green_plan(scoring_position(REVERSED_GOAL_AREA))
    state = scoring_position(REVERSED_GOAL_AREA, red_moves=planned + 1)
    while not state.is_over:
        mover = state.to_move
        assert mover is not None
        successors = [state.apply(move) for move in state.legal_moves()]
        best = max(successors, key=lambda after: evaluate(after)[mover])
        assert isinstance(best, SaltaState)
        state = best
    assert state.scoring_moves[0] <= planned
    assert state.outcome is not None and state.outcome.winner == 0


def scoring_phase_positions(seeds: range) -> list[SaltaState]:
    """Positions of random games from the start of the played scoring phase on."""
    game = GAMES["default"]
    found: list[SaltaState] = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.initial_state()
        while not state.in_scoring_phase:
            after = state.apply(rng.choice(state.legal_moves()))
            assert isinstance(after, SaltaState)
            state = after
        for _ in range(40):
            found.append(state)
            after = state.apply(rng.choice(state.legal_moves()))
            assert isinstance(after, SaltaState)
            state = after
    return found


def test_some_move_leaves_a_plan_one_move_shorter() -> None:
    # The plan depends on the position alone, so its own first move shortens it by one: a
    # search that lowers the count always finishes, within the plan's length.
    for state in scoring_phase_positions(range(3)):
        mover = state.to_move
        assert mover is not None
        goals = state.game.goals
        planned = plan_moves(state.cells, mover, goals)
        if planned == 0:
            continue
        after = [plan_moves(state.apply(move).cells, mover, goals) for move in state.legal_moves()]
        assert min(after) <= planned - 1


def test_the_plan_is_at_least_the_goal_distance() -> None:
    for state in scoring_phase_positions(range(3, 5)):
        for side in (0, 1):
            goals = state.game.goals
            assert plan_moves(state.cells, side, goals) >= state.goal_distance(side)
