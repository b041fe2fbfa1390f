"""The Steppin' Stones planner (level 5): legal, deterministic, and right in plain positions."""

from __future__ import annotations

import random

import pytest

from ludoteca import CHANCE
from ludoteca.core.chance import sample_outcome
from ludoteca.games.steppin_stones import SteppinStonesState
from ludoteca.games.steppin_stones.planner import expert_move
from tests.games.steppin_stones.helpers import make, state_at
from tests.games.steppin_stones.positions import ALMOST_WON, HOME_RUN

OPTION_SETS = {
    "default": {},
    "highest": {"stones": "highest"},
    "aces-2": {"aces": 2},
    "aces-4-as-stones": {"aces": 4, "aces_as_stones": True},
    "large": {"large_board": True},
}


def planned_game(
    options: dict[str, object], seed: int, max_plies: int
) -> list[tuple[SteppinStonesState, int, float]]:
    """The decisions of a seeded game played by the planner: (position, action, value)."""
    rng = random.Random(seed)
    state = make(**options).initial_state()
    decisions = []
    for _ in range(max_plies):
        if state.is_over:
            break
        if state.to_move == CHANCE:
            after = state.apply(sample_outcome(state, rng))
        else:
            action, value = expert_move(state)
            decisions.append((state, action, value))
            after = state.apply_action(action)
        assert isinstance(after, SteppinStonesState)
        state = after
    return decisions


@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
def test_the_planner_chooses_a_legal_action_with_a_value_in_range(
    options: dict[str, object],
) -> None:
    decisions = planned_game(options, seed=1, max_plies=300)
    assert len(decisions) > 50
    for state, action, value in decisions:
        assert action in state.legal_actions()
        assert -1.0 <= value <= 1.0


def test_the_planner_plays_a_whole_game_to_its_end() -> None:
    rng = random.Random(7)
    state = make().initial_state()
    while not state.is_over:
        if state.to_move == CHANCE:
            after = state.apply(sample_outcome(state, rng))
        else:
            after = state.apply_action(expert_move(state)[0])
        assert isinstance(after, SteppinStonesState)
        state = after
    assert state.outcome is not None


def test_the_planner_is_deterministic() -> None:
    first = planned_game({}, seed=5, max_plies=200)
    again = planned_game({}, seed=5, max_plies=200)
    assert [(s.to_text(), a, v) for s, a, v in first] == [(s.to_text(), a, v) for s, a, v in again]
    state = first[-1][0]
    twin = make().parse_state(state.to_text())
    assert expert_move(state) == expert_move(twin)


def test_a_move_that_wins_at_once_is_taken() -> None:
    state = state_at(ALMOST_WON, "play2 A2")
    action, value = expert_move(state)
    assert state.move_from_index(action).text in {"AP:c2-b2", "AP:c2-b1"}  # both home tile
    won = state.apply_action(action)
    assert won.outcome is not None
    assert won.outcome.returns == (1.0,)
    assert value == 1.0


def planned_turn(state: SteppinStonesState) -> SteppinStonesState:
    """The position after the planner's moves until it ends the phase-2 turn."""
    while not state.is_over and state.to_move != CHANCE:
        after = state.apply_action(expert_move(state)[0])
        assert isinstance(after, SteppinStonesState)
        state = after
    return state


def test_a_pawn_beside_its_home_gets_home_this_turn() -> None:
    # It may first spend the rest of its budget on its stones: a die leaves play, budget and
    # all, the moment its pawn is home.
    state = planned_turn(state_at(HOME_RUN, "play2 S5 M1 C0 A0"))
    assert state.phase(0) == 0


def test_a_suit_face_is_honoured_before_the_turn_ends() -> None:
    state = make().initial_state().apply("S* M0 C0 A0")
    assert isinstance(state, SteppinStonesState)
    action, _ = expert_move(state)
    assert state.move_from_index(action).text.startswith("flip:")


def test_end_is_chosen_when_no_move_helps() -> None:
    # Only the Suns have a step, and their pawn is one step from home: it walks home, and with
    # no budget left anywhere the turn ends.
    state = state_at(HOME_RUN, "play2 S1 M0 C0 A0")
    action, _ = expert_move(state)
    assert state.move_from_index(action).text in {"SP:c7-b7", "SP:c7-b8"}
    home = state.apply_action(action)
    assert isinstance(home, SteppinStonesState)
    assert home.phase(0) == 0
    assert home.move_from_index(expert_move(home)[0]).text == "end"
