"""Shared helpers for the Steppin' Stones tests: the game, positions, where a piece can go.

Playing, refusing and listing moves are in `tests.support`.
"""

from __future__ import annotations

import ludoteca
from ludoteca.games.steppin_stones import SteppinStonesGame, SteppinStonesState
from tests.games.steppin_stones.diagrams import position
from tests.support import make_game, moves


def make(**options: object) -> SteppinStonesGame:
    return make_game("steppin_stones", SteppinStonesGame, **options)


def state_at(
    diagram: str, stage: str = "roll1", turns: int = 0, **options: object
) -> SteppinStonesState:
    """The position drawn in ``diagram`` at ``stage`` (e.g. ``"play1 S* M0"``)."""
    return make(**options).parse_state(position(diagram, stage, turns))


def destinations(state: ludoteca.State, piece: str) -> set[str]:
    """Where the legal moves of ``piece`` (e.g. ``"S2"``, ``"SP"``) lead."""
    return {text.rpartition("-")[2] for text in moves(state, piece + ":")}
