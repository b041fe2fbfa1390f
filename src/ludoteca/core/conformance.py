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
rollouts and playouts repeat, per-game records sum to the totals).
"""

from __future__ import annotations

import math
import random
from types import ModuleType
from typing import Any

import numpy as np

from ludoteca.core.array_state import ArrayState, KernelGame
from ludoteca.core.chance import sample_outcome
from ludoteca.core.errors import IllegalMoveError
from ludoteca.core.game import Game, Move, State
from ludoteca.core.info import DeclarationError, check_declaration
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


def _expect(condition: bool, message: str, state: State | None = None) -> None:
    if not condition:
        where = f" at position {state.to_text()!r}" if state is not None else ""
        raise ConformanceError(f"{message}{where}")


def _check_game_object(game: Game) -> None:
    _expect(game.num_players >= 1, "num_players must be at least 1")
    _expect(len(game.player_names) == game.num_players, "one player name per player")
    _expect(set(game.options) == {s.name for s in game.option_specs}, "options lists every option")
    _expect(type(game)(**game.options) == game, "a game rebuilt from its options must be equal")
    _expect(game.initial_state() == game.initial_state(), "initial states must compare equal")


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
