"""Solved facts for the searching agents: they take a win in one and avoid a loss in one, and
they find wins that lie several plies deep.

Most positions were found by scanning seeded random games for decision nodes where only some
moves win at once (or only some moves leave the opponent no winning reply); those marked so were
built by hand. They are kept as position text with the good moves listed, so each can
be checked by eye with ``ludoteca.make(game).parse_state(text)``, and each test first checks
that the table is right.

Games without a loss in one to avoid: in Pente Grammai whether the opponent wins next depends on
its roll, so no loss in one is ever certain; in Salt 'n' Pepper a loss in one can only be put off
by one move (the other side's last piece then goes home anyway), so every move loses; and
Steppin' Stones has no opponent.

MCTS plays a win in one before any search (`ludoteca.ai.mcts._winning_move`), so the win-in-one
table alone says nothing about its search: a sign error in the backed-up value passed all six of
its positions. The search proper is therefore tested with that shortcut switched off (the same
table, every move now found by the backed-up values) and on wins several plies deep, in a solved
toy game where the one winning move's win comes only three to seven plies later.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import ludoteca
from ludoteca.ai import (
    Agent,
    AgentError,
    AlphaBetaAgent,
    ExpertAgent,
    MCTSAgent,
    hint,
    make_agent,
    mcts,
)
from ludoteca.ai.levels import LEVELS, BlunderingAgent, level_setting, rollout_plies
from ludoteca.core.chance import sample_outcome
from ludoteca.games.pente_grammai.solver import solve
from ludoteca.games.steppin_stones.planner import expert_move
from tests.core.toy_games import TakeAwayGame, ToyDiceGame

# (game, options, position text, the moves that win at once, number of legal moves)
WIN_IN_ONE = [
    (
        "splinter",
        {},
        "15/15/15/15/15/6X1O6/5o1s1x5/5OO2O5/5X9/4O1x1S6/4o1oSXOo4/4O1s1xo5/4X1O2O5/8xo5/"
        "15/15/15/15 r 31 SW:i9",
        {"g9-N", "g9-NW"},
        95,
    ),
    (
        "salta",
        {"scoring": "simplified"},
        ".O1.M4...S4.S5/..O2.M5.O4.../.S2.S3.M1...O3/..M2...S1.../.m5...O5..../....M3.s2.s1./"
        "...s4...o3.m2/..m4.o1...s5./.s3...m3.m1../..o5.o2.o4... r 239",
        {"h2-i1", "c3-d2", "e3-f4", "h4-g3", "g5-f4", "b6-c5", "b6-a5"},
        21,
    ),
    ("pente_grammai", {}, "w/./bbbb/w/w/w/b/././w 0 0 0 0 b 6 204", {"B2-W3"}, 2),
    ("pente_grammai", {}, "w/b/bbbb/./w/w/w/././w 0 0 0 0 b 1 4648", {"W2-W3"}, 2),
    (  # built by hand: Salt's last piece may step to h1 or leap home over Pepper's j1
        "salt_n_pepper",
        {},
        "........../........../........../........../........../........../........../"
        "........../........S./.........P s 200 0",
        {"i2xhome"},
        2,
    ),
    (  # built by hand: three suits home, the Sun pawn one step from its home tile
        "steppin_stones",
        {},
        "..s..m.MP/..SP+s..m../sss..mmm/......../......../aaa..ccc/..a..c../AP.a..c.CP"
        " 100 play2 S1",
        {"SP:c7-b7"},
        12,
    ),
]

# (game, options, position text, the moves after which the opponent cannot win at once)
AVOID_LOSS_IN_ONE = [
    (
        "salta",
        {"scoring": "simplified"},
        ".M3.O4...S1.O5/..m1.O3...S3./.....M5..../M2.S5...S4.M4./.O2.....S2../M1...O1.s2.../"
        ".s5.s3.o4.o1../m4.o2.....m3./...s4.s1.m5.m2/....o5...o3. g 238",
        {"a7-b8"},
    ),
    (
        "splinter",
        {},
        "15/15/15/15/15/6X1O6/5o1s1x5/4XOO2O5/5x9/4O1S8/3o2o8/4O10/4X10/15/15/15/15/15 b 34 W:d8",
        {"e9-NE", "g9-N", "g9-NE", "g9-NW", "f11-SE", "f11-S", "g11-S", "g11-SW", "i13-SW"},
    ),
]


def _searchers(game: ludoteca.Game) -> list[MCTSAgent | AlphaBetaAgent]:
    return [
        MCTSAgent(game, iterations=1000, seed=3),
        AlphaBetaAgent(game, seconds=None, max_depth=2, seed=3),
    ]


@pytest.mark.parametrize(("game_id", "options", "text", "winning", "count"), WIN_IN_ONE)
def test_search_takes_an_immediate_win(
    game_id: str, options: dict[str, object], text: str, winning: set[str], count: int
) -> None:
    game = ludoteca.make(game_id, **options)
    state = game.parse_state(text)
    assert len(state.legal_moves()) == count
    mover = state.to_move
    for move in state.legal_moves():  # the table is right: exactly these moves win at once
        after = state.apply(move)
        assert (after.is_over and after.outcome.winner == mover) == (move.text in winning)
    for agent in _searchers(game):
        assert agent.choose(state).text in winning, agent.name


# In the Salt 'n' Pepper position the other move wins a turn later whatever Pepper does, so
# only the shortcut (rightly) prefers the win now: the search values both the same.
SEARCHED_WIN_IN_ONE = [case for case in WIN_IN_ONE if case[0] != "salt_n_pepper"]


@pytest.mark.parametrize(("game_id", "options", "text", "winning", "count"), SEARCHED_WIN_IN_ONE)
def test_mcts_finds_the_immediate_win_by_search_with_its_shortcut_off(
    game_id: str,
    options: dict[str, object],
    text: str,
    winning: set[str],
    count: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The backed-up values alone must rank the winning move first.

    Mutants this catches (all passed the table above, which the shortcut answers): the backup
    subtracting the returns (``sums[player] -= reward``), selection maximising the opponent's
    mean, and the root choosing the least-visited child.
    """
    monkeypatch.setattr(mcts, "_winning_move", lambda state: None)
    state = ludoteca.make(game_id, **options).parse_state(text)
    assert len(state.legal_moves()) == count
    result = MCTSAgent(state.game, iterations=1000, seed=3).search(state)
    assert result.iterations > 1  # searched, not answered by the shortcut
    assert result.move.text in winning
    assert result.value > 0.5  # a sure win is worth close to +1 to the mover


TAKE_AWAY = TakeAwayGame()


@pytest.mark.parametrize("mover", [0, 1])
@pytest.mark.parametrize(("pile", "winning"), [(5, "take-1"), (6, "take-2"), (11, "take-3")])
def test_mcts_finds_a_win_several_plies_deep(pile: int, winning: str, mover: int) -> None:
    """Take-away from 5, 6 or 11 stones: one move leaves the opponent a multiple of 4, and the
    win comes 3 (5 and 6 stones) or 7 plies (11) later; no move wins at once. Both seats play
    it, so a backup that credits player 0 whoever chose fails too."""
    state = TAKE_AWAY.parse_state(f"{pile} {mover}")
    assert all(not state.apply(move).is_over for move in state.legal_moves())
    for seed in range(3):
        result = MCTSAgent(TAKE_AWAY, iterations=1000, seed=seed).search(state)
        assert result.move.text == winning, (seed, result.visits)
        assert result.value > 0.5
        assert result.visits[winning] == max(result.visits.values())


@pytest.mark.parametrize("mover", [0, 1])
@pytest.mark.parametrize("pile", [4, 8])
def test_mcts_knows_a_lost_position_is_lost(pile: int, mover: int) -> None:
    """A multiple of 4 loses whatever the mover does: its value must come out clearly negative
    (a sign error in the backup turns it positive)."""
    state = TAKE_AWAY.parse_state(f"{pile} {mover}")
    result = MCTSAgent(TAKE_AWAY, iterations=1000, seed=1).search(state)
    assert result.value < -0.5


@pytest.mark.parametrize(("game_id", "options", "text", "safe"), AVOID_LOSS_IN_ONE)
def test_search_avoids_an_immediate_loss(
    game_id: str, options: dict[str, object], text: str, safe: set[str]
) -> None:
    game = ludoteca.make(game_id, **options)
    state = game.parse_state(text)
    mover = state.to_move

    def opponent_wins_at_once(after: ludoteca.State) -> bool:
        if after.is_over:
            return after.outcome.winner not in (mover, None)
        return any(
            (reply := after.apply(m)).is_over and reply.outcome.winner == after.to_move
            for m in after.legal_moves()
        )

    losing = {m.text for m in state.legal_moves() if opponent_wins_at_once(state.apply(m))}
    assert losing and losing.isdisjoint(safe)
    assert losing | safe == {m.text for m in state.legal_moves()}
    for agent in _searchers(game):
        assert agent.choose(state).text in safe, agent.name


def test_mcts_plays_the_expected_best_move_through_chance_nodes() -> None:
    # In the toy dice race advancing by the roll always beats waiting; rolls are chance nodes.
    game = ToyDiceGame()
    state = game.initial_state().apply("first-0").apply("r2")
    for agent in (MCTSAgent(game, iterations=400, seed=1), MCTSAgent(game, iterations=400, seed=2)):
        result = agent.search(state)
        assert result.move.text == "advance"
        assert result.visits["advance"] > result.visits["wait"]


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_seeded_agents_are_deterministic(game_id: str) -> None:
    game = ludoteca.make(game_id)

    def moves(seed: int) -> list[str]:
        agents = [MCTSAgent(game, iterations=60, rollout_plies=8, seed=seed) for _ in range(2)]
        depth = AlphaBetaAgent(game, seconds=None, max_depth=1, seed=seed)
        state, texts = game.initial_state(), []
        for ply in range(12):
            if state.is_over:
                break
            if state.to_move == ludoteca.CHANCE:
                state = state.apply(state.legal_moves()[ply % len(state.legal_moves())])
                continue
            move = (agents[state.to_move % 2] if ply % 3 else depth).choose(state)
            assert move in state.legal_moves()
            texts.append(move.text)
            state = state.apply(move)
        return texts

    assert moves(5) == moves(5)


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
def test_different_seeds_give_different_play(game_id: str) -> None:
    """Same-seed equality alone is passed by an agent that ignores its seed (or plays one fixed
    line): here the seed must matter. A small budget leaves the tie orders and rollouts that
    the seed drives to decide; the dice come from one fixed generator, so only the agents
    differ."""
    game = ludoteca.make(game_id)

    def moves(seed: int) -> tuple[str, ...]:
        agent = MCTSAgent(game, iterations=8, rollout_plies=4, seed=seed)
        dice = random.Random(0)
        state, texts = game.initial_state(), []
        for _ in range(40):
            if state.is_over:
                break
            if state.to_move == ludoteca.CHANCE:
                move = sample_outcome(state, dice)
            else:
                move = agent.choose(state)
            texts.append(move.text)
            state = state.apply(move)
        return tuple(texts)

    assert moves(1) == moves(1)
    assert len({moves(seed) for seed in range(1, 5)}) > 1


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
@pytest.mark.parametrize("level", [1, 5])
def test_every_level_returns_a_legal_move(game_id: str, level: int) -> None:
    game = ludoteca.make(game_id)
    agent = make_agent(game, level, seed=1)
    if level == 5:  # keep the test quick: the same engine, a smaller budget
        agent = _quicker(agent)
    state = game.initial_state()
    for ply in range(6):
        if state.is_over:
            break
        if state.to_move == ludoteca.CHANCE:
            state = state.apply(state.legal_moves()[ply % len(state.legal_moves())])
            continue
        move = agent.choose(state)
        assert move in state.legal_moves()
        state = state.apply(move)


def _quicker(agent: object) -> Agent:
    if isinstance(agent, BlunderingAgent):
        agent.inner = _quicker(agent.inner)
        return agent
    if isinstance(agent, MCTSAgent):
        agent.iterations, agent.seconds = 100, None
        return agent
    if isinstance(agent, ExpertAgent):  # already answers in milliseconds
        return agent
    assert isinstance(agent, AlphaBetaAgent)
    agent.max_nodes = 500
    return agent


def test_a_node_budget_makes_alpha_beta_reproducible_and_bounded() -> None:
    game = ludoteca.make("salt_n_pepper", first=0)
    state = game.initial_state()
    first = AlphaBetaAgent(game, seconds=None, max_nodes=3000, seed=4)
    again = AlphaBetaAgent(game, seconds=None, max_nodes=3000, seed=4)
    result = first.search(state)
    assert result == again.search(state)
    assert first.nodes <= 3001  # stops on the first node past the budget
    assert result.iterations >= 2  # the depth of the deepest finished search


def test_level_one_blunders_sometimes_and_level_three_does_not() -> None:
    game = ludoteca.make("salta")
    assert isinstance(make_agent(game, 1), BlunderingAgent)
    assert not isinstance(make_agent(game, 3), BlunderingAgent)


@pytest.mark.parametrize("agent_kind", ["mcts", "alphabeta", "level", "hint", "expert"])
def test_agents_refuse_chance_nodes_and_finished_games(agent_kind: str) -> None:
    chance = ludoteca.make("pente_grammai").initial_state()
    assert chance.to_move == ludoteca.CHANCE
    if agent_kind == "expert":  # Salta has no expert: a Pente Grammai game won by White
        finished = chance.game.parse_state("./././././././wwwww/./. 0 5 0 0 b - 91")
    else:
        finished = ludoteca.make("salta", move_limit=1, scoring="simplified").initial_state()
        finished = finished.apply("c3-d4").apply("h8-g7")
    assert finished.is_over
    for state, message in ((chance, "chance node"), (finished, "the game is over")):
        with pytest.raises(AgentError, match=message):
            if agent_kind == "mcts":
                MCTSAgent(state.game, iterations=10).choose(state)
            elif agent_kind == "alphabeta":
                AlphaBetaAgent(state.game, max_depth=1).choose(state)
            elif agent_kind == "level":
                make_agent(state.game, 2).choose(state)
            elif agent_kind == "expert":
                ExpertAgent(state.game).choose(state)
            else:
                hint(state, level=1)


def test_hint_gives_a_legal_move_and_a_win_chance() -> None:
    game = ludoteca.make("splinter")
    state = game.parse_state(WIN_IN_ONE[0][2])
    suggestion = hint(state, level=3)
    assert suggestion.move.text in WIN_IN_ONE[0][3]
    assert suggestion.win_chance > 0.9
    assert suggestion.level == 3


def test_the_pente_grammai_hint_is_perfect_play_with_its_exact_chance() -> None:
    game = ludoteca.make("pente_grammai")
    state = game.parse_state("w/././././././wwww/./. 0 5 0 0 w 6 30")
    suggestion = hint(state)
    values = solve(game.params).move_values(state)
    best = max(values.values())
    assert suggestion.move.text == "W1-B2"  # not moving a counter on from the goal
    assert suggestion.win_chance == pytest.approx((best + 1) / 2)
    assert 0.5 < suggestion.win_chance < 1


def test_the_steppin_stones_hint_is_the_planners_own_move() -> None:
    game = ludoteca.make("steppin_stones")
    state = game.initial_state()
    rng = random.Random(2)
    while state.to_move == ludoteca.CHANCE or len(state.legal_moves()) < 3:
        state = state.apply(rng.choice(state.legal_moves()))
    action, value = expert_move(state)
    suggestion = hint(state)
    assert suggestion.move == state.move_from_index(action)
    assert suggestion.win_chance == pytest.approx((value + 1) / 2)


@pytest.mark.parametrize("game_id", sorted(ludoteca.GAMES))
def test_higher_levels_never_play_more_random_moves(game_id: str) -> None:
    game = ludoteca.make(game_id)
    rates = [level_setting(game, level).blunder for level in LEVELS]
    assert rates == sorted(rates, reverse=True)
    assert rates[0] > 0  # every beginner blunders now and then


def test_only_games_with_an_expert_have_one() -> None:
    assert isinstance(make_agent(ludoteca.make("pente_grammai"), 5), ExpertAgent)
    with pytest.raises(AgentError, match="salta has no expert player; use level:N, mcts"):
        ExpertAgent(ludoteca.make("salta"))


def test_bad_levels_and_budgets_are_refused() -> None:
    game = ludoteca.make("salta")
    for level in (0, 6, True, "3"):
        with pytest.raises(AgentError, match="level must be 1, 2, 3, 4 or 5"):
            make_agent(game, level)  # type: ignore[arg-type]
    with pytest.raises(AgentError, match="needs a budget"):
        MCTSAgent(game, iterations=None, seconds=None)
    with pytest.raises(AgentError, match="iterations must be at least 1"):
        MCTSAgent(game, iterations=0)
    with pytest.raises(AgentError, match="seconds must be above 0"):
        AlphaBetaAgent(game, seconds=-1)
    with pytest.raises(AgentError, match="needs a heuristics module"):
        AlphaBetaAgent(ToyDiceGame())


# -- the compiled search leaf (ludoteca.core.info.SearchLeaf) -----------------------------------


def _without_search_leaf(game: ludoteca.Game) -> ludoteca.Game:
    """The same game, declared without its compiled search leaf."""
    cls = type(game)
    info = dataclasses.replace(cls.info, search_leaf=None)
    plain = type(f"{cls.__name__}WithoutLeaf", (cls,), {"info": info})
    return plain(**game.options)


def _decision_positions(game: ludoteca.Game, plies: tuple[int, ...]) -> list[ludoteca.State]:
    """Decisions between several moves in a seeded random game, one at or after each ``plies``."""
    rng, state, found = random.Random(7), game.initial_state(), []
    ply = 0
    while len(found) < len(plies) and not state.is_over:
        if state.to_move == ludoteca.CHANCE:
            state = state.apply(sample_outcome(state, rng))
            continue
        moves = state.legal_moves()
        if ply >= plies[len(found)] and len(moves) > 1:
            found.append(state)
        state = state.apply(rng.choice(moves))
        ply += 1
    assert len(found) == len(plies)
    return found


@pytest.mark.parametrize("game_id", ludoteca.GAMES)
@pytest.mark.parametrize("cut", ["heuristic", "capped"])
def test_mcts_searches_the_same_with_and_without_the_compiled_leaf(game_id: str, cut: str) -> None:
    game = ludoteca.make(game_id)
    assert game.info.search_leaf is not None
    plain = _without_search_leaf(game)
    assert plain.info.search_leaf is None and plain == game
    if cut == "heuristic":
        settings: dict[str, Any] = {"rollout_plies": rollout_plies(game)}
    else:
        settings = {"heuristic": False, "rollout_plies": 200}
    for state in _decision_positions(game, (0, 9, 20)):
        fast = MCTSAgent(game, iterations=300, seed=3, **settings).search(state)
        slow = MCTSAgent(plain, iterations=300, seed=3, **settings).search(
            plain.parse_state(state.to_text())
        )
        assert fast.iterations > 1  # not a forced move
        assert (fast.move.text, fast.value, fast.iterations, fast.visits) == (
            slow.move.text,
            slow.value,
            slow.iterations,
            slow.visits,
        )
