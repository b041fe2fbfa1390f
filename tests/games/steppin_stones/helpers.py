"""Shared helpers for the Steppin' Stones tests: building positions, playing, refusing."""

from __future__ import annotations

import pytest

import ludoteca
from ludoteca import IllegalMoveError
from ludoteca.games.steppin_stones import SteppinStonesGame, SteppinStonesState
from tests.games.steppin_stones.diagrams import position


def make(**options: object) -> SteppinStonesGame:
    game = ludoteca.make("steppin_stones", **options)
    assert isinstance(game, SteppinStonesGame)
    return game


def state_at(
    diagram: str, stage: str = "roll1", turns: int = 0, **options: object
) -> SteppinStonesState:
    """The position drawn in ``diagram`` at ``stage`` (e.g. ``"play1 S* M0"``)."""
    return make(**options).parse_state(position(diagram, stage, turns))


def moves(state: ludoteca.State, prefix: str = "") -> set[str]:
    """The texts of the legal moves that start with ``prefix``."""
    return {move.text for move in state.legal_moves() if move.text.startswith(prefix)}


def destinations(state: ludoteca.State, piece: str) -> set[str]:
    """Where the legal moves of ``piece`` (e.g. ``"S2"``, ``"SP"``) lead."""
    return {text.rpartition("-")[2] for text in moves(state, piece + ":")}


def play(state: ludoteca.State, *texts: str) -> SteppinStonesState:
    for text in texts:
        state = state.apply(text)
    assert isinstance(state, SteppinStonesState)
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
