"""Nim is solved: the player to move loses when the pile is a multiple of ``max_take + 1``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ludoteca_nim.state import NimState


def _period(state: NimState) -> int:
    return int(state.game.options["max_take"]) + 1  # type: ignore[call-overload]


def evaluate(state: NimState) -> tuple[float, float]:
    """The exact returns: +1 for the player who can force a win."""
    mover = state.to_move
    assert mover is not None
    value = -1.0 if state.pile % _period(state) == 0 else 1.0
    return (value, -value) if mover == 0 else (-value, value)


def expert_move(state: NimState) -> tuple[int, float]:
    """Leave a multiple of ``max_take + 1`` when possible (a win), else take one (a loss)."""
    take = state.pile % _period(state)
    return (take - 1, 1.0) if take else (0, -1.0)
