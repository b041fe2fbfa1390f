"""The conformance check every game must pass (like Gymnasium's environment checker).

`check_game` plays seeded random games to the end and checks, at every position, what the
`Game`/`State` contract promises: text round trips of moves and positions, immutability,
equality and hashing by value, legal moves that are unique and consistent with their integer
actions (`legal_actions`, `apply_action`), chance probabilities that sum to 1, returns that match
the winner, determinism by seed, and termination. Game authors run it on a new game before
anything else. It also checks the game's declaration (`ludoteca.core.info.check_declaration`):
the levels, heuristics and expert agree, and the start position's drawing uses only declared
piece styles.

For a game with compiled kernels (`KernelGame`), `check_kernels` also checks the kernels module
against the kernel contract (`ludoteca.core.kernels`): every kernel is there with the contract's
parameters, in one order, and behaves as promised (sorted unique legal actions, ``apply_action``
leaves its input alone, ``expand`` agrees with ``legal_actions`` and ``apply_action``, seeded
rollouts and playouts repeat, per-game records sum to the totals), and the learning interface
that rests on them (`check_learning_interface`): observation tensors, masks, returns, chance
outcome indices and the batch kernels of `ludoteca.rl.VectorEnv`. A game that declares a compiled
search leaf is checked against the calls it replaces (`check_search_leaf`).
"""

from __future__ import annotations

import math
import pickle
import random
from types import ModuleType
from typing import Any

import numpy as np

from ludoteca.core.array_state import ArrayState, KernelGame
from ludoteca.core.chance import sample_outcome
from ludoteca.core.errors import IllegalMoveError
from ludoteca.core.game import Game, Move, State
from ludoteca.core.info import DeclarationError, SearchLeaf, check_declaration
from ludoteca.core.kernels import signature_problems
from ludoteca.core.outcome import CHANCE
from ludoteca.core.playouts import (
    GAME_OVER,
    R_DECISIONS,
    R_LEGAL_MOVES,
    R_PLIES,
    R_TURNS,
    T_DECISIONS,
    T_LEGAL_MOVES,
    T_PLIES,
    T_TURNS,
)
from ludoteca.core.search import GOING_ON, seed_generator
from ludoteca.core.vector_kernels import NO_ILLEGAL, random_legal_actions, seed_generators


class ConformanceError(AssertionError):
    """A game broke the contract; the message says where and how."""


def check_game(game: Game, *, games: int = 3, seed: int = 0, max_plies: int = 100_000) -> None:
    """Check ``game`` against the contract by playing ``games`` seeded random games.

    Raises:
        ConformanceError: The first broken promise, with the position text where it happened.
    """
    _check_game_object(game)
    try:
        check_declaration(game)
    except DeclarationError as error:
        raise ConformanceError(f"the game's declaration is inconsistent:\n{error}") from None
    if isinstance(game, KernelGame):
        check_kernels(game, seed=seed)
    for number in range(games):
        first = _play_random_game(game, seed + number, max_plies, check=True)
        again = _play_random_game(game, seed + number, max_plies, check=False)
        _expect(first == again, "the same seed gave a different game (non-determinism)")
        if isinstance(game, KernelGame):
            _expect(
                len(first) <= game.max_game_length,
                f"a game of {len(first)} plies is longer than max_game_length"
                f" ({game.max_game_length})",
            )


def _expect(condition: bool, message: str, state: State | None = None) -> None:
    if not condition:
        where = f" at position {state.to_text()!r}" if state is not None else ""
        raise ConformanceError(f"{message}{where}")


def _check_game_object(game: Game) -> None:
    _expect(game.num_players >= 1, "num_players must be at least 1")
    _expect(len(game.player_names) == game.num_players, "one player name per player")
    _expect(set(game.options) == {s.name for s in game.option_specs}, "options lists every option")
    _expect(type(game)(**game.options) == game, "a game rebuilt from its options must be equal")
    if _importable(game):
        _expect(pickle.loads(pickle.dumps(game)) == game, "a game must unpickle to an equal game")
    _expect(game.initial_state() == game.initial_state(), "initial states must compare equal")


def _importable(game: Game) -> bool:
    """Whether pickle can find the game's class (not one defined inside a function)."""
    return "<locals>" not in type(game).__qualname__


def _play_random_game(game: Game, seed: int, max_plies: int, *, check: bool) -> list[str]:
    """Play one seeded random game; return its move texts."""
    rng = random.Random(seed)
    check_rng = random.Random(-seed - 1)  # its own generator, so checking changes no move
    state = game.initial_state()
    texts: list[str] = []
    for _ in range(max_plies):
        if check:
            _check_state(game, state, check_rng)
        if state.is_over:
            return texts
        if state.to_move == CHANCE:
            move = sample_outcome(state, rng)
        else:
            move = rng.choice(state.legal_moves())
        texts.append(move.text)
        state = state.apply(move)
    raise ConformanceError(f"a random game did not end within {max_plies} plies (seed {seed})")


def _check_state(game: Game, state: State, rng: random.Random) -> None:
    text = state.to_text()
    parsed = game.parse_state(text)
    _expect(parsed == state, "parse_state(to_text()) must equal the state", state)
    _expect(hash(parsed) == hash(state), "equal states must hash equal", state)
    _expect(parsed.to_text() == text, "the position text must be canonical", state)
    _expect(bool(str(state)), "str(state) must draw the board", state)
    if _importable(game):
        _expect(pickle.loads(pickle.dumps(state)) == state, "a state must unpickle equal", state)
    if state.is_over:
        _check_finished(game, state)
        return
    _expect(state.outcome is None, "a running game has no outcome", state)
    to_move = state.to_move
    _expect(
        to_move == CHANCE or (to_move is not None and 0 <= to_move < game.num_players),
        f"to_move must be a player index or CHANCE; got {to_move!r}",
        state,
    )
    moves = state.legal_moves()
    _expect(len(moves) > 0, "a running game must have a legal move (pass if nothing else)", state)
    _expect(len({m.text for m in moves}) == len(moves), "legal move texts must be unique", state)
    _expect(len({m.index for m in moves}) == len(moves), "legal move indices must be unique", state)
    _expect(moves == state.legal_moves(), "legal_moves() must be the same every call", state)
    if to_move == CHANCE:
        _check_chance_node(state, moves)
    else:
        _expect(state.chance_outcomes() == (), "chance_outcomes() is () at a decision", state)
        _expect(
            all(0 <= m.index < game.num_actions and not m.is_chance for m in moves),
            "decision moves have indices in range(game.num_actions)",
            state,
        )
    _expect(
        state.legal_actions() == tuple(m.index for m in moves),
        "legal_actions() must list the indices of legal_moves() in the same order",
        state,
    )
    for move in rng.sample(moves, min(len(moves), 4)):
        _check_move(state, move, text)


def _check_chance_node(state: State, moves: tuple[Move, ...]) -> None:
    outcomes = state.chance_outcomes()
    _expect(tuple(m for m, _ in outcomes) == moves, "chance outcomes are the legal moves", state)
    probabilities = [p for _, p in outcomes]
    _expect(all(p > 0 for p in probabilities), "chance probabilities must be positive", state)
    _expect(math.isclose(sum(probabilities), 1.0), "chance probabilities must sum to 1", state)
    _expect(all(m.is_chance for m in moves), "chance outcomes are marked is_chance", state)


def _check_move(state: State, move: Move, text_before: str) -> None:
    _expect(state.parse_move(move.text) == move, f"parse_move({move.text!r}) must give it", state)
    _expect(state.move_from_index(move.index) == move, "move_from_index must give the move", state)
    after = state.apply(move)
    _expect(state.to_text() == text_before, "apply must not change the state", state)
    _expect(after == state.apply(move.text), "apply(move) and apply(text) must agree", state)
    _expect(after == state.apply_action(move.index), "apply_action must agree with apply", state)
    try:
        state.apply(_impossible_move(move))
    except IllegalMoveError:
        pass
    else:
        _expect(False, "a move that is not legal must raise IllegalMoveError", state)


def _impossible_move(move: Move) -> Move:
    return type(move)(-1, move.text + "?", move.is_chance)


def _check_finished(game: Game, state: State) -> None:
    outcome = state.outcome
    _expect(outcome is not None, "a finished game has an outcome", state)
    assert outcome is not None
    _expect(state.to_move is None, "to_move is None once the game is over", state)
    _expect(state.legal_moves() == (), "a finished game has no legal moves", state)
    _expect(len(outcome.returns) == game.num_players, "one return per player", state)
    _expect(bool(outcome.reason), "the outcome gives a reason", state)
    if outcome.winner is None:
        expected = (-1.0,) if game.num_players == 1 else (0.0,) * game.num_players
        _expect(outcome.returns in ((0.0,) * game.num_players, expected), "draw returns", state)
    else:
        _expect(outcome.returns[outcome.winner] == 1.0, "the winner's return is +1", state)
        _expect(
            all(r == -1.0 for p, r in enumerate(outcome.returns) if p != outcome.winner),
            "every other player's return is -1",
            state,
        )


# -- the kernels ----------------------------------------------------------------------------


def check_kernels(game: KernelGame, *, seed: int = 0, plies: int = 40) -> None:
    """Check ``game``'s kernels module against the kernel contract (`ludoteca.core.kernels`).

    Raises:
        ConformanceError: The signatures break the contract (every problem listed), or a kernel
            misbehaves (the first problem found).
    """
    kernels: ModuleType = game.kernels
    args = game.kernel_args
    problems = signature_problems(kernels, len(args))
    if problems:
        raise ConformanceError("the kernels break the contract:\n  " + "\n  ".join(problems))
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        _check_kernels_at(kernels, args, state)
        if state.is_over:
            break
        state = state.apply_action(rng.choice(state.legal_actions()))
    start = game.initial_state().cells
    first = kernels.random_rollout(start.copy(), *args, 30, seed)
    _expect(
        np.array_equal(first, kernels.random_rollout(start.copy(), *args, 30, seed)),
        "random_rollout with the same seed must reach the same position",
    )
    totals = kernels.random_playouts(start.copy(), *args, 2, seed)
    _expect(
        np.array_equal(totals, kernels.random_playouts(start.copy(), *args, 2, seed)),
        "random_playouts with the same seed must give the same totals",
    )
    records, curve = kernels.random_playout_records(start.copy(), *args, 2, seed)
    for column, slot in (
        (R_PLIES, T_PLIES),
        (R_DECISIONS, T_DECISIONS),
        (R_LEGAL_MOVES, T_LEGAL_MOVES),
        (R_TURNS, T_TURNS),
    ):
        _expect(
            int(records[:, column].sum()) == int(totals[slot]),
            "random_playout_records must play the games of random_playouts (columns sum to"
            " the totals)",
        )
    _expect(int(curve[1].sum()) == int(totals[T_DECISIONS]), "the curve counts every decision")
    check_learning_interface(game, seed=seed, plies=plies)
    check_search_leaf(game, seed=seed, plies=plies)


def _check_kernels_at(kernels: ModuleType, args: Any, state: State) -> None:
    assert isinstance(state, ArrayState)
    mine = np.array(state.cells, copy=True)  # writeable: a kernel that writes into it is caught
    before = mine.tobytes()
    actions = kernels.legal_actions(mine, *args)
    _expect(mine.tobytes() == before, "legal_actions must leave the position unchanged")
    listed = actions.tolist()
    _expect(listed == sorted(set(listed)), "legal_actions must be sorted and unique")
    player = int(kernels.player_to_move(mine))
    to_move = GAME_OVER if state.to_move is None else state.to_move
    _expect(player == to_move, "player_to_move must agree with the state's to_move", state)
    _expect((player == GAME_OVER) == (len(listed) == 0), "no legal actions exactly when over")
    expanded, children, players = kernels.expand(mine, *args)
    _expect(mine.tobytes() == before, "expand must leave the position unchanged")
    _expect(expanded.tolist() == listed, "expand must list the actions of legal_actions")
    for i, action in enumerate(listed):
        after = kernels.apply_action(mine, *args, action)
        _expect(mine.tobytes() == before, "apply_action must leave its input unchanged")
        _expect(
            np.array_equal(after, children[i]),
            f"expand's child {i} must be apply_action's position after action {action}",
        )
        _expect(
            int(players[i]) == int(kernels.player_to_move(after)),
            "expand's players must be player_to_move of its children",
        )


# -- the search leaf (ludoteca.core.info.SearchLeaf) ----------------------------------------------

# Rollout lengths the leaf is checked with: none, short, the searches' usual, and to the end.
_TO_THE_END = 1 << 30
_LEAF_PLIES = (0, 3, 10)
# Plies played from the start after each leaf, to compare where numba's generator was left.
_DRAWS_AFTER = 12


def check_search_leaf(game: KernelGame, *, seed: int = 0, plies: int = 40) -> None:
    """Check ``game``'s compiled search leaf, if it declares one (see `ludoteca.core.info`).

    Along a seeded random game, at decision and chance nodes, for a few legal actions, with
    rollouts of 0, 3 and 10 plies (and, at every fourth position, for one of them, to the end
    of the game), with and without the heuristic: from numba's generator seeded alike,
    ``search_leaf`` must give exactly what ``apply_action``, ``random_rollout`` (`GOING_ON`)
    and then the outcome's returns, the declared ``evaluate`` or zeros give: the same child
    array, its ``player_to_move``, the same float64 values (one per player), its input left
    alone, and the generator left where the rollout leaves it.

    Raises:
        ConformanceError: The first difference found.
    """
    leaf = game.info.search_leaf
    if leaf is None:
        return
    _expect(game.info.evaluate is not None, "a game with search_leaf must declare evaluate")
    rng = random.Random(seed)
    pick = random.Random(-seed - 1)  # its own generator, so checking changes no move
    state = game.initial_state()
    draws = seed * 1_000_003
    for ply in range(plies):
        if state.is_over:
            break
        actions = state.legal_actions()
        sample = pick.sample(actions, min(len(actions), 3))
        cases = [(a, n, h) for a in sample for n in _LEAF_PLIES for h in (True, False)]
        if ply % 4 == 0:  # rollouts to the end (slow in some games): one action, every 4th ply
            cases += [(sample[0], _TO_THE_END, heuristic) for heuristic in (True, False)]
        for action, max_plies, heuristic in cases:
            draws += 1
            _check_leaf_at(game, leaf, state, action, max_plies, heuristic, draws)
        state = state.apply_action(rng.choice(actions))


def _check_leaf_at(
    game: KernelGame,
    leaf: SearchLeaf,
    state: ArrayState,
    action: int,
    max_plies: int,
    heuristic: bool,
    draws: int,
) -> None:
    args = game.kernel_args
    kernels: ModuleType = game.kernels
    start = game.initial_state().cells
    mine = np.array(state.cells, copy=True)
    before = mine.tobytes()
    number = draws % (1 << 31)  # numba's seeds are 32-bit
    seed_generator(number)
    child, player, values = leaf(mine, *args, action, max_plies, heuristic)
    leaf_next = kernels.random_rollout(start, *args, _DRAWS_AFTER, GOING_ON)
    _expect(mine.tobytes() == before, "search_leaf must leave its input unchanged", state)
    seed_generator(number)
    after = state.successor(action)
    end = after.random_rollout(max_plies, GOING_ON)
    calls_next = kernels.random_rollout(start, *args, _DRAWS_AFTER, GOING_ON)
    evaluate = game.info.evaluate
    assert evaluate is not None
    if end.outcome is not None:
        expected = list(end.outcome.returns)
    elif heuristic:
        expected = list(evaluate(end))
    else:
        expected = [0.0] * game.num_players
    call = f"search_leaf(action {action}, max_plies {max_plies}, heuristic {heuristic})"
    _expect(
        np.array_equal(child, after.cells),
        f"{call} must give apply_action's position",
        state,
    )
    _expect(
        int(player) == int(kernels.player_to_move(after.cells)),
        f"{call} must give player_to_move of the position after the action",
        state,
    )
    _expect(
        isinstance(values, np.ndarray)
        and values.dtype == np.float64
        and values.shape == (game.num_players,),
        f"{call} must give a float64 array of one value per player",
        state,
    )
    _expect(
        values.tolist() == expected,
        f"{call} gave the values {values.tolist()}; apply_action, random_rollout and"
        f" {'the returns or evaluate' if heuristic else 'the returns or zeros'} give {expected}",
        state,
    )
    _expect(
        np.array_equal(leaf_next, calls_next),
        f"{call} must draw from numba's generator exactly as random_rollout does",
        state,
    )


# -- the learning interface (ludoteca.rl) -------------------------------------------------------


def check_learning_interface(game: KernelGame, *, seed: int = 0, plies: int = 40) -> None:
    """Check the observations, masks, returns and chance indices, and the batch kernels.

    Along a seeded random game: `State.observation` has the declared shape and dtype, is finite,
    repeats, and leaves the position alone; `State.legal_action_mask` is True exactly at the
    legal actions of a decision (all False at a chance node and once over); `State.returns` is
    zeros until the end, then the outcome's; chance outcome indices lie in
    ``range(game.num_chance_outcomes)``. Then ``vector_reset`` and ``vector_step`` on a small
    batch: every row's observation, mask and player agree with the single-position kernels,
    and the same seed repeats the same batch.

    Raises:
        ConformanceError: The first problem found.
    """
    shape = game.observation_shape
    _expect(
        isinstance(shape, tuple) and all(isinstance(d, int) and d > 0 for d in shape),
        f"observation_shape must be a tuple of positive ints; got {shape!r}",
    )
    _expect(game.num_chance_outcomes >= 0, "num_chance_outcomes must not be negative")
    _expect(game.max_game_length >= 1, "max_game_length must be at least 1")
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        _check_learning_at(game, state)
        if state.is_over:
            break
        state = state.apply_action(rng.choice(state.legal_actions()))
    _check_batch_kernels(game, seed)


def _check_learning_at(game: KernelGame, state: ArrayState) -> None:
    shape = game.observation_shape
    before = state.cells.tobytes()
    for player in range(game.num_players):
        tensor = state.observation(player)
        _expect(tensor.shape == shape, f"observation shape {tensor.shape}, declared {shape}", state)
        _expect(tensor.dtype == np.float32, "observations are float32", state)
        _expect(bool(np.isfinite(tensor).all()), "observations are finite", state)
        _expect(np.array_equal(tensor, state.observation(player)), "observations repeat", state)
    mine = np.array(state.cells, copy=True)
    game.kernels.observation(mine, *game.kernel_args, 0, np.empty(tensor.size, dtype=np.float32))
    game.kernels.action_mask(mine, *game.kernel_args, np.empty(game.num_actions, dtype=np.bool_))
    _expect(mine.tobytes() == before, "observation and action_mask leave the position alone", state)
    mask = state.legal_action_mask()
    _expect(mask.shape == (game.num_actions,) and mask.dtype == np.bool_, "mask shape", state)
    decision = state.to_move is not None and state.to_move != CHANCE
    expected = sorted(state.legal_actions()) if decision else []
    _expect(
        np.flatnonzero(mask).tolist() == expected,
        "legal_action_mask must be True exactly at the legal actions of a decision (all False"
        " at a chance node and once over)",
        state,
    )
    returns = state.returns()
    if state.outcome is None:
        _expect(returns == (0.0,) * game.num_players, "returns are zeros until the end", state)
    else:
        _expect(returns == state.outcome.returns, "returns are the outcome's at the end", state)
    outcomes = state.chance_outcome_actions()
    if state.to_move == CHANCE:
        _expect(
            [i for i, _ in outcomes] == list(state.legal_actions()),
            "chance_outcome_actions lists the chance outcomes' indices",
            state,
        )
        _expect(
            all(0 <= i < game.num_chance_outcomes for i, _ in outcomes),
            f"chance outcome indices must lie in range(num_chance_outcomes)"
            f" ({game.num_chance_outcomes})",
            state,
        )
    else:
        _expect(outcomes == (), "chance_outcome_actions is () away from a chance node", state)


def _check_batch_kernels(game: KernelGame, seed: int, rows: int = 3, steps: int = 30) -> None:
    kernels: ModuleType = game.kernels
    args = game.kernel_args

    def run() -> list[bytes]:
        initial = np.array(game.initial_state().cells, dtype=np.int32)
        batch = np.empty((rows, initial.shape[0]), dtype=np.int32)
        size = int(np.prod(game.observation_shape))
        observations = np.zeros((rows, size), dtype=np.float32)
        masks = np.zeros((rows, game.num_actions), dtype=np.bool_)
        players = np.zeros(rows, dtype=np.int64)
        rewards = np.zeros((rows, game.num_players), dtype=np.float32)
        terminated = np.zeros(rows, dtype=np.bool_)
        chance = np.zeros(rows, dtype=np.uint64)
        choice = np.zeros(rows, dtype=np.uint64)
        actions = np.zeros(rows, dtype=np.int64)
        seed_generators(chance, seed)
        seed_generators(choice, seed + 1)
        status = kernels.vector_reset(batch, *args, initial, observations, masks, players, chance)
        _expect(status == NO_ILLEGAL, f"vector_reset returned {status}")
        seen = []
        for _ in range(steps):
            _check_rows(game, batch, observations, masks, players)
            random_legal_actions(masks, choice, actions)
            status = kernels.vector_step(
                batch,
                *args,
                initial,
                actions,
                observations,
                masks,
                players,
                rewards,
                terminated,
                chance,
            )
            _expect(status == NO_ILLEGAL, f"vector_step refused legal actions ({status})")
            for row in range(rows):
                if not terminated[row]:
                    _expect(not rewards[row].any(), "rewards are zero until a game ends")
            seen.append(batch.tobytes() + rewards.tobytes())
        random_legal_actions(masks, choice, actions)
        illegal = actions.copy()
        illegal[rows - 1] = -1  # the rows before it are legal: nothing may move
        before = batch.tobytes()
        status = kernels.vector_step(
            batch,
            *args,
            initial,
            illegal,
            observations,
            masks,
            players,
            rewards,
            terminated,
            chance,
        )
        _expect(status == rows - 1, "vector_step must return the row of an illegal action")
        _expect(batch.tobytes() == before, "vector_step must change nothing when it refuses")
        return seen

    _expect(run() == run(), "vector_step with the same seed must play the same games")


def _check_rows(
    game: KernelGame,
    batch: np.ndarray[Any, Any],
    observations: np.ndarray[Any, Any],
    masks: np.ndarray[Any, Any],
    players: np.ndarray[Any, Any],
) -> None:
    start = game.initial_state()
    for row in range(batch.shape[0]):
        state = start.child(batch[row])
        _expect(
            state.to_move == int(players[row]),
            "a batch row shows a decision and its player to move",
            state,
        )
        _expect(
            np.array_equal(observations[row], state.observation(int(players[row])).ravel()),
            "a batch row's observation is the observation kernel's for the player to move",
            state,
        )
        _expect(
            np.array_equal(masks[row], state.legal_action_mask()),
            "a batch row's mask is the action_mask kernel's",
            state,
        )
