"""Steppin' Stones diffed against a plain-Python reference written from the rules page.

`tests.games.steppin_stones.reference` shares no code with the engine (it imports nothing from
``ludoteca``). At every position of seeded games, under every option, the two must agree on
the position text, whether and how the game is over, the legal moves (the rolls and their
probabilities at chance nodes), and the position text after each move. Random games cover
phase 1 and the stone shuffling of phase 2; games played by the planner (with random moves
mixed in, as the levels do) also bring pawns home, retire suits and win; the scenario
positions add dead ends and pawns next to their home tiles.

Before this reference the random-play check was a snapshot the engine wrote itself
(``data/playthroughs.txt``). A mutant that never marks a value die used (``_use_value_die``
setting 0 instead of 1) made ``test_planner.py`` loop for ever, since the dice never run out;
the suite's per-test timeout now fails that test after 300 s, and the tests here fail at once
(the position text after a value move lacks its ``-``).
"""

from __future__ import annotations

import random

import pytest

import ludoteca
from ludoteca import CHANCE
from ludoteca.ai import make_agent
from ludoteca.core.chance import sample_outcome
from tests.games.steppin_stones import reference
from tests.games.steppin_stones.diagrams import position
from tests.games.steppin_stones.positions import (
    ACE_NEXT_DOOR,
    ALMOST_WON,
    HOME_RUN,
    LARGE_PHASE_TWO,
    NULL_IN_THE_WAY,
    PHASE_TWO,
    WALLED_IN,
)

# Every option and value of the rules page, each in at least one set.
OPTION_SETS: dict[str, dict[str, object]] = {
    "default": {},
    "highest": {"stones": "highest"},
    "two-aces": {"aces": 2},
    "four-aces-as-stones": {"aces": 4, "aces_as_stones": True},
    "large-board": {"large_board": True},
    "large-board-two-aces-as-stones": {"large_board": True, "aces": 2, "aces_as_stones": True},
    "large-highest-four-aces": {"large_board": True, "stones": "highest", "aces": 4},
}


def reference_options(game: ludoteca.Game) -> reference.Options:
    return reference.Options(**game.options)  # type: ignore[arg-type]


def check_against_the_reference(
    state: ludoteca.State, *, every_roll: bool = False, move_step: int = 1
) -> int:
    """Compare one position with the reference; return how many moves were applied on both.

    One move in ``move_step`` is applied at a decision; at a roll (up to 1,296 outcomes) one in
    37 unless ``every_roll``.
    """
    options = reference_options(state.game)
    text = state.to_text()
    here = reference.parse(text, options)
    assert reference.to_text(here) == text
    ended = reference.outcome(here)
    if state.outcome is not None or ended is not None:
        assert state.outcome is not None and ended is not None, (text, state.outcome, ended)
        assert (state.outcome.returns[0], state.outcome.reason) == ended, text
        assert state.legal_moves() == ()
        return 0
    legal = state.legal_moves()
    expected = reference.legal_moves(here)
    engine = {move.text for move in legal}
    assert engine == expected, (
        f"{text}\nengine only: {sorted(engine - expected)}\n"
        f"reference only: {sorted(expected - engine)}"
    )
    if state.to_move == CHANCE:
        probabilities = reference.chance_outcomes(here)
        for move, probability in state.chance_outcomes():
            assert probability == pytest.approx(probabilities[move.text], abs=1e-12)
        legal = legal if every_roll else legal[::37]
    else:
        legal = legal[::move_step]
    for move in legal:
        after = state.apply(move).to_text()
        assert after == reference.to_text(reference.apply(here, move.text)), (text, move.text)
    return len(legal)


def play_and_check(
    state: ludoteca.State,
    rng: random.Random,
    *,
    chooser: ludoteca.ai.Agent | None = None,
    move_step: int = 1,
) -> list[ludoteca.State]:
    """Play ``state`` to its end (dice by their odds, moves at random or by ``chooser``),
    checking every position against the reference; return the positions."""
    positions = [state]
    while True:
        check_against_the_reference(state, move_step=move_step)
        if state.is_over:
            return positions
        if state.to_move == CHANCE:
            move = sample_outcome(state, rng)
        elif chooser is not None:
            move = chooser.choose(state)
        else:
            move = rng.choice(state.legal_moves())
        state = state.apply(move)
        positions.append(state)


@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
def test_random_games_agree_with_the_reference(options: dict[str, object]) -> None:
    game = ludoteca.make("steppin_stones", max_turns=25, **options)
    positions = play_and_check(game.initial_state(), random.Random(11))
    assert positions[-1].outcome is not None
    assert "safeguard" in positions[-1].outcome.reason


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS.values(), ids=OPTION_SETS.keys())
def test_long_random_games_agree_with_the_reference(options: dict[str, object]) -> None:
    # Long enough for the suits to reach phase 2 and shuffle their stones; a sample of the
    # moves of each position is applied (all of them in the quick games above).
    game = ludoteca.make("steppin_stones", max_turns=150, **options)
    positions = play_and_check(game.initial_state(), random.Random(1), move_step=3)
    assert any(p.to_text().split()[2] == "play2" for p in positions)


def planned_game(options: dict[str, object], seed: int) -> list[ludoteca.State]:
    """A game of level 5 (the planner, a random move one time in two), checked throughout."""
    game = ludoteca.make("steppin_stones", **options)
    agent = make_agent(game, 5, seed=seed)
    return play_and_check(game.initial_state(), random.Random(seed), chooser=agent, move_step=2)


def test_a_planned_game_brings_the_pawns_home_as_the_reference_does() -> None:
    positions = planned_game({}, seed=0)
    outcome = positions[-1].outcome
    assert outcome is not None and outcome.returns[0] > 0  # this seed wins


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "seed"),
    [({}, 1), ({"large_board": True, "aces": 4, "aces_as_stones": True}, 0)],
    ids=["small", "large"],
)
def test_more_planned_games_agree_with_the_reference(options: dict[str, object], seed: int) -> None:
    positions = planned_game(options, seed)
    assert positions[-1].outcome is not None
    assert sum(p.to_text().count("P+") for p in positions) > 0  # pawns walked on stones


# A pawn arrives home while coins and pawns stand all around: the arrival may retire its suit
# and nothing else. A mutant that cleared the cell ``BUDGET_AT >> suit`` instead of the suit's
# budget (a stone on d4 or h7, or the pawn on d2, vanished) survived every other test.
ARMS_HOME_LAST = """
8 SP .  .  .  .  .  .  MP
7 .  .  s  .  .  .  .  .
6 s  s  s  .  .  m  m  m
5 .  .  .  .  .  .  .  .
4 .  s  .  m  .  .  .  .
3 a  a  .  .  .  c  c  c
2 .  .  AP+a .  .  c  .  .
1 .  .  a  a  m  c  .  CP
"""
CROWNS_HOME_LAST = """
8 SP .  .  .  .  .  .  MP
7 .  .  s  .  .  .  .  m
6 s  s  s  .  .  m  m  .
5 .  .  .  .  .  .  .  .
4 .  s  .  .  .  .  .  m
3 a  a  .  .  .  c  CP+c c
2 .  .  a  .  .  c  .  .
1 AP .  a  a  m  c  .  .
"""
MOONS_HOME_BESIDE_THE_ARMS = """
8 SP .  .  .  .  .  .  .
7 .  .  s  .  .  .  .  .
6 s  s  s  .  .  m  MP+m m
5 .  .  .  .  .  .  .  .
4 .  s  .  .  .  .  .  m
3 a  a  .  .  .  c  c  c
2 .  .  a  AP+a .  c  .  .
1 .  .  a  .  m  c  .  CP
"""

# The Suns alone are in play: their stones are walled in, and the pawn's one step left is onto
# its stone on a1, the board's first square. A dead-position check that skipped square 0 (a
# mutant testing ``nxt != 0`` for ``nxt >= 0``) ended this game.
ONE_STEP_TO_A1 = """
8 .  .  .  .  .  m  s  s
7 .  .  .  .  .  .  MP s
6 .  .  .  .  .  .  .  m
5 .  .  a  c  c  c  c  .
4 .  .  a  m  m  m  .  .
3 c  .  .  a  .  .  .  .
2 SP+s a  .  .  .  .  .  .
1 s  AP+a .  .  .  .  .  CP
"""

_BUDGETS = "play2 S6 M1 C1 A1"
SCENARIOS: dict[str, tuple[dict[str, object], str]] = {
    "phase-two-roll": ({}, position(PHASE_TWO, "roll2 S M C A")),
    "phase-two-budgets": ({}, position(PHASE_TWO, "play2 S5 M6 C0 A2")),
    "home-run": ({}, position(HOME_RUN, "play2 S5 M1 C0 A0")),
    "almost-won": ({}, position(ALMOST_WON, "play2 A2")),
    "walled-in": ({}, position(WALLED_IN, "roll2 A")),
    "null-in-the-way": ({}, position(NULL_IN_THE_WAY, "play2 S6 M2 C1")),
    "ace-next-door": ({"aces": 4, "aces_as_stones": True}, position(ACE_NEXT_DOOR, _BUDGETS)),
    "ace-next-door-no-stepping": ({"aces": 4}, position(ACE_NEXT_DOOR, _BUDGETS)),
    "large-phase-two": ({"large_board": True}, position(LARGE_PHASE_TWO, "play2 S6 M3 C1 A2")),
    "arms-home-last": ({}, position(ARMS_HOME_LAST, "play2 A2")),
    "crowns-home-last": ({}, position(CROWNS_HOME_LAST, "play2 C1")),
    "moons-home-beside-the-arms": ({}, position(MOONS_HOME_BESIDE_THE_ARMS, "play2 M1 A1")),
    "one-step-to-a1": ({}, position(ONE_STEP_TO_A1, "roll2 S")),
}


@pytest.mark.parametrize(("options", "text"), SCENARIOS.values(), ids=SCENARIOS.keys())
def test_scenario_positions_agree_with_the_reference(options: dict[str, object], text: str) -> None:
    game = ludoteca.make("steppin_stones", max_turns=4, **options)
    state = game.parse_state(text)
    assert check_against_the_reference(state, every_roll=True) > 0 or state.is_over
    play_and_check(state, random.Random(5))


@pytest.mark.parametrize("start", [None, "null-in-the-way", "phase-two-roll"])
def test_random_rollouts_end_in_positions_the_reference_agrees_with(start: str | None) -> None:
    """MCTS's rollouts run whole in the kernels, dice included, without the Python layer: where
    they stop, the position must be one the rules can reach and the reference agrees with."""
    game = ludoteca.make("steppin_stones", max_turns=30)
    state = game.initial_state() if start is None else game.parse_state(SCENARIOS[start][1])
    for plies in (1, 2, 3, 5, 8, 13, 40):
        for seed in range(3):
            end = state.random_rollout(plies, seed)
            assert game.parse_state(end.to_text()) == end
            check_against_the_reference(end)


def test_resigning_agrees_with_the_reference() -> None:
    game = ludoteca.make("steppin_stones")
    options = reference_options(game)
    rng = random.Random(3)
    state = game.initial_state()
    for _ in range(40):
        resigned = state.apply("resign")
        assert resigned.to_text() == reference.to_text(
            reference.apply(reference.parse(state.to_text(), options), "resign")
        )
        check_against_the_reference(resigned)
        legal = state.legal_moves()
        state = state.apply(sample_outcome(state, rng) if state.to_move == CHANCE else legal[-1])
