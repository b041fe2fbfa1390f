"""The kernels' `illegal_reason` agrees with the legal moves: a candidate move is refused exactly
when it is not legal, so the explanation of a refused move cannot drift from the rules."""

from __future__ import annotations

import random

from ludoteca import CHANCE
from ludoteca.games.steppin_stones import kernels as k
from ludoteca.games.steppin_stones import layout as c
from ludoteca.games.steppin_stones.layout import SUITS
from ludoteca.games.steppin_stones.state import SteppinStonesState
from tests.games.steppin_stones.helpers import make


def _positions(options: dict[str, object], count: int, seed: int) -> list[SteppinStonesState]:
    """Decision positions of random games, both phases included."""
    rng = random.Random(seed)
    found: list[SteppinStonesState] = []
    while len(found) < count:
        state = make(**options).initial_state()
        while not state.is_over and len(found) < count:
            assert isinstance(state, SteppinStonesState)
            if state.to_move != CHANCE and rng.random() < 0.04:
                found.append(state)
            state = state.apply(rng.choice(state.legal_moves()))
    return found


def _candidates(state: SteppinStonesState) -> list[tuple[str, int, int, int]]:
    """``(text, piece, origin, destination)`` for every move of every piece to every square."""
    layout = state.layout
    found = [("end", k.END_PIECE, -1, -1)]
    for origin in range(layout.num_squares):
        names = []
        code = state.coin(origin)
        if c.is_value_coin(code):
            suit = c.coin_suit(code)
            names.append((f"{SUITS[suit]}{c.coin_value(code)}", code))
            found.append((f"flip:{SUITS[suit]}{c.coin_value(code)}", k.FLIP_PIECE + code, -1, -1))
        elif c.is_stone(code):
            names.append((SUITS[c.coin_suit(code)], code))
        pawn = state.pawn(origin)
        if pawn is not None:
            names.append((f"{SUITS[pawn]}P", k.PAWN_PIECE + pawn))
        for name, piece in names:
            for destination in range(layout.num_squares):
                if destination != origin:
                    text = f"{name}:{layout.name(origin)}-{layout.name(destination)}"
                    found.append((text, piece, origin, destination))
    return found


def test_every_candidate_is_refused_exactly_when_it_is_not_legal() -> None:
    stages = set()
    variants: list[dict[str, object]] = [
        {},
        {"stones": "highest", "aces": 4, "aces_as_stones": True},
        {"large_board": True},
    ]
    for options in variants:
        for state in _positions(options, 10, seed=7):
            legal = {move.text for move in state.legal_moves()}
            game = state.game
            stages.add(state.stage)
            for text, piece, origin, destination in _candidates(state):
                code = k.illegal_reason(
                    state.cells, game.params, game.geometry, piece, origin, destination
                )
                assert (code == k.LEGAL_MOVE) == (text in legal), (state.to_text(), text, code)
    assert stages == {c.PLAY1, c.PLAY2}


def test_a_move_before_the_roll_is_refused_for_the_dice() -> None:
    state = make().initial_state()
    assert isinstance(state, SteppinStonesState)
    game = state.game
    code = k.illegal_reason(state.cells, game.params, game.geometry, k.END_PIECE, -1, -1)
    assert code == k.WHY_DICE_FIRST
