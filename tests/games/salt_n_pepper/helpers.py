"""Shared helpers for the Salt 'n' Pepper tests: games, positions from diagrams, refusals."""

from __future__ import annotations

import pytest

import ludoteca
from ludoteca import IllegalMoveError
from ludoteca.games.salt_n_pepper import SaltNPepperGame, SaltNPepperState
from tests.games.salt_n_pepper.diagrams import position

SALT, PEPPER = 0, 1


def make(**options: object) -> SaltNPepperGame:
    game = ludoteca.make("salt_n_pepper", **options)
    assert isinstance(game, SaltNPepperGame)
    return game


def state_at(
    diagram: str, side: str, ply: int = 10, passes: int = 0, **options: object
) -> SaltNPepperState:
    """The position drawn in ``diagram`` with ``side`` (``"s"`` or ``"p"``) to move."""
    return make(**options).parse_state(position(diagram, side, ply, passes))


def moves(state: ludoteca.State) -> set[str]:
    return {move.text for move in state.legal_moves()}


def play(state: ludoteca.State, *texts: str) -> SaltNPepperState:
    for text in texts:
        state = state.apply(text)
    assert isinstance(state, SaltNPepperState)
    return state


def refused(state: ludoteca.State, text: str) -> str:
    """Apply an illegal move, check that nothing changed, and return the error message."""
    before_text, before_hash, before_moves = state.to_text(), hash(state), state.legal_moves()
    with pytest.raises(IllegalMoveError) as caught:
        state.apply(text)
    assert state.to_text() == before_text
    assert hash(state) == before_hash
    assert state.legal_moves() == before_moves
    return str(caught.value)
